/* tui_evlog.c - see tui_evlog.h. Each event is one deep copy: its strings in one allocation. */
#include "tui_evlog.h"

#include <stdlib.h>
#include <string.h>

struct tui_evlog {
    struct lt_event *v;
    char **mem; /* per event: its strings */
    int n, cap;
    bool dropped;
};

struct tui_evlog *tui_evlog_new(void) { return calloc(1, sizeof(struct tui_evlog)); }

void tui_evlog_clear(struct tui_evlog *g)
{
    if (!g) return;
    for (int i = 0; i < g->n; i++) free(g->mem[i]);
    g->n = 0;
    g->dropped = false;
}

void tui_evlog_free(struct tui_evlog *g)
{
    if (!g) return;
    tui_evlog_clear(g);
    free(g->v), free(g->mem), free(g);
}

bool tui_evlog_complete(const struct tui_evlog *g) { return g && !g->dropped; }

static size_t len_of(const char *s) { return s ? strlen(s) + 1 : 0; }

static const char *put(char **at, const char *s, size_t n)
{
    if (!s) return NULL;
    char *d = *at;
    memcpy(d, s, n);
    *at += n;
    return d;
}

void tui_evlog_add(struct tui_evlog *g, const struct lt_event *ev)
{
    if (!g || g->dropped) return;
    if (g->n == g->cap) {
        int nc = g->cap ? g->cap * 2 : 64;
        struct lt_event *v = nc <= TUI_EVLOG_MAX ? realloc(g->v, (size_t)nc * sizeof *v) : NULL;
        char **m = v ? realloc(g->mem, (size_t)nc * sizeof *m) : NULL;
        if (v) g->v = v;
        if (!m) {
            g->dropped = true;
            return;
        }
        g->mem = m, g->cap = nc;
    }
    /* a print's text may hold NUL bytes: text_len of them, and one more */
    size_t tl = ev->text ? (ev->text_len ? ev->text_len : strlen(ev->text)) + 1 : 0;
    size_t need = len_of(ev->panel) + len_of(ev->series) + tl + len_of(ev->unit);
    for (int c = 0; c < ev->ncells && c < LT_MAX_CELLS; c++) need += len_of(ev->cells[c]);
    char *mem = malloc(need ? need : 1), *at = mem;
    if (!mem) {
        g->dropped = true;
        return;
    }
    struct lt_event e = *ev;
    e.panel = put(&at, ev->panel, len_of(ev->panel));
    e.series = put(&at, ev->series, len_of(ev->series));
    if (ev->text) {
        e.text = put(&at, ev->text, tl - 1);
        *at++ = 0;
    }
    e.unit = put(&at, ev->unit, len_of(ev->unit));
    for (int c = 0; c < ev->ncells && c < LT_MAX_CELLS; c++) e.cells[c] = put(&at, ev->cells[c], len_of(ev->cells[c]));
    g->v[g->n] = e;
    g->mem[g->n++] = mem;
}

const struct lt_event *tui_evlog_translate(const struct lt_event *ev, const struct lt_runtime *rt,
                                           const char *lang, struct lt_event *out)
{
    enum { N = 1024 };
    static char b[3 + LT_MAX_CELLS][N]; /* the UI thread's alone */
    *out = *ev;
    if (!rt) return out;
    out->series = lt_runtime_translate(rt, ev->series, lang, b[0], N);
    if (ev->type != LT_EV_PRINT) /* print() shows what the code printed, as it printed it */
        out->text = lt_runtime_translate(rt, ev->text, lang, b[1], N);
    if (out->text != ev->text) out->text_len = 0;
    out->unit = lt_runtime_translate(rt, ev->unit, lang, b[2], N);
    for (int c = 0; c < ev->ncells && c < LT_MAX_CELLS; c++)
        out->cells[c] = lt_runtime_translate(rt, ev->cells[c], lang, b[3 + c], N);
    return out;
}

void tui_evlog_replay(const struct tui_evlog *g, const struct lt_runtime *rt, const char *lang,
                      void (*fn)(void *ud, const struct lt_event *ev), void *ud)
{
    struct lt_event e;
    for (int i = 0; g && i < g->n; i++) fn(ud, tui_evlog_translate(&g->v[i], rt, lang, &e));
}
