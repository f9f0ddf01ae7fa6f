/* tui_record.c - see tui_record.h. */
#include "tui_record.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_err.h"
#include "gpu_esc.h"
#include "gpu_file.h"
#include "gpu_parse.h"
#include "gpu_strtab.h"
#include "gpu_u64map.h"
#include "tui_file.h"
#include "tui_json.h"
#include "tui_jsonl.h"
#include "tui_state.h"


double tui_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- writing -------------------------------------------------------------------------------- */

struct tui_rec {
    struct tui_state_out *out; /* the file is put in place by tui_rec_close */
    FILE *f;
    char path[1024];
    char err[512];
    int run, ended;
    bool in_run;
    double t0;
    size_t events, max_events;
    char full[256]; /* why it stopped short of what a replay reads, or "" */
};

static void check(struct tui_rec *r)
{
    if (r->err[0]) return;
    if (fflush(r->f) != 0 || ferror(r->f))
        snprintf(r->err, sizeof r->err, "recording to %s stopped: %s", r->path, strerror(errno));
}

static void kv_str(struct tui_json *j, const char *k, const char *v)
{
    tui_json_kstr(j, k, v ? v : "");
}

/* Seconds since the run began, to the microsecond (what the timer can tell apart). */
static double run_time(const struct tui_rec *r) { return round((tui_now() - r->t0) * 1e6) / 1e6; }

struct tui_rec *tui_rec_open(const char *path, struct lt_runtime *rt, const char *version,
                             char *err, size_t n)
{
    return tui_rec_open_max(path, rt, version, TUI_REPLAY_MAX_EVENTS, err, n);
}

/* Room for one more line (at most a MiB: 64 cells of 256 bytes, escaped) within what a replay
 * reads, TUI_REPLAY_MAX_*; past it the recording stops where it is, the run being recorded ends
 * "failed" saying why, and what was recorded is kept: a recording is always one a replay loads. */
static bool room(struct tui_rec *r, bool run, bool event)
{
    if (r->full[0] || r->err[0]) return false;
    long at = ftell(r->f);
    if ((!run || r->run < TUI_REPLAY_MAX_RUNS) && (!event || r->events < r->max_events) &&
        at >= 0 && (unsigned long)at < TUI_REPLAY_MAX_FILE - (1u << 20))
        return true;
    char why[sizeof r->full];
    snprintf(why, sizeof why, "the recording stopped at what a replay reads (%zu events, %d runs, "
             "%u MiB); what came before is kept", r->max_events, TUI_REPLAY_MAX_RUNS,
             TUI_REPLAY_MAX_FILE >> 20);
    if (r->in_run) tui_rec_end(r, LT_RUN_FAILED, why);
    snprintf(r->full, sizeof r->full, "%s", why);
    return false;
}

const char *tui_rec_full(const struct tui_rec *r) { return r && r->full[0] ? r->full : NULL; }

