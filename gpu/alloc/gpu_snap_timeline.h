/* gpu_snap_timeline.h - a snapshot's trace as a timeline to draw: live requested and reserved
 * bytes per column over a window of events, decimated so that a million events fit any width
 * without losing a peak (each column keeps the highest value of its events). Used by the Lua
 * `alloc.snapshot` API and by the tutor's snapshot screen. */
#ifndef GPU_SNAP_TIMELINE_H
#define GPU_SNAP_TIMELINE_H

#include "gpu_snapshot.h"

struct gpu_snap_column {
    int64_t first, last;        /* the events it covers, inclusive (first > last: none) */
    int64_t live_max, reserved_max; /* highest live requested / reserved bytes after its events */
    int64_t live_end, reserved_end; /* after its last event */
};

/* Columns for events [from, to) of device d's trace (to is clamped to the trace's length);
 * start_live and start_reserved are the values before event 0 (the summary's start_bytes and
 * reserved_start). ncols >= 1; fewer events than columns leave the later columns empty
 * (first > last). The walk is one pass over events 0..to. */
void gpu_snap_timeline(const struct gpu_snapshot *s, int d, int64_t start_live,
                       int64_t start_reserved, size_t from, size_t to, size_t ncols,
                       struct gpu_snap_column *out);
/* Live requested and reserved bytes just after event i (i = -1: before the trace). */
void gpu_snap_level_at(const struct gpu_snapshot *s, int d, int64_t start_live,
                       int64_t start_reserved, int64_t i, int64_t *live, int64_t *reserved);

#endif
