/* gpu_model_dev.h - the "model device": a capacity-limited source of segments for the
 * caching-allocator model (gpu_seg_ops), so the allocator, its tests, the simulator and the
 * trace and snapshot replays run without a GPU. Capacity is enforced by bytes, as cudaMalloc
 * does (physical pages need not be contiguous); addresses are handed out first-fit from 0
 * (512-byte aligned), so they stay small and reused. Free ranges are indexed (O(log n) per
 * segment allocation or free, however fragmented). */
#ifndef GPU_MODEL_DEV_H
#define GPU_MODEL_DEV_H

#include <stdint.h>

#include "gpu.h"
#include "gpu_caching.h"

struct gpu_model_dev;
gpu_status gpu_model_dev_new(uint64_t capacity, struct gpu_model_dev **out);
void gpu_model_dev_free(struct gpu_model_dev *d);
uint64_t gpu_model_dev_used(const struct gpu_model_dev *d);
/* Hold [addr, addr + bytes) (a replay placing a segment where the recorded run had it):
 * GPU_ERR_ARG when part of it is held already or addr is not 512-aligned, GPU_ERR_NOMEM when
 * the capacity would be passed. */
gpu_status gpu_model_dev_take(struct gpu_model_dev *d, uint64_t addr, uint64_t bytes);
extern const struct gpu_seg_ops gpu_model_dev_ops; /* ctx = struct gpu_model_dev * */

#endif
