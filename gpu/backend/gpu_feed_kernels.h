/* gpu_feed_kernels.h - the kernels of programs that feed the GPU (gpu_feed_kernels.cu), reached
 * from C through these extern "C" wrappers: each enqueues on the given stream and returns a
 * cudaError_t as int (0 = cudaSuccess); none synchronizes, prints or exits. Words are 4 bytes;
 * word w of a filled range holds the low half of gpu_pattern_word(seed, base + w) (gpu_pattern.h),
 * and the kernel's step is x = A x + C (gpu_feed.h). Plain C, as gpu_kernels.h. */
#ifndef GPU_FEED_KERNELS_H
#define GPU_FEED_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct CUstream_st;

enum gpu_fk_kernel { GPU_FK_FILL, GPU_FK_ROUNDS, GPU_FK_CHECK, GPU_FK_COUNT };

struct gpu_fk_launch {
    int threads;
    int blocks[GPU_FK_COUNT]; /* a full-device grid for each kernel */
};

/* What a check compares against: pieces of the range in order, words from the range's start. */
#define GPU_FK_SEGS 16
struct gpu_fk_segs {
    int n;
    struct {
        uint64_t first, count, base; /* words: where it starts in the range, how many, pattern index */
        uint32_t seed, a, c;
    } s[GPU_FK_SEGS];
};

/* Size every launch for the current device and load the kernels now (not inside a timed run). */
int gpu_fk_init(struct gpu_fk_launch *cfg);
/* p[w] = pattern(seed, base + w) for w < n. */
int gpu_fk_fill(uint32_t *p, size_t n, uint64_t base, uint32_t seed,
                const struct gpu_fk_launch *cfg, struct CUstream_st *stream);
/* x = A x + C, `rounds` times, for each of n words (in place). */
int gpu_fk_rounds(uint32_t *p, size_t n, uint64_t rounds, const struct gpu_fk_launch *cfg,
                  struct CUstream_st *stream);
/* Count the words of p that differ from the pieces into res[0], the first such word into res[1]
 * (res: device memory, {0, UINT64_MAX} before). Reads every word once. */
int gpu_fk_check(const uint32_t *p, const struct gpu_fk_segs *segs, unsigned long long *res,
                 const struct gpu_fk_launch *cfg, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif
