/* test_snap_walk.c - the one walk over a snapshot's trace (gpu_snap_walk.h). On the shipped
 * example (assets/snapshots/gpt-train-oom.pickle): every timeline column of every window and
 * width against a walk that counts each entry by hand (columns tile the window in order, keep
 * their highest and last values, none lost or doubled), the level at an entry, the pairs, the
 * largest live allocations at a cursor against a count by hand, and the replay's per-entry
 * reserved bytes agreeing with the replay's own peak and end. On hand-built traces: the segment
 * holding an address at a cursor, an expandable segment's mapped range before and after a
 * segment_map and a segment_unmap; Windows and POSIX paths in the user-frame rule; and every
 * long walk stopping on its cancel flag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_snap_replay.h"
#include "gpu_snap_summary.h"
#include "gpu_snap_walk.h"
#include "gpu_snapshot.h"
#include "snap_pickle.h"

static struct gpu_snapshot *load(struct gpu_snap_summary *sum)
{
    char path[1024], err[512];
    const char *dir = getenv("VRAMLAB_DATADIR");
    snprintf(path, sizeof path, "%s/assets/snapshots/gpt-train-oom.pickle", dir ? dir : ".");
    struct gpu_snapshot *s = NULL;
    gpu_status st = gpu_snapshot_load(path, NULL, &s, err, sizeof err);
    if (st != GPU_OK) fail_msg("%s", err);
    assert_int_equal(gpu_snapshot_summarize(s, 3, NULL, sum, err, sizeof err), GPU_OK);
    assert_true(sum->ndev >= 1 && sum->dev[0].events > 1000);
    return s;
}

/* live and reserved after every entry, counted here */
static void levels(const struct gpu_snapshot *s, const struct gpu_snap_device *d, int64_t *live,
                   int64_t *res)
{
    size_t n;
    const struct gpu_snap_event *ev = gpu_snapshot_trace(s, d->device, &n);
    int64_t l = d->start_bytes, r = d->reserved_start;
    for (size_t i = 0; i < n; i++) {
        const struct gpu_snap_event *e = &ev[i];
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
            assert_int_equal(gpu_snap_timeline(s, d->device, from, windows[w][1], nc, col, NULL), GPU_OK);
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
    gpu_snap_level_at(s, d->device, d->peak_event, &l, &r);
    assert_int_equal(l, d->peak_bytes);
    gpu_snap_level_at(s, d->device, -1, &l, &r);
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
        gpu_snapshot_recorded_opts(s, &o);
        o.expandable_segments = expandable;
        memset(series, 0xff, n * sizeof *series);
        assert_int_equal(gpu_snapshot_replay(s, d->device, 0, &o, series, NULL, r, err, sizeof err), GPU_OK);
        uint64_t peak = 0;
        for (size_t i = 0; i < n; i++) {
            assert_true(series[i] != UINT64_MAX); /* every entry written */
            if (series[i] > peak) peak = series[i];
        }
        assert_int_equal(peak, r->model_whatif.peak_reserved); /* unlimited: no retry inside a call */
        assert_int_equal(series[n - 1], r->model_whatif.end_reserved);
    }
    /* without a what-if, the series is the recorded options' model */
    assert_int_equal(gpu_snapshot_replay(s, d->device, 0, NULL, series, NULL, r, err, sizeof err), GPU_OK);
    assert_int_equal(series[n - 1], r->model_recorded.end_reserved);
    free(series);
    free(r);
    gpu_snap_summary_free(&sum);
    gpu_snapshot_free(s);
}


/* The largest live allocations at a cursor, against a count by hand: every alloc not yet
 * matched by a free_completed at its address, and those live before the trace. */
