/* gpu_snapshot.c - reading a PyTorch memory snapshot out of its pickle (the dictionary that
 * torch/csrc/cuda/Module.cpp builds for torch.cuda.memory._snapshot()) and the summary vramlab
 * prints. The definitions follow docs/snapshot.md; tests/snapshot/summary_ref.py computes the
 * same numbers in Python, and the two must agree exactly, so the order of every walk here
 * matches the reference. */
#include "gpu_snapshot.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_u64map.h"

#define GPU_SNAP_X_NAME(id, name) name,
const char *const gpu_snap_action_names[GPU_SNAP_NACTIONS] = {GPU_SNAP_ACTIONS(GPU_SNAP_X_NAME)};
#undef GPU_SNAP_X_NAME
const char *const gpu_snap_state_names[GPU_SNAP_NSTATES] = {"active_allocated",
                                                            "active_pending_free", "inactive"};

#define MAGNITUDE_LIMIT (1ull << 62) /* bytes one device's sizes may add up to */
#define MAX_DEVICE 4095

static gpu_status bad(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static gpu_status bad(char *err, size_t n, const char *fmt, ...)
{
    if (err && n) {
        int k = snprintf(err, n, "not a PyTorch memory snapshot (");
        va_list ap;
        va_start(ap, fmt);
        if (k > 0 && (size_t)k < n) k += vsnprintf(err + k, n - (size_t)k, fmt, ap);
        va_end(ap);
        if (k > 0 && (size_t)k + 1 < n) strcat(err, ")");
    }
    return GPU_ERR_ARG;
}

static gpu_status nomem(char *err, size_t n)
{
    if (err && n) snprintf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
    return GPU_ERR_HOST_NOMEM;
}

/* ---- reading ------------------------------------------------------------------------------ */

struct keys {
    const char *segments, *device_traces, *allocator_settings, *device, *address, *total_size,
        *blocks, *segment_type, *is_expandable, *stream, *size, *state, *requested_size, *frames,
        *history, *real_size, *action, *addr, *device_free, *time_us, *conf, *max_split_size,
        *expandable_segments, *gc, *roundup, *overflowed;
    const char *actions[GPU_SNAP_NACTIONS];
};

static void keys_init(struct keys *k, const struct gpu_pk_doc *d)
{
#define K(f, s) k->f = gpu_pk_intern(d, s)
    K(segments, "segments"); K(device_traces, "device_traces");
    K(allocator_settings, "allocator_settings"); K(device, "device"); K(address, "address");
    K(total_size, "total_size"); K(blocks, "blocks"); K(segment_type, "segment_type");
    K(is_expandable, "is_expandable"); K(stream, "stream"); K(size, "size"); K(state, "state");
    K(requested_size, "requested_size"); K(frames, "frames"); K(history, "history");
    K(real_size, "real_size"); K(action, "action"); K(addr, "addr");
    K(device_free, "device_free"); K(time_us, "time_us"); K(conf, "PYTORCH_CUDA_ALLOC_CONF");
    K(max_split_size, "max_split_size"); K(expandable_segments, "expandable_segments");
    K(gc, "garbage_collection_threshold"); K(roundup, "roundup_power2_divisions");
    K(overflowed, "trace_alloc_overflowed");
#undef K
    for (int i = 0; i < GPU_SNAP_OTHER; i++) k->actions[i] = gpu_pk_intern(d, gpu_snap_action_names[i]);
}

/* Where a value sits, formatted only when there is an error to report. */
enum { W_SEG, W_BLOCK, W_HISTORY, W_EVENT };
struct where {
    int kind;
    size_t i, j;
};

static const char *where_text(const struct where *w, char *b, size_t n)
{
    switch (w->kind) {
    case W_SEG: snprintf(b, n, "segments[%zu]", w->i); break;
    case W_BLOCK: snprintf(b, n, "segments[%zu].blocks[%zu]", w->i, w->j); break;
    case W_HISTORY: snprintf(b, n, "segments[%zu].blocks[%zu].history[0]", w->i, w->j); break;
    default: snprintf(b, n, "device_traces[%zu][%zu]", w->i, w->j);
    }
    return b;
}

/* A size: a whole number >= 0 (bool is not one). def: the value when the key is absent, or
 * -1 when it is required. */
static gpu_status get_size(const struct gpu_pk *d, const char *key, const char *name, int64_t def,
                           uint64_t *out, const struct where *w, char *err, size_t n)
{
    const struct gpu_pk *v = gpu_pk_get(d, key);
    char wb[128];
    int64_t i;
    if (!v || gpu_pk_type(v) == GPU_PK_NONE) {
        if (def < 0) return bad(err, n, "%s has no '%s'", where_text(w, wb, sizeof wb), name);
        *out = (uint64_t)def;
        return GPU_OK;
    }
    if (!gpu_pk_int(v, &i) || i < 0)
        return bad(err, n, "%s.%s is not a size (a whole number of bytes)",
                   where_text(w, wb, sizeof wb), name);
    *out = (uint64_t)i;
    return GPU_OK;
}

static bool frames_of(const struct gpu_pk *v, const struct gpu_pk **out)
{
    *out = gpu_pk_type(v) == GPU_PK_LIST ? v : NULL;
    return true;
}

static gpu_status read_block(const struct keys *k, const struct gpu_pk *b, struct gpu_snap_block *o,
                             uint64_t *addr, size_t *legacy, const struct where *where, char *err,
                             size_t n)
{
    char wb[128];
    if (gpu_pk_type(b) != GPU_PK_DICT) return bad(err, n, "%s is not a dict", where_text(where, wb, sizeof wb));
    gpu_status st = get_size(b, k->size, "size", -1, &o->size, where, err, n);
    if (st != GPU_OK) return st;
    const struct gpu_pk *sv = gpu_pk_get(b, k->state);
    o->state = GPU_SNAP_NSTATES;
    for (int i = 0; i < GPU_SNAP_NSTATES; i++)
        if (gpu_pk_is_str(sv, gpu_snap_state_names[i])) o->state = (uint8_t)i;
    if (o->state == GPU_SNAP_NSTATES)
        return bad(err, n, "%s.state is not one of active_allocated, active_pending_free, "
                           "inactive", where_text(where, wb, sizeof wb));
    const struct gpu_pk *fr = gpu_pk_get(b, k->frames);
    if (fr) {
        frames_of(fr, &o->frames);
        if ((st = get_size(b, k->requested_size, "requested_size", (int64_t)o->size, &o->requested,
                           where, err, n)) != GPU_OK)
            return st;
    } else { /* the older format: the allocation's history */
        const struct gpu_pk *h = gpu_pk_get(b, k->history);
        if (h && gpu_pk_type(h) != GPU_PK_NONE) (*legacy)++;
        const struct gpu_pk *h0 = gpu_pk_type(h) == GPU_PK_LIST ? gpu_pk_at(h, 0) : NULL;
        if (gpu_pk_type(h0) == GPU_PK_DICT) {
            frames_of(gpu_pk_get(h0, k->frames), &o->frames);
            struct where w = {W_HISTORY, where->i, where->j};
            if ((st = get_size(h0, k->real_size, "real_size", -1, &o->requested, &w, err, n)) !=
                GPU_OK)
                return st;
        } else {
            o->frames = NULL;
            if ((st = get_size(b, k->requested_size, "requested_size", (int64_t)o->size,
                               &o->requested, where, err, n)) != GPU_OK)
                return st;
        }
    }
    const struct gpu_pk *av = gpu_pk_get(b, k->address);
    int64_t ai;
    if (av && gpu_pk_type(av) != GPU_PK_NONE) {
        if (!gpu_pk_int(av, &ai) || ai < 0)
            return bad(err, n, "%s.address is not an address", where_text(where, wb, sizeof wb));
        o->addr = (uint64_t)ai;
    } else {
        o->addr = *addr;
    }
    *addr += o->size;
    return GPU_OK;
}

static gpu_status read_segments(struct gpu_snapshot *s, const struct keys *k,
                                const struct gpu_pk *segs, char *err, size_t n)
{
    size_t nseg = gpu_pk_len(segs), nblk = 0;
    for (size_t i = 0; i < nseg; i++) {
        const struct gpu_pk *sg = gpu_pk_at(segs, i);
        if (gpu_pk_type(sg) != GPU_PK_DICT) return bad(err, n, "segments[%zu] is not a dict", i);
        const struct gpu_pk *bl = gpu_pk_get(sg, k->blocks);
        if (gpu_pk_type(bl) != GPU_PK_LIST)
            return bad(err, n, "segments[%zu] has no 'blocks' list", i);
        nblk += gpu_pk_len(bl);
    }
    s->segs = calloc(nseg ? nseg : 1, sizeof *s->segs);
    s->blocks = calloc(nblk ? nblk : 1, sizeof *s->blocks);
    if (!s->segs || !s->blocks) return nomem(err, n);
    for (size_t i = 0; i < nseg; i++) {
        const struct gpu_pk *sg = gpu_pk_at(segs, i);
        struct gpu_snap_segment *o = &s->segs[s->nsegs++];
        struct where where = {W_SEG, i, 0};
        const struct gpu_pk *dv = gpu_pk_get(sg, k->device);
        int64_t dev = 0;
        if (dv && !gpu_pk_int(dv, &dev)) dev = -1;
        if (dev < 0 || dev > MAX_DEVICE)
            return bad(err, n, "segments[%zu].device is not a device index", i);
        o->device = (int)dev;
        gpu_status st = get_size(sg, k->address, "address", -1, &o->addr, &where, err, n);
        if (st == GPU_OK) st = get_size(sg, k->total_size, "total_size", -1, &o->size, &where, err, n);
        if (st != GPU_OK) return st;
        o->small = gpu_pk_is_str(gpu_pk_get(sg, k->segment_type), "small");
        const struct gpu_pk *ex = gpu_pk_get(sg, k->is_expandable);
        bool bv = false;
        o->expandable = gpu_pk_bool(ex, &bv) && bv;
        o->stream = 0;
        gpu_pk_int(gpu_pk_get(sg, k->stream), &o->stream);
        const struct gpu_pk *bl = gpu_pk_get(sg, k->blocks);
        o->first_block = s->nblocks;
        o->nblocks = gpu_pk_len(bl);
        uint64_t addr = o->addr;
        for (size_t j = 0; j < o->nblocks; j++) {
            struct where bw = {W_BLOCK, i, j};
            if ((st = read_block(k, gpu_pk_at(bl, j), &s->blocks[s->nblocks++], &addr,
                                 &s->legacy_history_blocks, &bw, err, n)) != GPU_OK)
                return st;
        }
    }
    return GPU_OK;
}

static uint8_t action_of(const struct keys *k, const struct gpu_pk *v)
{
    for (int i = 0; i < GPU_SNAP_OTHER; i++) /* interned: a pointer says it */
        if (k->actions[i] && gpu_pk_str(v, NULL) == k->actions[i]) return (uint8_t)i;
    return GPU_SNAP_OTHER;
}

static gpu_status read_event(const struct keys *k, const struct gpu_pk *e, struct gpu_snap_event *o,
                             size_t d, size_t i, char *err, size_t n)
{
    struct where wh = {W_EVENT, d, i}, *w = &wh;
    char wb[128];
    if (gpu_pk_type(e) != GPU_PK_DICT) return bad(err, n, "%s is not a dict", where_text(w, wb, sizeof wb));
    const struct gpu_pk *a = gpu_pk_get(e, k->action);
    if (gpu_pk_type(a) != GPU_PK_STR)
        return bad(err, n, "%s has no 'action'", where_text(w, wb, sizeof wb));
    o->action = action_of(k, a);
    gpu_status st = get_size(e, k->size, "size", o->action == GPU_SNAP_OTHER ? 0 : -1, &o->size,
                             w, err, n);
    if (st != GPU_OK) return st;
    o->has_addr = false;
    o->addr = 0;
    if (o->action == GPU_SNAP_OOM) {
        const struct gpu_pk *f = gpu_pk_get(e, k->device_free);
        int64_t fv;
        if (f && gpu_pk_type(f) != GPU_PK_NONE) {
            if (!gpu_pk_int(f, &fv) || fv < 0)
                return bad(err, n, "%s.device_free is not a size", where_text(w, wb, sizeof wb));
            o->addr = (uint64_t)fv;
            o->has_addr = true;
        }
    } else if (o->action != GPU_SNAP_OTHER) {
        if ((st = get_size(e, k->addr, "addr", -1, &o->addr, w, err, n)) != GPU_OK) return st;
        o->has_addr = true;
    }
    const struct gpu_pk *sv = gpu_pk_get(e, k->stream);
    o->stream = 0;
    if (sv && !gpu_pk_int(sv, &o->stream))
        return bad(err, n, "%s.stream is not a whole number", where_text(w, wb, sizeof wb));
    const struct gpu_pk *tv = gpu_pk_get(e, k->time_us);
    o->has_time = false;
    if (tv && gpu_pk_type(tv) != GPU_PK_NONE) {
        if (!gpu_pk_int(tv, &o->time_us))
            return bad(err, n, "%s.time_us is not a whole number", where_text(w, wb, sizeof wb));
        o->has_time = true;
    }
    frames_of(gpu_pk_get(e, k->frames), &o->frames);
    return GPU_OK;
}

/* Python's key equality for what can be a key here: str, bytes, int and bool by value. */
static bool key_equal(const struct gpu_pk *x, const struct gpu_pk *y)
{
    enum gpu_pk_type t = gpu_pk_type(x);
    if (t != gpu_pk_type(y)) return false;
    size_t xn, yn;
    const char *xs, *ys;
    int64_t xi, yi;
    bool xb, yb;
    switch (t) {
    case GPU_PK_STR:
        xs = gpu_pk_str(x, &xn), ys = gpu_pk_str(y, &yn);
        return xn == yn && !memcmp(xs, ys, xn);
    case GPU_PK_BYTES:
        xs = gpu_pk_bytes(x, &xn), ys = gpu_pk_bytes(y, &yn);
        return xn == yn && !memcmp(xs, ys, xn);
    case GPU_PK_INT: return gpu_pk_int(x, &xi) && gpu_pk_int(y, &yi) && xi == yi;
    case GPU_PK_BOOL: return gpu_pk_bool(x, &xb) && gpu_pk_bool(y, &yb) && xb == yb;
    case GPU_PK_NONE: return true;
    default: return gpu_pk_identity(x) == gpu_pk_identity(y);
    }
}

static void read_settings(struct gpu_snapshot *s, const struct keys *k, const struct gpu_pk *st)
{
    struct gpu_snap_settings *o = &s->settings;
    memset(o, 0, sizeof *o);
    o->expandable = -1;
    if (gpu_pk_type(st) != GPU_PK_DICT) return;
    o->present = true;
    o->conf = gpu_pk_str(gpu_pk_get(st, k->conf), &o->conf_len);
    int64_t i;
    bool b;
    if (gpu_pk_int(gpu_pk_get(st, k->max_split_size), &i) && i > 0) o->max_split_size = (uint64_t)i;
    if (gpu_pk_bool(gpu_pk_get(st, k->expandable_segments), &b)) o->expandable = b;
    o->has_gc = gpu_pk_float(gpu_pk_get(st, k->gc), &o->gc_threshold);
    o->trace_overflowed = gpu_pk_bool(gpu_pk_get(st, k->overflowed), &b) && b;
    const struct gpu_pk *v = gpu_pk_get(st, k->roundup);
    if (gpu_pk_type(v) != GPU_PK_DICT) return;
    o->has_roundup = true;
    /* dict.values(): the first position of each key, the last value given for it */
    size_t np = gpu_pk_len(v);
    for (size_t j = 0; j < np && o->nroundup < 64; j++) {
        const struct gpu_pk *key = gpu_pk_at(v, j);
        bool seen = false;
        for (size_t m = 0; m < j && !seen; m++) seen = key_equal(gpu_pk_at(v, m), key);
        if (seen) continue;
        const struct gpu_pk *val = gpu_pk_dict_value(v, j);
        for (size_t m = j + 1; m < np; m++)
            if (key_equal(gpu_pk_at(v, m), key)) val = gpu_pk_dict_value(v, m);
        o->roundup_ok[o->nroundup] = gpu_pk_int(val, &o->roundup[o->nroundup]);
        if (!o->roundup_ok[o->nroundup]) o->roundup[o->nroundup] = 0;
        o->nroundup++;
    }
}

void gpu_snapshot_free(struct gpu_snapshot *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->ntraces; i++) free(s->traces[i].ev);
    free(s->traces);
    free(s->segs);
    free(s->blocks);
    gpu_pk_free(s->doc);
    free(s);
}

