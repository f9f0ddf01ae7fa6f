/* tui_snapview.c - the snapshot screen (tui_snapview.h). The file is read, parsed and
 * summarised on a loader thread while the loop keeps answering keys; the what-if replay runs on
 * a thread of its own. Both look at a cancel flag every few thousand entries: leaving cancels
 * them, a loader left behind frees what it made, and the replay is joined only once it has been
 * cancelled (docs/architecture.md, Threads). Laid out top to bottom: title, the timeline
 * (requested bytes as full blocks, reserved as light ones, each column the highest value of its
 * entries so a peak survives any zoom; the what-if model's reserved bytes as a line over them;
 * recorded OOMs marked), the profiler's annotations as labelled bands, the cursor's entry, time
 * and levels, a recorded OOM when the cursor is on one, the what-if verdict, then the largest
 * allocations live at the cursor (a scrolled list; ↑/↓ selects) beside the selected one's
 * segment (the map widget the allocator lessons use) and its whole stack. Its keys are one key
 * table (tui_snapview_keys) that drives the dispatch, the help overlay and the footer. The
 * file prompt is the shared line editor (Tab completes a path) over the shared scroll list of
 * the files opened before in this run and the shipped examples. A second snapshot (B: `b`, the
 * same line editor) loads on a thread of its own beside the first: its timeline under A's, on
 * one scale, and the comparison of gpu_snap_diff.h (what grew, what went) in place of the live
 * list (`d` switches between them). */
#include "tui_snapview.h"

#include <curses.h>
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpu_file.h"
#include "gpu_fmt.h"
#include "gpu_snap_diff.h"
#include "gpu_snap_replay.h"
#include "gpu_snap_summary.h"
#include "gpu_snap_walk.h"
#include "gpu_snapshot.h"
#include "lt_snap_words.h"
#include "tui_help.h"
#include "tui_history.h"
#include "tui_keys.h"
#include "tui_layout.h"
#include "tui_lineedit.h"
#include "tui_loop.h"
#include "tui_panel.h"
#include "tui_run.h"
#include "tui_scroll.h"
#include "tui_state.h"
#include "tui_style.h"
#include "tui_wrap.h"
#include "tui_term.h"

#define LIVE_MAX 64   /* allocations listed at the cursor */
#define MAXCOLS 1024
#define MAX_BANDS 256 /* annotation ranges drawn */

static const char *const whatif_confs[] = {NULL, "expandable_segments:True", "max_split_size_mb:128",
                                           "expandable_segments:True,max_split_size_mb:128"};
#define NCONFS (sizeof whatif_confs / sizeof *whatif_confs)
static const uint64_t capacities[] = {0, 16ull << 30, 24ull << 30, 80ull << 30};
#define NCAPS (sizeof capacities / sizeof *capacities)

struct band { /* a profiler range over entries [first, last] */
    int64_t first, last;
    int depth;
    const char *name;
    uint32_t name_len;
};

/* The second snapshot's loader: its own allocation, so a loader left behind frees it alone (it
 * never touches A). */
struct second {
    char path[PATH_MAX];
    pthread_t th;
    atomic_int state; /* 0 loading, 1 done, 2 the screen was left: the loader frees all */
    gpu_cancel_flag cancel;
    gpu_status st;
    char err[512];
    struct gpu_snapshot *s;
    struct gpu_snap_summary sum;
    const struct gpu_snap_device *d; /* its first device with a trace */
};

struct snapview {
    char path[PATH_MAX];
    bool zh, ascii, quit;
    /* loading (a thread) */
    pthread_t th;
    bool th_started, abandoned;
    atomic_int loaded; /* 0 loading, 1 done, 2 the screen was left: the loader frees all */
    gpu_cancel_flag load_cancel;
    gpu_status st;
    char err[512];
    struct gpu_snapshot *s;
    struct gpu_snap_summary sum;
    const struct gpu_snap_device *d;
    struct band bands[MAX_BANDS];
    int nbands;
    /* view */
    size_t from, to, cur; /* zoom window [from, to) and the cursor entry */
    struct gpu_snap_live live[LIVE_MAX];
    int nlive, sel;
    int64_t live_for;     /* the cursor the list was made for (-2: stale) */
    struct tui_scroll sc; /* the live list */
    /* what if (a thread) */
    int conf_i, cap_i;
    int run_conf, run_cap;
    pthread_t wth;
    bool w_started;
    atomic_int w_done;
    gpu_cancel_flag w_cancel;
    struct gpu_snap_replay *r;
    uint64_t *series; /* the model's reserved bytes after each entry */
    gpu_status w_st;
    char w_err[256];
    /* the segment map */
    struct tui_panelset *ps;
    int64_t map_cur;
    int map_sel;
    bool map_made;
    char map_title[200];
    struct tui_help help;
    /* the second snapshot (B) */
    bool b_prompt;        /* the line editor for its path is open */
    struct tui_lineedit bed;
    char b_matches[8][256];
    int b_nmatch, b_recent; /* Tab's matches; ↑/↓'s place in the files opened before */
    struct tui_history *recent; /* those files, read when B's prompt opens */
    struct second *b;     /* loading or loaded; NULL: none */
    bool b_started;       /* its loader thread runs (or has not been joined) */
    struct gpu_snap_diff diff;
    bool have_diff, show_diff;
    char b_err[600];
};

#define TR(v, en, zh_) ((v)->zh ? (zh_) : (en))

static void sv_free(struct snapview *v);

/* The test hook VRAMLAB_FAULT_SNAPSHOT=load|whatif (docs/reliability.md): that worker, its
 * work done, goes on until it is cancelled, so a test can leave while it runs and see that
 * leaving cancels it rather than waits. */
static bool fault(const char *what)
{
    const char *v = getenv("VRAMLAB_FAULT_SNAPSHOT");
    return v && !strcmp(v, what);
}

static void hang_until(const gpu_cancel_flag *c)
{
    const struct timespec ms = {0, 1000000};
    while (!gpu_cancelled(c)) nanosleep(&ms, NULL);
}

/* ---- loading --------------------------------------------------------------------------------- */

static int64_t entry_at_time(const struct gpu_snap_event *ev, size_t n, int64_t t)
{
    size_t lo = 0, hi = n; /* the first entry at or after t (times rise through a trace) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((ev[mid].flags & GPU_SNAP_HAS_TIME) && ev[mid].time_us < t) lo = mid + 1;
        else hi = mid;
    }
    return (int64_t)lo;
}

/* The device's profiler ranges: START and END of a name paired as a stack. */
static void make_bands(struct snapview *v)
{
    size_t n;
    const struct gpu_snap_event *ev = gpu_snapshot_trace(v->s, v->d->device, &n);
    int open[64], nopen = 0;
    v->nbands = 0;
    for (size_t i = 0; i < gpu_snapshot_nannotations(v->s); i++) {
        const struct gpu_snap_annotation *a = gpu_snapshot_annotation(v->s, i);
        if (a->device != v->d->device || !a->has_time || !n) continue;
        int64_t e = entry_at_time(ev, n, a->time_us);
        if (a->start) {
            if (v->nbands == MAX_BANDS || nopen == 64) continue;
            struct band *b = &v->bands[v->nbands];
            *b = (struct band){e, (int64_t)n - 1, nopen, a->name, a->name_len};
            open[nopen++] = v->nbands++;
            continue;
        }
        for (int k = nopen; k-- > 0;) /* the innermost open one of that name ends here */
            if (v->bands[open[k]].name_len == a->name_len &&
                !memcmp(v->bands[open[k]].name, a->name, a->name_len)) {
                v->bands[open[k]].last = e > 0 ? e - 1 : 0;
                memmove(&open[k], &open[k + 1], (size_t)(nopen - k - 1) * sizeof *open);
                nopen--;
                break;
            }
    }
}

static void *load_fn(void *ud)
{
    struct snapview *v = ud;
    char err[512];
    v->st = gpu_snapshot_load(v->path, &v->load_cancel, &v->s, err, sizeof err);
    if (v->st == GPU_OK) {
        v->st = gpu_snapshot_summarize(v->s, 5, &v->load_cancel, &v->sum, err, sizeof err);
        if (v->st != GPU_OK) snprintf(v->err, sizeof v->err, "%s: %s", v->path, err), err[0] = 0;
    }
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
        make_bands(v);
    }
    if (v->st != GPU_OK && err[0]) snprintf(v->err, sizeof v->err, "%s", err);
    if (fault("load")) hang_until(&v->load_cancel);
    int loading = 0;
    if (!atomic_compare_exchange_strong(&v->loaded, &loading, 1)) sv_free(v); /* nobody waits */
    return NULL;
}

