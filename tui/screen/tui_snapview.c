/* tui_snapview.c - the snapshot screen (tui_snapview.h). The file is read, parsed and
 * summarised on a worker thread while the loop keeps answering keys (Esc leaves at once); the
 * what-if replay runs on a worker too. Laid out top to bottom: title, the timeline (requested
 * bytes as full blocks, reserved as light ones, each column the highest value of its entries so
 * a peak survives any zoom; the what-if model's reserved bytes as a line over them), the
 * cursor's entry, time and levels, the largest allocations live at the cursor (↑/↓ selects),
 * the selected one's stack, and the what-if verdict. It runs on the shared event loop
 * (tui_loop.h) as draw / key / tick / busy / quit ops; its keys are one table (sv_keys) for the
 * footer, the ? overlay and the dispatch. */
#include "tui_snapview.h"

#include <curses.h>
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_file.h"
#include "gpu_fmt.h"
#include "gpu_snap_timeline.h"
#include "gpu_snapshot.h"
#include "tui_panel.h"
#include "tui_style.h"
#include "tui_keys.h"
#include "tui_loop.h"
#include "tui_term.h"

#define TOPN 8
#define MAXCOLS 1024

static const char *const whatif_confs[] = {NULL, "expandable_segments:True", "max_split_size_mb:128",
                                           "expandable_segments:True,max_split_size_mb:128"};
#define NCONFS (sizeof whatif_confs / sizeof *whatif_confs)
static const uint64_t capacities[] = {0, 16ull << 30, 24ull << 30, 80ull << 30};
#define NCAPS (sizeof capacities / sizeof *capacities)

struct live_ent {
    size_t ev;
    uint64_t size;
};

struct snapview {
    char path[PATH_MAX];
    bool abandoned; /* left while loading: the loader frees it */
    bool zh, ascii, quit;
    /* loading (worker) */
    pthread_t th;
    bool th_started;
    atomic_int loaded; /* 0 loading, 1 done, 2 the screen was left: the loader frees all */
    gpu_status st;
    char err[512];
    struct gpu_snapshot *s;
    struct gpu_snap_summary sum;
    const struct gpu_snap_device *d;
    int64_t *freed_at; /* per entry: the free_completed entry that ends an alloc (-1: never) */
    /* view */
    size_t from, to, cur; /* zoom window [from, to) and the cursor entry */
    struct live_ent top[TOPN];
    int ntop, sel;
    size_t top_for; /* the cursor the list was made for (SIZE_MAX: stale) */
    /* what if (worker) */
    int conf_i, cap_i;
    int run_conf, run_cap; /* the settings the replay in flight (or shown) was started with */
    pthread_t wth;
    bool w_started;
    atomic_int w_done;
    struct gpu_snap_replay *r;
    uint64_t *series; /* the model's reserved bytes after each entry (the what-if's) */
    gpu_status w_st;
    char w_err[256];
    struct tui_panelset *ps; /* the map widget the allocator lessons use */
    size_t map_cur;          /* the cursor and selection the map was made for */
    int map_sel;
    bool map_made;
    char map_title[200];
    bool help; /* the key table shown */
    bool dirty;
};

/* The screen's keys, one table for the footer, the help overlay (?) and the dispatch in sv_key:
 * the shape of a tui_keys table, so it moves onto the shared key tables row for row. */
static const struct sv_binding {
    const char *keys, *en, *zh;
} sv_keys[] = {
    {"\u2190 \u2192", "move the cursor (1/100 of the view)", "移动光标（视图的 1/100）"},
    {"Home End", "cursor to the view's start / end", "光标到视图开头 / 结尾"},
    {"+ -", "zoom in / out around the cursor", "以光标为中心放大 / 缩小"},
    {"0", "the whole trace", "整个记录"},
    {"p", "cursor to the peak", "光标到峰值"},
    {"\u2191 \u2193", "select a live allocation (map and stack)", "选择一个活着的分配（内存图和调用栈）"},
    {"w", "what if: next allocator setting (SIMULATED replay)", "what if：下一种分配器设置（模拟回放）"},
    {"c", "what if: next capacity (unlimited, 16, 24, 80 GiB)", "what if：下一种容量（不限、16、24、80 GiB）"},
    {"?", "this help", "本帮助"},
    {"q Esc", "back", "返回"},
};
#define NSV_KEYS (sizeof sv_keys / sizeof *sv_keys)

#define TR(v, en, zh_) ((v)->zh ? (zh_) : (en))

static void sv_free(struct snapview *v);