gpu_status gpu_snapshot_from_doc(struct gpu_pk_doc *doc, struct gpu_snapshot **out, char *err,
                                 size_t n)
{
    if (err && n) err[0] = 0;
    if (!out || !doc) {
        gpu_pk_free(doc);
        return GPU_ERR_ARG;
    }
    *out = NULL;
    struct gpu_snapshot *s = calloc(1, sizeof *s);
    if (!s) {
        gpu_pk_free(doc);
        return nomem(err, n);
    }
    s->doc = doc;
    struct keys k;
    keys_init(&k, doc);
    s->k_filename = gpu_pk_intern(doc, "filename");
    s->k_line = gpu_pk_intern(doc, "line");
    s->k_name = gpu_pk_intern(doc, "name");
    const struct gpu_pk *root = gpu_pk_root(doc);
    gpu_status st = GPU_OK;
    const struct gpu_pk *segs = gpu_pk_get(root, k.segments);
    const struct gpu_pk *traces = gpu_pk_get(root, k.device_traces);
    if (gpu_pk_type(root) != GPU_PK_DICT)
        st = bad(err, n, "the pickle holds a %s, not a dict", gpu_pk_type_name(root));
    else if (!segs) st = bad(err, n, "no 'segments' key");
    else if (gpu_pk_type(segs) != GPU_PK_LIST) st = bad(err, n, "'segments' is not a list");
    else if (traces && gpu_pk_type(traces) != GPU_PK_NONE && gpu_pk_type(traces) != GPU_PK_LIST)
        st = bad(err, n, "'device_traces' is not a list");
    if (st == GPU_OK) st = read_segments(s, &k, segs, err, n);
    if (st == GPU_OK && gpu_pk_type(traces) == GPU_PK_LIST) {
        s->ntraces = gpu_pk_len(traces);
        s->traces = calloc(s->ntraces ? s->ntraces : 1, sizeof *s->traces);
        if (!s->traces) st = nomem(err, n);
        for (size_t d = 0; st == GPU_OK && d < s->ntraces; d++) {
            const struct gpu_pk *tr = gpu_pk_at(traces, d);
            if (gpu_pk_type(tr) != GPU_PK_LIST) {
                st = bad(err, n, "device_traces[%zu] is not a list", d);
                break;
            }
            size_t ne = gpu_pk_len(tr);
            s->traces[d].ev = malloc((ne ? ne : 1) * sizeof *s->traces[d].ev);
            if (!s->traces[d].ev) st = nomem(err, n);
            for (size_t i = 0; st == GPU_OK && i < ne; i++)
                st = read_event(&k, gpu_pk_at(tr, i), &s->traces[d].ev[s->traces[d].n++], d, i,
                                err, n);
        }
    }
    if (st == GPU_OK) read_settings(s, &k, gpu_pk_get(root, k.allocator_settings));
    if (st != GPU_OK) {
        gpu_snapshot_free(s);
        return st;
    }
    *out = s;
    return GPU_OK;
}

