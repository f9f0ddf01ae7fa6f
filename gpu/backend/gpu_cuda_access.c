/* gpu_cuda_access.c - the access-pattern experiments (gpu_access.h) on a real GPU: the cuda
 * backend's `access` operation over the kernels of gpu_kernels_access.cu. Timed as the copies
 * are: `reps` launches back to back on the device's own stream between two events; the read
 * kernels' per-block sums are added on the host after the last launch, every output is checked
 * by a kernel of its own. An L2 persistence window (cudaAccessPolicyWindow, compute capability
 * 8.0 on) is set on the stream for the timed launches only, and the set-aside and the persisting
 * lines are given back afterwards (cudaCtxResetPersistingL2Cache), so that no later experiment
 * runs with it. Every runtime call goes through CU_CHECK/CU_TRY (gpu_cuda_int.h). */
#include "gpu_cuda_int.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_access.h"
#include "gpu_kernels_access.h"

/* what the experiments keep on the device between calls */
struct cu_access_scratch {
    unsigned long long partial[GPU_KA_MAX_BLOCKS];
    unsigned long long res[2];
    struct gpu_k_chase_io io;
};
struct cu_access {
    struct gpu_ka_launch launch;
    struct cu_access_scratch *dev;
};

void gpu_cu_access_release(struct cu_dev *d)
{
    if (!d->access) return;
    if (d->access->dev && cudaFree(d->access->dev) != cudaSuccess) (void)cudaGetLastError();
    free(d->access);
    d->access = NULL;
}

static gpu_status setup(struct cu_dev *d)
{
    struct gpu_dev *dev = &d->pub;
    gpu_status st = GPU_OK;
    if (d->access) return GPU_OK;
    if (!(d->access = calloc(1, sizeof *d->access))) {
        gpu_set_why(dev, "out of host memory");
        return GPU_ERR_HOST_NOMEM;
    }
    CU_TRY(dev, st, gpu_ka_init(&d->access->launch), fail);
    CU_TRY(dev, st, cudaMalloc((void **)&d->access->dev, sizeof *d->access->dev), fail);
    return GPU_OK;
fail:
    gpu_cu_access_release(d);
    return st;
}

/* ---- prepare: the content each kernel expects ---------------------------------------------- */

static gpu_status prepare(struct cu_dev *d, struct gpu_access *a)
{
    struct gpu_dev *dev = &d->pub;
    const struct gpu_ka_launch *L = &d->access->launch;
    cudaStream_t s = d->stream;
    uint64_t size[2];
    gpu_status st = GPU_OK;
    gpu_access_buffers(a, size);
    /* an output starts as something no kernel writes: one that writes nothing fails its check */
    if (size[1] && a->kind != GPU_ACC_HOTCOLD && a->kind != GPU_ACC_PAGES)
        CU_CHECK(dev, cudaMemsetAsync(a->buf[1], 0xff, (size_t)size[1], s));
    switch (a->kind) {
    case GPU_ACC_STRIDE:
    case GPU_ACC_RANDOM:
    case GPU_ACC_REREAD:
    case GPU_ACC_TCOPY:
    case GPU_ACC_TNAIVE:
    case GPU_ACC_TTILED:
    case GPU_ACC_TPADDED: CU_CHECK(dev, gpu_ka_fill_index(a->buf[0], size[0] / 4, L, s)); break;
    case GPU_ACC_HOTCOLD:
        CU_CHECK(dev, gpu_ka_fill_index(a->buf[0], size[0] / 4, L, s));
        CU_CHECK(dev, gpu_ka_fill_index(a->buf[1], size[1] / 4, L, s));
        break;
    case GPU_ACC_AOS:
    case GPU_ACC_SOA:
        CU_CHECK(dev, gpu_ka_particles_fill(a->buf[0], a->n, a->fields, a->kind == GPU_ACC_SOA, L, s));
        break;
    case GPU_ACC_FMA: CU_CHECK(dev, gpu_ka_fma_fill(a->buf[0], a->n, L, s)); break;
    case GPU_ACC_PAGES:
        CU_CHECK(dev, cudaMemcpyAsync(a->buf[1], a->order, (size_t)(a->n * 4), cudaMemcpyHostToDevice, s));
        CU_CHECK(dev, gpu_ka_links(a->buf[0], a->buf[1], a->n, a->step, L, s));
        break;
    case GPU_ACC_BANKS:
    case GPU_ACC_KINDS: break;
    }
    CU_TRY(dev, st, cudaStreamSynchronize(s), out);
out:
    return st;
}

/* ---- run: reps launches between two events ------------------------------------------------- */