static void second_free(struct second *b)
{
    if (!b) return;
    gpu_snap_summary_free(&b->sum);
    gpu_snapshot_free(b->s);
    free(b);
}

static void *second_fn(void *ud)
{
    struct second *b = ud;
    char err[512] = "";
    b->st = gpu_snapshot_load(b->path, &b->cancel, &b->s, err, sizeof err);
    if (b->st == GPU_OK) b->st = gpu_snapshot_summarize(b->s, 5, &b->cancel, &b->sum, err, sizeof err);
    if (b->st == GPU_OK && !b->sum.ndev) {
        b->st = GPU_ERR_ARG;
        snprintf(err, sizeof err, "%s: the snapshot has no device", b->path);
    }
    if (b->st == GPU_OK) {
        b->d = &b->sum.dev[0];
        for (size_t i = 0; i < b->sum.ndev; i++)
            if (b->sum.dev[i].events > 0) {
                b->d = &b->sum.dev[i];
                break;
            }
    }
    snprintf(b->err, sizeof b->err, "%s", err);
    if (fault("second")) hang_until(&b->cancel);
    int loading = 0;
    if (!atomic_compare_exchange_strong(&b->state, &loading, 1)) second_free(b); /* nobody waits */
    return NULL;
}

/* Leave B: a loader still running is told to stop and left to free what it made. */
static void second_drop(struct snapview *v)
{
    gpu_snap_diff_free(&v->diff);
    v->have_diff = v->show_diff = false;
    struct second *b = v->b;
    v->b = NULL;
    if (!b) return;
    gpu_cancel_set(&b->cancel, true);
    int loading = 0;
    if (v->b_started && atomic_compare_exchange_strong(&b->state, &loading, 2)) {
        pthread_detach(b->th);
        v->b_started = false;
        return;
    }
    if (v->b_started) pthread_join(b->th, NULL); /* it had finished */
    v->b_started = false;
    second_free(b);
}

static void second_start(struct snapview *v, const char *path)
{
    second_drop(v);
    v->b_err[0] = 0;
    struct second *b = calloc(1, sizeof *b);
    if (!b) return;
    snprintf(b->path, sizeof b->path, "%s", path);
    v->b = b;
    v->b_started = pthread_create(&b->th, NULL, second_fn, b) == 0;
    if (!v->b_started) second_fn(b);
}

static void *whatif_fn(void *ud)
{
    struct snapview *v = ud;
    struct gpu_caching_opts o;
    gpu_snapshot_recorded_opts(v->s, &o);
    const char *conf = whatif_confs[v->run_conf];
    char err[256] = "";
    v->w_st = GPU_OK;
    if (conf) v->w_st = gpu_caching_parse_conf(conf, &o, err, sizeof err);
    if (v->w_st == GPU_OK)
        v->w_st = gpu_snapshot_replay(v->s, v->d->device, capacities[v->run_cap], conf ? &o : NULL,
                                      v->series, &v->w_cancel, v->r, err, sizeof err);
    snprintf(v->w_err, sizeof v->w_err, "%s", err);
    if (fault("whatif")) hang_until(&v->w_cancel);
    atomic_store(&v->w_done, 1);
    return NULL;
}

static size_t ntrace(const struct snapview *v)
{
    size_t n;
    gpu_snapshot_trace(v->s, v->d->device, &n);
    return n;
}

/* The loader thread owns s and st until it is joined (th_started cleared on this thread): test
 * that first, so this thread never reads them while the loader writes them. */
static bool ready(const struct snapview *v) { return !v->th_started && v->s && v->st == GPU_OK; }

static void make_live(struct snapview *v)
{
    v->nlive = (int)gpu_snap_live_top(v->s, v->d->device, (int64_t)v->cur, v->live, LIVE_MAX);
    if (v->sel >= v->nlive) v->sel = v->nlive ? v->nlive - 1 : 0;
    v->live_for = (int64_t)v->cur;
}

static void fmt_bytes(int64_t b, char *buf, size_t n)
{
    gpu_fmt_bytes((double)b, GPU_FMT_BIN, buf, n);
}

/* "dir/file.py:12 name" of a frame, for a width */
static void frame_text(const struct gpu_snap_frame *f, char *buf, size_t n)
{
    const char *p;
    size_t pn;
    gpu_snap_short_path(f->file, f->file_len, 2, &p, &pn);
    snprintf(buf, n, "%.*s:%lld %.*s", (int)(pn > 200 ? 200 : pn), p, (long long)f->line,
             (int)(f->name_len > 120 ? 120 : f->name_len), f->name);
}

/* ---- the segment map at the cursor ------------------------------------------------------- */

struct mcell {
    const char *owner; /* one of make_map's words, compared by pointer */
    enum lt_map_state state;
    uint64_t bytes;
};

enum { MAP_SHOWN = 16 }; /* blocks the segment map shows: more are merged, away from the selection */

/* The segment that held the selected allocation at the cursor (expandable ranges as mapped
 * then) and the allocations live in it then (their requested sizes; the rest shows as free),
 * fed to the panel set as one map event of typed blocks: at most MAP_SHOWN, neighbours merged
 * past that. */
static void make_map(struct snapview *v, char *title, size_t tn)
{
    tui_panelset_clear(v->ps);
    title[0] = 0;
    if (!v->nlive) return;
    const struct gpu_snap_live *me_l = &v->live[v->sel];
    struct gpu_snap_seg_at sg;
    if (!gpu_snap_segment_at(v->s, v->d->device, (int64_t)v->cur, me_l->addr, &sg)) {
        snprintf(title, tn, "%s", TR(v, "no segment found for this block", "找不到这个块所在的段"));
        return;
    }
    struct gpu_snap_live *b = NULL;
    size_t n = 0;
    if (gpu_snap_live_in(v->s, v->d->device, (int64_t)v->cur, sg.addr, sg.addr + sg.size, &b, &n) !=
        GPU_OK)
        return;
    struct mcell c[4 * MAP_SHOWN];
    int nc = 0;
    uint64_t pos = sg.addr;
    static const char me[] = "selected", other[] = "other", gap[] = "";
    for (size_t i = 0; i <= n; i++) {
        uint64_t next = i < n ? b[i].addr : sg.addr + sg.size;
        if (next > pos && nc < 4 * MAP_SHOWN) c[nc++] = (struct mcell){gap, LT_MAP_FREE, next - pos};
        if (i == n) break;
        bool sel = b[i].addr == me_l->addr && b[i].event == me_l->event && b[i].pre == me_l->pre;
        if (nc < 4 * MAP_SHOWN) c[nc++] = (struct mcell){sel ? me : other, LT_MAP_ALLOCATED, b[i].size};
        else c[nc - 1].bytes += b[i].size; /* past the table: the last cell takes it */
        pos = b[i].addr + b[i].size > pos ? b[i].addr + b[i].size : pos;
    }
    free(b);
    /* merge neighbours of the same kind, then pairs away from the selected block, to fit */
    int w = 0;
    for (int i = 0; i < nc; i++) {
        if (w && c[w - 1].owner == c[i].owner && c[w - 1].state == c[i].state && c[i].owner != me)
            c[w - 1].bytes += c[i].bytes;
        else c[w++] = c[i];
    }
    nc = w;
    while (nc > MAP_SHOWN) {
        int k = c[0].owner == me || c[1].owner == me ? nc - 2 : 0; /* merge at an end */
        c[k].owner = other, c[k].state = LT_MAP_MIXED, c[k].bytes += c[k + 1].bytes;
        memmove(&c[k + 1], &c[k + 2], (size_t)(nc - k - 2) * sizeof c[0]);
        nc--;
    }
    /* typed blocks, their owners in both languages: the map widget reads them as they are */
    struct lt_map_block blk[MAP_SHOWN];
    for (int i = 0; i < nc; i++) {
        struct lt_text owner = {{c[i].owner, c[i].owner == me ? "选中" : c[i].owner == other ? "其他" : ""}};
        blk[i] = (struct lt_map_block){owner, c[i].state, c[i].bytes, 0};
    }
    struct lt_event ev = {.type = LT_EV_MAP, .panel = "map", .value = (double)sg.size, .nblocks = nc,
                          .blocks = blk};
    tui_panelset_set_lang(v->ps, v->zh ? "zh" : "en");
    tui_run_event(&(struct tui_run){.ps = v->ps}, &ev); /* shown as every screen shows events */
    char sz[32];
    gpu_fmt_bytes((double)sg.size, GPU_FMT_BIN, sz, sizeof sz);
    if (sg.expandable)
        snprintf(title, tn, TR(v, "its expandable segment's mapped range at the cursor: 0x%llx, %s",
                               "光标处选中块所在可扩展段的映射范围：0x%llx，%s"), (unsigned long long)sg.addr, sz);
    else
        snprintf(title, tn, TR(v, "its segment at the cursor: 0x%llx, %s", "光标处选中块所在的段：0x%llx，%s"),
                 (unsigned long long)sg.addr, sz);
    struct lt_panel mp = {.id = "map", .kind = "map", .title = title};
    tui_panelset_declare(v->ps, &mp, 1);
}

