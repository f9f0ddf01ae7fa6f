/* gpu_snap_diff.c - two snapshots compared (gpu_snap_diff.h). Linear in their segments and
 * blocks: each side's segments and active blocks are indexed by address once. */
#include "gpu_snap_diff.h"
#include "gpu_snap_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"

static gpu_status nomem(char *err, size_t n)
{
    if (err && n) gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
    return GPU_ERR_HOST_NOMEM;
}

/* Two stacks point at the same place: the same first user frame (file, line, function), or
 * neither has one and both have frames (or neither does). */
static bool same_place(const struct gpu_snapshot *a, uint32_t sa, const struct gpu_snapshot *b,
                       uint32_t sb)
{
    const struct gpu_snap_frame *x = gpu_snap_user_frame(a, sa), *y = gpu_snap_user_frame(b, sb);
    if (!x || !y) return !x && !y && !gpu_snapshot_stack(a, sa)->n == !gpu_snapshot_stack(b, sb)->n;
    return x->line == y->line && x->file_len == y->file_len && x->name_len == y->name_len &&
           !memcmp(x->file, y->file, x->file_len) && !memcmp(x->name, y->name, x->name_len);
}

static void totals(const struct gpu_snapshot *s, int d, struct gpu_snap_diff_dev *o, int side)
{
    for (size_t i = 0; i < gpu_snapshot_nsegs(s); i++) {
        const struct gpu_snap_segment *g = gpu_snapshot_seg(s, i);
        if (g->device != d) continue;
        o->nsegs[side]++;
        o->reserved[side] += g->size;
        for (size_t j = 0; j < g->nblocks; j++) {
            const struct gpu_snap_block *b = gpu_snapshot_block(s, g->first_block + j);
            if (b->state == GPU_SNAP_ACTIVE_ALLOCATED)
                o->allocated[side] += b->size, o->requested[side] += b->requested;
            else if (b->state == GPU_SNAP_INACTIVE) o->cached[side] += b->size;
        }
    }
}

static int seg_cmp(const void *p, const void *q)
{
    const struct gpu_snap_seg_ref *x = p, *y = q;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return x->size < y->size ? -1 : x->size > y->size;
}

/* Segments of `s` on device d that `other` has not (by address and total_size). */
static bool only_segments(const struct gpu_snapshot *s, const struct gpu_snapshot *other, int d,
                          struct gpu_snap_diff_dev *o, int side)
{
    struct gpu_u64map at = {0};
    if (!gpu_u64map_init(&at, 64)) return false;
    bool ok = true;
    for (size_t i = 0; ok && i < gpu_snapshot_nsegs(other); i++) {
        const struct gpu_snap_segment *g = gpu_snapshot_seg(other, i);
        if (g->device == d) ok = gpu_u64map_put(&at, g->addr, g->size);
    }
    size_t cap = 0;
    for (size_t i = 0; ok && i < gpu_snapshot_nsegs(s); i++) {
        const struct gpu_snap_segment *g = gpu_snapshot_seg(s, i);
        if (g->device != d) continue;
        size_t k = gpu_u64map_find(&at, g->addr);
        if (k != SIZE_MAX && at.val[k] == g->size) continue;
        if (o->nonly[side] == cap) {
            cap = cap ? cap * 2 : 16;
            struct gpu_snap_seg_ref *v = realloc(o->only[side], cap * sizeof *v);
            if (!v) {
                ok = false;
                break;
            }
            o->only[side] = v;
        }
        o->only[side][o->nonly[side]++] = (struct gpu_snap_seg_ref){g->addr, g->size};
        o->only_bytes[side] += g->size;
    }
    gpu_u64map_free(&at);
    if (ok && o->nonly[side]) qsort(o->only[side], o->nonly[side], sizeof *o->only[side], seg_cmp);
    return ok;
}

/* The active_allocated blocks of `s` on device d that `other` does not hold (same address, same
 * size, same first user frame), grouped; in address order, so the first of equal largest is the
 * lowest address's. */