gpu_status gpu_snapshot_load(const char *path, const struct gpu_pk_limits *lim,
                             struct gpu_snapshot **out, char *err, size_t n)
{
    if (!out) return GPU_ERR_ARG;
    *out = NULL;
    struct gpu_pk_doc *doc;
    gpu_status st = gpu_pk_load(path, lim, &doc, err, n);
    if (st != GPU_OK) return st;
    char why[512];
    st = gpu_snapshot_from_doc(doc, out, why, sizeof why);
    if (st != GPU_OK) snprintf(err, n, "%s: %s", path, why);
    return st;
}

/* ---- hashing helpers ---------------------------------------------------------------------- */

/* ---- the first user frame ----------------------------------------------------------------- */

static bool has(const char *s, size_t n, const char *pat)
{
    return memmem(s, n, pat, strlen(pat)) != NULL;
}

/* memory_viz's frameFilter (torch/utils/viz/MemoryViz.js): interpreter and dispatcher noise */
static bool frame_filter(const char *name, size_t nn, const char *file, size_t fn)
{
    static const char *const funcs[] = {"unwind::unwind", "CapturedTraceback::gather",
                                        "gather_with_cpp", "_start", "__libc_start_main",
                                        "PyEval_", "PyObject_", "PyFunction_"};
    static const char *const files[] = {"core/boxing", "/Register", "/Redispatch", "pythonrun.c",
                                        "Modules/main.c", "Objects/call.c",
                                        "Objects/methodobject.c", "pycore_ceval.h", "ceval.c",
                                        "cpython/abstract.h"};
    for (size_t i = 0; i < sizeof funcs / sizeof *funcs; i++)
        if (has(name, nn, funcs[i])) return false;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        if (has(file, fn, files[i])) return false;
    return true;
}

