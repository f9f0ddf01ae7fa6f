/* tui_render.h - lesson markup (lt_markup.h) to styled lines for a given width and language:
 * headings, paragraphs, lists with hanging indent, tables aligned by display width, code,
 * callouts in a labelled box. Pure: no ncurses; the same lines are drawn by tui_term_line and
 * checked by the unit tests. Also the small line builder the panels and views use. */
#ifndef TUI_RENDER_H
#define TUI_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "tui_style.h"

/* What a line is for: lesson views act on the non-text ones (Enter, mouse click). */
enum tui_line_kind { TUI_LK_TEXT, TUI_LK_RUN, TUI_LK_INPUT, TUI_LK_CHOICE };

struct tui_line {
    char *s;           /* UTF-8, NUL-terminated, fits the width it was rendered for */
    unsigned char *st; /* style (enum tui_style) of each byte of s */
    int len, width;
    int block;         /* lesson block it belongs to (-1: none) */
    int kind;          /* enum tui_line_kind */
    int tag;           /* kind-specific (TUI_LK_CHOICE: the choice number) */
};

struct tui_lines {
    struct tui_line *v;
    int n, cap;
    bool oom; /* sticky: a line could not be stored */
};

void tui_lines_free(struct tui_lines *L); /* frees every line; L is empty and reusable after */

/* Line builder: put text, then end the line into L. */
struct tui_lb {
    struct tui_lines *L;
    char *s;
    unsigned char *st;
    int len, cap, width;
};
void tui_lb_put(struct tui_lb *b, const char *s, size_t n, int style);
void tui_lb_puts(struct tui_lb *b, const char *s, int style);
void tui_lb_repeat(struct tui_lb *b, const char *glyph, int count, int style);
void tui_lb_pad(struct tui_lb *b, int width, int style); /* spaces up to `width` columns */
/* Put s, cut or padded to exactly `width` columns (folded to ASCII first when ascii). */
void tui_lb_fit(struct tui_lb *b, const char *s, int width, int align, bool ascii, int style);
void tui_lb_end(struct tui_lb *b, int block, int kind, int tag);
void tui_lb_free(struct tui_lb *b);

/* The drawing glyphs: Unicode box drawing and blocks, or ASCII for non-UTF-8 terminals. */
struct tui_glyphs {
    const char *h, *v, *tl, *tr, *bl, *br, *lj, *rj, *tj, *bj, *cross, *hh;
    const char *bullet[3], *run, *check, *cross_mark, *started, *arrow, *ellipsis, *full, *light,
        *medium;
};
const struct tui_glyphs *tui_glyphs(bool ascii);

struct tui_render_opts {
    int width;        /* columns available (>= 1) */
    const char *lang; /* "en" / "zh": callout labels */
    bool ascii;       /* non-UTF-8 terminal: fold text and glyphs to ASCII */
    int block;        /* block index stamped on every line */
};

/* Markup source -> lines appended to L. A source that does not parse is shown with its error
 * followed by the raw text (lessons are validated on load; this is a last resort). */
void tui_render_markup(struct tui_lines *L, const char *src, size_t n,
                       const struct tui_render_opts *o);
/* One paragraph with inline spans: the first line starts with `first` (e.g. "• "), the next
 * ones are indented by its width (hanging indent). */
void tui_render_para(struct tui_lines *L, const char *text, size_t n, int style, bool spans,
                     const char *first, int first_style, const struct tui_render_opts *o);
/* A table: rows x cols cells (row 0 the header when `header`), columns sized by display width,
 * shrunk to fit and wrapped inside; too narrow for even that: "header: value" lines. */
void tui_render_table(struct tui_lines *L, const char *const *cells, int rows, int cols,
                      bool header, const struct tui_render_opts *o);

#endif
