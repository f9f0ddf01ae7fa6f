/* tui_file.h - folders and file names: mkdir -p with a mode, and the one place an id becomes a
 * file name. Writing learner files is tui_state.h's; reading any file, gpu_file.h's. No
 * ncurses. */
#ifndef TUI_FILE_H
#define TUI_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "lt_limits.h"

/* mkdir -p: mode 0700 for learner data (private), 0755 for what a teacher shares. */
bool tui_file_mkdirs(const char *dir, unsigned mode);
/* File names made from ids: "<lesson>-<exercise><suffix>" ("1.4-peak-code.lua"). Lesson data
 * becomes a file name only through this: each id must be 1..LT_ID_MAX of [0-9A-Za-z._-], not
 * start with '.', and hold no "..". False (out empty) otherwise. */
bool tui_file_id_ok(const char *id);
/* The next space-separated field of *p, cut out in place (*p moves past it); NULL when there is
 * none: how the state files' records are read (progress, exams). */
char *tui_file_field(char **p);
bool tui_file_id_name(char *out, size_t n, const char *lesson_id, const char *ex_id,
                      const char *suffix);
#endif