/* ---- work ------------------------------------------------------------------------------------- */

static void start_whatif(struct snapview *v)
{
    if (!ready(v)) return;
    if (v->w_started) { /* another setting: stop this one; tick starts the new one */
        gpu_cancel_set(&v->w_cancel, true);
        return;
    }
    if (!whatif_confs[v->conf_i] && !capacities[v->cap_i]) {
        free(v->r);
        v->r = NULL;
        return;
    }
    if (!v->r) v->r = calloc(1, sizeof *v->r);
    if (!v->series) v->series = calloc(ntrace(v) + 1, sizeof *v->series);
    if (!v->r || !v->series) return;
    atomic_store(&v->w_done, 0);
    gpu_cancel_set(&v->w_cancel, false);
    v->run_conf = v->conf_i, v->run_cap = v->cap_i;
    v->w_started = pthread_create(&v->wth, NULL, whatif_fn, v) == 0;
}

static bool sv_tick(void *ud)
{
    struct snapview *v = ud;
    bool changed = false;
    if (v->th_started && atomic_load(&v->loaded)) {
        pthread_join(v->th, NULL);
        v->th_started = false;
        if (v->st == GPU_OK) {
            v->from = 0;
            v->to = v->d->events;
            v->cur = v->d->peak_event >= 0 ? (size_t)v->d->peak_event : 0;
            v->live_for = -2;
        }
        changed = true;
    }
    if (v->w_started && atomic_load(&v->w_done)) {
        pthread_join(v->wth, NULL); /* done: the join does not wait */
        v->w_started = false;
        changed = true;
        /* keys pressed while it ran asked for other settings: replay those now */
        if (v->run_conf != v->conf_i || v->run_cap != v->cap_i) start_whatif(v);
    }
    if (v->b && v->b_started && atomic_load(&v->b->state)) {
        pthread_join(v->b->th, NULL);
        v->b_started = false;
        changed = true;
    }
    if (v->b && !v->b_started && ready(v) && !v->have_diff) { /* B is in: compare (linear in blocks) */
        if (v->b->st != GPU_OK) {
            snprintf(v->b_err, sizeof v->b_err, "B: %s", v->b->err);
            second_drop(v);
        } else {
            char err[256];
            if (gpu_snapshot_diff(v->s, v->b->s, LIVE_MAX, &v->diff, err, sizeof err) == GPU_OK)
                v->have_diff = v->show_diff = true;
            else snprintf(v->b_err, sizeof v->b_err, "B: %s", err), second_drop(v);
        }
        changed = true;
    }
    if (ready(v) && v->live_for != (int64_t)v->cur) {
        make_live(v);
        changed = true;
    }
    return changed;
}

static bool sv_busy(void *ud)
{
    const struct snapview *v = ud;
    return v->th_started || v->w_started || v->b_started;
}

#define PICK_MAX 32
#define RECENT_MAX 8

/* The snapshot files opened before, in this run and earlier ones: the state folder's
 * recent-snapshots, read and added to through the state module (tui_history.h: a path once, the
 * last opened newest), listed above the examples and offered on ↑/↓ at B's prompt. NULL when
 * there is no state folder: nothing is offered then, and nothing kept. */
static struct tui_history *recent_load(void)
{
    char dir[PATH_MAX], err[256];
    return tui_state_dir(dir, sizeof dir, err, sizeof err) ? tui_history_open(dir, "recent-snapshots", RECENT_MAX, true)
                                                           : NULL;
}

/* The i-th file opened before, newest first, or NULL. */
static const char *recent_at(const struct tui_history *h, int i)
{
    int n = h ? tui_history_count(h) : 0;
    return i >= 0 && i < n ? tui_history_get(h, n - 1 - i) : NULL;
}

/* Kept by its full path, so another folder's tutor opens it too (a state folder that cannot be
 * written keeps nothing: the file still opens). */
static void recent_add(const char *path)
{
    char full[PATH_MAX], err[1400];
    struct tui_history *h = recent_load();
    if (h) tui_history_add(h, realpath(path, full) ? full : path, err, sizeof err);
    tui_history_free(h);
}

/* ---- keys ------------------------------------------------------------------------------------- */

static void clamp_view(struct snapview *v, size_t span)
{
    if (v->cur < v->from) v->from = v->cur, v->to = v->from + span;
    if (v->cur >= v->to) v->to = v->cur + 1, v->from = v->to - span;
}

static void k_move(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    size_t n = ready(v) ? v->d->events : 0;
    if (!n) return;
    size_t span = v->to - v->from, step = span / 100 ? span / 100 : 1;
    switch (k->code) {
    case TUI_KEY_FN(KEY_LEFT): v->cur = v->cur > step ? v->cur - step : 0; break;
    case TUI_KEY_FN(KEY_RIGHT): v->cur = v->cur + step < n ? v->cur + step : n - 1; break;
    case TUI_KEY_FN(KEY_HOME): v->cur = v->from; break;
    case TUI_KEY_FN(KEY_END): v->cur = v->to ? v->to - 1 : 0; break;
    case 'p': v->cur = v->d->peak_event >= 0 ? (size_t)v->d->peak_event : v->cur; break;
    }
    clamp_view(v, span);
}

static void k_zoom(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    size_t n = ready(v) ? v->d->events : 0;
    if (!n) return;
    if (k->code == '0') {
        v->from = 0, v->to = n;
        return;
    }
    bool in = k->code == '+' || k->code == '=';
    size_t span = v->to - v->from, want = in ? span / 2 : span * 2;
    if (want < 16) want = span < 16 ? span : 16;
    if (want > n) want = n;
    size_t from = v->cur > want / 2 ? v->cur - want / 2 : 0;
    if (from + want > n) from = n - want;
    v->from = from, v->to = from + want;
}

static void k_oom(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    if (!ready(v) || !v->d->nooms) return;
    size_t at = 0; /* the next recorded OOM after the cursor, round to the first */
    while (at < v->d->nooms && v->d->ooms[at].event <= v->cur) at++;
    if (at == v->d->nooms) at = 0;
    size_t span = v->to - v->from;
    v->cur = v->d->ooms[at].event;
    clamp_view(v, span);
}

static void k_select(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    bool up = k->code == TUI_KEY_FN(KEY_UP) || k->code == 'k';
    if (up && v->sel > 0) v->sel--;
    if (!up && v->sel + 1 < v->nlive) v->sel++;
    tui_scroll_show(&v->sc, v->sel, v->sel, 0);
}

static void k_whatif(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    if (!ready(v)) return;
    if (k->code == 'w') v->conf_i = (v->conf_i + 1) % (int)NCONFS;
    else v->cap_i = (v->cap_i + 1) % (int)NCAPS;
    start_whatif(v);
}

static void k_second(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    if (!ready(v)) return;
    v->b_prompt = true;
    v->b_nmatch = 0;
    v->b_recent = -1;
    tui_history_free(v->recent);
    v->recent = recent_load();
    tui_lineedit_set(&v->bed, "");
}

static void k_diffview(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    if (v->have_diff) v->show_diff = !v->show_diff;
}

static void k_help(void *ud, const struct tui_key *k);
static void k_quit(void *ud, const struct tui_key *k) { ((struct snapview *)ud)->quit = true; }
static void k_lang(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    if (v->ascii) return; /* 中文 needs UTF-8 */
    v->zh = !v->zh;
    v->map_made = false; /* the segment map's words are made with it; the rest at draw time */
}

