/* gpu_nvml.h - NVML (the library behind nvidia-smi), opened at run time with dlopen when
 * libnvidia-ml.so.1 is present and never linked, so vramlab runs on machines without a driver.
 * It answers what the CUDA runtime cannot: device memory as nvidia-smi counts it, before this
 * process has a context, and per process. gpu_nvml_disable (gpu_config.no_nvml, set by
 * VRAMLAB_NO_NVML=1) leaves it unused. */
#ifndef GPU_NVML_H
#define GPU_NVML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu.h"

/* A process with a context on the device, as nvidia-smi lists it. */
struct gpu_nvml_proc {
    unsigned pid;
    uint64_t used;  /* bytes; valid when has_used (NVML hides it in some containers) */
    bool has_used;
    bool graphics;  /* listed as a graphics ("G") process, else compute ("C") */
    char name[64];  /* "" when NVML cannot say */
};

/* Leave NVML unused for the rest of the process; only before its first use (gpu_open calls it
 * first when gpu_config.no_nvml is set). */
void gpu_nvml_disable(void);
/* Loads and initialises NVML once per process. false, and why, when it is absent or broken. */
bool gpu_nvml_available(char *why, size_t n);
/* Device memory by PCI bus id ("0000:65:00.0"): NVML's total, free and used. */
gpu_status gpu_nvml_mem(const char *pci_bus_id, uint64_t *free_b, uint64_t *total_b,
                        uint64_t *used_b, char *why, size_t n);
/* The same with what the driver reserves for itself (nvmlDeviceGetMemoryInfo_v2, as
 * nvidia-smi's "Reserved" row; has_reserved false on a driver with the v1 call only, whose used
 * then includes it). */
struct gpu_nvml_memory {
    uint64_t total, reserved, free, used;
    bool has_reserved;
};
gpu_status gpu_nvml_memory(const char *pci_bus_id, struct gpu_nvml_memory *m, char *why,
                           size_t n);
/* The PCIe link: the most this device and system can train it to (nvmlDeviceGetMaxPcieLink*),
 * and what it runs at now (an idle GPU drops it); 0 = unknown. */
gpu_status gpu_nvml_pcie(const char *pci_bus_id, int *max_gen, int *max_width, int *cur_gen,
                         int *cur_width, char *why, size_t n);
/* SM and memory clocks now and their maxima, and the reasons the driver holds them down. */
gpu_status gpu_nvml_clocks(const char *pci_bus_id, struct gpu_clocks *c, char *why, size_t n);
/* Processes on the device, compute and graphics merged by pid. On a MIG slice, gpu_instance
 * (>= 0) keeps only that instance's processes; -1 lists the whole GPU. Returns how many were
 * written (at most max), or -1 with why. */
int gpu_nvml_procs(const char *pci_bus_id, int gpu_instance, struct gpu_nvml_proc *out, int max,
                   char *why, size_t n);
/* The GPU instance id of the MIG device whose UUID is "MIG-..." (as NVML and nvidia-smi -L spell
 * it); -1 when NVML does not know it. */
int gpu_nvml_mig_instance(const char *uuid, char *why, size_t n);
/* Whether processes other than this one hold memory on the device (or the instance). In a PID
 * namespace this process is not recognisable: then any second process counts. */
bool gpu_nvml_shared(const char *pci_bus_id, int gpu_instance);

#endif
