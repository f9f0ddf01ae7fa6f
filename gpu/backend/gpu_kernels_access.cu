/* gpu_kernels_access.cu - the device code of the access-pattern experiments (gpu_access.h):
 * strided and random reads, particles as structs or arrays, a working set re-read through L2, a
 * hot array beside a streamed cold one, the matrix transposes (after Harris, "An Efficient
 * Matrix Transpose in CUDA C/C++", NVIDIA, 2013), shared-memory bank conflicts, a Horner
 * polynomial of chosen arithmetic intensity and a page-strided pointer chase, each with what
 * validates it: the read kernels' sums, a check kernel for every output. Behind the extern "C"
 * wrappers of gpu_kernels_access.h; wrappers return cudaError_t as int and never exit. */
#include "gpu_kernels_access.h"

#include <cuda_runtime.h>

#include "gpu_access_mix.h"
#include "gpu_kernels_dev.cuh"

namespace
{

const int ka_threads = 256;
const int ka_tile = 32, ka_rows = 8; /* the transposes: 32 x 32 tiles, 32 x 8 threads */
const uint32_t ka_bank_words = 4096; /* gpu_access.h's GPU_BANKS_WORDS */

/* One partial sum per block: warp shuffles, then the warps' sums through shared memory. */
__device__ void ka_block_sum(unsigned long long acc, unsigned long long *partial)
{
    __shared__ unsigned long long warp_sum[32];
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane == 0) warp_sum[w] = acc;
    __syncthreads();
    if (w) return;
    acc = lane < (int)(blockDim.x >> 5) ? warp_sum[lane] : 0;
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0) partial[blockIdx.x] = acc;
}

/* 16-byte loads that skip L1 (PTX ld.global.cg: "cache at global level"), kept by asm
 * volatile: the same address re-read on every pass must be read again. */
__device__ __forceinline__ uint4 ka_ldcg4(const uint4 *p)
{
    uint4 v;
    asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
    return v;
}

__device__ __forceinline__ unsigned long long ka_sum4(uint4 v)
{
    return (unsigned long long)v.x + v.y + v.z + v.w;
}

__global__ void __launch_bounds__(ka_threads) k_fill_index(uint32_t *p, uint64_t n)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += g)
        p[i] = (uint32_t)i;
}

/* Four loads in flight per thread before they are added: enough bytes in flight for DRAM's
 * latency (Little's law) at every stride. */
__global__ void __launch_bounds__(ka_threads)
    k_stride(const uint32_t *__restrict__ p, uint64_t n, uint32_t stride, uint32_t offset,
             unsigned long long *partial)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long acc = 0;
    for (; i + 3 * g < n; i += 4 * g) {
        const uint32_t a = p[i * stride + offset], b = p[(i + g) * stride + offset],
                       c = p[(i + 2 * g) * stride + offset], d = p[(i + 3 * g) * stride + offset];
        acc += (unsigned long long)a + b + c + d;
    }
    for (; i < n; i += g) acc += p[i * stride + offset];
    ka_block_sum(acc, partial);
}

__global__ void __launch_bounds__(ka_threads)
    k_random(const uint32_t *__restrict__ p, unsigned m, unsigned long long *partial)
{
    const uint64_t n = 1ull << m, g = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long acc = 0;
    for (; i + 3 * g < n; i += 4 * g) {
        const uint32_t a = p[gpu_access_mix(i, m)], b = p[gpu_access_mix(i + g, m)],
                       c = p[gpu_access_mix(i + 2 * g, m)], d = p[gpu_access_mix(i + 3 * g, m)];
        acc += (unsigned long long)a + b + c + d;
    }
    for (; i < n; i += g) acc += p[gpu_access_mix(i, m)];
    ka_block_sum(acc, partial);
}

/* passes x n16 reads in all, spread over the grid: read v goes to word v mod n16, kept as a
 * counter that wraps (no division per load), so even a set smaller than the grid keeps every
 * thread busy. */
__global__ void __launch_bounds__(ka_threads)
    k_reread(const uint4 *p, uint64_t n16, uint64_t total, unsigned long long *partial)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x, step = g % n16;
    uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, e = v % n16;
    unsigned long long acc = 0;