static const struct tui_binding sv_rows[] = {
    {.keys = {TUI_KEY_FN(KEY_LEFT), TUI_KEY_FN(KEY_RIGHT)}, .run = k_move,
     .en = "move the cursor (1/100 of the view)", .zh = "移动光标（视图的 1/100）", .hint_en = "cursor",
     .hint_zh = "光标", .hint_keys = 2},
    /* help and back come early: the footer names the rows in this order, as many as fit */
    {.keys = {'?', TUI_KEY_FN(KEY_F(1))}, .run = k_help, .en = "this help", .zh = "本帮助",
     .hint_en = "help", .hint_zh = "帮助"},
    {.keys = {'q', TUI_KEY_ESC}, .run = k_quit, .en = "back", .zh = "返回", .hint_en = "back",
     .hint_zh = "返回"},
    {.keys = {TUI_KEY_FN(KEY_HOME), TUI_KEY_FN(KEY_END)}, .run = k_move,
     .en = "cursor to the view's start / end", .zh = "光标到视图开头 / 结尾"},
    {.keys = {'p'}, .run = k_move, .en = "cursor to the peak", .zh = "光标到峰值", .hint_en = "peak",
     .hint_zh = "峰值"},
    {.keys = {'+', '=', '-', '_'}, .run = k_zoom, .en = "zoom in / out around the cursor",
     .zh = "以光标为中心放大 / 缩小", .hint_en = "zoom", .hint_zh = "缩放", .hint_keys = 2},
    {.keys = {'0'}, .run = k_zoom, .en = "the whole trace", .zh = "整个记录"},
    {.keys = {'o'}, .run = k_oom, .en = "cursor to the next recorded OOM", .zh = "光标到下一次记录的 OOM",
     .hint_en = "OOM", .hint_zh = "OOM"},
    {.keys = {TUI_KEY_FN(KEY_UP), TUI_KEY_FN(KEY_DOWN), 'k', 'j'}, .run = k_select,
     .en = "select a live allocation (map and stack)", .zh = "选择一个存活的分配（内存图和调用栈）",
     .hint_en = "select", .hint_zh = "选择", .hint_keys = 2},
    {.keys = {'w'}, .run = k_whatif, .en = "what if: next allocator setting (SIMULATED replay)",
     .zh = "what if：下一种分配器设置（模拟回放）", .hint_en = "what-if", .hint_zh = "what-if"},
    {.keys = {'c'}, .run = k_whatif, .en = "what if: next capacity (unlimited, 16, 24, 80 GiB)",
     .zh = "what if：下一种容量（不限、16、24、80 GiB）", .hint_en = "capacity", .hint_zh = "容量"},
    {.keys = {'b'}, .run = k_second, .en = "open a second snapshot (B) beside this one (A) and compare",
     .zh = "在这个（A）旁边打开第二个快照（B）并比较", .hint_en = "compare", .hint_zh = "比较"},
    {.keys = {'d'}, .run = k_diffview, .en = "B loaded: the comparison / the live list",
     .zh = "已打开 B：比较 / 存活的分配列表"},
    {.keys = {'L'}, .run = k_lang, .en = "switch language: English / 中文", .zh = "切换语言：English / 中文"},
};
static const struct tui_keymap sv_keymap = TUI_KEYMAP("Snapshot", "显存快照", TUI_TO_SCREEN, sv_rows);
const struct tui_keymap *const tui_snapview_keys[] = {&sv_keymap, &tui_loop_keys, NULL};

static void complete_path(struct tui_lineedit *ed, char (*matches)[256], int max, int *nmatch);

static void bk_open(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    char path[PATH_MAX];
    const char *home = getenv("HOME");
    if (v->bed.s[0] == '~' && home) snprintf(path, sizeof path, "%s%s", home, v->bed.s + 1);
    else snprintf(path, sizeof path, "%s", v->bed.s);
    if (!path[0]) return;
    v->b_prompt = false;
    second_start(v, path);
}

static void bk_tab(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    complete_path(&v->bed, v->b_matches, 8, &v->b_nmatch);
}

static void bk_recent(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    int i = v->b_recent + (k->code == TUI_KEY_FN(KEY_UP) ? 1 : -1);
    if (i < 0) {
        v->b_recent = -1;
        tui_lineedit_set(&v->bed, "");
    } else if (recent_at(v->recent, i)) {
        v->b_recent = i;
        tui_lineedit_set(&v->bed, recent_at(v->recent, i));
    }
}

static void bk_cancel(void *ud, const struct tui_key *k) { ((struct snapview *)ud)->b_prompt = false; }

static const struct tui_binding b_rows[] = {
    {.keys = {TUI_KEY_ENTER}, .run = bk_open, .en = "open it as B", .zh = "作为 B 打开",
     .hint_en = "open", .hint_zh = "打开"},
    {.keys = {'\t'}, .run = bk_tab, .en = "complete the path", .zh = "补全路径", .hint_en = "complete",
     .hint_zh = "补全"},
    {.keys = {TUI_KEY_FN(KEY_UP), TUI_KEY_FN(KEY_DOWN)}, .run = bk_recent,
     .en = "the files opened before", .zh = "以前打开过的文件", .hint_en = "recent",
     .hint_zh = "最近", .hint_keys = 2},
    {.keys = {TUI_KEY_ESC}, .run = bk_cancel, .en = "back to A", .zh = "回到 A", .hint_en = "back",
     .hint_zh = "返回"},
};
static const struct tui_keymap b_keymap = TUI_KEYMAP("Compare with a second snapshot", "与第二个快照比较",
                                                     TUI_TO_SCREEN, b_rows);
const struct tui_keymap *const tui_snapview_b_keys[] = {&b_keymap, &tui_lineedit_keys, &tui_loop_keys, NULL};

static void k_help(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    const struct tui_keymap *const *ctx[] = {tui_snapview_keys};
    tui_help_open(&v->help, ctx, 1, NULL, 0);
}

static void sv_key(void *ud, const struct tui_key *k)
{
    struct snapview *v = ud;
    if (v->help.open) {
        tui_help_key(&v->help, k);
        return;
    }
    if (v->b_prompt) {
        struct tui_targets tb = {v, NULL, &v->bed};
        if (tui_keys_dispatch(tui_snapview_b_keys, &tb, k) == &tui_lineedit_keys) v->b_nmatch = 0;
        return;
    }
    struct tui_targets t = {v, NULL, NULL};
    tui_keys_dispatch(tui_snapview_keys, &t, k);
    if (ready(v) && v->live_for != (int64_t)v->cur) make_live(v); /* before the paint that answers */
}

/* ---- drawing ------------------------------------------------------------------------------------ */

/* A's timeline over the view; its scale is at least min_top (B's, when B is shown, so the two
 * read on one scale). Returns the scale used. */
static int64_t draw_timeline(struct snapview *v, int y0, int h, int w, int64_t min_top)
{
    int cols = w - 10;
    if (cols < 4 || h < 2) return min_top;
    if (cols > MAXCOLS) cols = MAXCOLS;
    struct gpu_snap_column col[MAXCOLS];
    gpu_snap_timeline(v->s, v->d->device, v->from, v->to, (size_t)cols, col, NULL);
    int64_t top = min_top > 1 ? min_top : 1;
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
        bool oom = false;
        for (size_t k = 0; has && k < v->d->nooms && !oom; k++)
            oom = (int64_t)v->d->ooms[k].event >= col[c].first && (int64_t)v->d->ooms[k].event <= col[c].last;
        int lh = has ? (int)((double)col[c].live_max / (double)top * h + 0.5) : 0;
        int rh = has ? (int)((double)col[c].reserved_max / (double)top * h + 0.5) : 0;
        /* the model's level: the row whose top edge it reaches, drawn over the bars */
        int mrow = mcol[c] >= 0 ? h - (int)((double)mcol[c] / (double)top * h + 0.5) : -1;
        if (mrow >= h) mrow = h - 1;
        for (int r = 0; r < h; r++) {
            int from_bottom = h - r;
            const char *g = " ";
            int st = TS_PLAIN;
            if (r == 0 && oom) g = "!", st = TS_BAD; /* a recorded OOM in this column */
            else if (r == mrow) g = v->ascii ? "-" : "\u2500", st = TS_SIMULATED;
            else if (from_bottom <= lh) g = full, st = TS_SERIES0;
            else if (from_bottom <= rh) g = light, st = TS_SERIES1;
            if (at) tui_term_extra(A_REVERSE);
            tui_term_put(y0 + r, 10 + c, 1, g, strlen(g), NULL, st);
            if (at) tui_term_extra(0);
        }
    }
    return top;
}

/* B's whole trace (its first device with one) under A's, on the scale given (0: its own);
 * returns its own highest value. */
