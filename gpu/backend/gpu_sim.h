/* gpu_sim.h - the simulator backend and the GPU spec profiles it reads from assets/gpus/. */
#ifndef GPU_SIM_H
#define GPU_SIM_H

#include "gpu.h"

extern const struct gpu_backend gpu_sim_backend;

/* Where a profile's figures come from: `source.<tag> = text` lines, named at the end of each
 * numeric field's line as [tag] (docs/simulator.md). */
#define GPU_PROFILE_SOURCES 16
struct gpu_profile_source {
    char tag[24];
    char text[400];
};

/* A GPU profile: published figures (with their source) plus the timing-model parameters. */
struct gpu_profile {
    struct gpu_info info;      /* published figures; backend/simulated filled by the simulator */
    uint64_t smi_total_bytes;  /* what nvidia-smi shows as "FB Memory Total" (info.total_bytes is
                                * what CUDA reports: cudaMemGetInfo's total, totalGlobalMem) */
    double marketed_gb;        /* the capacity as sold, in GB as the maker prints it */
    struct gpu_profile_source src[GPU_PROFILE_SOURCES];
    int nsrc;
    unsigned char field_src[64][3]; /* per field (gpu_profile_fields order): src index + 1 */
    uint64_t context_bytes;    /* device memory a CUDA context takes before any allocation */
    double ce_efficiency;      /* large D2D copy-engine copy: share of peak (counted 2n) */
    char ce_source[256];       /* where that share comes from (and whether it is disputed) */
    double sm_efficiency;      /* large D2D SM-kernel copy: share of peak (counted 2n) */
    char sm_source[256];
    double l2_speedup;         /* copies whose 2n fit in L2 run this much faster than DRAM */
    double pcie_efficiency;    /* pinned H2D/D2H: share of the PCIe link's payload rate */
    double pageable_factor;    /* pageable / pinned throughput */
    double copy_overhead_us;   /* fixed cost per copy (launch + DMA setup) */
    double l1_bytes;           /* per-SM L1 used by the latency model */
    double l1_ns, l2_ns, dram_ns; /* dependent-load latency at each level */
    double noise;              /* relative noise of a timing (one-sided), e.g. 0.02 */
    /* Feeding the GPU (gpu_sim_feed.c): copy engines, the cost of pinning, kernels reading host
     * memory over the link, unified memory's faults, prefetches and evictions. */
    int async_engines;             /* cudaDevAttrAsyncEngineCount: 1 = one copy at a time */
    double pin_alloc_s_per_gib;    /* cudaHostAlloc: seconds per GiB allocated and pinned */
    double pin_register_s_per_gib; /* cudaHostRegister of touched pageable memory, per GiB */
    double launch_us;              /* host time to issue one asynchronous call */
    double zerocopy_efficiency;    /* a kernel reading mapped host memory: share of the pinned
                                    * copy rate over the link */
    double um_fault_efficiency;    /* migration on page faults: share of the pinned copy rate */
    double um_prefetch_efficiency; /* cudaMemPrefetchAsync: share of the pinned copy rate */
    double um_evict_efficiency;    /* writing evicted pages back: share of the pinned copy rate */
    /* The memory-system model of chapter 7 (docs/simulator.md, "Access patterns"): published
     * FP32 peak and lanes per SM (the SM clock follows: info.sm_clock_khz), the L2's persistence
     * limits (info.l2_persist_max_bytes, info.l2_window_max_bytes), the TLBs' reach and what a
     * miss in each adds to a load. */
    double fp32_tflops;
    double tlb_l1_reach, tlb_l2_reach;   /* bytes of address space each TLB level maps */
    double tlb_l1_miss_ns, tlb_l2_miss_ns;
};

/* Sizes a profile may give (memory, caches): 1 PiB, past any GPU and within what Lua holds
 * exactly (lt_push_size); a profile file is ~1 KiB, read (and listed) within 64 KiB. */
#define GPU_PROFILE_MAX_BYTES (1ull << 50)
#define GPU_PROFILE_MAX_FILE (64u << 10)
#define GPU_PROFILE_ID_MAX 24 /* bytes of a profile's name: [a-z0-9_-] */

/* Load assets/gpus/<id>.txt from datadir ("A:B": the first folder that has it); on error write
 * "file:line: what" into err. Sizes are at most GPU_PROFILE_MAX_BYTES, and the context's memory
 * less than the device's. */
gpu_status gpu_profile_load(const char *datadir, const char *id, struct gpu_profile *p, char *err,
                            size_t n);
/* Call fn(key, source text) for each numeric field of p and each source it names, in file
 * order; a field with a *_source line of its own (ce_efficiency) gets that text. */
void gpu_profile_sources(const struct gpu_profile *p,
                         void (*fn)(const char *key, const char *text, void *ud), void *ud);
/* Call fn for each profile id found in datadir/assets/gpus ("A:B": in every folder, each id
 * once), sorted: only names and files gpu_profile_load would take. Returns the count. */
int gpu_profile_list(const char *datadir, void (*fn)(const char *id, void *ud), void *ud);

/* PCIe payload rate in bytes/s per direction: GT/s x lanes x encoding / 8. */
double gpu_pcie_bytes_per_s(int gen, int width);

/* The timing model, exposed for the benchmarks and tests: seconds for one copy / ns per load,
 * without noise. */
double gpu_sim_copy_seconds(const struct gpu_profile *p, enum gpu_dir dir, enum gpu_method m,
                            bool pinned, uint64_t bytes);
double gpu_sim_latency_ns(const struct gpu_profile *p, uint64_t bytes);
double gpu_sim_stream_seconds(const struct gpu_profile *p, int kind, uint64_t bytes);

/* For the simulator's other files (gpu_sim_access.c, gpu_sim_feed.c): a device operation counted for fault
 * injection, true when it fails now (the device is then in the sticky state); and a modelled
 * time with the device's seeded noise. */
bool gpu_sim_fault(struct gpu_dev *dev, const char *what);
double gpu_sim_noisy(struct gpu_dev *dev, double t);
/* The access-pattern experiments on the simulator (gpu_access.h), and their timing model without
 * noise: seconds per launch, ns per load for GPU_ACC_PAGES. */
gpu_status gpu_sim_access(struct gpu_dev *dev, struct gpu_access *a);
double gpu_sim_access_seconds(const struct gpu_profile *p, const struct gpu_access *a);

/* The profile a simulator device was opened with (NULL for any other backend). */
const struct gpu_profile *gpu_sim_profile(const struct gpu_dev *dev);
/* The profile whose `name` is exactly this device name (e.g. "NVIDIA H200" -> h200), for the
 * published figure beside a real device's computed peak. false when none matches. */
bool gpu_profile_by_name(const char *datadir, const char *name, struct gpu_profile *p,
                         char *id, size_t n);

#define GPU_SIM_DEFAULT_PROFILE "rtx3090"

#endif
