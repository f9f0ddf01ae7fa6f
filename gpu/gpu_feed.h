/* gpu_feed.h - how a program feeds the GPU: host memory of every kind (pageable, pinned,
 * registered, mapped, managed) and programs of asynchronous copies, kernels, prefetches, advice
 * and events on streams, timed operation by operation, with every buffer's content checked after
 * the run (gpu_feed.c). A backend implements struct gpu_feed_ops (gpu_cuda_feed.c on a GPU,
 * gpu_sim_feed.c on the simulator); callers use the checked entry points below. */
#ifndef GPU_FEED_H
#define GPU_FEED_H

#include "gpu.h"

/* Kinds of memory a program's buffer can be. */
#define GPU_MEM_LIST(X)                                                                            \
    X(GPU_MEM_DEVICE, "device")         /* cudaMalloc */                                           \
    X(GPU_MEM_PAGEABLE, "pageable")     /* malloc: copies are staged through a driver buffer */    \
    X(GPU_MEM_PINNED, "pinned")         /* cudaHostAlloc: page-locked, copied by DMA */            \
    X(GPU_MEM_REGISTERED, "registered") /* malloc, touched, then cudaHostRegister */               \
    X(GPU_MEM_MAPPED, "mapped")         /* cudaHostAlloc(Mapped): kernels read it over the link */ \
    X(GPU_MEM_MANAGED, "managed")       /* cudaMallocManaged: pages migrate on faults */
#define GPU_X_MEM(name, word) name,
enum gpu_mem { GPU_MEM_LIST(GPU_X_MEM) GPU_MEM_COUNT };
#undef GPU_X_MEM
const char *gpu_mem_name(enum gpu_mem k);
int gpu_mem_parse(const char *word); /* -1 if unknown */
bool gpu_mem_host(enum gpu_mem k);   /* the CPU can read and write it */

/* What a program does. Each operation runs on one stream, in order with that stream's others. */
#define GPU_OP_LIST(X)                                                                             \
    X(GPU_OP_COPY, "copy")         /* cudaMemcpyAsync dst <- src (any two kinds but host-host) */ \
    X(GPU_OP_KERNEL, "kernel")     /* x = a*x + c, `rounds` times per word, in place */           \
    X(GPU_OP_READ, "read")         /* a kernel reads the range and counts wrong words */          \
    X(GPU_OP_FILL, "fill")         /* a kernel writes the pattern of `seed` */                    \
    X(GPU_OP_HOST_FILL, "host_fill") /* the CPU writes the pattern of `seed` */                   \
    X(GPU_OP_PREFETCH, "prefetch") /* cudaMemPrefetchAsync of a managed range (to device/host) */ \
    X(GPU_OP_ADVISE, "advise")     /* cudaMemAdvise on a managed range */                         \
    X(GPU_OP_RECORD, "record")     /* cudaEventRecord(event, stream) */                           \
    X(GPU_OP_WAIT, "wait")         /* cudaStreamWaitEvent(stream, event) */                       \
    X(GPU_OP_SYNC, "sync")         /* the host waits for a stream (or all, stream -1) */          \
    X(GPU_OP_CPU, "cpu")           /* the host thread works for `seconds` */
#define GPU_X_OP(name, word) name,
enum gpu_op_kind { GPU_OP_LIST(GPU_X_OP) GPU_OP_COUNT };
#undef GPU_X_OP
const char *gpu_op_name(enum gpu_op_kind k);
int gpu_op_parse(const char *word);

/* Advice for GPU_OP_ADVISE (cudaMemAdvise) and where a prefetch goes. */
enum gpu_advice {
    GPU_ADVISE_READ_MOSTLY,     /* cudaMemAdviseSetReadMostly: reads make copies, not moves */
    GPU_ADVISE_PREFER_HOST,     /* cudaMemAdviseSetPreferredLocation(host) */
    GPU_ADVISE_PREFER_DEVICE,   /* cudaMemAdviseSetPreferredLocation(device) */
    GPU_ADVISE_ACCESSED_BY,     /* cudaMemAdviseSetAccessedBy(device): mapped, no faults */
    GPU_ADVISE_COUNT
};
const char *gpu_advice_name(enum gpu_advice a);
int gpu_advice_parse(const char *word);

/* Who did the work of an operation, as a timeline shows it. */
#define GPU_LANE_LIST(X)                                                                           \
    X(GPU_LANE_HOST, "host") /* the host thread: issuing calls, waiting, its own work */          \
    X(GPU_LANE_H2D, "h2d")   /* the copy engine moving host to device */                          \
    X(GPU_LANE_D2H, "d2h")   /* the copy engine moving device to host */                          \
    X(GPU_LANE_D2D, "d2d")   /* a copy engine copying inside device memory */                     \
    X(GPU_LANE_SM, "sm")     /* the SMs running a kernel */
