/* tui_file.h - small file helpers the learner-data writers share (REPL history, the exercise
 * workspace, recordings): create a folder path, write a file crash-safely, read a whole file.
 * No ncurses. (tui_progress.c predates these and keeps its own copy of the same recipe.) */
#ifndef TUI_FILE_H
#define TUI_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* mkdir -p with mode 0700 (learner data is private). */
bool tui_file_mkdirs(const char *dir);
/* Replace dir/name with data: temp file in the same folder, fsync, rename, fsync the folder, so
 * a crash leaves the old file or the new one, never half of either. */
bool tui_file_write_atomic(const char *dir, const char *name, const char *data, size_t len,
                           char *err, size_t n);
/* The whole file, NUL-terminated (NULL with err when it cannot be read, is not a regular file
 * or is over `max`): gpu_file_read. */
char *tui_file_read(const char *path, size_t max, size_t *len, char *err, size_t n);

#endif
