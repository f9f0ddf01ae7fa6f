/* gpu_sim_access.c - the access-pattern experiments (gpu_access.h) on the simulator: a timing
 * model per experiment from the profile (docs/simulator.md, "Access patterns"), and the same
 * validation path a GPU has. Buffers are never backed, so each one is tagged with what it should
 * hold through the backend's own fill and check: a launch whose input holds the right tag reads
 * the right sum or writes the right output, and VRAMLAB_FAULT_CORRUPT makes it do neither, so
 * the bench's check fails as it would on a broken kernel. Everything it reports is SIMULATED. */
#include "gpu_sim.h"

#include <math.h>

#include "gpu_access.h"

/* The tags: what the input holds (word w = w, the particles, the matrix) and the output. */
#define TAG_IN 0xacce55000ull
#define TAG_OUT 0xacce55100ull
#define TAG_STALE 0xacce55200ull

/* seconds for bytes of which a share h is served from L2: DRAM and L2 work at once, the slower
 * sets the pace */
static double mem_time(const struct gpu_profile *p, double bytes, double h)
{
    const double dram = p->info.peak_bytes_per_s * p->sm_efficiency, l2 = dram * p->l2_speedup;
    return fmax(bytes * (1 - h) / dram, bytes / l2);
}

/* The share of a sweep's re-reads a cache of c bytes serves, when `span` bytes are read in the
 * same order each time: all of them up to its size, none past twice its size (a least-recently-
 * used cache would miss on every line past it; a real L2 keeps some), in a straight line between. */
static double sweep(double c, double span)
{
    if (span <= c) return 1;
    return c > 0 ? fmax(0.0, 2.0 - span / c) : 0;
}

static double hit(const struct gpu_profile *p, double span)
{
    return sweep((double)p->info.l2_bytes, span);
}

/* A tiled transpose moves a 32 x 32 tile per block: 32 conflict-free warp stores into shared
 * memory and 32 warp loads out of it, each split `ways` ways; a shared-memory pipe serves one
 * such wavefront per clock per SM. */
static double smem_seconds(const struct gpu_profile *p, double tiles, unsigned ways)
{
    const double per_s = (double)p->info.sm_count * p->info.sm_clock_khz * 1e3;
    return per_s > 0 ? tiles * (32.0 + 32.0 * ways) / per_s : 0;
}

static double transpose_seconds(const struct gpu_profile *p, const struct gpu_access *a)
{
    const double n2 = (double)a->n * a->n, bytes = 2 * n2 * 4;
    const double dram = p->info.peak_bytes_per_s * p->sm_efficiency, l2 = dram * p->l2_speedup;
    const double t_dram = bytes * (1 - hit(p, bytes)) / dram;
    double t_l2 = bytes / l2, t_smem = 0;
    if (a->kind == GPU_ACC_TNAIVE) /* each write request: 32 sectors for 32 elements, not 4 */
        t_l2 = (n2 * 4 + n2 * 4 * 8) / l2;
    if (a->kind == GPU_ACC_TTILED) t_smem = smem_seconds(p, n2 / 1024, gpu_bank_ways(32));
    if (a->kind == GPU_ACC_TPADDED) t_smem = smem_seconds(p, n2 / 1024, gpu_bank_ways(33));
    /* three pipes that overlap, but not perfectly: the root of the sum of squares (one pipe
     * alone: its own time; two equal ones: 1.41 x) */
    return sqrt(t_dram * t_dram + t_l2 * t_l2 + t_smem * t_smem);
}

/* the L2 share of the hot array's re-reads: a window keeps hitRatio x window in the set-aside */
static double hot_hit(const struct gpu_profile *p, const struct gpu_access *a, uint64_t setaside)
{
    const double hot = 16.0 * a->hot_n, l2 = (double)p->info.l2_bytes, r = a->hit_ratio;
    if (!setaside) return sweep(l2, 2 * hot); /* reuse distance: the hot bytes + as many cold */
    /* hitRatio x the window persists (in the set-aside), the rest competes with the stream */
    return r * sweep((double)setaside, r * hot) + (1 - r) * sweep(l2 - setaside, 2 * (1 - r) * hot);
}

static uint64_t setaside_of(const struct gpu_profile *p, const struct gpu_access *a)
{
    if (!a->window || !p->info.l2_persist_max_bytes || !p->info.l2_window_max_bytes) return 0;
    return p->info.l2_persist_max_bytes;
}

/* ns per dependent load of the page chase: its lines through L2 (ld.cg) or DRAM, plus what a
 * miss in each TLB level adds, each missed with odds 1 - reach / footprint */
static double pages_ns(const struct gpu_profile *p, const struct gpu_access *a)
{
    const double lines = 128.0 * a->n, foot = (double)a->n * a->step;
    const double h = hit(p, lines);
    const double m1 = fmax(0, 1 - p->tlb_l1_reach / foot), m2 = fmax(0, 1 - p->tlb_l2_reach / foot);
    return h * p->l2_ns + (1 - h) * p->dram_ns + m1 * p->tlb_l1_miss_ns + m2 * p->tlb_l2_miss_ns;
}

