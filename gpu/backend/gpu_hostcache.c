/* gpu_hostcache.c - the host's data caches, for STREAM's array-size rule and for naming the
 * latency ladder's plateaus. Three sources, best first: sysfs (the kernel's list, with the CPUs
 * that share each cache), CPUID's deterministic cache leaves (x86: 4 on Intel, 0x8000001D on AMD,
 * also with sharing), and sysconf(_SC_LEVEL*_CACHE_SIZE), which glibc answers from CPUID without
 * saying who shares a cache. A hypervisor may pass a whole package's figure through (one VM here
 * reads a 508 MiB L3 through sysconf), so every size is judged before it names anything. */
#include "gpu.h"
#include "gpu_numa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "gpu_file.h"

/* sysfs and procfs files through the safe reader (a tree given for tests may hold anything) */
#define SYS_MAX (64u << 10)

static uint64_t read_size(const char *path)
{
    char buf[64];
    FILE *f = gpu_file_open(path, SYS_MAX, 0, NULL, 0);
    if (!f) return 0;
    uint64_t v = 0;
    if (fgets(buf, sizeof buf, f)) {
        char *end;
        v = strtoull(buf, &end, 10);
        if (*end == 'K') v <<= 10;
        else if (*end == 'M') v <<= 20;
    }
    fclose(f);
    return v;
}

static void add(struct gpu_cache_info *ci, int level, uint64_t bytes, int shared)
{
    if (ci->n >= (int)(sizeof ci->lv / sizeof ci->lv[0]) || level <= 0 || !bytes) return;
    for (int i = 0; i < ci->n; i++) /* one entry per level: cpu0's caches, not every core's */
        if (ci->lv[i].level == level) return;
    int j = ci->n++;
    while (j > 0 && ci->lv[j - 1].bytes > bytes) { /* sorted by size */
        ci->lv[j] = ci->lv[j - 1];
        j--;
    }
    ci->lv[j] = (struct gpu_cache_level){.level = level, .bytes = bytes, .shared_cpus = shared};
}

/* sysfs lists cpu0's caches as index0.., one per level and type; data and unified ones count. */
static void from_sysfs(const char *sysfs, struct gpu_cache_info *ci)
{
    char path[512], line[4096];
    for (int i = 0; i < 16; i++) {
        snprintf(path, sizeof path, "%s/devices/system/cpu/cpu0/cache/index%d/level", sysfs, i);
        int lvl = (int)read_size(path);
        snprintf(path, sizeof path, "%s/devices/system/cpu/cpu0/cache/index%d/type", sysfs, i);
        FILE *t = gpu_file_open(path, SYS_MAX, 0, NULL, 0);
        bool instr = t && fgets(line, sizeof line, t) && !strncmp(line, "Instruction", 11);
        if (t) fclose(t);
        snprintf(path, sizeof path, "%s/devices/system/cpu/cpu0/cache/index%d/size", sysfs, i);
        uint64_t size = read_size(path);
        if (lvl <= 0 || instr || !size) continue;
        int shared = 0;
        snprintf(path, sizeof path, "%s/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list",
                 sysfs, i);
        FILE *s = gpu_file_open(path, SYS_MAX, 0, NULL, 0);
        cpu_set_t set;
        if (s && fgets(line, sizeof line, s) && gpu_cpulist_parse(line, &set))
            shared = CPU_COUNT(&set);
        if (s) fclose(s);
        add(ci, lvl, size, shared);
    }
}

/* CPUID's deterministic cache parameters: size = ways x partitions x line x sets, and the most
 * logical CPUs that share the cache (EAX[25:14] + 1). A hypervisor that hides the leaf returns
 * zeros, and this finds nothing. */
