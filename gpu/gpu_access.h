/* gpu_access.h - how a kernel touches memory, measured: strided and random reads, a struct's
 * layout, a working set read again and again (the L2), an L2 persistence window, a matrix
 * transpose three ways, shared-memory bank conflicts, arithmetic intensity and a pointer chase
 * with lines a page apart (the TLBs). Each experiment is a kernel on the cuda backend and a
 * documented model on the simulator (docs/simulator.md, "Access patterns"); the bench
 * (gpu_access.c) allocates within the cap, gives the buffers known content, times the trials and
 * checks what the kernel read or wrote, as gpu_bench.c does for copies. Beside each figure the
 * device layer counts what the pattern asks of the memory system (sectors per request, bytes
 * the sectors carry, bank-conflict ways), from the addresses alone: the same on every backend.
 * No Lua, no words for a learner: keys and numbers only. */
#ifndef GPU_ACCESS_H
#define GPU_ACCESS_H

#include "gpu.h"

/* The experiments. Words are 4 bytes (uint32 or float) unless said. */
enum gpu_access_kind {
    GPU_ACC_STRIDE,  /* thread i reads word i*stride + offset, i < n */
    GPU_ACC_RANDOM,  /* every word of a 2^k-word array once, in a random order (a bijection) */
    GPU_ACC_AOS,     /* particles of `fields` floats each: r2 = x*x + y*y + z*z per particle */
    GPU_ACC_SOA,     /* the same particles as arrays x[], y[], z[]: one more array for r2 */
    GPU_ACC_REREAD,  /* a working set read `passes` times per launch, through L2 only (ld.cg) */
    GPU_ACC_HOTCOLD, /* a cold array streamed once, a hot one re-read beside it, with or without
                      * an L2 persistence window on the hot one (cudaAccessPolicyWindow) */
    GPU_ACC_TCOPY,   /* an n x n float matrix copied (the transposes' reference) */
    GPU_ACC_TNAIVE,  /* transposed: reads coalesced, writes a column per warp */
    GPU_ACC_TTILED,  /* through a 32 x 32 shared-memory tile: both coalesced, 32-way conflicts */
    GPU_ACC_TPADDED, /* the same with a 32 x 33 tile: no conflicts */
    GPU_ACC_BANKS,   /* shared-memory reads, lane k reading word k*stride: bank conflicts */
    GPU_ACC_FMA,     /* y[i] = p(x[i]), p of degree `fmas` by Horner: 2*fmas FLOPs per 8 bytes */
    GPU_ACC_PAGES,   /* a pointer chase over `n` lines `step` bytes apart, in a random cycle */
    GPU_ACC_KINDS
};

/* The names Lua and recordings use ("stride", ..., "pages"), and back (-1: unknown). */
const char *gpu_access_name(enum gpu_access_kind k);
int gpu_access_parse(const char *name);

/* ---- the backend operation (struct gpu_backend.access) ----------------------------------- */
/* One call does one phase on buffers the bench allocated (gpu_access_buffers): give them the
 * content the kernel expects, time `reps` launches, or check what the last launch wrote. */
enum gpu_access_phase { GPU_ACC_PREPARE, GPU_ACC_RUN, GPU_ACC_CHECK };
struct gpu_access {
    enum gpu_access_kind kind;
    enum gpu_access_phase phase;
    void *buf[2];
    uint64_t n;          /* STRIDE: words read; RANDOM: words (2^k); AOS/SOA, FMA: elements;
                          * REREAD: 16-byte words; HOTCOLD: cold 16-byte words; transposes: the
                          * side (a multiple of 32); BANKS: loads per thread; PAGES: lines */
    uint32_t stride;     /* STRIDE, BANKS: words between neighbouring lanes */
    uint32_t offset;     /* STRIDE: words before the first */
    uint32_t fields;     /* AOS: floats per particle (>= 3) */
    uint32_t fmas;       /* FMA */
    uint32_t passes;     /* REREAD: reads of the whole set per launch */
    uint64_t hot_n;      /* HOTCOLD: hot 16-byte words (buf[0]; the cold array is buf[1]) */
    bool window;         /* HOTCOLD: set an access policy window on the hot array */
    double hit_ratio;    /* HOTCOLD: its hitRatio (0..1] */
    uint64_t threads;    /* BANKS: threads launched (SMs x GPU_BANKS_THREADS_PER_SM) */
    uint64_t step;       /* PAGES: bytes between the chased lines */
    const uint32_t *order; /* PAGES, PREPARE: line k's successor in the cycle (host memory) */
    uint64_t start, warm, steps; /* PAGES, RUN: the line a chase starts from, loads untimed
                                  * and timed */
    int chase, chases;   /* PAGES, RUN: this chase's number, of how many (each from another SM) */
    int reps;            /* RUN: launches timed back to back */
    /* out */
    double seconds;      /* RUN: per launch */
    double ns_per_load, cycles_per_load; /* PAGES: per timed load; cycles 0 when unknown */
    int sm;              /* PAGES: the SM that chased, -1 when unknown */
    uint64_t sum;        /* RUN: what the last launch read, summed (read-only kernels) */
    uint64_t end;        /* PAGES: the line the chase stopped at */
    uint64_t bad, first; /* CHECK: elements that differ from what they should hold, the first */
    bool window_set;     /* HOTCOLD: the window was applied */
    uint64_t setaside;   /* HOTCOLD: L2 bytes set aside for persisting accesses */
};
/* BANKS launches this many threads per SM (4 blocks of 256), on every backend: the bytes it
 * reads depend on the SM count only. Its shared array holds GPU_BANKS_WORDS words, word w = w. */