#define KA_NEXT(e)                                                                                 \
    do {                                                                                           \
        e += step;                                                                                 \
        if (e >= n16) e -= n16;                                                                    \
    } while (0)
    for (; v + 3 * g < total; v += 4 * g) {
        const uint64_t e0 = e;
        KA_NEXT(e);
        const uint64_t e1 = e;
        KA_NEXT(e);
        const uint64_t e2 = e;
        KA_NEXT(e);
        const uint64_t e3 = e;
        KA_NEXT(e);
        const uint4 a = ka_ldcg4(p + e0), b = ka_ldcg4(p + e1), c = ka_ldcg4(p + e2),
                    d = ka_ldcg4(p + e3);
        acc += ka_sum4(a) + ka_sum4(b) + ka_sum4(c) + ka_sum4(d);
    }
    for (; v < total; v += g) {
        acc += ka_sum4(ka_ldcg4(p + e));
        KA_NEXT(e);
    }
    ka_block_sum(acc, partial);
}

__global__ void __launch_bounds__(ka_threads)
    k_hotcold(const uint4 *hot, uint64_t hot16, const uint4 *cold, uint64_t cold16,
              unsigned long long *partial)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x, n16 = hot16, step = g % hot16;
    uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, e = j % hot16;
    unsigned long long acc = 0;
    for (; j + g < cold16; j += 2 * g) {
        const uint64_t e0 = e;
        KA_NEXT(e);
        const uint64_t e1 = e;
        KA_NEXT(e);
        const uint4 a = ka_ldcg4(cold + j), b = ka_ldcg4(cold + j + g), c = ka_ldcg4(hot + e0),
                    d = ka_ldcg4(hot + e1);
        acc += ka_sum4(a) + ka_sum4(b) + ka_sum4(c) + ka_sum4(d);
    }
    for (; j < cold16; j += g) {
        acc += ka_sum4(ka_ldcg4(cold + j)) + ka_sum4(ka_ldcg4(hot + e));
        KA_NEXT(e);
    }
#undef KA_NEXT
    ka_block_sum(acc, partial);
}

__device__ __forceinline__ float ka_coord(uint64_t k, int j)
{
    return (float)((k >> (10 * j)) & 1023);
}

__global__ void __launch_bounds__(ka_threads)
    k_particles_fill(float *p, uint64_t n, uint32_t fields, int soa)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += g) {
        if (soa) {
            for (int j = 0; j < 3; j++) p[j * n + k] = ka_coord(k, j);
        } else {
            for (uint32_t j = 0; j < fields; j++) p[k * fields + j] = j < 3 ? ka_coord(k, (int)j) : -1.0f;
        }
    }
}

/* The particle kernel of both layouts: the same arithmetic (3 multiplications, 2 additions),
 * only the addresses differ. */
template <int SOA>
__global__ void __launch_bounds__(ka_threads)
    k_particles(const float *__restrict__ p, float *__restrict__ r2, uint64_t n, uint32_t fields)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += g) {
        const float x = SOA ? p[k] : p[k * fields], y = SOA ? p[n + k] : p[k * fields + 1],
                    z = SOA ? p[2 * n + k] : p[k * fields + 2];
        r2[k] = x * x + y * y + z * z;
    }
}

__global__ void __launch_bounds__(ka_threads)
    k_particles_check(const float *r2, uint64_t n, unsigned long long *res)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0, first = ~0ull;
    for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += g) {
        const float x = ka_coord(k, 0), y = ka_coord(k, 1), z = ka_coord(k, 2);
        /* integers below 2^24: every product and sum is exact, in any order */
        if (r2[k] != x * x + y * y + z * z && (!bad++ || k < first)) first = k;
    }
    gpu_dev_report(bad, first, res);
}

/* The transposes, as in Harris's article (the CUDA samples' transpose has the same kernels with
 * 32 x 16 blocks): a block of 32 x 8 threads moves a 32 x 32 tile, each thread 4 elements, 8
 * rows apart. */
__global__ void k_tcopy(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, uint32_t n)
{
    const uint32_t x = blockIdx.x * ka_tile + threadIdx.x, y = blockIdx.y * ka_tile + threadIdx.y;
    for (int j = 0; j < ka_tile; j += ka_rows)
        out[(uint64_t)(y + j) * n + x] = in[(uint64_t)(y + j) * n + x];
}

/* reads coalesced, writes down a column: each warp's store touches 32 rows */
__global__ void k_tnaive(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, uint32_t n)
{
    const uint32_t x = blockIdx.x * ka_tile + threadIdx.x, y = blockIdx.y * ka_tile + threadIdx.y;
    for (int j = 0; j < ka_tile; j += ka_rows)
        out[(uint64_t)x * n + y + j] = in[(uint64_t)(y + j) * n + x];
}

/* through shared memory: a tile read by rows, written by rows; reading it back by columns puts
 * a warp's 32 words in one bank unless each row is PAD words longer than 32 */
template <int PAD>
__global__ void k_ttiled(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, uint32_t n)
{
    __shared__ uint32_t tile[ka_tile][ka_tile + PAD];
    uint32_t x = blockIdx.x * ka_tile + threadIdx.x, y = blockIdx.y * ka_tile + threadIdx.y;
    for (int j = 0; j < ka_tile; j += ka_rows)
        tile[threadIdx.y + j][threadIdx.x] = in[(uint64_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * ka_tile + threadIdx.x;
    y = blockIdx.x * ka_tile + threadIdx.y;
    for (int j = 0; j < ka_tile; j += ka_rows)
        out[(uint64_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void __launch_bounds__(ka_threads)
    k_transpose_check(const uint32_t *out, uint32_t n, int transposed, unsigned long long *res)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x, nn = (uint64_t)n * n;
    unsigned long long bad = 0, first = ~0ull;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nn; i += g) {
        const uint64_t r = i / n, c = i % n;
        const uint32_t want = (uint32_t)(transposed ? c * n + r : i);
        if (out[i] != want && (!bad++ || i < first)) first = i;
    }
    gpu_dev_report(bad, first, res);
}

/* Lane k reads word (k * stride + j) % 4096 for j = 0, 1, ...: 32 loads at a time from one
 * base, with the array's first 32 words repeated past its end so that no load wraps (the
 * compiler folds the 32 offsets into the loads' immediates): what is timed is the loads. */
__global__ void __launch_bounds__(ka_threads)
    k_banks(uint32_t stride, uint64_t loads, unsigned long long *partial)
{
    __shared__ uint32_t sh[ka_bank_words + 32];
    for (uint32_t w = threadIdx.x; w < ka_bank_words + 32; w += blockDim.x) sh[w] = w % ka_bank_words;
    __syncthreads();
    uint32_t base = ((threadIdx.x & 31) * stride) % ka_bank_words, acc = 0;
    uint64_t j = 0;
    for (; j + 32 <= loads; j += 32) {
#pragma unroll
        for (int u = 0; u < 32; u++) acc += sh[base + u];
        base = (base + 32) % ka_bank_words;
    }
    for (; j < loads; j++) {
        acc += sh[base];
        base = (base + 1) % ka_bank_words;
    }
    ka_block_sum(acc, partial);
}

__device__ __forceinline__ float ka_horner(float v, uint32_t fmas)
{
    float acc = 0.5f;
#pragma unroll 16
    for (uint32_t k = 0; k < fmas; k++) acc = __fmaf_rn(acc, v, 0.5f);
    return acc;
}

__global__ void __launch_bounds__(ka_threads) k_fma_fill(float *x, uint64_t n)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += g)
        x[i] = (float)(i & 1023) / 1024.0f;
}

__global__ void __launch_bounds__(ka_threads)
    k_fma(const float *__restrict__ x, float *__restrict__ y, uint64_t n, uint32_t fmas)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += g)
        y[i] = ka_horner(x[i], fmas);
}

/* the same fused operations in the same order: the same bits */
__global__ void __launch_bounds__(ka_threads)
    k_fma_check(const float *x, const float *y, uint64_t n, uint32_t fmas, unsigned long long *res)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0, first = ~0ull;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += g)
        if (__float_as_uint(y[i]) != __float_as_uint(ka_horner((float)(i & 1023) / 1024.0f, fmas)) &&
            (!bad++ || i < first))
            first = i;
    (void)x;
    gpu_dev_report(bad, first, res);
}

__device__ __forceinline__ uint64_t ka_line(uint64_t k, uint64_t step)
{
    return k * step + (k * 128) % step; /* a line's place: one per step, spread over the sets */
}

