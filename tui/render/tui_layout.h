/* tui_layout.h - where everything goes, as a pure function of the terminal size (the nvtop way):
 * rows/cols in, rectangles out; no ncurses, unit-tested for every size. */
#ifndef TUI_LAYOUT_H
#define TUI_LAYOUT_H

#include <stdbool.h>

#define TUI_MIN_COLS 40 /* below this, or TUI_MIN_ROWS, only "terminal too small" is shown */
#define TUI_MIN_ROWS 12
#define TUI_SIDE_COLS 100 /* from this width up, the text and the live panel sit side by side */

struct tui_rect {
    int y, x, h, w; /* h or w 0: not shown */
};

enum tui_layout_mode { TUI_TOO_SMALL, TUI_STACKED, TUI_SIDE };

/* Rectangles of one screen. On the lesson screen title, text, divider, panel and status are shown
 * together and never overlap; the menu screen shows title, menu and status. The help overlay
 * covers the middle of either. In TUI_TOO_SMALL only `small` (the whole screen) is set. */
struct tui_layout {
    enum tui_layout_mode mode;
    int rows, cols;
    struct tui_rect title, menu, text, divider, panel, status, help, small;
};

void tui_layout_compute(int rows, int cols, struct tui_layout *l);

bool tui_rect_contains(const struct tui_rect *r, int y, int x);

#endif
