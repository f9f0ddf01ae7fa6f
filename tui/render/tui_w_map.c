/* tui_w_map.c - the memory map widget (see tui_widget.h), drawn to scale: every map of a panel
 * set shares one scale (the largest map, or the lesson's `scale`), so 256 MiB reserved covers
 * twice the cells of 128 MiB, and what lies past a map's own total stays "·" (not reserved).
 * The glyph says the state (█ allocated, ░ cached, · not reserved), a "│" where one segment
 * meets the next; a run of alike blocks (same state and size, one after the other) shares one
 * colour and one legend line ("8 × 16 MiB"). Blocks arrive typed (struct lt_map_block): nothing
 * here parses text. Tested by tests/unit/test_tui_panel.c and tests/tui/visual.sh. */
#include "tui_widget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_float.h"
#include "gpu_fmt.h"

struct pblock {
    char *owner;
    enum lt_map_state state;
    double bytes;
    int seg; /* the allocator segment it lies in, 0 when the event does not say */
};

struct map {
    struct pblock b[LT_EVENT_MAX_ITEMS];
    int n;
    double total;
};

/* How a state is drawn: allocated (and memory the map does not split), cached (and what is
 * freed but not yet reusable, or merged), not reserved. */
enum glyph { MS_ALLOC, MS_CACHED, MS_FREE };

static enum glyph glyph_of(enum lt_map_state s)
{
    if (s == LT_MAP_FREE) return MS_FREE;
    if (s == LT_MAP_ALLOCATED || s == LT_MAP_USED) return MS_ALLOC;
    return MS_CACHED;
}

static const char *map_glyph(enum glyph s, bool ascii)
{
    static const char *const u[] = {"█", "░", "·"}, *const a[] = {"#", ":", "."};
    return (ascii ? a : u)[s];
}

static void *make(void) { return calloc(1, sizeof(struct map)); }

static void clear_blocks(struct map *m)
{
    for (int i = 0; i < m->n; i++) free(m->b[i].owner);
    m->n = 0;
}

static void destroy(void *st)
{
    if (!st) return;
    clear_blocks(st);
    free(st);
}

/* A map event replaces the map: it is the memory at one moment. */
static bool apply(void *st, const struct lt_event *ev, const struct tui_wenv *e)
{
    struct map *m = st;
    clear_blocks(m);
    m->total = ev->value;
    int n = !ev->blocks || ev->nblocks < 0 ? 0 : ev->nblocks > LT_EVENT_MAX_ITEMS ? LT_EVENT_MAX_ITEMS : ev->nblocks;
    for (int i = 0; i < n; i++) {
        const struct lt_map_block *k = &ev->blocks[i];
        struct pblock *p = &m->b[m->n];
        if (!(p->owner = tui_w_text(e, k->owner))) return false;
        p->state = (unsigned)k->state < LT_MAP_COUNT ? k->state : LT_MAP_USED;
        p->bytes = (double)k->bytes;
        p->seg = k->seg > 0 ? k->seg : 0;
        m->n++;
    }
    return true;
}

static bool has_data(const void *st) { return ((const struct map *)st)->n > 0; }

/* What a map covers: its declared total, or its blocks; the larger, so no block is cut off. */
static double extent(const void *st)
{
    const struct map *m = st;
    double sum = 0, t = m->total > 0 && isfinite(m->total) ? m->total : 0;
    for (int i = 0; i < m->n; i++) sum += m->b[i].bytes;
    return t > sum ? t : sum;
}

static const char *map_word(const struct tui_wctx *c, int which)
{
    static const char *const en[] = {"allocated", "cached", "not reserved", "segment", "total",
                                     "of"};
    static const char *const zhw[] = {"已分配", "缓存", "未预留", "段边界", "总计", "/ 全宽"};
    return (tui_w_zh(c) && !c->ascii ? zhw : en)[which];
}

