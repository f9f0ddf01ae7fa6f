/* gpu_kernels_access.h - the CUDA kernels of the access-pattern experiments (gpu_access.h),
 * reachable from C only through these extern "C" host wrappers (gpu_kernels_access.cu). Each
 * enqueues work on the given stream and returns a cudaError_t as int (0 = cudaSuccess); none
 * synchronizes, prints or exits. Plain C, like gpu_kernels.h: the stream is a
 * `struct CUstream_st *`. The read-only kernels write one partial sum per block (partial[0 ..
 * *nblocks), device memory, GPU_KA_MAX_BLOCKS of them) that the host adds up; the checks count
 * wrong elements into res[0] and the first one's index into res[1] (device memory, {0,
 * UINT64_MAX} on entry). */
#ifndef GPU_KERNELS_ACCESS_H
#define GPU_KERNELS_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gpu_ka_kernel {
    GPU_KA_INDEX, GPU_KA_STRIDE, GPU_KA_RANDOM, GPU_KA_REREAD, GPU_KA_HOTCOLD,
    GPU_KA_PFILL, GPU_KA_AOS, GPU_KA_SOA, GPU_KA_PCHECK,
    GPU_KA_TCHECK, GPU_KA_BANKS, GPU_KA_FFILL, GPU_KA_FMA, GPU_KA_FCHECK, GPU_KA_LINKS,
    GPU_KA_COUNT
};
#define GPU_KA_MAX_BLOCKS 4096

struct gpu_ka_launch {
    int threads;              /* per block, every grid-stride kernel */
    int sms;
    int blocks[GPU_KA_COUNT]; /* a full-device grid for each, at most GPU_KA_MAX_BLOCKS */
};
/* Size the launches for the current device and load the module now (not in a timed run). */
int gpu_ka_init(struct gpu_ka_launch *cfg);

/* Word w of p (4-byte words) holds w. */
int gpu_ka_fill_index(void *p, uint64_t words, const struct gpu_ka_launch *cfg,
                      struct CUstream_st *stream);
/* Thread i reads word i * stride + offset, i < n. */
int gpu_ka_stride(const uint32_t *p, uint64_t n, uint32_t stride, uint32_t offset,
                  unsigned long long *partial, int *nblocks, const struct gpu_ka_launch *cfg,
                  struct CUstream_st *stream);
/* Read i goes to word gpu_access_mix(i, log2n) of 2^log2n words. */
int gpu_ka_random(const uint32_t *p, unsigned log2n, unsigned long long *partial, int *nblocks,
                  const struct gpu_ka_launch *cfg, struct CUstream_st *stream);
/* n16 16-byte words read `passes` times, through L2 only (ld.global.cg). */
int gpu_ka_reread(const void *p, uint64_t n16, uint32_t passes, unsigned long long *partial,
                  int *nblocks, const struct gpu_ka_launch *cfg, struct CUstream_st *stream);
/* The cold array's 16-byte words once each, beside each the hot array's (j mod hot16), L2 only. */
int gpu_ka_hotcold(const void *hot, uint64_t hot16, const void *cold, uint64_t cold16,
                   unsigned long long *partial, int *nblocks, const struct gpu_ka_launch *cfg,
                   struct CUstream_st *stream);
/* Particles: x = k & 1023, y = (k >> 10) & 1023, z = (k >> 20) & 1023 (exact in float), the
 * other fields -1; as structs of `fields` floats (soa = 0) or as arrays x[n] y[n] z[n]. */
int gpu_ka_particles_fill(float *p, uint64_t n, uint32_t fields, int soa,
                          const struct gpu_ka_launch *cfg, struct CUstream_st *stream);
/* r2[k] = x*x + y*y + z*z */
int gpu_ka_particles(const float *p, float *r2, uint64_t n, uint32_t fields, int soa,
                     const struct gpu_ka_launch *cfg, struct CUstream_st *stream);
int gpu_ka_particles_check(const float *r2, uint64_t n, unsigned long long *res,
                           const struct gpu_ka_launch *cfg, struct CUstream_st *stream);
/* An n x n matrix of 4-byte words, n a multiple of 32: variant 0 copies it, 1 transposes it
 * naively, 2 through a 32 x 32 shared tile, 3 through a 32 x 33 one. */
int gpu_ka_transpose(int variant, const uint32_t *in, uint32_t *out, uint32_t n,
                     struct CUstream_st *stream);
/* out[r][c] against r * n + c (copy) or c * n + r (transposed), in held word w = w */
int gpu_ka_transpose_check(const uint32_t *out, uint32_t n, int transposed,
                           unsigned long long *res, const struct gpu_ka_launch *cfg,
                           struct CUstream_st *stream);
/* sms x 4 blocks of 256 threads; lane k reads shared word (k * stride + j) % 4096, j < loads
 * (loads <= 2^19; the array holds word w = w). */
int gpu_ka_banks(uint32_t stride, uint64_t loads, unsigned long long *partial, int *nblocks,
                 const struct gpu_ka_launch *cfg, struct CUstream_st *stream);
/* x[i] = (i & 1023) / 1024; y[i] = p(x[i]), p of degree fmas by Horner with coefficients 1/2. */
int gpu_ka_fma_fill(float *x, uint64_t n, const struct gpu_ka_launch *cfg,
                    struct CUstream_st *stream);
int gpu_ka_fma(const float *x, float *y, uint64_t n, uint32_t fmas,
               const struct gpu_ka_launch *cfg, struct CUstream_st *stream);
int gpu_ka_fma_check(const float *x, const float *y, uint64_t n, uint32_t fmas,
                     unsigned long long *res, const struct gpu_ka_launch *cfg,
                     struct CUstream_st *stream);
/* The page chase's cycle: line k at byte k * step + (k * 128) % step of buf holds the device
 * address of line next[k] (next: device memory, `lines` entries). */
int gpu_ka_links(void *buf, const uint32_t *next, uint64_t lines, uint64_t step,
                 const struct gpu_ka_launch *cfg, struct CUstream_st *stream);
/* Like gpu_k_chase (same io), with every load through L2 only (ld.global.cg): the lines' data
 * stays in one cache level whatever their number, so what rises with the footprint is the
 * address translation. */
int gpu_ka_chase(struct gpu_k_chase_io *io, uint64_t warm, uint64_t steps, int target,
                 const struct gpu_ka_launch *cfg, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif
