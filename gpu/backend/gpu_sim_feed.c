/* gpu_sim_feed.c - programs on the simulator (gpu_feed.h): a host thread that issues the calls
 * in order (each costs launch_us; a pageable copy and a sync block it), streams that run their
 * operations in order, copy engines (async_engines: one for everything, or one per direction
 * and a third for device copies), the SMs running one kernel at a time, and the PCIe link's two
 * directions shared fairly between what crosses them. Managed buffers keep how much of them is
 * on the device: a kernel's access faults the rest in, evicting what no longer fits (the least
 * recently used buffer first). What each operation leaves is followed in the order it ran, so a
 * program that lets two operations use the same bytes at once, or reads before the copy it
 * needs, fails its check as it would on a GPU. Everything here is SIMULATED (docs/simulator.md,
 * "Feeding the GPU"). */
#include "gpu_feed.h"
#include "gpu_sim.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define HOST_WRITE_BPS 10e9 /* the CPU writing a pattern: one thread's store rate (model) */
#define EPS 1e-12

/* Host and managed buffers are never backed: addresses from a range nothing else uses. */
static _Atomic uintptr_t next_fake = 0x7d0000000000ull;

static const struct gpu_profile *prof(struct gpu_dev *dev) { return gpu_sim_profile(dev); }

/* The pinned copy rate over one direction of the link. */
static double link_bps(const struct gpu_profile *p)
{
    double l = gpu_pcie_bytes_per_s(p->info.pcie_gen, p->info.pcie_width) * p->pcie_efficiency;
    return l > 0 ? l : 1e9;
}

static double alloc_model(const struct gpu_profile *p, enum gpu_mem kind, uint64_t bytes)
{
    double gib = bytes / 1073741824.0;
    switch (kind) {
    case GPU_MEM_PINNED:
    case GPU_MEM_MAPPED: return 20e-6 + gib * p->pin_alloc_s_per_gib;
    case GPU_MEM_REGISTERED: return 10e-6 + gib * p->pin_register_s_per_gib;
    default: return 5e-6; /* malloc and cudaMallocManaged reserve addresses, touch nothing */
    }
}

static gpu_status sf_alloc(struct gpu_dev *dev, enum gpu_mem kind, uint64_t bytes, void **ptr,
                           double *seconds)
{
    *seconds = gpu_sim_noisy(dev, alloc_model(prof(dev), kind, bytes));
    uintptr_t step = (bytes + 4095) / 4096 * 4096;
    *ptr = (void *)atomic_fetch_add(&next_fake, step + 4096);
    return GPU_OK;
}

/* Unpinning is modelled at a tenth of pinning (no public figure found). */
static gpu_status sf_free(struct gpu_dev *dev, enum gpu_mem kind, void *ptr, uint64_t bytes,
                          double *seconds)
{
    *seconds = gpu_sim_noisy(dev, 0.1 * alloc_model(prof(dev), kind, bytes));
    return GPU_OK;
}

/* The model runs a kernel for the time asked; any round count serves the content's closed form. */
static gpu_status sf_calibrate(struct gpu_dev *dev, void *scratch, uint64_t bytes, double seconds,
                               uint64_t *rounds)
{
    *rounds = 1 + (uint64_t)(seconds * 1e6);
    return GPU_OK;
}

/* ---- the run ------------------------------------------------------------------------------ */

enum { S_WAIT, S_ISSUED, S_LAT, S_XFER, S_DONE };
enum { R_A, R_B, R_C, R_SM, R_COUNT, R_NONE = -1 };

struct sop {
    int st;
    double ready;          /* the call returned: the device may start it */
    double lat_end;        /* its fixed start-up cost ends */
    double dh, dd, floor;  /* bytes over each direction of the link; the shortest time */
    double done;           /* share of the work done */
    int res;
    int prev;              /* the operation issued before it on its stream (-1) */
    bool raced;
    uint64_t n;
};

