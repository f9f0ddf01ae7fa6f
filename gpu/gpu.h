/* gpu.h - the device layer's public interface: status codes, device info, the backend table,
 * the registry, and the backend-neutral experiments built on top of it (see gpu_bench.c).
 * No ncurses, no Lua: this layer links into a unit test alone. */
#ifndef GPU_H
#define GPU_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* One X-macro gives the status enum and its message table (gpu_status_str). */
#define GPU_STATUS_LIST(X)                                                                         \
    X(GPU_OK, "ok")                                                                                \
    X(GPU_ERR_NOMEM, "out of device memory")                                                       \
    X(GPU_ERR_CAP, "request exceeds the experiment cap on free device memory")                     \
    X(GPU_ERR_HOST_NOMEM, "out of host memory")                                                    \
    X(GPU_ERR_ARG, "invalid argument")                                                             \
    X(GPU_ERR_UNSUPPORTED, "not supported by this backend")                                        \
    X(GPU_ERR_NO_DEVICE, "no usable device")                                                       \
    X(GPU_ERR_DRIVER, "driver error")                                                              \
    X(GPU_ERR_STICKY, "device is in a failed state (sticky error)")                                \
    X(GPU_ERR_CANCELLED, "cancelled")                                                              \
    X(GPU_ERR_PROFILE, "bad or unknown GPU profile")                                               \
    X(GPU_ERR_VALIDATION, "validation failed: the data after the run is not what it should be")

#define GPU_X_ENUM(name, msg) name,
typedef enum { GPU_STATUS_LIST(GPU_X_ENUM) GPU_STATUS_COUNT } gpu_status;
#undef GPU_X_ENUM

const char *gpu_status_str(gpu_status s);

/* Where a copy goes. */
enum gpu_dir { GPU_H2D, GPU_D2H, GPU_D2D };
/* Who moves the bytes: the copy engine (cudaMemcpy) or an SM kernel. */
enum gpu_method { GPU_CE, GPU_SM };

/* Capability bits a backend advertises. */
enum {
    GPU_CAP_REAL = 1u << 0,    /* measurements come from hardware (not SIMULATED) */
    GPU_CAP_SM_COPY = 1u << 1, /* SM copy kernel */
    GPU_CAP_LATENCY = 1u << 2, /* pointer-chase latency on the device */
    GPU_CAP_PINNED = 1u << 3,  /* page-locked host buffers */
};

/* Device facts. A field the backend cannot know has its `has_*` bit false; it is then shown as
 * n/a (nil in Lua), never as a made-up number. Sizes in bytes, clocks in kHz. */
struct gpu_info {
    char name[128];
    char backend[16];      /* "cuda" or "sim" */
    char memory_type[32];  /* "GDDR6X", "HBM3e", ... ("" when unknown) */
    char profile[32];      /* simulator profile id ("" for real devices) */
    char source[256];      /* where the published figures come from (simulator) */
    char driver[128];      /* driver/runtime version text */
    bool simulated;
    uint64_t total_bytes;
    int bus_width_bits;    /* 0 = unknown */
    int mem_clock_khz;     /* as cudaDevAttrMemoryClockRate reports it; 0 = unknown */
    double peak_bytes_per_s;      /* 2 x clock x bus/8; 0 = unknown */
    double published_bytes_per_s; /* the vendor's spec-sheet figure; 0 = unknown */
    uint64_t l2_bytes;            /* 0 = unknown */
    int sm_count;                 /* 0 = unknown */
    int cc_major, cc_minor;       /* compute capability; 0 = unknown */
    int pcie_gen, pcie_width;     /* 0 = unknown */
    int device;                   /* the ordinal opened (--device N) */
    uint64_t l1_bytes;            /* per-SM L1 + shared memory capacity; 0 = unknown */
    /* A MIG slice: memory is the slice's, but the bus, clock, peak and published figure
     * describe the whole GPU, and NVML's process lists are per instance only when the instance
     * was identified (mig_instance >= 0). */
    bool mig;
    int mig_instance;             /* NVML GPU instance id; -1 = not MIG or not identified */
    int numa_node;                /* the host NUMA node the GPU hangs off; -1 = unknown */
    char published_profile[32];   /* the simulator profile the published figure came from */
    int async_engines;            /* copy engines (cudaDevAttrAsyncEngineCount); 0 = unknown */
    /* The L2's persistence controls (compute capability 8.0 on): the most a process may set aside
     * for persisting accesses (cudaDevAttrMaxPersistingL2CacheSize) and the largest access
     * policy window (cudaDevAttrMaxAccessPolicyWindowSize); 0 = none or unknown. */
    uint64_t l2_persist_max_bytes, l2_window_max_bytes;
    /* FP32 FMA lanes per SM (by compute capability), the SM clock at boost (kHz) and the peak
     * they give: SMs x lanes x 2 FLOPs x clock; 0 = unknown. */
    int fp32_lanes_per_sm, sm_clock_khz;
    double fp32_flops;
    /* pcie_gen/pcie_width are the link's maximum (what a transfer trains it to), never less than
     * its state now; *_current what it is now (an idle GPU drops it); pcie_source says where
     * the maximum came from: "nvml" (this device and system), "sysfs-port" (the lower of the
     * device's and its upstream port's), "sysfs-device" (the device's own, the port not
     * visible: a VM), "sysfs-current" (only the state now), "" unknown. */
    int pcie_gen_current, pcie_width_current;
    char pcie_source[16];
    /* NVML's view of the memory (nvmlDeviceGetMemoryInfo_v2): the total nvidia-smi shows and
     * what the driver keeps for itself out of it; 0 = unknown (no NVML, or a v1-only driver) */
    uint64_t nvml_total_bytes, nvml_reserved_bytes;
};

