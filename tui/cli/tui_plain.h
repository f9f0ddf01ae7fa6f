/* tui_plain.h - headless output: lesson text as plain text, experiment events as readable lines
 * or JSON lines, for pipes, CI and `vramlab run`. No escape codes ever. */
#ifndef TUI_PLAIN_H
#define TUI_PLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "lt.h"

struct tui_plain {
    FILE *out;
    bool json;
    bool simulated;   /* label every device number SIMULATED */
    const char *lang;
    bool replay;      /* the events come from a recording: every value says REPLAY */
};

/* Print markup source as plain text (tables aligned by display width). */
void tui_plain_markup(struct tui_plain *p, const char *src);
/* An lt_sink_fn: ud is a struct tui_plain. */
void tui_plain_sink(void *ud, const struct lt_event *ev);
/* ---- the one filter between plain output and where it goes -------------------------------- */
/* Text from lessons, scripts, recordings and files reaches a terminal only through this: C0
 * controls but \n and \t (ESC, CR, BEL...) and DEL are shown as \x1b, C1 controls and the bidi
 * controls (U+200E/F, U+061C, U+202A-U+202E, U+2066-U+2069) as \u202e, invalid UTF-8 as U+FFFD.
 * Calls emit with the filtered text; returns how much of s it took: all of it when `final`,
 * else it may leave a UTF-8 sequence cut at the end for the next call. */
size_t tui_safe_filter(const char *s, size_t n, bool final,
                       void (*emit)(void *ud, const char *p, size_t n), void *ud);
/* s through the filter to f. */
void tui_safe_fputs(FILE *f, const char *s);
/* Route stdout and stderr through the filter, so every plain path (list, run, check, eval's
 * print, results, compare, progress, ledger, info, error messages) is covered, printf included.
 * main() calls it before any output. */
bool tui_plain_guard(void);
/* The terminal's own stream, unfiltered: for ncurses, which writes escape codes on purpose. */
FILE *tui_plain_terminal(void);
/* At exit: flush and close both; 0, or the errno of the first write that failed (a full disk,
 * a closed stdout). A closed pipe ends the process by SIGPIPE first, as it ends cat. */
int tui_plain_close(void);

#endif