#define GPU_X_LANE(name, word) name,
enum gpu_lane { GPU_LANE_LIST(GPU_X_LANE) GPU_LANE_COUNT };
#undef GPU_X_LANE
const char *gpu_lane_name(enum gpu_lane l);

enum {
    GPU_PROG_MAX_BUFS = 16,
    GPU_PROG_MAX_OPS = 512,
    GPU_PROG_MAX_STREAMS = 8,
    GPU_PROG_MAX_EVENTS = 32,
    GPU_PROG_MAX_SEGS = 64, /* distinct pieces of content one buffer may hold */
};

/* What a range of a buffer holds, as a closed form: the 4-byte word at byte `x` of the range is
 * a*p + c (mod 2^32), p the low half of gpu_pattern_word(seed, base + (x - off) / 4)
 * (gpu_pattern.h, the same on the host and on the device). A fresh or raced range holds nothing
 * known. `a, c` are the kernel's step x = A x + C applied `rounds` times (gpu_feed_rounds). */
struct gpu_content_seg {
    uint64_t off, end; /* bytes of the buffer, [off, end) */
    bool known;
    uint32_t seed, a, c;
    uint64_t base;     /* pattern word index at `off` */
};
struct gpu_feed_content {
    struct gpu_content_seg s[GPU_PROG_MAX_SEGS]; /* in order, covering the whole buffer */
    int n;
};
#define GPU_FEED_A 1664525u    /* Numerical Recipes' LCG: full period mod 2^32 */
#define GPU_FEED_C 1013904223u
/* The step applied `rounds` times as one map x -> a x + c, composed in O(log rounds). */
void gpu_feed_rounds(uint64_t rounds, uint32_t *a, uint32_t *c);
/* What a segment holds at byte x (inside it). */
uint32_t gpu_feed_expect(const struct gpu_content_seg *s, uint64_t x);

/* Content as operations change it (gpu_feed.c): the runner follows the program in issue order
 * (what it should leave), the simulator in the order it ran (what it did leave). A content
 * holding more than GPU_PROG_MAX_SEGS pieces forgets the smallest (known false). */
void gpu_feed_content_init(struct gpu_feed_content *c, uint64_t bytes);
void gpu_feed_content_fill(struct gpu_feed_content *c, uint64_t off, uint64_t bytes,
                           uint32_t seed);
void gpu_feed_content_copy(struct gpu_feed_content *dst, uint64_t doff,
                           const struct gpu_feed_content *src, uint64_t soff, uint64_t bytes);
void gpu_feed_content_rounds(struct gpu_feed_content *c, uint64_t off, uint64_t bytes,
                             uint64_t rounds);
void gpu_feed_content_forget(struct gpu_feed_content *c, uint64_t off, uint64_t bytes);
/* Replace [p[0].off, p[n-1].end) by the pieces p (in order, each following the last). */
void gpu_feed_content_set(struct gpu_feed_content *c, const struct gpu_content_seg *p, int n);
/* The pieces of [off, off + bytes), clipped to it, into out (at most max); how many, or -1 when
 * more than max. */
int gpu_feed_content_range(const struct gpu_feed_content *c, uint64_t off, uint64_t bytes,
                           struct gpu_content_seg *out, int max);
/* Words of [off, off + bytes) where `got` and `want` hold different known content, or where
 * `want` is known and `got` is not: the simulator's check, all or nothing per piece. */
uint64_t gpu_feed_content_diff(const struct gpu_feed_content *got,
                               const struct gpu_feed_content *want, uint64_t off, uint64_t bytes);

struct gpu_prog_buf {
    enum gpu_mem kind;
    uint64_t bytes;          /* a multiple of 4 */
    /* out */
    void *ptr;               /* host address (host kinds), device address (device, managed) */
    double alloc_s, free_s;  /* time the allocation (pinning included) and its release took */
};

struct gpu_prog_op {
    enum gpu_op_kind kind;
    int stream;              /* 0 .. GPU_PROG_MAX_STREAMS-1; sync: -1 waits for every stream */
    int buf, src;            /* copy: dst and src; others: the buffer (-1: none) */
    uint64_t off, src_off;   /* byte offsets, multiples of 4 */
    uint64_t bytes;          /* 0: the rest of the buffer from `off` */
    double seconds;          /* kernel: the time asked for; cpu: the host's work */
    uint32_t seed;           /* fill, host_fill */
    int event;               /* record, wait: 0 .. GPU_PROG_MAX_EVENTS-1 */
    int advice;              /* advise: enum gpu_advice; prefetch: 0 to the device, 1 to host */
    /* set by gpu_prog_run before the run */
    uint64_t rounds;         /* kernel: the rounds per word that take about `seconds` here */
    /* out: seconds from the program's start */
    double start, end;       /* on the device (lane); host-side operations: on the host */
    double issue, ret;       /* the host: when the call was made and when it returned */
    enum gpu_lane lane;
    uint64_t faulted;        /* managed: bytes that moved to the device on page faults */
    uint64_t evicted;        /* managed: bytes evicted from the device to make room */
    uint64_t wrong;          /* read: words that were not what the program put there */
};