static void *load_fn(void *ud)
{
    struct snapview *v = ud;
    char err[512];
    v->st = gpu_snapshot_load(v->path, NULL, &v->s, err, sizeof err);
    if (v->st == GPU_OK) v->st = gpu_snapshot_summarize(v->s, 5, &v->sum, err, sizeof err);
    if (v->st == GPU_OK && v->sum.ndev == 0) {
        v->st = GPU_ERR_ARG;
        snprintf(err, sizeof err, "%s: the snapshot has no device", v->path);
    }
    if (v->st == GPU_OK) {
        size_t di = 0;
        for (size_t i = 0; i < v->sum.ndev; i++)
            if (v->sum.dev[i].events > 0) {
                di = i;
                break;
            }
        v->d = &v->sum.dev[di];
        int dev = v->d->device;
        const struct gpu_snap_trace *tr = (size_t)dev < v->s->ntraces ? &v->s->traces[dev] : NULL;
        size_t n = tr ? tr->n : 0;
        v->freed_at = malloc((n ? n : 1) * sizeof *v->freed_at);
        if (!v->freed_at) {
            v->st = GPU_ERR_HOST_NOMEM;
            snprintf(err, sizeof err, "%s: out of memory", v->path);
        } else {
            /* pair each free_completed with the latest alloc at its address still open: a
             * linear probe table of open allocs keyed by address */
            size_t cap = 64;
            while (cap < 2 * n + 2) cap *= 2;
            int64_t *slot = malloc(cap * sizeof *slot);
            uint64_t *key = malloc(cap * sizeof *key);
            if (!slot || !key) {
                v->st = GPU_ERR_HOST_NOMEM;
                snprintf(err, sizeof err, "%s: out of memory", v->path);
            } else {
                for (size_t i = 0; i < cap; i++) slot[i] = -1;
                for (size_t i = 0; i < n; i++) {
                    v->freed_at[i] = -1;
                    const struct gpu_snap_event *e = &tr->ev[i];
                    if (e->action != GPU_SNAP_ALLOC && e->action != GPU_SNAP_FREE_COMPLETED) continue;
                    size_t h = (size_t)((e->addr * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
                    while (slot[h] != -1 && key[h] != e->addr) h = (h + 1) & (cap - 1);
                    if (e->action == GPU_SNAP_ALLOC) {
                        slot[h] = (int64_t)i, key[h] = e->addr;
                    } else if (slot[h] >= 0) {
                        v->freed_at[slot[h]] = (int64_t)i;
                        slot[h] = -2; /* a tombstone keeps later probes going */
                    }
                }
            }
            free(slot);
            free(key);
        }
    }
    if (v->st != GPU_OK) snprintf(v->err, sizeof v->err, "%s", err);
    int loading = 0;
    if (!atomic_compare_exchange_strong(&v->loaded, &loading, 1)) sv_free(v); /* nobody waits */
    return NULL;
}

static void *whatif_fn(void *ud)
{
    struct snapview *v = ud;
    struct gpu_caching_opts o;
    gpu_snapshot_recorded_opts(v->s, &o, NULL, 0);
    const char *conf = whatif_confs[v->run_conf];
    char err[256] = "";
    v->w_st = GPU_OK;
    if (conf) v->w_st = gpu_caching_parse_conf(conf, &o, err, sizeof err);
    if (v->w_st == GPU_OK)
        v->w_st = gpu_snapshot_replay_series(v->s, v->d->device, capacities[v->run_cap], conf ? &o : NULL,
                                             v->r, v->series, err, sizeof err);
    snprintf(v->w_err, sizeof v->w_err, "%s", err);
    atomic_store(&v->w_done, 1);
    return NULL;
}

static const struct gpu_snap_trace *snap_trace(const struct snapview *v)
{
    int dev = v->d->device;
    static const struct gpu_snap_trace none = {NULL, 0};
    return (size_t)dev < v->s->ntraces ? &v->s->traces[dev] : &none;
}

/* the largest allocations live just after the cursor's entry */
static void make_top(struct snapview *v)
{
    const struct gpu_snap_trace *tr = snap_trace(v);
    v->ntop = 0;
    for (size_t i = 0; i <= v->cur && i < tr->n; i++) {
        const struct gpu_snap_event *e = &tr->ev[i];
        if (e->action != GPU_SNAP_ALLOC) continue;
        if (v->freed_at[i] >= 0 && (size_t)v->freed_at[i] <= v->cur) continue;
        int at = v->ntop < TOPN ? v->ntop++ : TOPN;
        if (at == TOPN && e->size <= v->top[TOPN - 1].size) continue;
        if (at == TOPN) at = TOPN - 1;
        while (at > 0 && v->top[at - 1].size < e->size) {
            v->top[at] = v->top[at - 1];
            at--;
        }
        v->top[at] = (struct live_ent){i, e->size};
    }
    if (v->sel >= v->ntop) v->sel = v->ntop ? v->ntop - 1 : 0;
    v->top_for = v->cur;
}

/* frame i of a frames list: "file:line function" */
static bool frame_text(const struct snapview *v, const struct gpu_pk *frames, size_t i, char *buf,
                       size_t n)
{
    const struct gpu_pk *f = gpu_pk_at(frames, i);
    if (!f) return false;
    size_t fl = 0, nl = 0;
    const char *file = v->s->k_filename ? gpu_pk_str(gpu_pk_get(f, v->s->k_filename), &fl) : NULL;
    const char *name = v->s->k_name ? gpu_pk_str(gpu_pk_get(f, v->s->k_name), &nl) : NULL;
    int64_t line = 0;
    if (v->s->k_line) gpu_pk_int(gpu_pk_get(f, v->s->k_line), &line);
    snprintf(buf, n, "%s:%lld %s", file ? file : "?", (long long)line, name ? name : "?");
    return true;
}

/* the first frame that is a Python file outside torch: where the program asked */
static void user_where(const struct snapview *v, const struct gpu_pk *frames, char *buf, size_t n)
{
    size_t k = gpu_pk_len(frames);
    for (size_t i = 0; i < k; i++) {
        char t[512];
        if (!frame_text(v, frames, i, t, sizeof t)) break;
        char *colon = strstr(t, ".py:");
        if (colon && !strstr(t, "/torch/")) {
            const char *slash = t;
            for (char *p = t; p < colon; p++)
                if (*p == '/') slash = p + 1;
            snprintf(buf, n, "%s", slash);
            return;
        }
    }
    snprintf(buf, n, "%s", k ? "<torch internals>" : "<no frames>");
}

static void fmt_bytes(int64_t b, char *buf, size_t n)
{
    gpu_fmt_bytes((double)b, GPU_FMT_BIN, buf, n);
}

/* ---- the segment map at the cursor -------------------------------------------------------- */

struct mblk {
    uint64_t addr, size;
    bool sel;
};

struct mcell {
    const char *owner, *state;
    uint64_t bytes;
};

static int mblk_cmp(const void *a, const void *b)
{
    const struct mblk *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The segment that holds the selected allocation at the cursor, from the final segments with
 * the segment_alloc/free entries after the cursor undone, and the allocations live in it then
 * (their requested sizes; the rest of the segment, rounding included, shows as free). Fed to the
 * panel set as one map event: at most LT_MAX_CELLS cells, neighbours merged past that. */
static void make_map(struct snapview *v, char *title, size_t tn)
{
    tui_panelset_clear(v->ps);
    title[0] = 0;
    if (!v->ntop) return;
    const struct gpu_snap_trace *tr = snap_trace(v);
    const struct gpu_snap_event *se = &tr->ev[v->top[v->sel].ev];
    uint64_t at = se->addr, sa = 0, ssz = 0;
    bool found = false;
    /* a segment freed after the cursor that holds the block existed at the cursor */
    for (size_t i = v->cur + 1; i < tr->n && !found; i++) {
        const struct gpu_snap_event *e = &tr->ev[i];
        if (e->action == GPU_SNAP_SEGMENT_ALLOC && e->addr <= at && at < e->addr + e->size) break;
        if (e->action == GPU_SNAP_SEGMENT_FREE && e->addr <= at && at < e->addr + e->size)
            sa = e->addr, ssz = e->size, found = true;
    }
    for (size_t i = 0; i < v->s->nsegs && !found; i++) {
        const struct gpu_snap_segment *g = &v->s->segs[i];
        if (g->device == v->d->device && g->addr <= at && at < g->addr + g->size) sa = g->addr, ssz = g->size, found = true;
    }
    if (!found) {
        snprintf(title, tn, "%s", v->zh ? "找不到这个块所在的段" : "no segment found for this block");
        return;
    }
    size_t cap = 64, n = 0;
    struct mblk *b = malloc(cap * sizeof *b);
    for (size_t i = 0; b && i <= v->cur && i < tr->n; i++) {
        const struct gpu_snap_event *e = &tr->ev[i];
        if (e->action != GPU_SNAP_ALLOC || e->addr < sa || e->addr >= sa + ssz) continue;
        if (v->freed_at[i] >= 0 && (size_t)v->freed_at[i] <= v->cur) continue;
        if (n == cap) {
            struct mblk *nb = realloc(b, 2 * cap * sizeof *b);
            if (!nb) break;
            b = nb, cap *= 2;
        }
        b[n++] = (struct mblk){e->addr, e->size, i == v->top[v->sel].ev};
    }
    if (!b) return;
    qsort(b, n, sizeof *b, mblk_cmp);
    /* cells: live blocks and the free gaps between them, in address order */
    struct mcell c[4 * LT_MAX_CELLS];
    int nc = 0;
    uint64_t pos = sa;
    const char *me = v->zh ? "选中" : "selected", *other = v->zh ? "其他" : "other";
    for (size_t i = 0; i <= n; i++) {
        uint64_t next = i < n ? b[i].addr : sa + ssz;
        if (next > pos && nc < 4 * LT_MAX_CELLS) c[nc++] = (struct mcell){"", "free", next - pos};
        if (i == n) break;
        if (nc < 4 * LT_MAX_CELLS) c[nc++] = (struct mcell){b[i].sel ? me : other, "allocated", b[i].size};
        else c[nc - 1].bytes += b[i].size; /* past the table: the last cell takes it */
        pos = b[i].addr + b[i].size > pos ? b[i].addr + b[i].size : pos;
    }
    free(b);
    /* merge neighbours of the same kind, then pairs away from the selected block, to fit */
    int w = 0;
    for (int i = 0; i < nc; i++) {
        if (w && !strcmp(c[w - 1].owner, c[i].owner) && !strcmp(c[w - 1].state, c[i].state) && c[i].owner != me)
            c[w - 1].bytes += c[i].bytes;
        else c[w++] = c[i];
    }
    nc = w;
    while (nc > LT_MAX_CELLS) {
        int k = c[0].owner == me || c[1].owner == me ? nc - 2 : 0; /* merge at an end */
        c[k].owner = other, c[k].state = "mixed", c[k].bytes += c[k + 1].bytes;
        memmove(&c[k + 1], &c[k + 2], (size_t)(nc - k - 2) * sizeof c[0]);
        nc--;
    }
    char buf[LT_MAX_CELLS][160];
    struct lt_event ev = {.type = LT_EV_MAP, .panel = "map", .value = (double)ssz, .ncells = nc};
    for (int i = 0; i < nc; i++) {
        snprintf(buf[i], sizeof buf[i], "%s:%s:%llu", c[i].owner, c[i].state, (unsigned long long)c[i].bytes);
        ev.cells[i] = buf[i];
    }
    tui_panelset_apply(v->ps, &ev);
    char sz[32];
    gpu_fmt_bytes((double)ssz, GPU_FMT_BIN, sz, sizeof sz);
    snprintf(title, tn, v->zh ? "光标处选中块所在的段：0x%llx，%s" : "its segment at the cursor: 0x%llx, %s",
             (unsigned long long)sa, sz);
    struct lt_panel mp = {.id = "map", .kind = "map", .title = title};
    tui_panelset_declare(v->ps, &mp, 1);
}

/* ---- the loop's ops ------------------------------------------------------------------------- */

static void start_whatif(struct snapview *v);

static bool sv_tick(struct snapview *v)
{
    bool changed = false;
    if (v->th_started && atomic_load(&v->loaded)) {
        pthread_join(v->th, NULL);
        v->th_started = false;
        if (v->st == GPU_OK) {
            v->from = 0;
            v->to = v->d->events;
            v->cur = v->d->peak_event >= 0 ? (size_t)v->d->peak_event : 0;
            v->top_for = SIZE_MAX;
        }
        changed = true;
    }
    if (v->w_started && atomic_load(&v->w_done)) {
        pthread_join(v->wth, NULL);
        v->w_started = false;
        changed = true;
        /* keys pressed while it ran asked for other settings: replay those now */
        if (v->run_conf != v->conf_i || v->run_cap != v->cap_i) start_whatif(v);
    }
    if (v->s && v->st == GPU_OK && !v->th_started && v->top_for != v->cur) {
        make_top(v);
        changed = true;
    }
    return changed;
}

static bool sv_busy(struct snapview *v) { return v->th_started || v->w_started; }

static void start_whatif(struct snapview *v)
{
    if (v->w_started || !v->s || v->st != GPU_OK) return;
    if (!whatif_confs[v->conf_i] && !capacities[v->cap_i]) {
        free(v->r);
        v->r = NULL;
        return;
    }
    if (!v->r) v->r = calloc(1, sizeof *v->r);
    if (!v->series) v->series = calloc(snap_trace(v)->n + 1, sizeof *v->series);
    if (!v->r || !v->series) return;
    atomic_store(&v->w_done, 0);
    v->run_conf = v->conf_i, v->run_cap = v->cap_i;
    v->w_started = pthread_create(&v->wth, NULL, whatif_fn, v) == 0;
}

static void zoom(struct snapview *v, bool in)
{
    size_t n = v->d->events, span = v->to - v->from;
    size_t want = in ? span / 2 : span * 2;
    if (want < 16) want = span < 16 ? span : 16;
    if (want > n) want = n;
    size_t from = v->cur > want / 2 ? v->cur - want / 2 : 0;
    if (from + want > n) from = n - want;
    v->from = from, v->to = from + want;
}

static void sv_key(struct snapview *v, int c)
{
    if (c == '?' || c == 'h') { /* answered while loading too */
        v->help = !v->help;
        return;
    }
    if (c == 27 && v->help) {
        v->help = false;
        return;
    }
    if (c == 'q' || c == 27) {
        v->quit = true;
        return;
    }
    if (!v->s || v->st != GPU_OK || v->th_started) return;
    size_t n = v->d->events;
    if (!n) return;
    size_t span = v->to - v->from, step = span / 100 ? span / 100 : 1;
    switch (c) {
    case KEY_LEFT: v->cur = v->cur > step ? v->cur - step : 0; break;
    case KEY_RIGHT: v->cur = v->cur + step < n ? v->cur + step : n - 1; break;
    case KEY_HOME: v->cur = v->from; break;
    case KEY_END: v->cur = v->to ? v->to - 1 : 0; break;
    case '+': case '=': zoom(v, true); break;
    case '-': case '_': zoom(v, false); break;
    case '0': v->from = 0, v->to = n; break;
    case 'p': v->cur = v->d->peak_event >= 0 ? (size_t)v->d->peak_event : v->cur; break;
    case KEY_UP: if (v->sel > 0) v->sel--; break;
    case KEY_DOWN: if (v->sel + 1 < v->ntop) v->sel++; break;
    case 'w': v->conf_i = (v->conf_i + 1) % (int)NCONFS; start_whatif(v); break;
    case 'c': v->cap_i = (v->cap_i + 1) % (int)NCAPS; start_whatif(v); break;
    default: return;
    }
    if (v->cur < v->from) v->from = v->cur, v->to = v->from + span;
    if (v->cur >= v->to) v->to = v->cur + 1, v->from = v->to - span;
    if (v->top_for != v->cur) make_top(v); /* before the paint that answers the key */
    v->dirty = true;
}

static void draw_timeline(struct snapview *v, int y0, int h, int w)
{
    int cols = w - 10;
    if (cols < 4 || h < 2) return;
    if (cols > MAXCOLS) cols = MAXCOLS;
    struct gpu_snap_column col[MAXCOLS];
    gpu_snap_timeline(v->s, v->d->device, v->d->start_bytes, v->d->reserved_start, v->from, v->to,
                      (size_t)cols, col);
    int64_t top = 1;
    for (int c = 0; c < cols; c++)
        if (col[c].first <= col[c].last && col[c].reserved_max > top) top = col[c].reserved_max;
    for (int c = 0; c < cols; c++)
        if (col[c].first <= col[c].last && col[c].live_max > top) top = col[c].live_max;
    /* the model's reserved bytes per column (highest of its entries), when a replay is shown */
    bool model = v->r && v->series && !v->w_started && v->w_st == GPU_OK;
    int64_t mcol[MAXCOLS];
    for (int c = 0; c < cols; c++) {
        mcol[c] = -1;
        for (int64_t i = col[c].first; model && i <= col[c].last; i++)
            if ((int64_t)v->series[i] > mcol[c]) mcol[c] = (int64_t)v->series[i];
        if (mcol[c] > top) top = mcol[c];
    }
    char lab[32];
    fmt_bytes(top, lab, sizeof lab);
    tui_term_text(y0, 0, 9, lab, TS_DIM);
    tui_term_text(y0 + h - 1, 0, 9, "0", TS_DIM);
    const char *full = v->ascii ? "#" : "\u2588", *light = v->ascii ? ":" : "\u2591";
    for (int c = 0; c < cols; c++) {
        bool has = col[c].first <= col[c].last;
        bool at = has && (size_t)col[c].first <= v->cur && v->cur <= (size_t)col[c].last;
        int lh = has ? (int)((double)col[c].live_max / (double)top * h + 0.5) : 0;
        int rh = has ? (int)((double)col[c].reserved_max / (double)top * h + 0.5) : 0;
        /* the model's level: the row whose top edge it reaches, drawn over the bars */
        int mrow = mcol[c] >= 0 ? h - (int)((double)mcol[c] / (double)top * h + 0.5) : -1;
        if (mrow >= h) mrow = h - 1;
        for (int r = 0; r < h; r++) {
            int from_bottom = h - r;
            const char *g = " ";
            int st = TS_PLAIN;
            if (r == mrow) g = v->ascii ? "-" : "\u2500", st = TS_SIMULATED;
            else if (from_bottom <= lh) g = full, st = TS_SERIES0;
            else if (from_bottom <= rh) g = light, st = TS_SERIES1;
            if (at) tui_term_extra(A_REVERSE);
            tui_term_put(y0 + r, 10 + c, 1, g, strlen(g), NULL, st);
            if (at) tui_term_extra(0);
        }
    }
}

static void sv_draw_main(struct snapview *v)
{
    int H = LINES, W = COLS;
    char buf[1024], a[32], b[32], c2[32];
    snprintf(buf, sizeof buf, "%s %s", TR(v, "Snapshot", "快照"), v->path);
    tui_term_bar(0, W, buf, TR(v, "recorded by PyTorch, not measured", "由 PyTorch 记录，非测量"), TS_TITLE);
    if (v->th_started) {
        tui_term_text(2, 2, W - 2, TR(v, "Loading the snapshot... (Esc leaves)", "正在读取快照……（Esc 离开）"), TS_DIM);
        tui_term_bar(H - 1, W, "", TR(v, "? keys  Esc back", "? 按键  Esc 返回"), TS_STATUS);
        return;
    }
    if (v->st != GPU_OK) {
        tui_term_text(2, 2, W - 2, v->err, TS_BAD);
        tui_term_bar(H - 1, W, "", "q back", TS_STATUS);
        return;
    }
    int th = H / 3 < 4 ? 4 : H / 3;
    int y = 1;
    const char *full = v->ascii ? "#" : "\u2588", *light = v->ascii ? ":" : "\u2591";
    int x = 2;
    x += tui_term_put(y, x, W - x, full, strlen(full), NULL, TS_SERIES0);
    x += tui_term_put(y, x, W - x, " ", 1, NULL, TS_PLAIN);
    const char *l1 = TR(v, "requested (live)   ", "已申请（活着）   ");
    x += tui_term_put(y, x, W - x, l1, strlen(l1), NULL, TS_DIM);
    x += tui_term_put(y, x, W - x, light, strlen(light), NULL, TS_SERIES1);
    x += tui_term_put(y, x, W - x, " ", 1, NULL, TS_PLAIN);
    const char *l2 = TR(v, "reserved   ", "已预留   ");
    x += tui_term_put(y, x, W - x, l2, strlen(l2), NULL, TS_DIM);
    if (v->r && v->series && !v->w_started && v->w_st == GPU_OK) {
        const char *l3 = v->ascii ? "-- model reserved (SIMULATED)   " : TR(v, "\u2500\u2500 model reserved (SIMULATED)   ", "── 模型的已预留（模拟）   ");
        x += tui_term_put(y, x, W - x, l3, strlen(l3), NULL, TS_SIMULATED);
    }
    tui_term_put(y, x, W - x, "GiB = 2^30 B", 12, NULL, TS_DIM);
    y++;
    draw_timeline(v, y, th, W);
    y += th;
    const struct gpu_snap_trace *tr = snap_trace(v);
    int64_t live, res, t0 = 0, t = 0;
    gpu_snap_level_at(v->s, v->d->device, v->d->start_bytes, v->d->reserved_start, (int64_t)v->cur, &live, &res);
    fmt_bytes(live, a, sizeof a);
    fmt_bytes(res, b, sizeof b);
    bool timed = tr->n && gpu_snapshot_event_time(v->s, v->d->device, (int64_t)v->cur, &t) &&
                 gpu_snapshot_event_time(v->s, v->d->device, 0, &t0);
    char when[48] = "";
    if (timed) snprintf(when, sizeof when, ", %.1f ms", (double)(t - t0) / 1000.0);
    snprintf(buf, sizeof buf, "%s %zu / %zu%s  %s: %s  %s: %s  %s %zu-%zu",
             TR(v, "entry", "记录"), v->cur, tr->n, when, TR(v, "live", "活着"), a,
             TR(v, "reserved", "已预留"), b, TR(v, "view", "视图"), v->from, v->to ? v->to - 1 : 0);
    tui_term_text(y++, 0, W, buf, TS_PLAIN);
    fmt_bytes(v->d->peak_bytes, a, sizeof a);
    fmt_bytes(v->d->reserved_peak, b, sizeof b);
    snprintf(buf, sizeof buf, "%s %s (%s %lld)  %s %s", TR(v, "peak live", "活着峰值"), a,
             TR(v, "entry", "记录"), (long long)v->d->peak_event, TR(v, "peak reserved", "已预留峰值"), b);
    tui_term_text(y++, 0, W, buf, TS_DIM);
    /* what if */
    if (v->w_started) {
        tui_term_text(y++, 0, W, TR(v, "What if: replaying... (SIMULATED)", "What if：回放中……（模拟）"), TS_SIMULATED);
    } else if (v->r && v->w_st != GPU_OK) {
        snprintf(buf, sizeof buf, "What if: %s", v->w_err);
        tui_term_text(y++, 0, W, buf, TS_BAD);
    } else if (v->r) {
        const struct gpu_snap_side *m = v->r->have_whatif ? &v->r->model_whatif : &v->r->model_recorded;
        fmt_bytes((int64_t)m->peak_reserved, a, sizeof a);
        fmt_bytes((int64_t)v->r->recorded.peak_reserved, b, sizeof b);
        if (capacities[v->run_cap]) fmt_bytes((int64_t)capacities[v->run_cap], c2, sizeof c2);
        else snprintf(c2, sizeof c2, "%s", TR(v, "unlimited", "不限"));
        char conf[160];
        gpu_snap_conf_text(v->r->have_whatif ? &v->r->whatif_opts : &v->r->recorded_opts, conf, sizeof conf);
        snprintf(buf, sizeof buf, "%s %s, %s %s", TR(v, "What if (SIMULATED model):", "What if（模拟，模型）："),
                 conf, TR(v, "capacity", "容量"), c2);
        tui_term_text(y++, 0, W, buf, TS_SIMULATED);
        snprintf(buf, sizeof buf, "  %s %s (%s) %s %s, OOMs %zu", TR(v, "peak reserved: model", "已预留峰值：模型"), a,
                 v->ascii ? "--" : "\u2500\u2500", TR(v, "recorded", "记录"), b, m->ooms);
        tui_term_text(y++, 0, W, buf, TS_SIMULATED);
        for (size_t i = 0; i < v->r->ndiffs && i < (H > 30 ? 3u : 1u) && y < H - 4; i++)
            tui_term_text(y++, 2, W - 2, v->r->diffs[i], TS_SIMULATED);
        if (!v->r->ndiffs && y < H - 4)
            tui_term_text(y++, 2, W - 2, TR(v, "The model agrees with the recorded run.", "模型与记录一致。"), TS_SIMULATED);
    }
    /* live at the cursor and the selected one's stack */
    if (y < H - 2) tui_term_text(y++, 0, W, TR(v, "Largest live at the cursor (\u2191/\u2193 selects):", "光标处最大的活着的分配（↑/↓ 选择）："), TS_H3);
    int left = W / 2;
    int y_list = y;
    for (int i = 0; i < v->ntop && y < H - 1; i++, y++) {
        const struct gpu_snap_event *e = &tr->ev[v->top[i].ev];
        char where[256];
        user_where(v, e->frames, where, sizeof where);
        fmt_bytes((int64_t)v->top[i].size, a, sizeof a);
        snprintf(buf, sizeof buf, "%10s  %s", a, where);
        if (i == v->sel) tui_term_extra(A_REVERSE);
        tui_term_text(y, 0, left - 1, buf, TS_PLAIN);
        if (i == v->sel) tui_term_extra(0);
    }
    if (v->ntop) {
        const struct gpu_snap_event *e = &tr->ev[v->top[v->sel].ev];
        int yy = y_list;
        if (!v->map_made || v->map_cur != v->cur || v->map_sel != v->sel || v->top_for != v->cur) {
            make_map(v, v->map_title, sizeof v->map_title); /* a walk over the trace: once per change */
            v->map_made = true, v->map_cur = v->cur, v->map_sel = v->sel;
        }
        struct tui_lines L = {0};
        tui_panelset_render(v->ps, &L, W - left, v->ascii, v->zh ? "zh" : "en");
        /* the map's rows, then its legend as far as half the room left */
        int room = (H - 1 - yy) / 2;
        for (int i = 0; i < L.n && i < room + 3 && yy < H - 3; i++)
            if (L.v[i].len) tui_term_line(yy++, left, W - left, &L.v[i], TS_PLAIN);
        tui_lines_free(&L);
        snprintf(buf, sizeof buf, "%s %zu:", TR(v, "stack of entry", "调用栈，记录"), v->top[v->sel].ev);
        if (yy < H - 1) tui_term_text(yy++, left, W - left, buf, TS_DIM);
        /* Python frames (the program's and torch's) say where; the C++ ones below them are
         * the allocator's own, shown only when there is nothing else */
        bool py = false;
        for (size_t i = 0; !py && frame_text(v, e->frames, i, buf, sizeof buf); i++) py = strstr(buf, ".py:") != NULL;
        for (size_t i = 0; yy < H - 1 && frame_text(v, e->frames, i, buf, sizeof buf); i++) {
            if (py && !strstr(buf, ".py:")) continue;
            tui_term_text(yy++, left, W - left, buf, TS_CODE);
        }
    }
    tui_term_bar(H - 1, W, "", TR(v, "\u2190\u2192 cursor  +/- zoom  \u2191\u2193 select  w what-if  c capacity  ? keys  q back",
                                   "←→ 光标  +/- 缩放  ↑↓ 选择  w what-if  c 容量  ? 按键  q 返回"), TS_STATUS);
}

static void sv_draw(struct snapview *v)
{
    sv_draw_main(v);
    if (!v->help) return;
    int h = (int)NSV_KEYS + 3, w = COLS < 72 ? COLS : 72, y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;
    if (y0 < 1) y0 = 1;
    tui_term_fill(y0, x0, h, w, TS_PLAIN);
    tui_term_text(y0, x0, w, TR(v, " Keys (? or Esc closes)", " 按键（? 或 Esc 关闭）"), TS_PANEL_HEAD);
    for (size_t i = 0; i < NSV_KEYS && y0 + 2 + (int)i < LINES - 1; i++) {
        char line[200];
        snprintf(line, sizeof line, " %-10s %s", sv_keys[i].keys, v->zh ? sv_keys[i].zh : sv_keys[i].en);
        tui_term_text(y0 + 2 + (int)i, x0, w, line, TS_PLAIN);
    }
}

/* The shared loop's ops (tui_loop.h): resize, "too small", quit signals and the key timeout
 * while the worker reads (50 ms) live there. */
static void ops_draw(void *ud) { sv_draw(ud); }
static bool ops_quit(void *ud) { return ((struct snapview *)ud)->quit; }
static bool ops_tick(void *ud) { return sv_tick(ud); }
static bool ops_busy(void *ud) { return sv_busy(ud); }
static void ops_key(void *ud, const struct tui_key *k)
{
    int c = k->code;
    if (c >= TUI_KEY_WHEEL_UP) return; /* no mouse here */
    if (c >= TUI_KEY_FN(0)) c -= TUI_KEY_FN(0); /* back to ncurses' KEY_* for sv_key */
    sv_key(ud, c);
}

/* The screen on a terminal already set up. Returns 0, or 128 + N after a quit signal. */
static int sv_run(struct snapview *v)
{
    v->ascii = !tui_term_utf8();
    v->top_for = SIZE_MAX;
    v->ps = tui_panelset_new(v->ascii);
    if (v->ps) {
        struct lt_panel mp = {.id = "map", .kind = "map", .title = ""};
        tui_panelset_declare(v->ps, &mp, 1);
    }
    v->th_started = pthread_create(&v->th, NULL, load_fn, v) == 0;
    if (!v->th_started) load_fn(v);
    struct tui_screen_ops ops = {.ud = v, .draw = ops_draw, .key = ops_key, .quit = ops_quit,
                                 .tick = ops_tick, .busy = ops_busy, .min_rows = 12, .min_cols = 40};
    int rc = tui_loop_run(&ops);
    /* left while the file still loads: Esc must not wait for the read, so the loader, told by
     * the state it finds, frees everything when it ends (the tutor goes on meanwhile) */
    int loading = 0;
    if (v->th_started && atomic_compare_exchange_strong(&v->loaded, &loading, 2)) {
        pthread_detach(v->th);
        v->abandoned = true;
        return rc;
    }
    if (v->th_started) pthread_join(v->th, NULL);
    if (v->w_started) pthread_join(v->wth, NULL);
    return rc;
}

static void sv_free(struct snapview *v)
{
    gpu_snap_summary_free(&v->sum);
    gpu_snapshot_free(v->s);
    free(v->freed_at);
    free(v->r);
    free(v->series);
    tui_panelset_free(v->ps);
    free(v);
}

int tui_snapview(const char *path, bool zh)
{
    struct snapview *v = calloc(1, sizeof *v);
    if (!v) return 1;
    snprintf(v->path, sizeof v->path, "%s", path);
    v->zh = zh;
    char err[256];
    if (!tui_term_init(err, sizeof err)) {
        fprintf(stderr, "vramlab: %s. The snapshot screen needs a terminal (try vramlab snapshot FILE).\n", err);
        free(v);
        return 3;
    }
    int rc = sv_run(v);
    tui_term_done();
    if (v->abandoned) return rc; /* the process ends before the read would */
    if (!rc && v->st != GPU_OK && v->err[0]) {
        fprintf(stderr, "vramlab: %s\n", v->err);
        rc = 1;
    }
    sv_free(v);
    return rc;
}

/* ---- the file prompt (from the tutor's menu) ------------------------------------------------ */

#define PICK_MAX 32

struct picker {
    char line[PATH_MAX];
    char ex[PICK_MAX][PATH_MAX]; /* the shipped examples */
    int nex, sel;                /* sel: -1 the prompt, else an example */
    char matches[8][256];        /* what Tab found when it was not one */
    int nmatch;
    bool zh, quit;
};

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

/* The .pickle files in assets/snapshots/ of each colon-separated folder (a teacher's lessons
 * folders and the data folder, as alloc.snapshot looks in them), sorted by path. */
static void pick_examples(struct picker *p, const char *folders)
{
    char one[PATH_MAX], dir[PATH_MAX + 32];
    for (const char *f = folders; (f = gpu_path_next(f, one, sizeof one));) {
        snprintf(dir, sizeof dir, "%s/assets/snapshots", one);
        DIR *d = opendir(dir);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d)) && p->nex < PICK_MAX) {
            size_t n = strlen(e->d_name);
            if (n > 7 && !strcmp(e->d_name + n - 7, ".pickle"))
                snprintf(p->ex[p->nex++], PATH_MAX, "%s/%s", dir, e->d_name);
        }
        closedir(d);
    }
    qsort(p->ex, (size_t)p->nex, sizeof p->ex[0], cmp_str);
}

/* Tab: complete the prompt's last path component from its folder (~ is $HOME); one match
 * completes (a folder gets its /), several extend to their common prefix and are listed. */
static void pick_complete(struct picker *p)
{
    char path[PATH_MAX], dir[PATH_MAX];
    const char *home = getenv("HOME");
    if (p->line[0] == '~' && home) snprintf(path, sizeof path, "%s%s", home, p->line + 1);
    else snprintf(path, sizeof path, "%s", p->line);
    char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - path + 1), path);
    else snprintf(dir, sizeof dir, "./");
    DIR *d = opendir(dir);
    p->nmatch = 0;
    if (!d) return;
    size_t bl = strlen(base), common = 0;
    char first[256] = "";
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, base, bl) || (e->d_name[0] == '.' && base[0] != '.')) continue;
        if (n == 0) snprintf(first, sizeof first, "%s", e->d_name), common = strlen(first);
        else
            for (size_t i = 0; i < common; i++)
                if (first[i] != e->d_name[i]) common = i;
        if (p->nmatch < 8) snprintf(p->matches[p->nmatch++], sizeof p->matches[0], "%s", e->d_name);
        n++;
    }
    closedir(d);
    if (n == 0) return;
    size_t keep = (size_t)(base - path) + (n == 1 ? strlen(first) : common);
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%.*s%.*s", (int)(base - path), path, (int)(keep - (size_t)(base - path)), first);
    if (n == 1) {
        struct stat st;
        if (stat(out, &st) == 0 && S_ISDIR(st.st_mode) && strlen(out) + 1 < sizeof out) strcat(out, "/");
        p->nmatch = 0;
    }
    snprintf(p->line, sizeof p->line, "%s", out);
}

static void pick_draw(const struct picker *p)
{
    int W = COLS, y = 2;
    bool zh = p->zh;
    tui_term_bar(0, W, zh ? "你自己程序的显存：打开一个 PyTorch 显存快照" : "Your own program's memory: open a PyTorch memory snapshot", "", TS_TITLE);
    tui_term_text(y++, 2, W - 2, zh ? "文件（Tab 补全路径；torch.cuda.memory._dump_snapshot 写出的 .pickle）："
                                    : "File (Tab completes; the .pickle torch.cuda.memory._dump_snapshot writes):", TS_PLAIN);
    char buf[PATH_MAX + 8];
    snprintf(buf, sizeof buf, "> %s", p->line);
    if (p->sel < 0) tui_term_extra(A_REVERSE);
    tui_term_text(y++, 2, W - 4, buf, TS_INPUT);
    if (p->sel < 0) tui_term_extra(0);
    for (int i = 0; i < p->nmatch && y < LINES - 3; i++) tui_term_text(y++, 4, W - 4, p->matches[i], TS_DIM);
    y++;
    if (y < LINES - 2)
        tui_term_text(y++, 2, W - 2, zh ? "随附的示例（合成的，tests/snapshot/make_example.py）：" : "Shipped examples (synthetic, tests/snapshot/make_example.py):", TS_H3);
    for (int i = 0; i < p->nex && y < LINES - 1; i++, y++) {
        if (i == p->sel) tui_term_extra(A_REVERSE);
        tui_term_text(y, 4, W - 4, p->ex[i], TS_PLAIN);
        if (i == p->sel) tui_term_extra(0);
    }
    tui_term_bar(LINES - 1, W, "", zh ? "Enter 打开  Tab 补全  ↑↓ 选择  Esc 返回" : "Enter open  Tab complete  \u2191\u2193 select  Esc back", TS_STATUS);
}