/* Peak FP32 FLOP/s: SMs x FMA lanes per SM x 2 x clock (0 when any is unknown); and the FP32
 * lanes of one SM by compute capability (CUDA Programming Guide, arithmetic instruction
 * throughput: 64 on 7.x and 8.0, 128 on 8.6 on; 0 = unknown). */
double gpu_fp32_flops(int sms, int lanes, int sm_clock_khz);
int gpu_fp32_lanes(int cc_major, int cc_minor);

/* Theoretical peak in bytes/s from what cudaDevAttrMemoryClockRate and the bus width report:
 * the memory clock is counted double (DDR), so peak = 2 x clock x bus_width/8. */
double gpu_peak_bytes_per_s(int mem_clock_khz, int bus_width_bits);

struct gpu_config {
    const char *profile;  /* simulator profile id (NULL: default) */
    const char *datadir;  /* where assets/ lives */
    uint64_t seed;        /* simulator noise seed */
    bool deterministic;   /* simulator: no noise at all */
    double cap_fraction;  /* what a lesson may hold on the device, in all: this share of the memory
                           * free to it (free now + what it holds; default 0.9) */
    uint64_t cap_bytes;   /* and at most this many bytes in all (0: no such bound) */
    int device;           /* device ordinal (after CUDA_VISIBLE_DEVICES); the simulator has 0 */
    int fail_alloc;       /* fault injection: the Nth device/host allocation fails (0 = never) */
    /* Host experiments take at most this many bytes in all their arrays (0 = no cap besides
     * half of the RAM): tests keep real host measurements small with it (VRAMLAB_HOST_MAX). */
    uint64_t host_max;
    /* Host experiments time short passes: 1 ms a bandwidth pass (else 20 ms) and 16 384 loads a
     * chase trial (else 2^20). Figures are noisier; a test checks what the code does with them
     * (VRAMLAB_HOST_QUICK, set by the test suite). */
    bool host_quick;
    bool no_nvml;         /* leave NVML unused (VRAMLAB_NO_NVML) */
    /* Test set-ups and fault injection, read from the environment by the front end
     * (docs/reliability.md): nothing in gpu/ reads the environment. */
    bool fault_corrupt;   /* every copy and STREAM kernel, simulated or on the host, spoils its
                           * output, as a kernel that missed an element would (FAULT_CORRUPT) */
    int fault_sticky;     /* sim: the Nth device operation fails as an illegal address does */
    int fault_hang;       /* sim: the Nth device operation never returns (a hung driver call) */
    uint64_t sim_other_bytes; /* sim: other processes hold this much (GPU_SIM_OTHER_ALL: all) */
};
#define GPU_SIM_OTHER_ALL UINT64_MAX

enum { GPU_FAULT_SITES = 32, GPU_FAULT_LOG = 4096 };

/* What a refusal of the device layer is about, with its numbers, so that the layer above can
 * say it in the learner's language (lua/lt_util.c). why[] holds the English text in any case;
 * GPU_WHY_TEXT: no key, why[] is all there is (a driver's error, an argument check). Each key
 * has the kinds of its numbers (M: MiB, written as a size, "40 GiB"; P: a percentage; N: a
 * count) and its English text, with one %s per number. */
