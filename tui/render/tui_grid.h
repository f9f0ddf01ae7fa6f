/* tui_grid.h - one frame of the screen as cells, composed before any of it reaches ncurses.
 * Screens draw in layers (the text, then a panel, then an overlay such as the help box), so a
 * later layer often writes over half of a wide (CJK) glyph an earlier one put there. ncurses
 * does not repair such a cell when both writes come between two refreshes: the glyph stays with
 * half of it overwritten, the terminal is sent a two-column glyph where one column was meant, and
 * every cell after it on the line is off by one (the help box's border broke on Chinese lines,
 * and lines drifted after partial redraws). Here a write over either half of a wide glyph blanks
 * the other half first, and tui_term.c hands each finished row to ncurses once, left to right.
 * Pure: no ncurses; unit-tested (tests/unit/test_tui_grid.c). */
#ifndef TUI_GRID_H
#define TUI_GRID_H

#include <stdbool.h>
#include <stdint.h>

/* A cell: a code point and the attributes it is drawn with (ncurses attributes and colour pair,
 * opaque here). cp 0 marks the right half of the wide glyph in the cell before it. */
struct tui_cell {
    uint32_t cp;
    int attr;
};

struct tui_grid {
    int rows, cols;
    struct tui_cell *c; /* rows * cols */
};

/* Size the grid to rows x cols and blank every cell (a space, attr 0). False when out of memory
 * (the grid is then empty: rows = cols = 0). */
bool tui_grid_reset(struct tui_grid *g, int rows, int cols);
void tui_grid_free(struct tui_grid *g);

/* Put one glyph of `width` columns (1 or 2) at (y, x). Whatever it covers goes, and a wide glyph
 * it covers half of is blanked whole (its other half becomes a space with its own attributes).
 * A glyph that would cross the right edge or lies outside is not put. Returns the columns put. */
int tui_grid_put(struct tui_grid *g, int y, int x, uint32_t cp, int width, int attr);
/* Spaces with `attr` over [x, x + w) of row y (clipped), by the same rule. */
void tui_grid_fill(struct tui_grid *g, int y, int x, int w, int attr);

/* Row y's text from column 0, for tests: UTF-8, right halves skipped (the wide glyph stands for
 * both). Returns the bytes written (NUL-terminated, cut to fit cap). */
int tui_grid_row_text(const struct tui_grid *g, int y, char *out, int cap);

#endif
