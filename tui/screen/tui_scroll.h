/* tui_scroll.h - the one scrolling viewport (htop's Panel, tig's scroll_view) every list and
 * scrolling view uses: the menu, the lesson text and its live panel, the REPL transcript and
 * panel, the help overlay, presenter steps and watch. The owner says how many lines there are
 * and how many show; the widget keeps the first one shown in range, answers the standard keys
 * (one table: tui_scroll_keys) and draws the "more" marks the same way everywhere. The state
 * functions are pure and unit-tested at every size. */
#ifndef TUI_SCROLL_H
#define TUI_SCROLL_H

#include <stdbool.h>

#include "tui_keys.h"

struct tui_scroll {
    int top;     /* first line shown */
    int total;   /* lines of content */
    int height;  /* lines shown */
    bool follow; /* set by the owner: stay on the last line while it is shown (a log) */
    bool tail;   /* following: the last line was in view after the last move */
};

#define TUI_WHEEL_LINES 3

/* The content or the view changed size: clamp (a following view goes on showing the end). */
void tui_scroll_resize(struct tui_scroll *s, int total, int height);
int tui_scroll_max(const struct tui_scroll *s);
/* Lines a page key moves: the view less two lines of context, at least one. */
int tui_scroll_page(const struct tui_scroll *s);
void tui_scroll_to(struct tui_scroll *s, int top);
void tui_scroll_by(struct tui_scroll *s, int lines);
void tui_scroll_end(struct tui_scroll *s);
/* Bring lines first..last into view, `margin` lines of context past the edge it moves to. */
void tui_scroll_show(struct tui_scroll *s, int first, int last, int margin);
bool tui_scroll_above(const struct tui_scroll *s); /* lines hidden above the view */
bool tui_scroll_below(const struct tui_scroll *s); /* ... and below it */

/* ↑ ↓ k j, PgUp PgDn, Home End g G, the wheel. */
extern const struct tui_keymap tui_scroll_keys;
/* The standard keys alone; true when k was one of them. */
bool tui_scroll_key(struct tui_scroll *s, const struct tui_key *k);

/* The marks: "↑" in column x of row y when lines are hidden above, "↓" in row y + h - 1 when
 * lines are hidden below (ASCII: ^ and v); nothing where nothing is hidden. */
void tui_scroll_marks(const struct tui_scroll *s, int y, int x, int h, bool ascii);

#endif
