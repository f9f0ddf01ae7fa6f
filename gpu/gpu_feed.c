/* gpu_feed.c - programs that feed the GPU, backend-neutral: names of what they are made of, the
 * content a buffer holds as closed-form pieces (what a fill, a copy and the kernel's rounds
 * leave), the checks of a program, its plan (what every read and every buffer should hold, in
 * issue order), and the run: kernels sized on this device, buffers allocated within the caps,
 * the backend's run, every read and buffer checked, everything freed on every path. */
#include "gpu_feed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_float.h"
#include "gpu_pattern.h"

/* ---- names -------------------------------------------------------------------------------- */

#define GPU_X_WORD(name, word) word,
static const char *const mem_words[] = {GPU_MEM_LIST(GPU_X_WORD) NULL};
static const char *const op_words[] = {GPU_OP_LIST(GPU_X_WORD) NULL};
static const char *const lane_words[] = {GPU_LANE_LIST(GPU_X_WORD) NULL};
#undef GPU_X_WORD
static const char *const advice_words[] = {"read_mostly", "prefer_host", "prefer_device",
                                           "accessed_by", NULL};

static int parse_word(const char *const *words, const char *w)
{
    for (int i = 0; w && words[i]; i++)
        if (!strcmp(words[i], w)) return i;
    return -1;
}

const char *gpu_mem_name(enum gpu_mem k) { return (unsigned)k < GPU_MEM_COUNT ? mem_words[k] : "?"; }
int gpu_mem_parse(const char *w) { return parse_word(mem_words, w); }
const char *gpu_op_name(enum gpu_op_kind k) { return (unsigned)k < GPU_OP_COUNT ? op_words[k] : "?"; }
int gpu_op_parse(const char *w) { return parse_word(op_words, w); }
const char *gpu_lane_name(enum gpu_lane l) { return (unsigned)l < GPU_LANE_COUNT ? lane_words[l] : "?"; }
const char *gpu_advice_name(enum gpu_advice a)
{
    return (unsigned)a < GPU_ADVISE_COUNT ? advice_words[a] : "?";
}
int gpu_advice_parse(const char *w) { return parse_word(advice_words, w); }

bool gpu_mem_host(enum gpu_mem k)
{
    return k == GPU_MEM_PAGEABLE || k == GPU_MEM_PINNED || k == GPU_MEM_REGISTERED ||
           k == GPU_MEM_MAPPED;
}

/* ---- content ------------------------------------------------------------------------------ */

void gpu_feed_rounds(uint64_t rounds, uint32_t *a, uint32_t *c)
{
    /* (a, c) o (a, c): x -> a (a x + c) + c; square-and-multiply over the bits of rounds */
    uint32_t ra = 1, rc = 0, pa = GPU_FEED_A, pc = GPU_FEED_C;
    for (; rounds; rounds >>= 1) {
        if (rounds & 1) ra = pa * ra, rc = pa * rc + pc;
        pc = pa * pc + pc;
        pa = pa * pa;
    }
    *a = ra, *c = rc;
}

uint32_t gpu_feed_expect(const struct gpu_content_seg *s, uint64_t x)
{
    uint32_t p = (uint32_t)gpu_pattern_word(s->seed, s->base + (x - s->off) / 4);
    return s->a * p + s->c;
}

void gpu_feed_content_init(struct gpu_feed_content *c, uint64_t bytes)
{
    c->n = 1;
    c->s[0] = (struct gpu_content_seg){.off = 0, .end = bytes};
}

/* s clipped to [lo, hi) (which it overlaps) */
static struct gpu_content_seg clip(struct gpu_content_seg s, uint64_t lo, uint64_t hi)
{
    if (s.off < lo) s.base += (lo - s.off) / 4, s.off = lo;
    if (s.end > hi) s.end = hi;
    return s;
}