/* The user's own Python code: past memory_viz's filter, a .py file, not "<frozen ...>", not
 * inside torch, not Python's standard library (lib/pythonX.Y outside site-/dist-packages). */
static bool user_code(const char *name, size_t nn, const char *f, size_t n)
{
    if (!frame_filter(name, nn, f, n)) return false;
    if (n < 3 || memcmp(f + n - 3, ".py", 3)) return false;
    if (f[0] == '<') return false;
    if (has(f, n, "/torch/") || (n >= 6 && !memcmp(f, "torch/", 6))) return false;
    if (has(f, n, "/lib/python") && !has(f, n, "-packages/")) return false;
    return true;
}

struct fcache { /* verdict per frame dict (frames are shared dicts in a snapshot) */
    const void **key;
    signed char *val; /* 1 user frame, 0 not, -1 not a frame */
    size_t cap, n;
};

struct frame { /* one frame dict's fields */
    const char *file, *name;
    size_t file_n, name_n;
    int64_t line;
};

static int frame_verdict(const struct gpu_snapshot *s, struct fcache *c, const struct gpu_pk *f,
                         struct frame *fr)
{
    if (gpu_pk_type(f) != GPU_PK_DICT) return -1;
    fr->file = gpu_pk_str(gpu_pk_get(f, s->k_filename), &fr->file_n);
    fr->name = gpu_pk_str(gpu_pk_get(f, s->k_name), &fr->name_n);
    bool ok = fr->file && fr->name && gpu_pk_int(gpu_pk_get(f, s->k_line), &fr->line);
    const void *key = gpu_pk_identity(f);
    size_t i = c->cap ? gpu_u64_mix((uint64_t)(uintptr_t)key) & (c->cap - 1) : 0;
    if (c->cap)
        for (; c->key[i]; i = (i + 1) & (c->cap - 1))
            if (c->key[i] == key) return c->val[i];
    int v = !ok ? -1 : user_code(fr->name, fr->name_n, fr->file, fr->file_n) ? 1 : 0;
    if ((c->n + 1) * 2 > c->cap) { /* grow, then insert */
        size_t cap = c->cap ? c->cap * 2 : 256;
        const void **k = calloc(cap, sizeof *k);
        signed char *vv = malloc(cap);
        if (!k || !vv) {
            free(k);
            free(vv);
            return v; /* no cache: still correct */
        }
        for (size_t j = 0; j < c->cap; j++) {
            if (!c->key[j]) continue;
            size_t h = gpu_u64_mix((uint64_t)(uintptr_t)c->key[j]) & (cap - 1);
            while (k[h]) h = (h + 1) & (cap - 1);
            k[h] = c->key[j];
            vv[h] = c->val[j];
        }
        free(c->key);
        free(c->val);
        c->key = k;
        c->val = vv;
        c->cap = cap;
        i = gpu_u64_mix((uint64_t)(uintptr_t)key) & (cap - 1);
        while (c->key[i]) i = (i + 1) & (cap - 1);
    }
    c->key[i] = key;
    c->val[i] = (signed char)v;
    c->n++;
    return v;
}