struct gpu_prog {
    struct gpu_prog_buf buf[GPU_PROG_MAX_BUFS];
    int nbuf;
    struct gpu_prog_op op[GPU_PROG_MAX_OPS];
    int nop;
    /* out */
    double seconds;          /* from the program's start to the last operation's end */
    bool simulated;
    bool validated;          /* every read and every buffer held what the program put there */
    bool held;               /* the device started only once the whole program was queued */
    int engines;             /* copy engines of the device (0: unknown) */
    unsigned warn;           /* GPU_WARN_* bits */
    uint64_t wrong_end[GPU_PROG_MAX_BUFS]; /* words of each buffer wrong after the program */
    int race_a, race_b;      /* simulator: two operations that used one range at once (-1) */
};

/* What the program should leave, followed in issue order before it runs (gpu_feed.c): each
 * read's expected pieces (read_first[i], read_n[i] in read_seg) and each buffer at the end. */
enum { GPU_FEED_READ_SEGS = 16 };
struct gpu_feed_plan {
    struct gpu_feed_content want_end[GPU_PROG_MAX_BUFS];
    int read_first[GPU_PROG_MAX_OPS], read_n[GPU_PROG_MAX_OPS];
    struct gpu_content_seg read_seg[GPU_PROG_MAX_OPS * 4];
    int nread_seg;
};

/* A backend's side (the backend table's `feed`). Times in seconds. */
struct gpu_feed_ops {
    /* Allocate a host or managed buffer of `kind` (device buffers come from the backend's own
     * alloc); *seconds: how long it took, pinning or registering included. */
    gpu_status (*alloc)(struct gpu_dev *dev, enum gpu_mem kind, uint64_t bytes, void **ptr,
                        double *seconds);
    gpu_status (*free)(struct gpu_dev *dev, enum gpu_mem kind, void *ptr, uint64_t bytes,
                       double *seconds);
    /* Rounds of the kernel's step per word that take about `seconds` over `bytes` of device
     * memory on this device (at least 1), timed on `scratch` (device memory of `bytes`). */
    gpu_status (*calibrate)(struct gpu_dev *dev, void *scratch, uint64_t bytes, double seconds,
                            uint64_t *rounds);
    /* Run the program on allocated buffers (fresh: they hold nothing known): every operation's
     * times, lane and counts out; each read counts the words of its range that differ from the
     * plan's pieces for it; after the run, each buffer against plan->want_end (wrong_end). */
    gpu_status (*run)(struct gpu_dev *dev, struct gpu_prog *p, const struct gpu_feed_plan *plan,
                      gpu_cancel_flag *cancel);
};

/* ---- entry points ------------------------------------------------------------------------- */

/* Check a program (ranges, kinds, streams, events; GPU_ERR_ARG saying which operation), plan
 * it, size each kernel on this device, allocate its buffers (device ones within the experiment
 * cap; on a real GPU, host ones within host_max, else half the RAM), run it, check every read
 * and every buffer, free everything (on every path). A wrong word anywhere is
 * GPU_ERR_VALIDATION (GPU_WHY_FEED_WRONG, GPU_WHY_FEED_RACE), never a timeline. */
gpu_status gpu_prog_run(struct gpu_dev *dev, struct gpu_prog *p, gpu_cancel_flag *cancel);
/* The bytes an operation covers (its `bytes`, or the rest of its buffer; 0 without a buffer). */
uint64_t gpu_prog_op_bytes(const struct gpu_prog *p, const struct gpu_prog_op *o);
/* Whether the device may wait until the whole program is queued: nothing in it blocks the host
 * (no cpu work, sync or pageable copy, and no host fill after the first device operation). */
bool gpu_prog_holdable(const struct gpu_prog *p);
/* Only the check (for the Lua layer, before a program goes to the worker). */
gpu_status gpu_prog_check(struct gpu_dev *dev, const struct gpu_prog *p);
/* The cost of pinning: a buffer of `kind` allocated and freed `trials` times (1..16); the
 * best of each. */
gpu_status gpu_feed_pin(struct gpu_dev *dev, enum gpu_mem kind, uint64_t bytes, int trials,
                        double *alloc_s, double *free_s, gpu_cancel_flag *cancel);
/* Host and managed buffers, checked as gpu_host_alloc: sticky state, fault injection, the
 * count of live host buffers. */
gpu_status gpu_feed_alloc(struct gpu_dev *dev, enum gpu_mem kind, uint64_t bytes, void **ptr,
                          double *seconds);
gpu_status gpu_feed_free(struct gpu_dev *dev, enum gpu_mem kind, void *ptr, uint64_t bytes,
                         double *seconds);

/* The backends' tables (NULL where a backend has none). */
extern const struct gpu_feed_ops gpu_sim_feed_ops;
#ifdef GPU_HAVE_CUDA
extern const struct gpu_feed_ops gpu_cuda_feed_ops;
#endif

#endif
