/* tui_record.h - record and replay. A recording is a JSON-lines file: a header with the machine
 * it ran on (GPU, backend, simulated, driver, host CPU, date, vramlab version), then for each
 * experiment run a "run" line, every lt_event it emitted (all fields, with its time since the
 * run started) and an "end" line. A replay loads it and plays a run's events back to a sink at
 * (up to) the recorded pace, so a machine without a GPU shows what another one measured, and
 * says so: "REPLAY · <GPU> · <date>". No ncurses. */
#ifndef TUI_RECORD_H
#define TUI_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lt.h"

#define TUI_RECORD_FORMAT "vramlab-record"
#define TUI_RECORD_VERSION 2 /* 2: a map's blocks typed (owners, states, bytes, segs); texts
                                 * in English, and KEY_zh where Chinese differs */

/* ---- writing ---- */

struct tui_rec;
/* Start a recording to path and write the header: into a temporary file beside it (tui_state.h),
 * so path is not touched until tui_rec_close; refused when path is there and is not a regular
 * file (a link, a FIFO, a device). */
struct tui_rec *tui_rec_open(const char *path, struct lt_runtime *rt, const char *version,
                             char *err, size_t n);
/* End it. The recording replaces path when it was written whole and the command succeeded (ok)
 * or recorded at least one run to its end; otherwise path is left as it was. False with err when
 * it could not be put in place. NULL is fine. */
bool tui_rec_close(struct tui_rec *r, bool ok, char *err, size_t n);
/* A run of lesson/experiment starts; events until tui_rec_end belong to it. */
void tui_rec_begin(struct tui_rec *r, const char *lesson, const char *experiment,
                   const char *title);
/* Ignored outside a run. Each line is flushed: a crash loses at most the line being written. */
void tui_rec_event(struct tui_rec *r, const struct lt_event *ev);
void tui_rec_end(struct tui_rec *r, enum lt_run_state st, const char *err);
/* A write failed (disk full...): why, or NULL. Recording stops at the first failure. */
const char *tui_rec_error(const struct tui_rec *r);
/* The recording reached what a replay reads (TUI_REPLAY_MAX_EVENTS, _RUNS, _FILE, below): why, or
 * NULL. It stopped there, the run then recorded ended "failed" saying so, and it is kept: the
 * writer never writes a recording its reader refuses. */
const char *tui_rec_full(const struct tui_rec *r);
/* tui_rec_open with another event limit (tests). */
struct tui_rec *tui_rec_open_max(const char *path, struct lt_runtime *rt, const char *version,
                                 size_t max_events, char *err, size_t n);

/* ---- reading ---- */

/* A loaded recording keeps each event in a compact record (72 bytes, strings interned once), so
 * memory stays within about twice the file's size whatever its lines hold; the file itself is
 * read line by line, not whole. Limits: TUI_REPLAY_MAX_FILE bytes, TUI_REPLAY_MAX_EVENTS events
 * and TUI_REPLAY_MAX_RUNS runs in all; past one, the file is refused with a message saying so. */
#define TUI_REPLAY_MAX_FILE (256u << 20)
#define TUI_REPLAY_MAX_EVENTS 2000000
#define TUI_REPLAY_MAX_RUNS 100000

struct tui_replay;
struct tui_replay_run {
    const char *lesson, *experiment, *title, *state, *error; /* owned by the replay */
    int run;
    int nev;
    const uint32_t *evi;           /* its events, in file order (see tui_replay_get) */
    const struct tui_replay *rp;
    bool chosen;                   /* the run tui_replay_find gives for its lesson/experiment */
};

struct tui_replay_store; /* events, strings and indexes (tui_record.c) */

struct tui_replay {
    char *path;
    /* the machine it was recorded on (owned by the replay) */
    const char *gpu, *backend, *profile, *driver, *memory_type, *host_cpu, *date, *version,
        *backend_line;
    bool simulated;
    int nruns;
    struct tui_replay_run *runs;
    int bad_lines; /* lines that could not be read (a truncated last line, ...) */
    struct tui_replay_store *store;
};

/* Event i (0 <= i < run->nev) of a run: its strings point into the replay, valid while it
 * lives. Returns the event's time in seconds since the run started. */
double tui_replay_get(const struct tui_replay_run *run, int i, struct lt_event *ev);
/* Strings a replay handed out are stored once: equal strings are the same pointer. Its number
 * (for hashing), for a string tui_replay_get returned. */
uint32_t tui_replay_str_id(const struct tui_replay *rp, const char *s);

/* Load a recording. NULL with "file:line: what" when it is not one. */
struct tui_replay *tui_replay_load(const char *path, char *err, size_t n);
/* The same with another event limit (tests). */
struct tui_replay *tui_replay_load_max(const char *path, size_t max_events, char *err, size_t n);
void tui_replay_free(struct tui_replay *rp);
/* The last complete run of lesson/experiment (any run when none completed), or NULL. */
const struct tui_replay_run *tui_replay_find(const struct tui_replay *rp, const char *lesson,
                                             const char *experiment);
/* "REPLAY · NVIDIA H100 SXM (SIMULATED) · 2025-03-01 14:05" */
void tui_replay_label(const struct tui_replay *rp, char *buf, size_t n);
/* The machine in a few words: "NVIDIA H100 SXM (SIMULATED)". */
void tui_replay_machine(const struct tui_replay *rp, char *buf, size_t n);

/* Recordings shipped with vramlab (DATADIR/assets/recordings, files ending .jsonl), for the tutor to offer
 * on a machine without a GPU: each file's machine and label from its header alone, recordings
 * of real GPUs first, then newest first. A simulated recording stays labelled SIMULATED. */
struct tui_rec_offer {
    char path[1024];
    char label[300];   /* "REPLAY · NVIDIA H200 · 2026-12-05 14:05" */
    char machine[256]; /* "NVIDIA H200", or "NVIDIA GeForce RTX 3090 (SIMULATED)" */
    char date[32];
    bool simulated;
};
int tui_recordings_scan(const char *dir, struct tui_rec_offer *out, int max);

/* Playing a run back: events are due at their recorded time, sped up so that no run takes more
 * than `max_seconds` (0: all at once). */
struct tui_player {
    const struct tui_replay_run *run;
    int next;
    double start, speed;
};
void tui_player_start(struct tui_player *p, const struct tui_replay_run *run, double now,
                      double max_seconds);
/* Send the events due by `now` to fn; true when the run is over. */
bool tui_player_step(struct tui_player *p, double now, lt_sink_fn fn, void *ud);

/* Monotonic seconds (for the player and the recorder). */
double tui_now(void);

#endif
