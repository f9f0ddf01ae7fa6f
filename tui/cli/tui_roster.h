/* tui_roster.h - a class list for `vramlab results --roster FILE`: one student name a line (the
 * names `vramlab exam --student` takes), blank lines and lines starting with '#' skipped, read
 * through the safe reader; a list exported as CSV works too (the first field of a line, after ','
 * ';' or a tab, is the name; a UTF-8 byte order mark is skipped). A name that is not one, or is listed twice, is an error at its line.
 * The names are a gpu_strtab: numbered in the file's order, found in O(1). tui_roster.c;
 * tests/cli/exam.sh. */
#ifndef TUI_ROSTER_H
#define TUI_ROSTER_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu_strtab.h"

#define TUI_ROSTER_MAX 100000 /* students on one list */

bool tui_roster_read(const char *path, struct gpu_strtab *names, char *err, size_t n);
bool tui_roster_has(const struct gpu_strtab *names, const char *name);

#endif