double gpu_sim_access_seconds(const struct gpu_profile *p, const struct gpu_access *a)
{
    const double oh = p->copy_overhead_us * 1e-6, n = (double)a->n;
    uint64_t size[2];
    gpu_access_buffers(a, size);
    switch (a->kind) {
    case GPU_ACC_STRIDE: {
        const double spr = gpu_sectors_per_request(4ull * a->stride, 4, 4ull * a->offset);
        return oh + mem_time(p, n / 32 * spr * GPU_SECTOR_BYTES, hit(p, (double)size[0]));
    }
    case GPU_ACC_RANDOM: {
        unsigned m = 0;
        while ((1ull << m) < a->n) m++;
        return oh + mem_time(p, n / 32 * gpu_random_sectors(m) * GPU_SECTOR_BYTES, hit(p, 4 * n));
    }
    case GPU_ACC_AOS:
    case GPU_ACC_SOA: {
        const double read = a->kind == GPU_ACC_AOS ? gpu_aos_sector_bytes(a->fields) : 12;
        const double t = mem_time(p, n * (read + 4), hit(p, (double)(size[0] + size[1])));
        return oh + fmax(t, 5 * n / p->info.fp32_flops);
    }
    case GPU_ACC_REREAD: return oh + mem_time(p, 16 * n * a->passes, hit(p, 16 * n));
    case GPU_ACC_HOTCOLD: {
        const double dram = p->info.peak_bytes_per_s * p->sm_efficiency, l2 = dram * p->l2_speedup;
        const double h = hot_hit(p, a, setaside_of(p, a));
        return oh + fmax((16 * n + 16 * n * (1 - h)) / dram, 32 * n / l2);
    }
    case GPU_ACC_TCOPY:
    case GPU_ACC_TNAIVE:
    case GPU_ACC_TTILED:
    case GPU_ACC_TPADDED: return oh + transpose_seconds(p, a);
    case GPU_ACC_BANKS: {
        /* one wavefront of 32 words (128 bytes) per clock per SM, split `ways` ways */
        const double per_s = (double)p->info.sm_count * p->info.sm_clock_khz * 1e3 * 128;
        return oh + (double)a->threads * n * 4 * gpu_bank_ways(a->stride) / per_s;
    }
    case GPU_ACC_FMA:
        return oh + fmax(mem_time(p, 8 * n, hit(p, 8 * n)), 2.0 * a->fmas * n / p->info.fp32_flops);
    case GPU_ACC_PAGES: return pages_ns(p, a);
    case GPU_ACC_KINDS: break;
    }
    return 0;
}

static bool holds(struct gpu_dev *dev, void *buf, uint64_t bytes, uint64_t tag)
{
    const struct gpu_content want = {.kind = GPU_CONTENT_PATTERN, .seed = tag};
    struct gpu_mismatch m = {0};
    return buf && dev->be->check(dev, buf, bytes, false, &want, &m) == GPU_OK && !m.count;
}

static gpu_status tag(struct gpu_dev *dev, void *buf, uint64_t bytes, uint64_t t)
{
    const struct gpu_content c = {.kind = GPU_CONTENT_PATTERN, .seed = t};
    return buf ? dev->be->fill(dev, buf, bytes, false, &c) : GPU_OK;
}

gpu_status gpu_sim_access(struct gpu_dev *dev, struct gpu_access *a)
{
    const struct gpu_profile *p = gpu_sim_profile(dev);
    uint64_t size[2];
    gpu_access_buffers(a, size);
    const uint64_t in = TAG_IN + (uint64_t)a->kind;
    gpu_status st = GPU_OK;
    switch (a->phase) {
    case GPU_ACC_PREPARE:
        /* HOTCOLD's two arrays are both inputs; everyone else's second buffer is an output
         * (PAGES: the device copy of the cycle, which it reads) */
        if ((st = tag(dev, a->buf[0], size[0], in)) == GPU_OK)
            st = tag(dev, a->buf[1], size[1],
                     a->kind == GPU_ACC_HOTCOLD || a->kind == GPU_ACC_PAGES ? in : TAG_STALE);
        return st;
    case GPU_ACC_RUN: {
        if (gpu_sim_fault(dev, "an access-pattern kernel")) return GPU_ERR_STICKY;
        const bool ok = !dev->fault_corrupt && (!size[0] || holds(dev, a->buf[0], size[0], in));
        a->setaside = setaside_of(p, a);
        a->window_set = a->setaside > 0;
        if (a->kind == GPU_ACC_PAGES) {
            a->ns_per_load = gpu_sim_noisy(dev, gpu_sim_access_seconds(p, a));
            a->cycles_per_load = 0, a->sm = -1; /* the model has no SMs and no clock */
            a->end = ok ? gpu_access_chase_end(a->order, a->start, a->warm + a->steps) : UINT64_MAX;
            return GPU_OK;
        }
        a->seconds = gpu_sim_noisy(dev, gpu_sim_access_seconds(p, a));
        const uint64_t want = gpu_access_expect_sum(a);
        a->sum = ok ? want : want + 1;
        if (!want && size[1] && ok) st = tag(dev, a->buf[1], size[1], TAG_OUT + (uint64_t)a->kind);
        return st;
    }
    case GPU_ACC_CHECK: {
        const bool right = !size[1] || holds(dev, a->buf[1], size[1], TAG_OUT + (uint64_t)a->kind);
        const uint64_t elems = a->kind == GPU_ACC_BANKS ? 0 : size[1] / 4;
        a->bad = right ? 0 : elems;
        a->first = 0;
        return GPU_OK;
    }
    }
    return GPU_ERR_ARG;
}
