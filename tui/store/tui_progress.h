/* tui_progress.h - a learner's saved progress: sections visited, exercises tried and solved, best
 * predictions. One versioned text file in the state folder (tui_state.h), written through the
 * state module: this process's changes (visits, attempts, resets) are kept as operations and a
 * save applies them, under the lock, to the file as it is on disk then, so what another tutor,
 * `watch` or `reset` wrote meanwhile stays. A corrupt or future-version file is kept aside and
 * reported, never silently overwritten. No ncurses here: the CLI and the TUI share it. */
#ifndef TUI_PROGRESS_H
#define TUI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TUI_PROGRESS_VERSION 1
/* A file larger than this is not one vramlab wrote (a record is under 200 bytes): kept aside. */
#define TUI_PROGRESS_MAX_FILE (4u << 20)

struct tui_progress;

/* Load dir/progress (a missing file is an empty progress). When the file cannot be read as this
 * version, it is renamed aside (progress.corrupt-<time> / progress.v<N>) and `note` says so.
 * Returns NULL only when out of memory. */
struct tui_progress *tui_progress_load(const char *dir, char *note, size_t n);
/* tui_progress_load of the state folder (tui_state_dir). With none, note says so and nothing is
 * kept: saves do nothing. */
struct tui_progress *tui_progress_open(char *note, size_t n);
void tui_progress_free(struct tui_progress *p);

/* Apply this process's changes since the last save to the file as it is now (crash-safe). After
 * it, the progress shows every process's records. Returns false with err on failure (the file
 * is left as it was, the changes kept for the next save). */
bool tui_progress_save(struct tui_progress *p, char *err, size_t n);

void tui_progress_visit(struct tui_progress *p, const char *lesson);
/* Record an attempt at an exercise and its answer (kept as one line: line breaks written as \n,
 * cut with "…" past 95 bytes). */
void tui_progress_attempt(struct tui_progress *p, const char *lesson, const char *exercise,
                          bool solved, const char *answer);
bool tui_progress_visited(const struct tui_progress *p, const char *lesson);
/* Exercises of a lesson solved / attempted (any exercise id). */
int tui_progress_solved(const struct tui_progress *p, const char *lesson);
int tui_progress_attempted(const struct tui_progress *p, const char *lesson);
bool tui_progress_exercise_solved(const struct tui_progress *p, const char *lesson,
                                  const char *exercise);
/* Forget one section (lesson id) or everything (NULL), here and, at the next save, on disk.
 * Returns how many records went from what this process shows. */
int tui_progress_reset(struct tui_progress *p, const char *lesson);
/* The records, in the order they were made (the command line sorts them for people). Strings
 * are valid until the progress changes or is freed; the answer is one line (see attempt). */
struct tui_progress_rec {
    bool is_ex;               /* an exercise attempt; else a visit */
    const char *lesson, *exercise;
    int tries;
    bool solved;
    long when;                /* unix time of the last visit or attempt */
    const char *answer;       /* the last answer, line breaks as \n */
};
int tui_progress_count(const struct tui_progress *p);
bool tui_progress_get(const struct tui_progress *p, int i, struct tui_progress_rec *out);
const char *tui_progress_path(const struct tui_progress *p);
/* False when the saved progress could not be read at load (the load's note said why): what
 * this shows is not the learner's progress. */
bool tui_progress_read(const struct tui_progress *p);

#endif