static bool set_text(char **dst, size_t *len, const char *s, size_t n)
{
    *dst = malloc(n + 1);
    if (!*dst) return false;
    memcpy(*dst, s, n);
    (*dst)[n] = 0;
    *len = n;
    return true;
}

/* The group an allocation counts under: its first user frame, or a label. */
static bool user_frame(const struct gpu_snapshot *s, struct fcache *c, const struct gpu_pk *frames,
                       struct gpu_snap_group *g)
{
    memset(g, 0, sizeof *g);
    size_t nf = gpu_pk_len(frames);
    if (!frames || nf == 0) {
        static const char l[] = "<no frames recorded>";
        return set_text(&g->where, &g->where_len, l, sizeof l - 1) &&
               set_text(&g->function, &g->function_len, "", 0);
    }
    for (size_t i = 0; i < nf; i++) {
        struct frame fr;
        if (frame_verdict(s, c, gpu_pk_at(frames, i), &fr) != 1) continue;
        char num[32];
        int k = snprintf(num, sizeof num, ":%lld", (long long)fr.line);
        g->where = malloc(fr.file_n + (size_t)k + 1);
        if (!g->where) return false;
        memcpy(g->where, fr.file, fr.file_n);
        memcpy(g->where + fr.file_n, num, (size_t)k + 1);
        g->where_len = fr.file_n + (size_t)k;
        return set_text(&g->function, &g->function_len, fr.name, fr.name_n);
    }
    static const char l[] = GPU_SNAP_NO_USER_FRAME;
    return set_text(&g->where, &g->where_len, l, sizeof l - 1) &&
           set_text(&g->function, &g->function_len, "", 0);
}