struct mbuf {
    uint64_t on_dev;       /* bytes of a managed buffer resident on the device */
    bool read_mostly, remote; /* advice: duplicates; accessed where it lies (no migration) */
    double used;           /* last access, for eviction */
};

struct ctx {
    struct gpu_dev *dev;
    const struct gpu_profile *pf;
    struct gpu_prog *p;
    const struct gpu_feed_plan *pl;
    struct sop so[GPU_PROG_MAX_OPS];
    struct mbuf mb[GPU_PROG_MAX_BUFS];
    struct gpu_feed_content got[GPU_PROG_MAX_BUFS];
    int busy[R_COUNT];     /* operation holding each resource, -1 free */
    int last_record[GPU_PROG_MAX_EVENTS];
    double L, room;        /* pinned link rate; device bytes free for managed pages */
    double host_end[GPU_PROG_MAX_OPS]; /* host_fill: until when the CPU writes */
};

static enum gpu_lane copy_lane(const struct gpu_prog *p, const struct gpu_prog_op *o)
{
    bool dh = gpu_mem_host(p->buf[o->buf].kind), sh = gpu_mem_host(p->buf[o->src].kind);
    return sh ? GPU_LANE_H2D : dh ? GPU_LANE_D2H : GPU_LANE_D2D;
}

static int lane_res(const struct ctx *x, enum gpu_lane l)
{
    int e = x->pf->async_engines;
    if (l == GPU_LANE_SM) return R_SM;
    if (e <= 1) return R_A;
    if (l == GPU_LANE_D2H) return R_B;
    if (l == GPU_LANE_D2D) return e >= 3 ? R_C : R_A;
    return R_A;
}

/* What an operation writes and reads: a byte range of a buffer each (buf -1: none). */
struct span {
    int buf;
    uint64_t lo, hi;
};
static void spans(const struct gpu_prog *p, const struct gpu_prog_op *o, struct span *w,
                  struct span *r)
{
    uint64_t n = gpu_prog_op_bytes(p, o);
    *w = *r = (struct span){-1, 0, 0};
    switch (o->kind) {
    case GPU_OP_COPY:
        *w = (struct span){o->buf, o->off, o->off + n};
        *r = (struct span){o->src, o->src_off, o->src_off + n};
        break;
    case GPU_OP_KERNEL:
        *w = *r = (struct span){o->buf, o->off, o->off + n};
        break;
    case GPU_OP_FILL:
    case GPU_OP_HOST_FILL: *w = (struct span){o->buf, o->off, o->off + n}; break;
    case GPU_OP_READ: *r = (struct span){o->buf, o->off, o->off + n}; break;
    default: break;
    }
}

static bool meet(struct span a, struct span b)
{
    return a.buf >= 0 && a.buf == b.buf && a.lo < b.hi && b.lo < a.hi;
}

static bool conflict(const struct gpu_prog *p, int i, int j)
{
    struct span wi, ri, wj, rj;
    spans(p, &p->op[i], &wi, &ri);
    spans(p, &p->op[j], &wj, &rj);
    return meet(wi, wj) || meet(wi, rj) || meet(wj, ri);
}

/* Operation i starts while j is under way on the same bytes: both are raced. */
static void race(struct ctx *x, int i, int j)
{
    x->so[i].raced = x->so[j].raced = true;
    if (x->p->race_a < 0) x->p->race_a = j < i ? j : i, x->p->race_b = j < i ? i : j;
}

static void race_check(struct ctx *x, int i, double t)
{
    for (int j = 0; j < x->p->nop; j++) {
        if (j == i) continue;
        int st = x->so[j].st;
        bool live = st == S_LAT || st == S_XFER ||
                    (x->p->op[j].kind == GPU_OP_HOST_FILL && x->host_end[j] > t + EPS);
        if (x->p->op[i].kind == GPU_OP_HOST_FILL) /* the CPU writes now: anything issued and not done */
            live = st == S_ISSUED || st == S_LAT || st == S_XFER;
        if (live && conflict(x->p, i, j)) race(x, i, j);
    }
}