static int64_t draw_b_timeline(struct snapview *v, int y0, int h, int w, int64_t top, bool draw)
{
    const struct second *b = v->b;
    int cols = w - 10;
    if (cols < 4 || h < 1) return 0;
    if (cols > MAXCOLS) cols = MAXCOLS;
    struct gpu_snap_column col[MAXCOLS];
    gpu_snap_timeline(b->s, b->d->device, 0, b->d->events, (size_t)cols, col, NULL);
    int64_t own = 1;
    for (int c = 0; c < cols; c++)
        if (col[c].first <= col[c].last) {
            if (col[c].reserved_max > own) own = col[c].reserved_max;
            if (col[c].live_max > own) own = col[c].live_max;
        }
    if (!draw) return own;
    if (top < own) top = own;
    tui_term_text(y0, 0, 9, "B", TS_H3);
    const char *full = v->ascii ? "#" : "\u2588", *light = v->ascii ? ":" : "\u2591";
    for (int c = 0; c < cols; c++) {
        bool has = col[c].first <= col[c].last;
        int lh = has ? (int)((double)col[c].live_max / (double)top * h + 0.5) : 0;
        int rh = has ? (int)((double)col[c].reserved_max / (double)top * h + 0.5) : 0;
        for (int r = 0; r < h; r++) {
            int from_bottom = h - r;
            const char *g = from_bottom <= lh ? full : from_bottom <= rh ? light : " ";
            tui_term_put(y0 + r, 10 + c, 1, g, strlen(g), NULL,
                         from_bottom <= lh ? TS_SERIES0 : TS_SERIES1);
        }
    }
    return own;
}

/* The comparison (gpu_snap_diff.h) of A's device with B's, in place of the live list. */
static void draw_diff(struct snapview *v, int y, int H, int W)
{
    const struct gpu_snap_diff_dev *o = NULL;
    for (size_t i = 0; i < v->diff.ndev; i++)
        if (v->diff.dev[i].device == v->d->device) o = &v->diff.dev[i];
    char buf[600], a[32], b[32], c[32];
    if (!o) return;
    const char *names[4][2] = {{"reserved", "已预留"}, {"allocated", "已分配"}, {"requested", "已申请"},
                               {"cached", "缓存"}};
    const uint64_t *vals[4] = {o->reserved, o->allocated, o->requested, o->cached};
    snprintf(buf, sizeof buf, TR(v, "A -> B, device %d (d: the live list):", "A -> B，设备 %d（d：存活的分配列表）："),
             o->device);
    tui_term_text(y++, 0, W, buf, TS_H3);
    for (int i = 0; i < 4 && y < H - 1; i++) {
        fmt_bytes((int64_t)vals[i][0], a, sizeof a);
        fmt_bytes((int64_t)vals[i][1], b, sizeof b);
        int64_t dl = (int64_t)vals[i][1] - (int64_t)vals[i][0];
        fmt_bytes(dl < 0 ? -dl : dl, c, sizeof c);
        snprintf(buf, sizeof buf, "  %-10s %10s -> %10s  (%s%s)", v->zh ? names[i][1] : names[i][0], a, b,
                 dl < 0 ? "-" : "+", c);
        tui_term_text(y++, 0, W, buf, TS_PLAIN);
    }
    fmt_bytes((int64_t)o->only_bytes[0], a, sizeof a);
    fmt_bytes((int64_t)o->only_bytes[1], b, sizeof b);
    snprintf(buf, sizeof buf, TR(v, "  segments %llu -> %llu: %zu only in A (%s), %zu only in B (%s)",
                                 "  段 %llu -> %llu：只在 A 里 %zu 个（%s），只在 B 里 %zu 个（%s）"),
             (unsigned long long)o->nsegs[0], (unsigned long long)o->nsegs[1], o->nonly[0], a, o->nonly[1], b);
    if (y < H - 1) tui_term_text(y++, 0, W, buf, TS_PLAIN);
    for (int side = 1; side >= 0; side--) {
        const struct gpu_snap_group *g = side ? o->grown : o->gone;
        size_t n = side ? o->ngrown : o->ngone;
        fmt_bytes((int64_t)(side ? o->grown_bytes : o->gone_bytes), a, sizeof a);
        snprintf(buf, sizeof buf, side ? TR(v, "Live only in B (what grew): %s", "只在 B 里存活的（增长的部分）：%s")
                                       : TR(v, "Live only in A (freed since): %s", "只在 A 里存活的（之后释放了）：%s"), a);
        if (y < H - 1) tui_term_text(y++, 0, W, buf, TS_H3);
        int room = side ? (H - 1 - y) * 2 / 3 : H - 1 - y;
        for (size_t i = 0; i < n && (int)i < room && y < H - 1; i++) {
            fmt_bytes((int64_t)g[i].bytes, a, sizeof a);
            const char *w;
            size_t wn;
            gpu_snap_short_path(g[i].where, g[i].where_len, 2, &w, &wn);
            snprintf(buf, sizeof buf, "  %10s %6llu  %.*s %.*s", a, (unsigned long long)g[i].count,
                     (int)(wn < 300 ? wn : 300), w,
                     (int)(g[i].function_len < 120 ? g[i].function_len : 120), g[i].function ? g[i].function : "");
            tui_term_text(y++, 0, W, buf, TS_PLAIN);
        }
    }
}

/* Profiler ranges over the view, one row per nesting depth: [name....] over their columns. */
static int draw_bands(struct snapview *v, int y, int rows, int w)
{
    int cols = w - 10, used = 0;
    if (cols < 4 || !v->nbands || v->to <= v->from) return 0;
    if (cols > MAXCOLS) cols = MAXCOLS;
    size_t span = v->to - v->from;
    for (int depth = 0; depth < rows; depth++) {
        bool any = false;
        for (int i = 0; i < v->nbands; i++) {
            const struct band *b = &v->bands[i];
            if (b->depth != depth || b->last < (int64_t)v->from || b->first >= (int64_t)v->to) continue;
            int64_t f = b->first > (int64_t)v->from ? b->first : (int64_t)v->from;
            int64_t l = b->last < (int64_t)v->to - 1 ? b->last : (int64_t)v->to - 1;
            int c0 = (int)((unsigned __int128)(uint64_t)(f - (int64_t)v->from) * (unsigned)cols / span);
            int c1 = (int)((unsigned __int128)(uint64_t)(l - (int64_t)v->from) * (unsigned)cols / span);
            if (c1 < c0) c1 = c0;
            char cell[256];
            int wdt = c1 - c0 + 1, k = 0;
            cell[k++] = '[';
            for (uint32_t j = 0; j < b->name_len && k < wdt - 1 && k < (int)sizeof cell - 2; j++)
                cell[k++] = (unsigned char)b->name[j] < 0x20 || b->name[j] == 0x7f ? '?' : b->name[j];
            while (k < wdt - 1 && k < (int)sizeof cell - 2) cell[k++] = v->ascii ? '-' : '.';
            if (wdt > 1) cell[k++] = ']';
            cell[k] = 0;
            tui_term_text(y + depth, 10 + c0, wdt, cell, depth ? TS_DIM : TS_H3);
            any = true;
        }
        if (!any) break;
        if (!depth) tui_term_text(y, 0, 9, TR(v, "ranges", "区段"), TS_DIM);
        used++;
    }
    return used;
}

static void draw_loading(struct snapview *v)
{
    int H = LINES, W = COLS;
    tui_term_text(2, 2, W - 2, TR(v, "Loading the snapshot... (Esc leaves)", "正在读取快照……（Esc 离开）"), TS_DIM);
    char right[200];
    tui_keys_hints(tui_snapview_keys, v->zh, "  ", W / 2, right, sizeof right);
    tui_term_bar(H - 1, W, "", right, TS_STATUS);
}

