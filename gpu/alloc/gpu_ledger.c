/* gpu_ledger.c - the "where did my VRAM go" reconciliation: the device's total split into other
 * processes, this process's context, its allocations (the caching allocator's reserved bytes
 * down to what was requested) and free memory, from cudaMemGetInfo, NVML and the allocator's
 * statistics. Parts without a source are never guessed: their bytes land in "unaccounted".
 * Numbers and keys only: lua/lt_ledger.c writes it for a person. */
#include "gpu_ledger.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>


static const char *const keys[GPU_LEDGER_NPARTS] = {
    "other_processes", "context", "unaccounted", "other_allocations",
    "requested",       "rounding", "cached",     "free"};

const char *gpu_ledger_part_key(enum gpu_ledger_part p)
{
    return p < GPU_LEDGER_NPARTS ? keys[p] : "?";
}

static void take_allocator(struct gpu_ledger *l, const struct gpu_caching_stats *st)
{
    if (!st) return;
    l->has_allocator = true;
    l->reserved = st->reserved_bytes[GPU_CACHE_ALL].current;
    l->allocated = st->allocated_bytes[GPU_CACHE_ALL].current;
    l->requested = st->requested_bytes[GPU_CACHE_ALL].current;
    l->segments = st->segment[GPU_CACHE_ALL].current;
    l->inactive_split = st->inactive_split_bytes[GPU_CACHE_ALL].current;
    uint64_t lf = st->largest_free[GPU_CACHE_SMALL];
    if (st->largest_free[GPU_CACHE_LARGE] > lf) lf = st->largest_free[GPU_CACHE_LARGE];
    l->largest_free = lf;
    l->part[GPU_LEDGER_REQUESTED] = l->requested;
    l->part[GPU_LEDGER_ROUNDING] = l->allocated - l->requested;
    l->part[GPU_LEDGER_CACHED] = l->reserved - l->allocated;
}

void gpu_ledger_fill_model(uint64_t capacity, const struct gpu_caching_stats *st,
                           struct gpu_ledger *l)
{
    memset(l, 0, sizeof *l);
    l->simulated = l->model = true;
    snprintf(l->backend, sizeof l->backend, "model");
    snprintf(l->device, sizeof l->device, "model device");
    l->nvml_state = GPU_LEDGER_NVML_NOT_REAL;
    snprintf(l->nvml_note, sizeof l->nvml_note, "a model device has no other processes");
    l->total = capacity;
    take_allocator(l, st);
    l->free = capacity - (l->reserved < capacity ? l->reserved : capacity);
    l->live_bytes = l->reserved;
    l->part[GPU_LEDGER_FREE] = l->free;
    for (int p = 0; p < GPU_LEDGER_NPARTS; p++) l->known[p] = true;
}

gpu_status gpu_ledger_fill(struct gpu_dev *dev, const struct gpu_caching_stats *st,
                           struct gpu_ledger *l)
{
    memset(l, 0, sizeof *l);
    gpu_status s = gpu_mem_info(dev, &l->free, &l->total);
    if (s != GPU_OK) return s;
    l->simulated = dev->info.simulated;
    snprintf(l->backend, sizeof l->backend, "%s", dev->be->name);
    snprintf(l->device, sizeof l->device, "%s", dev->info.name);
    take_allocator(l, st);
    l->live_bytes = dev->live_bytes;
    uint64_t used = l->total - (l->free < l->total ? l->free : l->total);
    uint64_t in_alloc = l->reserved <= l->live_bytes ? l->reserved : l->live_bytes;
    l->part[GPU_LEDGER_OTHER_ALLOCS] = l->live_bytes - in_alloc;
    l->part[GPU_LEDGER_FREE] = l->free;
    for (int p = GPU_LEDGER_UNACCOUNTED; p < GPU_LEDGER_NPARTS; p++) l->known[p] = true;

