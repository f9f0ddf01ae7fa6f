/* gpu_ledger.h - "where did my VRAM go": one reconciliation of a device's memory, from its total
 * capacity down to the bytes a program asked for. Each part says whether it was measured, taken
 * from NVML, modelled or is unknown; the parts of `total` always add up to it exactly (what no
 * source explains is its own part, "unaccounted"). Numbers, sources and keys: no words. */
#ifndef GPU_LEDGER_H
#define GPU_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu.h"
#include "gpu_caching.h"
#include "gpu_nvml.h"

/* The parts, in the order a stacked bar draws them (bottom = other processes). */
enum gpu_ledger_part {
    GPU_LEDGER_OTHER_PROCS,   /* other processes' memory (NVML) */
    GPU_LEDGER_CONTEXT,       /* this process's CUDA context (free before vs after creating it) */
    GPU_LEDGER_UNACCOUNTED,   /* used, but no source says by whom (driver, or unknown) */
    GPU_LEDGER_OTHER_ALLOCS,  /* this process's device memory outside the allocator */
    GPU_LEDGER_REQUESTED,     /* what the program asked for (live blocks, before rounding) */
    GPU_LEDGER_ROUNDING,      /* allocated - requested: 512 B rounding, whole blocks handed out */
    GPU_LEDGER_CACHED,        /* reserved - allocated: cached free blocks (fragmentation) */
    GPU_LEDGER_FREE,          /* the device's free memory (cudaMemGetInfo) */
    GPU_LEDGER_NPARTS
};
const char *gpu_ledger_part_key(enum gpu_ledger_part p); /* "other_processes", "context", ... */

#define GPU_LEDGER_MAX_PROCS 32

/* What NVML's per-process figures are worth here (the words are lua/lt_ledger.c's). */
enum gpu_ledger_nvml {
    GPU_LEDGER_NVML_NONE,        /* NVML could not be asked: nvml_note says why */
    GPU_LEDGER_NVML_NOT_REAL,    /* a simulated or model device: no other processes */
    GPU_LEDGER_NVML_PER_PROCESS, /* every process's figure, as nvidia-smi shows them */
    GPU_LEDGER_NVML_HIDDEN,      /* some processes' memory hidden (no permission) */
    GPU_LEDGER_NVML_NAMESPACE,   /* this process not in the list (a PID namespace) */
    GPU_LEDGER_NVML_WHOLE_GPU,   /* a MIG slice NVML could not identify: the whole GPU's list */
};

struct gpu_ledger {
    bool simulated;          /* the device is the simulator, or a model device */
    bool model;              /* a model device: no backend, no context, no other processes */
    char backend[16];
    char device[128];
    uint64_t total, free;    /* cudaMemGetInfo (or the simulator's / model's view) */
    uint64_t part[GPU_LEDGER_NPARTS];
    bool known[GPU_LEDGER_NPARTS]; /* false: folded into "unaccounted" for want of a source */
    /* this process */
    uint64_t live_bytes;     /* device bytes this process holds through the device layer */
    bool has_allocator;
    uint64_t reserved, allocated, requested, largest_free;
    uint64_t segments, inactive_split; /* "non-releasable" cached bytes in split segments */
    /* NVML (real devices only) */
    bool nvml;
    enum gpu_ledger_nvml nvml_state;
    char nvml_note[160];     /* the same in English for the JSON, or why NVML could not be asked */
    bool has_self;           /* this process found in NVML's list (not in a PID namespace) */
    uint64_t self_nvml;      /* this process as nvidia-smi shows it */
    uint64_t driver_reserved; /* nvidia-smi's "Reserved" row (NVML v2): 0 when NVML has no v2 */
    int nprocs;
    struct gpu_nvml_proc procs[GPU_LEDGER_MAX_PROCS];
    bool self[GPU_LEDGER_MAX_PROCS];
};

/* Fill from an open device and optionally the stats of a caching allocator whose segments came
 * from that device (alloc_on_dev: its reserved bytes are part of dev->live_bytes). */
gpu_status gpu_ledger_fill(struct gpu_dev *dev, const struct gpu_caching_stats *st,
                           struct gpu_ledger *l);
/* Fill for an allocator on a model device of `capacity` bytes (no backend involved). */
void gpu_ledger_fill_model(uint64_t capacity, const struct gpu_caching_stats *st,
                           struct gpu_ledger *l);
/* Said for a person by lua/lt_ledger.h; the JSON is the command line's (tui_cmd_device.c),
 * from the fields and gpu_ledger_part_key. */

#endif