static bool joins(const struct gpu_content_seg *a, const struct gpu_content_seg *b)
{
    if (a->end != b->off || a->known != b->known) return false;
    if (!a->known) return true;
    return a->seed == b->seed && a->a == b->a && a->c == b->c &&
           a->base + (a->end - a->off) / 4 == b->base;
}

/* Replace [lo, hi) of c by the pieces p[0..n) (which cover it, in order); neighbours that
 * continue each other join, and past GPU_PROG_MAX_SEGS pieces the two smallest neighbours
 * become one piece that holds nothing known. */
static void put(struct gpu_feed_content *c, uint64_t lo, uint64_t hi,
                const struct gpu_content_seg *p, int n)
{
    struct gpu_content_seg out[3 * GPU_PROG_MAX_SEGS];
    int k = 0;
    for (int i = 0; i < c->n; i++)
        if (c->s[i].off < lo) out[k++] = clip(c->s[i], c->s[i].off, lo);
    for (int i = 0; i < n; i++) out[k++] = p[i];
    for (int i = 0; i < c->n; i++)
        if (c->s[i].end > hi) out[k++] = clip(c->s[i], hi, c->s[i].end);
    int m = 0;
    for (int i = 0; i < k; i++) {
        if (out[i].off >= out[i].end) continue;
        if (m && joins(&out[m - 1], &out[i])) out[m - 1].end = out[i].end;
        else out[m++] = out[i];
    }
    while (m > GPU_PROG_MAX_SEGS) {
        int best = 0;
        for (int i = 1; i + 1 < m; i++)
            if (out[i].end - out[i - 1].off < out[best + 1].end - out[best].off) best = i - 1;
        out[best] = (struct gpu_content_seg){.off = out[best].off, .end = out[best + 1].end};
        memmove(&out[best + 1], &out[best + 2], (size_t)(m - best - 2) * sizeof out[0]);
        m--;
    }
    memcpy(c->s, out, (size_t)m * sizeof out[0]);
    c->n = m;
}

void gpu_feed_content_fill(struct gpu_feed_content *c, uint64_t off, uint64_t bytes,
                           uint32_t seed)
{
    struct gpu_content_seg s = {off, off + bytes, true, seed, 1, 0, off / 4};
    put(c, off, off + bytes, &s, 1);
}

void gpu_feed_content_set(struct gpu_feed_content *c, const struct gpu_content_seg *p, int n)
{
    if (n > 0) put(c, p[0].off, p[n - 1].end, p, n);
}

void gpu_feed_content_forget(struct gpu_feed_content *c, uint64_t off, uint64_t bytes)
{
    struct gpu_content_seg s = {.off = off, .end = off + bytes};
    put(c, off, off + bytes, &s, 1);
}

int gpu_feed_content_range(const struct gpu_feed_content *c, uint64_t off, uint64_t bytes,
                           struct gpu_content_seg *out, int max)
{
    int k = 0;
    for (int i = 0; i < c->n; i++) {
        if (c->s[i].end <= off || c->s[i].off >= off + bytes) continue;
        if (k == max) return -1;
        out[k++] = clip(c->s[i], off, off + bytes);
    }
    return k;
}

void gpu_feed_content_copy(struct gpu_feed_content *dst, uint64_t doff,
                           const struct gpu_feed_content *src, uint64_t soff, uint64_t bytes)
{
    struct gpu_content_seg p[GPU_PROG_MAX_SEGS];
    int n = gpu_feed_content_range(src, soff, bytes, p, GPU_PROG_MAX_SEGS);
    for (int i = 0; i < n; i++) p[i].off = p[i].off - soff + doff, p[i].end = p[i].end - soff + doff;
    put(dst, doff, doff + bytes, p, n); /* after the copy out of src: dst may be src */
}

void gpu_feed_content_rounds(struct gpu_feed_content *c, uint64_t off, uint64_t bytes,
                             uint64_t rounds)
{
    struct gpu_content_seg p[GPU_PROG_MAX_SEGS];
    uint32_t ra, rc;
    gpu_feed_rounds(rounds, &ra, &rc);
    int n = gpu_feed_content_range(c, off, bytes, p, GPU_PROG_MAX_SEGS);
    for (int i = 0; i < n; i++)
        if (p[i].known) p[i].c = ra * p[i].c + rc, p[i].a = ra * p[i].a;
    put(c, off, off + bytes, p, n);
}

