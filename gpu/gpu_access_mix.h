/* gpu_access_mix.h - the random order of GPU_ACC_RANDOM, one definition for the host (C: the
 * sectors a warp touches, the simulator) and the device (CUDA: the kernel's addresses). Read i of
 * an array of 2^m words goes to word gpu_access_mix(i, m): a bijection on m-bit numbers (xorshift
 * and odd multiplication, each invertible modulo 2^m), so every word is read exactly once and the
 * kernel's sum is known in closed form, yet neighbouring threads land far apart. */
#ifndef GPU_ACCESS_MIX_H
#define GPU_ACCESS_MIX_H

#include <stdint.h>

#ifdef __CUDACC__
#define GPU_MIX_FN __host__ __device__ static inline
#else
#define GPU_MIX_FN static inline
#endif

/* m: 1..63 bits */
GPU_MIX_FN uint64_t gpu_access_mix(uint64_t i, unsigned m)
{
    const uint64_t mask = (1ull << m) - 1;
    const unsigned h = (m + 1) / 2;
    uint64_t x = i & mask;
    x ^= x >> h;
    x = (x * 0x9e3779b97f4a7c15ull) & mask;
    x ^= x >> h;
    x = (x * 0xbf58476d1ce4e5b9ull) & mask;
    x ^= x >> h;
    return x;
}

#endif
