/* tui_cmd_device.c - the commands about the device and its memory: info, profiles, ledger,
 * trace replay, snapshot (whose reading and report live in tui_snapshot.c). */
#include "tui_cmd.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_caching.h"
#include "gpu_fmt.h"
#include "gpu_model_dev.h"
#include "gpu_trace.h"
#include "gpu_ledger.h"
#include "gpu_parse.h"
#include "gpu_sim.h"
#include "lt_ledger.h"
#include "tui_json.h"
#include "tui_plain.h"
#include "tui_snapshot.h"
#include "tui_snapview.h"
#include "tui_wrap.h"

/* ---- info --------------------------------------------------------------------------------- */

#define T TUI_CLI_T

/* A byte count as every figure is written (gpu_fmt_bytes): "24 GiB", "1.50 MiB". */
static const char *B(uint64_t v, char buf[32])
{
    gpu_fmt_bytes((double)v, GPU_FMT_BIN, buf, 32);
    return buf;
}

/* "  Key    value": the key padded by display width, so Chinese keys line up too. */
static void kv(const char *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void kv(const char *k, const char *fmt, ...)
{
    va_list ap;
    int w = tui_width(k, strlen(k));
    printf("  %s%*s ", k, w < 20 ? 20 - w : 0, "");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static void info_json(const struct gpu_info *i, const struct gpu_host_info *h, const char *why,
                      bool have_mem, uint64_t fr, double pcie)
{
    struct tui_json j;
    tui_json_init(&j, stdout);
    tui_json_obj(&j);
    tui_json_kstr(&j, "backend", i->backend);
    tui_json_kbool(&j, "simulated", i->simulated);
    tui_json_kstr(&j, "name", i->name);
    tui_json_kstr(&j, "profile", i->profile);
    tui_json_kstr(&j, "memory_type", i->memory_type);
    tui_json_kstr(&j, "driver", i->driver);
    tui_json_kstr(&j, "source", i->source);
    tui_json_kstr(&j, "fallback_reason", why);
    /* unknown figures are null, never a made-up number */
    tui_json_kmaybe(&j, "total_bytes", (double)i->total_bytes, i->total_bytes > 0);
    tui_json_kmaybe(&j, "free_bytes", (double)fr, have_mem);
    tui_json_kmaybe(&j, "bus_width_bits", i->bus_width_bits, i->bus_width_bits > 0);
    tui_json_kmaybe(&j, "mem_clock_khz", i->mem_clock_khz, i->mem_clock_khz > 0);
    tui_json_kmaybe(&j, "peak_bytes_per_s", i->peak_bytes_per_s, i->peak_bytes_per_s > 0);
    tui_json_kmaybe(&j, "published_bytes_per_s", i->published_bytes_per_s,
                    i->published_bytes_per_s > 0);
    tui_json_kmaybe(&j, "l2_bytes", (double)i->l2_bytes, i->l2_bytes > 0);
    tui_json_kmaybe(&j, "sm_count", i->sm_count, i->sm_count > 0);
    tui_json_kmaybe(&j, "pcie_gen", i->pcie_gen, i->pcie_gen > 0);
    tui_json_kmaybe(&j, "pcie_width", i->pcie_width, i->pcie_width > 0);
    tui_json_kmaybe(&j, "pcie_bytes_per_s", pcie, pcie > 0);
    tui_json_kint(&j, "device", i->device);
    tui_json_kbool(&j, "mig", i->mig);
    tui_json_kmaybe(&j, "mig_instance", i->mig_instance, i->mig_instance >= 0);
    tui_json_kmaybe(&j, "numa_node", i->numa_node, i->numa_node >= 0);
    tui_json_kmaybe(&j, "l1_bytes", (double)i->l1_bytes, i->l1_bytes > 0);
    tui_json_kmaybe(&j, "async_engines", i->async_engines, i->async_engines > 0);
    tui_json_kmaybe(&j, "l2_persist_max_bytes", (double)i->l2_persist_max_bytes,
                    i->l2_persist_max_bytes > 0);
    tui_json_kmaybe(&j, "l2_window_max_bytes", (double)i->l2_window_max_bytes,
                    i->l2_window_max_bytes > 0);
    tui_json_kmaybe(&j, "fp32_lanes_per_sm", i->fp32_lanes_per_sm, i->fp32_lanes_per_sm > 0);
    tui_json_kmaybe(&j, "sm_clock_khz", i->sm_clock_khz, i->sm_clock_khz > 0);
    tui_json_kmaybe(&j, "fp32_flops", i->fp32_flops, i->fp32_flops > 0);
    tui_json_kstr(&j, "published_profile", i->published_profile);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", i->cc_major, i->cc_minor);
    tui_json_kstr(&j, "compute_capability", i->cc_major ? cc : NULL);
    tui_json_key(&j, "host");
    tui_json_obj(&j);
    tui_json_kstr(&j, "cpu", h->cpu);
    tui_json_kint(&j, "threads", h->threads);
    tui_json_kuint(&j, "ram_bytes", h->ram_bytes);
    tui_json_kmaybe(&j, "llc_bytes", (double)h->llc_bytes, h->llc_bytes > 0);
    tui_json_end(&j);
    tui_json_end(&j);
}

static void info_device(const struct gpu_dev *dev, const char *fallback, bool have_mem,
                        uint64_t fr, uint64_t tot, double pcie)
{
    const struct gpu_info *i = &dev->info;
    char b1[32], b2[32];
    if (i->simulated)
        printf(T("Device: SIMULATED · %s profile (%s) - figures from the profile, not a "
                 "measurement\n", "设备：SIMULATED · %s 配置（%s）：数字取自配置文件，不是实测\n"),
               i->name, i->profile);
    else printf(T("Device: CUDA device %d · %s\n", "设备：CUDA 设备 %d · %s\n"), i->device, i->name);
    if (fallback && *fallback)
        printf(T("  (no GPU found: %s)\n", "  （没有可用的 GPU，由模拟器代替。驱动原文：%s）\n"), fallback);
    kv(T("Backend", "后端"), "%s%s", i->backend, i->simulated ? " (SIMULATED)" : "");
    kv(T("Driver", "驱动"), "%s", i->simulated ? T("simulator (no driver)", "模拟器（无驱动）")
                                              : i->driver[0] ? i->driver : "n/a");
    if (have_mem)
        kv(T("Memory", "显存"), T("%s total, %s free (GiB = 2^30 B)", "共 %s，空闲 %s（GiB = 2^30 B）"),
           B(tot, b1), B(fr, b2));
    kv(T("Memory type", "显存类型"), "%s", i->memory_type[0] ? i->memory_type : "n/a");
    if (i->bus_width_bits) kv(T("Bus width", "位宽"), "%d bit", i->bus_width_bits);
    else kv(T("Bus width", "位宽"), "n/a");
    if (i->mem_clock_khz)
        kv(T("Memory clock", "显存频率"), T("%d MHz as reported (x2 = %.2f Gbps per pin)",
                                           "报告值 %d MHz（x2 = 每针脚 %.2f Gbps）"),
           i->mem_clock_khz / 1000, 2.0 * i->mem_clock_khz / 1e6);
    else kv(T("Memory clock", "显存频率"), "n/a");
    if (i->peak_bytes_per_s > 0)
        kv(T("Theoretical peak", "理论峰值"),
           T("%.1f GB/s = 2 x %d MHz x %d bit / 8 (GB/s = 1e9 B/s; %s)",
             "%.1f GB/s = 2 x %d MHz x %d bit / 8（GB/s = 1e9 B/s；%s）"),
           i->peak_bytes_per_s / 1e9, i->mem_clock_khz / 1000, i->bus_width_bits,
           i->simulated ? T("from the profile", "取自配置文件") : T("from the driver's attributes", "取自驱动报告的属性"));
    else kv(T("Theoretical peak", "理论峰值"), "n/a");
    if (i->published_bytes_per_s > 0)
        kv(T("Published", "官方标称"), T("%.0f GB/s (vendor spec sheet, profile %s)",
                                        "%.0f GB/s（厂商规格表，配置 %s）"),
           i->published_bytes_per_s / 1e9, i->published_profile[0] ? i->published_profile : "?");
    else kv(T("Published", "官方标称"), T("n/a (no profile named '%s' in assets/gpus)",
                                         "n/a（assets/gpus 里没有名为“%s”的配置）"), i->name);
    if (i->peak_bytes_per_s > 0 && i->published_bytes_per_s > 0) {
        double d = (i->peak_bytes_per_s / i->published_bytes_per_s - 1) * 100;
        kv(T("Peak vs published", "峰值 vs 标称"), "%+.1f %%%s", d,
           d > 3 || d < -3 ? T(": the attributes disagree with the spec sheet; % of peak below "
                               "says which it uses", "：驱动属性与规格表不符；下文的峰值百分比注明用的是哪个")
                           : "");
    }
    if (i->mig)
        kv("MIG", T("a MIG slice%s: memory is the slice's; bus, clock, peak and published figure "
                    "are the whole GPU's", "MIG 分片%s：显存是分片的；位宽、频率、峰值和标称值是整张 GPU 的"),
           i->mig_instance >= 0 ? "" : T(" (instance not identified in NVML)", "（NVML 未识别出实例）"));
    if (i->l1_bytes) kv(T("L1 + shared", "L1 + 共享内存"), T("%s per SM", "每个 SM %s"), B(i->l1_bytes, b1));
    if (i->l2_bytes)
        kv(T("L2 cache", "L2 缓存"), T("%s (%llu B, the whole chip's)", "%s（%llu B，整颗芯片的）"),
           B(i->l2_bytes, b1), (unsigned long long)i->l2_bytes);
    else kv(T("L2 cache", "L2 缓存"), "n/a");
    if (i->l2_persist_max_bytes)
        kv(T("L2 persisting", "L2 持久化"),
           T("up to %s set aside, windows up to %llu B (cudaDevAttrMaxPersistingL2CacheSize, "
             "MaxAccessPolicyWindowSize)", "最多留出 %s，窗口最大 %llu B（cudaDevAttrMaxPersistingL2CacheSize、"
             "MaxAccessPolicyWindowSize）"),
           B(i->l2_persist_max_bytes, b1), (unsigned long long)i->l2_window_max_bytes);
    else if (i->l2_bytes)
        kv(T("L2 persisting", "L2 持久化"), T("none (compute capability 8.0 on)", "无（计算能力 8.0 起才有）"));
    if (i->sm_count) kv(T("SMs", "SM 数"), "%d", i->sm_count);
    if (i->cc_major) kv(T("Compute capability", "计算能力"), "%d.%d", i->cc_major, i->cc_minor);
    if (i->fp32_flops > 0)
        kv(T("FP32 peak", "FP32 峰值"),
           T("%.1f TFLOP/s = %d SMs x %d lanes x 2 x %d MHz (an FMA counts 2 FLOP; TFLOP/s = 1e12 "
             "FLOP/s; %s)", "%.1f TFLOP/s = %d 个 SM x %d 条通道 x 2 x %d MHz（一次 FMA 算 2 个 FLOP；"
             "TFLOP/s = 1e12 FLOP/s；%s）"),
           i->fp32_flops / 1e12, i->sm_count, i->fp32_lanes_per_sm, i->sm_clock_khz / 1000,
           i->simulated ? T("the clock derived from the profile's FP32 figure", "频率由配置文件的 FP32 数字反推")
                        : T("the boost clock as reported", "按报告的加速频率"));
    if (i->pcie_gen)
        kv("PCIe", T("gen %d x%d: %.1f GB/s per direction after encoding",
                     "第 %d 代 x%d：编码后每方向 %.1f GB/s"), i->pcie_gen, i->pcie_width, pcie / 1e9);
    else kv("PCIe", "n/a");
    if (i->async_engines > 0)
        kv(T("Copy engines", "拷贝引擎"),
           T("%d, as CUDA counts them (asyncEngineCount): %s", "%d，按 CUDA 的计数（asyncEngineCount）：%s"),
           i->async_engines,
           i->async_engines == 1 ? T("a copy overlaps kernels, one direction at a time",
                                     "拷贝可与核函数重叠，一次只能一个方向")
                                 : T("copies both ways at once, beside kernels",
                                     "两个方向的拷贝可同时进行，并与核函数重叠"));
    else kv(T("Copy engines", "拷贝引擎"), "n/a");
    if (i->numa_node >= 0)
        kv(T("NUMA node", "NUMA 节点"), T("%d (host buffers for copies are placed there)",
                                          "%d（拷贝用的主机缓冲放在这里）"), i->numa_node);
    if (i->source[0]) kv(T("Source", "出处"), "%s", i->source);
    if (dev->cap_bytes)
        kv(T("Experiment cap", "实验上限"),
           T("%.0f%% of the device memory free to a lesson, at most %s, in all (--cap)",
             "一节课总共最多占用可用显存的 %.0f%%，且不超过 %s（--cap）"),
           dev->cap_fraction * 100, B(dev->cap_bytes, b2));
    else
        kv(T("Experiment cap", "实验上限"),
           T("%.0f%% of the device memory free to a lesson, in all (--cap)",
             "一节课总共最多占用可用显存的 %.0f%%（--cap）"), dev->cap_fraction * 100);
}

int tui_cmd_info(struct tui_ctx *c)
{
    const struct gpu_info *i = &c->dev->info;
    struct gpu_host_info h;
    uint64_t fr = 0, tot = 0;
    gpu_host_info(&h);
    bool have_mem = gpu_mem_info(c->dev, &fr, &tot) == GPU_OK;
    double pcie = gpu_pcie_bytes_per_s(i->pcie_gen, i->pcie_width);
    if (c->opt[TUI_O_JSON]) {
        info_json(i, &h, c->why, have_mem, fr, pcie);
        return 0;
    }
    info_device(c->dev, c->why, have_mem, fr, tot, pcie);
    char b1[32], b2[32];
    printf(T("Host (measured live by every backend)\n", "主机（每个后端都实时测量）\n"));
    kv("CPU", "%s", h.cpu);
    kv(T("Threads", "线程数"), "%d", h.threads);
    kv(T("RAM", "内存"), "%s", B(h.ram_bytes, b1));
    const char *llc = T("Last-level cache", "末级缓存");
    if (h.llc_bytes) kv(llc, T("%s per instance, %s in all (%s)", "每个实例 %s，共 %s（%s）"),
                        B(h.llc_bytes, b1), B(h.llc_total_bytes, b2), h.llc_source);
    else if (h.llc_read_bytes)
        kv(llc, T("n/a: %s reads %s, more than any core has (a package total?)",
                  "n/a：%s 读到 %s，比任何一个核能用的都多（整颗封装的总量？）"),
           h.llc_source, B(h.llc_read_bytes, b1));
    else kv(llc, "n/a");
    return 0;
}

/* ---- profiles ------------------------------------------------------------------------------ */

struct profiles {
    const char *datadir;
    struct tui_json *j; /* NULL: text */
    int bad;
};

static void print_profile(const char *id, void *ud)
{
    struct profiles *ps = ud;
    struct gpu_profile p;
    char err[512];
    bool ok = gpu_profile_load(ps->datadir, id, &p, err, sizeof err) == GPU_OK;
    ps->bad += !ok;
    if (ps->j) {
        tui_json_obj(ps->j);
        tui_json_kstr(ps->j, "id", id);
        if (!ok) tui_json_kstr(ps->j, "error", err);
        else {
            tui_json_kstr(ps->j, "name", p.info.name);
            tui_json_kstr(ps->j, "memory_type", p.info.memory_type);
            tui_json_knum(ps->j, "peak_bytes_per_s", p.info.peak_bytes_per_s);
            tui_json_kuint(ps->j, "total_bytes", p.info.total_bytes);
        }
        tui_json_end(ps->j);
    } else if (!ok) {
        printf("  %-12s %s\n", id, err);
    } else {
        char b1[32];
        printf(T("  %-12s %-26s %-7s %6.0f GB/s peak  %10s\n", "  %-12s %-26s %-7s 峰值 %6.0f GB/s  %10s\n"),
               id, p.info.name, p.info.memory_type, p.info.peak_bytes_per_s / 1e9, B(p.info.total_bytes, b1));
    }
}

int tui_cmd_profiles(struct tui_ctx *c)
{
    struct tui_json j;
    struct profiles ps = {c->assets, c->opt[TUI_O_JSON] ? &j : NULL, 0};
    tui_json_init(&j, stdout);
    if (!gpu_profile_list(c->assets, NULL, NULL)) { /* no header above nothing: say why */
        fprintf(stderr, "vramlab: no simulator profiles in %s/assets/gpus (--datadir names the "
                "folder that holds lessons/ and assets/)\n", c->datadir);
        return 3;
    }
    if (!ps.j)
        printf(T("Simulator profiles (%s/assets/gpus; peak = 2 x clock x bus/8, GB/s = 1e9 B/s;\n"
                 "capacity = the total CUDA reports, GiB = 2^30 B):\n",
                 "模拟器配置（%s/assets/gpus；峰值 = 2 x 频率 x 位宽/8，GB/s = 1e9 B/s；\n"
                 "容量 = CUDA 报告的总量，GiB = 2^30 B）：\n"), c->datadir);
    gpu_profile_list(c->assets, print_profile, &ps);
    return ps.bad ? 1 : 0;
}

/* ---- ledger -------------------------------------------------------------------------------- */

static void ledger_json(const struct gpu_ledger *l)
{
    struct tui_json j;
    tui_json_init(&j, stdout);
    tui_json_obj(&j);
    tui_json_kstr(&j, "device", l->device);
    tui_json_kstr(&j, "backend", l->backend);
    tui_json_kbool(&j, "simulated", l->simulated);
    tui_json_kbool(&j, "model", l->model);
    tui_json_kstr(&j, "unit", "bytes");
    tui_json_kuint(&j, "total", l->total);
    tui_json_kuint(&j, "free", l->free);
    tui_json_kuint(&j, "used", l->total - l->free);
    tui_json_kuint(&j, "live_bytes", l->live_bytes);
    tui_json_key(&j, "parts");
    tui_json_arr(&j);
    for (int p = 0; p < GPU_LEDGER_NPARTS; p++) { /* the parts add up to the total */
        tui_json_obj(&j);
        tui_json_kstr(&j, "key", gpu_ledger_part_key((enum gpu_ledger_part)p));
        tui_json_kstr(&j, "label", lt_ledger_label((enum gpu_ledger_part)p, "en"));
        tui_json_kuint(&j, "bytes", l->part[p]);
        tui_json_kbool(&j, "known", l->known[p]);
        tui_json_end(&j);
    }
    tui_json_end(&j);
    tui_json_key(&j, "allocator");
    if (!l->has_allocator) tui_json_null(&j);
    else {
        tui_json_obj(&j);
        tui_json_kuint(&j, "reserved", l->reserved);
        tui_json_kuint(&j, "allocated", l->allocated);
        tui_json_kuint(&j, "requested", l->requested);
        tui_json_kuint(&j, "largest_free", l->largest_free);
        tui_json_kuint(&j, "segments", l->segments);
        tui_json_kuint(&j, "inactive_split", l->inactive_split);
        tui_json_end(&j);
    }
    tui_json_kbool(&j, "nvml", l->nvml);
    tui_json_kstr(&j, "nvml_note", l->nvml_note);
    tui_json_kmaybe(&j, "driver_reserved", (double)l->driver_reserved, l->driver_reserved > 0);
    tui_json_key(&j, "processes");
    tui_json_arr(&j);
    for (int i = 0; i < l->nprocs; i++) {
        tui_json_obj(&j);
        tui_json_kuint(&j, "pid", l->procs[i].pid);
        tui_json_kstr(&j, "name", l->procs[i].name);
        tui_json_kmaybe(&j, "used", (double)l->procs[i].used, l->procs[i].has_used);
        tui_json_kstr(&j, "type", l->procs[i].graphics ? "graphics" : "compute");
        tui_json_kbool(&j, "self", l->self[i]);
        tui_json_end(&j);
    }
    tui_json_end(&j);
    tui_json_end(&j);
}

int tui_cmd_ledger(struct tui_ctx *c)
{
    struct gpu_ledger l;
    gpu_status st = gpu_ledger_fill(c->dev, NULL, &l);
    if (st != GPU_OK) {
        fprintf(stderr, "vramlab: ledger: %s\n", c->dev->why[0] ? c->dev->why : gpu_status_str(st));
        return 1;
    }
    if (c->opt[TUI_O_JSON]) {
        ledger_json(&l);
        return 0;
    }
    bool zh = !strcmp(c->lang, "zh");
    size_t n = lt_ledger_text(&l, c->lang, NULL, 0) + 1;
    char *buf = malloc(n);
    if (!buf) return 1;
    lt_ledger_text(&l, c->lang, buf, n);
    fputs(buf, stdout);
    free(buf);
    if (zh)
        printf("缓存分配器的保留/已分配/请求拆分：在课程或 `vramlab eval` 中调用 "
               "alloc.ledger(分配器)（见第 2.4 节）。\n");
    else
        printf("For a caching allocator's reserved/allocated/requested split, call "
               "alloc.ledger(allocator)\nin a lesson or `vramlab eval` (lesson 2.4).\n");
    return 0;
}

/* ---- trace replay -------------------------------------------------------------------------- */

/* Ctrl-C or SIGTERM during a replay: the replay stops at its next poll and says where. */
static gpu_cancel_flag g_trace_stop;
static void on_trace_stop(int sig) { g_trace_stop = sig; }

struct trace_run {
    const char *file;
    char conf[512];
    uint64_t cap;
    size_t events;
    double parse_s, replay_s;
};

static void trace_json(const struct trace_run *t, const struct gpu_replay_result *r)
{
    const struct gpu_caching_stats *s = &r->stats;
    struct tui_json j;
    tui_json_init(&j, stdout);
    tui_json_obj(&j);
    tui_json_kstr(&j, "file", t->file);
    tui_json_kstr(&j, "conf", t->conf);
    tui_json_kuint(&j, "capacity", t->cap);
    tui_json_kuint(&j, "events", t->events);
    tui_json_kuint(&j, "allocs", r->allocs);
    tui_json_kuint(&j, "frees", r->frees);
    tui_json_kuint(&j, "empty_cache", r->empties);
    tui_json_kuint(&j, "ooms", r->ooms);
    tui_json_kuint(&j, "skipped_frees", r->skipped_frees);
    tui_json_knum(&j, "parse_seconds", t->parse_s);
    tui_json_knum(&j, "replay_seconds", t->replay_s);
    tui_json_kuint(&j, "reserved", (unsigned long long)s->reserved_bytes[0].current);
    tui_json_kuint(&j, "allocated", (unsigned long long)s->allocated_bytes[0].current);
    tui_json_kuint(&j, "peak_reserved", (unsigned long long)s->reserved_bytes[0].peak);
    tui_json_kuint(&j, "peak_allocated", (unsigned long long)s->allocated_bytes[0].peak);
    tui_json_key(&j, "oom_lines");
    tui_json_arr(&j);
    for (size_t i = 0; i < r->noom_list; i++) tui_json_uint(&j, r->oom_list[i].line);
    tui_json_end(&j);
    tui_json_kstr(&j, "first_oom", r->ooms ? r->first_oom : NULL);
    tui_json_end(&j);
}

static void trace_text(const struct trace_run *t, const struct gpu_replay_result *r,
                       struct gpu_caching *c)
{
    const struct gpu_caching_stats *s = &r->stats;
    char size[32];
    gpu_cache_format_size(t->cap, size, sizeof size);
    printf(T("%s: %zu events replayed into a model device of %s (SIMULATED: the caching-"
             "allocator model, no GPU involved)\n",
             "%s：%zu 条记录回放到一台 %s 的模型设备里（SIMULATED：缓存分配器的模型，不用 GPU）\n"),
           t->file, t->events, size);
    printf(T("  options   %s\n", "  设置      %s\n"), t->conf[0] ? t->conf : T("(PyTorch defaults)", "（PyTorch 默认值）"));
    printf(T("  time      parse %.1f ms, replay %.1f ms\n", "  时间      解析 %.1f ms，回放 %.1f ms\n"),
           t->parse_s * 1e3, t->replay_s * 1e3);
    printf(T("  events    %zu malloc, %zu free, %zu empty_cache, %zu skipped frees\n",
             "  记录      malloc %zu 次，free %zu 次，empty_cache %zu 次，跳过的 free %zu 次\n"),
           r->allocs, r->frees, r->empties, r->skipped_frees);
    char b1[32], b2[32];
    printf(T("  peak      reserved %s, allocated %s (MiB = 2^20 B)\n", "  峰值      已预留 %s，已分配 %s（MiB = 2^20 B）\n"),
           B(s->reserved_bytes[0].peak, b1), B(s->allocated_bytes[0].peak, b2));
    printf(T("  OOMs      %zu", "  OOM 次数  %zu"), r->ooms);
    for (size_t i = 0; i < r->noom_list && i < 10; i++)
        printf(tui_cli_zh ? "%s第 %u 行" : "%s line %u", i ? (tui_cli_zh ? "、" : ",") : (tui_cli_zh ? "，在" : " at"),
               r->oom_list[i].line);
    printf("%s\n", r->noom_list > 10 ? T(", ...", "……") : "");
    /* PyTorch's own message, word for word: the learner will meet it in their logs */
    if (r->ooms) printf(T("  first OOM (line %u): %s\n", "  第一次 OOM（第 %u 行）：%s\n"), r->first_oom_line, r->first_oom);
    size_t n = gpu_caching_summary(c, NULL, 0) + 1;
    char *buf = malloc(n);
    if (buf) {
        gpu_caching_summary(c, buf, n);
        fputs(buf, stdout);
        free(buf);
    }
}

/* The options: PYTORCH_CUDA_ALLOC_CONF, else the trace's own "# conf:" line. */
static int trace_conf(struct trace_run *t, const char *hdr, struct gpu_caching_opts *o)
{
    char err[1024];
    const char *env = getenv("PYTORCH_CUDA_ALLOC_CONF");
    bool from_env = env && *env;
    gpu_caching_opts_default(o);
    snprintf(t->conf, sizeof t->conf, "%s", from_env ? env : hdr);
    if (gpu_caching_parse_conf(t->conf, o, err, sizeof err) == GPU_OK) return -1;
    if (from_env)
        fprintf(stderr, "vramlab: trace replay: PYTORCH_CUDA_ALLOC_CONF '%s': %s\n", t->conf, err);
    else fprintf(stderr, "vramlab: trace replay: %s: conf '%s': %s\n", t->file, t->conf, err);
    return 2;
}

int tui_cmd_trace(struct tui_ctx *c)
{
    char err[1024], hdr[512];
    struct trace_run t = {.file = c->argv[1]};
    uint64_t fr;
    /* the model device's range, as alloc.model's */
    if (c->argc == 3 &&
        !gpu_parse_size(c->argv[2], 2ull << 20, 4ull << 40, &t.cap, err, sizeof err)) {
        fprintf(stderr, "vramlab: trace replay: capacity: %s\n", err);
        return 2;
    }
    if (!t.cap && gpu_mem_info(c->dev, &fr, &t.cap) != GPU_OK) t.cap = 80ull << 30;
    const char *env = getenv("PYTORCH_CUDA_ALLOC_CONF");
    struct gpu_caching_opts o;
    int rc = env && *env ? trace_conf(&t, "", &o) : -1; /* a bad environment: before reading */
    if (rc >= 0) return rc;
    struct gpu_trace tr;
    double t0 = gpu_now();
    if (gpu_trace_load(t.file, &tr, hdr, sizeof hdr, err, sizeof err) != GPU_OK) {
        fprintf(stderr, "vramlab: %s\n", err);
        return 1;
    }
    t.parse_s = gpu_now() - t0;
    t.events = tr.n;
    struct gpu_caching *cm = NULL;
    struct gpu_replay_result *r = calloc(1, sizeof *r);
    if ((rc = trace_conf(&t, hdr, &o)) < 0 &&
        (!r || gpu_caching_new_model(&o, t.cap, &cm, err, sizeof err) != GPU_OK)) {
        fprintf(stderr, "vramlab: trace replay: %s\n", r ? err : "out of memory");
        rc = 1;
    }
    if (rc >= 0) {
        gpu_trace_free(&tr);
        free(r);
        return rc;
    }
    double t2 = gpu_now();
    struct sigaction sa = {.sa_handler = on_trace_stop}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    gpu_status st = gpu_trace_replay(&tr, cm, r, &g_trace_stop, err, sizeof err);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    t.replay_s = gpu_now() - t2;
    rc = 0;
    if (st == GPU_ERR_CANCELLED) {
        fprintf(stderr, "vramlab: trace replay of %s stopped at %s (%zu of %zu events replayed)\n",
                t.file, err, r->allocs + r->ooms + r->frees + r->skipped_frees + r->empties, tr.n);
        rc = 128 + g_trace_stop;
    } else if (st != GPU_OK) {
        fprintf(stderr, "%s: %s\n", t.file, err);
        rc = 1;
    } else if (c->opt[TUI_O_JSON]) {
        trace_json(&t, r);
    } else {
        trace_text(&t, r, cm);
    }
    gpu_caching_destroy(cm);
    gpu_trace_free(&tr);
    free(r);
    return rc;
}

/* ---- snapshot ------------------------------------------------------------------------------ */

int tui_cmd_snapshot(struct tui_ctx *c)
{
    bool diff = c->argc > 1 || !strcmp(c->argv[0], "diff");
    if (diff && (c->argc != 3 || strcmp(c->argv[0], "diff"))) {
        fprintf(stderr, "vramlab: snapshot takes one FILE, or diff A B (a file named diff: ./diff)\n");
        return 2;
    }
    if (diff && (c->opt[TUI_O_TUI] || c->opt[TUI_O_WHATIF] || c->opt[TUI_O_CAPACITY] ||
                 c->opt[TUI_O_SNAP_DEVICE] || c->opt[TUI_O_COLLAPSED] || c->opt[TUI_O_AT] ||
                 c->opt[TUI_O_SEGMENTS])) {
        fprintf(stderr, "vramlab: snapshot diff A B takes --json and --top only\n");
        return 2;
    }
    if (c->opt[TUI_O_TUI]) { /* the screen (tui_snapview.c) shows every option's figures itself */
        if (c->opt[TUI_O_JSON] || c->opt[TUI_O_TOP] || c->opt[TUI_O_WHATIF] || c->opt[TUI_O_CAPACITY] ||
            c->opt[TUI_O_SNAP_DEVICE] || c->opt[TUI_O_COLLAPSED] || c->opt[TUI_O_AT] ||
            c->opt[TUI_O_SEGMENTS]) {
            fprintf(stderr, "vramlab: snapshot --tui takes the file alone: vramlab snapshot FILE --tui\n");
            return 2;
        }
        return tui_snapview(c->argv[0], c->lang && !strcmp(c->lang, "zh"));
    }
    struct tui_snapshot_args a = {
        .file = c->argv[diff ? 1 : 0], .other = diff ? c->argv[2] : NULL,
        .json = c->opt[TUI_O_JSON] != NULL, .top = c->opt[TUI_O_TOP],
        .conf = c->opt[TUI_O_WHATIF], .capacity = c->opt[TUI_O_CAPACITY],
        .device = c->opt[TUI_O_SNAP_DEVICE], .at = c->opt[TUI_O_AT],
        .collapsed = c->opt[TUI_O_COLLAPSED] != NULL, .segments = c->opt[TUI_O_SEGMENTS] != NULL,
        .zh = c->lang && !strcmp(c->lang, "zh")};
    return diff ? tui_snapshot_diff_cmd(&a, stdout, stderr) : tui_snapshot_cmd(&a, stdout, stderr);
}