#define GPU_WHY_LIST(X)                                                                          \
    X(GPU_WHY_TEXT, "", "%s")                                                                    \
    X(GPU_WHY_ZERO, "", "cannot allocate 0 bytes")                                               \
    X(GPU_WHY_INJECTED, "N", "out of memory (injected fault: allocation #%s)")                   \
    X(GPU_WHY_NO_FREE, "M", "%s requested, but the GPU has no free memory: other processes (or " \
                            "this one) hold all of it")                                          \
    X(GPU_WHY_CAP, "MPM", "%s requested, but experiments may take at most %s%% of free memory "  \
                          "in all, what they hold included (%s left)")                           \
    X(GPU_WHY_CAP_BYTES, "MMM", "%s requested, but experiments may hold at most %s of device "   \
                                "memory in all (--cap; %s left)")                                \
    X(GPU_WHY_SIM_OOM, "MM", "cudaMalloc(%s): out of memory (SIMULATED, %s free)")               \
    X(GPU_WHY_COPY_CAP, "MMPM", "copy of %s needs %s of device memory; experiments may take at " \
                                "most %s%% of free memory (%s)")                                 \
    X(GPU_WHY_LATENCY_CAP, "MM", "latency working set of %s exceeds the experiment cap (%s)")    \
    X(GPU_WHY_STREAM_CAP, "MM", "STREAM needs 3 x %s of device memory; experiments may take at " \
                                "most %s")                                                       \
    X(GPU_WHY_ACCESS_CAP, "MM", "this access pattern needs %s of device memory; experiments may "\
                                "take at most %s")                                                \
    X(GPU_WHY_FEED_WRONG, "NNNN", "validation failed: operation %s (a read of buffer %s) found "  \
                                  "%s of %s words not what the program put there; the timeline " \
                                  "is not reported")                                             \
    X(GPU_WHY_FEED_WRONG_END, "NNN", "validation failed: after the program, buffer %s held %s "  \
                                     "of %s words not what the program put there; the timeline " \
                                     "is not reported")                                          \
    X(GPU_WHY_FEED_RACE, "NN", "validation failed: operations %s and %s used the same bytes at "  \
                               "the same time (no stream order or event between them), so what " \
                               "they left is undefined; the timeline is not reported")           \
    X(GPU_WHY_FEED_HOST_CAP, "MM", "the program's host and managed buffers take %s; this run "   \
                                   "allows %s (host.budget())")                                  \
    X(GPU_WHY_FEED_MANAGED, "", "managed memory needs a GPU that takes page faults "             \
                                "(cudaDevAttrConcurrentManagedAccess: Linux, Pascal or newer)")
#define GPU_X_WHY(name, kinds, en) name,
enum gpu_why_key { GPU_WHY_LIST(GPU_X_WHY) GPU_WHY_COUNT };
#undef GPU_X_WHY

/* Public part of an open device. Each backend embeds it first in its private state. */
struct gpu_dev {
    const struct gpu_backend *be;
    struct gpu_info info;
    gpu_status failed;    /* sticky: once set, every call returns GPU_ERR_STICKY */
    char why[256];        /* the last error, with its origin (expression, file:line) */
    enum gpu_why_key why_key; /* what why[] says, for a translation (GPU_WHY_TEXT: only why[]) */
    double why_arg[4];    /* its numbers, in the order of its format */
    double cap_fraction;
    uint64_t cap_bytes;   /* gpu_config.cap_bytes (0: none) */
    uint64_t live_bytes;  /* device bytes allocated through this interface and not yet freed */
    int live_allocs;
    int live_host;        /* host buffers (gpu_host_alloc) not yet freed */
    long alloc_count;     /* allocations attempted, for fault injection */
    long fail_alloc;      /* fail the allocation with this number (0 = never) */
    /* The code that asked for each allocation, for fault injection to pick one per place:
     * site_of[k] is allocation k+1's site, numbered 1.. in order of first use (by the caller's
     * return address; the last number is shared past GPU_FAULT_SITES places), for the first
     * GPU_FAULT_LOG allocations. */
    const void *site_addr[GPU_FAULT_SITES];
    int nsites;
    unsigned char site_of[GPU_FAULT_LOG];
    bool fault_corrupt;   /* gpu_config.fault_corrupt, for the host experiments too */
    uint64_t host_max;    /* gpu_config.host_max */
    bool host_quick;      /* gpu_config.host_quick */
    /* Device memory this process's context took when the backend opened: measured on cuda as
     * NVML's free memory before vs after creating it (unknown without NVML); the profile's
     * figure on sim. Read by the ledger (gpu_ledger.c). */
    uint64_t context_bytes;
    bool has_context_bytes;
    char pci_bus_id[32];  /* "0000:65:00.0" (NVML finds the device by it); "" when unknown */
    unsigned op_warn;     /* GPU_WARN_* bits a backend raised during the last timed call */
};

/* What a buffer should hold: an index-derived byte pattern (gpu_pattern_byte) or one double
 * repeated. The check of doubles is relative, within `tol` (BabelStream: 100 x epsilon). */
struct gpu_content {
    enum { GPU_CONTENT_PATTERN, GPU_CONTENT_F64 } kind;
    uint64_t seed;
    double value, tol;
};
struct gpu_mismatch {
    uint64_t count;  /* bytes (pattern) or doubles (F64) that differ */
    uint64_t first;  /* offset of the first, in the same unit */
};

/* One latency chase request and its answer (gpu_bench_latency fills it). */
#define GPU_MAX_CHASES 8
/* How a chase loads: ld.global.ca (the microbenchmark papers' way: global, cached in L1) or a
 * generic load (what C++ compiles `p = *p` to when it cannot prove the pointer global, and what
 * nvbandwidth's chase does); the generic one pays an address-space check per load. */