static void pick_open(struct picker *p)
{
    char path[PATH_MAX];
    const char *home = getenv("HOME");
    if (p->sel >= 0) snprintf(path, sizeof path, "%s", p->ex[p->sel]);
    else if (p->line[0] == '~' && home) snprintf(path, sizeof path, "%s%s", home, p->line + 1);
    else snprintf(path, sizeof path, "%s", p->line);
    if (!path[0]) return;
    struct snapview *v = calloc(1, sizeof *v);
    if (!v) return;
    snprintf(v->path, sizeof v->path, "%s", path);
    v->zh = p->zh;
    int rc = sv_run(v); /* the screen, on its own turn of the shared loop */
    if (!v->abandoned) sv_free(v);
    if (rc) p->quit = true; /* a quit signal: the tutor ends too */
}

static void pick_key(void *ud, const struct tui_key *k)
{
    struct picker *p = ud;
    int c = k->code;
    if (c == TUI_KEY_ESC) p->quit = true;
    else if (c == TUI_KEY_FN(KEY_UP)) p->sel = p->sel > -1 ? p->sel - 1 : -1;
    else if (c == TUI_KEY_FN(KEY_DOWN)) p->sel = p->sel + 1 < p->nex ? p->sel + 1 : p->sel;
    else if (c == '\t') p->sel = -1, pick_complete(p);
    else if (c == TUI_KEY_FN(KEY_BACKSPACE) || c == 127 || c == 8) {
        size_t n = strlen(p->line);
        while (n > 0 && ((unsigned char)p->line[n - 1] & 0xC0) == 0x80) n--; /* a whole UTF-8 character */
        if (n > 0) n--;
        p->line[n] = 0;
        p->sel = -1;
    } else if (c == TUI_KEY_ENTER) {
        pick_open(p);
    } else if (tui_key_printable(c)) { /* a character, as UTF-8 */
        char u[5] = {0};
        unsigned cp = (unsigned)c;
        if (cp < 0x80) u[0] = (char)cp;
        else if (cp < 0x800) u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F));
        else if (cp < 0x10000)
            u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[2] = (char)(0x80 | (cp & 0x3F));
        else
            u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
            u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F));
        if (strlen(p->line) + strlen(u) < sizeof p->line) strcat(p->line, u);
        p->sel = -1, p->nmatch = 0;
    }
}

static void pick_draw_op(void *ud) { pick_draw(ud); }
static bool pick_quit(void *ud) { return ((struct picker *)ud)->quit; }

void tui_snapview_pick(const char *folders, bool zh)
{
    struct picker *p = calloc(1, sizeof *p);
    if (!p) return;
    p->zh = zh;
    pick_examples(p, folders);
    p->sel = p->nex ? 0 : -1;
    struct tui_screen_ops ops = {.ud = p, .draw = pick_draw_op, .key = pick_key, .quit = pick_quit,
                                 .min_rows = 8, .min_cols = 40};
    tui_loop_run(&ops);
    free(p);
}