static void sv_draw(void *ud)
{
    struct snapview *v = ud;
    int H = LINES, W = COLS;
    char buf[1024], a[32], b[32], c2[32];
    const char *rec = TR(v, "recorded by PyTorch, not measured", "由 PyTorch 记录，非测量");
    snprintf(buf, sizeof buf, "%s %s", TR(v, "Snapshot", "快照"), v->path);
    if (tui_width(buf, strlen(buf)) + tui_width(rec, strlen(rec)) + 3 > W && strrchr(v->path, '/'))
        snprintf(buf, sizeof buf, "%s %s", TR(v, "Snapshot", "快照"), strrchr(v->path, '/') + 1); /* "Snapshot…" said nothing */
    tui_term_bar(0, W, buf, rec, TS_TITLE);
    char right[300];
    tui_keys_hints(v->help.open ? tui_help_keys : tui_snapview_keys, v->zh, "  ", W - 14, right,
                   sizeof right);
    if (v->th_started) {
        draw_loading(v);
    } else if (v->st != GPU_OK) {
        tui_term_text(2, 2, W - 2, v->err, TS_BAD);
        tui_term_bar(H - 1, W, "", right, TS_STATUS);
    } else {
        int th = H / 3 < 4 ? 4 : H / 3;
        int y = 1;
        const char *full = v->ascii ? "#" : "\u2588", *light = v->ascii ? ":" : "\u2591";
        int x = 2;
        x += tui_term_put(y, x, W - x, full, strlen(full), NULL, TS_SERIES0);
        x += tui_term_put(y, x, W - x, " ", 1, NULL, TS_PLAIN);
        const char *l1 = TR(v, "requested (live)   ", "已申请（存活）   ");
        x += tui_term_put(y, x, W - x, l1, strlen(l1), NULL, TS_DIM);
        x += tui_term_put(y, x, W - x, light, strlen(light), NULL, TS_SERIES1);
        x += tui_term_put(y, x, W - x, " ", 1, NULL, TS_PLAIN);
        const char *l2 = TR(v, "reserved   ", "已预留   ");
        x += tui_term_put(y, x, W - x, l2, strlen(l2), NULL, TS_DIM);
        if (v->r && v->series && !v->w_started && v->w_st == GPU_OK) {
            const char *l3 = v->ascii ? "-- model reserved (SIMULATED)   " : TR(v, "\u2500\u2500 model reserved (SIMULATED)   ", "── 模型的已预留（模拟）   ");
            x += tui_term_put(y, x, W - x, l3, strlen(l3), NULL, TS_SIMULATED);
        }
        if (v->d->nooms) x += tui_term_put(y, x, W - x, "! OOM   ", 8, NULL, TS_BAD);
        tui_term_put(y, x, W - x, "GiB = 2^30 B", 12, NULL, TS_DIM);
        y++;
        bool two = v->b && !v->b_started && v->have_diff;
        if (two) { /* A above B, one scale */
            int hb = th / 2, ha = th - hb;
            int64_t own = draw_b_timeline(v, 0, hb, W, 0, false);
            int64_t top = draw_timeline(v, y, ha, W, own);
            tui_term_text(y + 1, 0, 9, "A", TS_H3);
            draw_b_timeline(v, y + ha, hb, W, top, true);
        } else {
            draw_timeline(v, y, th, W, 0);
        }
        y += th;
        y += draw_bands(v, y, H > 30 ? 2 : 1, W);
        if (v->b && v->b_started) {
            snprintf(buf, sizeof buf, TR(v, "B: loading %s... (Esc leaves)", "B：正在读取 %s……（Esc 离开）"), v->b->path);
            tui_term_text(y++, 0, W, buf, TS_DIM);
        } else if (two) {
            fmt_bytes(v->b->d->peak_bytes, a, sizeof a);
            fmt_bytes(v->b->d->reserved_peak, b, sizeof b);
            snprintf(buf, sizeof buf, TR(v, "B %s: device %d, %zu entries, peak live %s, peak reserved %s",
                                         "B %s：设备 %d，%zu 条记录，存活峰值 %s，已预留峰值 %s"),
                     v->b->path, v->b->d->device, v->b->d->events, a, b);
            tui_term_text(y++, 0, W, buf, TS_PLAIN);
        } else if (v->b_err[0]) {
            tui_term_text(y++, 0, W, v->b_err, TS_BAD);
        }
        int64_t live, res, t0 = 0, t = 0;
        gpu_snap_level_at(v->s, v->d->device, (int64_t)v->cur, &live, &res);
        fmt_bytes(live, a, sizeof a);
        fmt_bytes(res, b, sizeof b);
        size_t n = ntrace(v);
        bool timed = n && gpu_snapshot_event_time(v->s, v->d->device, (int64_t)v->cur, &t) &&
                     gpu_snapshot_event_time(v->s, v->d->device, 0, &t0);
        char when[48] = "";
        if (timed) snprintf(when, sizeof when, ", %.1f ms", (double)(t - t0) / 1000.0);
        snprintf(buf, sizeof buf, "%s %zu / %zu%s  %s: %s  %s: %s  %s %zu-%zu",
                 TR(v, "entry", "记录"), v->cur, n, when, TR(v, "live", "存活"), a,
                 TR(v, "reserved", "已预留"), b, TR(v, "view", "视图"), v->from, v->to ? v->to - 1 : 0);
        tui_term_text(y++, 0, W, buf, TS_PLAIN);
        fmt_bytes(v->d->peak_bytes, a, sizeof a);
        fmt_bytes(v->d->reserved_peak, b, sizeof b);
        snprintf(buf, sizeof buf, "%s %s (%s %lld)  %s %s", TR(v, "peak live", "存活峰值"), a,
                 TR(v, "entry", "记录"), (long long)v->d->peak_event, TR(v, "peak reserved", "已预留峰值"), b);
        tui_term_text(y++, 0, W, buf, TS_DIM);
        /* a recorded OOM at the cursor: what was asked, what was free, what held the memory */
        for (size_t k = 0; k < v->d->nooms; k++) {
            const struct gpu_snap_oom *m = &v->d->ooms[k];
            if (m->event != v->cur) continue;
            char fr[32] = "n/a";
            fmt_bytes((int64_t)m->size, a, sizeof a);
            if (m->has_free) fmt_bytes((int64_t)m->device_free, fr, sizeof fr);
            fmt_bytes(m->reserved, b, sizeof b);
            fmt_bytes(m->live_requested, c2, sizeof c2);
            snprintf(buf, sizeof buf, TR(v, "OOM here: asked for %s; CUDA had %s free; the allocator held %s reserved, %s live (the largest live below are what was in the way)",
                                         "这里 OOM：申请 %s；CUDA 还有 %s 空闲；分配器已预留 %s，存活 %s（下面最大的存活的分配就是占着内存的）"),
                     a, fr, b, c2);
            /* the finding of the screen: wrapped whole (numbers kept with their units), not cut */
            struct tui_wline *wl = NULL;
            int nl = tui_wrap(buf, strlen(buf), W, &wl);
            for (int i = 0; i < nl && i < 3; i++) {
                char line[sizeof buf]; /* the third line takes the rest: cut with an ellipsis */
                int end = i == 2 ? (int)strlen(buf) : wl[i].end;
                snprintf(line, sizeof line, "%.*s", end - wl[i].start, buf + wl[i].start);
                tui_term_text(y++, 0, W, line, TS_BAD);
            }
            if (nl < 0) tui_term_text(y++, 0, W, buf, TS_BAD);
            free(wl);
        }
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
                tui_term_text(y++, 2, W - 2, lt_snap_finding_text(&v->r->diffs[i], v->zh, buf, sizeof buf),
                              TS_SIMULATED);
            if (!v->r->ndiffs && y < H - 4)
                tui_term_text(y++, 2, W - 2, TR(v, "The model agrees with the recorded run.", "模型与记录一致。"), TS_SIMULATED);
        }
        if (two && v->show_diff) {
            draw_diff(v, y, H, W);
        } else {
        /* live at the cursor, and the selected one's segment and stack */
        if (y < H - 2)
            tui_term_text(y++, 0, W, TR(v, "Largest live at the cursor (\u2191/\u2193 selects):", "光标处最大的存活的分配（↑/↓ 选择）："), TS_H3);
        int left = W / 2, y_list = y, rows = H - 1 - y;
        tui_scroll_resize(&v->sc, v->nlive, rows > 0 ? rows : 0);
        tui_scroll_show(&v->sc, v->sel, v->sel, 0);
        for (int i = 0; i < rows && v->sc.top + i < v->nlive; i++) {
            const struct gpu_snap_live *l = &v->live[v->sc.top + i];
            const struct gpu_snap_frame *f = gpu_snap_user_frame(v->s, l->stack);
            char where[300];
            if (f) frame_text(f, where, sizeof where);
            else snprintf(where, sizeof where, "%s", l->event < 0 ? TR(v, "<live before the trace>", "<记录开始前就存活>")
                                                  : gpu_snapshot_stack(v->s, l->stack)->n ? TR(v, "<torch internals>", "<torch 内部>")
                                                                                        : TR(v, "<no frames>", "<没有调用栈>"));
            fmt_bytes((int64_t)l->size, a, sizeof a);
            snprintf(buf, sizeof buf, "%10s  %s", a, where);
            bool sel = v->sc.top + i == v->sel;
            if (sel) tui_term_extra(A_REVERSE);
            tui_term_text(y + i, 0, left - 1, buf, TS_PLAIN);
            if (sel) tui_term_extra(0);
        }
        tui_scroll_marks(&v->sc, y, left - 2, rows, v->ascii);
        if (v->nlive) {
            const struct gpu_snap_live *l = &v->live[v->sel];
            int yy = y_list;
            if (!v->map_made || v->map_cur != (int64_t)v->cur || v->map_sel != v->sel) {
                make_map(v, v->map_title, sizeof v->map_title); /* a walk over the trace: once per change */
                v->map_made = true, v->map_cur = (int64_t)v->cur, v->map_sel = v->sel;
            }
            struct tui_lines L = {0};
            tui_panelset_render(v->ps, &L, W - left, v->ascii, v->zh ? "zh" : "en");
            int room = (H - 1 - yy) / 2; /* the map's rows, its legend as far as half the room */
            for (int i = 0; i < L.n && i < room + 3 && yy < H - 3; i++)
                if (L.v[i].len) tui_term_line(yy++, left, W - left, &L.v[i], TS_PLAIN);
            tui_lines_free(&L);
            if (l->event >= 0) snprintf(buf, sizeof buf, "%s %lld:", TR(v, "stack of entry", "调用栈，记录"), (long long)l->event);
            else snprintf(buf, sizeof buf, "%s:", TR(v, "stack (live before the trace)", "调用栈（记录开始前就存活）"));
            if (yy < H - 1) tui_term_text(yy++, left, W - left, buf, TS_DIM);
            /* the whole stack as memory_viz filters it; Python frames when it has any (the C++
             * ones below them are the allocator's own); the user's frames marked */
            const struct gpu_snap_stack *st = gpu_snapshot_stack(v->s, l->stack);
            bool py = false;
            for (uint32_t k = 0; k < st->n && !py; k++) {
                const struct gpu_snap_frame *f = gpu_snapshot_stack_frame(v->s, l->stack, k);
                py = f->file_len > 3 && !memcmp(f->file + f->file_len - 3, ".py", 3);
            }
            for (uint32_t k = 0; k < st->n && yy < H - 1; k++) {
                const struct gpu_snap_frame *f = gpu_snapshot_stack_frame(v->s, l->stack, k);
                if (f->kind == GPU_SNAP_FRAME_BAD || f->kind == GPU_SNAP_FRAME_HIDDEN) continue;
                if (py && !(f->file_len > 3 && !memcmp(f->file + f->file_len - 3, ".py", 3))) continue;
                char t2[400];
                frame_text(f, t2, sizeof t2);
                snprintf(buf, sizeof buf, "%s%s", f->kind == GPU_SNAP_FRAME_USER ? "> " : "  ", t2);
                tui_term_text(yy++, left, W - left, buf, f->kind == GPU_SNAP_FRAME_USER ? TS_CODE : TS_DIM);
            }
        }
        }
        if (v->b_prompt) { /* B's path, on the last line; Tab's matches above it */
            char view[PATH_MAX + 8];
            int cur = 0;
            for (int i = 0; i < v->b_nmatch && i < H - 3; i++)
                tui_term_text(H - 2 - v->b_nmatch + i, 2, W - 2, v->b_matches[i], TS_DIM);
            tui_lineedit_view(&v->bed, W - 20, " ", view, sizeof view, &cur);
            snprintf(buf, sizeof buf, "%s %s", TR(v, "B (compare with):", "B（与之比较）："), view);
            tui_term_bar(H - 1, W, buf, "", TS_INPUT);
        } else {
            tui_term_bar(H - 1, W, "", right, TS_STATUS);
        }
    }
    if (v->help.open) {
        struct tui_layout lay;
        tui_layout_compute(H, W, &lay);
        tui_help_draw(&v->help, &lay.help, v->zh, v->ascii);
    }
}

