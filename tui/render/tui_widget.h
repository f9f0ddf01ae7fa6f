/* tui_widget.h - what a panel kind's widget is: one file per kind (tui_w_KIND.c) fills a struct
 * tui_widget named tui_widget_KIND, and the panel set (tui_panel.c) finds it by the kind's row
 * in lt_event.h's LT_PANEL_LIST. The widget keeps what its events said (its own state, made on
 * the first event of its kind a panel gets) and draws it for a width; the panel set owns what
 * every panel has (id, title, labels, notes, the SIMULATED tag) and the order.
 *
 * Adding a panel kind: its rows in lt_event.h, a tui_w_KIND.c here, the ex: method in
 * lua/lib/lesson.lua and its printer row in tui/cli/tui_plain.c (docs/architecture.md).
 * Pure: no ncurses, no Lua calls. */
#ifndef TUI_WIDGET_H
#define TUI_WIDGET_H

#include <stdbool.h>
#include <stddef.h>

#include "lt.h"
#include "tui_panel.h"
#include "tui_render.h"
#include "tui_wrap.h" /* widths and fitting: every widget measures text */

/* Limits every widget keeps to (an event's cells and blocks: LT_EVENT_MAX_ITEMS). */
#define TUI_W_MAX_ITEMS LT_EVENT_MAX_ITEMS /* bars, gauges, series, notes per panel */
#define TUI_W_MAX_POINTS 4096              /* per series */
#define TUI_W_MAX_ROWS 1000

/* What an event's strings become when kept: the panel's language picked, folded to ASCII on a
 * non-UTF-8 terminal. */
struct tui_wenv {
    bool zh, fold;
    const char *panel_unit; /* the panel's declared unit: a bar's or gauge's when it says none */
};

/* What a widget draws into and with. */
struct tui_wctx {
    struct tui_lines *L;
    int width;
    bool ascii;
    const char *lang;
    const struct tui_glyphs *g;
    const char *tag;  /* the panel set's tag ("REPLAY") or NULL */
    double map_scale; /* the bytes every map of the set is drawn against */
    int rows;         /* the viewport's rows, when the screen said (0: no limit) */
    char whole_key;   /* the screen's key that shows a panel whole (0: none) */
    bool whole;       /* shown whole now: a table too wide for columns becomes records */
    bool framed;      /* drawn inside the panel's frame: a table needs no outer frame of its own */
};

/* The panel a widget draws in: what the lesson declared. */
struct tui_pinfo {
    const char *id, *kind, *title, *x_label, *y_label, *unit;
    bool logx;
    double scale;   /* declared: a bar's full length, a map's bytes (0: from the data) */
    bool headline;  /* this panel's key figure is drawn above it already (a one-bar key panel
                       need not draw its bar again) */
};

struct tui_widget {
    enum lt_panel_kind kind;
    void *(*make)(void);                                  /* an empty state; NULL: no memory */
    void (*free)(void *st);
    bool (*apply)(void *st, const struct lt_event *ev, const struct tui_wenv *e); /* changed */
    bool (*has_data)(const void *st);
    void (*draw)(const void *st, const struct tui_wctx *c, const struct tui_pinfo *p);
    /* the key figure when the lesson names this panel (`key =`); NULL: the kind has none */
    bool (*key)(const void *st, const struct tui_pinfo *p, struct tui_keyfig *k);
    /* the bytes a map covers, for one scale across the set; NULL: not a map */
    double (*extent)(const void *st);
};

#define TUI_X_WIDGET(e, name) extern const struct tui_widget tui_widget_##name;
LT_PANEL_LIST(TUI_X_WIDGET)
#undef TUI_X_WIDGET

/* The widget of a panel kind (NULL out of range). */
const struct tui_widget *tui_widget_of(enum lt_panel_kind k);

/* ---- helpers the widgets share (tui_panel.c) ------------------------------------------------ */
char *tui_w_dup(const struct tui_wenv *e, const char *s); /* malloc'd; NULL: no memory */
/* A text of the event in the panel's language, kept (tui_w_dup). */
char *tui_w_text(const struct tui_wenv *e, struct lt_text t);
/* A labelled figure of a bars or a gauge panel: one per label, in the order they came. */
struct tui_w_item {
    char *label, *unit;
    double value, max; /* max: a gauge's full scale, a bar's paired peak */
    int style;
};
struct tui_w_items {
    struct tui_w_item v[TUI_W_MAX_ITEMS];
    int n;
};
/* The item ev->series names (made when new), its value, max and style from ev and its unit ev's
 * or the panel's; NULL, and nothing changed, when the panel is full or memory is out. */
struct tui_w_item *tui_w_items_apply(struct tui_w_items *s, const struct lt_event *ev,
                                     const struct tui_wenv *e);
void tui_w_items_free(struct tui_w_items *s); /* what the items hold, then s */
/* The item a key figure shows: the first measured or simulated one (a theoretical peak or a
 * reference is context, not the result), else the first; NULL when there is none. */
const struct tui_w_item *tui_w_items_key(const struct tui_w_items *s);
/* A computed cell, column or row index: clamped in double before it becomes an int, so no
 * value an event can carry (NaN, inf, 1e300, negative) converts out of range. NaN gives lo. */
int tui_w_clamp(double v, int lo, int hi);
bool tui_w_zh(const struct tui_wctx *c);
void tui_w_line(const struct tui_wctx *c, const char *s, int style); /* a wrapped paragraph */
int tui_w_style(enum lt_style s);                                  /* TS_MEASURED.. */
const char *tui_w_style_tag(int style, bool ascii);               /* "SIM", "theory", "ref" */
/* A run of w cells filled to frac, eighths for the last cell; the rest is `track` (a dim glyph)
 * or blanks when NULL. */
void tui_w_bar_run(struct tui_lb *b, double frac, int w, int style, bool ascii, const char *track);
/* An x axis that counts bytes ("bytes", "B", "字节"): its ticks are 4K 1M, not 4096. */
bool tui_w_bytes_axis(const char *label);
/* A timeline's layout (tui_w_timeline.c): the cells [*c0, *c1) of a plot `cols` wide over
 * 0..end that a span t0..t1 takes - each cell whose centre it covers, or, covering none, the
 * cell its middle lies in; false when it has no length, starts at or past the end or is not a
 * span. */
bool tui_w_span_cols(double t0, double t1, double end, int cols, int *c0, int *c1);

#endif