uint64_t gpu_feed_content_diff(const struct gpu_feed_content *got,
                               const struct gpu_feed_content *want, uint64_t off, uint64_t bytes)
{
    uint64_t wrong = 0;
    for (int i = 0; i < want->n; i++) {
        const struct gpu_content_seg w = want->s[i];
        if (!w.known || w.end <= off || w.off >= off + bytes) continue;
        for (int j = 0; j < got->n; j++) {
            const struct gpu_content_seg g = got->s[j];
            uint64_t lo = g.off > w.off ? g.off : w.off, hi = g.end < w.end ? g.end : w.end;
            if (lo < off) lo = off;
            if (hi > off + bytes) hi = off + bytes;
            if (lo >= hi) continue;
            bool same = g.known && g.seed == w.seed && g.a == w.a && g.c == w.c &&
                        g.base + (lo - g.off) / 4 == w.base + (lo - w.off) / 4;
            if (!same) wrong += (hi - lo) / 4;
        }
    }
    return wrong;
}

/* ---- checks ------------------------------------------------------------------------------- */

static gpu_status bad(struct gpu_dev *dev, int i, const char *what)
{
    if (i >= 0) gpu_set_why(dev, "program: operation %d: %s", i + 1, what);
    else gpu_set_why(dev, "program: %s", what);
    return GPU_ERR_ARG;
}

/* [off, off + bytes) of buffer b, bytes 0 meaning the rest: in the buffer, in whole words */
static bool range_ok(const struct gpu_prog *p, int b, uint64_t off, uint64_t *bytes)
{
    if (b < 0 || b >= p->nbuf) return false;
    uint64_t size = p->buf[b].bytes;
    if (off % 4 || off >= size) return false;
    if (!*bytes) *bytes = size - off;
    return *bytes % 4 == 0 && *bytes <= size - off;
}

static bool device_reach(enum gpu_mem k)
{
    return k == GPU_MEM_DEVICE || k == GPU_MEM_MAPPED || k == GPU_MEM_MANAGED;
}

