/* test_ledger.c - the ledger's reconciliation (parts add up, sources labelled, nothing guessed),
 * the stream-ordered pool model's rules (release threshold, reuse by stream, dependencies), the
 * replay's OOM list, and NVML's absence handled as "unknown". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_caching.h"
#include "gpu_model_dev.h"
#include "gpu_trace.h"
#include "gpu_ledger.h"
#include "gpu_mempool.h"
#include "gpu_nvml.h"
#include "lt_ledger.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

static uint64_t parts_sum(const struct gpu_ledger *l)
{
    uint64_t s = 0;
    for (int p = 0; p < GPU_LEDGER_NPARTS; p++) s += l->part[p];
    return s;
}

static struct gpu_dev *open_sim(void)
{
    struct gpu_config c = {.profile = "rtx3090", .datadir = ".", .deterministic = true,
                           .cap_fraction = 0.9};
    struct gpu_dev *dev = NULL;
    char why[256];
    assert_int_equal(gpu_open("sim", &c, &dev, why, sizeof why), GPU_OK);
    return dev;
}

static void test_ledger_sim_device(void **state)
{
    (void)state;
    struct gpu_dev *dev = open_sim();
    struct gpu_ledger l;
    assert_int_equal(gpu_ledger_fill(dev, NULL, &l), GPU_OK);
    assert_true(l.simulated);
    assert_int_equal(parts_sum(&l), l.total);
    assert_int_equal(l.part[GPU_LEDGER_CONTEXT], 300 * MiB); /* the profile's context_bytes */
    assert_true(l.known[GPU_LEDGER_CONTEXT] && l.known[GPU_LEDGER_OTHER_PROCS]);
    assert_int_equal(l.part[GPU_LEDGER_UNACCOUNTED], 0);
    assert_false(l.has_allocator);

    /* a buffer outside any allocator is "other allocations" */
    void *p;
    assert_int_equal(gpu_alloc(dev, 64 * MiB, &p), GPU_OK);
    assert_int_equal(gpu_ledger_fill(dev, NULL, &l), GPU_OK);
    assert_int_equal(l.part[GPU_LEDGER_OTHER_ALLOCS], 64 * MiB);
    assert_int_equal(parts_sum(&l), l.total);

    /* a caching allocator's stats split its share; here its segments are not on dev, so the
     * ledger must not count them twice (reserved > live bytes is clamped) */
    struct gpu_caching *c;
    char err[256];
    assert_int_equal(gpu_caching_new_model(NULL, GiB, &c, err, sizeof err), GPU_OK);
    uint64_t a1;
    assert_int_equal(gpu_caching_malloc(c, 1000, &a1, err, sizeof err), GPU_OK);
    struct gpu_caching_stats s;
    gpu_caching_stats(c, &s);
    assert_int_equal(gpu_ledger_fill(dev, &s, &l), GPU_OK);
    assert_int_equal(l.part[GPU_LEDGER_REQUESTED], 1000);
    assert_int_equal(l.part[GPU_LEDGER_ROUNDING], 24);
    assert_int_equal(l.part[GPU_LEDGER_CACHED], 2 * MiB - 1024);
    assert_int_equal(l.largest_free, 2 * MiB - 1024);
    gpu_caching_destroy(c);
    gpu_free(dev, p, 64 * MiB);

    char buf[4096];
    size_t n = lt_ledger_text(&l, "en", buf, sizeof buf);
    assert_true(n < sizeof buf);
    assert_non_null(strstr(buf, "SIMULATED"));
    assert_non_null(strstr(buf, "300.00 MiB"));
    assert_string_equal(gpu_ledger_part_key(GPU_LEDGER_ROUNDING), "rounding");
    assert_string_equal(lt_ledger_label(GPU_LEDGER_ROUNDING, "en"), "rounding waste");
    assert_int_equal(lt_ledger_text(&l, "zh", NULL, 0), lt_ledger_text(&l, "zh", buf, sizeof buf));
    gpu_close(dev);
}

/* A real device's ledger as NVML v2 reports it: the driver's reservation (nvidia-smi's
 * "Reserved" row) is said beside the NVML line, in both languages, and only when NVML gave it. */
