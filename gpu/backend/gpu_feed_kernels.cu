/* gpu_feed_kernels.cu - the device code of programs that feed the GPU: a pattern fill, the
 * kernel whose time a program asks for (x = A x + C, `rounds` times per word: integer work with
 * a closed form, so its output is checked exactly), and a check that reads every word of a range
 * and counts those that differ from what the program put there. Each reaches device, mapped
 * (zero-copy) and managed memory alike. Wrappers return cudaError_t as int and never exit. */
#include "gpu_feed_kernels.h"

#include <cuda_runtime.h>

#include "gpu_kernels_dev.cuh"
#include "gpu_pattern.h"

namespace
{

const int fk_threads = 256;
const uint32_t fk_a = 1664525u, fk_c = 1013904223u; /* GPU_FEED_A, GPU_FEED_C of gpu_feed.h */

__global__ void __launch_bounds__(fk_threads) k_fk_fill(uint32_t *p, size_t n, uint64_t base,
                                                        uint32_t seed)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x; w < n; w += stride)
        p[w] = (uint32_t)gpu_pattern_word(seed, base + w);
}

/* Four independent words per thread in flight, so the dependent chain of each word's rounds
 * overlaps with the others' and the SMs' integer units stay busy. */
__global__ void __launch_bounds__(fk_threads) k_fk_rounds(uint32_t *p, size_t n, uint64_t rounds)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; w + 3 * stride < n; w += 4 * stride) {
        uint32_t x0 = p[w], x1 = p[w + stride], x2 = p[w + 2 * stride], x3 = p[w + 3 * stride];
        for (uint64_t r = 0; r < rounds; r++) {
            x0 = fk_a * x0 + fk_c;
            x1 = fk_a * x1 + fk_c;
            x2 = fk_a * x2 + fk_c;
            x3 = fk_a * x3 + fk_c;
        }
        p[w] = x0, p[w + stride] = x1, p[w + 2 * stride] = x2, p[w + 3 * stride] = x3;
    }
    for (; w < n; w += stride) {
        uint32_t x = p[w];
        for (uint64_t r = 0; r < rounds; r++) x = fk_a * x + fk_c;
        p[w] = x;
    }
}

__global__ void __launch_bounds__(fk_threads)
    k_fk_check(const uint32_t *p, const gpu_fk_segs segs, unsigned long long *res)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const uint64_t total = segs.s[segs.n - 1].first + segs.s[segs.n - 1].count;
    unsigned long long bad = 0, first = ~0ull;
    int k = 0;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; w < total; w += stride) {
        while (w >= segs.s[k].first + segs.s[k].count) k++; /* w only grows */
        const uint32_t pat = (uint32_t)gpu_pattern_word(segs.s[k].seed,
                                                        segs.s[k].base + (w - segs.s[k].first));
        if (p[w] != segs.s[k].a * pat + segs.s[k].c && (!bad++ || w < first)) first = w;
    }
    gpu_dev_report(bad, first, res);
}

unsigned fk_grid(const gpu_fk_launch *cfg, int id, size_t items)
{
    size_t b = (items + (size_t)cfg->threads - 1) / (size_t)cfg->threads;
    if (b > (size_t)cfg->blocks[id]) b = (size_t)cfg->blocks[id];
    return b < 1 ? 1u : (unsigned)b;
}

} // namespace

extern "C" int gpu_fk_init(struct gpu_fk_launch *cfg)
{
    int sms = 1;
    GPU_DEV_TRY(gpu_dev_sms(&sms));
    cfg->threads = fk_threads;
    GPU_DEV_TRY(gpu_dev_occupancy(k_fk_fill, fk_threads, sms, &cfg->blocks[GPU_FK_FILL], NULL));
    GPU_DEV_TRY(gpu_dev_occupancy(k_fk_rounds, fk_threads, sms, &cfg->blocks[GPU_FK_ROUNDS], NULL));
    GPU_DEV_TRY(gpu_dev_occupancy(k_fk_check, fk_threads, sms, &cfg->blocks[GPU_FK_CHECK], NULL));
    return (int)cudaSuccess;
}

extern "C" int gpu_fk_fill(uint32_t *p, size_t n, uint64_t base, uint32_t seed,
                           const struct gpu_fk_launch *cfg, struct CUstream_st *stream)
{
    if (n == 0) return (int)cudaSuccess;
    if (!p || !cfg || cfg->threads < 1) return (int)cudaErrorInvalidValue;
    k_fk_fill<<<fk_grid(cfg, GPU_FK_FILL, n), (unsigned)cfg->threads, 0, stream>>>(p, n, base, seed);
    return (int)cudaGetLastError();
}

extern "C" int gpu_fk_rounds(uint32_t *p, size_t n, uint64_t rounds, const struct gpu_fk_launch *cfg,
                             struct CUstream_st *stream)
{
    if (n == 0) return (int)cudaSuccess;
    if (!p || !cfg || cfg->threads < 1) return (int)cudaErrorInvalidValue;
    k_fk_rounds<<<fk_grid(cfg, GPU_FK_ROUNDS, n), (unsigned)cfg->threads, 0, stream>>>(p, n, rounds);
    return (int)cudaGetLastError();
}

extern "C" int gpu_fk_check(const uint32_t *p, const struct gpu_fk_segs *segs,
                            unsigned long long *res, const struct gpu_fk_launch *cfg,
                            struct CUstream_st *stream)
{
    if (!p || !segs || segs->n < 1 || segs->n > GPU_FK_SEGS || !res || !cfg || cfg->threads < 1)
        return (int)cudaErrorInvalidValue;
    const uint64_t total = segs->s[segs->n - 1].first + segs->s[segs->n - 1].count;
    k_fk_check<<<fk_grid(cfg, GPU_FK_CHECK, (size_t)total), (unsigned)cfg->threads, 0, stream>>>(
        p, *segs, res);
    return (int)cudaGetLastError();
}
