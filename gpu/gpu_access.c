/* gpu_access.c - the access-pattern experiments, backend-neutral (gpu_access.h): what each one
 * allocates and should read or write, what its addresses ask of the memory system (sectors per
 * warp request, sector bytes, bank-conflict ways: counted, never measured), and the bench that
 * runs one on the device's `access` operation: buffers within the cap, known content, a warm-up
 * launch, timed trials, then the kernel's sum or output checked; everything freed on every path.
 * Pure apart from the bench; tests/unit/test_access.c checks the counts and the bench on the
 * simulator. */
#include "gpu_access.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_access_mix.h"

static const char *const names[GPU_ACC_KINDS] = {
    [GPU_ACC_STRIDE] = "stride",    [GPU_ACC_RANDOM] = "random", [GPU_ACC_AOS] = "aos",
    [GPU_ACC_SOA] = "soa",          [GPU_ACC_REREAD] = "reread", [GPU_ACC_HOTCOLD] = "hotcold",
    [GPU_ACC_TCOPY] = "copy",       [GPU_ACC_TNAIVE] = "naive",  [GPU_ACC_TTILED] = "tiled",
    [GPU_ACC_TPADDED] = "padded",   [GPU_ACC_BANKS] = "banks",   [GPU_ACC_FMA] = "fma",
    [GPU_ACC_PAGES] = "pages",
};

const char *gpu_access_name(enum gpu_access_kind k)
{
    return (unsigned)k < GPU_ACC_KINDS ? names[k] : "?";
}

int gpu_access_parse(const char *name)
{
    for (int k = 0; name && k < GPU_ACC_KINDS; k++)
        if (!strcmp(names[k], name)) return k;
    return -1;
}

/* ---- counting --------------------------------------------------------------------------- */

