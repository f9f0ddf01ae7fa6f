/* gpu_cache_text.c - the caching-allocator model's text side: option defaults and
 * PYTORCH_CUDA_ALLOC_CONF parsing, PyTorch's format_size, and torch.cuda.memory_summary(). */
#include "gpu_caching.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_err(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

void gpu_caching_opts_default(struct gpu_caching_opts *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->max_split_size = GPU_CACHE_NO_SPLIT_LIMIT;
}

static bool conf_uint(const char *v, unsigned long long *out)
{
    if (!*v || !isdigit((unsigned char)*v)) return false;
    char *e;
    *out = strtoull(v, &e, 10);
    return *e == '\0';
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
            set_err(err, n, "'%s': expected key:value", item);
            st = GPU_ERR_ARG;
            break;
        }
        *val++ = '\0';
        unsigned long long u;
        if (!strcmp(item, "max_split_size_mb")) {
            if (!conf_uint(val, &u) || u < 20) {
                set_err(err, n, "max_split_size_mb: '%s' must be a whole number >= 20", val);
                st = GPU_ERR_ARG;
            } else {
                r.max_split_size = u >= (UINT64_MAX >> 20) ? GPU_CACHE_NO_SPLIT_LIMIT : u << 20;
            }
        } else if (!strcmp(item, "roundup_power2_divisions")) {
            if (val[0] == '[') {
                set_err(err, n, "roundup_power2_divisions: per-interval lists are not modelled; "
                                "give one number");
                st = GPU_ERR_ARG;
            } else if (!conf_uint(val, &u) || u == 0 || (u & (u - 1)) || u > (1u << 20)) {
                set_err(err, n, "roundup_power2_divisions: '%s' must be a power of 2", val);
                st = GPU_ERR_ARG;
            } else {
                r.roundup_power2_divisions = (unsigned)u;
            }
        } else if (!strcmp(item, "expandable_segments")) {
            if (!conf_bool(val, &r.expandable_segments)) {
                set_err(err, n, "expandable_segments: expected True or False, not '%s'", val);
                st = GPU_ERR_ARG;
            }
        } else if (!strcmp(item, "backend")) {
            if (strcmp(val, "native")) {
                set_err(err, n, "backend:%s is not modelled (only native)", val);
                st = GPU_ERR_ARG;
            }
        } else if (!strcmp(item, "garbage_collection_threshold") ||
                   !strcmp(item, "max_non_split_rounding_mb")) {
            set_err(err, n, "%s is not modelled", item);
            st = GPU_ERR_ARG;
        } else if (!strcmp(item, "release_lock_on_cudamalloc") ||
                   !strcmp(item, "pinned_use_cuda_host_register") ||
                   !strcmp(item, "pinned_num_register_threads") ||
                   !strcmp(item, "pinned_use_background_threads")) {
            /* these change locking or pinned host memory, not where device memory goes */
        } else {
            set_err(err, n, "Unrecognized CachingAllocator option: %s", item);
            st = GPU_ERR_ARG;
        }
    }
    free(buf);
    if (st == GPU_OK) *o = r;
    return st;
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

struct out {
    char *buf;
    size_t n, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->n ? o->n - o->len : 0;
    int k = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (k > 0) o->len += (size_t)k;
}

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

static void row(struct out *o, const char *name, const struct gpu_cache_stat *s,
                const struct gpu_cache_stat *ref, fmt_fn f)
{
    char a[32], b[32], c[32], d[32];
    f(a, sizeof a, s->current, (double)ref->current);
    f(b, sizeof b, s->peak, (double)ref->peak);
    f(c, sizeof c, s->allocated, (double)ref->allocated);
    f(d, sizeof d, s->freed, (double)ref->freed);
    put(o, "| %-21s | %s | %s | %s | %s |\n", name, a, b, c, d);
}

size_t gpu_caching_summary(const struct gpu_caching *c, char *buf, size_t n)
{
    struct out o = {buf, n, 0};
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
    put(&o, "|%s|\n", eq);
    put(&o, "| %16s PyTorch CUDA memory summary, device ID %-17d |\n", "", 0);
    put(&o, "|%s|\n", dash);
    put(&o, "|  %9s CUDA OOMs: %-12llu | %6s cudaMalloc retries: %-8llu  |\n", "",
        (unsigned long long)st.num_ooms, "", (unsigned long long)st.num_alloc_retries);
    put(&o, "|%s|\n", eq);
    put(&o, "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        put(&o, "|%s|\n", dash);
        row(&o, rows[i].name, &rows[i].s[GPU_CACHE_ALL], &rows[i].s[GPU_CACHE_ALL], rows[i].f);
        /* PyTorch lists the large pool first */
        row(&o, sub[GPU_CACHE_LARGE], &rows[i].s[GPU_CACHE_LARGE], &rows[i].s[GPU_CACHE_ALL],
            rows[i].f);
        row(&o, sub[GPU_CACHE_SMALL], &rows[i].s[GPU_CACHE_SMALL], &rows[i].s[GPU_CACHE_ALL],
            rows[i].f);
    }
    put(&o, "|%s|\n", dash);
    row(&o, "Oversize allocations", &st.oversize_allocations, &st.oversize_allocations, fmt_count);
    put(&o, "|%s|\n", dash);
    row(&o, "Oversize GPU segments", &st.oversize_segments, &st.oversize_segments, fmt_count);
    put(&o, "|%s|\n", eq);
    return o.len;
}
