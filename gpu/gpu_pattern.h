/* gpu_pattern.h - the byte pattern that copies are validated with, one definition for the host
 * (C) and the device (CUDA): byte i of a buffer is byte i % 8 of mix(seed, i / 8). Every offset
 * holds its own value, so a copy that moved the wrong bytes, or the right bytes to a shifted
 * place, or nothing, cannot pass (nvbandwidth fills with an xorshift pattern the same way). */
#ifndef GPU_PATTERN_H
#define GPU_PATTERN_H

#include <stdint.h>

#ifdef __CUDACC__
#define GPU_PATTERN_FN __host__ __device__ static inline
#else
#define GPU_PATTERN_FN static inline
#endif

/* splitmix64 of the word index, keyed by the seed */
GPU_PATTERN_FN uint64_t gpu_pattern_word(uint64_t seed, uint64_t w)
{
    uint64_t z = w * 0x9e3779b97f4a7c15ull + seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Little-endian, as every host and GPU vramlab builds for: byte i of the word is bits 8i.. */
GPU_PATTERN_FN unsigned char gpu_pattern_byte(uint64_t seed, uint64_t i)
{
    return (unsigned char)(gpu_pattern_word(seed, i >> 3) >> (8 * (i & 7)));
}

#endif