enum gpu_chase_load { GPU_LOAD_GLOBAL, GPU_LOAD_GENERIC };
struct gpu_chase {
    uint64_t bytes, steps;
    int n;                       /* chases, each from another SM (1..GPU_MAX_CHASES) */
    enum gpu_chase_load load;
    double ns[GPU_MAX_CHASES];   /* out: ns per dependent load */
    double cycles[GPU_MAX_CHASES]; /* out: SM clock cycles per load; 0 = unknown */
    int sm[GPU_MAX_CHASES];      /* out: the SM that chased; -1 = unknown */
};

struct gpu_feed_ops; /* host memory of every kind, streams and programs (gpu_feed.h) */
struct gpu_access;
/* Clocks as NVML reads them now (MHz; 0 = unknown), and the reasons the driver holds them down
 * (nvmlDeviceGetCurrentClocksEventReasons' bits; has_reasons false when unknown). */
struct gpu_clocks {
    int sm_mhz, mem_mhz, sm_max_mhz, mem_max_mhz;
    unsigned long long reasons;
    bool has_reasons;
};

/* Does a same-device copy run while a kernel occupies every SM? Times in seconds from the busy
 * kernel's start (events): when the copy started and ended, when the kernel ended. */
struct gpu_overlap {
    uint64_t bytes;
    double busy_s;            /* how long the kernel kept every SM */
    double copy_start_s, copy_end_s;
    double copy_s;            /* copy_end_s - copy_start_s */
    int busy_blocks;          /* the kernel's blocks (SMs x resident blocks: every SM full) */
    int resident_blocks;      /* how many had started when the copy was issued (all: SMs full) */
    double sm_busy_s;         /* the busy kernel's time in the SM copy's round */
    /* the same with an SM copy kernel in place of the copy engine: it has to wait for the
     * SMs, which shows the busy kernel did keep them all (else the test says nothing) */
    double sm_copy_start_s, sm_copy_end_s;
    bool ce_overlapped;       /* the copy ended before the busy kernel did */
    bool sm_waited;           /* the SM copy ended after the busy kernel did */
};

/* The backend table (the nvtop `struct gpu_vendor` pattern). Every function returns a status and
 * leaves a readable reason in dev->why on failure. Times are seconds per repetition. */
struct gpu_backend {
    const char *name;
    unsigned caps;
    /* Open the device; on failure write why (e.g. "CUDA driver not found (error 35)"). */
    gpu_status (*open)(const struct gpu_config *cfg, struct gpu_dev **out, char *why, size_t n);
    void (*close)(struct gpu_dev *dev);
    gpu_status (*mem_info)(struct gpu_dev *dev, uint64_t *free_b, uint64_t *total_b);
    gpu_status (*alloc)(struct gpu_dev *dev, uint64_t bytes, void **ptr);
    gpu_status (*free)(struct gpu_dev *dev, void *ptr);
    gpu_status (*host_alloc)(struct gpu_dev *dev, uint64_t bytes, bool pinned, void **ptr);
    gpu_status (*host_free)(struct gpu_dev *dev, void *ptr, bool pinned);
    gpu_status (*memset)(struct gpu_dev *dev, void *ptr, int value, uint64_t bytes);
    /* Time `reps` back-to-back copies of `bytes`; *seconds = elapsed / reps. */
    gpu_status (*copy)(struct gpu_dev *dev, enum gpu_dir dir, enum gpu_method method, void *dst,
                       const void *src, uint64_t bytes, int reps, double *seconds);
    /* Dependent loads over a working set of c->bytes (a random cyclic permutation of stored
     * addresses): one array, then c->n chases of c->steps loads, each from a different SM. */
    gpu_status (*latency)(struct gpu_dev *dev, struct gpu_chase *c);
    /* A STREAM kernel (kind: GPU_HOST_COPY..GPU_HOST_DOT) over device arrays of `bytes` of
     * doubles each, `reps` times back to back; *seconds = elapsed / reps; *dot = the last dot
     * product (GPU_HOST_DOT only). */
    gpu_status (*stream)(struct gpu_dev *dev, int kind, void *a, void *b, void *c, uint64_t bytes,
                         int reps, double *seconds, double *dot);
    /* Validation, as nvbandwidth and BabelStream do it: give a buffer known content before the
     * timed trials, count what differs from the expected content after them. `host`: ptr is a
     * host buffer (H2D source, D2H destination). */
    gpu_status (*fill)(struct gpu_dev *dev, void *ptr, uint64_t bytes, bool host,
                       const struct gpu_content *want);
    gpu_status (*check)(struct gpu_dev *dev, const void *ptr, uint64_t bytes, bool host,
                        const struct gpu_content *want, struct gpu_mismatch *m);
    /* Whether other processes hold memory on this device now (NVML on cuda). */
    bool (*shared)(struct gpu_dev *dev);
    /* Pinned, registered, mapped and managed memory, and programs of copies, kernels and
     * prefetches on streams (gpu_feed.h); NULL: the backend has none. */
    const struct gpu_feed_ops *feed;
    /* How a kernel touches memory (gpu_access.h): one phase of one access-pattern experiment on
     * buffers the bench allocated. NULL: the backend has none. */
    gpu_status (*access)(struct gpu_dev *dev, struct gpu_access *a);
    /* Optional (NULL: not supported). copy_single: `reps` copies as an application makes them,
     * each issued alone and waited for (cudaMemcpyAsync + cudaStreamSynchronize), host-timed:
     * the round trip one call costs, where copy times held back-to-back batches. */
    gpu_status (*copy_single)(struct gpu_dev *dev, enum gpu_dir dir, enum gpu_method method,
                              void *dst, const void *src, uint64_t bytes, int reps,
                              double *seconds);
    /* The clocks now (NVML). */
    gpu_status (*clocks)(struct gpu_dev *dev, struct gpu_clocks *c);
    /* The copy-engine question (gpu_bench_overlap): a kernel that occupies every SM for busy_s,
     * and while it runs a same-device copy of `bytes` (dst/src device buffers), both timed. */
    gpu_status (*overlap)(struct gpu_dev *dev, void *dst, const void *src, uint64_t bytes,
                          double busy_s, struct gpu_overlap *o);
};

