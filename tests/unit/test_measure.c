/* test_measure.c - what makes a measurement trustworthy, without a GPU: the data is validated
 * after every run (pattern and closed-form checks, a broken input fails them, on the host and
 * through the simulator's whole bench path), latency plateaus are named by cache size, host
 * buffers follow the GPU's NUMA node, profiles say where their copy-engine and SM figures come
 * from, and the simulator refuses a device it does not have. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu.h"
#include "gpu_numa.h"
#include "gpu_pattern.h"
#include "gpu_sim.h"

/* The simulator with a profile and, optionally, the test hooks of `hooks` (gpu_config). */
static struct gpu_dev *open_sim_hooks(const char *profile, const struct gpu_config *hooks)
{
    struct gpu_config c = {.profile = profile, .datadir = ".", .seed = 1, .deterministic = true,
                           .cap_fraction = 0.9};
    if (hooks) {
        c.fault_corrupt = hooks->fault_corrupt;
        c.sim_other_bytes = hooks->sim_other_bytes;
    }
    struct gpu_dev *dev = NULL;
    char why[512];
    assert_int_equal(gpu_open("sim", &c, &dev, why, sizeof why), GPU_OK);
    return dev;
}

static struct gpu_dev *open_sim(const char *profile) { return open_sim_hooks(profile, NULL); }

static void test_pattern_check(void **s)
{
    unsigned char buf[4096 + 16];
    struct gpu_content pat = {.kind = GPU_CONTENT_PATTERN, .seed = 7};
    struct gpu_mismatch m;
    /* every alignment and odd size: the fill and the check agree byte for byte with the rule */
    for (int off = 0; off < 16; off++) {
        for (uint64_t n = 1; n < 64; n += 7) {
            gpu_content_fill(buf + off, n, &pat);
            for (uint64_t i = 0; i < n; i++) assert_int_equal(buf[off + i], gpu_pattern_byte(7, i));
            gpu_content_check(buf + off, n, &pat, &m);
            assert_int_equal(m.count, 0);
        }
    }
    gpu_content_fill(buf, 4096, &pat);
    /* one flipped byte: found, and where */
    buf[1000] ^= 1;
    gpu_content_check(buf, 4096, &pat, &m);
    assert_int_equal(m.count, 1);
    assert_int_equal(m.first, 1000);
    /* the right bytes one place off (a copy with a stride or offset bug) fail nearly everywhere */
    memmove(buf + 1, buf, 4095);
    gpu_content_check(buf, 4096, &pat, &m);
    assert_true(m.count > 4000);
    /* a destination that still holds its own, different, pattern fails everywhere */
    struct gpu_content other = {.kind = GPU_CONTENT_PATTERN, .seed = 8};
    gpu_content_fill(buf, 4096, &other);
    gpu_content_check(buf, 4096, &pat, &m);
    assert_true(m.count > 4000 && m.first < 8);
    char msg[160];
    gpu_mismatch_str(&m, &pat, 4096, msg, sizeof msg);
    assert_non_null(strstr(msg, "of 4096 bytes differ"));
}

static void test_f64_check(void **s)
{
    double v[100];
    struct gpu_content c = {.kind = GPU_CONTENT_F64, .value = 0.35, .tol = 100 * 2.22e-16};
    struct gpu_mismatch m;
    gpu_content_fill(v, sizeof v, &c);
    gpu_content_check(v, sizeof v, &c, &m);
    assert_int_equal(m.count, 0);
    v[10] = 0.35 * (1 + 1e-15); /* within 100 epsilon: an FMA's rounding, not an error */
    gpu_content_check(v, sizeof v, &c, &m);
    assert_int_equal(m.count, 0);
    v[20] = 0.35 * (1 + 1e-12);
    v[30] = NAN;
    gpu_content_check(v, sizeof v, &c, &m);
    assert_int_equal(m.count, 2);
    assert_int_equal(m.first, 20);
}

static void test_stream_closed_form(void **s)
{
    /* every kernel's output changes its array to a value different from its start (so a kernel
     * that wrote nothing fails), and not to zero (so one that wrote zeros fails) */
    static const int out[] = {[GPU_HOST_COPY] = 2, [GPU_HOST_SCALE] = 1, [GPU_HOST_ADD] = 2,
                              [GPU_HOST_TRIAD] = 0};
    const double start[3] = {GPU_STREAM_A, GPU_STREAM_B, GPU_STREAM_C};
    for (int k = GPU_HOST_COPY; k <= GPU_HOST_TRIAD; k++) {
        double abc[3];
        gpu_stream_expect(k, abc);
        for (int i = 0; i < 3; i++) {
            if (i == out[k]) assert_true(abc[i] != start[i] && abc[i] != 0);
            else assert_true(abc[i] == start[i]); /* inputs are never written */
        }
    }
    double abc[3];
    gpu_stream_expect(GPU_HOST_TRIAD, abc);
    assert_true(fabs(abc[0] - (GPU_STREAM_B + GPU_STREAM_S * GPU_STREAM_C)) < 1e-15);
    assert_true(fabs(gpu_stream_dot_expect(1000) - 1000 * GPU_STREAM_A * GPU_STREAM_B) < 1e-9);
}

static void test_host_validated(void **s)
{
    struct gpu_result r;
    for (int k = GPU_HOST_MEMCPY; k <= GPU_HOST_DOT; k++) {
        assert_int_equal(gpu_host_bench(NULL, k, 1u << 20, 1, 2, &r, NULL), GPU_OK);
        assert_true(r.validated);
    }
    /* dot: counted 2n x 8 B, and the sum is n x a x b */
    assert_int_equal(gpu_host_bench(NULL, GPU_HOST_DOT, 1u << 20, 2, 2, &r, NULL), GPU_OK);
    assert_int_equal(r.moved_bytes, 2ull << 20);
    assert_true(fabs(r.dot - gpu_stream_dot_expect((1u << 20) / 8)) < 1e-6);
    assert_string_equal(gpu_host_kind_name(GPU_HOST_DOT), "dot");
    /* a spoiled element (or sum) fails the run: no figure comes back */
    struct gpu_dev *dev = open_sim_hooks("h200", &(struct gpu_config){.fault_corrupt = true});
    assert_int_equal(gpu_host_bench(dev, GPU_HOST_MEMCPY, 1u << 20, 1, 2, &r, NULL),
                     GPU_ERR_VALIDATION);
    assert_int_equal(gpu_host_bench(dev, GPU_HOST_TRIAD, 1u << 20, 1, 2, &r, NULL),
                     GPU_ERR_VALIDATION);
    assert_int_equal(gpu_host_bench(dev, GPU_HOST_DOT, 1u << 20, 1, 2, &r, NULL), GPU_ERR_VALIDATION);
    assert_false(r.validated);
    gpu_close(dev);
}

static void test_sim_validated(void **s)
{
    struct gpu_dev *dev = open_sim("h200");
    struct gpu_result r;
    static const struct gpu_copy_req qs[] = {
        {.dir = GPU_D2D, .method = GPU_CE, .bytes = 64 << 20},
        {.dir = GPU_D2D, .method = GPU_SM, .bytes = 64 << 20},
        {.dir = GPU_H2D, .bytes = 64 << 20, .pinned = true},
        {.dir = GPU_D2H, .bytes = 64 << 20, .pinned = false},
    };
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        assert_int_equal(gpu_bench_copy(dev, &qs[i], &r, NULL), GPU_OK);
        assert_true(r.validated);
    }
    for (int k = GPU_HOST_COPY; k <= GPU_HOST_DOT; k++) {
        assert_int_equal(gpu_bench_stream(dev, k, 32 << 20, 2, &r, NULL), GPU_OK);
        assert_true(r.validated);
    }
    assert_true(fabs(r.dot - gpu_stream_dot_expect((32 << 20) / 8)) < 1e-6 * r.dot);
    gpu_close(dev);

    /* a copy that moves nothing, a kernel that writes nothing: validation failed, the reason
     * says what differs, and every buffer is freed */
    dev = open_sim_hooks("h200", &(struct gpu_config){.fault_corrupt = true});
    assert_int_equal(gpu_bench_copy(dev, &qs[0], &r, NULL), GPU_ERR_VALIDATION);
    assert_non_null(strstr(dev->why, "validation failed: the copy's destination"));
    assert_int_equal(gpu_bench_stream(dev, GPU_HOST_TRIAD, 32 << 20, 2, &r, NULL),
                     GPU_ERR_VALIDATION);
    assert_non_null(strstr(dev->why, "array a"));
    assert_int_equal(gpu_bench_stream(dev, GPU_HOST_DOT, 32 << 20, 2, &r, NULL),
                     GPU_ERR_VALIDATION);
    assert_non_null(strstr(dev->why, "dot product"));
    assert_int_equal(dev->live_allocs, 0);
    assert_int_equal(dev->live_host, 0);
    gpu_close(dev);
}

