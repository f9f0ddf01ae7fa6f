/* tui_csv.h - the one CSV cell writer: every CSV vramlab writes (results of a recording, an
 * exam's results, a class's) quotes a cell as RFC 4180 says when it must, and keeps a cell a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a CR) text with a leading
 * '. No ncurses: tested through tests/cli/compare.sh and tests/cli/exam.sh. */
#ifndef TUI_CSV_H
#define TUI_CSV_H

#include <stdio.h>

void tui_csv_field(FILE *f, const char *s); /* NULL: an empty cell */
void tui_csv_num(FILE *f, double v);        /* not finite: an empty cell */

#endif