static void test_live_top(void **state)
{
    (void)state;
    struct gpu_snap_summary sum;
    struct gpu_snapshot *s = load(&sum);
    const struct gpu_snap_device *d = &sum.dev[0];
    size_t n;
    const struct gpu_snap_event *ev = gpu_snapshot_trace(s, d->device, &n);
    const int64_t cursors[] = {-1, 0, 100, (int64_t)n / 2, d->peak_event, (int64_t)n - 1};
    for (size_t c = 0; c < sizeof cursors / sizeof *cursors; c++) {
        int64_t cur = cursors[c];
        uint64_t total = 0, big = 0;
        size_t count = 0;
        for (int64_t i = 0; i <= cur; i++) {
            if (ev[i].action != GPU_SNAP_ALLOC) continue;
            uint32_t f = gpu_snap_pair(s, d->device, (size_t)i);
            if (f != GPU_SNAP_NONE) assert_int_equal(gpu_snap_pair(s, d->device, f), (uint32_t)i);
            if (f != GPU_SNAP_NONE && (int64_t)f <= cur) continue;
            total += ev[i].size, count++;
            if (ev[i].size > big) big = ev[i].size;
        }
        struct gpu_snap_live *all;
        size_t nall;
        assert_int_equal(gpu_snap_live_in(s, d->device, cur, 0, UINT64_MAX, &all, &nall), GPU_OK);
        assert_int_equal(nall, count); /* no pre-trace blocks in this file */
        uint64_t sum_in = 0;
        for (size_t i = 0; i < nall; i++) sum_in += all[i].size;
        assert_int_equal(sum_in, total);
        int64_t live, res;
        gpu_snap_level_at(s, d->device, cur, &live, &res);
        assert_int_equal((uint64_t)live, total);
        free(all);
        struct gpu_snap_live top[8];
        size_t k = gpu_snap_live_top(s, d->device, cur, top, 8);
        assert_int_equal(k, count < 8 ? count : 8);
        if (k) assert_int_equal(top[0].size, big);
        for (size_t i = 1; i < k; i++) assert_true(top[i - 1].size >= top[i].size);
    }
    gpu_snap_summary_free(&sum);
    gpu_snapshot_free(s);
}

/* The segment that held an address at a cursor: a cudaMalloc'ed segment exists between its
 * segment_alloc and segment_free; an expandable segment's mapped range at the cursor is the
 * final one with later maps and unmaps undone. */
static void test_segment_at(void **state)
{
    (void)state;
    const int64_t S = 0x7f0000000000ll, E = 0x7e0000000000ll, P = 20 * (int64_t)MiB;
    struct pb p = {0};
    begin(&p), dict_begin(&p), str(&p, "segments"), list_begin(&p);
    dict_begin(&p), kv_num(&p, "address", E), kv_num(&p, "total_size", 2 * P);
    kv_str(&p, "segment_type", "large"), str(&p, "is_expandable"), op(&p, 0x88);
    str(&p, "blocks"), list_begin(&p);
    block(&p, 2 * P, 2 * P, "active_allocated", NULL);
    list_end(&p), dict_end(&p), list_end(&p);
    str(&p, "device_traces"), list_begin(&p), list_begin(&p);
    event(&p, "segment_alloc", S, 4 * MiB, 0, 1, NULL);            /* 0 */
    event(&p, "alloc", S, 1000, 0, 2, NULL);                       /* 1 */
    event(&p, "free_completed", S, 1000, 0, 3, NULL);              /* 2 */
    event(&p, "segment_free", S, 4 * MiB, 0, 4, NULL);             /* 3 */
    event(&p, "segment_map", E, P, 0, 5, NULL);                    /* 4: the first page */
    event(&p, "segment_map", E + P, P, 0, 6, NULL);                /* 5: the second */
    event(&p, "segment_map", E + 2 * P, P, 0, 7, NULL);            /* 6: a third ... */
    event(&p, "segment_unmap", E + 2 * P, P, 0, 8, NULL);          /* 7: ... given back */
    event(&p, "alloc", E, 2 * P, 0, 9, NULL);                      /* 8 */
    list_end(&p), list_end(&p), dict_end(&p), stop(&p);
    char err[256];
    struct gpu_snapshot *s = NULL;
    assert_int_equal(gpu_snapshot_parse(p.b, p.n, NULL, NULL, &s, err, sizeof err), GPU_OK);
    struct gpu_snap_seg_at g;
    assert_false(gpu_snap_segment_at(s, 0, -1, S + 10, &g)); /* before its cudaMalloc */
    assert_true(gpu_snap_segment_at(s, 0, 1, S + 10, &g));
    assert_int_equal(g.addr, S);
    assert_int_equal(g.size, 4 * MiB);
    assert_false(g.expandable);
    assert_false(gpu_snap_segment_at(s, 0, 3, S + 10, &g)); /* after its cudaFree */
    assert_false(gpu_snap_segment_at(s, 0, 3, E + 10, &g)); /* nothing mapped yet */
    assert_true(gpu_snap_segment_at(s, 0, 4, E + 10, &g));  /* one page, before the next map */
    assert_true(g.expandable);
    assert_int_equal(g.addr, E);
    assert_int_equal(g.size, P);
    assert_true(gpu_snap_segment_at(s, 0, 5, E + 10, &g));
    assert_int_equal(g.size, 2 * P);
    assert_true(gpu_snap_segment_at(s, 0, 6, E + P + 10, &g)); /* three pages mapped then */
    assert_int_equal(g.size, 3 * P);
    assert_true(gpu_snap_segment_at(s, 0, 8, E + 10, &g));
    assert_int_equal(g.size, 2 * P);
    /* the cache before the trace: nothing mapped, no segment */
    struct gpu_snap_range *r;
    size_t nr;
    assert_int_equal(gpu_snap_mapped_at(s, 0, -1, &r, &nr), GPU_OK);
    assert_int_equal(nr, 0);
    free(r);
    assert_int_equal(gpu_snap_mapped_at(s, 0, 6, &r, &nr), GPU_OK);
    assert_int_equal(nr, 1);
    assert_int_equal(r[0].size, 3 * P);
    assert_false(r[0].small);
    free(r);
    gpu_snapshot_free(s);
}