static void draw(const void *st, const struct tui_wctx *c, const struct tui_pinfo *pi)
{
    const struct map *m = st;
    double total = extent(m);
    if (!(total > 0)) return;
    double scale = c->map_scale > total && isfinite(c->map_scale) ? c->map_scale : total;
    int rows = c->width < 60 ? 3 : 2, len = c->width * rows;
    /* runs of alike neighbours: one colour, one legend line */
    int run[LT_EVENT_MAX_ITEMS], nrun = 0, runlen[LT_EVENT_MAX_ITEMS];
    for (int i = 0; i < m->n; i++) {
        const struct pblock *k = &m->b[i], *p = i ? &m->b[i - 1] : NULL;
        bool alike = p && glyph_of(p->state) == glyph_of(k->state) && gpu_feq(p->bytes, k->bytes);
        if (!alike) runlen[nrun] = 0, nrun++;
        run[i] = nrun - 1;
        runlen[nrun - 1]++;
    }
    const char **cell = malloc((size_t)len * sizeof *cell);
    unsigned char *sty = malloc((size_t)len);
    if (!cell || !sty) {
        free(cell), free(sty);
        c->L->oom = true;
        return;
    }
    for (int x = 0; x < len; x++) cell[x] = map_glyph(MS_FREE, c->ascii), sty[x] = TS_DIM;
    bool used[3] = {false, false, false}, seams = false;
    int colour = 0, runcol[LT_EVENT_MAX_ITEMS];
    for (int r = 0; r < nrun; r++) runcol[r] = -1;
    double at = 0;
    for (int i = 0; i < m->n; i++) {
        const struct pblock *k = &m->b[i];
        if (!(k->bytes > 0)) continue;
        int a = tui_w_clamp(at / scale * len, 0, len);
        int e = tui_w_clamp((at + k->bytes) / scale * len, 0, len);
        if (e == a && a < len) e = a + 1; /* every block visible */
        at += k->bytes;
        enum glyph ms = glyph_of(k->state);
        used[ms] = true;
        if (ms == MS_ALLOC && runcol[run[i]] < 0) runcol[run[i]] = colour++ % TS_NSERIES;
        int st2 = ms == MS_ALLOC ? TS_SERIES0 + runcol[run[i]] : ms == MS_CACHED ? TS_PLAIN : TS_DIM;
        for (int x = a; x < e; x++) cell[x] = map_glyph(ms, c->ascii), sty[x] = (unsigned char)st2;
        /* a new segment starts here: a thin rule in its first cell, when the block has room */
        if (i && k->seg > 0 && m->b[i - 1].seg > 0 && k->seg != m->b[i - 1].seg && e - a >= 3) {
            cell[a] = c->ascii ? "|" : "│", sty[a] = TS_RULE;
            seams = true;
        }
    }
    for (int x = 0; x < len; x++) used[MS_FREE] |= cell[x] == map_glyph(MS_FREE, c->ascii);
    struct tui_lb b = {.L = c->L};
    for (int r = 0; r < rows; r++) {
        for (int x = 0; x < c->width; x++) tui_lb_puts(&b, cell[r * c->width + x], sty[r * c->width + x]);
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    free(cell);
    free(sty);
    /* one legend line per run: glyph, owners, count x size */
    struct tui_render_opts o = {c->width, c->lang, c->ascii, -1};
    for (int i = 0, r = 0; i < m->n; i += runlen[r], r++) {
        const struct pblock *k = &m->b[i], *last = &m->b[i + runlen[r] - 1];
        enum glyph ms = glyph_of(k->state);
        char sz[32], line[320], first[8];
        gpu_fmt_bytes(k->bytes, GPU_FMT_BIN, sz, sizeof sz);
        const char *ell = c->ascii ? "..." : "…", *times = c->ascii ? "x" : "×";
        if (runlen[r] == 1)
            snprintf(line, sizeof line, "%s  %s", *k->owner ? k->owner : map_word(c, ms), sz);
        else if (strcmp(k->owner, last->owner))
            snprintf(line, sizeof line, "%s %s %s  %d %s %s", k->owner, ell, last->owner, runlen[r], times, sz);
        else
            snprintf(line, sizeof line, "%s  %d %s %s", k->owner, runlen[r], times, sz);
        snprintf(first, sizeof first, "%s ", map_glyph(ms, c->ascii));
        int st2 = ms == MS_ALLOC && runcol[r] >= 0 ? TS_SERIES0 + runcol[r] : ms == MS_CACHED ? TS_PLAIN : TS_DIM;
        tui_render_para(c->L, line, strlen(line), ms == MS_FREE ? TS_DIM : TS_PLAIN, false, first, st2, &o);
    }
    /* the glyph key and the scale, on one line */
    char key[320], tot[32], sc[32];
    size_t n = 0;
    for (int g = 0; g < 3; g++)
        if (used[g]) n += (size_t)snprintf(key + n, sizeof key - n, "%s %s  ", map_glyph((enum glyph)g, c->ascii), map_word(c, g));
    if (seams && n < sizeof key) n += (size_t)snprintf(key + n, sizeof key - n, "%s %s  ", c->ascii ? "|" : "│", map_word(c, 3));
    gpu_fmt_bytes(total, GPU_FMT_BIN, tot, sizeof tot);
    gpu_fmt_bytes(scale, GPU_FMT_BIN, sc, sizeof sc);
    if (n < sizeof key) {
        if (scale > total) snprintf(key + n, sizeof key - n, "%s %s %s %s", map_word(c, 4), tot, map_word(c, 5), sc);
        else snprintf(key + n, sizeof key - n, "%s %s", map_word(c, 4), tot);
    }
    tui_w_line(c, key, TS_DIM);
    tui_lb_free(&b);
}

const struct tui_widget tui_widget_map = {LT_PANEL_MAP, make, destroy, apply, has_data, draw, NULL, extent};