__global__ void __launch_bounds__(ka_threads)
    k_links(unsigned char *buf, const uint32_t *next, uint64_t lines, uint64_t step)
{
    const uint64_t g = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < lines; k += g)
        *reinterpret_cast<uint64_t *>(buf + ka_line(k, step)) =
            reinterpret_cast<uint64_t>(buf + ka_line(next[k], step));
}

/* through L2 only: the lines' data stays in one level, whatever their number */
__global__ void k_page_chase(gpu_k_chase_io *io, uint64_t warm, uint64_t steps, int target)
{
    if ((int)blockIdx.x == target) gpu_dev_chase<true>(io, warm, steps);
}

bool ka_ok(const gpu_ka_launch *cfg)
{
    return cfg && cfg->threads > 0 && cfg->sms > 0;
}

/* Blocks for a grid-stride kernel over `items`: no more than they need, at most a full device. */
unsigned ka_grid(const gpu_ka_launch *cfg, int id, uint64_t items)
{
    uint64_t b = (items + (uint64_t)cfg->threads - 1) / (uint64_t)cfg->threads;
    if (b > (uint64_t)cfg->blocks[id]) b = (uint64_t)cfg->blocks[id];
    return b < 1 ? 1u : (unsigned)b;
}

/* A full device of blocks for one kernel, within the partial sums' room. */
template <typename K> cudaError_t ka_size(gpu_ka_launch *cfg, int id, K kernel)
{
    int b = 0;
    const cudaError_t e = gpu_dev_occupancy(kernel, ka_threads, cfg->sms, &b, NULL);
    cfg->blocks[id] = b < GPU_KA_MAX_BLOCKS ? b : GPU_KA_MAX_BLOCKS;
    return e;
}

/* a read kernel's launch: its grid, then the block count the host adds up */
template <typename F> int ka_read(const gpu_ka_launch *cfg, int id, uint64_t items, int *nblocks, F launch)
{
    const unsigned g = ka_grid(cfg, id, items);
    *nblocks = (int)g;
    launch(g);
    return (int)cudaGetLastError();
}

} // namespace

#define KA_TRY GPU_DEV_TRY

extern "C" int gpu_ka_init(struct gpu_ka_launch *cfg)
{
    KA_TRY(gpu_dev_sms(&cfg->sms));
    cfg->threads = ka_threads;
    KA_TRY(ka_size(cfg, GPU_KA_INDEX, k_fill_index));
    KA_TRY(ka_size(cfg, GPU_KA_STRIDE, k_stride));
    KA_TRY(ka_size(cfg, GPU_KA_RANDOM, k_random));
    KA_TRY(ka_size(cfg, GPU_KA_REREAD, k_reread));
    KA_TRY(ka_size(cfg, GPU_KA_HOTCOLD, k_hotcold));
    KA_TRY(ka_size(cfg, GPU_KA_PFILL, k_particles_fill));
    KA_TRY(ka_size(cfg, GPU_KA_AOS, k_particles<0>));
    KA_TRY(ka_size(cfg, GPU_KA_SOA, k_particles<1>));
    KA_TRY(ka_size(cfg, GPU_KA_PCHECK, k_particles_check));
    KA_TRY(ka_size(cfg, GPU_KA_TCHECK, k_transpose_check));
    KA_TRY(ka_size(cfg, GPU_KA_BANKS, k_banks));
    KA_TRY(ka_size(cfg, GPU_KA_FFILL, k_fma_fill));
    KA_TRY(ka_size(cfg, GPU_KA_FMA, k_fma));
    KA_TRY(ka_size(cfg, GPU_KA_FCHECK, k_fma_check));
    KA_TRY(ka_size(cfg, GPU_KA_LINKS, k_links));
    cudaFuncAttributes a;
    KA_TRY(cudaFuncGetAttributes(&a, k_tcopy));
    KA_TRY(cudaFuncGetAttributes(&a, k_tnaive));
    KA_TRY(cudaFuncGetAttributes(&a, k_ttiled<0>));
    KA_TRY(cudaFuncGetAttributes(&a, k_ttiled<1>));
    KA_TRY(cudaFuncGetAttributes(&a, k_page_chase));
    return (int)cudaSuccess;
}

