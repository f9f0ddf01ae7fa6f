/* tui_bigfont.h - large type for the presenter: a 5-row block font for numbers and the units
 * that follow them ("2841 GB/s", "12.5 GiB", "93 ns", "45%"), drawn with full blocks (or '#'
 * on non-UTF-8 terminals). Pure: no ncurses; unit-tested. */
#ifndef TUI_BIGFONT_H
#define TUI_BIGFONT_H

#include <stdbool.h>

#include "tui_render.h"

#define TUI_BIG_ROWS 5

/* Columns s takes in the big font (a column between glyphs), or -1 when some character of s
 * has no big glyph. */
int tui_big_width(const char *s);
/* Append TUI_BIG_ROWS lines drawing s in `style` (false, nothing appended, when tui_big_width
 * is -1). */
bool tui_big_render(struct tui_lines *L, const char *s, bool ascii, int style);
/* The same at `scale` (>= 1): each dot of the font `scale` columns wide and `scale` rows high,
 * TUI_BIG_ROWS x scale lines, tui_big_width(s) x scale columns (a projector's key figure), each
 * line after `indent` blank columns (centring it). */
bool tui_big_render_scaled(struct tui_lines *L, const char *s, int scale, int indent, bool ascii,
                           int style);
/* The largest scale at which s fits `cols` columns and `rows` rows (>= 1; 0 when s has no big
 * glyphs or does not fit even at 1). */
int tui_big_fit(const char *s, int cols, int rows);
/* A number as the presenter shows it: about four significant digits, never an exponent
 * ("2841", "813.8", "0.0521", "1234567"); "n/a" when not finite. */
void tui_big_number(double v, char *buf, int n);

#endif
