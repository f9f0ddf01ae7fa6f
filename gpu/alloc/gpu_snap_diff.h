/* gpu_snap_diff.h - two snapshots of one program compared, device by device ("what grew between
 * step 1 and step 10"), as torch.cuda._memory_viz.compare does and beyond: the segments only in A
 * and only in B (by address and total_size), the reserved, allocated, requested and cached
 * deltas, and the live allocations present in only one of them, grouped by first user frame with
 * their whole stack. A live allocation of B is also A's when A holds an active block at the same
 * address, of the same size and with the same first user frame. docs/snapshot.md defines each
 * number; tests/snapshot/summary_ref.py computes the same. */
#ifndef GPU_SNAP_DIFF_H
#define GPU_SNAP_DIFF_H

#include "gpu_snap_summary.h"
#include "gpu_snapshot.h"

struct gpu_snap_seg_ref {
    uint64_t addr, size;
};

struct gpu_snap_diff_dev {
    int device;
    uint64_t reserved[2], allocated[2], requested[2], cached[2]; /* [0] A, [1] B */
    uint64_t nsegs[2];
    struct gpu_snap_seg_ref *only[2];   /* segments only in A ([0]) / only in B ([1]), by address */
    size_t nonly[2];
    uint64_t only_bytes[2];
    struct gpu_snap_group *gone, *grown; /* live only in A / only in B, largest first */
    size_t ngone, ngrown;
    uint64_t gone_bytes, grown_bytes;   /* over every group, not only those listed */
};

struct gpu_snap_diff {
    struct gpu_snap_diff_dev *dev;      /* the devices of either, ascending */
    size_t ndev;
};

/* Up to `top` groups each way per device. The groups' stacks are ids of the snapshot they come
 * from: gone of a, grown of b. */
gpu_status gpu_snapshot_diff(const struct gpu_snapshot *a, const struct gpu_snapshot *b, size_t top,
                             struct gpu_snap_diff *out, char *err, size_t n);
void gpu_snap_diff_free(struct gpu_snap_diff *d);

#endif
