/* gpu_sim.c - the simulator backend: a named GPU profile, capacity enforced (allocations are
 * tracked, never backed), timings from a documented model (docs/simulator.md) with seeded,
 * one-sided noise, or none at all in deterministic mode. Everything it reports is SIMULATED. */
#include "gpu_sim.h"
#include "gpu_sim_dev.h"

#include "gpu_feed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_err.h"

/* Fake device addresses: a 2 MiB-aligned range far from anything real, so a simulated pointer
 * handed to memcpy faults loudly rather than corrupting memory. */
#define SIM_BASE ((uintptr_t)0x7e0000000000ull)
#define SIM_ALIGN 512u

double gpu_sim_copy_seconds(const struct gpu_profile *p, enum gpu_dir dir, enum gpu_method m,
                            bool pinned, uint64_t bytes)
{
    double peak = p->info.peak_bytes_per_s, oh = p->copy_overhead_us * 1e-6;
    if (dir == GPU_D2D) {
        /* A copy reads n and writes n bytes of device memory. While both fit in L2 they are
         * served from it; beyond, DRAM bandwidth times the path's efficiency. */
        double eff = m == GPU_SM ? p->sm_efficiency : p->ce_efficiency;
        double bw = peak * eff;
        if (2.0 * bytes <= (double)p->info.l2_bytes) bw *= p->l2_speedup;
        return oh + 2.0 * bytes / bw;
    }
    double link = gpu_pcie_bytes_per_s(p->info.pcie_gen, p->info.pcie_width) * p->pcie_efficiency;
    if (!pinned) link *= p->pageable_factor; /* staged through a driver-owned pinned buffer */
    if (m == GPU_SM) link *= p->zerocopy_efficiency; /* zero-copy loads over the link */
    return oh + bytes / link;
}

double gpu_sim_stream_seconds(const struct gpu_profile *p, int kind, uint64_t bytes)
{
    /* A STREAM kernel is an SM kernel moving 2 or 3 arrays' worth of bytes (dot reads 2). */
    double moved = (kind == GPU_HOST_ADD || kind == GPU_HOST_TRIAD ? 3.0 : 2.0) * bytes;
    double bw = p->info.peak_bytes_per_s * p->sm_efficiency;
    if (moved <= (double)p->info.l2_bytes) bw *= p->l2_speedup;
    return p->copy_overhead_us * 1e-6 + moved / bw;
}

double gpu_sim_latency_ns(const struct gpu_profile *p, uint64_t bytes)
{
    /* A random cyclic chase over a working set W hits a cache of size C with probability
     * min(1, C/W): the expected latency mixes the levels' latencies by those odds. */
    double w = bytes > 0 ? (double)bytes : 1;
    double h1 = fmin(1.0, p->l1_bytes / w), h2 = fmin(1.0, (double)p->info.l2_bytes / w);
    return h1 * p->l1_ns + (h2 - h1) * p->l2_ns + (1 - h2) * p->dram_ns;
}

