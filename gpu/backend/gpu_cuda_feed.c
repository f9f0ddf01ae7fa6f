/* gpu_cuda_feed.c - programs that feed the GPU on a real device (gpu_feed.h): host buffers of
 * every kind (cudaHostAlloc, cudaHostRegister, cudaMallocManaged, malloc), each allocation timed;
 * a program's operations issued in order on up to eight non-blocking streams, each device
 * operation between two events, the host's calls timed by its clock; when nothing in the program
 * blocks the host, the streams wait behind a spin kernel until the whole program is queued
 * (nvbandwidth's recipe), so the timeline is the device's, not the host's enqueue rate. After the
 * run every read's count of wrong words and every buffer's content are checked (a kernel for
 * device and managed memory, the CPU for host memory). CUDA 12.0 on; the managed-memory calls
 * that changed signature in CUDA 13 are guarded by CUDART_VERSION. */
#include "gpu_feed.h"

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_cuda_int.h"
#include "gpu_feed_kernels.h"
#include "gpu_kernels.h"

#define SPIN_TIMEOUT_NS 1000000000ull

/* CU_TRY (gpu_cuda_int.h) for calls and kernel wrappers alike: a wrapper's int is a cudaError_t */
#define CF_TRY CU_TRY

/* Launch sizes per device ordinal, found once per process (the kernels load then too). */
static pthread_mutex_t cf_mu = PTHREAD_MUTEX_INITIALIZER;
static struct gpu_fk_launch cf_launch[64];
static bool cf_have[64];

static gpu_status enter(struct gpu_dev *dev, struct gpu_fk_launch *cfg)
{
    gpu_status st = GPU_OK;
    int o = dev->info.device;
    if (dev->failed) return GPU_ERR_STICKY;
    if (o < 0 || o >= 64) {
        gpu_set_why(dev, "feed: device ordinal %d out of range", o);
        return GPU_ERR_ARG;
    }
    CF_TRY(dev, st, cudaSetDevice(o), out);
    pthread_mutex_lock(&cf_mu);
    if (!cf_have[o]) {
        int e = gpu_fk_init(&cf_launch[o]);
        if (e) {
            pthread_mutex_unlock(&cf_mu);
            return gpu_cu_fail(dev, (cudaError_t)e, "gpu_fk_init (loading the feed kernels)", __FILE__,
                                 __LINE__);
        }
        cf_have[o] = true;
    }
    if (cfg) *cfg = cf_launch[o];
    pthread_mutex_unlock(&cf_mu);
out:
    return st;
}

static size_t page_size(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    return pg > 0 ? (size_t)pg : 4096;
}

static gpu_status cf_alloc(struct gpu_dev *dev, enum gpu_mem kind, uint64_t bytes, void **ptr,
                           double *seconds)
{
    gpu_status st = enter(dev, NULL);
    if (st) return st;
    size_t page = page_size(), size = (size_t)((bytes + page - 1) / page * page);
    double t0 = gpu_now();
    switch (kind) {
    case GPU_MEM_PINNED: CF_TRY(dev, st, cudaHostAlloc(ptr, size, cudaHostAllocDefault), fail); break;
    case GPU_MEM_MAPPED: CF_TRY(dev, st, cudaHostAlloc(ptr, size, cudaHostAllocMapped), fail); break;
    case GPU_MEM_MANAGED:
        CF_TRY(dev, st, cudaMallocManaged(ptr, size, cudaMemAttachGlobal), fail);
        break;
    case GPU_MEM_PAGEABLE:
    case GPU_MEM_REGISTERED: {
        char *p = aligned_alloc(page, size);
        if (!p) {
            gpu_set_why(dev, "feed: no host memory for %zu bytes", size);
            return GPU_ERR_HOST_NOMEM;
        }
        if (kind == GPU_MEM_PAGEABLE) { /* malloc timed; the first touch is the program's */
            *seconds = gpu_now() - t0;
            for (size_t off = 0; off < size; off += page) ((volatile char *)p)[off] = 0;
            *ptr = p;
            return GPU_OK;
        }
        for (size_t off = 0; off < size; off += page) ((volatile char *)p)[off] = 0;
        t0 = gpu_now(); /* registered: cudaHostRegister of touched memory is what is timed */
        int e = (int)cudaHostRegister(p, size, cudaHostRegisterMapped);
        if (e) {
            free(p);
            st = gpu_cu_fail(dev, (cudaError_t)e, "cudaHostRegister", __FILE__, __LINE__);
            goto fail;
        }
        *ptr = p;
        break;
    }
    default:
        gpu_set_why(dev, "feed: no %s allocation here", gpu_mem_name(kind));
        return GPU_ERR_ARG;
    }
    *seconds = gpu_now() - t0;
    return GPU_OK;
fail:
    *ptr = NULL;
    return st == GPU_ERR_NOMEM && kind != GPU_MEM_MANAGED ? GPU_ERR_HOST_NOMEM : st;
}

