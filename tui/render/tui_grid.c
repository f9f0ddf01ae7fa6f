/* tui_grid.c - see tui_grid.h. */
#include "tui_grid.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_utf8.h"

bool tui_grid_reset(struct tui_grid *g, int rows, int cols)
{
    if (rows < 0) rows = 0;
    if (cols < 0) cols = 0;
    size_t n = (size_t)rows * (size_t)cols;
    if (n > (size_t)g->rows * (size_t)g->cols || !g->c) {
        struct tui_cell *c = realloc(g->c, (n ? n : 1) * sizeof *c);
        if (!c) {
            free(g->c);
            memset(g, 0, sizeof *g);
            return false;
        }
        g->c = c;
    }
    g->rows = rows, g->cols = cols;
    for (size_t i = 0; i < n; i++) g->c[i] = (struct tui_cell){' ', 0};
    return true;
}

void tui_grid_free(struct tui_grid *g)
{
    free(g->c);
    memset(g, 0, sizeof *g);
}

/* Make [x, x + w) of row y free of wide glyphs that stick out of it: a right half at x loses
 * its left half, a left half at x + w - 1 loses its right half. */
static void split_edges(struct tui_grid *g, int y, int x, int w)
{
    struct tui_cell *row = g->c + (size_t)y * (size_t)g->cols;
    if (x > 0 && row[x].cp == 0) row[x - 1].cp = ' ';
    int e = x + w; /* the first cell after */
    if (e < g->cols && row[e].cp == 0) row[e].cp = ' ';
}

int tui_grid_put(struct tui_grid *g, int y, int x, uint32_t cp, int width, int attr)
{
    if (width < 1 || width > 2 || y < 0 || y >= g->rows || x < 0 || x + width > g->cols) return 0;
    if (cp == 0) cp = ' '; /* 0 is the right-half mark */
    split_edges(g, y, x, width);
    struct tui_cell *row = g->c + (size_t)y * (size_t)g->cols;
    row[x] = (struct tui_cell){cp, attr};
    if (width == 2) row[x + 1] = (struct tui_cell){0, attr};
    return width;
}

void tui_grid_fill(struct tui_grid *g, int y, int x, int w, int attr)
{
    if (y < 0 || y >= g->rows) return;
    if (x < 0) w += x, x = 0;
    if (x + w > g->cols) w = g->cols - x;
    if (w <= 0) return;
    split_edges(g, y, x, w);
    struct tui_cell *row = g->c + (size_t)y * (size_t)g->cols;
    for (int i = x; i < x + w; i++) row[i] = (struct tui_cell){' ', attr};
}

int tui_grid_row_text(const struct tui_grid *g, int y, char *out, int cap)
{
    int n = 0;
    if (cap <= 0) return 0;
    if (y >= 0 && y < g->rows)
        for (int x = 0; x < g->cols; x++) {
            const struct tui_cell *c = &g->c[(size_t)y * (size_t)g->cols + (size_t)x];
            if (c->cp == 0) continue;
            char u[4];
            int k = gpu_utf8_encode(c->cp, 0, u);
            if (k <= 0 || n + k >= cap) break;
            memcpy(out + n, u, (size_t)k);
            n += k;
        }
    out[n] = 0;
    return n;
}