#define GPU_BANKS_THREADS_PER_SM 1024
#define GPU_BANKS_WORDS 4096

/* Device buffers an experiment needs: up to two, their sizes in bytes (0: none). */
void gpu_access_buffers(const struct gpu_access *a, uint64_t bytes[2]);
/* What a read-only kernel's launch must read, summed modulo 2^64 (word w of an array holds w);
 * 0 for the kernels whose output is checked instead. */
uint64_t gpu_access_expect_sum(const struct gpu_access *a);
/* Where a chase of `steps` loads from line `start` stops, over the cycle next[] (PAGES). */
uint64_t gpu_access_chase_end(const uint32_t *next, uint64_t start, uint64_t steps);

/* ---- what a pattern asks of the memory system, from its addresses ----------------------- */
#define GPU_SECTOR_BYTES 32 /* global memory is served in 32-byte sectors (Best Practices Guide) */
#define GPU_BANKS 32        /* shared memory: 32 banks of 4 bytes (Programming Guide) */
/* Distinct 32-byte sectors one warp's load touches: lane k reads elem_bytes at
 * offset_bytes + k * stride_bytes (4 bytes at stride 4: 4 sectors; at stride 32 and more: 32). */
double gpu_sectors_per_request(uint64_t stride_bytes, unsigned elem_bytes, uint64_t offset_bytes);
/* The same for GPU_ACC_RANDOM over 2^log2n words: the mean over the first warps of its order. */
double gpu_random_sectors(unsigned log2n);
/* Bytes of 32-byte sectors read per particle when a kernel reads x, y, z (the first 12 bytes) of
 * structs of `fields` floats laid end to end (fields = 3..: 16 for 4 fields, 32 for 8 or more
 * when they do not straddle a sector). */
double gpu_aos_sector_bytes(unsigned fields);
/* How many ways a warp's shared-memory load is split when lane k reads 4-byte word k * stride:
 * gcd(stride, 32) (stride 0: a broadcast, 1). */
unsigned gpu_bank_ways(uint64_t stride_words);

/* ---- the bench ---------------------------------------------------------------------------- */
struct gpu_access_req {
    enum gpu_access_kind kind;
    uint64_t bytes;     /* STRIDE: bytes read (n x 4); RANDOM: the array (rounded down to a power
                         * of two); REREAD: the working set; HOTCOLD: the cold array; FMA: x's
                         * size; PAGES: the footprint */
    uint64_t count;     /* AOS/SOA: particles; transposes: the side n; BANKS: loads per thread */
    uint64_t hot_bytes; /* HOTCOLD */
    uint32_t stride, offset, fields, fmas;
    uint64_t step;      /* PAGES */
    bool window;
    double hit_ratio;
    int trials;         /* 0: 10 (PAGES: chases, 0: 5) */
};
struct gpu_access_result {
    struct gpu_result r;        /* bytes: what the kernel asked for per launch (useful bytes);
                                 * bytes_per_s: useful bytes / best time (effective bandwidth) */
    enum gpu_access_kind kind;
    uint64_t footprint;         /* device bytes the pattern spans */
    double sector_bytes;        /* bytes the 32-byte sectors carry to or from L2 per launch */
    double sectors_per_request; /* global loads: sectors one warp request touches */
    double flops;               /* per launch (AOS/SOA: 5 per particle; FMA: 2 per FMA) */
    unsigned bank_ways;         /* BANKS and the tiled transposes */
    bool window_set;            /* HOTCOLD */
    uint64_t setaside;
    uint64_t lines, step;       /* PAGES */
};
/* Allocate, prepare, warm up, time, check, free. Nothing stays allocated, also on error or
 * cancel. A kernel whose output (or sum) is wrong fails with GPU_ERR_VALIDATION. */
gpu_status gpu_bench_access(struct gpu_dev *dev, const struct gpu_access_req *q,
                            struct gpu_access_result *r, gpu_cancel_flag *cancel);

#endif
