/* gpu_sim_dev.h - the simulator's device, for the simulator's files alone (gpu_sim.c, which
 * opens it and runs its operations; gpu_sim_dev.c, what every simulator file shares: its
 * profile, the seeded noise and the injected faults; the access and feeding models call those
 * through gpu_sim.h). */
#ifndef GPU_SIM_DEV_H
#define GPU_SIM_DEV_H

#include "gpu_sim.h"

struct sim_alloc {
    uintptr_t addr;
    uint64_t bytes;
    bool pinned; /* host buffers: page-locked */
    /* What the buffer holds, as a whole: buffers are never backed, but validation still sees a
     * copy that moved nothing or a kernel that wrote the wrong value (VRAMLAB_FAULT_CORRUPT). */
    bool has_content;
    struct gpu_content content;
};

struct sim_dev {
    struct gpu_dev pub; /* first: the registry sees only this */
    struct gpu_profile prof;
    uint64_t used;
    uint64_t rng;
    bool deterministic;
    uintptr_t next_addr;
    struct sim_alloc *allocs;
    size_t nallocs, cap_allocs;
    long ops, sticky_at; /* device operations so far; gpu_config.fault_sticky (0 = never) */
    uint64_t other_bytes; /* gpu_config.sim_other_bytes: memory other processes hold */
    long hang_at;        /* gpu_config.fault_hang (0 = never) */
};

#endif
