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
/* The text of an event, each NUL byte (print("c\0d") keeps what follows it) written as `nul`:
 * "\\0" in plain output and recordings, a visible placeholder on screen. malloc'd, or NULL. */
char *tui_event_text(const struct lt_event *ev, const char *nul);
/* ev itself when its text has no NUL byte; else *copy with the text made visible (free
 * *to_free after use). Every sink starts with it, so no consumer sees a cut text. */
const struct lt_event *tui_event_visible(const struct lt_event *ev, const char *nul,
                                         struct lt_event *copy, char **to_free);
/* JSON string literal (quoted, escaped). */
void tui_json_str(FILE *f, const char *s);
/* Display width of a UTF-8 string (wcwidth; invalid bytes count 1). */
int tui_str_width(const char *s);

#endif
