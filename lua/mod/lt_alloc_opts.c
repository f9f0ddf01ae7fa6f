/* lt_alloc_opts.c - the `alloc` module's tables in and out: the caching allocator's options (as
 * PyTorch's PYTORCH_CUDA_ALLOC_CONF names them), sizes as numbers or unit strings, and the
 * memory_stats()-shaped statistics table. */
#include "lt_alloc_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void lt_seti(lua_State *L, const char *k, uint64_t v)
{
    lua_pushinteger(L, (lua_Integer)v);
    lua_setfield(L, -2, k);
}

void lt_setn(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

void lt_alloc_push_pool(lua_State *L, const struct gpu_caching_stats *s, int p)
{
    lt_seti(L, "allocated", s->allocated_bytes[p].current);
    lt_seti(L, "reserved", s->reserved_bytes[p].current);
    lt_seti(L, "active", s->active_bytes[p].current);
    lt_seti(L, "requested", s->requested_bytes[p].current);
    lt_seti(L, "inactive_split", s->inactive_split_bytes[p].current);
    lt_seti(L, "peak_allocated", s->allocated_bytes[p].peak);
    lt_seti(L, "peak_reserved", s->reserved_bytes[p].peak);
    lt_seti(L, "peak_active", s->active_bytes[p].peak);
    lt_seti(L, "peak_requested", s->requested_bytes[p].peak);
    lt_seti(L, "segments", s->segment[p].current);
    lt_seti(L, "peak_segments", s->segment[p].peak);
    lt_seti(L, "allocations", s->allocation[p].current);
    lt_seti(L, "alloc_count", s->allocation[p].allocated);
    lt_seti(L, "free_count", s->allocation[p].freed);
    uint64_t lf = p == GPU_CACHE_ALL ? (s->largest_free[1] > s->largest_free[2] ? s->largest_free[1]
                                                                              : s->largest_free[2])
                                     : s->largest_free[p];
    lt_seti(L, "largest_free", lf);
}

void lt_alloc_push_stats(lua_State *L, const struct gpu_caching_stats *s)
{
    lua_createtable(L, 0, 24);
    lt_alloc_push_pool(L, s, GPU_CACHE_ALL);
    lua_createtable(L, 0, 16);
    lt_alloc_push_pool(L, s, GPU_CACHE_SMALL);
    lua_setfield(L, -2, "small");
    lua_createtable(L, 0, 16);
    lt_alloc_push_pool(L, s, GPU_CACHE_LARGE);
    lua_setfield(L, -2, "large");
    lt_seti(L, "num_ooms", s->num_ooms);
    lt_seti(L, "num_alloc_retries", s->num_alloc_retries);
    lt_seti(L, "num_device_alloc", s->num_device_alloc);
    lt_seti(L, "num_device_free", s->num_device_free);
}

void lt_alloc_read_opts(lua_State *L, int t, struct gpu_caching_opts *o, const char *fn)
{
    char err[256];
    gpu_caching_opts_default(o);
    if (lua_isnoneornil(L, t)) return;
    static const char *const known[] = {"max_split_size_mb", "roundup_power2_divisions",
                                        "expandable_segments", "memory_fraction", "conf",
                                        "capacity", NULL};
    lt_opt_check(L, t, fn, false, known);
    const char *conf = lt_opt_str(L, t, "conf", NULL);
    if (conf && gpu_caching_parse_conf(conf, o, err, sizeof err) != GPU_OK)
        luaL_error(L, "alloc: conf: %s", err);
    lt_opt_field(L, t, "max_split_size_mb");
    if (!lua_isnil(L, -1)) {
        lua_Integer mb = lt_opt_int(L, t, "max_split_size_mb", 0);
        if (mb < 20 || mb > (1 << 30)) luaL_error(L, "alloc: max_split_size_mb must be >= 20 (as PyTorch checks)");
        o->max_split_size = (uint64_t)mb << 20;
    }
    lua_pop(L, 1);
    lua_Integer d = lt_opt_int(L, t, "roundup_power2_divisions", o->roundup_power2_divisions);
    if (d < 0 || d > 64 || (d > 1 && (d & (d - 1))))
        luaL_error(L, "alloc: roundup_power2_divisions must be a power of two (1..64)");
    o->roundup_power2_divisions = (unsigned)d;
    o->expandable_segments = lt_opt_bool(L, t, "expandable_segments", o->expandable_segments);
    o->memory_fraction = lt_opt_num(L, t, "memory_fraction", o->memory_fraction);
    if (!(o->memory_fraction >= 0 && o->memory_fraction <= 1))
        luaL_error(L, "alloc: memory_fraction must be in (0, 1]");
}

void lt_alloc_conf_text(const struct gpu_caching_opts *o, char *buf, size_t n)
{
    buf[0] = 0;
    size_t l = 0;
    if (o->max_split_size != GPU_CACHE_NO_SPLIT_LIMIT)
        l += (size_t)snprintf(buf + l, n - l, "max_split_size_mb:%llu,",
                              (unsigned long long)(o->max_split_size >> 20));
    if (o->roundup_power2_divisions > 1 && l < n)
        l += (size_t)snprintf(buf + l, n - l, "roundup_power2_divisions:%u,",
                              o->roundup_power2_divisions);
    if (l < n)
        snprintf(buf + l, n - l, "expandable_segments:%s",
                 o->expandable_segments ? "True" : "False");
}

uint64_t lt_alloc_opt_capacity(lua_State *L, int t, uint64_t def)
{
    if (lua_isnoneornil(L, t)) return def;
    uint64_t cap = lt_opt_bytes(L, t, "capacity", def);
    if (cap != def && (cap < (2u << 20) || cap > (1ull << 42)))
        luaL_error(L, "alloc: capacity must be between 2 MiB and 4 TiB");
    return cap;
}

uint64_t lt_alloc_bytes_arg(lua_State *L, int i)
{
    return lt_arg_bytes(L, i, 1);
}