/* Evict the least recently used other managed buffers until `need` more bytes are free for b. */
static uint64_t evict_others(struct ctx *x, int b, double need)
{
    uint64_t out = 0;
    for (;;) {
        double used = 0;
        for (int k = 0; k < x->p->nbuf; k++) used += x->mb[k].on_dev;
        if (x->room - used >= need) break;
        int lru = -1;
        for (int k = 0; k < x->p->nbuf; k++)
            if (k != b && x->mb[k].on_dev && (lru < 0 || x->mb[k].used < x->mb[lru].used)) lru = k;
        if (lru < 0) break;
        double give = need - (x->room - used);
        uint64_t g = give >= x->mb[lru].on_dev ? x->mb[lru].on_dev : (uint64_t)ceil(give);
        x->mb[lru].on_dev -= g;
        out += g;
    }
    return out;
}

/* A device access of n bytes of managed buffer b: faulted in, evicted, reached over the link. */
static void um_access(struct ctx *x, int b, uint64_t n, double t, uint64_t *faulted,
                      uint64_t *evicted, uint64_t *remote)
{
    struct mbuf *m = &x->mb[b];
    uint64_t size = x->p->buf[b].bytes;
    uint64_t missing = (uint64_t)((double)n * (double)(size - m->on_dev) / (double)size);
    *faulted = *evicted = *remote = 0;
    m->used = t;
    if (m->remote) {
        *remote = missing;
        return;
    }
    *evicted = evict_others(x, b, (double)missing);
    double others = 0;
    for (int k = 0; k < x->p->nbuf; k++)
        if (k != b) others += x->mb[k].on_dev;
    uint64_t room = x->room > others ? (uint64_t)(x->room - others) : 0;
    if (m->on_dev + missing <= room) {
        *faulted = missing;
        m->on_dev += missing;
    } else if (n <= room) { /* the range fits; other parts of b make way */
        *faulted = missing;
        *evicted += m->on_dev + missing - room;
        m->on_dev = room;
    } else { /* larger than the device: a pass evicts what it will need next (LRU) */
        *faulted = n;
        *evicted += m->on_dev + n - room;
        m->on_dev = room;
    }
}

