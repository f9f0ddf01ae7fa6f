/* lt_gpu_access.c - the `gpu` module's access-pattern experiments (gpu_access.h), with the same
 * conventions as gpu.copy and gpu.stream: an option table checked key by key, the measurement on
 * the worker thread while the experiment waits, a result table (nil, message on a run-time
 * failure), plus what the pattern asks of the memory system, counted from its addresses:
 * gpu.strided, gpu.random, gpu.layout, gpu.reread, gpu.persist, gpu.transpose, gpu.banks,
 * gpu.fma, gpu.pages, and the counts alone, gpu.sectors and gpu.bank_ways. Registered into the
 * gpu table by lt_open_gpu (lt_gpu.c). Tested by tests/lua/access.lua. */
#include "lt_int.h"

#include <string.h>

#include "gpu_access.h"

struct access_job {
    struct lt_job base;
    struct gpu_access_req q;
    struct gpu_access_result r;
};

static void access_fn(struct lt_job *j)
{
    struct access_job *a = (struct access_job *)j;
    struct gpu_dev *dev = j->rt->dev;
    dev->why[0] = 0;
    j->st = gpu_bench_access(dev, &a->q, &a->r, &j->rt->cancel);
    lt_job_keep_why(j, dev); /* said in the learner's language by access_push, on the Lua thread */
}

static void set_num(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static void set_int(lua_State *L, const char *k, uint64_t v)
{
    lua_pushinteger(L, (lua_Integer)v);
    lua_setfield(L, -2, k);
}

static int access_push(lua_State *L, struct lt_job *j)
{
    const struct access_job *a = (const struct access_job *)j;
    const struct gpu_access_result *r = &a->r;
    if (j->st == GPU_ERR_CANCELLED) return luaL_error(L, "cancelled");
    if (j->st != GPU_OK) {
        char why[512];
        lua_pushnil(L);
        lua_pushstring(L, lt_job_why(j, why, sizeof why));
        return 2;
    }
    lt_push_result(L, &r->r, j->rt->dev->be->name);
    lua_pushstring(L, gpu_access_name(r->kind));
    lua_setfield(L, -2, "kernel");
    set_int(L, "footprint_bytes", r->footprint);
    if (r->kind == GPU_ACC_PAGES) {
        lua_pushboolean(L, r->r.validated); /* the chase ended where the cycle says */
        lua_setfield(L, -2, "validated");
        set_int(L, "lines", r->lines);
        set_int(L, "step", r->step);
        lua_pushstring(L, "ns per dependent load, one line per step bytes, through L2 only; "
                          "one chase per SM, best (min), median and max across SMs");
        lua_setfield(L, -2, "convention");
        return 1;
    }
    if (r->sector_bytes > 0) {
        set_num(L, "sector_bytes", r->sector_bytes);
        set_num(L, "sectors_per_request", r->sectors_per_request);
    }
    if (r->flops > 0) {
        set_num(L, "flops", r->flops);
        set_num(L, "flops_per_s", r->flops / r->r.best_s);
        set_num(L, "intensity", r->flops / r->sector_bytes);
    }
    if (r->bank_ways) set_int(L, "bank_ways", r->bank_ways);
    if (r->kind == GPU_ACC_HOTCOLD) {
        lua_pushboolean(L, r->window_set);
        lua_setfield(L, -2, "window");
        set_int(L, "setaside_bytes", r->setaside);
    }
    lua_pushstring(L, "bytes_per_s = the bytes the kernel asked for / t (effective bandwidth); "
                      "sector_bytes = the 32-byte sectors its warps' requests touch (counted from "
                      "the addresses); GB/s = 1e9 B/s; best of N after warm-up");
    lua_setfield(L, -2, "convention");
    return 1;
}

/* A new job for `fn`, anchored on the stack, its request's kind set. */
static struct access_job *job(lua_State *L, enum gpu_access_kind kind)
{
    struct access_job *a = lua_newuserdatauv(L, sizeof *a, 0);
    memset(a, 0, sizeof *a);
    a->base.fn = access_fn;
    a->base.push = access_push;
    a->q.kind = kind;
    return a;
}

static uint64_t need_bytes(lua_State *L, const char *k, uint64_t min, const char *fn)
{
    uint64_t b = lt_opt_bytes(L, 1, k, 0);
    if (b < min) luaL_error(L, "%s: '%s' must be given and at least %d bytes", fn, k, (int)min);
    return b;
}

/* gpu.strided{stride=, offset=0, bytes=, trials=10} */
static int l_strided(lua_State *L)
{
    static const char *const keys[] = {"stride", "offset", "bytes", "trials", NULL};
    lt_opt_check(L, 1, "gpu.strided", false, keys);
    struct access_job *a = job(L, GPU_ACC_STRIDE);
    a->q.stride = (uint32_t)lt_opt_range(L, 1, "stride", 1, 1, 1024, "gpu.strided");
    a->q.offset = (uint32_t)lt_opt_range(L, 1, "offset", 0, 0, 1024, "gpu.strided");
    a->q.bytes = need_bytes(L, "bytes", 4096, "gpu.strided");
    a->q.trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, "gpu.strided");
    return lt_job_run(L, &a->base);
}

