/* tui_out.h - the one filter between the program's text and the terminal: every byte of plain
 * output (stdout and stderr, printf included) passes it, and ncurses alone gets the terminal's
 * own stream. main() puts it in place before any output and closes it last. */
#ifndef TUI_OUT_H
#define TUI_OUT_H

#include <stdbool.h>
#include <stdio.h>

/* Text from lessons, scripts, recordings and files reaches a terminal only through this: C0
 * controls but \n and \t (ESC, CR, BEL...) and DEL are shown as \x1b, C1 controls and the bidi
 * controls (U+200E/F, U+061C, U+202A-U+202E, U+2066-U+2069) as \u202e, invalid UTF-8 as U+FFFD.
 * Calls emit with the filtered text; returns how much of s it took: all of it when `final`,
 * else it may leave a UTF-8 sequence cut at the end for the next call. */
size_t tui_out_filter(const char *s, size_t n, bool final,
                       void (*emit)(void *ud, const char *p, size_t n), void *ud);
/* s through the filter to f. */
void tui_out_fputs(FILE *f, const char *s);
/* Route stdout and stderr through the filter, so every plain path (list, run, check, eval's
 * print, results, compare, progress, ledger, info, error messages) is covered, printf included.
 * main() calls it before any output. */
bool tui_out_guard(void);
/* The terminal's own stream, unfiltered: for ncurses, which writes escape codes on purpose. */
FILE *tui_out_terminal(void);
/* At exit: flush and close both; 0, or the errno of the first write that failed (a full disk,
 * a closed stdout). A closed pipe ends the process by SIGPIPE first, as it ends cat. */
int tui_out_close(void);

#endif