struct tui_rec *tui_rec_open_max(const char *path, struct lt_runtime *rt, const char *version,
                                 size_t max_events, char *err, size_t n)
{
    struct tui_rec *r = calloc(1, sizeof *r);
    if (!r) {
        gpu_errf(err, n, "out of memory");
        return NULL;
    }
    r->max_events = max_events;
    snprintf(r->path, sizeof r->path, "%s", path);
    char why[1200];
    if (!(r->out = tui_state_out_open(path, why, sizeof why))) {
        gpu_errf(err, n, "cannot record: %s", why);
        free(r);
        return NULL;
    }
    r->f = tui_state_out_file(r->out);
    const struct gpu_info *i = &lt_runtime_dev(rt)->info;
    struct gpu_host_info h;
    char line[256], date[64];
    gpu_host_info(&h);
    lt_runtime_backend_line(rt, line, sizeof line);
    time_t now = time(NULL);
    struct tm tm;
    if (!localtime_r(&now, &tm) || !strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", &tm))
        date[0] = 0; /* the clock is past what localtime can say: undated */
    struct tui_json j;
    tui_json_init(&j, r->f);
    tui_json_obj(&j);
    tui_json_kstr(&j, "type", "header");
    tui_json_kstr(&j, "format", TUI_RECORD_FORMAT);
    tui_json_kint(&j, "version", TUI_RECORD_VERSION);
    kv_str(&j, "vramlab", version);
    kv_str(&j, "gpu", i->name);
    kv_str(&j, "backend", i->backend);
    kv_str(&j, "profile", i->profile);
    tui_json_kbool(&j, "simulated", i->simulated);
    kv_str(&j, "driver", i->driver);
    kv_str(&j, "memory_type", i->memory_type);
    kv_str(&j, "backend_line", line);
    kv_str(&j, "host_cpu", h.cpu);
    tui_json_kint(&j, "host_threads", h.threads);
    kv_str(&j, "date", date);
    tui_json_kint(&j, "unix_time", (long long)now);
    kv_str(&j, "lang", lt_runtime_lang(rt));
    tui_json_end(&j);
    check(r);
    if (r->err[0]) {
        gpu_errf(err, n, "%s", r->err);
        tui_rec_close(r, false, NULL, 0);
        return NULL;
    }
    return r;
}

bool tui_rec_close(struct tui_rec *r, bool ok, char *err, size_t n)
{
    if (!r) return true;
    if (r->in_run) tui_rec_end(r, LT_RUN_CANCELLED, "the session ended during the run");
    bool keep = !r->err[0] && (ok || r->ended > 0), done = true;
    char why[1200];
    if (keep && !(done = tui_state_out_commit(r->out, why, sizeof why)))
        gpu_errf(err, n, "recording not kept: %s", why);
    if (!keep) tui_state_out_abort(r->out);
    free(r);
    return done;
}

void tui_rec_begin(struct tui_rec *r, const char *lesson, const char *experiment,
                   const char *title)
{
    if (!r || r->err[0]) return;
    if (r->in_run) tui_rec_end(r, LT_RUN_CANCELLED, "");
    if (!room(r, true, false)) return;
    r->run++;
    r->in_run = true;
    r->t0 = tui_now();
    struct tui_json j;
    tui_json_init(&j, r->f);
    tui_json_obj(&j);
    tui_json_kstr(&j, "type", "run");
    tui_json_kint(&j, "run", r->run);
    kv_str(&j, "lesson", lesson);
    kv_str(&j, "experiment", experiment);
    kv_str(&j, "title", title);
    tui_json_end(&j);
    check(r);
}

/* A text: English under its key, Chinese under KEY_zh when it differs (a replay shows either). */
static void kv_text(struct tui_json *j, const char *k, struct lt_text t)
{
    kv_str(j, k, lt_tx(t, false));
    if (strcmp(lt_tx(t, false), lt_tx(t, true))) {
        char kz[32];
        snprintf(kz, sizeof kz, "%s_zh", k);
        kv_str(j, kz, lt_tx(t, true));
    }
}

/* An array of texts (a row's cells, a map's owners), and its Chinese twin when any differs. */
static void kv_texts(struct tui_json *j, const char *k, const struct lt_text *t, size_t stride,
                     int n)
{
    bool differ = false;
    for (int zh = 0; zh < 2; zh++) {
        if (zh && !differ) break;
        char kz[32];
        snprintf(kz, sizeof kz, zh ? "%s_zh" : "%s", k);
        tui_json_key(j, kz);
        tui_json_arr(j);
        for (int i = 0; i < n; i++) {
            struct lt_text x; /* the i-th of an array of structs that hold a text */
            memcpy(&x, (const char *)t + (size_t)i * stride, sizeof x);
            tui_json_str(j, lt_tx(x, zh));
            differ |= strcmp(lt_tx(x, false), lt_tx(x, true)) != 0;
        }
        tui_json_end(j);
    }
}

void tui_rec_event(struct tui_rec *r, const struct lt_event *ev)
{
    if (!r || !r->in_run || r->err[0] || (unsigned)ev->type >= LT_EV_COUNT || !room(r, false, true)) return;
    r->events++;
    unsigned f = lt_event_fields(ev->type);
    struct tui_json j;
    tui_json_init(&j, r->f);
    tui_json_obj(&j);
    tui_json_kstr(&j, "type", "event");
    tui_json_kint(&j, "run", r->run);
    tui_json_knum(&j, "t", run_time(r));
    tui_json_kstr(&j, "ev", lt_event_name(ev->type));
    kv_str(&j, "panel", ev->panel);
    kv_text(&j, "series", ev->series);
    char *text = lt_event_text(ev, false, "\\0"); /* NUL bytes written out, and what follows them */
    kv_str(&j, "text", text ? text : lt_tx(ev->text, false));
    free(text);
    if (ev->type != LT_EV_PRINT && strcmp(lt_tx(ev->text, false), lt_tx(ev->text, true)))
        kv_str(&j, "text_zh", lt_tx(ev->text, true));
    kv_text(&j, "unit", ev->unit);
    tui_json_knum(&j, "x", ev->x);
    tui_json_knum(&j, "y", ev->y);
    tui_json_knum(&j, "value", ev->value);
    tui_json_knum(&j, "max", ev->max);
    tui_json_kstr(&j, "style", lt_style_name(ev->style));
    if (f & LT_F_CELLS) kv_texts(&j, "cells", ev->cells, sizeof *ev->cells, ev->cells ? ev->ncells : 0);
    if (f & LT_F_BLOCKS) { /* a map's blocks, typed: four arrays side by side */
        int nb = ev->blocks && ev->nblocks > 0 ? ev->nblocks : 0;
        kv_texts(&j, "owners", nb ? &ev->blocks[0].owner : NULL, sizeof *ev->blocks, nb);
        tui_json_key(&j, "states");
        tui_json_arr(&j);
        for (int i = 0; i < nb; i++) tui_json_str(&j, lt_map_state_name(ev->blocks[i].state));
        tui_json_end(&j);
        tui_json_key(&j, "bytes");
        tui_json_arr(&j);
        for (int i = 0; i < nb; i++) tui_json_num(&j, (double)ev->blocks[i].bytes);
        tui_json_end(&j);
        tui_json_key(&j, "segs");
        tui_json_arr(&j);
        for (int i = 0; i < nb; i++) tui_json_num(&j, ev->blocks[i].seg);
        tui_json_end(&j);
    }
    tui_json_end(&j);
    check(r);
}

void tui_rec_end(struct tui_rec *r, enum lt_run_state st, const char *err)
{
    static const char *const states[] = {"idle", "busy", "done", "failed", "cancelled"};
    if (!r || !r->in_run) return;
    r->in_run = false;
    if (r->err[0]) return;
    r->ended++;
    struct tui_json j;
    tui_json_init(&j, r->f);
    tui_json_obj(&j);
    tui_json_kstr(&j, "type", "end");
    tui_json_kint(&j, "run", r->run);
    tui_json_knum(&j, "t", run_time(r));
    tui_json_kstr(&j, "state", (unsigned)st <= LT_RUN_CANCELLED ? states[st] : "failed");
    kv_str(&j, "error", err);
    tui_json_end(&j);
    check(r);
}

const char *tui_rec_error(const struct tui_rec *r) { return r && r->err[0] ? r->err : NULL; }

/* ---- reading -------------------------------------------------------------------------------- */

/* One event, whatever its line held. Strings are ids of interned strings (gpu_strtab; 0 is
 * ""), each text an English and a Chinese id (the same when the recording has one); a row's
 * cells are ncells texts in cellv from `items`, a map's blocks nblocks in blockv from `items`. */
struct rev {
    double t, x, y, value, max;
    uint32_t panel, series[2], text[2], unit[2], items, run;
    uint8_t type, style, nitems;
};

struct rrun { /* a run's strings while loading (ids until the file is read) */
    uint32_t lesson, experiment, title, state, error;
    size_t text;  /* the text its events brought, charged as lt_vm_emit charges a live run */
    bool stopped; /* past LT_RUN_TEXT_MAX: failed there, as the live run would have */
};

struct tui_replay_store {
    struct gpu_strtab strs; /* interned strings by id; id 0 is "" */
    struct rev *ev;
    size_t nev, evcap;
    struct lt_text *cellv; /* every row's cells: pointers into strs, which never move */
    size_t ncellv, cellcap;
    struct lt_map_block *blockv; /* every map's blocks */
    size_t nblockv, blockcap;
    uint32_t *evi; /* every run's events, run after run */
    struct rrun *rs;
    int rcap;
    uint32_t hdr[9];       /* the header's strings (see header()) */
    struct gpu_u64map runno;  /* "run" number -> run index */
    struct gpu_u64map chosen; /* lesson/experiment -> the run tui_replay_find gives */
};

static bool grow_array(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap : 64;
    while (nc < need) nc *= 2;
    void *np = realloc(*p, nc * size);
    if (!np) return false;
    *p = np, *cap = nc;
    return true;
}

/* The id of s, stored once: equal strings get equal ids. UINT32_MAX when memory ran out. */
static uint32_t intern(struct tui_replay_store *st, const char *s)
{
    if (!s || !*s) return 0;
    return gpu_strtab_intern(&st->strs, s, strlen(s)); /* GPU_STRTAB_NONE is UINT32_MAX */
}

/* The id of s as a run's event carries it (lt_event_cut: cut, and escaped when field f is one
 * line), its bytes added to *sum: a recording brings no more text to the screen than a live run
 * could, and a label, a name or a header's field (LT_F_SERIES: one line) cannot forge lines of
 * `results` or `compare`. */
static uint32_t intern_cut(struct tui_replay_store *st, const char *s, unsigned f, size_t *sum)
{
    char buf[LT_EV_CUT_BUF];
    size_t k;
    if (!s || !*s) return 0;
    s = lt_event_cut(s, strlen(s), f, buf, &k);
    *sum += k;
    return gpu_strtab_intern(&st->strs, s, k);
}

/* The id of s if it was interned, else UINT32_MAX (a lookup that adds nothing). */
static uint32_t interned(const struct tui_replay_store *st, const char *s)
{
    if (!s || !*s) return 0;
    return gpu_strtab_find(&st->strs, s, strlen(s));
}

static const char *str_at(const struct tui_replay_store *st, uint32_t id)
{
    return gpu_strtab_str(&st->strs, id, NULL);
}

void tui_replay_free(struct tui_replay *rp)
{
    if (!rp) return;
    struct tui_replay_store *st = rp->store;
    if (st) {
        gpu_strtab_free(&st->strs);
        free(st->ev), free(st->cellv), free(st->blockv), free(st->evi), free(st->rs);
        gpu_u64map_free(&st->runno);
        gpu_u64map_free(&st->chosen);
        free(st);
    }
    free(rp->runs);
    free(rp->path);
    free(rp);
}

/* The run a line names ("run": a whole number in [1, 1e9)), or -1. */
static int run_of(struct tui_replay *rp, const struct tui_jobj *o)
{
    long long num;
    uint64_t idx;
    if (!tui_jobj_int(o, "run", 1, 999999999, &num) ||
        !gpu_u64map_get(&rp->store->runno, (uint64_t)num, &idx))
        return -1;
    return (int)idx;
}

/* Results of a line: kept, a bad line (skipped and counted), or a limit/memory failure that
 * stops the load. */
enum { LINE_OK, LINE_BAD, LINE_FAIL };

/* A text of the line: English under k, Chinese under k_zh (else the same). */
static bool get_text(struct tui_replay_store *st, const struct tui_jobj *o, const char *k,
                     unsigned f, uint32_t out[2], size_t *sum)
{
    char kz[32];
    snprintf(kz, sizeof kz, "%s_zh", k);
    const char *en = tui_jobj_str(o, k, ""), *zh = tui_jobj_str(o, kz, en);
    out[0] = intern_cut(st, en, f, sum);
    out[1] = zh == en || !strcmp(zh, en) ? out[0] : intern_cut(st, zh, f, sum);
    return out[0] != UINT32_MAX && out[1] != UINT32_MAX;
}

static struct lt_text text_at(const struct tui_replay_store *st, const uint32_t id[2])
{
    return (struct lt_text){{str_at(st, id[0]), str_at(st, id[1])}};
}

/* Item i of an array key as a string ("" when the array is shorter or absent). */
static const char *item(const struct tui_jval *a, int i)
{
    return a && a->type == TUI_JARR && i < a->nitems ? a->items[i] : "";
}

/* The texts of an array key and its _zh twin, into cellv (a row) or blockv's owners (a map). */
static bool get_texts(struct tui_replay_store *st, const struct tui_jobj *o, const char *k,
                      unsigned f, int n, struct lt_text *out, size_t stride, size_t *sum)
{
    char kz[32];
    snprintf(kz, sizeof kz, "%s_zh", k);
    const struct tui_jval *a = tui_jobj_get(o, k), *z = tui_jobj_get(o, kz);
    for (int i = 0; i < n; i++) {
        const char *en = item(a, i), *zh = z ? item(z, i) : en;
        uint32_t id[2] = {intern_cut(st, en, f, sum), 0};
        id[1] = !strcmp(zh, en) ? id[0] : intern_cut(st, zh, f, sum);
        if (id[0] == UINT32_MAX || id[1] == UINT32_MAX) return false;
        struct lt_text x = text_at(st, id);
        memcpy((char *)out + (size_t)i * stride, &x, sizeof x);
    }
    return true;
}

static int add_event(struct tui_replay *rp, const struct tui_jobj *o, size_t max_events, char *why,
                     size_t n)
{
    struct tui_replay_store *st = rp->store;
    int run = run_of(rp, o);
    int type = lt_event_parse(tui_jobj_str(o, "ev", NULL));
    int style = lt_style_parse(tui_jobj_str(o, "style", "measured"));
    if (run < 0 || type < 0 || style < 0) return LINE_BAD;
    if (st->rs[run].stopped) return LINE_OK; /* what a live run never got to send */
    if (st->nev == max_events) {
        gpu_errf(why, n, "more than %zu events (the limit; a recording of a whole course holds "
                 "tens of thousands)", max_events);
        return LINE_FAIL;
    }
    if (!grow_array((void **)&st->ev, &st->evcap, st->nev + 1, sizeof *st->ev)) goto oom;
    struct rev *e = &st->ev[st->nev];
    memset(e, 0, sizeof *e);
    e->t = tui_jobj_num(o, "t", 0);
    if (!(e->t >= 0) || !isfinite(e->t)) e->t = 0;
    e->type = (uint8_t)type, e->style = (uint8_t)style, e->run = (uint32_t)run;
    e->x = tui_jobj_num(o, "x", 0);
    e->y = tui_jobj_num(o, "y", 0);
    e->value = tui_jobj_num(o, "value", 0);
    e->max = tui_jobj_num(o, "max", 0);
    size_t sum = 0; /* the event's text, charged to its run as lt_vm_emit charges a live one */
    if ((e->panel = intern_cut(st, tui_jobj_str(o, "panel", ""), LT_F_PANEL, &sum)) == UINT32_MAX ||
        !get_text(st, o, "series", LT_F_SERIES, e->series, &sum) ||
        !get_text(st, o, "text", lt_event_text_field((enum lt_event_type)type), e->text, &sum) ||
        !get_text(st, o, "unit", LT_F_UNIT, e->unit, &sum))
        goto oom;
    unsigned f = lt_event_fields((enum lt_event_type)type);
    const struct tui_jval *cells = tui_jobj_get(o, "cells"), *owners = tui_jobj_get(o, "owners");
    if ((f & LT_F_CELLS) && cells && cells->type == TUI_JARR && cells->nitems) {
        /* at most what an event may carry: a longer row is the file's, cut to the limit */
        int k = cells->nitems < LT_EVENT_MAX_ITEMS ? cells->nitems : LT_EVENT_MAX_ITEMS;
        if (!grow_array((void **)&st->cellv, &st->cellcap, st->ncellv + (size_t)k, sizeof *st->cellv) ||
            !get_texts(st, o, "cells", LT_F_CELLS, k, st->cellv + st->ncellv, sizeof *st->cellv, &sum))
            goto oom;
        e->items = (uint32_t)st->ncellv, e->nitems = (uint8_t)k;
        st->ncellv += (size_t)k;
    }
    /* version 1 wrote a map's blocks as text: its maps replay empty */
    int nblocks = owners && owners->type == TUI_JARR ? owners->nitems : 0;
    if ((f & LT_F_BLOCKS) && nblocks > 0) {
        int k = nblocks < LT_EVENT_MAX_ITEMS ? nblocks : LT_EVENT_MAX_ITEMS;
        if (!grow_array((void **)&st->blockv, &st->blockcap, st->nblockv + (size_t)k, sizeof *st->blockv))
            goto oom;
        struct lt_map_block *b = st->blockv + st->nblockv;
        if (!get_texts(st, o, "owners", LT_F_BLOCKS, k, &b[0].owner, sizeof *b, &sum)) goto oom;
        const struct tui_jval *states = tui_jobj_get(o, "states"), *bytes = tui_jobj_get(o, "bytes"),
                              *segs = tui_jobj_get(o, "segs");
        for (int i = 0; i < k; i++) {
            int sk = lt_map_state_parse(item(states, i));
            uint64_t v = 0, sg = 0;
            b[i].state = sk < 0 ? LT_MAP_USED : (enum lt_map_state)sk;
            b[i].bytes = gpu_parse_u64(item(bytes, i), 0, UINT64_MAX, &v, NULL, 0) ? v : 0;
            b[i].seg = gpu_parse_u64(item(segs, i), 0, 999999, &sg, NULL, 0) ? (int)sg : 0;
        }
        e->items = (uint32_t)st->nblockv, e->nitems = (uint8_t)k;
        st->nblockv += (size_t)k;
    }
    if ((st->rs[run].text += sum) > LT_RUN_TEXT_MAX) { /* the event is dropped, the run stops */
        if (f & LT_F_CELLS) st->ncellv = e->items;
        if (f & LT_F_BLOCKS) st->nblockv = e->items;
        char msg[160];
        snprintf(msg, sizeof msg, LT_RUN_TEXT_STOP, (int)(LT_RUN_TEXT_MAX >> 20));
        uint32_t state = intern(st, "failed"), error = intern(st, msg);
        if (state == UINT32_MAX || error == UINT32_MAX) goto oom;
        st->rs[run].stopped = true, st->rs[run].state = state, st->rs[run].error = error;
        return LINE_OK;
    }
    st->nev++;
    rp->runs[run].nev++;
    return LINE_OK;
oom:
    gpu_errf(why, n, "out of memory");
    return LINE_FAIL;
}

static int add_run(struct tui_replay *rp, const struct tui_jobj *o, char *why, size_t n)
{
    struct tui_replay_store *st = rp->store;
    long long num;
    const char *lesson = tui_jobj_str(o, "lesson", NULL), *exp = tui_jobj_str(o, "experiment", NULL);
    if (!tui_jobj_int(o, "run", 1, 999999999, &num) || !lesson || !exp || strlen(lesson) > LT_ID_MAX ||
        strlen(exp) > LT_ID_MAX || !gpu_esc_clean(lesson, true) || !gpu_esc_clean(exp, true))
        /* ids no lesson can have */
        return LINE_BAD;
    if (rp->nruns == TUI_REPLAY_MAX_RUNS) {
        gpu_errf(why, n, "more than %d runs (the limit)", TUI_REPLAY_MAX_RUNS);
        return LINE_FAIL;
    }
    if (rp->nruns == st->rcap) {
        int nc = st->rcap ? st->rcap * 2 : 16;
        struct tui_replay_run *nr = realloc(rp->runs, (size_t)nc * sizeof *nr);
        if (nr) rp->runs = nr;
        struct rrun *ns = nr ? realloc(st->rs, (size_t)nc * sizeof *ns) : NULL;
        if (!ns) goto oom;
        st->rs = ns, st->rcap = nc;
    }
    struct tui_replay_run *r = &rp->runs[rp->nruns];
    memset(r, 0, sizeof *r);
    r->run = (int)num;
    r->rp = rp;
    struct rrun *s = &st->rs[rp->nruns];
    memset(s, 0, sizeof *s);
    s->lesson = intern(st, lesson), s->experiment = intern(st, exp);
    size_t sum = 0;
    s->title = intern_cut(st, tui_jobj_str(o, "title", exp), LT_F_SERIES, &sum);
    s->state = intern(st, "incomplete"), s->error = 0;
    if (s->lesson == UINT32_MAX || s->experiment == UINT32_MAX || s->title == UINT32_MAX ||
        s->state == UINT32_MAX || !gpu_u64map_put(&st->runno, (uint64_t)num, (uint64_t)rp->nruns))
        goto oom;
    rp->nruns++;
    return LINE_OK;
oom:
    gpu_errf(why, n, "out of memory");
    return LINE_FAIL;
}

static int end_run(struct tui_replay *rp, const struct tui_jobj *o, char *why, size_t n)
{
    int run = run_of(rp, o);
    if (run < 0) return LINE_BAD;
    struct rrun *s = &rp->store->rs[run];
    if (s->stopped) return LINE_OK; /* it failed where the text passed its limit */
    uint32_t state = intern_cut(rp->store, tui_jobj_str(o, "state", "done"), LT_F_SERIES, &s->text);
    uint32_t err = intern_cut(rp->store, tui_jobj_str(o, "error", ""), LT_F_TEXT, &s->text);
    if (state == UINT32_MAX || err == UINT32_MAX) {
        gpu_errf(why, n, "out of memory");
        return LINE_FAIL;
    }
    s->state = state, s->error = err;
    return LINE_OK;
}

static bool header(struct tui_replay *rp, const struct tui_jobj *o, char *why, size_t n)
{
    const char *fmt = tui_jobj_str(o, "format", "");
    double v = tui_jobj_num(o, "version", 0);
    if (strcmp(tui_jobj_str(o, "type", ""), "header") || strcmp(fmt, TUI_RECORD_FORMAT)) {
        gpu_errf(why, n, "not a vramlab recording (no header; make one with --record FILE)");
        return false;
    }
    if (v > TUI_RECORD_VERSION || !(v >= 1)) {
        gpu_errf(why, n, "recording format version %g; this vramlab reads versions 1 to %d", v,
                 TUI_RECORD_VERSION);
        return false;
    }
    /* the machine's strings, interned like the rest; pointers are set when the file is read */
    static const char *const keys[] = {"gpu", "backend", "profile", "driver", "memory_type",
                                       "host_cpu", "date", "vramlab", "backend_line"};
    for (int i = 0; i < 9; i++)
        if ((rp->store->hdr[i] = intern_cut(rp->store, tui_jobj_str(o, keys[i], i ? "" : "unknown GPU"),
                                            LT_F_SERIES, &(size_t){0})) == UINT32_MAX) {
            gpu_errf(why, n, "out of memory");
            return false;
        }
    rp->simulated = tui_jobj_bool(o, "simulated", false);
    return true;
}

static uint64_t pair_key(uint32_t a, uint32_t b) { return (uint64_t)a << 32 | b; }

/* The file is read: pointers for the header and the runs, each run's event list, and the run
 * tui_replay_find gives for each lesson/experiment (the last one that completed, else the last). */
static bool finish_load(struct tui_replay *rp)
{
    struct tui_replay_store *st = rp->store;
    const char **hdr[] = {&rp->gpu, &rp->backend, &rp->profile, &rp->driver, &rp->memory_type,
                          &rp->host_cpu, &rp->date, &rp->version, &rp->backend_line};
    for (int i = 0; i < 9; i++) *hdr[i] = str_at(st, st->hdr[i]);
    if (!(st->evi = malloc((st->nev ? st->nev : 1) * sizeof *st->evi))) return false;
    uint32_t at = 0;
    for (int i = 0; i < rp->nruns; i++) {
        struct tui_replay_run *r = &rp->runs[i];
        const struct rrun *s = &st->rs[i];
        r->lesson = str_at(st, s->lesson), r->experiment = str_at(st, s->experiment);
        r->title = str_at(st, s->title), r->state = str_at(st, s->state);
        r->error = str_at(st, s->error);
        r->evi = st->evi + at;
        at += (uint32_t)r->nev;
        r->nev = 0; /* counted again while filling */
    }
    for (size_t e = 0; e < st->nev; e++) {
        struct tui_replay_run *r = &rp->runs[st->ev[e].run];
        st->evi[(r->evi - st->evi) + r->nev++] = (uint32_t)e; /* r->evi is st->evi + its start */
    }
    for (int i = rp->nruns - 1; i >= 0; i--) {
        const struct rrun *s = &st->rs[i];
        uint64_t k = pair_key(s->lesson, s->experiment);
        uint64_t c;
        bool done = !strcmp(rp->runs[i].state, "done");
        if (gpu_u64map_get(&st->chosen, k, &c) && (!done || !strcmp(rp->runs[c].state, "done")))
            continue;
        if (!gpu_u64map_put(&st->chosen, k, (uint64_t)i)) return false;
    }
    for (int i = 0; i < rp->nruns; i++) {
        uint64_t c = UINT64_MAX;
        gpu_u64map_get(&st->chosen, pair_key(st->rs[i].lesson, st->rs[i].experiment), &c);
        rp->runs[i].chosen = c == (uint64_t)i;
    }
    return true;
}

struct tui_replay *tui_replay_load(const char *path, char *err, size_t n)
{
    return tui_replay_load_max(path, TUI_REPLAY_MAX_EVENTS, err, n);
}

struct tui_replay *tui_replay_load_max(const char *path, size_t max_events, char *err, size_t n)
{
    char why[256];
    FILE *f = gpu_file_open(path, TUI_REPLAY_MAX_FILE, 0, why, sizeof why);
    if (!f) {
        gpu_errf(err, n, "cannot replay %s", why);
        return NULL;
    }
    struct tui_replay *rp = calloc(1, sizeof *rp);
    if (!rp || !(rp->path = strdup(path)) || !(rp->store = calloc(1, sizeof *rp->store)) ||
        gpu_strtab_intern(&rp->store->strs, "", 0) != 0) { /* id 0 is "" */
        gpu_errf(err, n, "out of memory");
        fclose(f);
        tui_replay_free(rp);
        return NULL;
    }
    char *line = NULL;
    size_t lcap = 0, total = 0;
    ssize_t got;
    int ln = 0;
    bool have_header = false;
    while ((got = getline(&line, &lcap, f)) > 0) {
        ln++;
        if ((total += (size_t)got) > TUI_REPLAY_MAX_FILE) {
            gpu_file_too_large(path, 0, TUI_REPLAY_MAX_FILE, err, n);
            goto fail;
        }
        if (strlen(line) != (size_t)got) { /* a NUL inside: not a line vramlab wrote */
            rp->bad_lines++;
            continue;
        }
        line[strcspn(line, "\n")] = 0;
        if (!line[strspn(line, " \t\r")]) continue;
        struct tui_jobj o;
        if (!tui_jsonl_parse(line, &o, why, sizeof why)) {
            if (!have_header) {
                gpu_errf(err, n, "%s:%d: not a vramlab recording (%s)", path, ln, why);
                goto fail;
            }
            rp->bad_lines++; /* a line cut by a crash: the rest is still worth showing */
            continue;
        }
        if (!have_header) {
            have_header = header(rp, &o, why, sizeof why);
            tui_jobj_free(&o);
            if (!have_header) {
                gpu_errf(err, n, "%s:%d: %s", path, ln, why);
                goto fail;
            }
            continue;
        }
        const char *type = tui_jobj_str(&o, "type", "");
        int r = !strcmp(type, "event") ? add_event(rp, &o, max_events, why, sizeof why)
                : !strcmp(type, "run") ? add_run(rp, &o, why, sizeof why)
                : !strcmp(type, "end") ? end_run(rp, &o, why, sizeof why)
                                       : LINE_OK; /* unknown kinds: from a newer minor version */
        tui_jobj_free(&o);
        if (r == LINE_FAIL) {
            gpu_errf(err, n, "%s:%d: %s", path, ln, why);
            goto fail;
        }
        if (r == LINE_BAD) rp->bad_lines++;
    }
    if (ferror(f)) {
        gpu_errf(err, n, "cannot replay %s: %s", path, strerror(errno));
        goto fail;
    }
    free(line);
    fclose(f);
    if (!have_header) {
        gpu_errf(err, n, "%s: empty, not a vramlab recording", path);
        tui_replay_free(rp);
        return NULL;
    }
    if (!finish_load(rp)) {
        gpu_errf(err, n, "%s: out of memory", path);
        tui_replay_free(rp);
        return NULL;
    }
    return rp;
fail:
    free(line);
    fclose(f);
    tui_replay_free(rp);
    return NULL;
}

double tui_replay_get(const struct tui_replay_run *run, int i, struct lt_event *ev)
{
    const struct tui_replay_store *st = run->rp->store;
    const struct rev *e = &st->ev[run->evi[i]];
    memset(ev, 0, sizeof *ev);
    ev->type = (enum lt_event_type)e->type;
    ev->style = (enum lt_style)e->style;
    ev->panel = str_at(st, e->panel);
    ev->series = text_at(st, e->series), ev->text = text_at(st, e->text);
    ev->unit = text_at(st, e->unit);
    ev->x = e->x, ev->y = e->y, ev->value = e->value, ev->max = e->max;
    unsigned f = lt_event_fields(ev->type);
    if ((f & LT_F_CELLS) && e->nitems) ev->cells = st->cellv + e->items, ev->ncells = e->nitems;
    if ((f & LT_F_BLOCKS) && e->nitems) ev->blocks = st->blockv + e->items, ev->nblocks = e->nitems;
    return e->t;
}

uint32_t tui_replay_str_id(const struct tui_replay *rp, const char *s)
{
    return interned(rp->store, s);
}

const struct tui_replay_run *tui_replay_find(const struct tui_replay *rp, const char *lesson,
                                             const char *experiment)
{
    uint32_t l = interned(rp->store, lesson), x = interned(rp->store, experiment);
    uint64_t c;
    if (l == UINT32_MAX || x == UINT32_MAX || !gpu_u64map_get(&rp->store->chosen, pair_key(l, x), &c))
        return NULL;
    return &rp->runs[c];
}

void tui_replay_machine(const struct tui_replay *rp, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s", rp->gpu, rp->simulated ? " (SIMULATED)" : "");
}

void tui_replay_label(const struct tui_replay *rp, char *buf, size_t n)
{
    char m[256], date[32];
    tui_replay_machine(rp, m, sizeof m);
    /* "2025-03-01T14:05:09+0100" -> "2025-03-01 14:05" */
    snprintf(date, sizeof date, "%.16s", rp->date);
    if (strlen(date) > 10 && date[10] == 'T') date[10] = ' ';
    snprintf(buf, n, "REPLAY · %s · %s", m, *date ? date : "undated");
}

static int offer_cmp(const void *x, const void *y)
{
    const struct tui_rec_offer *a = x, *b = y;
    if (a->simulated != b->simulated) return a->simulated ? 1 : -1;
    int d = strcmp(b->date, a->date); /* ISO dates sort as text: newest first */
    return d ? d : strcmp(a->path, b->path);
}

int tui_recordings_scan(const char *dir, struct tui_rec_offer *out, int max)
{
    DIR *d = dir ? opendir(dir) : NULL;
    int k = 0;
    if (!d) return 0;
    for (struct dirent *e; k < max && (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 7 || strcmp(e->d_name + l - 6, ".jsonl")) continue;
        struct tui_rec_offer *o = &out[k];
        snprintf(o->path, sizeof o->path, "%s/%s", dir, e->d_name);
        /* the header is the first line: no need to read a long recording to offer it */
        char line[16384], why[256];
        FILE *f = gpu_file_open(o->path, TUI_REPLAY_MAX_FILE, 0, why, sizeof why);
        bool ok = f && fgets(line, sizeof line, f);
        if (f) fclose(f);
        struct tui_jobj j;
        if (!ok || !tui_jsonl_parse(line, &j, why, sizeof why)) continue;
        double v = tui_jobj_num(&j, "version", 0);
        if (!strcmp(tui_jobj_str(&j, "type", ""), "header") &&
            !strcmp(tui_jobj_str(&j, "format", ""), TUI_RECORD_FORMAT) && v >= 1 &&
            v <= TUI_RECORD_VERSION) {
            /* the strings point into j: used before it is freed */
            struct tui_replay rp = {
                .gpu = tui_jobj_str(&j, "gpu", "unknown GPU"),
                .backend = tui_jobj_str(&j, "backend", ""),
                .profile = tui_jobj_str(&j, "profile", ""),
                .driver = tui_jobj_str(&j, "driver", ""),
                .memory_type = tui_jobj_str(&j, "memory_type", ""),
                .host_cpu = tui_jobj_str(&j, "host_cpu", ""),
                .date = tui_jobj_str(&j, "date", ""),
                .version = tui_jobj_str(&j, "vramlab", ""),
                .backend_line = tui_jobj_str(&j, "backend_line", ""),
                .simulated = tui_jobj_bool(&j, "simulated", false)};
            tui_replay_label(&rp, o->label, sizeof o->label);
            tui_replay_machine(&rp, o->machine, sizeof o->machine);
            snprintf(o->date, sizeof o->date, "%s", rp.date);
            o->simulated = rp.simulated;
            k++;
        }
        tui_jobj_free(&j);
    }
    closedir(d);
    qsort(out, (size_t)k, sizeof *out, offer_cmp);
    return k;
}

void tui_player_start(struct tui_player *p, const struct tui_replay_run *run, double now,
                      double max_seconds)
{
    struct lt_event ev;
    double dur = run && run->nev ? tui_replay_get(run, run->nev - 1, &ev) : 0;
    p->run = run, p->next = 0, p->start = now;
    p->speed = max_seconds <= 0 ? INFINITY : dur > max_seconds ? dur / max_seconds : 1.0;
}

bool tui_player_step(struct tui_player *p, double now, lt_sink_fn fn, void *ud)
{
    if (!p->run) return true;
    double t = isinf(p->speed) ? INFINITY : (now - p->start) * p->speed;
    struct lt_event ev;
    while (p->next < p->run->nev && tui_replay_get(p->run, p->next, &ev) <= t) {
        if (fn) fn(ud, &ev);
        p->next++;
    }
    return p->next >= p->run->nev;
}