/* The work of operation i, its lane and resource, at its start. */
static void work(struct ctx *x, int i, double t)
{
    struct gpu_prog *p = x->p;
    struct gpu_prog_op *o = &p->op[i];
    struct sop *s = &x->so[i];
    const struct gpu_profile *pf = x->pf;
    double hbm = pf->info.peak_bytes_per_s * pf->sm_efficiency, zc = pf->zerocopy_efficiency;
    uint64_t n = s->n, f = 0, ev = 0, rem = 0;
    s->dh = s->dd = s->floor = 0;
    switch (o->kind) {
    case GPU_OP_COPY: {
        o->lane = copy_lane(p, o);
        bool pageable = p->buf[o->buf].kind == GPU_MEM_PAGEABLE ||
                        p->buf[o->src].kind == GPU_MEM_PAGEABLE;
        double link = pageable ? (double)n / pf->pageable_factor : (double)n;
        if (o->lane == GPU_LANE_H2D) s->dh = link;
        else if (o->lane == GPU_LANE_D2H) s->dd = link;
        else s->floor = 2.0 * n / (pf->info.peak_bytes_per_s * pf->ce_efficiency);
        break;
    }
    case GPU_OP_KERNEL:
    case GPU_OP_READ:
    case GPU_OP_FILL: {
        o->lane = GPU_LANE_SM;
        enum gpu_mem k = p->buf[o->buf].kind;
        bool reads = o->kind != GPU_OP_FILL, writes = o->kind != GPU_OP_READ;
        double dev = (reads + writes) * (double)n / hbm;
        if (k == GPU_MEM_MAPPED) {
            if (reads) s->dh = n / zc;
            if (writes) s->dd = n / zc;
        } else if (k == GPU_MEM_MANAGED) {
            um_access(x, o->buf, n, t, &f, &ev, &rem);
            bool duplicates = x->mb[o->buf].read_mostly && !writes;
            s->dh = f / pf->um_fault_efficiency + (duplicates ? 0 : ev / pf->um_evict_efficiency);
            if (reads) s->dh += rem / zc;
            if (writes) s->dd += rem / zc;
            s->floor = dev * (double)(n - rem) / (double)n;
        } else {
            s->floor = dev;
        }
        if (o->kind == GPU_OP_KERNEL && o->seconds > s->floor) s->floor = o->seconds;
        break;
    }
    case GPU_OP_PREFETCH: {
        struct mbuf *m = &x->mb[o->buf];
        uint64_t size = p->buf[o->buf].bytes;
        m->used = t;
        if (o->advice == 0) { /* to the device: what is missing, as far as it fits */
            o->lane = GPU_LANE_H2D;
            uint64_t missing = (uint64_t)((double)n * (double)(size - m->on_dev) / (double)size);
            ev = evict_others(x, o->buf, (double)missing);
            double others = 0;
            for (int k = 0; k < p->nbuf; k++)
                if (k != o->buf) others += x->mb[k].on_dev;
            uint64_t room = x->room > others ? (uint64_t)(x->room - others) : 0;
            f = m->on_dev + missing <= room ? missing : room > m->on_dev ? room - m->on_dev : 0;
            m->on_dev += f;
            s->dh = f / pf->um_prefetch_efficiency + ev / pf->um_evict_efficiency;
        } else { /* to the host: what is on the device */
            o->lane = GPU_LANE_D2H;
            uint64_t back = (uint64_t)((double)n * (double)m->on_dev / (double)size);
            m->on_dev -= back;
            s->dd = back / pf->um_prefetch_efficiency;
        }
        break;
    }
    default: break;
    }
    o->faulted = f;
    o->evicted = ev;
    double noise = gpu_sim_noisy(x->dev, 1.0);
    s->dh *= noise, s->dd *= noise, s->floor *= noise;
}

static bool startable(const struct ctx *x, int i, double t)
{
    const struct sop *s = &x->so[i];
    const struct gpu_prog_op *o = &x->p->op[i];
    if (s->st != S_ISSUED || s->ready > t + EPS) return false;
    if (s->prev >= 0 && x->so[s->prev].st != S_DONE) return false;
    if (o->kind == GPU_OP_WAIT) {
        int r = -1;
        for (int j = 0; j < i; j++)
            if (x->p->op[j].kind == GPU_OP_RECORD && x->p->op[j].event == o->event) r = j;
        if (r >= 0 && x->so[r].st != S_DONE) return false;
    }
    return s->res == R_NONE || x->busy[s->res] < 0;
}