static gpu_status cf_free(struct gpu_dev *dev, enum gpu_mem kind, void *ptr, uint64_t bytes,
                          double *seconds)
{
    gpu_status st = GPU_OK;
    double t0 = gpu_now();
    if (kind == GPU_MEM_PAGEABLE) {
        free(ptr);
    } else if (kind == GPU_MEM_REGISTERED) {
        if (!dev->failed) CF_TRY(dev, st, cudaHostUnregister(ptr), out);
    out:
        free(ptr);
    } else if (!dev->failed) {
        (void)cudaSetDevice(dev->info.device);
        CF_TRY(dev, st, kind == GPU_MEM_MANAGED ? cudaFree(ptr) : cudaFreeHost(ptr), done);
    }
done:
    *seconds = gpu_now() - t0;
    return st;
}

/* Two timings of the kernel, at 1 and 65 rounds, give its fixed and per-round cost here. */
static gpu_status cf_calibrate(struct gpu_dev *dev, void *scratch, uint64_t bytes, double seconds,
                               uint64_t *rounds)
{
    struct gpu_fk_launch cfg;
    cudaStream_t s = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    float ms[2] = {0, 0};
    gpu_status st = enter(dev, &cfg);
    if (st) return st;
    CF_TRY(dev, st, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), out);
    CF_TRY(dev, st, cudaEventCreate(&e0), out);
    CF_TRY(dev, st, cudaEventCreate(&e1), out);
    CF_TRY(dev, st, gpu_fk_rounds(scratch, (size_t)(bytes / 4), 1, &cfg, s), out); /* warm-up */
    for (int k = 0; k < 2; k++) {
        CF_TRY(dev, st, cudaEventRecord(e0, s), out);
        CF_TRY(dev, st, gpu_fk_rounds(scratch, (size_t)(bytes / 4), k ? 65 : 1, &cfg, s), out);
        CF_TRY(dev, st, cudaEventRecord(e1, s), out);
        CF_TRY(dev, st, cudaEventSynchronize(e1), out);
        CF_TRY(dev, st, cudaEventElapsedTime(&ms[k], e0, e1), out);
    }
    double per = (ms[1] - ms[0]) / 64e3, fixed = ms[0] / 1e3 - per;
    *rounds = per > 0 && seconds > fixed ? 1 + (uint64_t)((seconds - fixed) / per) : 1;
out:
    if (e1) (void)cudaEventDestroy(e1);
    if (e0) (void)cudaEventDestroy(e0);
    if (s) (void)cudaStreamDestroy(s);
    return st;
}

/* ---- the run ------------------------------------------------------------------------------ */

struct run {
    struct gpu_dev *dev;
    struct gpu_prog *p;
    const struct gpu_feed_plan *pl;
    struct gpu_fk_launch cfg;
    cudaStream_t gate, s[GPU_PROG_MAX_STREAMS];
    cudaEvent_t base, ev[GPU_PROG_MAX_EVENTS];
    cudaEvent_t *e0, *e1;        /* each operation's start and end (NULL where it has none) */
    unsigned long long *res;     /* device: {wrong, first} per operation */
    void *dptr[GPU_PROG_MAX_BUFS]; /* each buffer as a kernel reaches it */
    volatile int *spin_host, *spin_dev;
};

/* Pieces of content as the check kernel takes them: relative to the range at `off`. */
static void to_segs(const struct gpu_content_seg *g, int n, uint64_t off, struct gpu_fk_segs *s)
{
    s->n = n;
    for (int k = 0; k < n; k++) {
        s->s[k].first = (g[k].off - off) / 4;
        s->s[k].count = (g[k].end - g[k].off) / 4;
        s->s[k].base = g[k].base;
        s->s[k].seed = g[k].seed, s->s[k].a = g[k].a, s->s[k].c = g[k].c;
    }
}