gpu_status gpu_prog_check(struct gpu_dev *dev, const struct gpu_prog *p)
{
    bool recorded[GPU_PROG_MAX_EVENTS] = {0};
    double asked = 0;
    if (p->nbuf < 1 || p->nbuf > GPU_PROG_MAX_BUFS) return bad(dev, -1, "1 to 16 buffers");
    if (p->nop < 0 || p->nop > GPU_PROG_MAX_OPS) return bad(dev, -1, "at most 512 operations");
    for (int b = 0; b < p->nbuf; b++)
        if ((unsigned)p->buf[b].kind >= GPU_MEM_COUNT || !p->buf[b].bytes ||
            p->buf[b].bytes % 4 || p->buf[b].bytes > ((uint64_t)1 << 46))
            return bad(dev, -1, "a buffer needs a kind and a size in whole 4-byte words");
    for (int i = 0; i < p->nop; i++) {
        const struct gpu_prog_op *o = &p->op[i];
        uint64_t n = o->bytes, sn = o->bytes;
        bool on_stream = o->kind != GPU_OP_CPU && o->kind != GPU_OP_SYNC &&
                         o->kind != GPU_OP_HOST_FILL && o->kind != GPU_OP_ADVISE;
        if ((unsigned)o->kind >= GPU_OP_COUNT) return bad(dev, i, "unknown kind");
        if (on_stream && (o->stream < 0 || o->stream >= GPU_PROG_MAX_STREAMS))
            return bad(dev, i, "stream must be 0 to 7");
        if (o->kind == GPU_OP_SYNC && (o->stream < -1 || o->stream >= GPU_PROG_MAX_STREAMS))
            return bad(dev, i, "sync waits for a stream 0 to 7, or -1 for all");
        if (!(o->seconds >= 0 && o->seconds <= 10)) return bad(dev, i, "seconds must be 0 to 10");
        switch (o->kind) {
        case GPU_OP_COPY: {
            if (!range_ok(p, o->buf, o->off, &n) || !range_ok(p, o->src, o->src_off, &sn))
                return bad(dev, i, "copy range outside its buffers, or not in whole words");
            if (o->bytes == 0 && n != sn)
                return bad(dev, i, "copy between ranges of different sizes: give bytes");
            enum gpu_mem d = p->buf[o->buf].kind, s = p->buf[o->src].kind;
            if (gpu_mem_host(d) && gpu_mem_host(s))
                return bad(dev, i, "a copy between two host buffers is the CPU's work (memcpy)");
            if (d == GPU_MEM_MANAGED || s == GPU_MEM_MANAGED)
                return bad(dev, i, "managed memory moves by prefetch or by kernels, not by copy");
            if (o->buf == o->src && o->off < o->src_off + n && o->src_off < o->off + n)
                return bad(dev, i, "a copy onto an overlapping range of the same buffer");
            break;
        }
        case GPU_OP_KERNEL:
        case GPU_OP_READ:
        case GPU_OP_FILL:
            if (!range_ok(p, o->buf, o->off, &n)) return bad(dev, i, "range outside its buffer");
            if (!device_reach(p->buf[o->buf].kind))
                return bad(dev, i, "kernels reach device, mapped and managed memory only");
            break;
        case GPU_OP_HOST_FILL:
            if (!range_ok(p, o->buf, o->off, &n)) return bad(dev, i, "range outside its buffer");
            if (!gpu_mem_host(p->buf[o->buf].kind) && p->buf[o->buf].kind != GPU_MEM_MANAGED)
                return bad(dev, i, "the CPU writes host and managed memory only");
            break;
        case GPU_OP_PREFETCH:
        case GPU_OP_ADVISE:
            if (!range_ok(p, o->buf, o->off, &n)) return bad(dev, i, "range outside its buffer");
            if (p->buf[o->buf].kind != GPU_MEM_MANAGED)
                return bad(dev, i, "prefetch and advice are for managed memory");
            if (o->advice < 0 ||
                o->advice >= (o->kind == GPU_OP_PREFETCH ? 2 : (int)GPU_ADVISE_COUNT))
                return bad(dev, i, "unknown advice or prefetch target");
            break;
        case GPU_OP_RECORD:
        case GPU_OP_WAIT:
            if (o->event < 0 || o->event >= GPU_PROG_MAX_EVENTS)
                return bad(dev, i, "event must be 0 to 31");
            if (o->kind == GPU_OP_WAIT && !recorded[o->event])
                return bad(dev, i, "waits for an event no earlier operation records");
            recorded[o->event] = true;
            break;
        default:
            break;
        }
        if (o->kind == GPU_OP_KERNEL || o->kind == GPU_OP_CPU) asked += o->seconds;
    }
    if (asked > 60) return bad(dev, -1, "kernels and host work ask for more than 60 s in all");
    return GPU_OK;
}

uint64_t gpu_prog_op_bytes(const struct gpu_prog *p, const struct gpu_prog_op *o)
{
    if (o->buf < 0) return 0;
    return o->bytes ? o->bytes : p->buf[o->buf].bytes - o->off;
}

bool gpu_prog_holdable(const struct gpu_prog *p)
{
    bool device = false;
    for (int i = 0; i < p->nop; i++) {
        const struct gpu_prog_op *o = &p->op[i];
        if (o->kind == GPU_OP_CPU || o->kind == GPU_OP_SYNC) return false;
        if (o->kind == GPU_OP_HOST_FILL && device) return false;
        if (o->kind == GPU_OP_COPY && (p->buf[o->buf].kind == GPU_MEM_PAGEABLE ||
                                       p->buf[o->src].kind == GPU_MEM_PAGEABLE))
            return false;
        if (o->kind != GPU_OP_HOST_FILL && o->kind != GPU_OP_ADVISE) device = true;
    }
    return true;
}