static void test_shared_gpu_warning(void **s)
{
    struct gpu_copy_req q = {.dir = GPU_D2D, .bytes = 16 << 20};
    struct gpu_result r;
    struct gpu_dev *dev = open_sim("rtx3090");
    assert_int_equal(gpu_bench_copy(dev, &q, &r, NULL), GPU_OK);
    assert_false(r.warn & GPU_WARN_SHARED_GPU);
    gpu_close(dev);
    dev = open_sim_hooks("rtx3090", &(struct gpu_config){.sim_other_bytes = 1ull << 30});
    assert_int_equal(gpu_bench_copy(dev, &q, &r, NULL), GPU_OK);
    assert_true(r.warn & GPU_WARN_SHARED_GPU);
    assert_int_equal(gpu_bench_stream(dev, GPU_HOST_ADD, 16 << 20, 2, &r, NULL), GPU_OK);
    assert_true(r.warn & GPU_WARN_SHARED_GPU);
    gpu_close(dev);
}

static void test_latency_per_sm(void **s)
{
    struct gpu_dev *dev = open_sim("h100-sxm");
    struct gpu_result r;
    assert_int_equal(gpu_bench_latency(dev, 64 << 20, &r, NULL), GPU_OK);
    assert_int_equal(r.nsm, 5);
    assert_true(r.best_s <= r.median_s && r.median_s <= r.worst_s);
    for (int i = 0; i < r.nsm; i++) assert_int_equal(r.sm[i], -1); /* the model has no SMs */
    assert_true(r.cycles_per_load == 0); /* nor a clock: unknown, not made up */
    gpu_close(dev);
    /* every warning a result can carry has its sentence */
    for (unsigned bit = 1; bit <= GPU_WARN_LAST; bit <<= 1) assert_true(strlen(gpu_warn_key(bit)) > 2);
}