#if CUDART_VERSION >= 13000
static struct cudaMemLocation where(int dev, bool host)
{
    struct cudaMemLocation l;
    memset(&l, 0, sizeof l);
    l.type = host ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    l.id = host ? 0 : dev;
    return l;
}
#define CF_PREFETCH(p, n, dev, host, s) cudaMemPrefetchAsync((p), (n), where((dev), (host)), 0, (s))
#define CF_ADVISE(p, n, a, dev, host) cudaMemAdvise((p), (n), (a), where((dev), (host)))
#else
#define CF_PREFETCH(p, n, dev, host, s) cudaMemPrefetchAsync((p), (n), (host) ? cudaCpuDeviceId : (dev), (s))
#define CF_ADVISE(p, n, a, dev, host) cudaMemAdvise((p), (n), (a), (host) ? cudaCpuDeviceId : (dev))
#endif

static int advise(struct run *r, const struct gpu_prog_op *o)
{
    void *p = (char *)r->p->buf[o->buf].ptr + o->off;
    size_t n = (size_t)gpu_prog_op_bytes(r->p, o);
    int d = r->dev->info.device;
    switch (o->advice) {
    case GPU_ADVISE_READ_MOSTLY: return (int)CF_ADVISE(p, n, cudaMemAdviseSetReadMostly, d, false);
    case GPU_ADVISE_PREFER_HOST: return (int)CF_ADVISE(p, n, cudaMemAdviseSetPreferredLocation, d, true);
    case GPU_ADVISE_PREFER_DEVICE: return (int)CF_ADVISE(p, n, cudaMemAdviseSetPreferredLocation, d, false);
    default: return (int)CF_ADVISE(p, n, cudaMemAdviseSetAccessedBy, d, false);
    }
}

static void host_fill(struct run *r, const struct gpu_prog_op *o)
{
    uint32_t *p = (uint32_t *)((char *)r->p->buf[o->buf].ptr + o->off);
    uint64_t n = gpu_prog_op_bytes(r->p, o) / 4, base = o->off / 4;
    struct gpu_content_seg s = {o->off, o->off + n * 4, true, o->seed, 1, 0, base};
    for (uint64_t w = 0; w < n; w++) p[w] = gpu_feed_expect(&s, o->off + w * 4);
}

/* The host's busy work: it spins, as a CPU preparing data would, until the time has passed. */
static void cpu_work(double seconds, gpu_cancel_flag *cancel)
{
    double end = gpu_now() + seconds;
    while (gpu_now() < end && !gpu_cancelled(cancel)) {}
}

static enum gpu_lane lane_of(const struct gpu_prog *p, const struct gpu_prog_op *o)
{
    switch (o->kind) {
    case GPU_OP_COPY:
        return gpu_mem_host(p->buf[o->src].kind) ? GPU_LANE_H2D
               : gpu_mem_host(p->buf[o->buf].kind) ? GPU_LANE_D2H : GPU_LANE_D2D;
    case GPU_OP_PREFETCH: return o->advice ? GPU_LANE_D2H : GPU_LANE_H2D;
    case GPU_OP_KERNEL:
    case GPU_OP_READ:
    case GPU_OP_FILL: return GPU_LANE_SM;
    default: return GPU_LANE_HOST;
    }
}