static void group_free(struct gpu_snap_group *g)
{
    free(g->where);
    free(g->function);
    g->where = g->function = NULL;
}

/* Python's str order: UTF-8 bytes compare like code points */
static int text_cmp(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    if (c) return c;
    return an < bn ? -1 : an > bn;
}

static int group_rank(const void *pa, const void *pb)
{
    const struct gpu_snap_group *a = pa, *b = pb;
    if (a->bytes != b->bytes) return a->bytes > b->bytes ? -1 : 1;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    int c = text_cmp(a->where, a->where_len, b->where, b->where_len);
    return c ? c : text_cmp(a->function, a->function_len, b->function, b->function_len);
}

/* ---- the summary -------------------------------------------------------------------------- */

struct entry {
    uint64_t size;
    const struct gpu_pk *frames;
    int64_t birth, death; /* event indexes; birth -1: before the trace; death -1: still live */
};

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static gpu_status add_limited(uint64_t *m, uint64_t v, int dev, char *err, size_t n)
{
    if (v > MAGNITUDE_LIMIT || *m + v > MAGNITUDE_LIMIT) {
        if (err && n)
            snprintf(err, n, "sizes on device %d add up past 2^62 bytes: not a real snapshot", dev);
        return GPU_ERR_ARG;
    }
    *m += v;
    return GPU_OK;
}

/* groups by (where, function): a small open-addressing table over the group array */
struct gtab {
    struct gpu_snap_group *g;
    size_t n, cap;
    size_t *slot;
    size_t scap;
};

