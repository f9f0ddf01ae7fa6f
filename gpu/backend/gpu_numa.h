/* gpu_numa.h - host buffers on the GPU's own NUMA node, as nvbandwidth places them: the calling
 * thread is pinned to the CPUs sysfs lists as local to the GPU's PCI device before page-locked
 * buffers are allocated (the kernel places their pages on the node of the CPU that touches
 * them), and restored afterwards. Linux only; without sysfs nothing changes. */
#ifndef GPU_NUMA_H
#define GPU_NUMA_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

struct gpu_numa_pin {
    bool pinned;    /* the thread's affinity was changed and must be restored */
    int node;       /* the GPU's node; -1 = unknown (one node, a VM, no sysfs) */
    cpu_set_t saved;
};

/* Pin the calling thread next to the GPU at pci_bus_id ("0000:65:00.0"); returns the node or -1.
 * `sysfs` is "/sys" (tests pass a folder of their own). */
int gpu_numa_bind(const char *sysfs, const char *pci_bus_id, struct gpu_numa_pin *p);
void gpu_numa_unbind(struct gpu_numa_pin *p);
/* The GPU's node without pinning anything; -1 = unknown. */
int gpu_numa_node(const char *sysfs, const char *pci_bus_id);
/* "0-3,8-11" -> a CPU set; false on a malformed list. */
bool gpu_cpulist_parse(const char *s, cpu_set_t *set);

#endif