static cudaError_t launch(struct cu_dev *d, const struct gpu_access *a, int *nblocks)
{
    const struct gpu_ka_launch *L = &d->access->launch;
    unsigned long long *part = d->access->dev->partial;
    cudaStream_t s = d->stream;
    unsigned m = 0;
    switch (a->kind) {
    case GPU_ACC_STRIDE:
        return (cudaError_t)gpu_ka_stride(a->buf[0], a->n, a->stride, a->offset, part, nblocks, L, s);
    case GPU_ACC_RANDOM:
        while ((1ull << m) < a->n) m++;
        return (cudaError_t)gpu_ka_random(a->buf[0], m, part, nblocks, L, s);
    case GPU_ACC_REREAD: return (cudaError_t)gpu_ka_reread(a->buf[0], a->n, a->passes, part, nblocks, L, s);
    case GPU_ACC_HOTCOLD:
        return (cudaError_t)gpu_ka_hotcold(a->buf[0], a->hot_n, a->buf[1], a->n, part, nblocks, L, s);
    case GPU_ACC_AOS:
    case GPU_ACC_SOA:
        return (cudaError_t)gpu_ka_particles(a->buf[0], a->buf[1], a->n, a->fields,
                                             a->kind == GPU_ACC_SOA, L, s);
    case GPU_ACC_TCOPY:
    case GPU_ACC_TNAIVE:
    case GPU_ACC_TTILED:
    case GPU_ACC_TPADDED:
        return (cudaError_t)gpu_ka_transpose(a->kind - GPU_ACC_TCOPY, a->buf[0], a->buf[1],
                                             (uint32_t)a->n, s);
    case GPU_ACC_BANKS: return (cudaError_t)gpu_ka_banks(a->stride, a->n, part, nblocks, L, s);
    case GPU_ACC_FMA: return (cudaError_t)gpu_ka_fma(a->buf[0], a->buf[1], a->n, a->fmas, L, s);
    case GPU_ACC_PAGES:
    case GPU_ACC_KINDS: break;
    }
    return cudaErrorInvalidValue;
}

/* An access policy window on the hot array for the launches that follow, where the device has a
 * set-aside to give (not under MIG, and under MPS only as the server was started): what was set
 * aside, 0 when nothing was. */
static uint64_t window_on(struct cu_dev *d, const struct gpu_access *a)
{
    const struct gpu_info *in = &d->pub.info;
    if (!a->window || !in->l2_persist_max_bytes || !in->l2_window_max_bytes) return 0;
    size_t got = 0;
    if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, (size_t)in->l2_persist_max_bytes) != cudaSuccess ||
        cudaDeviceGetLimit(&got, cudaLimitPersistingL2CacheSize) != cudaSuccess || !got) {
        (void)cudaGetLastError(); /* refused: the run goes on without the window, and says so */
        return 0;
    }
    const uint64_t bytes = a->hot_n * 16;
    cudaStreamAttrValue v;
    memset(&v, 0, sizeof v);
    v.accessPolicyWindow.base_ptr = a->buf[0];
    v.accessPolicyWindow.num_bytes = (size_t)(bytes < in->l2_window_max_bytes ? bytes : in->l2_window_max_bytes);
    v.accessPolicyWindow.hitRatio = (float)a->hit_ratio;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    if (cudaStreamSetAttribute(d->stream, cudaStreamAttributeAccessPolicyWindow, &v) != cudaSuccess) {
        (void)cudaGetLastError();
        (void)cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
        (void)cudaGetLastError();
        return 0;
    }
    return got;
}

/* The window off the stream, the persisting lines back to normal, the set-aside given back. */
static void window_off(struct cu_dev *d)
{
    cudaStreamAttrValue v;
    memset(&v, 0, sizeof v);
    (void)cudaStreamSetAttribute(d->stream, cudaStreamAttributeAccessPolicyWindow, &v);
    (void)cudaCtxResetPersistingL2Cache();
    (void)cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    (void)cudaGetLastError();
}

static gpu_status run(struct cu_dev *d, struct gpu_access *a)
{
    struct gpu_dev *dev = &d->pub;
    gpu_status st = GPU_OK;
    int nblocks = 0;
    float ms = 0;
    const bool persist = a->kind == GPU_ACC_HOTCOLD && d->pub.info.l2_persist_max_bytes;
    if (persist) {
        window_off(d); /* no persisting lines left from before: both runs start alike */
        a->setaside = window_on(d, a);
        a->window_set = a->setaside > 0;
    }
    CU_TRY(dev, st, cudaEventRecord(d->ev0, d->stream), out);
    for (int r = 0; r < a->reps; r++) CU_TRY(dev, st, launch(d, a, &nblocks), out);
    CU_TRY(dev, st, cudaEventRecord(d->ev1, d->stream), out);
    CU_TRY(dev, st, cudaEventSynchronize(d->ev1), out);
    CU_TRY(dev, st, cudaEventElapsedTime(&ms, d->ev0, d->ev1), out);
    a->seconds = ms / 1e3 / a->reps;
    a->sum = 0;
    if (nblocks) {
        unsigned long long part[GPU_KA_MAX_BLOCKS];
        CU_TRY(dev, st,
               cudaMemcpyAsync(part, d->access->dev->partial, (size_t)nblocks * sizeof part[0],
                               cudaMemcpyDeviceToHost, d->stream),
               out);
        CU_TRY(dev, st, cudaStreamSynchronize(d->stream), out);
        for (int i = 0; i < nblocks; i++) a->sum += part[i];
    }
out:
    if (persist) window_off(d);
    return st;
}

