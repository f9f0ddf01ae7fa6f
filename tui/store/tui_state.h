/* tui_state.h - the one module that writes learner state and the files vramlab makes for a user:
 * progress, REPL history, answers (the `e` editor's files), workspace files, recordings, and any
 * file added later. Its rules, the same for every file:
 *  - the state folder is private: $XDG_STATE_HOME/vramlab, else $HOME/.local/state/vramlab, else
 *    the account's home directory (getpwuid); with none of those, state is refused (one line),
 *    never put in a shared folder. It is made 0700 and refused when another user owns it or can
 *    write to it;
 *  - a change is read-modify-write under an exclusive lock (flock on the folder's .lock file):
 *    the file is read again, this process's changes are applied to what is on disk now, and the
 *    result replaces it atomically (a temporary file made O_CREAT|O_EXCL|O_NOFOLLOW, fsync,
 *    rename, fsync of the folder), so two tutors, a tutor and `watch`, or a tutor and `reset`
 *    never lose each other's records, and a crash leaves the old file or the new one;
 *  - only "no such file" (ENOENT) means "nothing saved yet". A file that is there but cannot be
 *    used (damaged, too large, not a regular file, a link, a newer version) is renamed aside
 *    (NAME.corrupt-TIME, NAME.vN) and said so; one that cannot be read now (permissions, I/O) is
 *    never replaced: the change fails with the reason;
 *  - no writer follows a link or opens a FIFO or a device, and a file the user names (--record)
 *    is put in place only when it is complete: a failed run leaves the old one as it was.
 * Readers go through the safe reader (gpu_file.h). No ncurses: unit-tested (test_tui_state.c),
 * and end to end with real processes racing (tests/cli/state.sh, tests/tui/state_race.sh). */
#ifndef TUI_STATE_H
#define TUI_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The state folder's path (see above). False with one line in err when there is none. */
bool tui_state_dir(char *buf, size_t n, char *err, size_t en);
/* Make dir (and sub, when not NULL: "answers") 0700 where missing and check it: a directory,
 * owned by this user, writable by no one else. False with err. */
bool tui_state_ready(const char *dir, const char *sub, char *err, size_t n);

/* What an update's function saw and wants. */
enum tui_state_verdict {
    TUI_STATE_WRITE,   /* *out holds the new contents */
    TUI_STATE_SAME,    /* nothing to write */
    TUI_STATE_DAMAGED, /* the text cannot be used: kept aside as NAME.<aside>, then called again
                        * with no text; `why` says what is wrong ("is damaged at line 3") */
};
/* text: the file now (NUL-terminated, len bytes), or NULL when there is none. */
typedef enum tui_state_verdict (*tui_state_fn)(void *ud, const char *text, size_t len,
                                               char **out, size_t *olen, char *aside,
                                               size_t naside, char *why, size_t nwhy);
/* Read-modify-write of dir/name (a plain name) under the lock, as above; the file is read with
 * the limit `max`, and a new text over it is never written (false with err, the file as it was):
 * a file this module wrote is one it can read again. note: what was kept aside, if anything ("" otherwise). False with err when
 * nothing could be written (the file on disk is left as it was). */
bool tui_state_update(const char *dir, const char *name, size_t max, tui_state_fn fn, void *ud,
                      char *note, size_t nn, char *err, size_t n);
/* The records of a state file's text, `MAGIC VERSION` then one record a line: each line given to
 * line_fn (false: the line is not a record). SAME when every line is one; DAMAGED with why ("is
 * damaged at line 3", "was written by a newer vramlab") and the name to keep it aside under
 * ("vN" for a newer version; else the caller's default) otherwise. A text with a NUL inside is
 * not a file vramlab wrote. */
enum tui_state_verdict tui_state_records(const char *text, size_t len, const char *magic,
                                         int version, bool (*line_fn)(void *ud, char *line),
                                         void *ud, char *aside, size_t naside, char *why,
                                         size_t nwhy);
/* Read dir/name: the text, NULL with *missing = true when there is none, NULL with err when it
 * cannot be read (too large, not a regular file, a link, unreadable). No lock: files are only
 * ever replaced whole. */
char *tui_state_read(const char *dir, const char *name, size_t max, size_t *len, bool *missing,
                     char *err, size_t n);
/* Create dir/name holding data, only where nothing of that name exists, a dangling link
 * included: written under a temporary name, then linked into place (never half a file, never an
 * overwrite), all relative to the folder opened once. 1 created, 0 already there (left as it
 * is), -1 error (err says why). */
int tui_state_create(const char *dir, const char *name, const char *data, size_t len,
                     char *err, size_t n);

/* A file the user names, written whole or not at all: a temporary file beside it (O_CREAT |
 * O_EXCL | O_NOFOLLOW), renamed over it by tui_state_out_commit. Refused at the start when the
 * path is there and is not a regular file (a link, a FIFO, a device, a folder). */
struct tui_state_out;
struct tui_state_out *tui_state_out_open(const char *path, char *err, size_t n);
FILE *tui_state_out_file(struct tui_state_out *o);
/* Put it in place (the old file's permissions kept); false with err (the old file left). The
 * temporary file is gone either way, and o is freed. */
bool tui_state_out_commit(struct tui_state_out *o, char *err, size_t n);
/* Drop it: the old file stays as it was. NULL is fine. */
void tui_state_out_abort(struct tui_state_out *o);
/* Remove the temporary files of the outputs still open; async-signal-safe, for the paths that end
 * the process without closing them (a fatal signal, the watchdog). While one is open, a quit
 * signal at its default action (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE) calls it before it ends
 * the process as it would have, so an interrupted `--record` leaves nothing beside FILE. */
void tui_state_reap(void);

#endif