static void test_plateau_names(void **s)
{
    uint64_t b[12];
    for (int i = 0; i < 12; i++) b[i] = (64ull << 10) << i; /* 64 KiB .. 128 MiB */
    struct gpu_plateau p[8];
    /* a GPU with a 50 MiB L2 that shows a near and a far step: L2 near/far, never "L3" */
    const struct gpu_level h100[] = {{"L1", 256 << 10}, {"L2", 50 << 20}};
    double split[] = {30, 30, 200, 200, 200, 300, 300, 300, 300, 600, 610, 620};
    int n = gpu_plateaus(b, split, 12, h100, 2, false, p, 8);
    assert_int_equal(n, 4);
    assert_string_equal(p[0].label, "L1");
    assert_string_equal(p[1].label, "L2 near");
    assert_string_equal(p[2].label, "L2 far");
    assert_string_equal(p[3].label, "DRAM");
    for (int i = 0; i < n; i++) assert_null(strstr(p[i].label, "L3"));
    /* a host whose latency rises again past its last-level cache: a TLB step, not a cache */
    const struct gpu_level host[] = {{"L1", 48 << 10}, {"L2", 1 << 20}, {"L3", 4 << 20}};
    double tlb[] = {4, 4, 4, 4, 12, 12, 90, 95, 96, 180, 190, 200};
    n = gpu_plateaus(b, tlb, 12, host, 3, true, p, 8);
    assert_int_equal(n, 4);
    assert_string_equal(p[0].label, "L2");
    assert_string_equal(p[1].label, "L3");
    assert_string_equal(p[2].label, "DRAM");
    assert_string_equal(p[3].label, "DRAM+TLB");
    /* the same split ladder on a host: a host has no near and far cache; a second step inside a
     * level is its TLB's reach ending, named as such, and never "near"/"far" */
    const struct gpu_level big[] = {{"L1", 256 << 10}, {"L2", 50 << 20}};
    n = gpu_plateaus(b, split, 12, big, 2, true, p, 8);
    assert_int_equal(n, 4);
    assert_string_equal(p[0].label, "L1");
    assert_string_equal(p[1].label, "L2");
    assert_string_equal(p[2].label, "L2+TLB");
    assert_string_equal(p[3].label, "DRAM");
    for (int i = 0; i < n; i++) assert_null(strstr(p[i].label, "near")), assert_null(strstr(p[i].label, "far"));
    /* a host with a 32 MiB L3 whose latency jumps at 16 MiB (an EPYC VM: STLB misses under nested
     * paging): the run from there is DRAM reached with TLB misses, not a cache step of its own */
    const struct gpu_level epyc[] = {{"L1", 32 << 10}, {"L2", 1 << 20}, {"L3", 32 << 20}};
    double vm[] = {40, 40, 40, 40, 40, 40, 40, 40, 192, 192, 192, 192}; /* 64 KiB .. 128 MiB */
    n = gpu_plateaus(b, vm, 12, epyc, 3, true, p, 8);
    assert_int_equal(n, 2);
    assert_string_equal(p[0].label, "L3");
    assert_string_equal(p[1].label, "DRAM+TLB");
    n = gpu_plateaus(b, vm, 12, epyc, 3, false, p, 8); /* the same ladder on a GPU: plain DRAM */
    assert_string_equal(p[1].label, "DRAM");
    /* a gradual step: the run that is mostly L2 still ends one x2 step past it (the simulator's
     * H200 ladder: 64 MiB is 1.3x its 50 MiB L2 and still mostly hits): L2, not DRAM */
    struct gpu_profile prof;
    char err[256];
    assert_int_equal(gpu_profile_load(".", "h200", &prof, err, sizeof err), GPU_OK);
    uint64_t lb[19];
    double lns[19];
    for (int i = 0; i < 19; i++) lb[i] = 4096ull << i, lns[i] = gpu_sim_latency_ns(&prof, lb[i]);
    const struct gpu_level h200[] = {{"L1", 256 << 10}, {"L2", 50 << 20}};
    n = gpu_plateaus(lb, lns, 19, h200, 2, false, p, 8);
    assert_int_equal(n, 3);
    assert_string_equal(p[0].label, "L1");
    assert_string_equal(p[1].label, "L2");
    assert_true(p[1].to_bytes > (50u << 20)); /* the slack was needed */
    assert_string_equal(p[2].label, "DRAM");
    /* a device whose L1 size is unknown gives no sizes at all (an L1 run would pass for L2) */
    struct gpu_info in = {.l2_bytes = 50 << 20};
    struct gpu_level lv[2];
    assert_int_equal(gpu_dev_caches(&in, lv, 2), 0);
    in.l1_bytes = 256 << 10;
    assert_int_equal(gpu_dev_caches(&in, lv, 2), 2);
    /* the host's caches come with their source, smallest first */
    const char *src = NULL;
    struct gpu_level hc[8];
    int k = gpu_host_caches(hc, 8, &src);
    assert_non_null(src);
    for (int i = 1; i < k; i++) assert_true(hc[i].bytes > hc[i - 1].bytes);
}

