/* gpu_snapshot.c - reading a PyTorch memory snapshot out of its pickle (the dictionary that
 * torch/csrc/cuda/memory_snapshot.cpp builds for torch.cuda.memory._snapshot()) into the
 * compact model of gpu_snapshot.h, and its accessors. The file comes through the safe reader
 * (read into pages of its own, dropped as the parse passes them), the document is freed once the
 * model is made. Every container the file shares (frame dicts, frame lists, the memo) is read
 * once, by identity; what is built (entries, blocks, segments) is budgeted by the file's bytes,
 * so a small file whose lists are references to one list cannot make a large model. */
#include "gpu_snap_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_file.h"
#include "gpu_u64map.h"

#define GPU_SNAP_X_NAME(id, name) name,
const char *const gpu_snap_action_names[GPU_SNAP_NACTIONS] = {GPU_SNAP_ACTIONS(GPU_SNAP_X_NAME)};
#undef GPU_SNAP_X_NAME
const char *const gpu_snap_state_names[GPU_SNAP_NSTATES] = {"active_allocated",
                                                            "active_pending_free", "inactive"};

#define MAX_STREAMS 65535
/* Entries, blocks and segments a file may make: a real one spends tens of bytes on each (a
 * dict of six keys); only references to one shared container come this cheap. */
#define BYTES_PER_ITEM 2
#define ITEM_ALLOWANCE 4096

static gpu_status bad(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static gpu_status bad(char *err, size_t n, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    gpu_errf(err, n, "not a PyTorch memory snapshot (%s)", what);
    return GPU_ERR_ARG;
}

static gpu_status nomem(char *err, size_t n)
{
    if (err && n) gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
    return GPU_ERR_HOST_NOMEM;
}

static gpu_status cancelled(char *err, size_t n)
{
    if (err && n) gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_CANCELLED));
    return GPU_ERR_CANCELLED;
}

/* ---- text storage: chunks that never move ------------------------------------------------- */

struct gpu_snap_chunk {
    struct gpu_snap_chunk *next;
    size_t used, cap;
    char data[];
};

static const char *text_copy(struct gpu_snapshot *s, const char *t, size_t n)
{
    struct gpu_snap_chunk *c = s->text;
    if (!c || c->cap - c->used < n + 1) {
        size_t cap = n + 1 > (256u << 10) ? n + 1 : (256u << 10);
        c = malloc(sizeof *c + cap);
        if (!c) return NULL;
        c->cap = cap;
        c->used = 0;
        c->next = s->text;
        s->text = c;
    }
    char *p = c->data + c->used;
    memcpy(p, t, n);
    p[n] = 0;
    c->used += n + 1;
    return p;
}

/* ---- the file's keys -------------------------------------------------------------------- */

