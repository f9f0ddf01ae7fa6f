/* gpu_registry.c - the explicit backend registry, fallback order, and the checked wrappers every
 * caller goes through: sticky failure, the cap on free memory, live-allocation accounting. */
#include "gpu.h"

#include "gpu_fmt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GPU_HAVE_CUDA
#include "gpu_cuda.h"
#include "gpu_fmt.h"
#endif
#include "gpu_nvml.h"
#include "gpu_sim.h"

const struct gpu_backend *const gpu_backends[] = {
#ifdef GPU_HAVE_CUDA
    &gpu_cuda_backend,
#endif
    &gpu_sim_backend,
    NULL,
};

const struct gpu_backend *gpu_backend_find(const char *name)
{
    for (int i = 0; gpu_backends[i]; i++)
        if (!strcmp(gpu_backends[i]->name, name)) return gpu_backends[i];
    return NULL;
}

/* A real device gets its vendor figure beside the peak its driver's attributes give: from the
 * simulator profile of the same name (a MIG slice: of the whole GPU's name), so a driver that
 * misreports the bus width or the clock shows as a difference between the two. */
static void add_published(struct gpu_dev *dev, const struct gpu_config *cfg)
{
    struct gpu_info *in = &dev->info;
    struct gpu_profile p;
    char name[sizeof in->name], id[32];
    if (in->simulated || !cfg) return;
    snprintf(name, sizeof name, "%s", in->name);
    char *mig = strstr(name, " MIG ");
    if (mig) *mig = 0;
    if (!gpu_profile_by_name(cfg->datadir, name, &p, id, sizeof id)) return;
    in->published_bytes_per_s = p.info.published_bytes_per_s;
    snprintf(in->published_profile, sizeof in->published_profile, "%s", id);
    size_t used = strlen(in->source);
    snprintf(in->source + used, sizeof in->source - used, "%spublished figure: %s",
             used ? "; " : "", p.info.source);
}

/* What every backend shares of the configuration: the fault hooks and the host cap. */
static void configure(struct gpu_dev *dev, const struct gpu_config *cfg)
{
    if (!cfg) return;
    dev->fail_alloc = cfg->fail_alloc;
    dev->fault_corrupt = cfg->fault_corrupt;
    dev->host_max = cfg->host_max;
    dev->host_quick = cfg->host_quick;
    add_published(dev, cfg);
}

gpu_status gpu_open(const char *want, const struct gpu_config *cfg, struct gpu_dev **out,
                    char *fallback_why, size_t n)
{
    char why[256];
    size_t used = 0;
    gpu_status st = GPU_ERR_NO_DEVICE;
    *out = NULL;
    if (n) fallback_why[0] = 0;
    if (cfg && cfg->no_nvml) gpu_nvml_disable(); /* before a backend's first NVML call */
    if (want && *want && strcmp(want, "auto")) {
        const struct gpu_backend *be = gpu_backend_find(want);
        if (!be) {
            if (!strcmp(want, "cuda"))
                snprintf(fallback_why, n, "cuda: not compiled in (nvcc was not found at build time)");
            else
                snprintf(fallback_why, n, "unknown backend '%s' (use cuda or sim)", want);
            return GPU_ERR_ARG;
        }
        why[0] = 0;
        st = be->open(cfg, out, why, sizeof why);
        if (st != GPU_OK) snprintf(fallback_why, n, "%s: %s", be->name, why);
        else configure(*out, cfg);
        return st;
    }
    for (int i = 0; gpu_backends[i]; i++) {
        why[0] = 0;
        st = gpu_backends[i]->open(cfg, out, why, sizeof why);
        if (st == GPU_OK) {
            configure(*out, cfg);
            return st;
        }
        if (used < n) {
            int k = snprintf(fallback_why + used, n - used, "%s%s: %s", used ? "; " : "",
                             gpu_backends[i]->name, why);
            used += k > 0 ? (size_t)k : 0;
        }
    }
    return st;
}

void gpu_close(struct gpu_dev *dev)
{
    if (!dev) return;
    dev->be->close(dev);
}

const char *gpu_why(const struct gpu_dev *dev) { return dev->why; }

void gpu_set_why(struct gpu_dev *dev, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev->why, sizeof dev->why, fmt, ap);
    va_end(ap);
    dev->why_key = GPU_WHY_TEXT;
}

void gpu_why_args(enum gpu_why_key key, const double arg[4], char out[4][48])
{
#define GPU_X_WHY(name, kinds, en) kinds,
    static const char *const kinds[] = {GPU_WHY_LIST(GPU_X_WHY)};
#undef GPU_X_WHY
    const char *k = (unsigned)key < GPU_WHY_COUNT ? kinds[key] : "";
    for (int i = 0; i < 4; i++) out[i][0] = 0;
    for (int i = 0; i < 4 && k[i]; i++) { /* k holds as many kinds as the key has numbers */
        double v = arg[i];
        if (k[i] == 'M') gpu_fmt_qty(v / 1024, "GiB", out[i], sizeof out[i]); /* 0.5 -> 512 MiB */
        else snprintf(out[i], sizeof out[i], "%.0f", v);
    }
}

void gpu_set_why_key(struct gpu_dev *dev, enum gpu_why_key key, double a, double b, double c, double d)
{
#define GPU_X_WHY(name, kinds, en) en,
    static const char *const en[] = {GPU_WHY_LIST(GPU_X_WHY)};
#undef GPU_X_WHY
    char s[4][48];
    dev->why_key = key;
    dev->why_arg[0] = a, dev->why_arg[1] = b, dev->why_arg[2] = c, dev->why_arg[3] = d;
    if (key == GPU_WHY_TEXT || (unsigned)key >= GPU_WHY_COUNT) return;
    gpu_why_args(key, dev->why_arg, s);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral" /* the table's formats: %s for each number */
    snprintf(dev->why, sizeof dev->why, en[key], s[0], s[1], s[2], s[3]);
#pragma GCC diagnostic pop
}

