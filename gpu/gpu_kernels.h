/* gpu_kernels.h - the CUDA kernels of the cuda backend, reachable from C only through these
 * extern "C" host wrappers (gpu_kernels.cu). Each wrapper enqueues work on the given stream and
 * returns a cudaError_t as int (0 = cudaSuccess); none synchronizes, prints or exits.
 * Plain C on purpose: the stream is passed as `struct CUstream_st *`, which is what cudaStream_t
 * is, so this header needs no CUDA header. */
#ifndef GPU_KERNELS_H
#define GPU_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct CUstream_st;

/* Launch shape that fills the device: `blocks` = SM count x resident blocks per SM. */
struct gpu_k_launch {
    int threads; /* per block */
    int blocks;  /* for a full-device grid-stride kernel */
};

/* Size the launch for the current device and load every kernel's module now (CUDA 12+ loads
 * modules lazily, at the first launch: that host-side delay must not land inside a timed run). */
int gpu_k_init(struct gpu_k_launch *cfg);

/* SM copy of `bytes` from src to dst (device-accessible pointers: device memory or page-locked
 * mapped host memory). 16-byte vector loads/stores when src and dst agree modulo 16 (a few
 * scalar bytes for head and tail), narrower words otherwise. The buffers must not overlap. */
int gpu_k_copy(void *dst, const void *src, size_t bytes, const struct gpu_k_launch *cfg,
               struct CUstream_st *stream);

/* One STREAM kernel over n doubles per array (McCalpin's definitions, scalar s = 3):
 * kind 2 copy c = a, 3 scale b = s*c, 4 add c = a + b, 5 triad a = b + s*c (the values of
 * enum gpu_host_kind). Arrays must be 16-byte aligned (cudaMalloc'd). */
int gpu_k_stream(int kind, double *a, double *b, double *c, size_t n,
                 const struct gpu_k_launch *cfg, struct CUstream_st *stream);

/* Read every byte of buf once with the whole device (pulls it into L2 and warms the TLBs before a
 * latency chase). The reads feed a value the compiler cannot discard. */
int gpu_k_touch(const void *buf, size_t bytes, const struct gpu_k_launch *cfg,
                struct CUstream_st *stream);

/* One thread follows j = next[j]: `warm` untimed loads, then `steps` timed ones, in one launch.
 * io[0] holds the starting index on entry and receives the final one (so the chain cannot be
 * optimised away and a later chase can continue where this one stopped); io[1] receives the
 * nanoseconds the timed steps took (%globaltimer). io must be device memory. */
int gpu_k_chase(const uint64_t *next, uint64_t warm, uint64_t steps, uint64_t *io,
                struct CUstream_st *stream);

/* Hold the stream until *flag (mapped page-locked host memory, device pointer) becomes non-zero
 * or timeout_ns passes: lets the host queue a whole timed batch before the GPU starts on it
 * (nvbandwidth's recipe), so host enqueue overhead stays out of the measurement. */
int gpu_k_spin(volatile int *flag, uint64_t timeout_ns, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif
