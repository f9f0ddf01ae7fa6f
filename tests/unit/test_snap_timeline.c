/* test_snap_timeline.c - the snapshot timeline and the model's reserved series, on the shipped
 * example (assets/snapshots/gpt-train-oom.pickle): every column of every window and width
 * against a walk that counts each entry by hand (columns tile the window in order, keep their
 * highest and last values, none lost or doubled), the level at an entry, and the replay's
 * per-entry reserved bytes agreeing with the replay's own peak and end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_snap_timeline.h"
#include "gpu_snapshot.h"

static struct gpu_snapshot *load(struct gpu_snap_summary *sum)
{
    char path[1024], err[512];
    const char *dir = getenv("VRAMLAB_DATADIR");
    snprintf(path, sizeof path, "%s/assets/snapshots/gpt-train-oom.pickle", dir ? dir : ".");
    struct gpu_snapshot *s = NULL;
    gpu_status st = gpu_snapshot_load(path, NULL, &s, err, sizeof err);
    if (st != GPU_OK) fail_msg("%s", err);
    assert_int_equal(gpu_snapshot_summarize(s, 3, sum, err, sizeof err), GPU_OK);
    assert_true(sum->ndev >= 1 && sum->dev[0].events > 1000);
    return s;
}

/* live and reserved after every entry, counted here */
static void levels(const struct gpu_snapshot *s, const struct gpu_snap_device *d, int64_t *live,
                   int64_t *res)
{
    const struct gpu_snap_trace *tr = &s->traces[d->device];
    int64_t l = d->start_bytes, r = d->reserved_start;
    for (size_t i = 0; i < tr->n; i++) {
        const struct gpu_snap_event *e = &tr->ev[i];
        if (e->action == GPU_SNAP_ALLOC) l += (int64_t)e->size;
        if (e->action == GPU_SNAP_FREE_COMPLETED) l -= (int64_t)e->size;
        if (e->action == GPU_SNAP_SEGMENT_ALLOC || e->action == GPU_SNAP_SEGMENT_MAP) r += (int64_t)e->size;
        if (e->action == GPU_SNAP_SEGMENT_FREE || e->action == GPU_SNAP_SEGMENT_UNMAP) r -= (int64_t)e->size;
        live[i] = l, res[i] = r;
    }
}

static void test_columns_against_every_entry(void **state)
{
    (void)state;
    struct gpu_snap_summary sum;
    struct gpu_snapshot *s = load(&sum);
    const struct gpu_snap_device *d = &sum.dev[0];
    size_t n = d->events;
    int64_t *live = malloc(n * sizeof *live), *res = malloc(n * sizeof *res);
    assert_non_null(live);
    assert_non_null(res);
    levels(s, d, live, res);
    const size_t windows[][2] = {{0, n}, {0, 1}, {5, 6}, {100, 117}, {n / 2, n}, {n - 3, n}, {0, n + 50}};
    const size_t widths[] = {1, 7, 16, 60, 199, 2000};
    struct gpu_snap_column col[2000];
    for (size_t w = 0; w < sizeof windows / sizeof *windows; w++)
        for (size_t k = 0; k < sizeof widths / sizeof *widths; k++) {
            size_t from = windows[w][0], to = windows[w][1] > n ? n : windows[w][1], nc = widths[k];
            gpu_snap_timeline(s, d->device, d->start_bytes, d->reserved_start, from, windows[w][1], nc, col);
            size_t next = from, used = 0;
            for (size_t c = 0; c < nc; c++) {
                if (col[c].first > col[c].last) continue; /* an empty column (more columns than entries) */
                used++;
                assert_int_equal(col[c].first, (int64_t)next); /* in order, none skipped */
                int64_t lm = INT64_MIN, rm = INT64_MIN;
                for (int64_t i = col[c].first; i <= col[c].last; i++) {
                    if (live[i] > lm) lm = live[i];
                    if (res[i] > rm) rm = res[i];
                }
                assert_int_equal(col[c].live_max, lm);
                assert_int_equal(col[c].reserved_max, rm);
                assert_int_equal(col[c].live_end, live[col[c].last]);
                assert_int_equal(col[c].reserved_end, res[col[c].last]);
                next = (size_t)col[c].last + 1;
            }
            assert_int_equal(next, to); /* every entry of the window, once */
            assert_int_equal(used, to - from < nc ? to - from : nc); /* no column left empty when entries suffice */
        }
    int64_t l, r;
    gpu_snap_level_at(s, d->device, d->start_bytes, d->reserved_start, d->peak_event, &l, &r);
    assert_int_equal(l, d->peak_bytes);
    gpu_snap_level_at(s, d->device, d->start_bytes, d->reserved_start, -1, &l, &r);
    assert_int_equal(l, d->start_bytes);
    assert_int_equal(r, d->reserved_start);
    free(live);
    free(res);
    gpu_snap_summary_free(&sum);
    gpu_snapshot_free(s);
}

static void test_replay_series(void **state)
{
    (void)state;
    struct gpu_snap_summary sum;
    struct gpu_snapshot *s = load(&sum);
    const struct gpu_snap_device *d = &sum.dev[0];
    size_t n = d->events;
    uint64_t *series = calloc(n, sizeof *series);
    struct gpu_snap_replay *r = calloc(1, sizeof *r);
    assert_non_null(series);
    assert_non_null(r);
    char err[512];
    for (int expandable = 0; expandable <= 1; expandable++) {
        struct gpu_caching_opts o;
        gpu_snapshot_recorded_opts(s, &o, NULL, 0);
        o.expandable_segments = expandable;
        memset(series, 0xff, n * sizeof *series);
        assert_int_equal(gpu_snapshot_replay_series(s, d->device, 0, &o, r, series, err, sizeof err), GPU_OK);
        uint64_t peak = 0;
        for (size_t i = 0; i < n; i++) {
            assert_true(series[i] != UINT64_MAX); /* every entry written */
            if (series[i] > peak) peak = series[i];
        }
        assert_int_equal(peak, r->model_whatif.peak_reserved); /* unlimited: no retry inside a call */
        assert_int_equal(series[n - 1], r->model_whatif.end_reserved);
    }
    /* without a what-if, the series is the recorded options' model */
    assert_int_equal(gpu_snapshot_replay_series(s, d->device, 0, NULL, r, series, err, sizeof err), GPU_OK);
    assert_int_equal(series[n - 1], r->model_recorded.end_reserved);
    free(series);
    free(r);
    gpu_snap_summary_free(&sum);
    gpu_snapshot_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns_against_every_entry),
        cmocka_unit_test(test_replay_series),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
