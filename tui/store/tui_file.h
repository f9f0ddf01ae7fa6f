/* tui_file.h - small file helpers the learner-data writers share (progress, REPL history, the
 * exercise workspace, recordings): create a folder path, write a file crash-safely, read a whole
 * file. No ncurses. */
#ifndef TUI_FILE_H
#define TUI_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* mkdir -p: mode 0700 for learner data (private), 0755 for what a teacher shares. */
bool tui_file_mkdirs(const char *dir, unsigned mode);
/* Replace dir/name with data: temp file in the same folder, fsync, rename, fsync the folder, so
 * a crash leaves the old file or the new one, never half of either. */
bool tui_file_write_atomic(const char *dir, const char *name, const char *data, size_t len,
                           char *err, size_t n);
/* File names made from ids: "<lesson>-<exercise><suffix>" ("1.4-peak-code.lua"). Lesson data
 * becomes a file name only through this: each id must be 1..TUI_ID_MAX of [0-9A-Za-z._-], not
 * start with '.', and hold no "..". False (out empty) otherwise. */
#define TUI_ID_MAX 64
bool tui_file_id_ok(const char *id);
bool tui_file_id_name(char *out, size_t n, const char *lesson_id, const char *ex_id,
                      const char *suffix);
/* Create dir/name (a name from tui_file_id_name) holding data, only where nothing of that name
 * exists, a dangling link included: written under a temporary name, then linked into place
 * (never half a file, never an overwrite), all relative to the folder opened once, no link
 * followed. 1 created, 0 already there (left as it is), -1 error (err says why). */
int tui_file_create_excl(const char *dir, const char *name, const char *data, size_t len,
                         char *err, size_t n);
/* The whole file, NUL-terminated (NULL with err when it cannot be read, is not a regular file
 * or is over `max`): gpu_file_read. */
char *tui_file_read(const char *path, size_t max, size_t *len, char *err, size_t n);

#endif