static void finish(struct ctx *x, int i, double t)
{
    struct gpu_prog *p = x->p;
    struct gpu_prog_op *o = &p->op[i];
    struct sop *s = &x->so[i];
    uint64_t n = s->n;
    s->st = S_DONE;
    o->end = t;
    if (s->res != R_NONE && x->busy[s->res] == i) x->busy[s->res] = -1;
    struct span w, r;
    spans(p, o, &w, &r);
    if (s->raced) {
        if (w.buf >= 0) gpu_feed_content_forget(&x->got[w.buf], w.lo, w.hi - w.lo);
        if (o->kind == GPU_OP_READ) o->wrong = n / 4;
        return;
    }
    if (x->dev->fault_corrupt) { /* VRAMLAB_FAULT_CORRUPT: copies move nothing, kernels spoil */
        if (o->kind == GPU_OP_KERNEL) gpu_feed_content_forget(&x->got[o->buf], o->off, n);
        if (o->kind == GPU_OP_READ) o->wrong = n / 4;
        if (o->kind != GPU_OP_FILL) return;
    }
    switch (o->kind) {
    case GPU_OP_COPY:
        gpu_feed_content_copy(&x->got[o->buf], o->off, &x->got[o->src], o->src_off, n);
        break;
    case GPU_OP_KERNEL: gpu_feed_content_rounds(&x->got[o->buf], o->off, n, o->rounds); break;
    case GPU_OP_FILL: gpu_feed_content_fill(&x->got[o->buf], o->off, n, o->seed); break;
    case GPU_OP_READ: {
        struct gpu_feed_content *want = malloc(sizeof *want);
        if (!want) {
            o->wrong = n / 4; /* cannot compare: never a pass */
            break;
        }
        gpu_feed_content_init(want, p->buf[o->buf].bytes);
        gpu_feed_content_set(want, &x->pl->read_seg[x->pl->read_first[i]], x->pl->read_n[i]);
        o->wrong = gpu_feed_content_diff(&x->got[o->buf], want, o->off, n);
        free(want);
        break;
    }
    default: break;
    }
}

static void start(struct ctx *x, int i, double t)
{
    struct sop *s = &x->so[i];
    struct gpu_prog_op *o = &x->p->op[i];
    o->start = t;
    race_check(x, i, t);
    if (o->kind == GPU_OP_RECORD || o->kind == GPU_OP_WAIT) {
        finish(x, i, t);
        return;
    }
    work(x, i, t);
    x->busy[s->res] = i;
    s->lat_end = t + x->pf->copy_overhead_us * 1e-6;
    s->done = 0;
    s->st = S_LAT;
}

/* The host's side of operation i at time t; true when it blocks the host. */
static void issue(struct ctx *x, int i, double t, bool held, double *hfree, int *hblock)
{
    struct gpu_prog *p = x->p;
    struct gpu_prog_op *o = &p->op[i];
    struct sop *s = &x->so[i];
    const struct gpu_profile *pf = x->pf;
    double launch = held ? 0 : gpu_sim_noisy(x->dev, pf->launch_us * 1e-6);
    o->issue = t;
    o->lane = GPU_LANE_HOST;
    switch (o->kind) {
    case GPU_OP_CPU:
        o->start = t, o->end = o->ret = t + gpu_sim_noisy(x->dev, o->seconds);
        *hfree = o->end;
        s->st = S_DONE;
        return;
    case GPU_OP_SYNC:
        o->start = t;
        *hblock = i;
        return;
    case GPU_OP_ADVISE: {
        struct mbuf *m = &x->mb[o->buf];
        if (o->advice == GPU_ADVISE_READ_MOSTLY) m->read_mostly = true;
        if (o->advice == GPU_ADVISE_PREFER_HOST || o->advice == GPU_ADVISE_ACCESSED_BY)
            m->remote = true;
        if (o->advice == GPU_ADVISE_PREFER_DEVICE) m->remote = false;
        o->start = t, o->end = o->ret = *hfree = t + launch;
        s->st = S_DONE;
        return;
    }
    case GPU_OP_HOST_FILL: {
        /* the host fills that open the program are its set-up, done before its clock starts */
        bool setup = true;
        for (int j = 0; j < i; j++) setup = setup && p->op[j].kind == GPU_OP_HOST_FILL;
        double d = held || setup ? 0 : (double)s->n / HOST_WRITE_BPS;
        if (!setup && p->buf[o->buf].kind == GPU_MEM_MANAGED) { /* the CPU's faults bring pages back */
            struct mbuf *m = &x->mb[o->buf];
            uint64_t back = (uint64_t)((double)s->n * (double)m->on_dev / (double)p->buf[o->buf].bytes);
            m->on_dev -= back;
            d += back / (x->L * pf->um_fault_efficiency);
        }
        o->start = t, o->end = o->ret = *hfree = t + gpu_sim_noisy(x->dev, d);
        x->host_end[i] = o->end;
        race_check(x, i, t);
        if (s->raced) gpu_feed_content_forget(&x->got[o->buf], o->off, s->n);
        else gpu_feed_content_fill(&x->got[o->buf], o->off, s->n, o->seed);
        s->st = S_DONE;
        return;
    }
    default:
        break;
    }
    /* an asynchronous call: the device may start it once the call returned */
    s->st = S_ISSUED;
    s->ready = o->ret = *hfree = t + launch;
    if (o->kind == GPU_OP_COPY &&
        (p->buf[o->buf].kind == GPU_MEM_PAGEABLE || p->buf[o->src].kind == GPU_MEM_PAGEABLE))
        *hblock = i; /* staged through the driver's buffer: the call returns when it is done */
}

