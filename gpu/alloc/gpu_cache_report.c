/* gpu_cache_report.c - what the caching-allocator model shows and takes as settings: option
 * defaults and PYTORCH_CUDA_ALLOC_CONF parsing, torch.cuda.memory_stats(), the memory map of
 * torch.cuda.memory_snapshot(), PyTorch's format_size and torch.cuda.memory_summary(). */
#include "gpu_caching.h"
#include "gpu_cache_int.h"
#include "gpu_buf.h"
#include "gpu_err.h"
#include "gpu_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gpu_caching_opts_default(struct gpu_caching_opts *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->max_split_size = GPU_CACHE_NO_SPLIT_LIMIT;
}

static bool conf_bool(const char *v, bool *out)
{
    if (!strcmp(v, "True")) *out = true;
    else if (!strcmp(v, "False")) *out = false;
    else return false;
    return true;
}

gpu_status gpu_caching_parse_conf(const char *conf, struct gpu_caching_opts *o, char *err, size_t n)
{
    if (err && n) err[0] = '\0';
    if (!o) return GPU_ERR_ARG;
    if (!conf) return GPU_OK;
    struct gpu_caching_opts r = *o;
    /* PyTorch's lexer drops spaces anywhere */
    size_t len = strlen(conf);
    char *buf = malloc(len + 1), *w = buf;
    if (!buf) return GPU_ERR_HOST_NOMEM;
    for (const char *p = conf; *p; p++)
        if (*p != ' ') *w++ = *p;
    *w = '\0';
    gpu_status st = GPU_OK;
    for (char *item = buf, *next; item && *item && st == GPU_OK; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        char *val = strchr(item, ':');
        if (!val) {
            gpu_errf(err, n, "'%s': expected key:value", item);
            st = GPU_ERR_ARG;
            break;
        }
        *val++ = '\0';
        uint64_t u;
        char why[128];
        if (!strcmp(item, "max_split_size_mb")) {
            /* PyTorch's floor is 20; the top is what still fits in bytes */
            if (!gpu_parse_u64(val, 20, UINT64_MAX >> 20, &u, why, sizeof why)) {
                gpu_errf(err, n, "max_split_size_mb: %s", why);
                st = GPU_ERR_ARG;
            } else {
                r.max_split_size = u << 20;
            }
        } else if (!strcmp(item, "roundup_power2_divisions")) {
            if (val[0] == '[') {
                gpu_errf(err, n, "roundup_power2_divisions: per-interval lists are not modelled; "
                                "give one number");
                st = GPU_ERR_ARG;
            } else if (!gpu_parse_u64(val, 1, 1u << 20, &u, why, sizeof why)) {
                gpu_errf(err, n, "roundup_power2_divisions: %s", why);
                st = GPU_ERR_ARG;
            } else if (u & (u - 1)) {
                gpu_errf(err, n, "roundup_power2_divisions: '%s' must be a power of 2", val);
                st = GPU_ERR_ARG;
            } else {
                r.roundup_power2_divisions = (unsigned)u;
            }
        } else if (!strcmp(item, "expandable_segments")) {
            if (!conf_bool(val, &r.expandable_segments)) {
                gpu_errf(err, n, "expandable_segments: expected True or False, not '%s'", val);
                st = GPU_ERR_ARG;
            }
        } else if (!strcmp(item, "backend")) {
            if (strcmp(val, "native")) {
                gpu_errf(err, n, "backend:%s is not modelled (only native)", val);
                st = GPU_ERR_ARG;
            }
        } else if (!strcmp(item, "garbage_collection_threshold") ||
                   !strcmp(item, "max_non_split_rounding_mb")) {
            gpu_errf(err, n, "%s is not modelled", item);
            st = GPU_ERR_ARG;
        } else if (!strcmp(item, "release_lock_on_cudamalloc") ||
                   !strcmp(item, "pinned_use_cuda_host_register") ||
                   !strcmp(item, "pinned_num_register_threads") ||
                   !strcmp(item, "pinned_use_background_threads")) {
            /* these change locking or pinned host memory, not where device memory goes */
        } else {
            gpu_errf(err, n, "Unrecognized CachingAllocator option: %s", item);
            st = GPU_ERR_ARG;
        }
    }
    free(buf);
    if (st == GPU_OK) *o = r;
    return st;
}

/* ---- statistics ------------------------------------------------------------------------------ */