/* ---- plan --------------------------------------------------------------------------------- */

/* What the program should leave, in issue order: the content of every buffer after each
 * operation; each read's expected pieces kept for the backend. */
static gpu_status plan(struct gpu_dev *dev, const struct gpu_prog *p, struct gpu_feed_plan *pl)
{
    struct gpu_feed_content *c = pl->want_end;
    for (int b = 0; b < p->nbuf; b++) gpu_feed_content_init(&c[b], p->buf[b].bytes);
    pl->nread_seg = 0;
    for (int i = 0; i < p->nop; i++) {
        const struct gpu_prog_op *o = &p->op[i];
        uint64_t n = gpu_prog_op_bytes(p, o);
        pl->read_first[i] = pl->read_n[i] = 0;
        switch (o->kind) {
        case GPU_OP_COPY:
            gpu_feed_content_copy(&c[o->buf], o->off, &c[o->src], o->src_off, n);
            break;
        case GPU_OP_KERNEL: gpu_feed_content_rounds(&c[o->buf], o->off, n, o->rounds); break;
        case GPU_OP_FILL:
        case GPU_OP_HOST_FILL: gpu_feed_content_fill(&c[o->buf], o->off, n, o->seed); break;
        case GPU_OP_READ: {
            struct gpu_content_seg *out = &pl->read_seg[pl->nread_seg];
            int room = (int)(sizeof pl->read_seg / sizeof pl->read_seg[0]) - pl->nread_seg;
            int k = gpu_feed_content_range(&c[o->buf], o->off, n, out,
                                           room < GPU_FEED_READ_SEGS ? room : GPU_FEED_READ_SEGS);
            if (k < 0)
                return bad(dev, i, "the range read holds more than 16 pieces of content");
            for (int j = 0; j < k; j++)
                if (!out[j].known) return bad(dev, i, "reads bytes no operation wrote before it");
            pl->read_first[i] = pl->nread_seg;
            pl->read_n[i] = k;
            pl->nread_seg += k;
            break;
        }
        default:
            break;
        }
    }
    return GPU_OK;
}

/* ---- allocation --------------------------------------------------------------------------- */

gpu_status gpu_feed_alloc(struct gpu_dev *dev, enum gpu_mem kind, uint64_t bytes, void **ptr,
                          double *seconds)
{
    *ptr = NULL;
    *seconds = 0;
    if (dev->failed) return GPU_ERR_STICKY;
    if (!dev->be->feed || kind == GPU_MEM_DEVICE || (unsigned)kind >= GPU_MEM_COUNT || !bytes) {
        gpu_set_why(dev, "feed: no %s allocation here", gpu_mem_name(kind));
        return GPU_ERR_ARG;
    }
    if (gpu_fault_at(dev, __builtin_return_address(0))) return GPU_ERR_HOST_NOMEM;
    gpu_status st = dev->be->feed->alloc(dev, kind, bytes, ptr, seconds);
    if (st == GPU_OK) dev->live_host++;
    return st;
}

gpu_status gpu_feed_free(struct gpu_dev *dev, enum gpu_mem kind, void *ptr, uint64_t bytes,
                         double *seconds)
{
    *seconds = 0;
    if (!ptr) return GPU_OK;
    if (dev->live_host > 0) dev->live_host--;
    return dev->be->feed->free(dev, kind, ptr, bytes, seconds);
}

static void free_bufs(struct gpu_dev *dev, struct gpu_prog *p)
{
    for (int b = 0; b < p->nbuf; b++) {
        struct gpu_prog_buf *x = &p->buf[b];
        if (!x->ptr) continue;
        if (x->kind == GPU_MEM_DEVICE) {
            double t0 = gpu_now();
            gpu_free(dev, x->ptr, x->bytes);
            x->free_s = gpu_now() - t0;
        } else {
            gpu_feed_free(dev, x->kind, x->ptr, x->bytes, &x->free_s);
        }
        x->ptr = NULL;
    }
}