double gpu_sectors_per_request(uint64_t stride_bytes, unsigned elem_bytes, uint64_t offset_bytes)
{
    uint64_t seen[64];
    int n = 0;
    if (!elem_bytes) return 0;
    for (uint64_t k = 0; k < 32; k++) {
        const uint64_t lo = offset_bytes + k * stride_bytes, hi = lo + elem_bytes - 1;
        for (uint64_t s = lo / GPU_SECTOR_BYTES; s <= hi / GPU_SECTOR_BYTES; s++) {
            int j = 0;
            while (j < n && seen[j] != s) j++;
            if (j == n && n < 64) seen[n++] = s;
        }
    }
    return n;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

double gpu_random_sectors(unsigned log2n)
{
    if (log2n < 5 || log2n > 40) return 0;
    const uint64_t warps = (1ull << log2n) / 32 < 1024 ? (1ull << log2n) / 32 : 1024;
    double total = 0;
    for (uint64_t w = 0; w < warps; w++) {
        uint64_t s[32];
        for (int k = 0; k < 32; k++) s[k] = gpu_access_mix(w * 32 + (uint64_t)k, log2n) * 4 / GPU_SECTOR_BYTES;
        qsort(s, 32, sizeof s[0], cmp_u64);
        int distinct = 1;
        for (int k = 1; k < 32; k++) distinct += s[k] != s[k - 1];
        total += distinct;
    }
    return total / (double)warps;
}

double gpu_aos_sector_bytes(unsigned fields)
{
    if (fields < 3) return 0;
    /* a period of 32 particles repeats the alignment of the structs against the sectors */
    uint64_t last = UINT64_MAX, sectors = 0;
    for (uint64_t k = 0; k < 32; k++) {
        const uint64_t lo = k * fields * 4, hi = lo + 11;
        for (uint64_t s = lo / GPU_SECTOR_BYTES; s <= hi / GPU_SECTOR_BYTES; s++)
            if (s != last || last == UINT64_MAX) sectors += s != last, last = s;
    }
    return (double)sectors * GPU_SECTOR_BYTES / 32.0;
}

unsigned gpu_bank_ways(uint64_t stride_words)
{
    uint64_t a = stride_words % GPU_BANKS, b = GPU_BANKS;
    if (!stride_words) return 1;
    while (a) { /* gcd(stride, 32) */
        const uint64_t t = b % a;
        b = a;
        a = t;
    }
    return (unsigned)b;
}

/* ---- what each experiment holds and should give ------------------------------------------ */

void gpu_access_buffers(const struct gpu_access *a, uint64_t bytes[2])
{
    const uint64_t n = a->n;
    bytes[0] = bytes[1] = 0;
    switch (a->kind) {
    case GPU_ACC_STRIDE: bytes[0] = ((n - 1) * a->stride + a->offset + 1) * 4; break;
    case GPU_ACC_RANDOM: bytes[0] = n * 4; break;
    case GPU_ACC_AOS: bytes[0] = n * a->fields * 4, bytes[1] = n * 4; break;
    case GPU_ACC_SOA: bytes[0] = n * 12, bytes[1] = n * 4; break;
    case GPU_ACC_REREAD: bytes[0] = n * 16; break;
    case GPU_ACC_HOTCOLD: bytes[0] = a->hot_n * 16, bytes[1] = n * 16; break;
    case GPU_ACC_TCOPY:
    case GPU_ACC_TNAIVE:
    case GPU_ACC_TTILED:
    case GPU_ACC_TPADDED: bytes[0] = bytes[1] = n * n * 4; break;
    case GPU_ACC_FMA: bytes[0] = bytes[1] = n * 4; break;
    case GPU_ACC_PAGES: bytes[0] = n * a->step, bytes[1] = n * 4; break;
    case GPU_ACC_BANKS:
    case GPU_ACC_KINDS: break;
    }
}

/* 0 + 1 + ... + (n - 1), modulo 2^64 as the device's sum wraps */
static uint64_t tri(uint64_t n)
{
    return n % 2 ? n * ((n - 1) / 2) : (n / 2) * (n - 1);
}

/* (a + 0) % m + (a + 1) % m + ... + (a + n - 1) % m, for a < m */
static uint64_t tri_mod(uint64_t a, uint64_t n, uint64_t m)
{
    const uint64_t q = n / m, r = n % m;
    uint64_t s = q * tri(m);
    if (a + r <= m) return s + r * a + tri(r);
    return s + (tri(m) - tri(a)) + tri(r - (m - a));
}

uint64_t gpu_access_expect_sum(const struct gpu_access *a)
{
    const uint64_t n = a->n;
    switch (a->kind) {
    case GPU_ACC_BANKS: { /* every warp alike: lane k reads word (k * stride + j) % words */
        uint64_t warp = 0;
        for (uint64_t k = 0; k < 32; k++)
            warp += tri_mod(k * a->stride % GPU_BANKS_WORDS, n, GPU_BANKS_WORDS);
        return a->threads / 32 * warp;
    }
    case GPU_ACC_STRIDE: return a->stride * tri(n) + (uint64_t)a->offset * n;
    case GPU_ACC_RANDOM: return tri(n);
    case GPU_ACC_REREAD: return a->passes * tri(4 * n);
    case GPU_ACC_HOTCOLD: { /* the cold array once, the hot one cycled beside it */
        const uint64_t h = a->hot_n, q = n / h, r = n % h;
        return tri(4 * n) + q * tri(4 * h) + tri(4 * r);
    }
    default: return 0;
    }
}

uint64_t gpu_access_chase_end(const uint32_t *next, uint64_t start, uint64_t steps)
{
    uint64_t p = start;
    for (uint64_t k = 0; k < steps; k++) p = next[p];
    return p;
}

/* ---- the bench ---------------------------------------------------------------------------- */

#define PAGES_STEPS (1u << 16) /* timed loads per chase */

static gpu_status bad_req(struct gpu_dev *dev, const char *what)
{
    gpu_set_why(dev, "%s", what);
    return GPU_ERR_ARG;
}

/* The request as the backend's operation takes it, and the counts beside the figure. */
static gpu_status plan(struct gpu_dev *dev, const struct gpu_access_req *q, struct gpu_access *a,
                       struct gpu_access_result *res)
{
    uint64_t n;
    a->kind = q->kind;
    switch (q->kind) {
    case GPU_ACC_STRIDE:
        if (q->stride < 1 || q->stride > 1024 || q->offset > 1024 || q->bytes < 4096)
            return bad_req(dev, "stride: stride 1..1024 words, offset 0..1024, bytes >= 4 KiB");
        a->n = n = q->bytes / 4, a->stride = q->stride, a->offset = q->offset;
        if ((n - 1) * q->stride + q->offset >= (1ull << 32))
            return bad_req(dev, "stride: the pattern spans more than 2^32 words (16 GiB)");
        res->r.bytes = 4 * n;
        res->sectors_per_request = gpu_sectors_per_request(4ull * q->stride, 4, 4ull * q->offset);
        res->sector_bytes = n / 32.0 * res->sectors_per_request * GPU_SECTOR_BYTES;
        break;
    case GPU_ACC_RANDOM: {
        unsigned m = 0;
        while (m < 32 && (4ull << (m + 1)) <= q->bytes) m++;
        if (m < 10) return bad_req(dev, "random: bytes >= 4 KiB");
        a->n = n = 1ull << m;
        res->r.bytes = 4 * n;
        res->sectors_per_request = gpu_random_sectors(m);
        res->sector_bytes = n / 32.0 * res->sectors_per_request * GPU_SECTOR_BYTES;
        break;
    }
    case GPU_ACC_AOS:
    case GPU_ACC_SOA:
        if (q->count < 1024 || (q->kind == GPU_ACC_AOS && (q->fields < 3 || q->fields > 64)))
            return bad_req(dev, "layout: at least 1024 particles, 3..64 fields");
        a->n = n = q->count, a->fields = q->kind == GPU_ACC_AOS ? q->fields : 3;
        res->r.bytes = 16 * n; /* x, y, z read, r2 written */
        res->flops = 5.0 * n;
        res->sectors_per_request =
            gpu_sectors_per_request(q->kind == GPU_ACC_AOS ? 4ull * q->fields : 4, 4, 0);
        res->sector_bytes = n * ((q->kind == GPU_ACC_AOS ? gpu_aos_sector_bytes(q->fields) : 12) + 4);
        break;
    case GPU_ACC_REREAD:
        if (q->bytes < 4096) return bad_req(dev, "reread: bytes >= 4 KiB");
        a->n = n = q->bytes / 16;
        /* enough passes that one launch reads at least 1 GiB: the launch's fixed cost (a few us)
         * stays a few per cent of what the L2 takes to deliver it (an H200's L2, ~10 TB/s:
         * 100 us); at 64 MiB it halved the L2's figure */
        a->passes = (uint32_t)((1ull << 30) / (n * 16) + 1);
        res->r.bytes = a->passes * n * 16;
        res->sectors_per_request = gpu_sectors_per_request(16, 16, 0);
        res->sector_bytes = (double)res->r.bytes;
        break;
    case GPU_ACC_HOTCOLD:
        if (q->hot_bytes < 4096 || q->bytes < q->hot_bytes || !(q->hit_ratio > 0 && q->hit_ratio <= 1))
            return bad_req(dev, "persist: hot >= 4 KiB, cold >= hot, hit_ratio in (0, 1]");
        a->hot_n = q->hot_bytes / 16, a->n = n = q->bytes / 16;
        a->window = q->window, a->hit_ratio = q->hit_ratio;
        res->r.bytes = 2 * n * 16;
        res->sectors_per_request = gpu_sectors_per_request(16, 16, 0);
        res->sector_bytes = (double)res->r.bytes;
        break;
    case GPU_ACC_TCOPY:
    case GPU_ACC_TNAIVE:
    case GPU_ACC_TTILED:
    case GPU_ACC_TPADDED:
        if (q->count < 64 || q->count % 32 || q->count > 65536)
            return bad_req(dev, "transpose: n a multiple of 32, 64..65536");
        a->n = n = q->count;
        res->r.bytes = 2 * n * n * 4;
        res->sectors_per_request = q->kind == GPU_ACC_TNAIVE ? gpu_sectors_per_request(4 * n, 4, 0)
                                                             : gpu_sectors_per_request(4, 4, 0);
        /* the naive kernel's writes: a sector per element instead of per 8 */
        res->sector_bytes = n * n * 4.0 * (q->kind == GPU_ACC_TNAIVE ? 1 + res->sectors_per_request / 4 : 2);
        res->bank_ways = q->kind == GPU_ACC_TTILED ? gpu_bank_ways(32)
                         : q->kind == GPU_ACC_TPADDED ? gpu_bank_ways(33) : 0;
        break;
    case GPU_ACC_BANKS:
        if (q->stride > 1024 || q->count < 1 || q->count > 1u << 19)
            return bad_req(dev, "banks: stride 0..1024 words, 1..2^19 loads per thread");
        if (dev->info.sm_count < 1) return bad_req(dev, "banks: the SM count is unknown");
        a->n = q->count, a->stride = q->stride;
        a->threads = (uint64_t)dev->info.sm_count * GPU_BANKS_THREADS_PER_SM;
        res->r.bytes = a->threads * a->n * 4; /* bytes of shared memory read */
        res->bank_ways = gpu_bank_ways(q->stride);
        break;
    case GPU_ACC_FMA:
        if (q->bytes < 4096 || q->fmas < 1 || q->fmas > 65536)
            return bad_req(dev, "fma: bytes >= 4 KiB, 1..65536 FMAs per element");
        a->n = n = q->bytes / 4, a->fmas = q->fmas;
        res->r.bytes = 8 * n;
        res->flops = 2.0 * q->fmas * n;
        res->sectors_per_request = gpu_sectors_per_request(4, 4, 0);
        res->sector_bytes = 8.0 * n;
        break;
    case GPU_ACC_PAGES:
        if (q->step < 128 || q->step % 128 || q->bytes / q->step < 2 || q->bytes / q->step > (1u << 22))
            return bad_req(dev, "pages: step a multiple of 128 bytes, 2 to 2^22 lines in bytes");
        a->n = n = q->bytes / q->step, a->step = q->step, a->steps = PAGES_STEPS;
        res->r.bytes = n * q->step;
        res->lines = n, res->step = q->step;
        break;
    default: return bad_req(dev, "access: unknown experiment");
    }
    uint64_t b[2];
    gpu_access_buffers(a, b);
    res->footprint = q->kind == GPU_ACC_PAGES ? b[0] : b[0] + b[1];
    return GPU_OK;
}

static gpu_status call(struct gpu_dev *dev, struct gpu_access *a, enum gpu_access_phase ph)
{
    a->phase = ph;
    return dev->be->access(dev, a);
}

/* Sattolo's algorithm: a random permutation that is one single cycle (every line visited). */
static void sattolo(uint32_t *next, uint64_t n, uint64_t seed)
{
    for (uint64_t i = 0; i < n; i++) next[i] = (uint32_t)i;
    for (uint64_t i = n - 1; i > 0; i--) {
        const uint64_t j = gpu_rand(&seed) % i; /* j < i: one cycle */
        const uint32_t t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
}

/* PAGES: `chases` chases, each continuing where the last stopped, each one's end checked
 * against the cycle; t[] in seconds per load. */
static gpu_status chase(struct gpu_dev *dev, struct gpu_access *a, const uint32_t *next, int chases,
                        double *t, struct gpu_access_result *res, gpu_cancel_flag *cancel)
{
    gpu_status st = GPU_OK;
    double cycles[GPU_MAX_CHASES] = {0};
    int best = 0;
    a->start = 0, a->chases = chases;
    for (int k = 0; st == GPU_OK && k < chases; k++) {
        if (gpu_cancelled(cancel)) return GPU_ERR_CANCELLED;
        a->chase = k;
        if ((st = call(dev, a, GPU_ACC_RUN)) != GPU_OK) break;
        const uint64_t want = gpu_access_chase_end(next, a->start, a->warm + a->steps);
        if (a->end != want) {
            gpu_set_why(dev, "validation failed: the chase stopped at line %llu, not at line "
                        "%llu after %llu loads; the figure is not reported",
                        (unsigned long long)a->end, (unsigned long long)want,
                        (unsigned long long)(a->warm + a->steps));
            return GPU_ERR_VALIDATION;
        }
        a->start = a->end; /* the next chase goes on round the cycle */
        t[k] = a->ns_per_load * 1e-9;
        res->r.sm[k] = a->sm;
        if (k == 0 || a->ns_per_load * 1e-9 < t[best]) best = k;
        cycles[k] = a->cycles_per_load;
    }
    res->r.nsm = chases;
    res->r.cycles_per_load = cycles[best];
    if (cycles[best] > 0) res->r.sm_clock_mhz = 1e3 * cycles[best] / (t[best] * 1e9);
    return st;
}

gpu_status gpu_bench_access(struct gpu_dev *dev, const struct gpu_access_req *q,
                            struct gpu_access_result *res, gpu_cancel_flag *cancel)
{
    struct gpu_access a = {0};
    double t[GPU_MAX_SAMPLES];
    uint32_t *next = NULL;
    int trials = q->trials ? q->trials : q->kind == GPU_ACC_PAGES ? 5 : 10, reps = 1;
    *res = (struct gpu_access_result){.kind = q->kind};
    res->r = (struct gpu_result){.simulated = dev->info.simulated, .numa_node = -1};
    if (dev->failed) return GPU_ERR_STICKY;
    if (trials < 1 || trials > (q->kind == GPU_ACC_PAGES ? GPU_MAX_CHASES : GPU_MAX_SAMPLES))
        return bad_req(dev, "access: too many or too few trials");
    gpu_status st = plan(dev, q, &a, res);
    if (st != GPU_OK) return st;
    if (!dev->be->access) {
        gpu_set_why(dev, "the %s backend has no access-pattern kernels", dev->be->name);
        return GPU_ERR_UNSUPPORTED;
    }
    uint64_t size[2], budget = gpu_alloc_budget(dev);
    gpu_access_buffers(&a, size);
    if (size[0] + size[1] > budget) {
        gpu_set_why_key(dev, GPU_WHY_ACCESS_CAP, (size[0] + size[1]) / 1048576.0,
                        budget / 1048576.0, 0, 0);
        return GPU_ERR_CAP;
    }
    if (q->kind == GPU_ACC_PAGES) {
        next = malloc(a.n * sizeof *next);
        if (!next) {
            gpu_set_why(dev, "pages: no host memory for a %llu-line cycle", (unsigned long long)a.n);
            return GPU_ERR_HOST_NOMEM;
        }
        sattolo(next, a.n, 0x9e3779b97f4a7c15ull ^ a.n ^ a.step);
        a.order = next;
        /* warm the TLBs and caches with one lap (a short walk past 4 x L2: no L2 to fill) */
        const bool cacheable = !dev->info.l2_bytes || a.n * 128 <= 4 * dev->info.l2_bytes;
        a.warm = cacheable ? (a.n < PAGES_STEPS ? a.n : PAGES_STEPS) : (a.n < 4096 ? a.n : 4096);
    }
    for (int i = 0; st == GPU_OK && i < 2; i++)
        if (size[i]) st = gpu_alloc(dev, size[i], &a.buf[i]);
    if (st == GPU_OK) st = call(dev, &a, GPU_ACC_PREPARE);
    dev->op_warn = 0;
    if (st == GPU_OK && q->kind == GPU_ACC_PAGES) {
        st = chase(dev, &a, next, trials, t, res, cancel);
    } else if (st == GPU_OK) {
        a.reps = 1; /* warm-up: clocks, caches, TLBs; it sizes the trials */
        if ((st = call(dev, &a, GPU_ACC_RUN)) == GPU_OK) reps = gpu_bench_reps(a.seconds);
        dev->op_warn = 0;
        for (int i = 0; st == GPU_OK && i < trials; i++) {
            a.reps = reps;
            if (gpu_cancelled(cancel)) st = GPU_ERR_CANCELLED;
            else if ((st = call(dev, &a, GPU_ACC_RUN)) == GPU_OK) t[i] = a.seconds;
        }
    }
    /* what the kernel read, summed, or what it wrote, element by element */
    const uint64_t want = gpu_access_expect_sum(&a);
    if (st == GPU_OK && q->kind != GPU_ACC_PAGES && want && a.sum != want) {
        gpu_set_why(dev, "validation failed: the kernel read a sum of %llu, not %llu; the figure "
                    "is not reported", (unsigned long long)a.sum, (unsigned long long)want);
        st = GPU_ERR_VALIDATION;
    }
    if (st == GPU_OK && !want && q->kind != GPU_ACC_PAGES) {
        if ((st = call(dev, &a, GPU_ACC_CHECK)) == GPU_OK && a.bad) {
            gpu_set_why(dev, "validation failed: %llu elements of the %s kernel's output differ "
                        "(first at %llu); the figure is not reported", (unsigned long long)a.bad,
                        gpu_access_name(q->kind), (unsigned long long)a.first);
            st = GPU_ERR_VALIDATION;
        }
    }
    for (int i = 1; i >= 0; i--)
        if (a.buf[i]) gpu_free(dev, a.buf[i], size[i]);
    free(next);
    if (st != GPU_OK) return st;

    gpu_stats(&res->r, t, trials);
    res->r.validated = true;
    res->window_set = a.window_set, res->setaside = a.setaside;
    if (q->kind == GPU_ACC_PAGES) {
        res->r.ns_per_load = res->r.best_s * 1e9;
        gpu_bench_finish(dev, &res->r, 1);
        res->r.warn &= ~GPU_WARN_FEW_TICKS; /* timed in-kernel, as gpu_bench_latency */
        res->r.ticks = 0;
        return GPU_OK;
    }
    res->r.moved_bytes = (uint64_t)res->sector_bytes;
    res->r.bytes_per_s = res->r.bytes / res->r.best_s;
    gpu_bench_finish(dev, &res->r, reps);
    return GPU_OK;
}
