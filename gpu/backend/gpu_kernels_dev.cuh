/* gpu_kernels_dev.cuh - what the .cu files of the cuda backend share (gpu_kernels.cu,
 * gpu_kernels_access.cu): on the device, the validation kernels' report, the GPU's clocks and the
 * pointer chase every latency probe times; on the host, sizing a kernel's grid for the device.
 * Each file gets its own copy (static inline: no relocatable device code needed). */
#ifndef GPU_KERNELS_DEV_CUH
#define GPU_KERNELS_DEV_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "gpu_kernels.h"

/* Counts per thread, one atomic per thread that found something: an all-right buffer costs no
 * atomics at all. */
static __device__ __forceinline__ void gpu_dev_report(unsigned long long bad,
                                                      unsigned long long first,
                                                      unsigned long long *res)
{
    if (!bad) return;
    atomicAdd(&res[0], bad);
    atomicMin(&res[1], first);
}

static __device__ __forceinline__ uint64_t gpu_dev_globaltimer(void)
{
    uint64_t t;
    /* "memory": no load may be moved across the timer read. */
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
    return t;
}

static __device__ __forceinline__ uint64_t gpu_dev_clock(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : : "memory");
    return t;
}

/* How a chase loads the next line's address. PLAIN: the C++ load, which the compiler makes a
 * generic load (it cannot prove a loaded pointer global; nvbandwidth's chase), through L1.
 * L2_ONLY: PTX ld.global.cg. L1: PTX ld.global.ca, a global load cached in L1, as the
 * microbenchmark papers chase ("Dissecting the NVIDIA Volta GPU Architecture via
 * Microbenchmarking", l1_lat): no generic-to-global check per load. cudaMalloc'd addresses are
 * the same as generic and global ones. (false and true, as template arguments, are PLAIN and
 * L2_ONLY.) */
enum { GPU_DEV_LOAD_PLAIN = 0, GPU_DEV_LOAD_L2_ONLY = 1, GPU_DEV_LOAD_L1 = 2 };

/* The next line's address, loaded from this one as LOAD says (the PTX ones kept by asm
 * volatile). */
template <int LOAD> static __device__ __forceinline__ uint64_t gpu_dev_next(uint64_t p)
{
    if (LOAD == GPU_DEV_LOAD_L2_ONLY) {
        uint64_t v;
        asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
        return v;
    }
    if (LOAD == GPU_DEV_LOAD_L1) {
        uint64_t v;
        asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
        return v;
    }
    return reinterpret_cast<uint64_t>(*reinterpret_cast<void *const *>(p));
}

/* One chase on the calling thread: `warm` untimed loads, then `steps` timed ones, each load's
 * result the next one's address (no address arithmetic between them); io gets where it stopped,
 * the nanoseconds (%globaltimer) and SM cycles (clock64) of the timed loads, and the SM. */
template <int LOAD>
static __device__ void gpu_dev_chase(gpu_k_chase_io *io, uint64_t warm, uint64_t steps)
{
    uint64_t p = io->p;
    for (uint64_t k = 0; k < warm; k++) p = gpu_dev_next<LOAD>(p);
    const uint64_t t0 = gpu_dev_globaltimer(), c0 = gpu_dev_clock();
#pragma unroll 8
    for (uint64_t k = 0; k < steps; k++) p = gpu_dev_next<LOAD>(p);
    const uint64_t c1 = gpu_dev_clock(), t1 = gpu_dev_globaltimer();
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    io->p = p;
    io->ns = t1 - t0;
    io->cycles = c1 - c0;
    io->sm = sm;
    io->ran = 1;
}

/* ---- host side ---------------------------------------------------------------------------- */

/* In an extern "C" wrapper: return a failed call's cudaError_t as int. */
#define GPU_DEV_TRY(expr)                                                                          \
    do {                                                                                           \
        const cudaError_t gpu_dev_e_ = (expr);                                                     \
        if (gpu_dev_e_ != cudaSuccess) return (int)gpu_dev_e_;                                     \
    } while (0)

/* The current device's multiprocessors (at least 1). */
static inline cudaError_t gpu_dev_sms(int *sms)
{
    int dev = 0, n = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev);
    *sms = n > 0 ? n : 1;
    return e;
}

/* A full device of `threads`-thread blocks for this kernel: its own resident blocks per SM x the
 * SMs, not another kernel's; its registers per thread into *regs when asked. Querying a kernel's
 * attributes also loads its module now rather than at its first launch (CUDA 12+ loads lazily,
 * and that delay must not land inside a timed run). */
template <typename K>
static inline cudaError_t gpu_dev_occupancy(K kernel, int threads, int sms, int *blocks, int *regs)
{
    int per_sm = 0;
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, kernel);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0);
    *blocks = sms * (per_sm > 0 ? per_sm : 1);
    if (regs) *regs = e == cudaSuccess ? a.numRegs : 0;
    return e;
}

#endif