static void test_ledger_driver_reserved(void **state)
{
    (void)state;
    struct gpu_ledger l = {.total = 80 * GiB, .free = 70 * GiB, .nvml = true,
                           .driver_reserved = 512 * MiB};
    snprintf(l.backend, sizeof l.backend, "cuda");
    snprintf(l.device, sizeof l.device, "NVIDIA H200");
    snprintf(l.nvml_note, sizeof l.nvml_note, "per-process figures from NVML");
    char buf[4096];
    lt_ledger_text(&l, "en", buf, sizeof buf);
    assert_non_null(strstr(buf, "\n  reserved by the driver: 512 MiB (nvidia-smi's Reserved row, NVML v2)\n"));
    lt_ledger_text(&l, "zh", buf, sizeof buf);
    assert_non_null(strstr(buf, "\n  驱动保留：512 MiB（nvidia-smi 的 Reserved 一行，NVML v2）\n"));
    l.driver_reserved = 0; /* NVML without v2: nothing claimed */
    lt_ledger_text(&l, "en", buf, sizeof buf);
    assert_null(strstr(buf, "reserved by the driver"));
}

/* What NVML's figures are worth is a key from the device layer and words here: the 中文 ledger of
 * a real device says it in Chinese (the English note stays for the JSON), for every state. */
static void test_ledger_nvml_words(void **state)
{
    (void)state;
    static const struct {
        enum gpu_ledger_nvml k;
        const char *en, *zh;
    } c[] = {
        {GPU_LEDGER_NVML_PER_PROCESS, "per-process figures from NVML", "每个进程的数字来自 NVML"},
        {GPU_LEDGER_NVML_HIDDEN, "hides some processes' memory", "隐藏了部分进程的显存"},
        {GPU_LEDGER_NVML_NAMESPACE, "a PID namespace?", "PID 命名空间"},
        {GPU_LEDGER_NVML_WHOLE_GPU, "processes of the WHOLE GPU", "整块 GPU 的进程"},
        {GPU_LEDGER_NVML_NONE, "not available (libnvidia-ml.so.1: cannot open)",
         "不可用（libnvidia-ml.so.1: cannot open）"},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        struct gpu_ledger l = {.total = 80 * GiB, .free = 70 * GiB, .nvml = c[i].k != GPU_LEDGER_NVML_NONE,
                               .nvml_state = c[i].k};
        snprintf(l.backend, sizeof l.backend, "cuda");
        snprintf(l.device, sizeof l.device, "NVIDIA H200");
        snprintf(l.nvml_note, sizeof l.nvml_note, "%s",
                 c[i].k == GPU_LEDGER_NVML_NONE ? "libnvidia-ml.so.1: cannot open"
                                                : "an English note for the JSON");
        char buf[4096];
        lt_ledger_text(&l, "en", buf, sizeof buf);
        assert_non_null(strstr(buf, c[i].en));
        lt_ledger_text(&l, "zh", buf, sizeof buf);
        assert_non_null(strstr(buf, c[i].zh));
        assert_null(strstr(buf, "English note"));
    }
}

static void test_ledger_model(void **state)
{
    (void)state;
    struct gpu_caching *c;
    char err[256];
    assert_int_equal(gpu_caching_new_model(NULL, 100 * MiB, &c, err, sizeof err), GPU_OK);
    uint64_t a, b;
    assert_int_equal(gpu_caching_malloc(c, 40 * MiB, &a, err, sizeof err), GPU_OK);
    assert_int_equal(gpu_caching_malloc(c, 30 * MiB + 1, &b, err, sizeof err), GPU_OK);
    gpu_caching_free(c, a);
    struct gpu_caching_stats s;
    gpu_caching_stats(c, &s);
    struct gpu_ledger l;
    gpu_ledger_fill_model(100 * MiB, &s, &l);
    assert_true(l.model && l.simulated);
    assert_int_equal(parts_sum(&l), 100 * MiB);
    assert_int_equal(l.part[GPU_LEDGER_CONTEXT], 0);
    assert_int_equal(l.reserved, 40 * MiB + 32 * MiB);
    assert_int_equal(l.part[GPU_LEDGER_REQUESTED], 30 * MiB + 1);
    assert_int_equal(l.part[GPU_LEDGER_ROUNDING], 511);
    assert_int_equal(l.part[GPU_LEDGER_CACHED], 40 * MiB + 2 * MiB - 512);
    assert_int_equal(l.part[GPU_LEDGER_FREE], 28 * MiB);
    gpu_caching_destroy(c);
}

