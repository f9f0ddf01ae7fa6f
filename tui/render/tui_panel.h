/* tui_panel.h - the live panel set. A panel set belongs to one experiment: the sink feeds it
 * struct lt_event's (bars, curve points, table rows, gauges, a memory map, notes, the status
 * line and print() lines), and it renders to styled lines for a width. Each panel kind's data
 * is its widget's (tui_widget.h: one file per kind, tui_w_KIND.c); the set keeps the panels'
 * order, titles, notes and tags. Anything SIMULATED says so in words, not only in colour.
 * Pure: no ncurses, no Lua calls (lt.h is used for its types only). */
#ifndef TUI_PANEL_H
#define TUI_PANEL_H

#include <stdbool.h>
#include <stddef.h>

#include "lt.h"
#include "tui_render.h"

struct tui_panelset;

/* ascii: a non-UTF-8 terminal; every string an event brings is folded to ASCII on arrival. */
struct tui_panelset *tui_panelset_new(bool ascii);
void tui_panelset_free(struct tui_panelset *ps);
/* Forget all data (a new run), keep the declared panels. */
void tui_panelset_clear(struct tui_panelset *ps);
/* (Re)declare the experiment's panels in order: ids keep their data; titles and labels are
 * replaced (the language may have changed). */
void tui_panelset_declare(struct tui_panelset *ps, const struct lt_panel *p, int n);
/* The language the events' texts are kept in ("en", "zh"; each event carries both): set it
 * before applying, and after a change clear and apply the kept events again. */
void tui_panelset_set_lang(struct tui_panelset *ps, const char *lang);
/* Apply one event; true when what is shown changed. Events for an undeclared panel id create
 * one whose kind follows the event (lt_event_panel_kind). Strings are copied. Each kind of data
 * goes to its widget (tui_widget.h). */
bool tui_panelset_apply(struct tui_panelset *ps, const struct lt_event *ev);

/* The rows the panels are shown in (0: no limit): a curve is drawn short enough to be seen whole. */
void tui_panelset_set_rows(struct tui_panelset *ps, int rows);

/* How the screen shows the set. framed: each panel in a light frame with its title in the top
 * edge, and no SIMULATED on the panels (the screen says it once, in its header strip; a panel
 * that mixes measured numbers with simulated ones still says "+ measured"). whole_key: the key
 * of the screen that shows a panel whole (0: none), named by a table that cannot fit; whole: the
 * panel is shown whole now (a table too wide for its columns becomes records). */
struct tui_panel_view {
    bool framed;
    char whole_key;
    bool whole;
};
void tui_panelset_set_view(struct tui_panelset *ps, const struct tui_panel_view *v);

/* A word every panel's header shows (e.g. "REPLAY": the data was recorded elsewhere), or NULL. */
void tui_panelset_set_tag(struct tui_panelset *ps, const char *tag);

/* The experiment status line ("" when none) and whether it reports an error. */
const char *tui_panelset_status(const struct tui_panelset *ps);
/* print() lines, oldest first; at most the last TUI_LOG_MAX are kept. */
#define TUI_LOG_MAX 200
int tui_panelset_nlog(const struct tui_panelset *ps);
const char *tui_panelset_log(const struct tui_panelset *ps, int i);
bool tui_panelset_has_data(const struct tui_panelset *ps);

/* The experiment's key figure: the panel the lesson names with `key =` gives it - a bars
 * panel its first measured or simulated bar (else its first), a gauge panel likewise its
 * gauge, a curve panel its highest point (the peak; `x` says where). False while that panel
 * has no data or the lesson names none. */
struct tui_keyfig {
    const char *label, *unit; /* owned by the panel set: valid until its next change */
    double value, max, x;     /* max: a gauge's full scale (0 otherwise); x: a curve peak's x */
    enum lt_style style;
    bool curve, gauge, bytes_x; /* bytes_x: the curve's x axis counts bytes */
};
bool tui_panelset_key(const struct tui_panelset *ps, struct tui_keyfig *out);

/* Render every panel for `width` columns (a blank line between panels); the key figure's panel
 * comes first, its figure in a headline row above its widget. */
void tui_panelset_render(const struct tui_panelset *ps, struct tui_lines *L, int width, bool ascii,
                         const char *lang);

#endif
