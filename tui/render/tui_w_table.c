/* tui_w_table.c - the table widget (see tui_widget.h): rows as they came (the first is the
 * header when there are more), drawn by tui_render_table with columns fitted to the width.
 * Tested by tests/unit/test_tui_panel.c. */
#include "tui_widget.h"

#include <stdlib.h>
#include <string.h>

struct prow {
    int n;
    char **cells;
};

struct table {
    struct prow *rows;
    int n;
};

static void *make(void) { return calloc(1, sizeof(struct table)); }

static void destroy(void *st)
{
    struct table *s = st;
    if (!s) return;
    for (int i = 0; i < s->n; i++) {
        for (int k = 0; k < s->rows[i].n; k++) free(s->rows[i].cells[k]);
        free(s->rows[i].cells);
    }
    free(s->rows);
    free(s);
}

static bool apply(void *st, const struct lt_event *ev, const struct tui_wenv *e)
{
    struct table *m = st;
    if (m->n == TUI_W_MAX_ROWS) return false;
    struct prow *nr = realloc(m->rows, (size_t)(m->n + 1) * sizeof *nr);
    if (!nr) return false;
    m->rows = nr;
    /* at most LT_EVENT_MAX_ITEMS (the emitter refuses more); none without the array */
    int n = !ev->cells || ev->ncells < 0 ? 0 : ev->ncells > LT_EVENT_MAX_ITEMS ? LT_EVENT_MAX_ITEMS : ev->ncells;
    struct prow *r = &m->rows[m->n];
    r->cells = calloc((size_t)(n ? n : 1), sizeof *r->cells);
    if (!r->cells) return false;
    r->n = n;
    for (int i = 0; i < n; i++) r->cells[i] = tui_w_text(e, ev->cells[i]);
    m->n++;
    return true;
}

static bool has_data(const void *st) { return ((const struct table *)st)->n > 0; }

static void draw(const void *st, const struct tui_wctx *c, const struct tui_pinfo *pi)
{
    const struct table *m = st;
    if (!m->n) return;
    int cols = 1;
    for (int r = 0; r < m->n; r++)
        if (m->rows[r].n > cols) cols = m->rows[r].n;
    const char **cells = calloc((size_t)m->n * (size_t)cols, sizeof *cells);
    if (!cells) {
        c->L->oom = true;
        return;
    }
    for (int r = 0; r < m->n; r++)
        for (int k = 0; k < cols; k++) {
            const char *v = k < m->rows[r].n ? m->rows[r].cells[k] : "";
            cells[r * cols + k] = v ? v : ""; /* a cell that ran out of memory is blank */
        }
    struct tui_render_opts o = {c->width, c->lang, c->ascii, -1};
    tui_render_table(c->L, cells, m->n, cols, m->n > 1, &o);
    free(cells);
}

const struct tui_widget tui_widget_table = {LT_PANEL_TABLE, make, destroy, apply, has_data, draw, NULL, NULL};
