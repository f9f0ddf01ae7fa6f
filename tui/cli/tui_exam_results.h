/* tui_exam_results.h - a class's exam results summed up (`vramlab results DIR`) and side by side
 * (`vramlab compare`): tui_exam_results.c. */
#ifndef TUI_EXAM_RESULTS_H
#define TUI_EXAM_RESULTS_H

#include <stdbool.h>
#include <stdio.h>

#include "tui_results.h"

#define EXAM_QMAX 1000 /* questions of one exam summed up */

/* Are these operands exam results (a folder, or a file whose first line is an exam's)? */
bool tui_exam_results_are(char **paths, int n);
/* Exit codes: 0 ok, 1 a file that is not an exam's results, or none found, or a roster (NULL:
 * none; tui_roster.h) that cannot be read. With a roster, each exam also says who on it has no
 * results and whose results are from a name not on it. */
int tui_exam_results_cmd(char **paths, int n, const char *roster, enum tui_results_format fmt, bool zh,
                         FILE *out);
int tui_exam_compare_cmd(char **paths, int n, bool ascii, bool zh, FILE *out);

#endif