void gpu_caching_reset_peak(struct gpu_caching *c)
{
    if (!c) return;
    struct gpu_cache_stat *arrays[] = {c->st.allocation, c->st.segment, c->st.active,
                                       c->st.inactive_split, c->st.allocated_bytes,
                                       c->st.reserved_bytes, c->st.active_bytes,
                                       c->st.inactive_split_bytes, c->st.requested_bytes};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        for (int p = 0; p < GPU_CACHE_NPOOL; p++) arrays[i][p].peak = arrays[i][p].current;
    c->st.oversize_allocations.peak = c->st.oversize_allocations.current;
    c->st.oversize_segments.peak = c->st.oversize_segments.current;
}

void gpu_caching_stats(const struct gpu_caching *c, struct gpu_caching_stats *s)
{
    if (!c || !s) return;
    *s = c->st;
    for (int p = 0; p < 2; p++) {
        const struct blk *m = gpu_cache_tree_max(c->pools[p].free);
        s->largest_free[1 + p] = m ? m->size : 0;
    }
    s->largest_free[GPU_CACHE_ALL] = s->largest_free[1] > s->largest_free[2] ? s->largest_free[1]
                                                                              : s->largest_free[2];
    s->max_split_size = c->o.max_split_size;
}

void gpu_caching_get_opts(const struct gpu_caching *c, struct gpu_caching_opts *o)
{
    if (c && o) *o = c->o;
}

/* ---- memory map ------------------------------------------------------------------------------ */

struct run {
    const struct blk *first; /* a segment, or one mapped range of an expandable one */
    const struct seg *seg;
};

static int run_cmp(const void *a, const void *b)
{
    uint64_t x = ((const struct run *)a)->first->addr, y = ((const struct run *)b)->first->addr;
    return x < y ? -1 : x > y;
}

gpu_status gpu_caching_segments(const struct gpu_caching *c, struct gpu_cache_map *m)
{
    if (!m) return GPU_ERR_ARG;
    memset(m, 0, sizeof *m);
    if (!c) return GPU_ERR_ARG;
    size_t nruns = 0, nblocks = 0;
    for (const struct seg *s = c->segs; s; s = s->next)
        for (const struct blk *b = s->head; b; b = b->next) {
            if (!b->mapped) continue;
            nblocks++;
            if (!b->prev || !b->prev->mapped) nruns++;
        }
    struct run *runs = malloc((nruns ? nruns : 1) * sizeof *runs);
    m->segs = calloc(nruns ? nruns : 1, sizeof *m->segs);
    m->blocks = calloc(nblocks ? nblocks : 1, sizeof *m->blocks);
    if (!runs || !m->segs || !m->blocks) {
        free(runs);
        gpu_cache_map_free(m);
        return GPU_ERR_HOST_NOMEM;
    }
    size_t k = 0;
    for (const struct seg *s = c->segs; s; s = s->next)
        for (const struct blk *b = s->head; b; b = b->next)
            if (b->mapped && (!b->prev || !b->prev->mapped)) runs[k++] = (struct run){b, s};
    qsort(runs, nruns, sizeof *runs, run_cmp);
    for (size_t i = 0; i < nruns; i++) {
        struct gpu_cache_seg_info *si = &m->segs[m->nsegs++];
        si->addr = runs[i].first->addr;
        si->pool = 1 + runs[i].seg->pool;
        si->expandable = runs[i].seg->expandable;
        si->first_block = m->nblocks;
        for (const struct blk *b = runs[i].first; b && b->mapped; b = b->next) {
            struct gpu_cache_block_info *bi = &m->blocks[m->nblocks++];
            bi->addr = b->addr;
            bi->offset = b->addr - si->addr;
            bi->size = b->size;
            bi->allocated = b->allocated;
            bi->requested = b->allocated ? b->req : 0;
            si->size += b->size;
            if (b->allocated) {
                si->allocated += b->size;
                si->requested += b->req;
            }
            si->nblocks++;
        }
    }
    free(runs);
    return GPU_OK;
}

void gpu_cache_map_free(struct gpu_cache_map *m)
{
    if (!m) return;
    free(m->segs);
    free(m->blocks);
    memset(m, 0, sizeof *m);
}

void gpu_cache_format_size(uint64_t size, char *buf, size_t n)
{
    if (!buf || !n) return;
    if (size <= 1024) snprintf(buf, n, "%llu bytes", (unsigned long long)size);
    else if (size <= 1048576) snprintf(buf, n, "%.2f KiB", (double)size / 1024.0);
    else if (size <= 1073741824ull) snprintf(buf, n, "%.2f MiB", (double)size / 1048576.0);
    else snprintf(buf, n, "%.2f GiB", (double)size / 1073741824.0);
}

