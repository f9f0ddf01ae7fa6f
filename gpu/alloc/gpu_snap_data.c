/* gpu_snap_data.c - a loaded snapshot's accessors (gpu_snapshot.h): what the reader
 * (gpu_snapshot.c) built, read by the walk, the summary, the replay and the screens. Below the
 * reader and the walk: the reader calls the walk at load, the walk reads through these. */
#include "gpu_snap_int.h"

#include <stdio.h>

#include "gpu_err.h"

/* ---- accessors ---------------------------------------------------------------------------- */

size_t gpu_snapshot_file_bytes(const struct gpu_snapshot *s) { return s->file_bytes; }
int gpu_snapshot_protocol(const struct gpu_snapshot *s) { return s->protocol; }
size_t gpu_snapshot_legacy_blocks(const struct gpu_snapshot *s) { return s->legacy_blocks; }
const struct gpu_snap_settings *gpu_snapshot_settings(const struct gpu_snapshot *s) { return &s->settings; }
size_t gpu_snapshot_nsegs(const struct gpu_snapshot *s) { return s->nsegs; }
const struct gpu_snap_segment *gpu_snapshot_seg(const struct gpu_snapshot *s, size_t i)
{
    return i < s->nsegs ? &s->segs[i] : NULL;
}
const struct gpu_snap_block *gpu_snapshot_block(const struct gpu_snapshot *s, size_t i)
{
    return i < s->nblocks ? &s->blocks[i] : NULL;
}
size_t gpu_snapshot_ntraces(const struct gpu_snapshot *s) { return s->ntraces; }
const struct gpu_snap_event *gpu_snapshot_trace(const struct gpu_snapshot *s, int d, size_t *n)
{
    bool has = d >= 0 && (size_t)d < s->ntraces;
    if (n) *n = has ? s->dev[d].n : 0;
    return has ? s->dev[d].ev : NULL;
}
int64_t gpu_snapshot_stream(const struct gpu_snapshot *s, uint16_t idx)
{
    return idx < s->nstreams ? s->streams[idx] : 0;
}
size_t gpu_snapshot_nannotations(const struct gpu_snapshot *s) { return s->nann; }
const struct gpu_snap_annotation *gpu_snapshot_annotation(const struct gpu_snapshot *s, size_t i)
{
    return i < s->nann ? &s->ann[i] : NULL;
}
const struct gpu_snap_stack *gpu_snapshot_stack(const struct gpu_snapshot *s, uint32_t id)
{
    return &s->stacks[id < s->nstacks ? id : 0];
}
const uint32_t *gpu_snapshot_stack_frames(const struct gpu_snapshot *s) { return s->stack_frames; }
const struct gpu_snap_frame *gpu_snapshot_frame(const struct gpu_snapshot *s, uint32_t id)
{
    return &s->frames[id < s->nframes ? id : 0];
}
const struct gpu_snap_frame *gpu_snapshot_stack_frame(const struct gpu_snapshot *s, uint32_t stack,
                                                      uint32_t k)
{
    const struct gpu_snap_stack *st = gpu_snapshot_stack(s, stack);
    return k < st->n ? &s->frames[s->stack_frames[st->first + k]] : NULL;
}

bool gpu_snapshot_event_time(const struct gpu_snapshot *s, int d, int64_t i, int64_t *t)
{
    size_t n;
    const struct gpu_snap_event *ev = gpu_snapshot_trace(s, d, &n);
    if (i < 0 || (size_t)i >= n || !(ev[i].flags & GPU_SNAP_HAS_TIME)) return false;
    *t = ev[i].time_us;
    return true;
}

size_t gpu_snapshot_devices(const struct gpu_snapshot *s, int *out, size_t max)
{
    /* at most GPU_SNAP_MAX_DEVICE + 1 devices: a bitmap, then ascending */
    static const size_t words = (GPU_SNAP_MAX_DEVICE + 64) / 64;
    uint64_t seen[(GPU_SNAP_MAX_DEVICE + 64) / 64] = {0};
    for (size_t i = 0; i < s->nsegs; i++) seen[s->segs[i].device / 64] |= 1ull << (s->segs[i].device % 64);
    for (size_t i = 0; i < s->ntraces; i++)
        if (s->dev[i].n) seen[i / 64] |= 1ull << (i % 64);
    size_t k = 0;
    for (size_t w = 0; w < words; w++)
        for (int b = 0; b < 64; b++)
            if ((seen[w] >> b) & 1) {
                if (k < max) out[k] = (int)(w * 64 + (size_t)b);
                k++;
            }
    return k < max ? k : max;
}

static gpu_status add_limited(uint64_t *m, uint64_t v, int dev, char *err, size_t n)
{
    if (v > GPU_SNAP_MAGNITUDE_LIMIT || *m + v > GPU_SNAP_MAGNITUDE_LIMIT) {
        if (err && n)
            gpu_errf(err, n, "sizes on device %d add up past 2^62 bytes: not a real snapshot", dev);
        return GPU_ERR_ARG;
    }
    *m += v;
    return GPU_OK;
}

gpu_status gpu_snapshot_check_sizes(const struct gpu_snapshot *s, int d, size_t *nactive,
                                    char *err, size_t n)
{
    size_t ne;
    const struct gpu_snap_event *ev = gpu_snapshot_trace(s, d, &ne);
    uint64_t mag = 0;
    size_t na = 0;
    gpu_status st = GPU_OK;
    for (size_t i = 0; i < s->nsegs && st == GPU_OK; i++) {
        const struct gpu_snap_segment *sg = &s->segs[i];
        if (sg->device != d) continue;
        st = add_limited(&mag, sg->size, d, err, n);
        for (size_t j = 0; j < sg->nblocks && st == GPU_OK; j++) {
            const struct gpu_snap_block *b = &s->blocks[sg->first_block + j];
            st = add_limited(&mag, b->size, d, err, n);
            if (st == GPU_OK && b->state != GPU_SNAP_INACTIVE) {
                st = add_limited(&mag, b->requested, d, err, n);
                na++;
            }
        }
    }
    for (size_t i = 0; i < ne && st == GPU_OK; i++) st = add_limited(&mag, ev[i].size, d, err, n);
    if (nactive) *nactive = na;
    return st;
}