/* The user's frame on every platform: '\' and '/' alike, Windows' Lib\ and Lib\site-packages. */
static void test_frame_rule(void **state)
{
    (void)state;
    static const struct {
        const char *file, *name;
        int kind;
    } c[] = {
        {"/home/a/train.py", "main", GPU_SNAP_FRAME_USER},
        {"C:\\Users\\a\\proj\\train.py", "main", GPU_SNAP_FRAME_USER},
        {"/x/site-packages/torch/nn/functional.py", "einsum", GPU_SNAP_FRAME_LIB},
        {"C:\\Python311\\Lib\\site-packages\\torch\\functional.py", "einsum", GPU_SNAP_FRAME_LIB},
        {"torch\\nn\\modules\\module.py", "_call_impl", GPU_SNAP_FRAME_LIB},
        {"/usr/lib/python3.11/runpy.py", "_run_code", GPU_SNAP_FRAME_LIB},
        {"C:\\Python311\\Lib\\runpy.py", "_run_code", GPU_SNAP_FRAME_LIB},
        {"C:\\Users\\a\\venv\\lib\\site-packages\\transformers\\modeling.py", "forward", GPU_SNAP_FRAME_USER},
        {"/usr/lib/python3/dist-packages/transformers/x.py", "forward", GPU_SNAP_FRAME_USER},
        {"<frozen runpy>", "_run_module_as_main", GPU_SNAP_FRAME_LIB},
        {"Python/ceval.c", "_PyEval_EvalFrameDefault", GPU_SNAP_FRAME_HIDDEN},
        {"c10\\core\\boxing\\KernelFunction.h", "call", GPU_SNAP_FRAME_HIDDEN},
        {"??", "torch::unwind::unwind()", GPU_SNAP_FRAME_HIDDEN},
        {"CUDACachingAllocator.cpp", "malloc", GPU_SNAP_FRAME_LIB},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        int k = gpu_snap_frame_classify(c[i].name, strlen(c[i].name), c[i].file, strlen(c[i].file));
        if (k != c[i].kind) fprintf(stderr, "%s: %d, want %d\n", c[i].file, k, c[i].kind);
        assert_int_equal(k, c[i].kind);
    }
    const char *o;
    size_t on;
    const char *w = "C:\\Users\\a\\proj\\train.py:12";
    gpu_snap_short_path(w, strlen(w), 2, &o, &on);
    assert_int_equal(on, strlen("proj\\train.py:12"));
    assert_memory_equal(o, "proj\\train.py:12", on);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns_against_every_entry),
        cmocka_unit_test(test_replay_series),
        cmocka_unit_test(test_live_top),
        cmocka_unit_test(test_segment_at),
        cmocka_unit_test(test_frame_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