extern "C" int gpu_ka_fill_index(void *p, uint64_t words, const struct gpu_ka_launch *cfg,
                                 struct CUstream_st *stream)
{
    if (!p || !ka_ok(cfg)) return (int)cudaErrorInvalidValue;
    k_fill_index<<<ka_grid(cfg, GPU_KA_INDEX, words), ka_threads, 0, stream>>>(
        static_cast<uint32_t *>(p), words);
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_stride(const uint32_t *p, uint64_t n, uint32_t stride, uint32_t offset,
                             unsigned long long *partial, int *nblocks,
                             const struct gpu_ka_launch *cfg, struct CUstream_st *stream)
{
    if (!p || !partial || !nblocks || !ka_ok(cfg) || stride < 1) return (int)cudaErrorInvalidValue;
    return ka_read(cfg, GPU_KA_STRIDE, n, nblocks, [&](unsigned g) {
        k_stride<<<g, ka_threads, 0, stream>>>(p, n, stride, offset, partial);
    });
}

extern "C" int gpu_ka_random(const uint32_t *p, unsigned log2n, unsigned long long *partial,
                             int *nblocks, const struct gpu_ka_launch *cfg,
                             struct CUstream_st *stream)
{
    if (!p || !partial || !nblocks || !ka_ok(cfg) || log2n < 5 || log2n > 40)
        return (int)cudaErrorInvalidValue;
    return ka_read(cfg, GPU_KA_RANDOM, 1ull << log2n, nblocks, [&](unsigned g) {
        k_random<<<g, ka_threads, 0, stream>>>(p, log2n, partial);
    });
}

extern "C" int gpu_ka_reread(const void *p, uint64_t n16, uint32_t passes,
                             unsigned long long *partial, int *nblocks,
                             const struct gpu_ka_launch *cfg, struct CUstream_st *stream)
{
    if (!p || !n16 || !partial || !nblocks || !ka_ok(cfg) || ((uintptr_t)p & 15))
        return (int)cudaErrorInvalidValue;
    const uint64_t total = n16 * passes;
    return ka_read(cfg, GPU_KA_REREAD, total, nblocks, [&](unsigned g) {
        k_reread<<<g, ka_threads, 0, stream>>>(static_cast<const uint4 *>(p), n16, total, partial);
    });
}

extern "C" int gpu_ka_hotcold(const void *hot, uint64_t hot16, const void *cold, uint64_t cold16,
                              unsigned long long *partial, int *nblocks,
                              const struct gpu_ka_launch *cfg, struct CUstream_st *stream)
{
    if (!hot || !cold || !hot16 || !partial || !nblocks || !ka_ok(cfg) ||
        (((uintptr_t)hot | (uintptr_t)cold) & 15))
        return (int)cudaErrorInvalidValue;
    return ka_read(cfg, GPU_KA_HOTCOLD, cold16, nblocks, [&](unsigned g) {
        k_hotcold<<<g, ka_threads, 0, stream>>>(static_cast<const uint4 *>(hot), hot16,
                                                static_cast<const uint4 *>(cold), cold16, partial);
    });
}

extern "C" int gpu_ka_particles_fill(float *p, uint64_t n, uint32_t fields, int soa,
                                     const struct gpu_ka_launch *cfg, struct CUstream_st *stream)
{
    if (!p || !ka_ok(cfg) || fields < 3) return (int)cudaErrorInvalidValue;
    k_particles_fill<<<ka_grid(cfg, GPU_KA_PFILL, n), ka_threads, 0, stream>>>(p, n, fields, soa);
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_particles(const float *p, float *r2, uint64_t n, uint32_t fields, int soa,
                                const struct gpu_ka_launch *cfg, struct CUstream_st *stream)
{
    if (!p || !r2 || !ka_ok(cfg) || fields < 3) return (int)cudaErrorInvalidValue;
    if (soa)
        k_particles<1><<<ka_grid(cfg, GPU_KA_SOA, n), ka_threads, 0, stream>>>(p, r2, n, fields);
    else
        k_particles<0><<<ka_grid(cfg, GPU_KA_AOS, n), ka_threads, 0, stream>>>(p, r2, n, fields);
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_particles_check(const float *r2, uint64_t n, unsigned long long *res,
                                      const struct gpu_ka_launch *cfg, struct CUstream_st *stream)
{
    if (!r2 || !res || !ka_ok(cfg)) return (int)cudaErrorInvalidValue;
    k_particles_check<<<ka_grid(cfg, GPU_KA_PCHECK, n), ka_threads, 0, stream>>>(r2, n, res);
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_transpose(int variant, const uint32_t *in, uint32_t *out, uint32_t n,
                                struct CUstream_st *stream)
{
    if (!in || !out || n < 32 || n % ka_tile || n / ka_tile > 65535)
        return (int)cudaErrorInvalidValue;
    const dim3 grid(n / ka_tile, n / ka_tile), block(ka_tile, ka_rows);
    switch (variant) {
    case 0: k_tcopy<<<grid, block, 0, stream>>>(in, out, n); break;
    case 1: k_tnaive<<<grid, block, 0, stream>>>(in, out, n); break;
    case 2: k_ttiled<0><<<grid, block, 0, stream>>>(in, out, n); break;
    case 3: k_ttiled<1><<<grid, block, 0, stream>>>(in, out, n); break;
    default: return (int)cudaErrorInvalidValue;
    }
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_transpose_check(const uint32_t *out, uint32_t n, int transposed,
                                      unsigned long long *res, const struct gpu_ka_launch *cfg,
                                      struct CUstream_st *stream)
{
    if (!out || !res || !ka_ok(cfg)) return (int)cudaErrorInvalidValue;
    k_transpose_check<<<ka_grid(cfg, GPU_KA_TCHECK, (uint64_t)n * n), ka_threads, 0, stream>>>(
        out, n, transposed, res);
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_banks(uint32_t stride, uint64_t loads, unsigned long long *partial,
                            int *nblocks, const struct gpu_ka_launch *cfg,
                            struct CUstream_st *stream)
{
    if (!partial || !nblocks || !ka_ok(cfg) || loads > (1u << 19) || cfg->sms * 4 > GPU_KA_MAX_BLOCKS)
        return (int)cudaErrorInvalidValue;
    *nblocks = cfg->sms * 4; /* gpu_access.h: GPU_BANKS_THREADS_PER_SM threads per SM */
    k_banks<<<(unsigned)*nblocks, ka_threads, 0, stream>>>(stride, loads, partial);
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_fma_fill(float *x, uint64_t n, const struct gpu_ka_launch *cfg,
                               struct CUstream_st *stream)
{
    if (!x || !ka_ok(cfg)) return (int)cudaErrorInvalidValue;
    k_fma_fill<<<ka_grid(cfg, GPU_KA_FFILL, n), ka_threads, 0, stream>>>(x, n);
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_fma(const float *x, float *y, uint64_t n, uint32_t fmas,
                          const struct gpu_ka_launch *cfg, struct CUstream_st *stream)
{
    if (!x || !y || !ka_ok(cfg)) return (int)cudaErrorInvalidValue;
    k_fma<<<ka_grid(cfg, GPU_KA_FMA, n), ka_threads, 0, stream>>>(x, y, n, fmas);
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_fma_check(const float *x, const float *y, uint64_t n, uint32_t fmas,
                                unsigned long long *res, const struct gpu_ka_launch *cfg,
                                struct CUstream_st *stream)
{
    if (!x || !y || !res || !ka_ok(cfg)) return (int)cudaErrorInvalidValue;
    k_fma_check<<<ka_grid(cfg, GPU_KA_FCHECK, n), ka_threads, 0, stream>>>(x, y, n, fmas, res);
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_links(void *buf, const uint32_t *next, uint64_t lines, uint64_t step,
                            const struct gpu_ka_launch *cfg, struct CUstream_st *stream)
{
    if (!buf || !next || !ka_ok(cfg) || step < 128 || step % 128) return (int)cudaErrorInvalidValue;
    k_links<<<ka_grid(cfg, GPU_KA_LINKS, lines), ka_threads, 0, stream>>>(
        static_cast<unsigned char *>(buf), next, lines, step);
    return (int)cudaGetLastError();
}

extern "C" int gpu_ka_chase(struct gpu_k_chase_io *io, uint64_t warm, uint64_t steps, int target,
                            const struct gpu_ka_launch *cfg, struct CUstream_st *stream)
{
    if (!io || !ka_ok(cfg) || target < 0 || target >= cfg->sms) return (int)cudaErrorInvalidValue;
    k_page_chase<<<(unsigned)cfg->sms, 1, 0, stream>>>(io, warm, steps, target);
    return (int)cudaGetLastError();
}