static void from_cpuid(struct gpu_cache_info *ci)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d, leaf = 0;
    char vendor[13] = {0};
    if (!__get_cpuid(0, &a, &b, &c, &d)) return;
    memcpy(vendor, &b, 4), memcpy(vendor + 4, &d, 4), memcpy(vendor + 8, &c, 4);
    if (!strcmp(vendor, "GenuineIntel") && a >= 4) leaf = 4;
    else if (!strcmp(vendor, "AuthenticAMD") && __get_cpuid(0x80000000, &a, &b, &c, &d) &&
             a >= 0x8000001D && __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & (1u << 22)))
        leaf = 0x8000001D; /* topology extensions */
    for (unsigned i = 0; leaf && i < 16; i++) {
        __cpuid_count(leaf, i, a, b, c, d);
        unsigned type = a & 31; /* 1 data, 2 instruction, 3 unified; 0 ends the list */
        if (type == 0) break;
        if (type == 2) continue;
        uint64_t size = (uint64_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) * ((b & 0xfff) + 1) *
                        ((uint64_t)c + 1);
        add(ci, (int)((a >> 5) & 7), size, (int)((a >> 14) & 0xfff) + 1);
    }
#else
    (void)ci;
#endif
}

static void from_sysconf(struct gpu_cache_info *ci)
{
#ifdef _SC_LEVEL1_DCACHE_SIZE
    static const int names[] = {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE,
                                _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL4_CACHE_SIZE};
    for (int i = 0; i < 4; i++) {
        long v = sysconf(names[i]);
        if (v > 0) add(ci, i + 1, (uint64_t)v, 0);
    }
#else
    (void)ci;
#endif
}

void gpu_cache_judge(struct gpu_cache_info *ci, int online)
{
    if (online < 1) online = 1;
    for (int i = 0; i < ci->n; i++) {
        struct gpu_cache_level *l = &ci->lv[i];
        int users = l->shared_cpus > 0 && l->shared_cpus < online ? l->shared_cpus : online;
        l->plausible = l->bytes <= GPU_CACHE_MAX_PER_CPU * (uint64_t)users;
        /* instances across the machine: known only when sharing is reported */
        l->instances = l->shared_cpus > 0 ? (online + users - 1) / users : 0;
    }
}

void gpu_cache_detect(const char *sysfs, struct gpu_cache_info *ci)
{
    memset(ci, 0, sizeof *ci);
    ci->source = "sysfs";
    from_sysfs(sysfs ? sysfs : "/sys", ci);
    if (!ci->n) ci->source = "cpuid", from_cpuid(ci);
    if (!ci->n) ci->source = "sysconf", from_sysconf(ci);
    if (!ci->n) ci->source = "none";
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    gpu_cache_judge(ci, online > 0 ? (int)online : 1);
}

void gpu_cache_llc(const struct gpu_cache_info *ci, struct gpu_host_info *h)
{
    const struct gpu_cache_level *l = NULL;
    for (int i = 0; i < ci->n; i++) /* the highest level; sizes are sorted, levels may not be */
        if (!l || ci->lv[i].level >= l->level) l = &ci->lv[i];
    h->llc_source = ci->source;
    if (!l) return;
    h->llc_read_bytes = l->bytes;
    h->llc_shared_cpus = l->shared_cpus;
    h->llc_plausible = l->plausible;
    if (!l->plausible) return; /* a package's figure: neither one core's nor a known total */
    h->llc_bytes = l->bytes;
    /* STREAM's rule counts every cache the run's threads use. Sharing unknown: one instance. */
    h->llc_total_bytes = l->bytes * (uint64_t)(l->instances > 0 ? l->instances : 1);
}

int gpu_host_caches(struct gpu_level *out, int max, const char **source)
{
    struct gpu_cache_info ci;
    gpu_cache_detect(NULL, &ci);
    *source = ci.source;
    int k = 0;
    for (int i = 0; i < ci.n && k < max; i++) {
        if (!ci.lv[i].plausible) continue; /* a package total names no plateau */
        out[k] = (struct gpu_level){{0}, ci.lv[i].bytes};
        snprintf(out[k].name, sizeof out[k].name, "L%d", ci.lv[i].level);
        k++;
    }
    return k;
}