static gpu_status sim_open(const struct gpu_config *cfg, struct gpu_dev **out, char *why, size_t n)
{
    if (cfg && cfg->device != 0) {
        gpu_errf(why, n, "the simulator has one device, 0 (device %d was asked for)", cfg->device);
        return GPU_ERR_NO_DEVICE;
    }
    struct sim_dev *d = calloc(1, sizeof *d);
    if (!d) {
        gpu_errf(why, n, "out of host memory");
        return GPU_ERR_HOST_NOMEM;
    }
    const char *id = cfg && cfg->profile && *cfg->profile ? cfg->profile : GPU_SIM_DEFAULT_PROFILE;
    gpu_status st = gpu_profile_load(cfg ? cfg->datadir : NULL, id, &d->prof, why, n);
    if (st != GPU_OK) {
        free(d);
        return st;
    }
    d->pub.be = &gpu_sim_backend;
    d->pub.info = d->prof.info;
    snprintf(d->pub.info.backend, sizeof d->pub.info.backend, "sim");
    snprintf(d->pub.info.driver, sizeof d->pub.info.driver, "simulator (no driver)");
    d->pub.info.simulated = true;
    d->pub.info.l1_bytes = (uint64_t)d->prof.l1_bytes;
    d->pub.info.mig_instance = -1;
    d->pub.info.numa_node = -1;
    snprintf(d->pub.info.published_profile, sizeof d->pub.info.published_profile, "%s", id);
    d->pub.cap_fraction = cfg && cfg->cap_fraction > 0 ? cfg->cap_fraction : 0.9;
    d->pub.cap_bytes = cfg ? cfg->cap_bytes : 0;
    d->rng = cfg ? cfg->seed : 0;
    d->deterministic = cfg && cfg->deterministic;
    d->next_addr = SIM_BASE;
    d->used = d->prof.context_bytes < d->prof.info.total_bytes ? d->prof.context_bytes : 0;
    d->pub.context_bytes = d->used;
    d->pub.has_context_bytes = true;
    /* Testing (gpu_config): other processes holding part of the GPU, a sticky error at the Nth
     * device operation, a device operation that never returns. */
    uint64_t room = d->prof.info.total_bytes - d->used;
    uint64_t other = cfg ? cfg->sim_other_bytes : 0;
    if (other != GPU_SIM_OTHER_ALL && other > room) {
        gpu_errf(why, n, "VRAMLAB_SIM_OTHER_BYTES: %llu is out of range [0, %llu] (or all)",
                 (unsigned long long)other, (unsigned long long)room);
        free(d->allocs);
        free(d);
        return GPU_ERR_ARG;
    }
    d->other_bytes = other == GPU_SIM_OTHER_ALL ? room : other;
    d->used += d->other_bytes;
    d->sticky_at = cfg ? cfg->fault_sticky : 0;
    d->hang_at = cfg ? cfg->fault_hang : 0;
    *out = &d->pub;
    return GPU_OK;
}

static void sim_close(struct gpu_dev *dev)
{
    struct sim_dev *d = (struct sim_dev *)dev;
    free(d->allocs);
    free(d);
}

static gpu_status sim_mem_info(struct gpu_dev *dev, uint64_t *free_b, uint64_t *total_b)
{
    struct sim_dev *d = (struct sim_dev *)dev;
    *total_b = d->pub.info.total_bytes;
    *free_b = d->pub.info.total_bytes - d->used;
    return GPU_OK;
}

static gpu_status track(struct sim_dev *d, uint64_t bytes, bool pinned, void **ptr)
{
    if (d->nallocs == d->cap_allocs) {
        size_t nc = d->cap_allocs ? d->cap_allocs * 2 : 64;
        struct sim_alloc *na = realloc(d->allocs, nc * sizeof *na);
        if (!na) return GPU_ERR_HOST_NOMEM;
        d->allocs = na;
        d->cap_allocs = nc;
    }
    d->allocs[d->nallocs++] = (struct sim_alloc){.addr = d->next_addr, .bytes = bytes,
                                                 .pinned = pinned};
    *ptr = (void *)d->next_addr;
    d->next_addr += (bytes + SIM_ALIGN - 1) / SIM_ALIGN * SIM_ALIGN;
    return GPU_OK;
}

static struct sim_alloc *find(struct sim_dev *d, const void *ptr)
{
    for (size_t i = 0; i < d->nallocs; i++)
        if (d->allocs[i].addr == (uintptr_t)ptr) return &d->allocs[i];
    return NULL;
}

static gpu_status untrack(struct sim_dev *d, void *ptr, uint64_t *bytes)
{
    for (size_t i = d->nallocs; i-- > 0;)
        if (d->allocs[i].addr == (uintptr_t)ptr) {
            *bytes = d->allocs[i].bytes;
            d->allocs[i] = d->allocs[--d->nallocs];
            return GPU_OK;
        }
    gpu_set_why(&d->pub, "free of a pointer the simulator never handed out");
    return GPU_ERR_ARG;
}

