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

/* Every kernel, for its own launch size: each gets SMs x its own resident blocks per SM
 * (cudaOccupancyMaxActiveBlocksPerMultiprocessor), not another kernel's. */
enum gpu_k_kernel {
    GPU_K_COPY16, GPU_K_COPY8, GPU_K_COPY4, GPU_K_COPY2, GPU_K_COPY1, /* by word size */
    GPU_K_STREAM_COPY, GPU_K_STREAM_SCALE, GPU_K_STREAM_ADD, GPU_K_STREAM_TRIAD, GPU_K_DOT,
    GPU_K_TOUCH, GPU_K_FILL, GPU_K_CHECK, GPU_K_FILL_F64, GPU_K_CHECK_F64, GPU_K_BUSY,
    GPU_K_COUNT
};

/* The dot kernel writes one partial sum per block: at most this many blocks. */
#define GPU_K_DOT_MAX_BLOCKS 4096

struct gpu_k_launch {
    int threads;               /* per block, every kernel */
    int sms;                   /* multiprocessors of the device */
    int blocks[GPU_K_COUNT];   /* a full-device grid for each kernel */
    int regs[GPU_K_COUNT];     /* registers per thread, as compiled for this device */
};

/* Size every launch for the current device and load every kernel's module now (CUDA 12+ loads
 * modules lazily, at the first launch: that host-side delay must not land inside a timed run). */
int gpu_k_init(struct gpu_k_launch *cfg);

/* SM copy of `bytes` from src to dst (device-accessible pointers: device memory or page-locked
 * mapped host memory). 16-byte vector loads/stores when src and dst agree modulo 16 (a few
 * scalar bytes for head and tail), narrower words otherwise. The buffers must not overlap. */
int gpu_k_copy(void *dst, const void *src, size_t bytes, const struct gpu_k_launch *cfg,
               struct CUstream_st *stream);

/* One STREAM kernel over n doubles per array (McCalpin's definitions, scalar s = 3):
 * kind 2 copy c = a, 3 scale b = s*c, 4 add c = a + b, 5 triad a = b + s*c (the values of
 * enum gpu_host_kind). Arrays must be 16-byte aligned (cudaMalloc'd) and must not overlap. */
int gpu_k_stream(int kind, double *a, double *b, double *c, size_t n,
                 const struct gpu_k_launch *cfg, struct CUstream_st *stream);

/* BabelStream's dot: sum of a[i] * b[i] over n doubles, one partial sum per block written to
 * partial[0 .. *nblocks) (device memory, GPU_K_DOT_MAX_BLOCKS doubles); the host adds them. */
int gpu_k_dot(const double *a, const double *b, size_t n, double *partial, int *nblocks,
              const struct gpu_k_launch *cfg, struct CUstream_st *stream);

/* Validation: fill `bytes` at p with the pattern of gpu_pattern.h (seed), or n doubles with v;
 * count what differs into res[0] and the first differing offset into res[1] (bytes for the
 * pattern, elements for doubles; res is device memory, set to {0, UINT64_MAX} by the caller).
 * A double differs when |x - v| > tol (absolute). */
int gpu_k_fill(void *p, size_t bytes, uint64_t seed, const struct gpu_k_launch *cfg,
               struct CUstream_st *stream);
int gpu_k_check(const void *p, size_t bytes, uint64_t seed, unsigned long long *res,
                const struct gpu_k_launch *cfg, struct CUstream_st *stream);
int gpu_k_fill_f64(double *p, size_t n, double v, const struct gpu_k_launch *cfg,
                   struct CUstream_st *stream);
int gpu_k_check_f64(const double *p, size_t n, double v, double tol, unsigned long long *res,
                    const struct gpu_k_launch *cfg, struct CUstream_st *stream);

/* Read every byte of buf once with the whole device (pulls it into L2 and warms the TLBs before a
 * latency chase). The reads feed a value the compiler cannot discard. */
int gpu_k_touch(const void *buf, size_t bytes, const struct gpu_k_launch *cfg,
                struct CUstream_st *stream);

/* A pointer chase: every line of the working set holds the address of the next (p = *(void **)p,
 * no index arithmetic between dependent loads). io is device memory; io->p holds the start on
 * entry and receives where the chase stopped, so the next chase continues the cycle. */
struct gpu_k_chase_io {
    uint64_t p;      /* in/out: the current line's address */
    uint64_t ns;     /* out: %globaltimer nanoseconds of the timed loads */
    uint64_t cycles; /* out: clock64 cycles of the timed loads, on the chasing SM */
    uint32_t sm;     /* out: %smid of the chasing block */
    uint32_t ran;    /* out: 1 once a block chased */
};
/* Launches one block per SM (`sms` blocks of one thread); only block `target` chases: `warm`
 * untimed loads, then `steps` timed ones, in one launch (so the warm-up fills that SM's L1).
 * generic 0: ld.global.ca loads (the microbenchmark papers'); 1: generic loads (nvbandwidth's). */
int gpu_k_chase(struct gpu_k_chase_io *io, uint64_t warm, uint64_t steps, int target, int generic,
                const struct gpu_k_launch *cfg, struct CUstream_st *stream);

/* Keep every SM full for `ns` nanoseconds: blocks[GPU_K_BUSY] blocks (SMs x the blocks one SM
 * holds), each waiting on %globaltimer. started (mapped page-locked host memory, one int per
 * block, zeroed by the caller, or NULL): each block sets its int once it runs, so the host sees
 * when all are resident at once. Brings the clocks up before a latency chase; holds the SMs in
 * the copy-engine overlap test. */
int gpu_k_busy(volatile int *started, uint64_t ns, const struct gpu_k_launch *cfg,
               struct CUstream_st *stream);

/* Hold the stream until flag[0] (mapped page-locked host memory, device pointer) becomes
 * non-zero or timeout_ns passes, and set flag[1] when it timed out: lets the host queue a whole
 * timed batch before the GPU starts on it (nvbandwidth's recipe), so host enqueue overhead stays
 * out of the measurement, and says when it did not. */
int gpu_k_spin(volatile int *flag, uint64_t timeout_ns, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif
