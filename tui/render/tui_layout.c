/* tui_layout.c - the screen split (see tui_layout.h). Side by side the live panel takes half the
 * width (44..80 columns: its tables and curve need room); stacked it takes the lower ~45% of the rows. */
#include "tui_layout.h"

#include <string.h>

static struct tui_rect rect(int y, int x, int h, int w)
{
    if (h <= 0 || w <= 0) return (struct tui_rect){y, x, 0, 0};
    return (struct tui_rect){y, x, h, w};
}

void tui_layout_compute(int rows, int cols, struct tui_layout *l)
{
    memset(l, 0, sizeof *l);
    if (rows < 0) rows = 0;
    if (cols < 0) cols = 0;
    l->rows = rows, l->cols = cols;
    if (rows < TUI_MIN_ROWS || cols < TUI_MIN_COLS) {
        l->mode = TUI_TOO_SMALL;
        l->small = rect(0, 0, rows, cols);
        return;
    }
    int body_y = 1, body_h = rows - 2; /* a title line on top, a status line at the bottom */
    l->title = rect(0, 0, 1, cols);
    l->status = rect(rows - 1, 0, 1, cols);
    l->menu = rect(body_y, 0, body_h, cols);
    if (cols >= TUI_SIDE_COLS) {
        l->mode = TUI_SIDE;
        int pw = cols / 2;
        if (pw < 44) pw = 44;
        if (pw > 80) pw = 80;
        int tw = cols - pw - 1;
        l->text = rect(body_y, 0, body_h, tw);
        l->divider = rect(body_y, tw, body_h, 1);
        l->panel = rect(body_y, tw + 1, body_h, pw);
    } else {
        l->mode = TUI_STACKED;
        int ph = body_h * 45 / 100;
        int th = body_h - ph - 1;
        l->text = rect(body_y, 0, th, cols);
        l->divider = rect(body_y + th, 0, 1, cols);
        l->panel = rect(body_y + th + 1, 0, ph, cols);
    }
    int hw = cols - 4 < 72 ? cols - 4 : 72, hh = rows - 2 < 30 ? rows - 2 : 30;
    l->help = rect((rows - hh) / 2, (cols - hw) / 2, hh, hw);
}

bool tui_rect_contains(const struct tui_rect *r, int y, int x)
{
    return r->h > 0 && r->w > 0 && y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}