/* Enqueue operation i (host-side ones run here). */
static gpu_status issue(struct run *r, int i, gpu_cancel_flag *cancel)
{
    struct gpu_dev *dev = r->dev;
    struct gpu_prog *p = r->p;
    struct gpu_prog_op *o = &p->op[i];
    gpu_status st = GPU_OK;
    cudaStream_t s = o->stream >= 0 && o->stream < GPU_PROG_MAX_STREAMS ? r->s[o->stream] : NULL;
    const bool timed = r->e0[i] != NULL;
    uint64_t n = o->buf >= 0 ? gpu_prog_op_bytes(p, o) : 0;
    char *dp = o->buf >= 0 ? (char *)r->dptr[o->buf] + o->off : NULL;
    if (timed) CF_TRY(dev, st, cudaEventRecord(r->e0[i], s), out);
    switch (o->kind) {
    case GPU_OP_COPY:
        CF_TRY(dev, st,
               cudaMemcpyAsync((char *)p->buf[o->buf].ptr + o->off,
                               (char *)p->buf[o->src].ptr + o->src_off, (size_t)n, cudaMemcpyDefault, s),
               out);
        break;
    case GPU_OP_KERNEL:
        CF_TRY(dev, st, gpu_fk_rounds((uint32_t *)dp, (size_t)(n / 4), o->rounds, &r->cfg, s), out);
        break;
    case GPU_OP_FILL:
        CF_TRY(dev, st, gpu_fk_fill((uint32_t *)dp, (size_t)(n / 4), o->off / 4, o->seed, &r->cfg, s),
               out);
        break;
    case GPU_OP_READ: {
        struct gpu_fk_segs segs;
        to_segs(&r->pl->read_seg[r->pl->read_first[i]], r->pl->read_n[i], o->off, &segs);
        CF_TRY(dev, st, gpu_fk_check((const uint32_t *)dp, &segs, &r->res[2 * i], &r->cfg, s), out);
        break;
    }
    case GPU_OP_PREFETCH:
        CF_TRY(dev, st,
               CF_PREFETCH((char *)p->buf[o->buf].ptr + o->off, (size_t)n, dev->info.device,
                           o->advice != 0, s),
               out);
        break;
    case GPU_OP_ADVISE: CF_TRY(dev, st, advise(r, o), out); break;
    case GPU_OP_RECORD: CF_TRY(dev, st, cudaEventRecord(r->ev[o->event], s), out); break;
    case GPU_OP_WAIT: CF_TRY(dev, st, cudaStreamWaitEvent(s, r->ev[o->event], 0), out); break;
    case GPU_OP_SYNC:
        for (int k = 0; k < GPU_PROG_MAX_STREAMS; k++)
            if (o->stream < 0 || o->stream == k) CF_TRY(dev, st, cudaStreamSynchronize(r->s[k]), out);
        break;
    case GPU_OP_CPU: cpu_work(o->seconds, cancel); break;
    case GPU_OP_HOST_FILL: host_fill(r, o); break;
    default: break;
    }
    if (timed) CF_TRY(dev, st, cudaEventRecord(r->e1[i], s), out);
out:
    return st;
}

static bool has_events(const struct gpu_prog_op *o)
{
    return o->kind == GPU_OP_COPY || o->kind == GPU_OP_KERNEL || o->kind == GPU_OP_READ ||
           o->kind == GPU_OP_FILL || o->kind == GPU_OP_PREFETCH;
}

/* After the run: each buffer's known pieces, by a kernel (device, managed) or the CPU. */
static gpu_status check_end(struct run *r)
{
    struct gpu_dev *dev = r->dev;
    struct gpu_prog *p = r->p;
    gpu_status st = GPU_OK;
    unsigned long long *res = NULL, h[2];
    CF_TRY(dev, st, cudaMalloc((void **)&res, sizeof h), out);
    for (int b = 0; b < p->nbuf; b++) {
        const struct gpu_feed_content *c = &r->pl->want_end[b];
        p->wrong_end[b] = 0;
        for (int k = 0; k < c->n; k++) {
            const struct gpu_content_seg *g = &c->s[k];
            if (!g->known) continue;
            if (gpu_mem_host(p->buf[b].kind)) {
                const uint32_t *w = (const uint32_t *)((const char *)p->buf[b].ptr + g->off);
                for (uint64_t x = g->off; x < g->end; x += 4, w++)
                    p->wrong_end[b] += *w != gpu_feed_expect(g, x);
                continue;
            }
            struct gpu_fk_segs segs;
            to_segs(g, 1, g->off, &segs);
            h[0] = 0, h[1] = ~0ull;
            CF_TRY(dev, st, cudaMemcpy(res, h, sizeof h, cudaMemcpyHostToDevice), out);
            CF_TRY(dev, st,
                   gpu_fk_check((const uint32_t *)((char *)r->dptr[b] + g->off), &segs, res,
                                &r->cfg, r->s[0]),
                   out);
            CF_TRY(dev, st, cudaStreamSynchronize(r->s[0]), out);
            CF_TRY(dev, st, cudaMemcpy(h, res, sizeof h, cudaMemcpyDeviceToHost), out);
            p->wrong_end[b] += h[0];
        }
    }
out:
    if (res) (void)cudaFree(res);
    return st;
}