    if (l->simulated) {
        /* The simulator models one process: nobody else is on its device. */
        l->known[GPU_LEDGER_OTHER_PROCS] = true;
        l->nvml_state = GPU_LEDGER_NVML_NOT_REAL;
        snprintf(l->nvml_note, sizeof l->nvml_note,
                 "SIMULATED device: no other processes; context from the GPU profile");
    } else {
        int k = gpu_nvml_procs(dev->pci_bus_id, dev->info.mig_instance, l->procs,
                               GPU_LEDGER_MAX_PROCS, l->nvml_note, sizeof l->nvml_note);
        if (k >= 0) {
            l->nvml = true;
            l->driver_reserved = dev->info.nvml_reserved_bytes;
            l->nprocs = k;
            unsigned me = (unsigned)getpid();
            uint64_t others = 0;
            bool all_known = true;
            for (int i = 0; i < k; i++) {
                l->self[i] = l->procs[i].pid == me;
                if (l->self[i]) {
                    l->has_self = l->procs[i].has_used;
                    l->self_nvml = l->procs[i].used;
                } else if (l->procs[i].has_used) {
                    others += l->procs[i].used;
                } else {
                    all_known = false;
                }
            }
            /* In a PID namespace (a container) NVML lists host pids: this process is then not
             * recognisable, and neither is the split between it and the others. */
            bool found_me = false;
            for (int i = 0; i < k; i++) found_me |= l->self[i];
            if (found_me && all_known) {
                l->part[GPU_LEDGER_OTHER_PROCS] = others;
                l->known[GPU_LEDGER_OTHER_PROCS] = true;
                l->nvml_state = GPU_LEDGER_NVML_PER_PROCESS;
                snprintf(l->nvml_note, sizeof l->nvml_note, "per-process figures from NVML "
                         "(nvmlDeviceGetComputeRunningProcesses), as nvidia-smi shows them");
            } else {
                l->nvml_state = found_me ? GPU_LEDGER_NVML_HIDDEN : GPU_LEDGER_NVML_NAMESPACE;
                snprintf(l->nvml_note, sizeof l->nvml_note, "%s",
                         found_me ? "NVML hides some processes' memory (no permission)"
                                  : "this process is not in NVML's list (a PID namespace?): "
                                    "other processes cannot be told apart");
            }
            if (dev->info.mig && dev->info.mig_instance < 0) {
                /* A slice NVML could not identify: its list is the whole GPU's, every instance
                 * mixed, and none of it belongs in this slice's figures. */
                l->part[GPU_LEDGER_OTHER_PROCS] = 0;
                l->known[GPU_LEDGER_OTHER_PROCS] = false;
                l->has_self = false;
                l->nvml_state = GPU_LEDGER_NVML_WHOLE_GPU;
                snprintf(l->nvml_note, sizeof l->nvml_note, "processes of the WHOLE GPU (every "
                         "MIG instance: this slice was not identified in NVML), not counted here");
            }
        }
    }
    /* The context: what nvidia-smi charges this process beyond its allocations, else what
     * opening the device cost (measured at open; lazily loaded kernels come later). */
    if (l->has_self) {
        l->part[GPU_LEDGER_CONTEXT] = l->self_nvml > l->live_bytes ? l->self_nvml - l->live_bytes : 0;
        l->known[GPU_LEDGER_CONTEXT] = true;
    } else if (dev->has_context_bytes) {
        l->part[GPU_LEDGER_CONTEXT] = dev->context_bytes;
        l->known[GPU_LEDGER_CONTEXT] = true;
    }
    /* Whatever the sources do not explain; measured at slightly different moments they can
     * over-explain: then trim the context, then the others, so the parts still add up. */
    uint64_t expl = l->part[GPU_LEDGER_OTHER_PROCS] + l->part[GPU_LEDGER_CONTEXT] + l->live_bytes;
    if (expl <= used) {
        l->part[GPU_LEDGER_UNACCOUNTED] = used - expl;
    } else {
        uint64_t over = expl - used;
        for (int p = GPU_LEDGER_CONTEXT; p >= GPU_LEDGER_OTHER_PROCS && over; p--) {
            uint64_t cut = over < l->part[p] ? over : l->part[p];
            l->part[p] -= cut;
            over -= cut;
        }
        /* Still over: the allocations themselves exceed used (the simulator rounds in pages,
         * the ledger counts requests); show the device's view. */
        l->part[GPU_LEDGER_OTHER_ALLOCS] -= over < l->part[GPU_LEDGER_OTHER_ALLOCS]
                                                ? over : l->part[GPU_LEDGER_OTHER_ALLOCS];
    }
    return GPU_OK;
}