static void put(const char *dir, const char *rel, const char *text)
{
    char path[512], cmd[600];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Host caches: sysfs with sharing gives one core's size and the total over instances; a size no
 * core can have (a package total passed through by a hypervisor) is read, judged and named so,
 * and never used to size STREAM's arrays or to name a plateau. */
static void test_host_cache_judged(void **s)
{
    char dir[] = "/tmp/vramlab-cache-XXXXXX", cmd[300];
    assert_non_null(mkdtemp(dir));
    const char *c = "devices/system/cpu/cpu0/cache/";
    char rel[128];
    struct { const char *idx, *lvl, *type, *size, *shared; } f[] = {
        {"index0", "1", "Data", "48K", "0"},       {"index1", "1", "Instruction", "32K", "0"},
        {"index2", "2", "Unified", "1024K", "0"},  {"index3", "3", "Unified", "32768K", "0-7"}};
    for (size_t i = 0; i < 4; i++) {
        const char *k[] = {"level", "type", "size", "shared_cpu_list"};
        const char *v[] = {f[i].lvl, f[i].type, f[i].size, f[i].shared};
        for (int j = 0; j < 4; j++) {
            snprintf(rel, sizeof rel, "%s%s/%s", c, f[i].idx, k[j]);
            put(dir, rel, v[j]);
        }
    }
    struct gpu_cache_info ci;
    gpu_cache_detect(dir, &ci);
    assert_string_equal(ci.source, "sysfs");
    assert_int_equal(ci.n, 3); /* the instruction cache is not a data level */
    gpu_cache_judge(&ci, 16);  /* 16 CPUs, eight share an L3: two instances */
    assert_int_equal(ci.lv[2].level, 3);
    assert_int_equal(ci.lv[2].shared_cpus, 8);
    assert_int_equal(ci.lv[2].instances, 2);
    struct gpu_host_info h = {0};
    gpu_cache_llc(&ci, &h);
    assert_true(h.llc_plausible && h.llc_bytes == 32u << 20 && h.llc_total_bytes == 64u << 20);
    /* the files go through the safe reader: a FIFO in place of one is skipped, never waited on */
    snprintf(rel, sizeof rel, "%s/%sindex2/size", dir, c);
    assert_int_equal(unlink(rel), 0);
    assert_int_equal(mkfifo(rel, 0600), 0);
    gpu_cache_detect(dir, &ci);
    assert_int_equal(ci.n, 2); /* the L2 without a size is no level */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);

    /* CPUID through sysconf on a 2-CPU VM: 508 MiB of L3, sharing not reported */
    struct gpu_cache_info vm = {.n = 3, .source = "sysconf",
                                .lv = {{1, 48u << 10, 0, 0, false}, {2, 1u << 20, 0, 0, false},
                                       {3, 508ull << 20, 0, 0, false}}};
    gpu_cache_judge(&vm, 2);
    assert_true(vm.lv[0].plausible && vm.lv[1].plausible && !vm.lv[2].plausible);
    struct gpu_host_info hv = {0};
    gpu_cache_llc(&vm, &hv);
    assert_true(hv.llc_read_bytes == 508ull << 20 && !hv.llc_plausible);
    assert_true(hv.llc_bytes == 0 && hv.llc_total_bytes == 0); /* neither sizes nor names */
    assert_string_equal(hv.llc_source, "sysconf");
    gpu_cache_judge(&vm, 16); /* the same figure for 16 CPUs: 32 MiB each, a real package's */
    assert_true(vm.lv[2].plausible && vm.lv[2].instances == 0);
    /* the most L3 per core that ships: 96 MiB shared by two cores (EPYC 7373X) */
    struct gpu_cache_info x = {.n = 1, .source = "cpuid", .lv = {{3, 96ull << 20, 2, 0, false}}};
    gpu_cache_judge(&x, 32);
    assert_true(x.lv[0].plausible && x.lv[0].instances == 16);
}

static void test_numa(void **s)
{
    cpu_set_t set;
    assert_true(gpu_cpulist_parse("0-3,8-11\n", &set));
    assert_int_equal(CPU_COUNT(&set), 8);
    assert_true(CPU_ISSET(9, &set) && !CPU_ISSET(5, &set));
    assert_true(gpu_cpulist_parse("5", &set) && CPU_COUNT(&set) == 1);
    assert_false(gpu_cpulist_parse("", &set));
    assert_false(gpu_cpulist_parse("3-1", &set));
    assert_false(gpu_cpulist_parse("0,a", &set));

    /* a fake sysfs: the GPU on node 1, local to the first CPU this thread may use */
    char dir[] = "/tmp/vramlab-numa-XXXXXX", path[512];
    assert_non_null(mkdtemp(dir));
    cpu_set_t mine;
    assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof mine, &mine), 0);
    int cpu = 0;
    while (!CPU_ISSET(cpu, &mine)) cpu++;
    const char *dev = "0000:65:00.0";
    snprintf(path, sizeof path, "mkdir -p %s/bus/pci/devices/%s", dir, dev);
    assert_int_equal(system(path), 0);
    snprintf(path, sizeof path, "%s/bus/pci/devices/%s/numa_node", dir, dev);
    FILE *f = fopen(path, "w");
    fputs("1\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/bus/pci/devices/%s/local_cpulist", dir, dev);
    f = fopen(path, "w");
    fprintf(f, "%d\n", cpu);
    fclose(f);
    assert_int_equal(gpu_numa_node(dir, "0000:65:00.0"), 1);
    assert_int_equal(gpu_numa_node(dir, "00000000:65:00.0"), 1); /* cudart's 8-digit domain */
    assert_int_equal(gpu_numa_node(dir, "0000:66:00.0"), -1);
    struct gpu_numa_pin pin;
    assert_int_equal(gpu_numa_bind(dir, dev, &pin), 1);
    assert_true(pin.pinned);
    cpu_set_t now;
    pthread_getaffinity_np(pthread_self(), sizeof now, &now);
    assert_int_equal(CPU_COUNT(&now), 1);
    assert_true(CPU_ISSET(cpu, &now));
    gpu_numa_unbind(&pin);
    pthread_getaffinity_np(pthread_self(), sizeof now, &now);
    assert_true(CPU_EQUAL(&now, &mine)); /* restored */
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
}