static void test_nvml_absent_is_unknown(void **state)
{
    (void)state;
    /* before the first use: NVML loads once per process (gpu_config.no_nvml does this) */
    gpu_nvml_disable();
    char why[160] = "";
    assert_false(gpu_nvml_available(why, sizeof why));
    assert_non_null(strstr(why, "VRAMLAB_NO_NVML"));
    uint64_t f;
    assert_int_not_equal(gpu_nvml_mem("0000:01:00.0", &f, NULL, NULL, why, sizeof why), GPU_OK);
    struct gpu_nvml_proc p[4];
    assert_int_equal(gpu_nvml_procs("0000:01:00.0", -1, p, 4, why, sizeof why), -1);
    /* no NVML: no MIG instance identified, and "shared" is not claimed */
    assert_int_equal(gpu_nvml_mig_instance("MIG-00000000-0000-0000-0000-000000000000", why, sizeof why), -1);
    assert_false(gpu_nvml_shared("0000:01:00.0", -1));
}

static struct gpu_mempool *pool(uint64_t threshold)
{
    struct gpu_mempool_opts o;
    struct gpu_mempool *p;
    gpu_mempool_opts_default(&o, GiB);
    o.release_threshold = threshold;
    assert_int_equal(gpu_mempool_new(&o, &p), GPU_OK);
    return p;
}

static void test_mempool_release_threshold(void **state)
{
    (void)state;
    struct gpu_mempool *p = pool(0);
    struct gpu_mempool_stats s;
    uint64_t a;
    char err[256];
    for (int i = 0; i < 5; i++) {
        assert_int_equal(gpu_mempool_malloc(p, 100 * MiB, 1, &a, err, sizeof err), GPU_OK);
        assert_int_equal(gpu_mempool_free(p, a, 1), GPU_OK);
        gpu_mempool_stats(p, &s);
        assert_int_equal(s.reserved, 100 * MiB); /* held until a synchronisation */
        gpu_mempool_synchronize(p, 1);
        gpu_mempool_stats(p, &s);
        assert_int_equal(s.reserved, 0); /* threshold 0: all of it goes back */
    }
    assert_int_equal(s.chunk_maps, 5);
    assert_int_equal(s.reused, 0);
    /* threshold high: mapped once, reused four times */
    gpu_mempool_set_release_threshold(p, GPU_MEMPOOL_NO_RELEASE);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(gpu_mempool_malloc(p, 100 * MiB, 1, &a, err, sizeof err), GPU_OK);
        gpu_mempool_free(p, a, 1);
        gpu_mempool_synchronize(p, -1);
    }
    gpu_mempool_stats(p, &s);
    assert_int_equal(s.chunk_maps, 6);
    assert_int_equal(s.reused, 4);
    assert_int_equal(s.reserved, 100 * MiB);
    assert_int_equal(s.reserved_high, 100 * MiB);
    /* a threshold in between keeps up to that much */
    gpu_mempool_set_release_threshold(p, 64 * MiB);
    gpu_mempool_synchronize(p, -1);
    gpu_mempool_stats(p, &s);
    assert_int_equal(s.reserved, 0); /* whole chunks: 100 MiB cannot be kept under 64 MiB */
    gpu_mempool_trim_to(p, 0);
    gpu_mempool_destroy(p);
}

static void test_mempool_streams(void **state)
{
    (void)state;
    struct gpu_mempool_opts o;
    struct gpu_mempool *p;
    gpu_mempool_opts_default(&o, GiB);
    o.release_threshold = GPU_MEMPOOL_NO_RELEASE;
    o.reuse_allow_internal_dependencies = false;
    assert_int_equal(gpu_mempool_new(&o, &p), GPU_OK);
    uint64_t a, b, c, d;
    char err[256];
    struct gpu_mempool_stats s;
    assert_int_equal(gpu_mempool_malloc(p, 10 * MiB, 1, &a, err, sizeof err), GPU_OK);
    gpu_mempool_free(p, a, 1);
    /* stream 2 may not take stream 1's pending free: a new chunk */
    assert_int_equal(gpu_mempool_malloc(p, 10 * MiB, 2, &b, err, sizeof err), GPU_OK);
    assert_int_not_equal(a, b);
    gpu_mempool_stats(p, &s);
    assert_int_equal(s.chunk_maps, 2);
    /* stream 1 reuses its own free at once */
    assert_int_equal(gpu_mempool_malloc(p, 10 * MiB, 1, &c, err, sizeof err), GPU_OK);
    assert_int_equal(c, a);
    gpu_mempool_free(p, c, 1);
    /* after stream 3 waits for stream 1 (an event), it may reuse */
    gpu_mempool_wait(p, 3, 1);
    assert_int_equal(gpu_mempool_malloc(p, 10 * MiB, 3, &d, err, sizeof err), GPU_OK);
    assert_int_equal(d, a);
    gpu_mempool_free(p, d, 3);
    gpu_mempool_free(p, b, 2);
    /* after a device synchronisation every free has completed: opportunistic reuse */
    gpu_mempool_synchronize(p, -1);
    assert_int_equal(gpu_mempool_malloc(p, 20 * MiB, 4, &d, err, sizeof err), GPU_OK);
    gpu_mempool_stats(p, &s);
    assert_int_equal(s.chunk_maps, 3); /* two 10 MiB chunks are separate: 20 MiB needs a third */
    assert_int_equal(gpu_mempool_free(p, d + 512, 4), GPU_ERR_ARG);
    assert_int_equal(gpu_mempool_free(p, d, 4), GPU_OK);
    assert_int_equal(gpu_mempool_free(p, d, 4), GPU_ERR_ARG); /* double free */
    gpu_mempool_destroy(p);

    /* with internal dependencies (the default) a pending free is reused by making the stream
     * wait, and that is counted */
    p = pool(GPU_MEMPOOL_NO_RELEASE);
    gpu_mempool_malloc(p, 10 * MiB, 1, &a, err, sizeof err);
    gpu_mempool_free(p, a, 1);
    gpu_mempool_malloc(p, 10 * MiB, 2, &b, err, sizeof err);
    assert_int_equal(a, b);
    gpu_mempool_stats(p, &s);
    assert_int_equal(s.internal_deps, 1);
    gpu_mempool_destroy(p);
}