/* gpu.random{bytes=, trials=10} */
static int l_random(lua_State *L)
{
    static const char *const keys[] = {"bytes", "trials", NULL};
    lt_opt_check(L, 1, "gpu.random", false, keys);
    struct access_job *a = job(L, GPU_ACC_RANDOM);
    a->q.bytes = need_bytes(L, "bytes", 4096, "gpu.random");
    a->q.trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, "gpu.random");
    return lt_job_run(L, &a->base);
}

/* gpu.layout{layout="aos"|"soa", particles=, fields=8, trials=10} */
static int l_layout(lua_State *L)
{
    static const char *const keys[] = {"layout", "particles", "fields", "trials", NULL};
    static const char *const layouts[] = {"aos", "soa", NULL};
    lt_opt_check(L, 1, "gpu.layout", false, keys);
    struct access_job *a =
        job(L, lt_opt_enum(L, 1, "layout", -1, layouts, "gpu.layout") ? GPU_ACC_SOA : GPU_ACC_AOS);
    lua_Integer n = lt_opt_int(L, 1, "particles", 0);
    if (n < 1024 || n > ((lua_Integer)1 << 32))
        return luaL_error(L, "gpu.layout: 'particles' must be given, 1024..2^32");
    a->q.count = (uint64_t)n;
    a->q.fields = (uint32_t)lt_opt_range(L, 1, "fields", 8, 3, 64, "gpu.layout");
    a->q.trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, "gpu.layout");
    return lt_job_run(L, &a->base);
}

/* gpu.reread{bytes=, trials=10} */
static int l_reread(lua_State *L)
{
    static const char *const keys[] = {"bytes", "trials", NULL};
    lt_opt_check(L, 1, "gpu.reread", false, keys);
    struct access_job *a = job(L, GPU_ACC_REREAD);
    a->q.bytes = need_bytes(L, "bytes", 4096, "gpu.reread");
    a->q.trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, "gpu.reread");
    return lt_job_run(L, &a->base);
}

/* gpu.persist{hot=, cold=, window=true, hit_ratio=1, trials=10} */
static int l_persist(lua_State *L)
{
    static const char *const keys[] = {"hot", "cold", "window", "hit_ratio", "trials", NULL};
    lt_opt_check(L, 1, "gpu.persist", false, keys);
    struct access_job *a = job(L, GPU_ACC_HOTCOLD);
    a->q.hot_bytes = need_bytes(L, "hot", 4096, "gpu.persist");
    a->q.bytes = need_bytes(L, "cold", 4096, "gpu.persist");
    if (a->q.bytes < a->q.hot_bytes) return luaL_error(L, "gpu.persist: 'cold' must be at least 'hot'");
    a->q.window = lt_opt_bool(L, 1, "window", true);
    a->q.hit_ratio = lt_opt_num(L, 1, "hit_ratio", 1);
    if (!(a->q.hit_ratio > 0 && a->q.hit_ratio <= 1))
        return luaL_error(L, "gpu.persist: 'hit_ratio' must be in (0, 1]");
    a->q.trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, "gpu.persist");
    return lt_job_run(L, &a->base);
}

/* gpu.transpose{kernel="copy"|"naive"|"tiled"|"padded", n=, trials=10} */
static int l_transpose(lua_State *L)
{
    static const char *const keys[] = {"kernel", "n", "trials", NULL};
    static const char *const kernels[] = {"copy", "naive", "tiled", "padded", NULL};
    lt_opt_check(L, 1, "gpu.transpose", false, keys);
    struct access_job *a =
        job(L, GPU_ACC_TCOPY + lt_opt_enum(L, 1, "kernel", -1, kernels, "gpu.transpose"));
    lua_Integer n = lt_opt_int(L, 1, "n", 0);
    if (n < 64 || n > 65536 || n % 32)
        return luaL_error(L, "gpu.transpose: 'n' must be given, a multiple of 32 in 64..65536");
    a->q.count = (uint64_t)n;
    a->q.trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, "gpu.transpose");
    return lt_job_run(L, &a->base);
}