/* ---- memory_summary ------------------------------------------------------------------------ */

/* torch/cuda/memory.py _format_size: scale by the row's reference value. */
static void fmt_size(char *s, size_t n, uint64_t sz, double pref)
{
    static const char *const pfx[] = {"B  ", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int i = 0;
    while (i < 5 && pref >= 768 * 1024) {
        i++;
        sz /= 1024;
        pref /= 1024;
    }
    snprintf(s, n, "%6llu %s", (unsigned long long)sz, pfx[i]);
}

static void fmt_count(char *s, size_t n, uint64_t cnt, double pref)
{
    static const char *const pfx[] = {" ", "K", "M"};
    int i = 0;
    while (i < 2 && pref >= 750 * 1000) {
        i++;
        cnt /= 1000;
        pref /= 1000;
    }
    snprintf(s, n, "%7llu %s ", (unsigned long long)cnt, pfx[i]);
}

typedef void (*fmt_fn)(char *, size_t, uint64_t, double);

static void row(struct gpu_buf *o, const char *name, const struct gpu_cache_stat *s,
                const struct gpu_cache_stat *ref, fmt_fn f)
{
    char a[32], b[32], c[32], d[32];
    f(a, sizeof a, s->current, (double)ref->current);
    f(b, sizeof b, s->peak, (double)ref->peak);
    f(c, sizeof c, s->allocated, (double)ref->allocated);
    f(d, sizeof d, s->freed, (double)ref->freed);
    gpu_buf_printf(o, "| %-21s | %s | %s | %s | %s |\n", name, a, b, c, d);
}

size_t gpu_caching_summary(const struct gpu_caching *c, char *buf, size_t n)
{
    struct gpu_buf o = GPU_BUF_FIXED(buf, n);
    if (buf && n) buf[0] = '\0';
    if (!c) return 0;
    struct gpu_caching_stats st;
    gpu_caching_stats(c, &st);
    static const char eq[] = "===========================================================================";
    static const char dash[] = "---------------------------------------------------------------------------";
    static const char *const sub[] = {NULL, "      from small pool", "      from large pool"};
    const struct {
        const struct gpu_cache_stat *s;
        const char *name;
        fmt_fn f;
    } rows[] = {
        {st.allocated_bytes, "Allocated memory", fmt_size},
        {st.active_bytes, "Active memory", fmt_size},
        {st.requested_bytes, "Requested memory", fmt_size},
        {st.reserved_bytes, "GPU reserved memory", fmt_size},
        {st.inactive_split_bytes, "Non-releasable memory", fmt_size},
        {st.allocation, "Allocations", fmt_count},
        {st.active, "Active allocs", fmt_count},
        {st.segment, "GPU reserved segments", fmt_count},
        {st.inactive_split, "Non-releasable allocs", fmt_count},
    };
    gpu_buf_printf(&o, "|%s|\n", eq);
    gpu_buf_printf(&o, "| %16s PyTorch CUDA memory summary, device ID %-17d |\n", "", 0);
    gpu_buf_printf(&o, "|%s|\n", dash);
    gpu_buf_printf(&o, "|  %9s CUDA OOMs: %-12llu | %6s cudaMalloc retries: %-8llu  |\n", "",
        (unsigned long long)st.num_ooms, "", (unsigned long long)st.num_alloc_retries);
    gpu_buf_printf(&o, "|%s|\n", eq);
    gpu_buf_printf(&o, "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gpu_buf_printf(&o, "|%s|\n", dash);
        row(&o, rows[i].name, &rows[i].s[GPU_CACHE_ALL], &rows[i].s[GPU_CACHE_ALL], rows[i].f);
        /* PyTorch lists the large pool first */
        row(&o, sub[GPU_CACHE_LARGE], &rows[i].s[GPU_CACHE_LARGE], &rows[i].s[GPU_CACHE_ALL],
            rows[i].f);
        row(&o, sub[GPU_CACHE_SMALL], &rows[i].s[GPU_CACHE_SMALL], &rows[i].s[GPU_CACHE_ALL],
            rows[i].f);
    }
    gpu_buf_printf(&o, "|%s|\n", dash);
    row(&o, "Oversize allocations", &st.oversize_allocations, &st.oversize_allocations, fmt_count);
    gpu_buf_printf(&o, "|%s|\n", dash);
    row(&o, "Oversize GPU segments", &st.oversize_segments, &st.oversize_segments, fmt_count);
    gpu_buf_printf(&o, "|%s|\n", eq);
    return o.len;
}
