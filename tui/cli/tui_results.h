/* tui_results.h - what a class does with recordings: `vramlab results FILE` (one row per bar,
 * curve point and gauge, as text, CSV or JSON lines) and `vramlab compare A B ...` (several
 * machines' recorded results side by side: a table of matching labels and text bars). */
#ifndef TUI_RESULTS_H
#define TUI_RESULTS_H

#include <stdbool.h>
#include <stdio.h>

enum tui_results_format { TUI_RES_TEXT, TUI_RES_CSV, TUI_RES_JSON };

/* Exit codes as main's: 0 ok, 1 a file could not be read. */
/* zh: the text format's headers and words in Chinese (CSV and JSON do not change). */
int tui_results_cmd(const char *path, enum tui_results_format fmt, bool zh, FILE *out);
int tui_compare_cmd(char **paths, int n, bool ascii, bool zh, FILE *out);

#endif