static gpu_status sim_alloc(struct gpu_dev *dev, uint64_t bytes, void **ptr)
{
    struct sim_dev *d = (struct sim_dev *)dev;
    if (gpu_sim_fault(&d->pub, "cudaMalloc")) return GPU_ERR_STICKY;
    /* cudaMalloc hands out memory in 2 MiB pages; capacity is counted that way too. */
    uint64_t rounded = (bytes + (2u << 20) - 1) / (2u << 20) * (2u << 20);
    if (rounded > d->pub.info.total_bytes - d->used) {
        gpu_set_why_key(dev, GPU_WHY_SIM_OOM, bytes / 1048576.0,
                        (d->pub.info.total_bytes - d->used) / 1048576.0, 0, 0);
        return GPU_ERR_NOMEM;
    }
    gpu_status st = track(d, rounded, false, ptr);
    if (st == GPU_OK) d->used += rounded;
    return st;
}

static gpu_status sim_free(struct gpu_dev *dev, void *ptr)
{
    struct sim_dev *d = (struct sim_dev *)dev;
    uint64_t bytes = 0;
    gpu_status st = untrack(d, ptr, &bytes);
    if (st == GPU_OK) d->used -= bytes;
    return st;
}

/* Simulated host buffers are tracked like device ones but hold no memory either. */
static gpu_status sim_host_alloc(struct gpu_dev *dev, uint64_t bytes, bool pinned, void **ptr)
{
    return track((struct sim_dev *)dev, bytes, pinned, ptr);
}

static gpu_status sim_host_free(struct gpu_dev *dev, void *ptr, bool pinned)
{
    uint64_t bytes;
    return untrack((struct sim_dev *)dev, ptr, &bytes);
}

static gpu_status sim_memset(struct gpu_dev *dev, void *ptr, int value, uint64_t bytes)
{
    return gpu_sim_fault(dev, "cudaMemset") ? GPU_ERR_STICKY : GPU_OK;
}

static gpu_status sim_copy(struct gpu_dev *dev, enum gpu_dir dir, enum gpu_method m, void *dst,
                           const void *src, uint64_t bytes, int reps, double *seconds)
{
    struct sim_dev *d = (struct sim_dev *)dev;
    if (gpu_sim_fault(&d->pub, "cudaMemcpyAsync")) return GPU_ERR_STICKY;
    const struct sim_alloc *host = find(d, dir == GPU_H2D ? src : dst);
    bool pinned = host && host->pinned;
    struct sim_alloc *to = find(d, dst);
    const struct sim_alloc *from = find(d, src);
    if (to && from && !d->pub.fault_corrupt) to->has_content = from->has_content, to->content = from->content;
    double t = gpu_sim_copy_seconds(&d->prof, dir, m, dir == GPU_D2D || pinned, bytes);
    *seconds = gpu_sim_noisy(&d->pub, t);
    (void)reps;
    return GPU_OK;
}

/* The model knows no SM clock and no SM placement: cycles and SMs stay unknown. */
static gpu_status sim_latency(struct gpu_dev *dev, struct gpu_chase *c)
{
    struct sim_dev *d = (struct sim_dev *)dev;
    if (gpu_sim_fault(&d->pub, "the latency kernel")) return GPU_ERR_STICKY;
    for (int k = 0; k < c->n; k++) {
        c->ns[k] = gpu_sim_noisy(&d->pub, gpu_sim_latency_ns(&d->prof, c->bytes));
        c->cycles[k] = 0;
        c->sm[k] = -1;
    }
    return GPU_OK;
}

/* The value a uniform array holds, or NaN when it was never filled. */
static double value_of(const struct sim_alloc *x)
{
    return x && x->has_content && x->content.kind == GPU_CONTENT_F64 ? x->content.value : NAN;
}