/* Whether the host can return from operation hb (a sync or a pageable copy) at t. */
static bool unblocked(struct ctx *x, int hb)
{
    const struct gpu_prog_op *o = &x->p->op[hb];
    if (o->kind != GPU_OP_SYNC) return x->so[hb].st == S_DONE;
    for (int j = 0; j < hb; j++) {
        const struct gpu_prog_op *q = &x->p->op[j];
        bool on = q->kind != GPU_OP_CPU && q->kind != GPU_OP_SYNC &&
                  q->kind != GPU_OP_ADVISE && q->kind != GPU_OP_HOST_FILL;
        if (on && (o->stream < 0 || q->stream == o->stream) && x->so[j].st != S_DONE) return false;
    }
    return true;
}

/* The share of its work operation i does per second now (k: users of each link direction). */
static double rate(const struct ctx *x, int i, int kh, int kd)
{
    const struct sop *s = &x->so[i];
    double r = INFINITY;
    if (s->dh > 0) r = fmin(r, x->L / kh / s->dh);
    if (s->dd > 0) r = fmin(r, x->L / kd / s->dd);
    if (s->floor > 0) r = fmin(r, 1.0 / s->floor);
    return r;
}

static gpu_status sf_run(struct gpu_dev *dev, struct gpu_prog *p, const struct gpu_feed_plan *pl,
                         gpu_cancel_flag *cancel)
{
    if (gpu_sim_fault(dev, "a program on streams")) return GPU_ERR_STICKY;
    struct ctx *x = calloc(1, sizeof *x);
    if (!x) {
        gpu_set_why(dev, "program: no host memory to simulate it");
        return GPU_ERR_HOST_NOMEM;
    }
    uint64_t fr = 0, tot = 0;
    gpu_mem_info(dev, &fr, &tot);
    x->dev = dev, x->pf = prof(dev), x->p = p, x->pl = pl;
    x->L = link_bps(x->pf);
    x->room = (double)fr;
    for (int r = 0; r < R_COUNT; r++) x->busy[r] = -1;
    for (int b = 0; b < p->nbuf; b++) gpu_feed_content_init(&x->got[b], p->buf[b].bytes);
    int last[GPU_PROG_MAX_STREAMS];
    for (int k = 0; k < GPU_PROG_MAX_STREAMS; k++) last[k] = -1;
    for (int i = 0; i < p->nop; i++) {
        struct gpu_prog_op *o = &p->op[i];
        struct sop *s = &x->so[i];
        s->n = gpu_prog_op_bytes(p, o);
        s->res = R_NONE;
        s->prev = -1;
        if (o->kind == GPU_OP_COPY) s->res = lane_res(x, copy_lane(p, o));
        else if (o->kind == GPU_OP_KERNEL || o->kind == GPU_OP_READ || o->kind == GPU_OP_FILL)
            s->res = R_SM;
        else if (o->kind == GPU_OP_PREFETCH)
            s->res = lane_res(x, o->advice == 0 ? GPU_LANE_H2D : GPU_LANE_D2H);
        bool on = o->kind != GPU_OP_CPU && o->kind != GPU_OP_SYNC && o->kind != GPU_OP_ADVISE &&
                  o->kind != GPU_OP_HOST_FILL;
        if (on) s->prev = last[o->stream], last[o->stream] = i;
    }
    bool held = p->held = gpu_prog_holdable(p);
    double t = 0, hfree = 0;
    int hnext = 0, hblock = -1;
    gpu_status st = GPU_OK;
    for (long guard = 0; st == GPU_OK; guard++) {
        if (guard > 64L * GPU_PROG_MAX_OPS) { /* every turn ends an operation or a phase */
            gpu_set_why(dev, "program: the simulation did not finish");
            st = GPU_ERR_DRIVER;
            break;
        }
        bool moved = false;
        if (hblock >= 0 && unblocked(x, hblock)) {
            struct gpu_prog_op *o = &p->op[hblock];
            if (o->kind == GPU_OP_SYNC) {
                o->end = t;
                x->so[hblock].st = S_DONE;
            }
            o->ret = t;
            hfree = t;
            hblock = -1;
            moved = true;
        }
        while (hnext < p->nop && hblock < 0 && hfree <= t + EPS) {
            issue(x, hnext++, held ? 0 : t > hfree ? t : hfree, held, &hfree, &hblock);
            moved = true;
        }
        for (bool again = true; again;) {
            again = false;
            for (int i = 0; i < hnext; i++)
                if (startable(x, i, t)) start(x, i, t), again = moved = true;
        }
        if (moved) continue; /* the host may return and issue more at this same time */
        bool all = hnext == p->nop && hblock < 0;
        for (int i = 0; all && i < p->nop; i++) all = x->so[i].st == S_DONE;
        if (all) break;
        if (gpu_cancelled(cancel)) {
            st = GPU_ERR_CANCELLED;
            break;
        }
        int kh = 0, kd = 0;
        for (int i = 0; i < hnext; i++)
            if (x->so[i].st == S_XFER) kh += x->so[i].dh > 0, kd += x->so[i].dd > 0;
        double next = INFINITY;
        if (hnext < p->nop && hblock < 0 && hfree > t) next = hfree;
        for (int i = 0; i < hnext; i++) {
            const struct sop *s = &x->so[i];
            if (s->st == S_ISSUED && s->ready > t) next = fmin(next, s->ready);
            if (s->st == S_LAT) next = fmin(next, s->lat_end);
            if (s->st == S_XFER) next = fmin(next, t + (1 - s->done) / rate(x, i, kh, kd));
        }
        if (!isfinite(next)) {
            gpu_set_why(dev, "program: operations wait for each other and never run");
            st = GPU_ERR_ARG;
            break;
        }
        for (int i = 0; i < hnext; i++)
            if (x->so[i].st == S_XFER) x->so[i].done += (next - t) * rate(x, i, kh, kd);
        t = next;
        for (int i = 0; i < hnext; i++) {
            struct sop *s = &x->so[i];
            if (s->st == S_LAT && s->lat_end <= t + EPS) s->st = S_XFER, s->done = 0;
            bool none = s->dh <= 0 && s->dd <= 0 && s->floor <= 0;
            if (s->st == S_XFER && (s->done >= 1 - 1e-9 || none)) finish(x, i, t);
        }
    }
    if (st == GPU_OK) {
        p->seconds = 0;
        for (int i = 0; i < p->nop; i++) {
            const struct gpu_prog_op *o = &p->op[i];
            p->seconds = fmax(p->seconds, fmax(o->end, o->ret));
        }
        for (int b = 0; b < p->nbuf; b++)
            p->wrong_end[b] = gpu_feed_content_diff(&x->got[b], &pl->want_end[b], 0,
                                                    p->buf[b].bytes);
    }
    free(x);
    return st;
}

const struct gpu_feed_ops gpu_sim_feed_ops = {
    .alloc = sf_alloc,
    .free = sf_free,
    .calibrate = sf_calibrate,
    .run = sf_run,
};