/* One chase of the page cycle from line a->start, on the SM a->chase picks of a->chases. */
static gpu_status chase(struct cu_dev *d, struct gpu_access *a)
{
    struct gpu_dev *dev = &d->pub;
    struct gpu_k_chase_io io = {.p = (uint64_t)(uintptr_t)a->buf[0] + a->start * a->step +
                                     (a->start * 128) % a->step};
    gpu_status st = GPU_OK;
    const int target = (int)((long long)a->chase * d->access->launch.sms / a->chases);
    CU_TRY(dev, st,
           cudaMemcpyAsync(&d->access->dev->io, &io, sizeof io, cudaMemcpyHostToDevice, d->stream), out);
    CU_TRY(dev, st, gpu_ka_chase(&d->access->dev->io, a->warm, a->steps, target,
                                 &d->access->launch, d->stream), out);
    CU_TRY(dev, st,
           cudaMemcpyAsync(&io, &d->access->dev->io, sizeof io, cudaMemcpyDeviceToHost, d->stream), out);
    CU_TRY(dev, st, cudaStreamSynchronize(d->stream), out);
    if (!io.ran || !io.ns) {
        gpu_set_why(dev, "pages: %s", io.ran ? "the GPU timer did not advance" : "no block chased");
        return GPU_ERR_DRIVER;
    }
    a->ns_per_load = (double)io.ns / (double)a->steps;
    a->cycles_per_load = (double)io.cycles / (double)a->steps;
    a->sm = (int)io.sm;
    const uint64_t off = io.p - (uint64_t)(uintptr_t)a->buf[0];
    a->end = io.p >= (uint64_t)(uintptr_t)a->buf[0] ? off / a->step : UINT64_MAX;
out:
    return st;
}

/* ---- check: the output against what it should hold ----------------------------------------- */

static gpu_status check(struct cu_dev *d, struct gpu_access *a)
{
    struct gpu_dev *dev = &d->pub;
    const struct gpu_ka_launch *L = &d->access->launch;
    unsigned long long res[2] = {0, ~0ull}, *dres = d->access->dev->res;
    gpu_status st = GPU_OK;
    cudaStream_t s = d->stream;
    CU_CHECK(dev, cudaMemcpyAsync(dres, res, sizeof res, cudaMemcpyHostToDevice, s));
    switch (a->kind) {
    case GPU_ACC_AOS:
    case GPU_ACC_SOA: CU_CHECK(dev, gpu_ka_particles_check(a->buf[1], a->n, dres, L, s)); break;
    case GPU_ACC_TCOPY:
    case GPU_ACC_TNAIVE:
    case GPU_ACC_TTILED:
    case GPU_ACC_TPADDED:
        CU_CHECK(dev, gpu_ka_transpose_check(a->buf[1], (uint32_t)a->n, a->kind != GPU_ACC_TCOPY,
                                             dres, L, s));
        break;
    case GPU_ACC_FMA: CU_CHECK(dev, gpu_ka_fma_check(a->buf[0], a->buf[1], a->n, a->fmas, dres, L, s)); break;
    default: break; /* the read kernels are checked by their sums */
    }
    CU_CHECK(dev, cudaMemcpyAsync(res, dres, sizeof res, cudaMemcpyDeviceToHost, s));
    CU_TRY(dev, st, cudaStreamSynchronize(s), out);
    a->bad = res[0];
    a->first = res[0] ? res[1] : 0;
out:
    return st;
}

gpu_status gpu_cu_access(struct gpu_dev *dev, struct gpu_access *a)
{
    struct cu_dev *d = (struct cu_dev *)dev;
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;
    pthread_mutex_lock(&d->lock);
    if ((st = setup(d)) == GPU_OK) {
        switch (a->phase) {
        case GPU_ACC_PREPARE: st = prepare(d, a); break;
        case GPU_ACC_RUN: st = a->kind == GPU_ACC_PAGES ? chase(d, a) : run(d, a); break;
        case GPU_ACC_CHECK: st = check(d, a); break;
        }
    }
    if (st) gpu_cu_drain(d);
    pthread_mutex_unlock(&d->lock);
    return st;
}