/* Bytes a real run may hold in host and managed memory: half the RAM, or the run's host cap. */
static uint64_t host_room(const struct gpu_dev *dev)
{
    struct gpu_host_info hi;
    gpu_host_info(&hi);
    uint64_t b = hi.ram_bytes ? hi.ram_bytes / 2 : (uint64_t)64 << 30;
    return dev->host_max && dev->host_max < b ? dev->host_max : b;
}

/* Each kernel's rounds, measured once per (bytes, seconds) on a scratch buffer of the largest
 * size a kernel works on. */
static gpu_status size_kernels(struct gpu_dev *dev, struct gpu_prog *p)
{
    uint64_t most = 0;
    for (int i = 0; i < p->nop; i++) {
        struct gpu_prog_op *o = &p->op[i];
        if (o->kind != GPU_OP_KERNEL) continue;
        uint64_t n = gpu_prog_op_bytes(p, o);
        if (n > most) most = n;
    }
    if (!most) return GPU_OK;
    void *scratch = NULL;
    gpu_status st = gpu_alloc(dev, most, &scratch);
    for (int i = 0; st == GPU_OK && i < p->nop; i++) {
        struct gpu_prog_op *o = &p->op[i];
        if (o->kind != GPU_OP_KERNEL) continue;
        uint64_t n = gpu_prog_op_bytes(p, o);
        o->rounds = 0;
        for (int j = 0; j < i && !o->rounds; j++) {
            const struct gpu_prog_op *q = &p->op[j];
            if (q->kind == GPU_OP_KERNEL && gpu_prog_op_bytes(p, q) == n &&
                gpu_feq(q->seconds, o->seconds))
                o->rounds = q->rounds;
        }
        if (!o->rounds) st = dev->be->feed->calibrate(dev, scratch, n, o->seconds, &o->rounds);
        if (st == GPU_OK && !o->rounds) o->rounds = 1;
    }
    gpu_free(dev, scratch, most);
    return st;
}