static void release(struct run *r)
{
    int nop = r->p->nop;
    for (int k = 0; k < GPU_PROG_MAX_STREAMS; k++)
        if (r->s[k]) (void)cudaStreamSynchronize(r->s[k]);
    for (int i = 0; i < nop; i++) {
        if (r->e0 && r->e0[i]) (void)cudaEventDestroy(r->e0[i]);
        if (r->e1 && r->e1[i]) (void)cudaEventDestroy(r->e1[i]);
    }
    for (int e = 0; e < GPU_PROG_MAX_EVENTS; e++)
        if (r->ev[e]) (void)cudaEventDestroy(r->ev[e]);
    if (r->base) (void)cudaEventDestroy(r->base);
    for (int k = 0; k < GPU_PROG_MAX_STREAMS; k++)
        if (r->s[k]) (void)cudaStreamDestroy(r->s[k]);
    if (r->gate) {
        (void)cudaStreamSynchronize(r->gate);
        (void)cudaStreamDestroy(r->gate);
    }
    if (r->spin_host) (void)cudaFreeHost((void *)(uintptr_t)r->spin_host);
    if (r->res) (void)cudaFree(r->res);
    free(r->e0);
    free(r->e1);
    (void)cudaGetLastError();
}

static gpu_status cf_run(struct gpu_dev *dev, struct gpu_prog *p, const struct gpu_feed_plan *pl,
                         gpu_cancel_flag *cancel)
{
    struct run r = {.dev = dev, .p = p, .pl = pl};
    gpu_status st = enter(dev, &r.cfg);
    if (st) return st;
    for (int b = 0; b < p->nbuf; b++) {
        r.dptr[b] = p->buf[b].ptr;
        if (p->buf[b].kind == GPU_MEM_MAPPED)
            CF_TRY(dev, st, cudaHostGetDevicePointer(&r.dptr[b], p->buf[b].ptr, 0), out);
        if (p->buf[b].kind == GPU_MEM_MANAGED) {
            int ok = 0;
            CF_TRY(dev, st, cudaDeviceGetAttribute(&ok, cudaDevAttrConcurrentManagedAccess,
                                                   dev->info.device), out);
            if (!ok) {
                gpu_set_why_key(dev, GPU_WHY_FEED_MANAGED, 0, 0, 0, 0);
                st = GPU_ERR_UNSUPPORTED;
                goto out;
            }
        }
    }
    r.e0 = calloc((size_t)p->nop + 1, sizeof *r.e0);
    r.e1 = calloc((size_t)p->nop + 1, sizeof *r.e1);
    if (!r.e0 || !r.e1) {
        gpu_set_why(dev, "program: no host memory for its events");
        st = GPU_ERR_HOST_NOMEM;
        goto out;
    }
    CF_TRY(dev, st, cudaStreamCreateWithFlags(&r.gate, cudaStreamNonBlocking), out);
    for (int k = 0; k < GPU_PROG_MAX_STREAMS; k++)
        CF_TRY(dev, st, cudaStreamCreateWithFlags(&r.s[k], cudaStreamNonBlocking), out);
    CF_TRY(dev, st, cudaEventCreate(&r.base), out);
    for (int e = 0; e < GPU_PROG_MAX_EVENTS; e++)
        CF_TRY(dev, st, cudaEventCreateWithFlags(&r.ev[e], cudaEventDisableTiming), out);
    for (int i = 0; i < p->nop; i++)
        if (has_events(&p->op[i])) {
            CF_TRY(dev, st, cudaEventCreate(&r.e0[i]), out);
            CF_TRY(dev, st, cudaEventCreate(&r.e1[i]), out);
        }
    CF_TRY(dev, st, cudaMalloc((void **)&r.res, (size_t)(2 * p->nop + 2) * sizeof *r.res), out);
    {
        unsigned long long *init = malloc((size_t)(2 * p->nop + 2) * sizeof *init);
        if (!init) {
            st = GPU_ERR_HOST_NOMEM;
            goto out;
        }
        for (int i = 0; i < p->nop + 1; i++) init[2 * i] = 0, init[2 * i + 1] = ~0ull;
        int e = (int)cudaMemcpy(r.res, init, (size_t)(2 * p->nop + 2) * sizeof *init,
                                cudaMemcpyHostToDevice);
        free(init);
        CF_TRY(dev, st, e, out);
    }
    /* The program starts at `base`: held behind a spin kernel until all of it is queued, unless
     * it blocks the host (then the host's own times are part of the timeline). */
    void *flag = NULL, *flag_dev = NULL;
    p->held = gpu_prog_holdable(p) &&
              cudaHostAlloc(&flag, 2 * sizeof(int), cudaHostAllocMapped) == cudaSuccess &&
              cudaHostGetDevicePointer(&flag_dev, flag, 0) == cudaSuccess;
    (void)cudaGetLastError();
    if (flag) r.spin_host = flag, r.spin_dev = flag_dev;
    /* the host fills that open the program are its set-up: done before its clock starts */
    int lead = 0;
    while (lead < p->nop && p->op[lead].kind == GPU_OP_HOST_FILL) host_fill(&r, &p->op[lead++]);
    if (p->held) {
        r.spin_host[0] = 0, r.spin_host[1] = 0;
        CF_TRY(dev, st, gpu_k_spin(r.spin_dev, SPIN_TIMEOUT_NS, r.gate), out);
    }
    CF_TRY(dev, st, cudaEventRecord(r.base, r.gate), out);
    if (!p->held) CF_TRY(dev, st, cudaEventSynchronize(r.base), out);
    for (int k = 0; k < GPU_PROG_MAX_STREAMS; k++)
        CF_TRY(dev, st, cudaStreamWaitEvent(r.s[k], r.base, 0), out);
    double t0 = gpu_now();
    for (int i = lead; st == GPU_OK && i < p->nop; i++) {
        struct gpu_prog_op *o = &p->op[i];
        if (gpu_cancelled(cancel)) {
            st = GPU_ERR_CANCELLED;
            break;
        }
        o->lane = lane_of(p, o);
        o->issue = p->held ? 0 : gpu_now() - t0;
        st = issue(&r, i, cancel);
        o->ret = p->held ? 0 : gpu_now() - t0;
        if (!has_events(o)) o->start = o->issue, o->end = o->ret;
    }
    if (p->held) __atomic_store_n(&r.spin_host[0], 1, __ATOMIC_SEQ_CST);
    for (int k = 0; k < GPU_PROG_MAX_STREAMS; k++) {
        int e = (int)cudaStreamSynchronize(r.s[k]);
        if (e && st == GPU_OK) st = gpu_cu_fail(dev, (cudaError_t)e, "cudaStreamSynchronize", __FILE__, __LINE__);
    }
    if (st != GPU_OK) goto out;
    if (p->held && __atomic_load_n(&r.spin_host[1], __ATOMIC_SEQ_CST)) p->warn |= GPU_WARN_HOLD_TIMEOUT;
    p->seconds = 0;
    for (int i = 0; i < p->nop; i++) {
        struct gpu_prog_op *o = &p->op[i];
        if (has_events(o)) {
            float a = 0, b = 0;
            CF_TRY(dev, st, cudaEventElapsedTime(&a, r.base, r.e0[i]), out);
            CF_TRY(dev, st, cudaEventElapsedTime(&b, r.base, r.e1[i]), out);
            o->start = a / 1e3, o->end = b / 1e3;
        }
        if (o->end > p->seconds) p->seconds = o->end;
        if (o->ret > p->seconds) p->seconds = o->ret;
    }
    {
        unsigned long long *h = malloc((size_t)(2 * p->nop + 2) * sizeof *h);
        if (!h) {
            st = GPU_ERR_HOST_NOMEM;
            goto out;
        }
        int e = (int)cudaMemcpy(h, r.res, (size_t)(2 * p->nop + 2) * sizeof *h,
                                cudaMemcpyDeviceToHost);
        for (int i = 0; !e && i < p->nop; i++)
            if (p->op[i].kind == GPU_OP_READ) p->op[i].wrong = h[2 * i];
        free(h);
        CF_TRY(dev, st, e, out);
    }
    st = check_end(&r);
out:
    release(&r);
    return st;
}

const struct gpu_feed_ops gpu_cuda_feed_ops = {
    .alloc = cf_alloc,
    .free = cf_free,
    .calibrate = cf_calibrate,
    .run = cf_run,
};
