/* tui_plain.h - headless output: lesson text as plain text (tui_text.h) or a JSON line,
 * experiment events as readable lines or JSON lines, for pipes, CI and `vramlab run`. No escape
 * codes ever: what it prints passes the output filter (tui_out.h). */
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

/* Print markup source as plain text (tui_text_markup), or as one JSON line {"type": "text"}. */
void tui_plain_markup(struct tui_plain *p, const char *src);
/* An lt_sink_fn: ud is a struct tui_plain. */
void tui_plain_sink(void *ud, const struct lt_event *ev);

#endif