/* ---- running it -------------------------------------------------------------------------------- */

static bool sv_quit(void *ud) { return ((struct snapview *)ud)->quit; }

static bool sv_cursor(void *ud, int *y, int *x)
{
    struct snapview *v = ud;
    if (!v->b_prompt || v->help.open) return false;
    char view[PATH_MAX + 8];
    int cur = 0;
    tui_lineedit_view(&v->bed, COLS - 20, " ", view, sizeof view, &cur);
    const char *lab = TR(v, "B (compare with): ", "B（与之比较）：");
    *y = LINES - 1, *x = tui_width(lab, strlen(lab)) + cur;
    return true;
}

/* The screen on a terminal already set up. Returns 0, or 128 + N after a quit signal. */
static int sv_run(struct snapview *v)
{
    v->ascii = !tui_term_utf8();
    v->live_for = -2;
    v->ps = tui_panelset_new(v->ascii);
    if (v->ps) {
        struct lt_panel mp = {.id = "map", .kind = "map", .title = ""};
        tui_panelset_declare(v->ps, &mp, 1);
    }
    v->th_started = pthread_create(&v->th, NULL, load_fn, v) == 0;
    if (!v->th_started) load_fn(v);
    tui_lineedit_init(&v->bed, PATH_MAX - 1);
    recent_add(v->path);
    struct tui_screen_ops ops = {.ud = v, .draw = sv_draw, .key = sv_key, .quit = sv_quit,
                                 .tick = sv_tick, .busy = sv_busy, .cursor = sv_cursor,
                                 .min_rows = 12, .min_cols = 40};
    int rc = tui_loop_run(&ops);
    second_drop(v); /* B's loader, if it runs, is told to stop and frees what it made */
    /* left while the file still loads: Esc must not wait for the read; the loader, told to stop
     * and told by the state it finds that nobody waits, frees everything when it ends */
    int loading = 0;
    gpu_cancel_set(&v->load_cancel, true);
    if (v->th_started && atomic_compare_exchange_strong(&v->loaded, &loading, 2)) {
        pthread_detach(v->th);
        v->abandoned = true;
        return rc;
    }
    if (v->th_started) pthread_join(v->th, NULL); /* it had finished */
    if (v->w_started) { /* cancelled first: it stops within a few thousand entries */
        gpu_cancel_set(&v->w_cancel, true);
        pthread_join(v->wth, NULL);
    }
    return rc;
}

static void sv_free(struct snapview *v)
{
    second_drop(v);
    tui_history_free(v->recent);
    gpu_snap_summary_free(&v->sum);
    gpu_snapshot_free(v->s);
    free(v->r);
    free(v->series);
    tui_panelset_free(v->ps);
    free(v);
}

static struct snapview *sv_new(const char *path, bool zh)
{
    struct snapview *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    snprintf(v->path, sizeof v->path, "%s", path);
    v->zh = zh;
    return v;
}

int tui_snapview(const char *path, bool zh)
{
    struct snapview *v = sv_new(path, zh);
    if (!v) return 1;
    char err[256];
    if (!tui_term_init(err, sizeof err)) {
        fprintf(stderr, "vramlab: %s. The snapshot screen needs a terminal (try vramlab snapshot FILE).\n", err);
        free(v);
        return 3;
    }
    int rc = sv_run(v);
    tui_term_done();
    if (v->abandoned) return rc; /* the loader frees it, or the process ends first */
    if (!rc && v->st != GPU_OK && v->err[0]) {
        fprintf(stderr, "vramlab: %s\n", v->err);
        rc = 1;
    }
    sv_free(v);
    return rc;
}

/* ---- the file prompt (from the tutor's menu) -------------------------------------------------- */

struct picker {
    struct tui_lineedit ed;
    char ex[RECENT_MAX + PICK_MAX][PATH_MAX]; /* files opened before, then the shipped examples */
    int nex, nrec, sel;          /* sel: -1 the prompt, else a file of the list */
    struct tui_scroll sc;
    char matches[8][256];        /* what Tab found when it was not one */
    int nmatch;
    bool zh, quit, ascii;
    struct tui_help help;
};

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

/* The .pickle files in assets/snapshots/ of each colon-separated folder (a teacher's lessons
 * folders and the data folder, as alloc.snapshot looks in them), sorted by path: only those the
 * reader would open (regular files within the limit; a link to a FIFO is not listed). */
static void pick_examples(struct picker *p, const char *folders)
{
    char one[PATH_MAX], dir[PATH_MAX + 32];
    struct tui_history *h = recent_load();
    for (int i = 0; recent_at(h, i); i++) /* opened before, and still what the reader takes */
        if (gpu_file_ok(recent_at(h, i), GPU_SNAPSHOT_MAX_FILE, 0))
            snprintf(p->ex[p->nex++], PATH_MAX, "%s", recent_at(h, i));
    tui_history_free(h);
    p->nrec = p->nex;
    for (const char *f = folders; (f = gpu_path_next(f, one, sizeof one));) {
        snprintf(dir, sizeof dir, "%s/assets/snapshots", one);
        DIR *d = opendir(dir);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d)) && p->nex < p->nrec + PICK_MAX) {
            size_t n = strlen(e->d_name);
            if (n <= 7 || strcmp(e->d_name + n - 7, ".pickle")) continue;
            snprintf(p->ex[p->nex], PATH_MAX, "%s/%s", dir, e->d_name);
            if (gpu_file_ok(p->ex[p->nex], GPU_SNAPSHOT_MAX_FILE, 0)) p->nex++;
        }
        closedir(d);
    }
    qsort(p->ex + p->nrec, (size_t)(p->nex - p->nrec), sizeof p->ex[0], cmp_str);
}