gpu_status gpu_mem_info(struct gpu_dev *dev, uint64_t *free_b, uint64_t *total_b)
{
    if (dev->failed) return GPU_ERR_STICKY;
    return dev->be->mem_info(dev, free_b, total_b);
}

/* The most the process may hold in all (see gpu_alloc_budget). */
static uint64_t cap_total(struct gpu_dev *dev, uint64_t fr)
{
    double all = ((double)fr + (double)dev->live_bytes) * dev->cap_fraction;
    if (dev->cap_bytes && all > (double)dev->cap_bytes) all = (double)dev->cap_bytes;
    return (uint64_t)all;
}

uint64_t gpu_alloc_budget(struct gpu_dev *dev)
{
    uint64_t fr = 0, tot = 0;
    if (gpu_mem_info(dev, &fr, &tot) != GPU_OK) return 0;
    uint64_t all = cap_total(dev, fr);
    return all > dev->live_bytes ? all - dev->live_bytes : 0;
}

/* Fault injection (VRAMLAB_FAULT_ALLOC=N): the Nth allocation fails as an out-of-memory would,
 * so every error path of every experiment can be driven and checked for leaks. `site` is the
 * caller's address: allocations from the same place share a site number (gpu.h). */
static bool injected(struct gpu_dev *dev, const void *site)
{
    int s = 0;
    while (s < dev->nsites && dev->site_addr[s] != site) s++;
    if (s == dev->nsites && s < GPU_FAULT_SITES) dev->site_addr[dev->nsites++] = site;
    if (s == GPU_FAULT_SITES) s--;
    if (dev->alloc_count < GPU_FAULT_LOG) dev->site_of[dev->alloc_count] = (unsigned char)(s + 1);
    if (++dev->alloc_count != dev->fail_alloc) return false;
    gpu_set_why_key(dev, GPU_WHY_INJECTED, (double)dev->alloc_count, 0, 0, 0);
    return true;
}

static gpu_status alloc_at(struct gpu_dev *dev, uint64_t bytes, void **ptr, const void *site)
{
    *ptr = NULL;
    if (dev->failed) return GPU_ERR_STICKY;
    if (bytes == 0) {
        gpu_set_why_key(dev, GPU_WHY_ZERO, 0, 0, 0, 0);
        return GPU_ERR_ARG;
    }
    if (injected(dev, site)) return GPU_ERR_NOMEM;
    gpu_status st = dev->be->alloc(dev, bytes, ptr);
    if (st == GPU_OK) {
        dev->live_bytes += bytes;
        dev->live_allocs++;
    }
    return st;
}

gpu_status gpu_alloc_uncapped(struct gpu_dev *dev, uint64_t bytes, void **ptr)
{
    return alloc_at(dev, bytes, ptr, __builtin_return_address(0));
}

gpu_status gpu_alloc(struct gpu_dev *dev, uint64_t bytes, void **ptr)
{
    uint64_t budget = gpu_alloc_budget(dev);
    *ptr = NULL;
    if (dev->failed) return GPU_ERR_STICKY;
    if (bytes > budget) {
        uint64_t fr = 0, tot = 0;
        bool by_bytes = dev->cap_bytes && gpu_mem_info(dev, &fr, &tot) == GPU_OK &&
                        cap_total(dev, fr) == dev->cap_bytes;
        if (budget < (1u << 20) && !dev->live_bytes) /* nothing to take: say why, not a cap of 0 */
            gpu_set_why_key(dev, GPU_WHY_NO_FREE, bytes / 1048576.0, 0, 0, 0);
        else if (by_bytes)
            gpu_set_why_key(dev, GPU_WHY_CAP_BYTES, bytes / 1048576.0, dev->cap_bytes / 1048576.0,
                            budget / 1048576.0, 0);
        else
            gpu_set_why_key(dev, GPU_WHY_CAP, bytes / 1048576.0, dev->cap_fraction * 100,
                            budget / 1048576.0, 0);
        return GPU_ERR_CAP;
    }
    return alloc_at(dev, bytes, ptr, __builtin_return_address(0));
}

bool gpu_fault_at(struct gpu_dev *dev, const void *site)
{
    return injected(dev, site);
}

gpu_status gpu_host_alloc(struct gpu_dev *dev, uint64_t bytes, bool pinned, void **ptr)
{
    *ptr = NULL;
    if (dev->failed) return GPU_ERR_STICKY;
    if (injected(dev, __builtin_return_address(0))) return GPU_ERR_HOST_NOMEM;
    gpu_status st = dev->be->host_alloc(dev, bytes, pinned, ptr);
    if (st == GPU_OK) dev->live_host++;
    return st;
}

gpu_status gpu_host_free(struct gpu_dev *dev, void *ptr, bool pinned)
{
    if (!ptr) return GPU_OK;
    if (dev->live_host > 0) dev->live_host--;
    return dev->be->host_free(dev, ptr, pinned);
}

gpu_status gpu_free(struct gpu_dev *dev, void *ptr, uint64_t bytes)
{
    if (!ptr) return GPU_OK;
    gpu_status st = dev->be->free(dev, ptr);
    /* The accounting follows the caller's intent even when the device is failed: the memory is
     * gone with the context either way. */
    dev->live_bytes -= bytes <= dev->live_bytes ? bytes : dev->live_bytes;
    if (dev->live_allocs > 0) dev->live_allocs--;
    return st;
}