static void test_profile_paths(void **s)
{
    static const char *const ids[] = {"a100-80gb", "h100-sxm", "h200", "rtx3090", "rtx4090", "t4"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        struct gpu_profile p;
        char err[512];
        assert_int_equal(gpu_profile_load(".", ids[i], &p, err, sizeof err), GPU_OK);
        assert_true(strlen(p.ce_source) > 20 && strlen(p.sm_source) > 20);
        assert_true(p.ce_efficiency > 0 && p.ce_efficiency <= p.sm_efficiency);
        /* a figure nobody measured here says so */
        assert_true(strstr(p.sm_source, "not measured") || strstr(p.sm_source, "measured"));
    }
    /* Hopper: the copy engine well below the SM path, and the dispute stated, with a source */
    struct gpu_profile h200, h100;
    char err[512];
    assert_int_equal(gpu_profile_load(".", "h200", &h200, err, sizeof err), GPU_OK);
    assert_int_equal(gpu_profile_load(".", "h100-sxm", &h100, err, sizeof err), GPU_OK);
    assert_true(h200.ce_efficiency <= 0.6 && h200.sm_efficiency >= 0.85);
    assert_true(h100.ce_efficiency < h100.sm_efficiency);
    assert_non_null(strstr(h200.ce_source, "DISPUTED"));
    assert_non_null(strstr(h200.ce_source, "nvbandwidth#48"));
    /* the published figure of a real device comes from the profile of the same name */
    struct gpu_profile p;
    char id[32];
    assert_true(gpu_profile_by_name(".", "NVIDIA H200", &p, id, sizeof id));
    assert_string_equal(id, "h200");
    assert_true(fabs(p.info.published_bytes_per_s - 4.8e12) < 1);
    assert_false(gpu_profile_by_name(".", "NVIDIA H200 NVL", &p, id, sizeof id));
    assert_false(gpu_profile_by_name(".", "", &p, id, sizeof id));
}

static void test_sim_device(void **s)
{
    struct gpu_config c = {.datadir = ".", .device = 1};
    struct gpu_dev *dev = NULL;
    char why[512];
    assert_int_equal(gpu_open("sim", &c, &dev, why, sizeof why), GPU_ERR_NO_DEVICE);
    assert_null(dev);
    assert_non_null(strstr(why, "one device, 0 (device 1 was asked for)"));
    c.device = 0;
    assert_int_equal(gpu_open("sim", &c, &dev, why, sizeof why), GPU_OK);
    assert_int_equal(dev->info.device, 0);
    assert_true(dev->info.l1_bytes > 0);
    assert_int_equal(dev->info.numa_node, -1);
    gpu_close(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pattern_check),   cmocka_unit_test(test_f64_check),
        cmocka_unit_test(test_stream_closed_form), cmocka_unit_test(test_host_validated),
        cmocka_unit_test(test_sim_validated),   cmocka_unit_test(test_shared_gpu_warning),
        cmocka_unit_test(test_latency_per_sm),  cmocka_unit_test(test_plateau_names),
        cmocka_unit_test(test_numa),            cmocka_unit_test(test_profile_paths),
        cmocka_unit_test(test_sim_device),      cmocka_unit_test(test_host_cache_judged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