/* gpu.banks{stride=1, loads=65536, trials=10} */
static int l_banks(lua_State *L)
{
    static const char *const keys[] = {"stride", "loads", "trials", NULL};
    lt_opt_check(L, 1, "gpu.banks", true, keys);
    struct access_job *a = job(L, GPU_ACC_BANKS);
    a->q.stride = (uint32_t)lt_opt_range(L, 1, "stride", 1, 0, 1024, "gpu.banks");
    a->q.count = (uint64_t)lt_opt_range(L, 1, "loads", 65536, 1, 1 << 19, "gpu.banks");
    a->q.trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, "gpu.banks");
    return lt_job_run(L, &a->base);
}

/* gpu.fma{fmas=, bytes=, trials=10} */
static int l_fma(lua_State *L)
{
    static const char *const keys[] = {"fmas", "bytes", "trials", NULL};
    lt_opt_check(L, 1, "gpu.fma", false, keys);
    struct access_job *a = job(L, GPU_ACC_FMA);
    a->q.fmas = (uint32_t)lt_opt_range(L, 1, "fmas", 1, 1, 65536, "gpu.fma");
    a->q.bytes = need_bytes(L, "bytes", 4096, "gpu.fma");
    a->q.trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, "gpu.fma");
    return lt_job_run(L, &a->base);
}

/* gpu.pages{bytes=, step="2MiB", trials=5} */
static int l_pages(lua_State *L)
{
    static const char *const keys[] = {"bytes", "step", "trials", NULL};
    lt_opt_check(L, 1, "gpu.pages", false, keys);
    struct access_job *a = job(L, GPU_ACC_PAGES);
    a->q.bytes = need_bytes(L, "bytes", 256, "gpu.pages");
    a->q.step = lt_opt_bytes(L, 1, "step", 2u << 20);
    if (a->q.step < 128 || a->q.step % 128)
        return luaL_error(L, "gpu.pages: 'step' must be a multiple of 128 bytes");
    if (a->q.bytes / a->q.step < 2 || a->q.bytes / a->q.step > (1u << 22))
        return luaL_error(L, "gpu.pages: 'bytes' must hold 2 to 4194304 lines of 'step' bytes");
    a->q.trials = lt_opt_range(L, 1, "trials", 5, 1, GPU_MAX_CHASES, "gpu.pages");
    return lt_job_run(L, &a->base);
}

/* gpu.sectors(stride_bytes [, elem_bytes=4 [, offset_bytes=0]]) -> sectors per warp request */
static int l_sectors(lua_State *L)
{
    uint64_t stride = lt_arg_bytes(L, 1, 0);
    lua_Integer elem = luaL_optinteger(L, 2, 4);
    uint64_t offset = lua_isnoneornil(L, 3) ? 0 : lt_arg_bytes(L, 3, 0);
    luaL_argcheck(L, elem >= 1 && elem <= 16, 2, "element size 1..16 bytes");
    luaL_argcheck(L, stride <= ((uint64_t)1 << 40) && offset <= ((uint64_t)1 << 40), 1, "at most 1 TiB");
    lua_pushinteger(L, (lua_Integer)gpu_sectors_per_request(stride, (unsigned)elem, offset));
    return 1;
}

/* gpu.bank_ways(stride_words) -> ways a warp's shared load is split */
static int l_bank_ways(lua_State *L)
{
    lua_Integer s = luaL_checkinteger(L, 1);
    luaL_argcheck(L, s >= 0 && s <= (1 << 20), 1, "stride in words, 0..2^20");
    lua_pushinteger(L, (lua_Integer)gpu_bank_ways((uint64_t)s));
    return 1;
}

void lt_gpu_access_register(lua_State *L)
{
    static const luaL_Reg funcs[] = {
        {"strided", l_strided},     {"random", l_random}, {"layout", l_layout},
        {"reread", l_reread},       {"persist", l_persist}, {"transpose", l_transpose},
        {"banks", l_banks},         {"fma", l_fma},         {"pages", l_pages},
        {"sectors", l_sectors},     {"bank_ways", l_bank_ways}, {NULL, NULL}};
    luaL_setfuncs(L, funcs, 0);
}