/* ---- registry (gpu_registry.c) ---------------------------------------------------------- */
/* Tried in order: cuda (when compiled in), then sim. */
extern const struct gpu_backend *const gpu_backends[];
const struct gpu_backend *gpu_backend_find(const char *name);

/* Open `want` (NULL/"auto": first that opens). Whatever failed before the one that opened is
 * described in `fallback_why` (e.g. "cuda: CUDA driver not found (error 35)"). */
gpu_status gpu_open(const char *want, const struct gpu_config *cfg, struct gpu_dev **out,
                    char *fallback_why, size_t n);
void gpu_close(struct gpu_dev *dev);

/* Checked wrappers every caller uses: sticky state, cap on free memory, live-byte accounting. */
gpu_status gpu_mem_info(struct gpu_dev *dev, uint64_t *free_b, uint64_t *total_b);
gpu_status gpu_alloc(struct gpu_dev *dev, uint64_t bytes, void **ptr);
gpu_status gpu_alloc_uncapped(struct gpu_dev *dev, uint64_t bytes, void **ptr);
gpu_status gpu_free(struct gpu_dev *dev, void *ptr, uint64_t bytes);
gpu_status gpu_host_alloc(struct gpu_dev *dev, uint64_t bytes, bool pinned, void **ptr);
gpu_status gpu_host_free(struct gpu_dev *dev, void *ptr, bool pinned);
/* Fault injection for an allocation made elsewhere (gpu_feed.c): true when this one is to fail
 * as an out-of-memory would; `site` is the code that asked (its caller's return address). */
bool gpu_fault_at(struct gpu_dev *dev, const void *site);
/* Most an experiment may take now: the cap is on what the process holds in all, not on each
 * allocation. cap_fraction x (free + live_bytes), at most cap_bytes when set, less live_bytes:
 * a lesson that holds 60 % of the memory free to it may take 30 % more under a 0.9 cap, not 90 %
 * of what is left. */
