/* tui_env.h - the device configuration's settings and test hooks from the environment, read
 * strictly (gpu_parse.h: a bad value is an error naming the variable, never a guess). The device
 * layer reads no environment (docs/styleguide.md); the front end reads it here, once, into
 * struct gpu_config:
 *   VRAMLAB_FAULT_ALLOC=N       the Nth device/host allocation fails (out of memory)
 *   VRAMLAB_FAULT_STICKY=N      simulator: the Nth device operation fails as an illegal address
 *   VRAMLAB_FAULT_HANG=N        simulator: the Nth device operation never returns
 *   VRAMLAB_FAULT_CORRUPT       (set) every copy and STREAM kernel spoils one element
 *   VRAMLAB_SIM_OTHER_BYTES=N   simulator: other processes hold N bytes (or "all")
 *   VRAMLAB_HOST_MAX=SIZE       host experiments take at most SIZE in all (host.budget())
 *   VRAMLAB_HOST_QUICK=1        host experiments time short passes (gpu_config.host_quick)
 *   VRAMLAB_NO_NVML=1           leave NVML unused
 *   VRAMLAB_FAULT_REPORT        (set) print how many allocations were attempted, and the site
 *                               of each, at exit
 * docs/reliability.md says what each is for. */
#ifndef TUI_ENV_H
#define TUI_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gpu.h"

/* Fill those fields of cfg. False with "VAR: what is wrong" in err. */
bool tui_env_config(struct gpu_config *cfg, char *err, size_t n);
/* VRAMLAB_FAULT_REPORT: "vramlab: N allocation(s) attempted" on f, before the device closes, then
 * "vramlab: allocation sites: S1 S2 ..." (the place in the code each allocation came from,
 * numbered 1.. in order of first use: tests inject one fault per place, gpu.h). */
void tui_env_report(const struct gpu_dev *dev, FILE *f);

#endif