/* Tab: complete the prompt's last path component from its folder (~ is $HOME); one match
 * completes (a folder gets its /), several extend to their common prefix and are listed. */
static void complete_path(struct tui_lineedit *ed, char (*matches)[256], int max, int *nmatch)
{
    char path[PATH_MAX], dir[PATH_MAX];
    const char *home = getenv("HOME");
    if (ed->s[0] == '~' && home) snprintf(path, sizeof path, "%s%s", home, ed->s + 1);
    else snprintf(path, sizeof path, "%s", ed->s);
    char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - path + 1), path);
    else snprintf(dir, sizeof dir, "./");
    DIR *d = opendir(dir);
    *nmatch = 0;
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
        if (*nmatch < max) snprintf(matches[(*nmatch)++], 256, "%s", e->d_name);
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
        *nmatch = 0;
    }
    tui_lineedit_set(ed, out);
}

static void pick_draw(void *ud)
{
    struct picker *p = ud;
    int W = COLS, H = LINES, y = 2;
    bool zh = p->zh;
    tui_term_bar(0, W, zh ? "你自己程序的显存：打开一个 PyTorch 显存快照" : "Your own program's memory: open a PyTorch memory snapshot", "", TS_TITLE);
    tui_term_text(y++, 2, W - 2, zh ? "文件（Tab 补全路径；torch.cuda.memory._dump_snapshot 写出的 .pickle）："
                                    : "File (Tab completes; the .pickle torch.cuda.memory._dump_snapshot writes):", TS_PLAIN);
    char view[PATH_MAX + 8], line[PATH_MAX + 16];
    int cur = 0;
    tui_lineedit_view(&p->ed, W - 8, " ", view, sizeof view, &cur);
    snprintf(line, sizeof line, "> %s", view);
    if (p->sel < 0) tui_term_extra(A_REVERSE);
    tui_term_text(y++, 2, W - 4, line, TS_INPUT);
    if (p->sel < 0) tui_term_extra(0);
    for (int i = 0; i < p->nmatch && y < H - 3; i++) tui_term_text(y++, 4, W - 4, p->matches[i], TS_DIM);
    y++;
    if (y < H - 2)
        tui_term_text(y++, 2, W - 2, p->nrec ? (zh ? "打开过的文件，然后是随附的示例（合成的，tests/snapshot/make_example.py）："
                                                  : "Files opened before, then the shipped examples (synthetic, tests/snapshot/make_example.py):")
                                            : (zh ? "随附的示例（合成的，tests/snapshot/make_example.py）："
                                                  : "Shipped examples (synthetic, tests/snapshot/make_example.py):"), TS_H3);
    int rows = H - 1 - y;
    tui_scroll_resize(&p->sc, p->nex, rows > 0 ? rows : 0);
    if (p->sel >= 0) tui_scroll_show(&p->sc, p->sel, p->sel, 0);
    for (int i = 0; i < rows && p->sc.top + i < p->nex; i++) {
        bool sel = p->sc.top + i == p->sel;
        if (sel) tui_term_extra(A_REVERSE);
        tui_term_text(y + i, 4, W - 4, p->ex[p->sc.top + i], TS_PLAIN);
        if (sel) tui_term_extra(0);
    }
    tui_scroll_marks(&p->sc, y, W - 1, rows, p->ascii);
    char right[300];
    tui_keys_hints(p->help.open ? tui_help_keys : tui_snapview_pick_keys, zh, "  ", W, right, sizeof right);
    tui_term_bar(H - 1, W, "", right, TS_STATUS);
    if (p->help.open) {
        struct tui_layout lay;
        tui_layout_compute(H, W, &lay);
        tui_help_draw(&p->help, &lay.help, zh, p->ascii);
    }
}

static bool pick_cursor(void *ud, int *y, int *x)
{
    struct picker *p = ud;
    if (p->sel >= 0 || p->help.open) return false;
    char view[PATH_MAX + 8];
    int cur = 0;
    tui_lineedit_view(&p->ed, COLS - 8, " ", view, sizeof view, &cur);
    *y = 3, *x = 4 + cur;
    return true;
}

static void pk_open(void *ud, const struct tui_key *k)
{
    struct picker *p = ud;
    char path[PATH_MAX];
    const char *home = getenv("HOME");
    if (p->sel >= 0) snprintf(path, sizeof path, "%s", p->ex[p->sel]);
    else if (p->ed.s[0] == '~' && home) snprintf(path, sizeof path, "%s%s", home, p->ed.s + 1);
    else snprintf(path, sizeof path, "%s", p->ed.s);
    if (!path[0]) return;
    recent_add(path);
    struct snapview *v = sv_new(path, p->zh);
    if (!v) return;
    int rc = sv_run(v); /* the screen, on its own turn of the shared loop */
    p->zh = v->zh;       /* L there: the prompt and the tutor follow */
    if (!v->abandoned) sv_free(v);
    if (rc) p->quit = true; /* a quit signal: the tutor ends too */
}

static void pk_tab(void *ud, const struct tui_key *k)
{
    struct picker *p = ud;
    p->sel = -1;
    complete_path(&p->ed, p->matches, 8, &p->nmatch);
}

static void pk_list(void *ud, const struct tui_key *k)
{
    struct picker *p = ud;
    if (k->code == TUI_KEY_FN(KEY_DOWN)) p->sel = p->sel + 1 < p->nex ? p->sel + 1 : p->sel;
    else p->sel = p->sel > -1 ? p->sel - 1 : -1;
}

static void pk_back(void *ud, const struct tui_key *k) { ((struct picker *)ud)->quit = true; }

static void pk_help(void *ud, const struct tui_key *k)
{
    struct picker *p = ud;
    const struct tui_keymap *const *ctx[] = {tui_snapview_pick_keys};
    tui_help_open(&p->help, ctx, 1, NULL, 0);
}

static const struct tui_binding pick_rows[] = {
    {.keys = {TUI_KEY_ENTER}, .run = pk_open, .en = "open the file (or the selected example)",
     .zh = "打开文件（或选中的示例）", .hint_en = "open", .hint_zh = "打开"},
    {.keys = {'\t'}, .run = pk_tab, .en = "complete the path", .zh = "补全路径", .hint_en = "complete",
     .hint_zh = "补全"},
    {.keys = {TUI_KEY_FN(KEY_UP), TUI_KEY_FN(KEY_DOWN)}, .run = pk_list,
     .en = "select a file of the list (up past the first: the prompt)", .zh = "选择列表里的文件（第一个再往上：输入框）",
     .hint_en = "select", .hint_zh = "选择", .hint_keys = 2},
    {.keys = {TUI_KEY_FN(KEY_F(1))}, .run = pk_help, .en = "this help", .zh = "本帮助", .hint_en = "help",
     .hint_zh = "帮助"},
    {.keys = {TUI_KEY_ESC}, .run = pk_back, .en = "back", .zh = "返回", .hint_en = "back", .hint_zh = "返回"},
};
static const struct tui_keymap pick_keymap = TUI_KEYMAP("Open a snapshot", "打开显存快照", TUI_TO_SCREEN, pick_rows);
const struct tui_keymap *const tui_snapview_pick_keys[] = {&pick_keymap, &tui_lineedit_keys,
                                                           &tui_loop_keys, NULL};

static void pick_key(void *ud, const struct tui_key *k)
{
    struct picker *p = ud;
    if (p->help.open) {
        tui_help_key(&p->help, k);
        return;
    }
    struct tui_targets t = {p, &p->sc, &p->ed};
    const struct tui_keymap *m = tui_keys_dispatch(tui_snapview_pick_keys, &t, k);
    if (m == &tui_lineedit_keys) p->sel = -1, p->nmatch = 0;
}

static bool pick_quit(void *ud) { return ((struct picker *)ud)->quit; }

void tui_snapview_pick(const char *folders, bool *zh)
{
    struct picker *p = calloc(1, sizeof *p);
    if (!p) return;
    p->zh = *zh;
    p->ascii = !tui_term_utf8();
    tui_lineedit_init(&p->ed, PATH_MAX - 1);
    pick_examples(p, folders);
    p->sel = p->nex ? 0 : -1;
    struct tui_screen_ops ops = {.ud = p, .draw = pick_draw, .key = pick_key, .quit = pick_quit,
                                 .cursor = pick_cursor, .min_rows = 8, .min_cols = 40};
    tui_loop_run(&ops);
    *zh = p->zh;
    free(p);
}