uint64_t gpu_alloc_budget(struct gpu_dev *dev);
const char *gpu_why(const struct gpu_dev *dev);
void gpu_set_why(struct gpu_dev *dev, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Set why[] from a key and its numbers (as many as its format takes, at most 4). */
void gpu_set_why_key(struct gpu_dev *dev, enum gpu_why_key key, double a, double b, double c, double d);
/* The numbers of a keyed refusal (dev->why_key, dev->why_arg) as text, in the order of its
 * format ("40 GiB", "90"). */
void gpu_why_args(enum gpu_why_key key, const double arg[4], char out[4][48]);

/* ---- measurements (gpu_stats.c, gpu_bench.c, gpu_host.c) -------------------------------- */
#define GPU_MAX_SAMPLES 64

/* A measured (or SIMULATED) figure. Times in seconds, bytes per repetition. */
struct gpu_result {
    uint64_t bytes;        /* n: bytes per transfer / per array pass */
    uint64_t moved_bytes;  /* bytes actually read + written per repetition */
    int samples;           /* timed trials after warm-up */
    double best_s, median_s, worst_s;
    double spread;         /* (worst - best) / best */
    double bytes_per_s;    /* n / best (nvbandwidth's convention) */
    double rw_bytes_per_s; /* moved / best (bandwidthTest counts D2D as 2n/t); 0 if n/a */
    double ns_per_load;    /* latency experiments only */
    double ticks;          /* best / timer resolution */
    bool simulated;
    bool validated;        /* the data was checked after the trials and was right */
    unsigned warn;         /* GPU_WARN_* bits */
    double dot;            /* dot kernels: the product computed (checked in closed form) */
    int numa_node;         /* H2D/D2H: the host node the buffers were placed on; -1 unknown */
    /* latency on a device: one sample per SM; best/median/worst are min/median/max across SMs */
    double cycles_per_load; /* at the best SM; 0 = unknown */
    double sm_clock_mhz;    /* cycles / ns during that chase; 0 = unknown */
    int nsm;
    int sm[GPU_MAX_CHASES];
    int reps;               /* operations per timed trial (bandwidth) */
    /* bandwidth on a device: NVML's clocks read between the timed trials (MHz; 0 = unknown) */
    int run_sm_mhz, run_mem_mhz;
    /* latency on a device: the SM clock's maximum, and whether the chase ran below 90 % of it
     * after one retry (its ns are then slower than the hardware's: cycles are unaffected) */
    double sm_clock_max_mhz;
    bool low_clock;
    enum gpu_chase_load load;
    bool single;            /* copies issued one at a time and waited for (copy_single) */
};

/* Warnings a measurement carries beside its figure: a bit each, with a key; the sentence a
 * learner reads is the layer above's (lua/lt_say.h, one WARN_ row per bit in this order). */
#define GPU_WARN_LIST(X)                                                                          \
    X(GPU_WARN_FEW_TICKS, "few_ticks")         /* best time < 20 timer ticks */                   \
    X(GPU_WARN_SPREAD, "spread")               /* spread above 10 % */                            \
    X(GPU_WARN_SMALL_ARRAY, "small_array")     /* host array < 4 x last-level cache */            \
    X(GPU_WARN_SHARED_GPU, "shared_gpu")       /* other processes on the GPU */                   \
    X(GPU_WARN_CLAMPED, "clamped")             /* size reduced to fit the memory cap */           \
    X(GPU_WARN_THREADS, "threads")             /* a host STREAM kernel ran on fewer threads */    \
    X(GPU_WARN_HOLD_TIMEOUT, "hold_timeout")   /* the stream hold ended before the batch queued */ \
    X(GPU_WARN_MIG, "mig")                     /* a MIG slice: peak figures are the whole GPU's */ \
    X(GPU_WARN_LLC_UNKNOWN, "llc_unknown")     /* host STREAM: no last-level cache size known */ \
    X(GPU_WARN_LOW_CLOCK, "low_clock")         /* a device chase below 90 % of the max SM clock */
enum gpu_warn_bit_index {
#define GPU_X_WARN(name, key) name##_BIT,
    GPU_WARN_LIST(GPU_X_WARN)
#undef GPU_X_WARN
    GPU_WARN_COUNT
};
enum {
#define GPU_X_WARN(name, key) name = 1u << name##_BIT,
    GPU_WARN_LIST(GPU_X_WARN)
#undef GPU_X_WARN
    GPU_WARN_LAST = 1u << (GPU_WARN_COUNT - 1),
};
/* A warning bit's key ("few_ticks"); "" for a value that is not one bit of the list. */
const char *gpu_warn_key(unsigned bit);

/* Statistics over timed trials (seconds). Fills best/median/worst/spread/samples. */
void gpu_stats(struct gpu_result *r, const double *t, int n);
double gpu_median(double *t, int n); /* sorts t in place */

/* Monotonic clock, seconds; and its resolution. */
double gpu_now(void);
/* CPU seconds the calling thread has used (CLOCK_THREAD_CPUTIME_ID): a limit on computing that
 * a busy machine does not trip; gpu_cpu_clock gives that clock for a watchdog on another thread. */
double gpu_cpu_now(void);
double gpu_clock_read(clockid_t clock);
clockid_t gpu_cpu_clock(void);
double gpu_timer_resolution(void);

/* Cancellation: set by one thread (the UI's Esc, a run's wall-time limit), polled by the thread
 * that measures, between trials. Relaxed atomics: the flag carries no other data. */
typedef atomic_int gpu_cancel_flag;
static inline bool gpu_cancelled(const gpu_cancel_flag *c)
{
    return c && atomic_load_explicit(c, memory_order_relaxed) != 0;
}
static inline void gpu_cancel_set(gpu_cancel_flag *c, bool on)
{
    atomic_store_explicit(c, on ? 1 : 0, memory_order_relaxed);
}

struct gpu_copy_req {
    enum gpu_dir dir;
    enum gpu_method method;
    uint64_t bytes;
    bool pinned;  /* host side page-locked (H2D/D2H) */
    int trials;   /* timed trials (default 10) */
    int reps;     /* copies per trial (0 = auto: ~20 ms per trial) */
    bool single;  /* each copy issued alone and waited for, host-timed (backend copy_single) */
};
/* Repetitions per timed trial for work that takes one_s once: about 20 ms worth, 1..1000. */
int gpu_bench_reps(double one_s);
/* What every device result carries besides its times: the warnings the backend raised during the
 * timed calls, other processes on the GPU, a MIG slice's whole-GPU peak, too few timer ticks
 * (`reps` operations per trial). */
void gpu_bench_finish(struct gpu_dev *dev, struct gpu_result *r, int reps);
/* Allocate, warm up, time, free. Nothing stays allocated, also on error or cancel. */
gpu_status gpu_bench_copy(struct gpu_dev *dev, const struct gpu_copy_req *q, struct gpu_result *r,
                          gpu_cancel_flag *cancel);
gpu_status gpu_bench_latency(struct gpu_dev *dev, uint64_t bytes, struct gpu_result *r,
                             gpu_cancel_flag *cancel);
/* The same with the chase's load instruction chosen (gpu_bench_latency: GPU_LOAD_GLOBAL). */
gpu_status gpu_bench_latency_load(struct gpu_dev *dev, uint64_t bytes, enum gpu_chase_load load,
                                  struct gpu_result *r, gpu_cancel_flag *cancel);
/* Whether a same-device copy of `bytes` (cudaMemcpyAsync) runs while a kernel occupies every SM
 * for busy_s: two device buffers within the cap, the backend's overlap, everything freed. */
gpu_status gpu_bench_overlap(struct gpu_dev *dev, uint64_t bytes, double busy_s,
                             struct gpu_overlap *o);
/* The clocks now; GPU_ERR_UNSUPPORTED where the backend cannot read them. */
gpu_status gpu_bench_clocks(struct gpu_dev *dev, struct gpu_clocks *c);
/* How far free memory may be off after `bytes` were allocated and freed without counting as
 * kept: max(2 MiB, 0.01 % of bytes). The driver keeps page-table pages and its small-allocation
 * chunk (2 MiB) as it sees fit; a check with a fixed tolerance fails a correct GPU after tens of
 * GB of allocations. */
uint64_t gpu_free_tolerance(uint64_t bytes);
/* STREAM on the device: three arrays of `bytes` each; counted as STREAM counts (copy/scale 2n,
 * add/triad 3n, dot 2n bytes per pass). Arrays start at GPU_STREAM_A/B/C and every array is
 * checked in closed form after the trials (GPU_ERR_VALIDATION when wrong). */
gpu_status gpu_bench_stream(struct gpu_dev *dev, int kind, uint64_t bytes, int trials,
                            struct gpu_result *r, gpu_cancel_flag *cancel);

/* Host experiments: real on every backend. */
enum gpu_host_kind { GPU_HOST_MEMCPY, GPU_HOST_LOOP, GPU_HOST_COPY, GPU_HOST_SCALE,
                     GPU_HOST_ADD, GPU_HOST_TRIAD, GPU_HOST_DOT };
struct gpu_host_info {
    char cpu[128];
    int threads;           /* online logical CPUs */
    uint64_t ram_bytes;    /* physical memory */
    uint64_t page_bytes;
    /* The last-level cache (gpu_hostcache.c), 0 = unknown. llc_bytes is one instance, what one
     * core can use; llc_total_bytes all instances the online CPUs use (STREAM's rule counts
     * these), one instance when sharing is not reported. Both stay 0 when the figure read
     * (llc_read_bytes) is judged not one core's (llc_plausible false): a package total that a
     * hypervisor passed through. */
    uint64_t llc_bytes, llc_total_bytes, llc_read_bytes;
    int llc_shared_cpus;   /* CPUs sharing one instance; 0 = not reported */
    bool llc_plausible;
    const char *llc_source; /* "sysfs", "cpuid", "sysconf" or "none" */
};
void gpu_host_info(struct gpu_host_info *h);
/* `bytes` is the size of one array. STREAM byte counts per element: copy/scale/dot 16,
 * add/triad 24 (8-byte doubles); memcpy/loop count n read + n written. Every result is checked
 * after the trials (memcpy/loop against the source pattern, STREAM in closed form). dev may be
 * NULL; with one, its fault hooks apply (fault_corrupt): the arrays are the host's. */
gpu_status gpu_host_bench(const struct gpu_dev *dev, enum gpu_host_kind k, uint64_t bytes,
                          int threads, int trials, struct gpu_result *r, gpu_cancel_flag *cancel);
/* Host kind names ("memcpy", "loop", "copy", "scale", "add", "triad", "dot") and back; -1 if
 * unknown. */
const char *gpu_host_kind_name(enum gpu_host_kind k);
int gpu_host_kind_parse(const char *name);
/* A pointer chase over one random cycle of `bytes` (64-byte lines). Trials are timed by length,
 * not by count: each lasts about 5 ms (0.2 ms with host_quick), at least 4096 loads, after a
 * warm-up that walks the whole cycle when that takes under 10 ms (so a set that fits a cache is
 * in it) and as much as 10 ms allows otherwise. */
gpu_status gpu_host_latency(const struct gpu_dev *dev, uint64_t bytes, struct gpu_result *r,
                            gpu_cancel_flag *cancel);
/* Host arrays kept from one host measurement to the next: a lesson that runs five STREAM kernels,
 * or STREAM then a chase, allocates and first-touches its memory once. The _in variants take
 * their arrays from the arena, reusing them when they are large enough, else freeing them before
 * allocating new ones (an arena never holds more than one measurement's arrays); with a NULL
 * arena each call allocates and frees its own, as gpu_host_bench and gpu_host_latency do. An
 * arena is used by one thread at a time. */
struct gpu_host_arena;
struct gpu_host_arena *gpu_host_arena_new(void);
void gpu_host_arena_release(struct gpu_host_arena *ar); /* frees the arrays; the arena stays */
void gpu_host_arena_free(struct gpu_host_arena *ar);
size_t gpu_host_arena_held(const struct gpu_host_arena *ar); /* bytes of arrays it holds now */
gpu_status gpu_host_bench_in(struct gpu_host_arena *ar, const struct gpu_dev *dev,
                             enum gpu_host_kind k, uint64_t bytes, int threads, int trials,
                             struct gpu_result *r, gpu_cancel_flag *cancel);
gpu_status gpu_host_latency_in(struct gpu_host_arena *ar, const struct gpu_dev *dev,
                               uint64_t bytes, struct gpu_result *r, gpu_cancel_flag *cancel);

/* A cache level by size: {"L1", 48 KiB}. */
struct gpu_level {
    char name[8];
    uint64_t bytes;
};
/* Plateaus of a latency ladder (points sorted by size, x2 apart): runs of >= 2 points between
 * jumps of more than 40 %, each reported by its median, and named by where the run ends against
 * the cache sizes `lv` (smallest first): within a level's size it is that level (or one x2 step
 * past it, when the run's geometric middle is inside), beyond the last it is DRAM. On a GPU
 * (host false) two runs in one level are its near and far part ("L2 near", "L2 far": Hopper's
 * split L2), and a second run past the last cache is a TLB step ("DRAM+TLB"). On a host there is
 * no near and far cache: a second run in a level, or a run whose jump came with the working set
 * at most half the previous run's cache, is the TLB's reach running out ("L2+TLB", "L3+TLB",
 * "DRAM+TLB"). Without sizes (nlv = 0) the runs are only numbered ("level 1", ...). Returns how
 * many were found. */
struct gpu_plateau {
    uint64_t from_bytes, to_bytes;
    double ns;
    char label[16];
};
int gpu_plateaus(const uint64_t *bytes, const double *ns, int n, const struct gpu_level *lv,
                 int nlv, bool host, struct gpu_plateau *out, int max);
/* The host's data caches as detected, smallest first: sysfs, else CPUID's deterministic cache
 * leaves, else sysconf (source "sysfs", "cpuid", "sysconf" or "none"). Each level is judged:
 * more than GPU_CACHE_MAX_PER_CPU for every CPU that can share it is no core's cache (the most
 * L3 per core any x86 part ships is 48 MiB: AMD EPYC 7373X, 768 MB for 16 cores). */
#define GPU_CACHE_MAX_PER_CPU (64ull << 20)
struct gpu_cache_level {
    int level;        /* 1, 2, 3 ... */
    uint64_t bytes;   /* one instance */
    int shared_cpus;  /* CPUs sharing an instance; 0 = not reported */
    int instances;    /* instances over the online CPUs; 0 = unknown */
    bool plausible;   /* false: judged a package total, not one core's */
};
struct gpu_cache_info {
    struct gpu_cache_level lv[8];
    int n;
    const char *source;
};
/* `sysfs` is "/sys" when NULL (tests pass a folder of their own). */
void gpu_cache_detect(const char *sysfs, struct gpu_cache_info *ci);
/* Judge every level against `online` CPUs (sets plausible and instances). */
void gpu_cache_judge(struct gpu_cache_info *ci, int online);
/* The highest level into h's llc_* fields. */
void gpu_cache_llc(const struct gpu_cache_info *ci, struct gpu_host_info *h);
/* The plausible levels as gpu_level {"L1", bytes}, smallest first; how many. */
int gpu_host_caches(struct gpu_level *out, int max, const char **source);
/* The device's: L1 (per SM) and L2 when known. */
int gpu_dev_caches(const struct gpu_info *i, struct gpu_level *out, int max);

/* ---- validation (gpu_check.c) -------------------------------------------------------------- */
/* STREAM's starting values (BabelStream's 0.1 and 0.2; c non-zero so that scale cannot pass by
 * writing zeros) and scalar (McCalpin's). */
#define GPU_STREAM_A 0.1
#define GPU_STREAM_B 0.2
#define GPU_STREAM_C 0.05
#define GPU_STREAM_S 3.0
/* What a, b, c hold after `kind` ran (any number of times) from the starting values; and the dot
 * product of n elements. */
void gpu_stream_expect(int kind, double abc[3]);
double gpu_stream_dot_expect(uint64_t n);
/* Host-memory versions of the backend's fill/check (the cuda backend uses them for host
 * buffers, the host experiments for theirs). */
void gpu_content_fill(void *p, uint64_t bytes, const struct gpu_content *want);
void gpu_content_check(const void *p, uint64_t bytes, const struct gpu_content *want,
                       struct gpu_mismatch *m);
/* "4096 of 1048576 bytes differ (first at byte 0)" */
void gpu_mismatch_str(const struct gpu_mismatch *m, const struct gpu_content *want,
                      uint64_t bytes, char *buf, size_t n);

/* Small deterministic RNG (xoshiro-style splitmix) shared by the simulator and the chase setup. */
uint64_t gpu_rand(uint64_t *state);

#endif