static void test_mempool_oom_and_map(void **state)
{
    (void)state;
    struct gpu_mempool_opts o;
    struct gpu_mempool *p;
    gpu_mempool_opts_default(&o, 64 * MiB);
    assert_int_equal(gpu_mempool_new(&o, &p), GPU_OK);
    uint64_t a, b;
    char err[256];
    assert_int_equal(gpu_mempool_malloc(p, 48 * MiB, 0, &a, err, sizeof err), GPU_OK);
    assert_int_equal(gpu_mempool_malloc(p, 20 * MiB, 0, &b, err, sizeof err), GPU_ERR_NOMEM);
    assert_non_null(strstr(err, "cudaErrorMemoryAllocation"));
    assert_int_equal(gpu_mempool_malloc(p, 1000, 0, &b, err, sizeof err), GPU_OK);
    struct gpu_mempool_map m;
    assert_int_equal(gpu_mempool_segments(p, &m), GPU_OK);
    assert_int_equal(m.nchunks, 2);
    assert_int_equal(m.blocks[m.chunks[1].first_block].size, 1024); /* 256 B alignment */
    gpu_mempool_map_free(&m);
    gpu_mempool_free(p, b, 0);
    assert_int_equal(gpu_mempool_segments(p, &m), GPU_OK);
    assert_true(m.blocks[m.chunks[1].first_block].pending);
    gpu_mempool_map_free(&m);
    gpu_mempool_destroy(p);
}

static void test_replay_oom_list(void **state)
{
    (void)state;
    const char *text = "a 1 60MiB\na 2 60MiB\nf 1\na 3 70MiB\na 4 70MiB\nf 3\nf 4\n";
    struct gpu_trace t;
    char err[256];
    assert_int_equal(gpu_trace_parse(text, strlen(text), &t, err, sizeof err), GPU_OK);
    struct gpu_caching *c;
    assert_int_equal(gpu_caching_new_model(NULL, 128 * MiB, &c, err, sizeof err), GPU_OK);
    struct gpu_replay_result r;
    assert_int_equal(gpu_trace_replay(&t, c, &r, NULL, err, sizeof err), GPU_OK);
    assert_int_equal(r.ooms, 2);
    assert_int_equal(r.noom_list, 2);
    assert_int_equal(r.oom_list[0].line, 4);
    assert_int_equal(r.oom_list[0].bytes, 70 * MiB);
    assert_int_equal(r.oom_list[1].line, 5);
    assert_int_equal(r.skipped_frees, 2);
    gpu_caching_destroy(c);
    gpu_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ledger_sim_device),
        cmocka_unit_test(test_ledger_model),
        cmocka_unit_test(test_ledger_driver_reserved),
        cmocka_unit_test(test_ledger_nvml_words),
        cmocka_unit_test(test_nvml_absent_is_unknown),
        cmocka_unit_test(test_mempool_release_threshold),
        cmocka_unit_test(test_mempool_streams),
        cmocka_unit_test(test_mempool_oom_and_map),
        cmocka_unit_test(test_replay_oom_list),
    };
    return cmocka_run_group_tests_name("ledger and stream-ordered pool", tests, NULL, NULL);
}
