/* tui_evlog.c - see tui_evlog.h. Each event is one deep copy: its strings, its cells and its
 * blocks in one allocation. */
#include "tui_evlog.h"

#include <stdlib.h>
#include <string.h>

struct tui_evlog {
    struct lt_event *v;
    char **mem; /* per event: its copy's storage */
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
int tui_evlog_count(const struct tui_evlog *g) { return g ? g->n : 0; }

/* The bytes a text takes in the copy: both languages, the second only when it differs. */
static size_t text_size(struct lt_text t)
{
    const char *a = lt_tx(t, false), *b = lt_tx(t, true);
    return strlen(a) + 1 + (strcmp(a, b) ? strlen(b) + 1 : 0);
}

static const char *put(char **at, const char *s, size_t n)
{
    char *d = *at;
    memcpy(d, s, n);
    *at += n;
    return d;
}

static struct lt_text put_text(char **at, struct lt_text t)
{
    const char *a = lt_tx(t, false), *b = lt_tx(t, true);
    struct lt_text c;
    c.s[0] = put(at, a, strlen(a) + 1);
    c.s[1] = strcmp(a, b) ? put(at, b, strlen(b) + 1) : c.s[0];
    return c;
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
    int nc = ev->cells ? ev->ncells : 0, nb = ev->blocks ? ev->nblocks : 0;
    /* the arrays first (aligned), then the strings; a print's text may hold NUL bytes:
     * text_len of them, and one more */
    const char *text = lt_tx(ev->text, false);
    size_t tl = ev->type == LT_EV_PRINT && ev->text_len ? ev->text_len : 0;
    size_t need = (size_t)nc * sizeof *ev->cells + (size_t)nb * sizeof *ev->blocks;
    need += strlen(ev->panel ? ev->panel : "") + 1 + text_size(ev->series) + text_size(ev->unit);
    need += tl ? tl + 1 : text_size(ev->text);
    for (int c = 0; c < nc; c++) need += text_size(ev->cells[c]);
    for (int b = 0; b < nb; b++) need += text_size(ev->blocks[b].owner);
    char *mem = malloc(need ? need : 1);
    if (!mem) {
        g->dropped = true;
        return;
    }
    struct lt_event e = *ev;
    struct lt_text *cells = (struct lt_text *)(void *)mem;
    struct lt_map_block *blocks = (struct lt_map_block *)(void *)(cells + nc);
    char *at = (char *)(blocks + nb);
    e.panel = put(&at, ev->panel ? ev->panel : "", strlen(ev->panel ? ev->panel : "") + 1);
    e.series = put_text(&at, ev->series);
    e.unit = put_text(&at, ev->unit);
    if (tl) {
        e.text = lt_text1(put(&at, text, tl));
        *at++ = 0;
    } else {
        e.text = put_text(&at, ev->text);
    }
    for (int c = 0; c < nc; c++) cells[c] = put_text(&at, ev->cells[c]);
    for (int b = 0; b < nb; b++) blocks[b] = ev->blocks[b], blocks[b].owner = put_text(&at, ev->blocks[b].owner);
    e.cells = nc ? cells : NULL, e.ncells = nc;
    e.blocks = nb ? blocks : NULL, e.nblocks = nb;
    g->v[g->n] = e;
    g->mem[g->n++] = mem;
}

void tui_evlog_replay(const struct tui_evlog *g, void (*fn)(void *ud, const struct lt_event *ev),
                      void *ud)
{
    for (int i = 0; g && i < g->n; i++) fn(ud, &g->v[i]);
}