static void set_value(struct sim_alloc *x, double v)
{
    if (!x) return;
    x->has_content = true;
    x->content = (struct gpu_content){.kind = GPU_CONTENT_F64, .value = v};
}

static gpu_status sim_stream(struct gpu_dev *dev, int kind, void *a, void *b, void *c,
                             uint64_t bytes, int reps, double *seconds, double *dot)
{
    struct sim_dev *d = (struct sim_dev *)dev;
    if (gpu_sim_fault(&d->pub, "the STREAM kernel")) return GPU_ERR_STICKY;
    *seconds = gpu_sim_noisy(&d->pub, gpu_sim_stream_seconds(&d->prof, kind, bytes));
    /* The kernels' arithmetic on the arrays' one value each, as the device would do it. */
    struct sim_alloc *A = find(d, a), *B = find(d, b), *C = find(d, c);
    const double s = GPU_STREAM_S, n = (double)(bytes / 8);
    double va = value_of(A), vb = value_of(B), vc = value_of(C);
    if (dot) *dot = kind == GPU_HOST_DOT ? va * vb * n * (d->pub.fault_corrupt ? 1 + 1e-6 : 1) : 0;
    if (d->pub.fault_corrupt) return GPU_OK;
    switch (kind) {
    case GPU_HOST_COPY: set_value(C, va); break;
    case GPU_HOST_SCALE: set_value(B, s * vc); break;
    case GPU_HOST_ADD: set_value(C, va + vb); break;
    case GPU_HOST_TRIAD: set_value(A, vb + s * vc); break;
    default: break;
    }
    return GPU_OK;
}

static gpu_status sim_fill(struct gpu_dev *dev, void *ptr, uint64_t bytes, bool host,
                           const struct gpu_content *want)
{
    struct sim_dev *d = (struct sim_dev *)dev;
    if (!host && gpu_sim_fault(&d->pub, "the fill kernel")) return GPU_ERR_STICKY;
    struct sim_alloc *x = find(d, ptr);
    if (!x) {
        gpu_set_why(dev, "fill of a buffer the simulator never handed out");
        return GPU_ERR_ARG;
    }
    x->has_content = true;
    x->content = *want;
    return GPU_OK;
}

/* All or nothing: a buffer holds what was asked for, or none of it does. */
static gpu_status sim_check(struct gpu_dev *dev, const void *ptr, uint64_t bytes, bool host,
                            const struct gpu_content *want, struct gpu_mismatch *m)
{
    struct sim_dev *d = (struct sim_dev *)dev;
    const struct sim_alloc *x = find(d, ptr);
    bool same = x && x->has_content && x->content.kind == want->kind;
    if (same && want->kind == GPU_CONTENT_PATTERN) same = x->content.seed == want->seed;
    if (same && want->kind == GPU_CONTENT_F64)
        same = fabs(x->content.value - want->value) <= want->tol * fabs(want->value);
    *m = (struct gpu_mismatch){same ? 0 : want->kind == GPU_CONTENT_F64 ? bytes / 8 : bytes, 0};
    return GPU_OK;
}

static bool sim_shared(struct gpu_dev *dev)
{
    return ((struct sim_dev *)dev)->other_bytes > 0;
}

const struct gpu_backend gpu_sim_backend = {
    .name = "sim",
    .caps = GPU_CAP_SM_COPY | GPU_CAP_LATENCY | GPU_CAP_PINNED,
    .open = sim_open,
    .close = sim_close,
    .mem_info = sim_mem_info,
    .alloc = sim_alloc,
    .free = sim_free,
    .host_alloc = sim_host_alloc,
    .host_free = sim_host_free,
    .memset = sim_memset,
    .copy = sim_copy,
    .latency = sim_latency,
    .stream = sim_stream,
    .fill = sim_fill,
    .check = sim_check,
    .shared = sim_shared,
    .access = gpu_sim_access,
    .feed = &gpu_sim_feed_ops,
};