gpu_status gpu_prog_run(struct gpu_dev *dev, struct gpu_prog *p, gpu_cancel_flag *cancel)
{
    p->seconds = 0;
    p->simulated = dev->info.simulated;
    p->validated = p->held = false;
    p->engines = dev->info.async_engines;
    p->warn = 0;
    p->race_a = p->race_b = -1;
    memset(p->wrong_end, 0, sizeof p->wrong_end);
    for (int b = 0; b < GPU_PROG_MAX_BUFS; b++) {
        p->buf[b].ptr = NULL;
        p->buf[b].alloc_s = p->buf[b].free_s = 0;
    }
    for (int i = 0; i < p->nop && i < GPU_PROG_MAX_OPS; i++) {
        struct gpu_prog_op *o = &p->op[i];
        o->start = o->end = o->issue = o->ret = 0;
        o->faulted = o->evicted = o->wrong = 0;
        o->lane = GPU_LANE_HOST;
    }
    if (dev->failed) return GPU_ERR_STICKY;
    if (!dev->be->feed) {
        gpu_set_why(dev, "the %s backend runs no programs", dev->be->name);
        return GPU_ERR_UNSUPPORTED;
    }
    gpu_status st = gpu_prog_check(dev, p);
    if (st != GPU_OK) return st;
    uint64_t host = 0, room = host_room(dev);
    for (int b = 0; b < p->nbuf; b++)
        if (p->buf[b].kind != GPU_MEM_DEVICE) host += p->buf[b].bytes;
    if ((dev->be->caps & GPU_CAP_REAL) && host > room) {
        gpu_set_why_key(dev, GPU_WHY_FEED_HOST_CAP, host / 1048576.0, room / 1048576.0, 0, 0);
        return GPU_ERR_CAP;
    }
    if ((st = size_kernels(dev, p)) != GPU_OK) return st;
    struct gpu_feed_plan *pl = calloc(1, sizeof *pl);
    if (!pl) {
        gpu_set_why(dev, "program: no host memory for its plan");
        return GPU_ERR_HOST_NOMEM;
    }
    st = plan(dev, p, pl);
    for (int b = 0; st == GPU_OK && b < p->nbuf; b++) {
        struct gpu_prog_buf *x = &p->buf[b];
        if (x->kind == GPU_MEM_DEVICE) {
            double t0 = gpu_now();
            st = gpu_alloc(dev, x->bytes, &x->ptr);
            x->alloc_s = gpu_now() - t0;
        } else {
            st = gpu_feed_alloc(dev, x->kind, x->bytes, &x->ptr, &x->alloc_s);
        }
    }
    if (st == GPU_OK && gpu_cancelled(cancel)) st = GPU_ERR_CANCELLED;
    if (st == GPU_OK) st = dev->be->feed->run(dev, p, pl, cancel);
    free_bufs(dev, p);
    free(pl);
    if (st != GPU_OK) return st;
    /* every read, then every buffer: the first wrong one is the error */
    for (int i = 0; i < p->nop; i++) {
        const struct gpu_prog_op *o = &p->op[i];
        if (!o->wrong) continue;
        if (p->race_a >= 0)
            gpu_set_why_key(dev, GPU_WHY_FEED_RACE, p->race_a + 1, p->race_b + 1, 0, 0);
        else
            gpu_set_why_key(dev, GPU_WHY_FEED_WRONG, i + 1, o->buf + 1, (double)o->wrong,
                            (double)(gpu_prog_op_bytes(p, o) / 4));
        return GPU_ERR_VALIDATION;
    }
    for (int b = 0; b < p->nbuf; b++) {
        if (!p->wrong_end[b]) continue;
        if (p->race_a >= 0)
            gpu_set_why_key(dev, GPU_WHY_FEED_RACE, p->race_a + 1, p->race_b + 1, 0, 0);
        else
            gpu_set_why_key(dev, GPU_WHY_FEED_WRONG_END, b + 1, (double)p->wrong_end[b],
                            (double)(p->buf[b].bytes / 4), 0);
        return GPU_ERR_VALIDATION;
    }
    p->validated = true;
    if (dev->be->shared && dev->be->shared(dev)) p->warn |= GPU_WARN_SHARED_GPU;
    return GPU_OK;
}

gpu_status gpu_feed_pin(struct gpu_dev *dev, enum gpu_mem kind, uint64_t bytes, int trials,
                        double *alloc_s, double *free_s, gpu_cancel_flag *cancel)
{
    *alloc_s = *free_s = 0;
    if (trials < 1 || trials > 16 || kind == GPU_MEM_DEVICE || (unsigned)kind >= GPU_MEM_COUNT ||
        !bytes) {
        gpu_set_why(dev, "pin: a host or managed kind, bytes > 0 and 1 to 16 trials");
        return GPU_ERR_ARG;
    }
    if ((dev->be->caps & GPU_CAP_REAL) && bytes > host_room(dev)) {
        gpu_set_why_key(dev, GPU_WHY_FEED_HOST_CAP, bytes / 1048576.0, host_room(dev) / 1048576.0,
                        0, 0);
        return GPU_ERR_CAP;
    }
    gpu_status st = GPU_OK;
    for (int t = 0; st == GPU_OK && t < trials; t++) {
        void *ptr = NULL;
        double a = 0, f = 0;
        if (gpu_cancelled(cancel)) return GPU_ERR_CANCELLED;
        st = gpu_feed_alloc(dev, kind, bytes, &ptr, &a);
        if (st == GPU_OK) st = gpu_feed_free(dev, kind, ptr, bytes, &f);
        if (st == GPU_OK && (!t || a < *alloc_s)) *alloc_s = a;
        if (st == GPU_OK && (!t || f < *free_s)) *free_s = f;
    }
    return st;
}