static size_t text_hash(const char *s, size_t n, size_t h)
{
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static bool gtab_add(struct gtab *t, struct gpu_snap_group *k, uint64_t bytes)
{
    if ((t->n + 1) * 2 > t->scap) {
        size_t cap = t->scap ? t->scap * 2 : 64;
        size_t *s = malloc(cap * sizeof *s);
        if (!s) return false;
        for (size_t i = 0; i < cap; i++) s[i] = SIZE_MAX;
        for (size_t j = 0; j < t->n; j++) {
            size_t h = text_hash(t->g[j].function, t->g[j].function_len,
                                 text_hash(t->g[j].where, t->g[j].where_len, 14695981039346656037ull));
            h &= cap - 1;
            while (s[h] != SIZE_MAX) h = (h + 1) & (cap - 1);
            s[h] = j;
        }
        free(t->slot);
        t->slot = s;
        t->scap = cap;
    }
    size_t h = text_hash(k->function, k->function_len,
                         text_hash(k->where, k->where_len, 14695981039346656037ull)) & (t->scap - 1);
    for (; t->slot[h] != SIZE_MAX; h = (h + 1) & (t->scap - 1)) {
        struct gpu_snap_group *g = &t->g[t->slot[h]];
        if (!text_cmp(g->where, g->where_len, k->where, k->where_len) &&
            !text_cmp(g->function, g->function_len, k->function, k->function_len)) {
            g->bytes += bytes;
            g->count++;
            group_free(k);
            return true;
        }
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        struct gpu_snap_group *g = realloc(t->g, cap * sizeof *g);
        if (!g) return false;
        t->g = g;
        t->cap = cap;
    }
    k->bytes = bytes;
    k->count = 1;
    t->g[t->n] = *k;
    t->slot[h] = t->n++;
    return true;
}

gpu_status gpu_snapshot_check_sizes(const struct gpu_snapshot *s, int d, size_t *nactive,
                                    char *err, size_t n)
{
    const struct gpu_snap_trace *tr =
        (size_t)d < s->ntraces ? &s->traces[d] : &(const struct gpu_snap_trace){NULL, 0};
    uint64_t mag = 0;
    size_t na = 0;
    gpu_status st = GPU_OK;
    for (size_t i = 0; i < s->nsegs && st == GPU_OK; i++) {
        const struct gpu_snap_segment *sg = &s->segs[i];
        if (sg->device != d) continue;
        st = add_limited(&mag, sg->size, d, err, n);
        for (size_t j = 0; j < sg->nblocks && st == GPU_OK; j++) {
            const struct gpu_snap_block *b = &s->blocks[sg->first_block + j];
            st = add_limited(&mag, b->size, d, err, n);
            if (st == GPU_OK && b->state != GPU_SNAP_INACTIVE) {
                st = add_limited(&mag, b->requested, d, err, n);
                na++;
            }
        }
    }
    for (size_t i = 0; i < tr->n && st == GPU_OK; i++) st = add_limited(&mag, tr->ev[i].size, d, err, n);
    if (nactive) *nactive = na;
    return st;
}

static gpu_status summarize_device(const struct gpu_snapshot *s, int d, size_t top,
                                   struct gpu_snap_device *o, struct fcache *fc, char *err, size_t n)
{
    memset(o, 0, sizeof *o);
    o->device = d;
    o->peak_event = o->reserved_peak_event = -1;
    const struct gpu_snap_trace *tr =
        (size_t)d < s->ntraces ? &s->traces[d] : &(const struct gpu_snap_trace){NULL, 0};
    /* first the size check, so no sum below can overflow */
    size_t nactive = 0;
    gpu_status st = gpu_snapshot_check_sizes(s, d, &nactive, err, n);
    if (st != GPU_OK) return st;

    /* the final state */
    for (size_t i = 0; i < s->nsegs; i++) {
        const struct gpu_snap_segment *sg = &s->segs[i];
        if (sg->device != d) continue;
        o->nsegs++;
        if (sg->small) o->nsmall++;
        else o->nlarge++;
        o->nexpandable += sg->expandable;
        o->reserved += sg->size;
        bool busy = false;
        uint64_t free_here = 0;
        for (size_t j = 0; j < sg->nblocks; j++) {
            const struct gpu_snap_block *b = &s->blocks[sg->first_block + j];
            struct gpu_snap_count *c = &o->blocks[b->state];
            c->count++;
            c->bytes += b->size;
            if (b->state != GPU_SNAP_INACTIVE) {
                c->requested += b->requested;
                o->snapshot_active_requested += b->requested;
                busy = true;
            } else {
                free_here += b->size;
                if (b->size > o->largest_free) o->largest_free = b->size;
            }
        }
        if (busy) o->non_releasable += free_here;
        else o->releasable += free_here;
    }

    /* the trace: counts, streams, times */
    o->events = tr->n;
    int64_t *streams = malloc((tr->n ? tr->n : 1) * sizeof *streams);
    if (!streams) return nomem(err, n);
    for (size_t i = 0; i < tr->n; i++) {
        const struct gpu_snap_event *e = &tr->ev[i];
        o->actions[e->action]++;
        streams[i] = e->stream;
        if (e->has_time) {
            if (!o->has_times) o->first_time = e->time_us;
            o->has_times = true;
            o->last_time = e->time_us;
        }
    }
    bool one = true; /* the usual case needs no sort */
    for (size_t i = 1; i < tr->n && one; i++) one = streams[i] == streams[0];
    if (!one) qsort(streams, tr->n, sizeof *streams, cmp_i64);
    for (size_t i = 0; i < tr->n; i++) o->streams += i == 0 || streams[i] != streams[i - 1];
    free(streams);

    /* every allocation known, with the events that made and freed it */
    size_t cap = o->actions[GPU_SNAP_ALLOC] + o->actions[GPU_SNAP_FREE_COMPLETED] + nactive + 1;
    struct entry *en = malloc(cap * sizeof *en);
    struct gpu_u64map live = {0};
    if (!en || !gpu_u64map_init(&live, o->actions[GPU_SNAP_ALLOC] + nactive + 1)) {
        free(en);
        gpu_u64map_free(&live);
        return nomem(err, n);
    }
    size_t ne = 0;
    for (size_t i = 0; i < tr->n; i++) {
        const struct gpu_snap_event *e = &tr->ev[i];
        if (e->action == GPU_SNAP_ALLOC) {
            (void)gpu_u64map_put(&live, e->addr, ne); /* a second alloc at a live address: the first stays
                                             live, as memory_viz shows it */
            en[ne++] = (struct entry){e->size, e->frames, (int64_t)i, -1};
        } else if (e->action == GPU_SNAP_FREE_COMPLETED) {
            size_t at = gpu_u64map_find(&live, e->addr);
            if (at == SIZE_MAX) {
                en[ne++] = (struct entry){e->size, e->frames, -1, (int64_t)i};
            } else {
                en[live.val[at]].death = (int64_t)i;
                gpu_u64map_del_at(&live, at);
            }
        }
    }
    for (size_t i = 0; i < s->nsegs; i++) {
        const struct gpu_snap_segment *sg = &s->segs[i];
        if (sg->device != d) continue;
        for (size_t j = 0; j < sg->nblocks; j++) {
            const struct gpu_snap_block *b = &s->blocks[sg->first_block + j];
            if (b->state != GPU_SNAP_INACTIVE && gpu_u64map_find(&live, b->addr) == SIZE_MAX)
                en[ne++] = (struct entry){b->requested, b->frames, -1, -1};
        }
    }
    gpu_u64map_free(&live);
    for (size_t i = 0; i < ne; i++)
        if (en[i].birth < 0) o->start_bytes += (int64_t)en[i].size, o->pre_trace_blocks++;

    /* live requested bytes forward from the start; reserved bytes back from the end */
    int64_t sum_delta = 0;
    for (size_t i = 0; i < tr->n; i++) {
        uint8_t a = tr->ev[i].action;
        if (a == GPU_SNAP_SEGMENT_ALLOC || a == GPU_SNAP_SEGMENT_MAP) sum_delta += (int64_t)tr->ev[i].size;
        if (a == GPU_SNAP_SEGMENT_FREE || a == GPU_SNAP_SEGMENT_UNMAP) sum_delta -= (int64_t)tr->ev[i].size;
    }
    o->reserved_start = (int64_t)o->reserved - sum_delta;
    int64_t cur = o->start_bytes, rcur = o->reserved_start;
    o->peak_bytes = cur;
    o->reserved_peak = rcur;
    o->nooms = 0;
    if (o->actions[GPU_SNAP_OOM]) {
        o->ooms = calloc(o->actions[GPU_SNAP_OOM], sizeof *o->ooms);
        if (!o->ooms) {
            free(en);
            return nomem(err, n);
        }
    }
    for (size_t i = 0; i < tr->n; i++) {
        const struct gpu_snap_event *e = &tr->ev[i];
        switch (e->action) {
        case GPU_SNAP_ALLOC: cur += (int64_t)e->size; break;
        case GPU_SNAP_FREE_COMPLETED: cur -= (int64_t)e->size; break;
        case GPU_SNAP_SEGMENT_ALLOC:
        case GPU_SNAP_SEGMENT_MAP: rcur += (int64_t)e->size; break;
        case GPU_SNAP_SEGMENT_FREE:
        case GPU_SNAP_SEGMENT_UNMAP: rcur -= (int64_t)e->size; break;
        }
        if (cur > o->peak_bytes) o->peak_bytes = cur, o->peak_event = (int64_t)i;
        if (rcur > o->reserved_peak) o->reserved_peak = rcur, o->reserved_peak_event = (int64_t)i;
        if (e->action == GPU_SNAP_OOM) {
            struct gpu_snap_oom *m = &o->ooms[o->nooms++];
            m->event = i;
            m->has_time = e->has_time;
            m->time_us = e->time_us;
            m->stream = e->stream;
            m->size = e->size;
            m->has_free = e->has_addr;
            m->device_free = e->addr;
            m->live_requested = cur;
            m->reserved = rcur;
            if (!user_frame(s, fc, e->frames, &m->where)) {
                free(en);
                return nomem(err, n);
            }
        }
    }
    o->end_bytes = cur;
    o->reserved_end = rcur;

    /* what was live at the peak, grouped by the first user frame */
    int64_t p = o->peak_event;
    struct gtab t = {0};
    bool ok = true;
    for (size_t i = 0; i < ne && ok; i++) {
        if (en[i].birth > p || (en[i].death >= 0 && en[i].death <= p)) continue;
        struct gpu_snap_group g;
        ok = user_frame(s, fc, en[i].frames, &g) && gtab_add(&t, &g, en[i].size);
        if (!ok) group_free(&g);
    }
    free(en);
    free(t.slot);
    if (!ok) {
        for (size_t i = 0; i < t.n; i++) group_free(&t.g[i]);
        free(t.g);
        return nomem(err, n);
    }
    if (t.n) qsort(t.g, t.n, sizeof *t.g, group_rank);
    for (size_t i = top; i < t.n; i++) group_free(&t.g[i]);
    o->top = t.g;
    o->ntop = t.n < top ? t.n : top;
    return GPU_OK;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

void gpu_snap_summary_free(struct gpu_snap_summary *sum)
{
    if (!sum) return;
    for (size_t i = 0; i < sum->ndev; i++) {
        struct gpu_snap_device *d = &sum->dev[i];
        for (size_t j = 0; j < d->ntop; j++) group_free(&d->top[j]);
        free(d->top);
        for (size_t j = 0; j < d->nooms; j++) group_free(&d->ooms[j].where);
        free(d->ooms);
    }
    free(sum->dev);
    memset(sum, 0, sizeof *sum);
}

gpu_status gpu_snapshot_summarize(const struct gpu_snapshot *s, size_t top,
                                  struct gpu_snap_summary *out, char *err, size_t n)
{
    if (err && n) err[0] = 0;
    if (!s || !out) return GPU_ERR_ARG;
    memset(out, 0, sizeof *out);
    /* devices: those with segments, and those with a non-empty trace */
    int *ids = malloc((s->nsegs + s->ntraces + 1) * sizeof *ids);
    if (!ids) return nomem(err, n);
    size_t k = 0;
    for (size_t i = 0; i < s->nsegs; i++) ids[k++] = s->segs[i].device;
    for (size_t i = 0; i < s->ntraces; i++)
        if (s->traces[i].n) ids[k++] = (int)i;
    qsort(ids, k, sizeof *ids, cmp_int);
    size_t nd = 0;
    for (size_t i = 0; i < k; i++)
        if (i == 0 || ids[i] != ids[i - 1]) ids[nd++] = ids[i];
    out->dev = calloc(nd ? nd : 1, sizeof *out->dev);
    if (!out->dev) {
        free(ids);
        return nomem(err, n);
    }
    struct fcache fc = {0};
    gpu_status st = GPU_OK;
    for (size_t i = 0; i < nd && st == GPU_OK; i++) {
        st = summarize_device(s, ids[i], top, &out->dev[i], &fc, err, n);
        out->ndev = i + 1;
    }
    free(fc.key);
    free(fc.val);
    free(ids);
    if (st != GPU_OK) gpu_snap_summary_free(out);
    return st;
}

bool gpu_snapshot_event_time(const struct gpu_snapshot *s, int device, int64_t i, int64_t *t)
{
    if (!s || device < 0 || (size_t)device >= s->ntraces || i < 0 ||
        (size_t)i >= s->traces[device].n || !s->traces[device].ev[i].has_time)
        return false;
    *t = s->traces[device].ev[i].time_us;
    return true;
}