struct keys {
    const char *segments, *device_traces, *allocator_settings, *device, *address, *total_size,
        *blocks, *segment_type, *is_expandable, *stream, *size, *state, *requested_size, *frames,
        *history, *real_size, *action, *addr, *device_free, *time_us, *conf, *max_split_size,
        *expandable_segments, *gc, *roundup, *overflowed, *filename, *line, *name, *pool_id,
        *annotations, *stage;
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
    K(overflowed, "trace_alloc_overflowed"); K(filename, "filename"); K(line, "line");
    K(name, "name"); K(pool_id, "segment_pool_id"); K(annotations, "external_annotations");
    K(stage, "stage");
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

/* ---- stacks and frames, each read once ------------------------------------------------------ */

struct reader {
    struct gpu_snapshot *s;
    struct keys k;
    struct gpu_u64map frame_of, stack_of, stream_of; /* by the file's identity / by value */
    size_t frames_cap, stacks_cap, sf_cap;
    size_t budget;                                   /* items still allowed */
};

static bool grow(void **p, size_t *cap, size_t want, size_t size)
{
    if (want <= *cap) return true;
    size_t c = *cap ? *cap : 64;
    while (c < want) c *= 2;
    void *q = realloc(*p, c * size);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}

static bool take_budget(struct reader *r, size_t k)
{
    if (k > r->budget) return false;
    r->budget -= k;
    return true;
}

static gpu_status over_budget(const struct reader *r, const char *what, char *err, size_t n)
{
    return bad(err, n, "%s: more entries than a file of %zu bytes can hold without pointing many "
                       "times at one shared list", what, r->s->file_bytes);
}

/* The frame id of one element of a frames list (0: not a frame dict). */
static bool frame_id(struct reader *r, const struct gpu_pk *f, uint32_t *out)
{
    struct gpu_snapshot *s = r->s;
    *out = 0;
    if (gpu_pk_type(f) != GPU_PK_DICT) return true;
    uint64_t key = (uint64_t)(uintptr_t)gpu_pk_identity(f);
    size_t at = gpu_u64map_find(&r->frame_of, key);
    if (at != SIZE_MAX) {
        *out = (uint32_t)r->frame_of.val[at];
        return true;
    }
    if (!grow((void **)&s->frames, &r->frames_cap, s->nframes + 1, sizeof *s->frames)) return false;
    struct gpu_snap_frame *fr = &s->frames[s->nframes];
    memset(fr, 0, sizeof *fr);
    size_t fn = 0, nn = 0;
    const char *file = gpu_pk_str(gpu_pk_get(f, r->k.filename), &fn);
    const char *name = gpu_pk_str(gpu_pk_get(f, r->k.name), &nn);
    int64_t line = 0;
    bool ok = file && name && gpu_pk_int(gpu_pk_get(f, r->k.line), &line) && fn < UINT32_MAX &&
              nn < UINT32_MAX;
    if (ok) {
        fr->file = text_copy(s, file, fn);
        fr->name = text_copy(s, name, nn);
        if (!fr->file || !fr->name) return false;
        fr->file_len = (uint32_t)fn, fr->name_len = (uint32_t)nn;
        fr->line = line;
        fr->kind = (uint8_t)gpu_snap_frame_classify(name, nn, file, fn);
    } else {
        fr->file = fr->name = "";
        fr->kind = GPU_SNAP_FRAME_BAD;
    }
    *out = (uint32_t)s->nframes++;
    return gpu_u64map_put(&r->frame_of, key, *out);
}

/* The stack id of a frames value (0: none, or not a list). */
static gpu_status stack_id(struct reader *r, const struct gpu_pk *v, uint32_t *out, char *err,
                           size_t n)
{
    struct gpu_snapshot *s = r->s;
    *out = 0;
    size_t nf = gpu_pk_type(v) == GPU_PK_LIST ? gpu_pk_len(v) : 0;
    if (!nf) return GPU_OK;
    uint64_t key = (uint64_t)(uintptr_t)gpu_pk_items_id(v); /* equal lists: one stack */
    size_t at = gpu_u64map_find(&r->stack_of, key);
    if (at != SIZE_MAX) {
        *out = (uint32_t)r->stack_of.val[at];
        return GPU_OK;
    }
    if (s->nstacks >= UINT32_MAX - 1 || s->nstack_frames + nf >= UINT32_MAX)
        return bad(err, n, "more stacks than a snapshot can hold");
    if (!grow((void **)&s->stacks, &r->stacks_cap, s->nstacks + 1, sizeof *s->stacks) ||
        !grow((void **)&s->stack_frames, &r->sf_cap, s->nstack_frames + nf, sizeof *s->stack_frames))
        return nomem(err, n);
    struct gpu_snap_stack *st = &s->stacks[s->nstacks];
    st->first = (uint32_t)s->nstack_frames;
    st->n = (uint32_t)nf;
    st->user = -1;
    for (size_t i = 0; i < nf; i++) {
        uint32_t id;
        if (!frame_id(r, gpu_pk_at(v, i), &id)) return nomem(err, n);
        s->stack_frames[s->nstack_frames++] = id;
        if (st->user < 0 && s->frames[id].kind == GPU_SNAP_FRAME_USER) st->user = (int32_t)i;
    }
    *out = (uint32_t)s->nstacks++;
    if (!gpu_u64map_put(&r->stack_of, key, *out)) return nomem(err, n);
    return GPU_OK;
}

/* ---- segments and blocks ------------------------------------------------------------------ */

static gpu_status read_block(struct reader *r, const struct gpu_pk *b, struct gpu_snap_block *o,
                             uint64_t *addr, const struct where *where, char *err, size_t n)
{
    const struct keys *k = &r->k;
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
    o->stack = 0;
    if (fr) {
        if ((st = stack_id(r, fr, &o->stack, err, n)) != GPU_OK) return st;
        if ((st = get_size(b, k->requested_size, "requested_size", (int64_t)o->size, &o->requested,
                           where, err, n)) != GPU_OK)
            return st;
    } else { /* the older format: the allocation's history */
        const struct gpu_pk *h = gpu_pk_get(b, k->history);
        if (h && gpu_pk_type(h) != GPU_PK_NONE) r->s->legacy_blocks++;
        const struct gpu_pk *h0 = gpu_pk_type(h) == GPU_PK_LIST ? gpu_pk_at(h, 0) : NULL;
        if (gpu_pk_type(h0) == GPU_PK_DICT) {
            if ((st = stack_id(r, gpu_pk_get(h0, k->frames), &o->stack, err, n)) != GPU_OK) return st;
            struct where w = {W_HISTORY, where->i, where->j};
            if ((st = get_size(h0, k->real_size, "real_size", -1, &o->requested, &w, err, n)) !=
                GPU_OK)
                return st;
        } else if ((st = get_size(b, k->requested_size, "requested_size", (int64_t)o->size,
                                  &o->requested, where, err, n)) != GPU_OK) {
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

static gpu_status read_segments(struct reader *r, const struct gpu_pk *segs,
                                const gpu_cancel_flag *cancel, char *err, size_t n)
{
    struct gpu_snapshot *s = r->s;
    const struct keys *k = &r->k;
    size_t nseg = gpu_pk_len(segs), nblk = 0;
    for (size_t i = 0; i < nseg; i++) {
        const struct gpu_pk *sg = gpu_pk_at(segs, i);
        if (gpu_pk_type(sg) != GPU_PK_DICT) return bad(err, n, "segments[%zu] is not a dict", i);
        const struct gpu_pk *bl = gpu_pk_get(sg, k->blocks);
        if (gpu_pk_type(bl) != GPU_PK_LIST)
            return bad(err, n, "segments[%zu] has no 'blocks' list", i);
        nblk += gpu_pk_len(bl);
        if (!take_budget(r, 1 + gpu_pk_len(bl))) return over_budget(r, "segments", err, n);
    }
    s->segs = calloc(nseg ? nseg : 1, sizeof *s->segs);
    s->blocks = calloc(nblk ? nblk : 1, sizeof *s->blocks);
    if (!s->segs || !s->blocks) return nomem(err, n);
    for (size_t i = 0; i < nseg; i++) {
        if ((i & (GPU_SNAP_CHECK_EVERY - 1)) == 0 && gpu_cancelled(cancel)) return cancelled(err, n);
        const struct gpu_pk *sg = gpu_pk_at(segs, i);
        struct gpu_snap_segment *o = &s->segs[s->nsegs++];
        struct where where = {W_SEG, i, 0};
        const struct gpu_pk *dv = gpu_pk_get(sg, k->device);
        int64_t dev = 0;
        if (dv && !gpu_pk_int(dv, &dev)) dev = -1;
        if (dev < 0 || dev > GPU_SNAP_MAX_DEVICE)
            return bad(err, n, "segments[%zu].device is not a device index", i);
        o->device = (int)dev;
        gpu_status st = get_size(sg, k->address, "address", -1, &o->addr, &where, err, n);
        if (st == GPU_OK) st = get_size(sg, k->total_size, "total_size", -1, &o->size, &where, err, n);
        if (st == GPU_OK) st = stack_id(r, gpu_pk_get(sg, k->frames), &o->stack, err, n);
        if (st != GPU_OK) return st;
        o->small = gpu_pk_is_str(gpu_pk_get(sg, k->segment_type), "small");
        bool bv = false;
        o->expandable = gpu_pk_bool(gpu_pk_get(sg, k->is_expandable), &bv) && bv;
        o->stream = 0;
        gpu_pk_int(gpu_pk_get(sg, k->stream), &o->stream);
        const struct gpu_pk *pool = gpu_pk_get(sg, k->pool_id);
        enum gpu_pk_type pt = gpu_pk_type(pool);
        if ((pt == GPU_PK_TUPLE || pt == GPU_PK_LIST) && gpu_pk_len(pool) == 2)
            for (int j = 0; j < 2; j++)
                if (!gpu_pk_int(gpu_pk_at(pool, (size_t)j), &o->pool[j])) o->pool[j] = 0;
        const struct gpu_pk *bl = gpu_pk_get(sg, k->blocks);
        o->first_block = s->nblocks;
        o->nblocks = gpu_pk_len(bl);
        uint64_t addr = o->addr;
        for (size_t j = 0; j < o->nblocks; j++) {
            struct where bw = {W_BLOCK, i, j};
            if ((st = read_block(r, gpu_pk_at(bl, j), &s->blocks[s->nblocks++], &addr, &bw, err, n)) !=
                GPU_OK)
                return st;
        }
    }
    return GPU_OK;
}

/* ---- trace entries ------------------------------------------------------------------------ */

static uint8_t action_of(const struct keys *k, const struct gpu_pk *v)
{
    for (int i = 0; i < GPU_SNAP_OTHER; i++) /* interned: a pointer says it */
        if (k->actions[i] && gpu_pk_str(v, NULL) == k->actions[i]) return (uint8_t)i;
    return GPU_SNAP_OTHER;
}

static gpu_status stream_index(struct reader *r, int64_t v, uint16_t *out, char *err, size_t n)
{
    struct gpu_snapshot *s = r->s;
    size_t at = gpu_u64map_find(&r->stream_of, (uint64_t)v);
    if (at != SIZE_MAX) {
        *out = (uint16_t)r->stream_of.val[at];
        return GPU_OK;
    }
    if (s->nstreams >= MAX_STREAMS) return bad(err, n, "more than %d streams", MAX_STREAMS);
    int64_t *p = realloc(s->streams, (s->nstreams + 1) * sizeof *p);
    if (!p) return nomem(err, n);
    s->streams = p;
    p[s->nstreams] = v;
    *out = (uint16_t)s->nstreams++;
    return gpu_u64map_put(&r->stream_of, (uint64_t)v, *out) ? GPU_OK : nomem(err, n);
}

static gpu_status read_event(struct reader *r, const struct gpu_pk *e, struct gpu_snap_event *o,
                             size_t d, size_t i, char *err, size_t n)
{
    const struct keys *k = &r->k;
    struct where wh = {W_EVENT, d, i}, *w = &wh;
    char wb[128];
    if (gpu_pk_type(e) != GPU_PK_DICT) return bad(err, n, "%s is not a dict", where_text(w, wb, sizeof wb));
    const struct gpu_pk *a = gpu_pk_get(e, k->action);
    if (gpu_pk_type(a) != GPU_PK_STR)
        return bad(err, n, "%s has no 'action'", where_text(w, wb, sizeof wb));
    memset(o, 0, sizeof *o);
    o->action = action_of(k, a);
    gpu_status st = get_size(e, k->size, "size", o->action == GPU_SNAP_OTHER ? 0 : -1, &o->size,
                             w, err, n);
    if (st != GPU_OK) return st;
    if (o->action == GPU_SNAP_OOM) {
        const struct gpu_pk *f = gpu_pk_get(e, k->device_free);
        int64_t fv;
        if (f && gpu_pk_type(f) != GPU_PK_NONE) {
            if (!gpu_pk_int(f, &fv) || fv < 0)
                return bad(err, n, "%s.device_free is not a size", where_text(w, wb, sizeof wb));
            o->addr = (uint64_t)fv;
            o->flags |= GPU_SNAP_HAS_ADDR;
        }
    } else if (o->action != GPU_SNAP_OTHER) {
        if ((st = get_size(e, k->addr, "addr", -1, &o->addr, w, err, n)) != GPU_OK) return st;
        o->flags |= GPU_SNAP_HAS_ADDR;
    }
    const struct gpu_pk *sv = gpu_pk_get(e, k->stream);
    int64_t stream = 0;
    if (sv && !gpu_pk_int(sv, &stream))
        return bad(err, n, "%s.stream is not a whole number", where_text(w, wb, sizeof wb));
    if ((st = stream_index(r, stream, &o->stream, err, n)) != GPU_OK) return st;
    const struct gpu_pk *tv = gpu_pk_get(e, k->time_us);
    if (tv && gpu_pk_type(tv) != GPU_PK_NONE) {
        if (!gpu_pk_int(tv, &o->time_us))
            return bad(err, n, "%s.time_us is not a whole number", where_text(w, wb, sizeof wb));
        o->flags |= GPU_SNAP_HAS_TIME;
    }
    return stack_id(r, gpu_pk_get(e, k->frames), &o->stack, err, n);
}

static gpu_status read_traces(struct reader *r, const struct gpu_pk *traces,
                              const gpu_cancel_flag *cancel, char *err, size_t n)
{
    struct gpu_snapshot *s = r->s;
    s->ntraces = gpu_pk_len(traces);
    if (s->ntraces > GPU_SNAP_MAX_DEVICE + 1) return bad(err, n, "more than %d device traces", GPU_SNAP_MAX_DEVICE + 1);
    s->dev = calloc(s->ntraces ? s->ntraces : 1, sizeof *s->dev);
    if (!s->dev) return nomem(err, n);
    for (size_t d = 0; d < s->ntraces; d++) {
        const struct gpu_pk *tr = gpu_pk_at(traces, d);
        if (gpu_pk_type(tr) != GPU_PK_LIST) return bad(err, n, "device_traces[%zu] is not a list", d);
        size_t ne = gpu_pk_len(tr);
        if (!take_budget(r, ne)) return over_budget(r, "device_traces", err, n);
        if (ne >= UINT32_MAX - 1) return bad(err, n, "device_traces[%zu] is too long", d);
        struct gpu_snap_dev *dv = &s->dev[d];
        dv->ev = malloc((ne ? ne : 1) * sizeof *dv->ev);
        if (!dv->ev) return nomem(err, n);
        for (size_t i = 0; i < ne; i++) {
            if ((i & (GPU_SNAP_CHECK_EVERY - 1)) == 0 && gpu_cancelled(cancel)) return cancelled(err, n);
            gpu_status st = read_event(r, gpu_pk_at(tr, i), &dv->ev[i], d, i, err, n);
            if (st != GPU_OK) return st;
            dv->n++;
        }
    }
    return GPU_OK;
}

/* ---- settings and annotations ------------------------------------------------------------- */

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

static bool read_settings(struct reader *r, const struct gpu_pk *st)
{
    const struct keys *k = &r->k;
    struct gpu_snap_settings *o = &r->s->settings;
    memset(o, 0, sizeof *o);
    o->expandable = -1;
    if (gpu_pk_type(st) != GPU_PK_DICT) return true;
    o->present = true;
    const char *conf = gpu_pk_str(gpu_pk_get(st, k->conf), &o->conf_len);
    if (conf && !(o->conf = text_copy(r->s, conf, o->conf_len))) return false;
    int64_t i;
    bool b;
    if (gpu_pk_int(gpu_pk_get(st, k->max_split_size), &i) && i > 0) o->max_split_size = (uint64_t)i;
    if (gpu_pk_bool(gpu_pk_get(st, k->expandable_segments), &b)) o->expandable = b;
    o->has_gc = gpu_pk_float(gpu_pk_get(st, k->gc), &o->gc_threshold);
    o->trace_overflowed = gpu_pk_bool(gpu_pk_get(st, k->overflowed), &b) && b;
    const struct gpu_pk *v = gpu_pk_get(st, k->roundup);
    if (gpu_pk_type(v) != GPU_PK_DICT) return true;
    o->has_roundup = true;
    /* dict.values(): the first position of each key, the last value given for it (a file has
     * a few; at most 64 are looked at, so this stays small) */
    size_t np = gpu_pk_len(v);
    if (np > 256) np = 256;
    for (size_t j = 0; j < np && o->nroundup < 64; j++) {
        const struct gpu_pk *key = gpu_pk_at(v, j);
        bool seen = false;
        for (size_t m = 0; m < j && !seen; m++) seen = key_equal(gpu_pk_at(v, m), key);
        if (seen) continue;
        const struct gpu_pk *val = gpu_pk_dict_value(v, j);
        for (size_t m = j + 1; m < gpu_pk_len(v); m++)
            if (key_equal(gpu_pk_at(v, m), key)) val = gpu_pk_dict_value(v, m);
        o->roundup_ok[o->nroundup] = gpu_pk_int(val, &o->roundup[o->nroundup]);
        if (!o->roundup_ok[o->nroundup]) o->roundup[o->nroundup] = 0;
        o->nroundup++;
    }
    return true;
}

/* external_annotations: entries without a str name and a str stage are left out. */
static gpu_status read_annotations(struct reader *r, const struct gpu_pk *v, char *err, size_t n)
{
    struct gpu_snapshot *s = r->s;
    if (gpu_pk_type(v) != GPU_PK_LIST) return GPU_OK;
    size_t na = gpu_pk_len(v);
    if (!take_budget(r, na)) return over_budget(r, "external_annotations", err, n);
    s->ann = calloc(na ? na : 1, sizeof *s->ann);
    if (!s->ann) return nomem(err, n);
    for (size_t i = 0; i < na; i++) {
        const struct gpu_pk *e = gpu_pk_at(v, i);
        size_t nl = 0;
        const char *name = gpu_pk_str(gpu_pk_get(e, r->k.name), &nl);
        const struct gpu_pk *stage = gpu_pk_get(e, r->k.stage);
        if (!name || gpu_pk_type(stage) != GPU_PK_STR || nl >= UINT32_MAX) continue;
        struct gpu_snap_annotation *a = &s->ann[s->nann];
        int64_t dev = 0;
        const struct gpu_pk *dv = gpu_pk_get(e, r->k.device);
        if (dv && (!gpu_pk_int(dv, &dev) || dev < 0 || dev > GPU_SNAP_MAX_DEVICE)) continue;
        a->device = (int)dev;
        a->start = gpu_pk_is_str(stage, "START");
        a->has_time = gpu_pk_int(gpu_pk_get(e, r->k.time_us), &a->time_us);
        if (!(a->name = text_copy(s, name, nl))) return nomem(err, n);
        a->name_len = (uint32_t)nl;
        s->nann++;
    }
    return GPU_OK;
}

/* ---- loading ------------------------------------------------------------------------------ */

void gpu_snapshot_free(struct gpu_snapshot *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->ntraces; i++) gpu_snap_walk_free(&s->dev[i]);
    free(s->dev);
    free(s->segs);
    free(s->blocks);
    free(s->streams);
    free(s->ann);
    free(s->frames);
    free(s->stacks);
    free(s->stack_frames);
    while (s->text) {
        struct gpu_snap_chunk *nx = s->text->next;
        free(s->text);
        s->text = nx;
    }
    free(s);
}

gpu_status gpu_snapshot_from_doc(struct gpu_pk_doc *doc, const gpu_cancel_flag *cancel,
                                 struct gpu_snapshot **out, char *err, size_t n)
{
    if (err && n) err[0] = 0;
    if (!out || !doc) {
        gpu_pk_free(doc);
        return GPU_ERR_ARG;
    }
    *out = NULL;
    struct reader r = {0};
    struct gpu_snapshot *s = r.s = calloc(1, sizeof *s);
    if (!s) {
        gpu_pk_free(doc);
        return nomem(err, n);
    }
    s->file_bytes = gpu_pk_file_bytes(doc);
    s->protocol = gpu_pk_protocol(doc);
    r.budget = s->file_bytes / BYTES_PER_ITEM + ITEM_ALLOWANCE;
    keys_init(&r.k, doc);
    gpu_status st = GPU_OK;
    /* stack 0: no frames; frame 0: not a frame */
    s->stacks = calloc(1, sizeof *s->stacks);
    s->frames = calloc(1, sizeof *s->frames);
    if (!s->stacks || !s->frames || !gpu_u64map_init(&r.frame_of, 1024) ||
        !gpu_u64map_init(&r.stack_of, 1024) || !gpu_u64map_init(&r.stream_of, 16)) {
        st = nomem(err, n);
    } else {
        s->stacks[0].user = -1;
        s->nstacks = r.stacks_cap = 1;
        s->frames[0].file = s->frames[0].name = "";
        s->nframes = r.frames_cap = 1;
    }
    const struct gpu_pk *root = gpu_pk_root(doc);
    const struct gpu_pk *segs = gpu_pk_get(root, r.k.segments);
    const struct gpu_pk *traces = gpu_pk_get(root, r.k.device_traces);
    if (st != GPU_OK) {
    } else if (gpu_pk_type(root) != GPU_PK_DICT) {
        st = bad(err, n, "the pickle holds a %s, not a dict", gpu_pk_type_name(root));
    } else if (!segs) {
        st = bad(err, n, "no 'segments' key");
    } else if (gpu_pk_type(segs) != GPU_PK_LIST) {
        st = bad(err, n, "'segments' is not a list");
    } else if (traces && gpu_pk_type(traces) != GPU_PK_NONE && gpu_pk_type(traces) != GPU_PK_LIST) {
        st = bad(err, n, "'device_traces' is not a list");
    }
    if (st == GPU_OK) st = read_segments(&r, segs, cancel, err, n);
    if (st == GPU_OK && gpu_pk_type(traces) == GPU_PK_LIST) st = read_traces(&r, traces, cancel, err, n);
    if (st == GPU_OK && !read_settings(&r, gpu_pk_get(root, r.k.allocator_settings))) st = nomem(err, n);
    if (st == GPU_OK) st = read_annotations(&r, gpu_pk_get(root, r.k.annotations), err, n);
    gpu_u64map_free(&r.frame_of);
    gpu_u64map_free(&r.stack_of);
    gpu_u64map_free(&r.stream_of);
    gpu_pk_free(doc); /* the model holds copies of what it needs */
    if (st == GPU_OK) st = gpu_snap_walk_prepare(s, cancel, err, n);
    if (st != GPU_OK) {
        gpu_snapshot_free(s);
        return st;
    }
    *out = s;
    return GPU_OK;
}

gpu_status gpu_snapshot_parse(const void *buf, size_t len, const struct gpu_pk_limits *lim,
                              const gpu_cancel_flag *cancel, struct gpu_snapshot **out, char *err,
                              size_t n)
{
    if (out) *out = NULL;
    struct gpu_pk_doc *doc;
    struct gpu_pk_run run = {.lim = lim, .cancel = cancel};
    gpu_status st = gpu_pk_parse_run(buf, len, &run, &doc, err, n);
    if (st != GPU_OK) return st;
    return gpu_snapshot_from_doc(doc, cancel, out, err, n);
}

static void drop_pages(void *ud, size_t upto) { gpu_file_map_drop(ud, upto); }

/* A file read (gpu_file_map): parse, model, unmap; errors prefixed with the path. */
static gpu_status load_map(struct gpu_file_map *m, const char *path, const gpu_cancel_flag *cancel,
                           struct gpu_snapshot **out, char *err, size_t n)
{
    struct gpu_pk_limits lim = {.max_file = GPU_SNAPSHOT_MAX_FILE};
    struct gpu_pk_run run = {.lim = &lim, .cancel = cancel, .consumed = drop_pages, .ud = m};
    struct gpu_pk_doc *doc = NULL;
    char why[512];
    gpu_status st = gpu_pk_parse_run(m->data, m->len, &run, &doc, why, sizeof why);
    gpu_file_unmap(m); /* the document holds copies */
    if (st == GPU_OK) st = gpu_snapshot_from_doc(doc, cancel, out, why, sizeof why);
    if (st != GPU_OK) gpu_errf(err, n, "%s: %s", path, why);
    return st;
}

gpu_status gpu_snapshot_load(const char *path, const gpu_cancel_flag *cancel,
                             struct gpu_snapshot **out, char *err, size_t n)
{
    if (err && n) err[0] = 0;
    if (!path || !out) return GPU_ERR_ARG;
    *out = NULL;
    struct gpu_file_map m;
    if (!gpu_file_map(path, GPU_SNAPSHOT_MAX_FILE, GPU_FILE_STDIN, &m, err, n)) return GPU_ERR_ARG;
    return load_map(&m, path, cancel, out, err, n);
}

gpu_status gpu_snapshot_load_fd(int fd, const char *path, uint64_t max, const gpu_cancel_flag *cancel,
                                struct gpu_snapshot **out, char *err, size_t n)
{
    if (err && n) err[0] = 0;
    if (!path || !out) return GPU_ERR_ARG;
    *out = NULL;
    if (max > GPU_SNAPSHOT_MAX_FILE) max = GPU_SNAPSHOT_MAX_FILE;
    struct gpu_file_map m;
    if (!gpu_file_map_fd(fd, path, (size_t)max, &m, err, n)) return GPU_ERR_ARG;
    return load_map(&m, path, cancel, out, err, n);
}