static bool only_live(const struct gpu_snapshot *s, const struct gpu_snapshot *other, int d,
                      size_t top, struct gpu_snap_group **groups, size_t *ngroups, uint64_t *bytes)
{
    struct gpu_u64map at = {0};
    struct gpu_snap_gtab t;
    if (!gpu_u64map_init(&at, 64) || !gpu_snap_gtab_init(&t)) {
        gpu_u64map_free(&at);
        gpu_snap_gtab_free(&t, 0);
        return false;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < gpu_snapshot_nsegs(other); i++) {
        const struct gpu_snap_segment *g = gpu_snapshot_seg(other, i);
        for (size_t j = 0; g->device == d && ok && j < g->nblocks; j++) {
            const struct gpu_snap_block *b = gpu_snapshot_block(other, g->first_block + j);
            if (b->state == GPU_SNAP_ACTIVE_ALLOCATED) ok = gpu_u64map_put(&at, b->addr, g->first_block + j);
        }
    }
    /* blocks in address order: the segments are, and blocks within each */
    size_t ns = gpu_snapshot_nsegs(s), *order = malloc((ns + 1) * sizeof *order);
    for (size_t i = 0; order && i < ns; i++) order[i] = i;
    for (size_t i = 1; order && i < ns; i++) { /* insertion sort by address: nearly sorted */
        size_t v = order[i], k = i;
        while (k > 0 && gpu_snapshot_seg(s, order[k - 1])->addr > gpu_snapshot_seg(s, v)->addr) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = v;
    }
    ok = ok && order;
    for (size_t oi = 0; ok && oi < ns; oi++) {
        const struct gpu_snap_segment *g = gpu_snapshot_seg(s, order[oi]);
        for (size_t j = 0; g->device == d && ok && j < g->nblocks; j++) {
            const struct gpu_snap_block *b = gpu_snapshot_block(s, g->first_block + j);
            if (b->state != GPU_SNAP_ACTIVE_ALLOCATED) continue;
            size_t k = gpu_u64map_find(&at, b->addr);
            if (k != SIZE_MAX) {
                const struct gpu_snap_block *ob = gpu_snapshot_block(other, (size_t)at.val[k]);
                if (ob->size == b->size && same_place(s, b->stack, other, ob->stack)) continue;
            }
            *bytes += b->requested;
            ok = gpu_snap_gtab_count(&t, s, b->stack, b->requested);
        }
    }
    free(order);
    gpu_u64map_free(&at);
    if (!ok) {
        gpu_snap_gtab_free(&t, 0);
        return false;
    }
    size_t keep = gpu_snap_gtab_rank(&t, top);
    gpu_snap_gtab_free(&t, keep);
    *groups = t.g;
    *ngroups = keep;
    return true;
}

void gpu_snap_diff_free(struct gpu_snap_diff *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->ndev; i++) {
        struct gpu_snap_diff_dev *o = &d->dev[i];
        free(o->only[0]);
        free(o->only[1]);
        for (size_t k = 0; k < o->ngone; k++) gpu_snap_group_free(&o->gone[k]);
        for (size_t k = 0; k < o->ngrown; k++) gpu_snap_group_free(&o->grown[k]);
        free(o->gone);
        free(o->grown);
    }
    free(d->dev);
    memset(d, 0, sizeof *d);
}

gpu_status gpu_snapshot_diff(const struct gpu_snapshot *a, const struct gpu_snapshot *b, size_t top,
                             struct gpu_snap_diff *out, char *err, size_t n)
{
    if (err && n) err[0] = 0;
    memset(out, 0, sizeof *out);
    int ia[4096], ib[4096], ids[8192];
    size_t na = gpu_snapshot_devices(a, ia, 4096), nb = gpu_snapshot_devices(b, ib, 4096), nd = 0;
    for (size_t i = 0, j = 0; i < na || j < nb;) { /* merge two ascending lists */
        if (j == nb || (i < na && ia[i] < ib[j])) ids[nd++] = ia[i++];
        else if (i == na || ib[j] < ia[i]) ids[nd++] = ib[j++];
        else ids[nd++] = ia[i++], j++;
    }
    out->dev = calloc(nd ? nd : 1, sizeof *out->dev);
    if (!out->dev) return nomem(err, n);
    out->ndev = nd;
    for (size_t i = 0; i < nd; i++) {
        struct gpu_snap_diff_dev *o = &out->dev[i];
        o->device = ids[i];
        totals(a, ids[i], o, 0);
        totals(b, ids[i], o, 1);
        if (!only_segments(a, b, ids[i], o, 0) || !only_segments(b, a, ids[i], o, 1) ||
            !only_live(a, b, ids[i], top, &o->gone, &o->ngone, &o->gone_bytes) ||
            !only_live(b, a, ids[i], top, &o->grown, &o->ngrown, &o->grown_bytes)) {
            gpu_snap_diff_free(out);
            return nomem(err, n);
        }
    }
    return GPU_OK;
}
