/* lt_alloc.c - the `alloc` module's allocators: PyTorch's caching allocator (the model in
 * gpu_caching.c) on top of the current backend or of a model device, a raw allocator that calls
 * the backend once per malloc, a stream-ordered pool model (cudaMallocAsync), and the ledger.
 * Options and statistics tables: lt_alloc_opts.c; trace replay and sizes: lt_alloc_trace.c.
 * Allocators are userdata owned by their VM: :close(), <close>, the GC, the end of the
 * experiment that made them, or the VM's end give every segment back to the device. Blocks are
 * userdata too; they are NOT freed by the GC (Lua's collector runs when it likes, and a block
 * vanishing mid-lesson would make the numbers lie): free them, or close the allocator. What an
 * allocator holds in C (the model's blocks, the raw allocator's table, a :record() trace) counts
 * against the sandbox's heap cap (host_bytes, account): a loop that drops blocks stops at the
 * cap instead of taking the machine's memory. */
#include "lt_int.h"
#include "lt_alloc_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_caching.h"
#include "gpu_err.h"
#include "gpu_ledger.h"
#include "gpu_mempool.h"
#include "lt_ledger.h"

#define ALLOC_MT "vramlab.allocator"
#define BLOCK_MT "vramlab.block"

struct lt_allocator;
struct mapbox;

/* What differs between the allocator kinds (nvtop's struct gpu_vendor; gpu_backend here): one
 * table each, at the end of this file. A NULL entry is a call the kind does not have, and the
 * call says so ("is for caching allocators"). */
struct lt_alloc_ops {
    const char *name;   /* "caching", "raw", "async" */
    bool streams;       /* malloc and free take a stream (the stream-ordered pool) */
    bool device_allocs; /* stats() counts its cudaMalloc calls */
    const char *seglabel[2]; /* a segment's name in a map, en and zh ("seg ", "段 ") */
    gpu_status (*malloc)(struct lt_allocator *a, uint64_t bytes, int stream, uint64_t *addr,
                         char *err, size_t n);
    /* the bytes it hands out now: a block's size as handed out (rounded up, a whole block) is
     * the change across a malloc, read outside the timed call. NULL: exactly what was asked */
    uint64_t (*in_use)(const struct lt_allocator *a);
    gpu_status (*free)(struct lt_allocator *a, uint64_t addr, int stream);
    void (*release)(struct lt_allocator *a); /* everything back to the device */
    size_t (*host_bytes)(const struct lt_allocator *a);
    void (*empty_cache)(struct lt_allocator *a); /* NULL: nothing is cached */
    void (*reset_peak)(struct lt_allocator *a);
    void (*push_stats)(lua_State *L, struct lt_allocator *a);
    /* the caching allocator's statistics, for the ledger; NULL: the ledger does not take it */
    void (*caching_stats)(const struct lt_allocator *a, struct gpu_caching_stats *s);
    /* its segments and blocks as tables (a_segments), the map freed by the box's __gc */
    void (*segments)(lua_State *L, struct lt_allocator *a, struct mapbox *box);
    bool caching; /* the caching allocator: :summary(), :record(), :trace() */
};
static const struct lt_alloc_ops caching_ops, raw_ops, async_ops;

struct raw_ent {
    uint64_t addr, size;
};

struct lt_allocator {
    const struct lt_alloc_ops *ops;
    bool model;        /* a model device (no backend) */
    bool closed;
    struct lt_vm *vm;
    struct lt_res res; /* the VM's list of what it holds (lt_res) */
    uint64_t capacity; /* model capacity, or the device's total when created */
    uint64_t cap_bytes;/* on a device: the most this allocator may hold (experiment cap) */
    uint64_t held;     /* bytes it holds from the device now */
    bool cap_is_fraction; /* the cap is the caching allocator's memory fraction */
    /* timing, measured on the host with gpu_now() */
    double malloc_s, free_s, dev_alloc_s, dev_free_s;
    uint64_t dev_allocs, dev_frees;
    /* each device call's time, for the first call and the median apart: the first cudaMalloc of
     * a size class also grows the driver's own state and is not a typical call */
    struct lt_call_times { double t[256]; int n; } alloc_t, free_t;
    /* the caching allocator */
    struct gpu_caching *c;
    struct gpu_trace_buf rec;
    bool recording;
    /* the raw allocator: one cudaMalloc per block */
    struct gpu_model_dev *mdev;
    struct raw_ent *raw;
    size_t nraw, capraw;
    struct gpu_caching_stats rst; /* the raw allocator's statistics, same shape */
    /* the stream-ordered pool */
    struct gpu_mempool *pool;
    size_t charged; /* host bytes counted against the VM's heap cap (account) */
};

struct lt_block {
    uint64_t addr, size, req;
    int stream;
    bool live;
    struct lt_allocator *a; /* valid while the block's uservalue anchors the allocator */
};

/* ---- the device adapter: gpu_seg_ops over the runtime's backend -------------------------- */

static struct gpu_dev *dev_of(const struct lt_allocator *a) { return a->vm->rt->dev; }

static void keep_time(struct lt_call_times *c, double t)
{
    if (c->n < (int)(sizeof c->t / sizeof c->t[0])) c->t[c->n++] = t;
}

static gpu_status ad_alloc(void *ctx, uint64_t bytes, uint64_t *addr)
{
    struct lt_allocator *a = ctx;
    struct lt_runtime *rt = a->vm->rt;
    if (a->held + bytes > a->cap_bytes) return GPU_ERR_NOMEM; /* the experiment cap */
    void *p = NULL;
    pthread_mutex_lock(&rt->devlock);
    double t0 = gpu_now();
    gpu_status st = gpu_alloc_uncapped(rt->dev, bytes, &p);
    double dt = gpu_now() - t0;
    a->dev_alloc_s += dt;
    if (st == GPU_OK) keep_time(&a->alloc_t, dt);
    pthread_mutex_unlock(&rt->devlock);
    if (st != GPU_OK) return st;
    a->dev_allocs++;
    a->held += bytes;
    *addr = (uint64_t)(uintptr_t)p;
    return GPU_OK;
}

static void ad_free(void *ctx, uint64_t addr, uint64_t bytes)
{
    struct lt_allocator *a = ctx;
    struct lt_runtime *rt = a->vm->rt;
    pthread_mutex_lock(&rt->devlock);
    double t0 = gpu_now();
    gpu_free(rt->dev, (void *)(uintptr_t)addr, bytes);
    double dt = gpu_now() - t0;
    a->dev_free_s += dt;
    keep_time(&a->free_t, dt);
    pthread_mutex_unlock(&rt->devlock);
    a->dev_frees++;
    a->held -= bytes <= a->held ? bytes : a->held;
}

static gpu_status ad_info(void *ctx, uint64_t *free_b, uint64_t *total_b)
{
    struct lt_allocator *a = ctx;
    struct lt_runtime *rt = a->vm->rt;
    pthread_mutex_lock(&rt->devlock);
    gpu_status st = gpu_mem_info(rt->dev, free_b, total_b);
    pthread_mutex_unlock(&rt->devlock);
    return st;
}

static const struct gpu_seg_ops ad_ops = {ad_alloc, ad_free, ad_info, NULL};

/* ---- lifetime ------------------------------------------------------------------------------ */

static void raw_release_all(struct lt_allocator *a)
{
    for (size_t i = 0; i < a->nraw; i++) {
        if (a->model) gpu_model_dev_ops.seg_free(a->mdev, a->raw[i].addr, a->raw[i].size);
        else ad_free(a, a->raw[i].addr, a->raw[i].size);
    }
    a->nraw = 0;
}

/* Host memory the allocator's C structures take, estimated from what it holds (blocks at their
 * peak: the block slabs are kept until the allocator closes). */
#define HOST_PER_BLOCK 160 /* a model block: the struct, its index entries, slab slack */
static size_t caching_host_bytes(const struct lt_allocator *a)
{
    struct gpu_caching_stats s;
    gpu_caching_stats(a->c, &s);
    uint64_t blocks = s.allocation[GPU_CACHE_ALL].peak + s.inactive_split[GPU_CACHE_ALL].peak +
                      s.segment[GPU_CACHE_ALL].peak;
    return (size_t)(blocks * HOST_PER_BLOCK) + a->rec.cap;
}

/* + the model's free list; x2: the table grows by doubling */
static size_t raw_host_bytes(const struct lt_allocator *a) { return a->nraw * 2 * (sizeof *a->raw + 32); }

static size_t async_host_bytes(const struct lt_allocator *a)
{
    struct gpu_mempool_stats s;
    gpu_mempool_stats(a->pool, &s);
    return (size_t)((s.allocs - s.frees + s.chunks + 1) * HOST_PER_BLOCK);
}

static size_t host_bytes(const struct lt_allocator *a) { return a->ops->host_bytes(a); }

/* Count the allocator's host memory against the VM's heap cap; false (nothing counted) when it
 * would go past it. */
static bool account(struct lt_allocator *a)
{
    size_t now = a->closed ? 0 : host_bytes(a);
    if (!lt_vm_mem_add(a->vm, (long long)now - (long long)a->charged)) return false;
    a->charged = now;
    return true;
}

static void caching_release(struct lt_allocator *a)
{
    gpu_caching_record(a->c, NULL, NULL);
    gpu_caching_destroy(a->c); /* every segment back to the device, live blocks too */
    a->c = NULL;
    gpu_trace_buf_free(&a->rec);
}

static void raw_release(struct lt_allocator *a)
{
    raw_release_all(a);
    free(a->raw);
    a->raw = NULL;
    gpu_model_dev_free(a->mdev);
    a->mdev = NULL;
}

static void async_release(struct lt_allocator *a)
{
    gpu_mempool_destroy(a->pool);
    a->pool = NULL;
}

static void alloc_release(struct lt_allocator *a)
{
    if (a->closed) return;
    a->closed = true;
    a->ops->release(a);
    account(a); /* closed: back to nothing */
    if (a->vm) lt_res_remove(a->vm, &a->res);
}

static void alloc_release_res(struct lt_res *r)
{
    alloc_release((struct lt_allocator *)(void *)((char *)r - offsetof(struct lt_allocator, res)));
}

static struct lt_allocator *check_alloc(lua_State *L, int i)
{
    struct lt_allocator *a = luaL_checkudata(L, i, ALLOC_MT);
    if (a->closed)
        luaL_error(L, "allocator used after :close() (or after the experiment that made it ended)");
    return a;
}

static struct lt_allocator *new_alloc(lua_State *L, const struct lt_alloc_ops *ops)
{
    struct lt_vm *vm = lt_vm_of(L);
    struct lt_allocator *a = lua_newuserdatauv(L, sizeof *a, 1);
    memset(a, 0, sizeof *a);
    a->ops = ops;
    a->closed = true; /* until set up: __gc then has nothing to do */
    luaL_setmetatable(L, ALLOC_MT);
    lua_newtable(L); /* uservalue 1: address -> tag */
    lua_setiuservalue(L, -2, 1);
    a->vm = vm;
    return a;
}

static void link_alloc(struct lt_allocator *a)
{
    struct lt_vm *vm = a->vm;
    a->closed = false;
    lt_res_add(vm, &a->res, alloc_release_res); /* closed with the run that made it */
    account(a);
}

/* ---- options ------------------------------------------------------------------------------- */

/* The device's total and the experiment cap (cap fraction x free memory now). */
static void device_budget(struct lt_allocator *a, uint64_t *total)
{
    struct lt_runtime *rt = a->vm->rt;
    uint64_t fr = 0, tot = 0;
    pthread_mutex_lock(&rt->devlock);
    if (gpu_mem_info(rt->dev, &fr, &tot) != GPU_OK) fr = tot = 0;
    a->cap_bytes = gpu_alloc_budget(rt->dev);
    pthread_mutex_unlock(&rt->devlock);
    *total = tot;
}

/* ---- constructors -------------------------------------------------------------------------- */

static int make_caching(lua_State *L, bool model)
{
    struct gpu_caching_opts o;
    char err[256];
    lt_alloc_read_opts(L, 1, &o, model ? "alloc.model" : "alloc.caching");
    uint64_t cap = lt_alloc_opt_capacity(L, 1, 0);
    if (model && !cap) return luaL_error(L, "alloc.model: give a capacity, e.g. {capacity = \"80GiB\"}");
    if (cap) model = true;
    struct lt_allocator *a = new_alloc(L, &caching_ops);
    a->model = model;
    gpu_status st;
    if (model) {
        a->capacity = a->cap_bytes = cap;
        st = gpu_caching_new_model(&o, cap, &a->c, err, sizeof err);
    } else {
        device_budget(a, &a->capacity);
        /* The experiment cap, as PyTorch's per-process memory fraction: a segment that would
         * take the allocator past it fails like an OOM ("X allowed;" in the message). */
        if (a->capacity) {
            double f = (double)a->cap_bytes / (double)a->capacity;
            if (f <= 0) f = 1e-12;
            if (o.memory_fraction <= 0 || f < o.memory_fraction) {
                o.memory_fraction = f;
                a->cap_is_fraction = true;
            }
        }
        st = gpu_caching_new(&o, &ad_ops, a, &a->c, err, sizeof err);
    }
    if (st != GPU_OK) return luaL_error(L, "alloc: %s", err);
    link_alloc(a);
    return 1;
}

static int l_caching(lua_State *L) { return make_caching(L, false); }
static int l_model(lua_State *L) { return make_caching(L, true); }

static int l_raw(lua_State *L)
{
    static const char *const keys[] = {"capacity", NULL};
    lt_opt_check(L, 1, "alloc.raw", true, keys);
    uint64_t cap = lt_alloc_opt_capacity(L, 1, 0);
    struct lt_allocator *a = new_alloc(L, &raw_ops);
    if (cap) {
        a->model = true;
        a->capacity = a->cap_bytes = cap;
        if (gpu_model_dev_new(cap, &a->mdev) != GPU_OK) return luaL_error(L, "alloc.raw: out of host memory");
    } else {
        device_budget(a, &a->capacity);
    }
    link_alloc(a);
    return 1;
}

static uint64_t opt_threshold(lua_State *L, int t, const char *k, uint64_t def)
{
    lt_opt_field(L, t, k);
    bool max = lua_type(L, -1) == LUA_TSTRING && !strcmp(lua_tostring(L, -1), "max");
    lua_pop(L, 1);
    return max ? GPU_MEMPOOL_NO_RELEASE : lt_opt_bytes(L, t, k, def);
}

static int l_async_pool(lua_State *L)
{
    static const char *const keys[] = {"capacity", "release_threshold",
                                       "reuse_follow_event_dependencies",
                                       "reuse_allow_opportunistic",
                                       "reuse_allow_internal_dependencies", NULL};
    lt_opt_check(L, 1, "alloc.async_pool", false, keys);
    struct gpu_mempool_opts o;
    uint64_t cap = lt_alloc_opt_capacity(L, 1, 0);
    if (!cap) return luaL_error(L, "alloc.async_pool: give a capacity, e.g. {capacity = \"24GiB\"}");
    gpu_mempool_opts_default(&o, cap);
    o.release_threshold = opt_threshold(L, 1, "release_threshold", 0);
    o.reuse_follow_event_dependencies = lt_opt_bool(L, 1, "reuse_follow_event_dependencies", true);
    o.reuse_allow_opportunistic = lt_opt_bool(L, 1, "reuse_allow_opportunistic", true);
    o.reuse_allow_internal_dependencies =
        lt_opt_bool(L, 1, "reuse_allow_internal_dependencies", true);
    struct lt_allocator *a = new_alloc(L, &async_ops);
    a->model = true;
    a->capacity = a->cap_bytes = cap;
    if (gpu_mempool_new(&o, &a->pool) != GPU_OK) return luaL_error(L, "alloc.async_pool: out of host memory");
    link_alloc(a);
    return 1;
}

/* ---- blocks -------------------------------------------------------------------------------- */

static struct lt_block *push_block(lua_State *L, int ai, uint64_t addr, uint64_t size,
                                   uint64_t req, int stream)
{
    struct lt_block *b = lua_newuserdatauv(L, sizeof *b, 1);
    b->addr = addr, b->size = size, b->req = req, b->stream = stream, b->live = true;
    b->a = lua_touserdata(L, ai);
    lua_pushvalue(L, ai);
    lua_setiuservalue(L, -2, 1); /* the block keeps its allocator alive */
    luaL_setmetatable(L, BLOCK_MT);
    return b;
}

static struct lt_block *check_block(lua_State *L, int i)
{
    struct lt_block *b = luaL_checkudata(L, i, BLOCK_MT);
    if (b->a->closed) luaL_error(L, "block of a closed allocator");
    return b;
}

static int b_size(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)check_block(L, 1)->size);
    return 1;
}

static int b_requested(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)check_block(L, 1)->req);
    return 1;
}

static int b_address(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)check_block(L, 1)->addr);
    return 1;
}

static int b_live(lua_State *L)
{
    struct lt_block *b = luaL_checkudata(L, 1, BLOCK_MT);
    lua_pushboolean(L, b->live && !b->a->closed);
    return 1;
}

static int b_tostring(lua_State *L)
{
    struct lt_block *b = luaL_checkudata(L, 1, BLOCK_MT);
    char sz[32];
    gpu_cache_format_size(b->size, sz, sizeof sz);
    /* hex by hand: lua_pushfstring has no %llx */
    char hex[24];
    snprintf(hex, sizeof hex, "%llx", (unsigned long long)b->addr);
    lua_pushfstring(L, "block %s at 0x%s (%s)", sz, hex, b->live && !b->a->closed ? "live" : "freed");
    return 1;
}

static void tag_set(lua_State *L, int ai, uint64_t addr, int vidx)
{
    lua_getiuservalue(L, ai, 1);
    lua_pushvalue(L, vidx);
    lua_rawseti(L, -2, (lua_Integer)addr);
    lua_pop(L, 1);
}

static void tag_clear(lua_State *L, int ai, uint64_t addr)
{
    lua_getiuservalue(L, ai, 1);
    lua_pushnil(L);
    lua_rawseti(L, -2, (lua_Integer)addr);
    lua_pop(L, 1);
}

/* ---- raw allocator ------------------------------------------------------------------------- */

static void raw_stat(struct lt_allocator *a, uint64_t size, int sign)
{
    int pool = size <= GPU_CACHE_SMALL_SIZE ? GPU_CACHE_SMALL : GPU_CACHE_LARGE;
    struct gpu_cache_stat *arrs[] = {a->rst.allocation, a->rst.segment, a->rst.active};
    struct gpu_cache_stat *bytes[] = {a->rst.allocated_bytes, a->rst.reserved_bytes,
                                      a->rst.active_bytes, a->rst.requested_bytes};
    for (int k = 0; k < 2; k++) {
        int p = k ? pool : GPU_CACHE_ALL;
        for (size_t i = 0; i < 3; i++) {
            struct gpu_cache_stat *s = &arrs[i][p];
            if (sign > 0) {
                s->current++, s->allocated++;
                if (s->current > s->peak) s->peak = s->current;
            } else {
                s->current--, s->freed++;
            }
        }
        for (size_t i = 0; i < 4; i++) {
            struct gpu_cache_stat *s = &bytes[i][p];
            if (sign > 0) {
                s->current += size, s->allocated += size;
                if (s->current > s->peak) s->peak = s->current;
            } else {
                s->current -= size, s->freed += size;
            }
        }
    }
    if (sign > 0) a->rst.num_device_alloc++;
    else a->rst.num_device_free++;
}

static void raw_oom(struct lt_allocator *a, uint64_t bytes, bool capped, char *err, size_t n)
{
    char want[32], fr[32], tot[32], capb[32];
    uint64_t f = 0, t = 0;
    if (a->model) gpu_model_dev_ops.mem_info(a->mdev, &f, &t);
    else ad_info(a, &f, &t);
    gpu_cache_format_size(bytes, want, sizeof want);
    gpu_cache_format_size(f, fr, sizeof fr);
    gpu_cache_format_size(t, tot, sizeof tot);
    gpu_cache_format_size(a->cap_bytes, capb, sizeof capb);
    bool zh = !strcmp(lt_runtime_lang(a->vm->rt), "zh");
    if (capped && zh)
        gpu_errf(err, n, "cudaMalloc(%s)：被拒绝：这个分配器最多只能持有 %s（实验上限：创建它时"
                 "空闲显存的一部分）", want, capb);
    else if (capped)
        gpu_errf(err, n, "cudaMalloc(%s): refused: this allocator may hold at most %s (the "
                 "experiment cap: a share of the free memory when it was created)", want, capb);
    else if (zh)
        gpu_errf(err, n, "CUDA 错误：显存不足（cudaMalloc %s；GPU 空闲 %s，共 %s）", want, fr, tot);
    else
        gpu_errf(err, n, "CUDA error: out of memory (cudaMalloc of %s; the GPU has %s free of "
                 "%s)", want, fr, tot);
}

static gpu_status raw_malloc(struct lt_allocator *a, uint64_t bytes, uint64_t *addr, char *err,
                             size_t n)
{
    if (a->nraw == a->capraw) {
        size_t nc = a->capraw ? a->capraw * 2 : 64;
        struct raw_ent *r = realloc(a->raw, nc * sizeof *r);
        if (!r) {
            gpu_errf(err, n, "out of host memory");
            return GPU_ERR_HOST_NOMEM;
        }
        a->raw = r, a->capraw = nc;
    }
    gpu_status st;
    if (a->model) {
        st = gpu_model_dev_ops.seg_alloc(a->mdev, bytes, addr);
        a->dev_allocs += st == GPU_OK;
    } else {
        st = ad_alloc(a, bytes, addr);
    }
    if (st == GPU_ERR_NOMEM) {
        raw_oom(a, bytes, !a->model && a->held + bytes > a->cap_bytes, err, n);
        a->rst.num_ooms++;
        return st;
    }
    if (st != GPU_OK) {
        char why[512];
        lt_dev_why(a->vm->rt, dev_of(a), st, why, sizeof why);
        gpu_errf(err, n, strcmp(lt_runtime_lang(a->vm->rt), "zh") ? "cudaMalloc failed: %s"
                                                                   : "cudaMalloc 失败：%s", why);
        return st;
    }
    a->raw[a->nraw++] = (struct raw_ent){*addr, bytes};
    raw_stat(a, bytes, +1);
    return GPU_OK;
}

static gpu_status raw_free(struct lt_allocator *a, uint64_t addr)
{
    for (size_t i = a->nraw; i-- > 0;) {
        if (a->raw[i].addr != addr) continue;
        uint64_t size = a->raw[i].size;
        if (a->model) {
            gpu_model_dev_ops.seg_free(a->mdev, addr, size);
            a->dev_frees++;
        } else {
            ad_free(a, addr, size);
        }
        a->raw[i] = a->raw[--a->nraw];
        raw_stat(a, size, -1);
        return GPU_OK;
    }
    return GPU_ERR_ARG;
}

/* ---- malloc / free ------------------------------------------------------------------------- */

static int stream_arg(lua_State *L, int i, int def)
{
    lua_Integer s = luaL_optinteger(L, i, def);
    luaL_argcheck(L, s >= 0 && s < GPU_MEMPOOL_STREAMS, i, "stream must be 0..15");
    return (int)s;
}

static uint64_t caching_in_use(const struct lt_allocator *a)
{
    struct gpu_caching_stats s;
    gpu_caching_stats(a->c, &s);
    return s.allocated_bytes[GPU_CACHE_ALL].current;
}

static uint64_t async_in_use(const struct lt_allocator *a)
{
    struct gpu_mempool_stats s;
    gpu_mempool_stats(a->pool, &s);
    return s.used;
}

/* each kind's malloc and free (raw_malloc and raw_free above) */
static gpu_status caching_malloc(struct lt_allocator *a, uint64_t bytes, int stream, uint64_t *addr,
                                 char *err, size_t n)
{
    (void)stream;
    return gpu_caching_malloc(a->c, bytes, addr, err, n);
}

static gpu_status caching_free(struct lt_allocator *a, uint64_t addr, int stream)
{
    (void)stream;
    return gpu_caching_free(a->c, addr);
}

static gpu_status raw_malloc_op(struct lt_allocator *a, uint64_t bytes, int stream, uint64_t *addr,
                                char *err, size_t n)
{
    (void)stream;
    return raw_malloc(a, bytes, addr, err, n);
}

static gpu_status raw_free_op(struct lt_allocator *a, uint64_t addr, int stream)
{
    (void)stream;
    return raw_free(a, addr);
}

static gpu_status async_malloc(struct lt_allocator *a, uint64_t bytes, int stream, uint64_t *addr,
                               char *err, size_t n)
{
    return gpu_mempool_malloc(a->pool, bytes, stream, addr, err, n);
}

static gpu_status async_free(struct lt_allocator *a, uint64_t addr, int stream)
{
    return gpu_mempool_free(a->pool, addr, stream);
}

static int a_malloc(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    uint64_t bytes = lt_alloc_bytes_arg(L, 2);
    char err[768] = "";
    uint64_t addr = 0, size = bytes;
    int stream = 0;
    bool tagged = lua_type(L, 3) == LUA_TSTRING;
    if (a->ops->streams && !tagged) stream = stream_arg(L, 3, 0);
    else if (!lua_isnoneornil(L, 3) && !tagged)
        luaL_argerror(L, 3, "a tag (string) naming the block in memory maps");
    uint64_t before = a->ops->in_use ? a->ops->in_use(a) : 0;
    double t0 = gpu_now();
    gpu_status st = a->ops->malloc(a, bytes, stream, &addr, err, sizeof err);
    a->malloc_s += gpu_now() - t0;
    if (st == GPU_OK && a->ops->in_use) size = a->ops->in_use(a) - before;
    if (!account(a)) { /* past the heap cap: give the block back, then stop as Lua would */
        if (st == GPU_OK) a->ops->free(a, addr, stream);
        account(a);
        return lt_vm_mem_stop(L);
    }
    if (st != GPU_OK) {
        if (st == GPU_ERR_NOMEM && a->cap_is_fraction && strstr(err, "allowed;")) {
            size_t l = strlen(err);
            bool zh = !strcmp(lt_vm_of(L)->rt->lang, "zh"); /* the annotation in the learner's language */
            snprintf(err + l, sizeof err - l,
                     zh ? " [vramlab：“allowed” 是实验的上限，即创建这个分配器时空闲显存的 %.0f%%]"
                        : " [vramlab: \"allowed\" is the experiment cap, %.0f%% "
                          "of the free memory when this allocator was created]",
                     dev_of(a)->cap_fraction * 100);
        }
        lua_pushnil(L);
        lua_pushstring(L, err[0] ? err : gpu_status_str(st));
        return 2;
    }
    push_block(L, 1, addr, size, bytes, stream);
    if (tagged) tag_set(L, 1, addr, 3);
    return 1;
}

static int a_free(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    struct lt_block *b = luaL_checkudata(L, 2, BLOCK_MT);
    if (b->a != a) return luaL_argerror(L, 2, "the block belongs to another allocator");
    if (!b->live) return luaL_error(L, "double free: this block was already freed");
    int stream = a->ops->streams ? stream_arg(L, 3, b->stream) : 0;
    double t0 = gpu_now();
    gpu_status st = a->ops->free(a, b->addr, stream);
    a->free_s += gpu_now() - t0;
    if (st != GPU_OK) return luaL_error(L, "free of a block the allocator does not know");
    b->live = false;
    tag_clear(L, 1, b->addr);
    if (!account(a)) return lt_vm_mem_stop(L); /* a :record() trace grew past the cap */
    return 0;
}

static int b_free(lua_State *L)
{
    lua_settop(L, 2);
    struct lt_block *b = check_block(L, 1);
    lua_getiuservalue(L, 1, 1); /* the allocator */
    lua_pushcfunction(L, a_free);
    lua_insert(L, -2);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, lua_isnoneornil(L, 2) ? 2 : 3, 0);
    (void)b;
    return 0;
}

static int a_empty_cache(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    if (a->ops->empty_cache) a->ops->empty_cache(a);
    if (!account(a)) return lt_vm_mem_stop(L); /* a :record() trace grew past the cap */
    return 0;
}

static void caching_empty_cache(struct lt_allocator *a) { gpu_caching_empty_cache(a->c); }
static void async_empty_cache(struct lt_allocator *a) { gpu_mempool_trim_to(a->pool, 0); }
static void caching_reset_peak(struct lt_allocator *a) { gpu_caching_reset_peak(a->c); }
static void async_reset_peak(struct lt_allocator *a) { gpu_mempool_reset_high(a->pool); }

static void raw_reset_peak(struct lt_allocator *a)
{
    struct gpu_cache_stat *all[] = {a->rst.allocation,      a->rst.segment,        a->rst.active,
                                    a->rst.allocated_bytes, a->rst.reserved_bytes, a->rst.active_bytes,
                                    a->rst.requested_bytes};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        for (int p = 0; p < GPU_CACHE_NPOOL; p++) all[i][p].peak = all[i][p].current;
}

static int a_reset_peak(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    a->ops->reset_peak(a);
    return 0;
}

static int a_close(lua_State *L)
{
    struct lt_allocator *a = luaL_checkudata(L, 1, ALLOC_MT);
    alloc_release(a);
    return 0;
}

static int a_tostring(lua_State *L)
{
    struct lt_allocator *a = luaL_checkudata(L, 1, ALLOC_MT);
    lua_pushfstring(L, "%s allocator (%s%s)", a->ops->name,
                    a->model ? "model device" : dev_of(a)->be->name, a->closed ? ", closed" : "");
    return 1;
}

/* ---- statistics ---------------------------------------------------------------------------- */

static void caching_stats(const struct lt_allocator *a, struct gpu_caching_stats *s)
{
    gpu_caching_stats(a->c, s);
}

static void raw_stats(const struct lt_allocator *a, struct gpu_caching_stats *s) { *s = a->rst; }

static void push_caching_stats(lua_State *L, struct lt_allocator *a)
{
    struct gpu_caching_stats s;
    a->ops->caching_stats(a, &s);
    lt_alloc_push_stats(L, &s);
    lt_seti(L, "oversize_allocations", s.oversize_allocations.current);
    lt_seti(L, "oversize_segments", s.oversize_segments.current);
    if (a->ops->caching) {
        struct gpu_caching_opts o;
        char conf[160];
        gpu_caching_get_opts(a->c, &o);
        if (o.max_split_size != GPU_CACHE_NO_SPLIT_LIMIT) lt_seti(L, "max_split_size", o.max_split_size);
        lt_alloc_conf_text(&o, conf, sizeof conf);
        lua_pushstring(L, conf);
        lua_setfield(L, -2, "conf");
        lua_pushboolean(L, o.expandable_segments);
        lua_setfield(L, -2, "expandable_segments");
        if (o.memory_fraction > 0) lt_seti(L, "allowed", (uint64_t)(o.memory_fraction * (double)a->capacity));
    }
}

/* <what>_first_seconds and <what>_median_seconds (of the first 256 calls), when there were any */
static void push_call_times(lua_State *L, const char *what, const struct lt_call_times *c)
{
    char k[64];
    double t[256];
    if (!c->n) return;
    memcpy(t, c->t, (size_t)c->n * sizeof t[0]);
    snprintf(k, sizeof k, "%s_first_seconds", what);
    lt_setn(L, k, c->t[0]);
    snprintf(k, sizeof k, "%s_median_seconds", what);
    lt_setn(L, k, gpu_median(t, c->n));
}

static void async_push_stats(lua_State *L, struct lt_allocator *a)
{
    struct gpu_mempool_stats s;
    gpu_mempool_stats(a->pool, &s);
    lua_createtable(L, 0, 24);
    lt_seti(L, "reserved", s.reserved);
    lt_seti(L, "peak_reserved", s.reserved_high);
    lt_seti(L, "used", s.used);
    lt_seti(L, "allocated", s.used);
    lt_seti(L, "peak_allocated", s.used_high);
    lt_seti(L, "alloc_count", s.allocs);
    lt_seti(L, "free_count", s.frees);
    lt_seti(L, "chunk_maps", s.chunk_maps);
    lt_seti(L, "chunk_unmaps", s.chunk_unmaps);
    lt_seti(L, "num_device_alloc", s.chunk_maps);
    lt_seti(L, "num_device_free", s.chunk_unmaps);
    lt_seti(L, "reused", s.reused);
    lt_seti(L, "internal_deps", s.internal_deps);
    lt_seti(L, "num_ooms", s.ooms);
    lt_seti(L, "segments", s.chunks);
    if (s.release_threshold == GPU_MEMPOOL_NO_RELEASE) lua_pushliteral(L, "max");
    else lua_pushinteger(L, (lua_Integer)s.release_threshold);
    lua_setfield(L, -2, "release_threshold");
}

static int a_stats(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    a->ops->push_stats(L, a);
    lua_pushstring(L, a->ops->name);
    lua_setfield(L, -2, "kind");
    lua_pushstring(L, a->model ? "model" : dev_of(a)->be->name);
    lua_setfield(L, -2, "backend");
    bool sim = a->model || dev_of(a)->info.simulated;
    lua_pushboolean(L, sim);
    lua_setfield(L, -2, "simulated");
    lt_seti(L, "capacity", a->capacity);
    if (!a->model) lt_seti(L, "cap_bytes", a->cap_bytes);
    lt_setn(L, "malloc_seconds", a->malloc_s);
    lt_setn(L, "free_seconds", a->free_s);
    lt_seti(L, "device_allocs", a->ops->device_allocs ? a->dev_allocs : 0);
    /* device call times are a measurement only on a real GPU */
    if (!sim) {
        lt_setn(L, "device_alloc_seconds", a->dev_alloc_s);
        lt_setn(L, "device_free_seconds", a->dev_free_s);
        push_call_times(L, "device_alloc", &a->alloc_t);
        push_call_times(L, "device_free", &a->free_t);
    }
    return 1;
}

static int a_summary(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    if (!a->ops->caching)
        return luaL_error(L, ":summary() is memory_summary() of the caching allocator");
    size_t need = gpu_caching_summary(a->c, NULL, 0) + 1;
    lt_vm_charge(L, (long long)need); /* formatted in C, twice */
    luaL_Buffer b; /* in Lua's memory: a memory stop on the way leaks nothing */
    char *buf = luaL_buffinitsize(L, &b, need);
    gpu_caching_summary(a->c, buf, need);
    luaL_pushresultsize(&b, strlen(buf));
    return 1;
}

/* tag of a block, or nil */
static void push_tag(lua_State *L, int ai, uint64_t addr)
{
    lua_getiuservalue(L, ai, 1);
    lua_rawgeti(L, -1, (lua_Integer)addr);
    lua_remove(L, -2);
}

/* A segment map from the gpu/ layer, kept in a userdata whose __gc frees it: an error raised
 * while the tables are built from it (the heap cap) leaks nothing. */
#define MAPBOX_MT "vramlab.segment_map"
struct mapbox {
    bool live;
    struct gpu_cache_map c; /* one of the two, the other zeroed: its free is a no-op */
    struct gpu_mempool_map p;
};

static int mapbox_gc(lua_State *L)
{
    struct mapbox *m = luaL_checkudata(L, 1, MAPBOX_MT);
    if (m->live) {
        gpu_cache_map_free(&m->c);
        gpu_mempool_map_free(&m->p);
    }
    m->live = false;
    return 0;
}

static struct mapbox *new_mapbox(lua_State *L)
{
    struct mapbox *m = lua_newuserdatauv(L, sizeof *m, 0);
    memset(m, 0, sizeof *m);
    luaL_setmetatable(L, MAPBOX_MT);
    return m;
}

static int raw_by_addr(const void *x, const void *y)
{
    const struct raw_ent *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Each kind's segments and blocks, into the table on top (the allocator at index 1). */
static void caching_segments(lua_State *L, struct lt_allocator *a, struct mapbox *box)
{
    struct gpu_cache_map m;
    if (gpu_caching_segments(a->c, &m) != GPU_OK) {
        luaL_error(L, "out of host memory");
        return;
    }
    box->c = m, box->live = true;
    for (size_t s = 0; s < m.nsegs; s++) {
        const struct gpu_cache_seg_info *g = &m.segs[s];
        lua_createtable(L, 0, 8);
        lt_seti(L, "address", g->addr);
        lt_seti(L, "size", g->size);
        lt_seti(L, "allocated", g->allocated);
        lt_seti(L, "requested", g->requested);
        lua_pushstring(L, g->pool == GPU_CACHE_SMALL ? "small" : "large");
        lua_setfield(L, -2, "pool");
        lua_pushboolean(L, g->expandable);
        lua_setfield(L, -2, "expandable");
        lua_createtable(L, (int)g->nblocks, 0);
        for (size_t i = 0; i < g->nblocks; i++) {
            const struct gpu_cache_block_info *bk = &m.blocks[g->first_block + i];
            lua_createtable(L, 0, 6);
            lt_seti(L, "address", bk->addr);
            lt_seti(L, "offset", bk->offset);
            lt_seti(L, "size", bk->size);
            lt_seti(L, "requested", bk->requested);
            lua_pushboolean(L, bk->allocated);
            lua_setfield(L, -2, "allocated");
            if (bk->allocated) {
                push_tag(L, 1, bk->addr);
                lua_setfield(L, -2, "tag");
            }
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        lua_setfield(L, -2, "blocks");
        lua_rawseti(L, -2, (lua_Integer)s + 1);
    }
}

static void raw_segments(lua_State *L, struct lt_allocator *a, struct mapbox *box)
{
    (void)box;
    /* one segment per cudaMalloc, in address order */
    struct raw_ent *e = lua_newuserdatauv(L, (a->nraw ? a->nraw : 1) * sizeof *e, 0);
    lua_insert(L, -2); /* below the result: collected with the stack */
    memcpy(e, a->raw, a->nraw * sizeof *e);
    qsort(e, a->nraw, sizeof *e, raw_by_addr); /* frees reorder the table: no insertion sort */
    for (size_t i = 0; i < a->nraw; i++) {
        lua_createtable(L, 0, 6);
        lt_seti(L, "address", e[i].addr);
        lt_seti(L, "size", e[i].size);
        lt_seti(L, "allocated", e[i].size);
        lt_seti(L, "requested", e[i].size);
        lua_pushstring(L, e[i].size <= GPU_CACHE_SMALL_SIZE ? "small" : "large");
        lua_setfield(L, -2, "pool");
        lua_createtable(L, 1, 0);
        lua_createtable(L, 0, 6);
        lt_seti(L, "address", e[i].addr);
        lt_seti(L, "offset", 0);
        lt_seti(L, "size", e[i].size);
        lt_seti(L, "requested", e[i].size);
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "allocated");
        push_tag(L, 1, e[i].addr);
        lua_setfield(L, -2, "tag");
        lua_rawseti(L, -2, 1);
        lua_setfield(L, -2, "blocks");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
}

static void async_segments(lua_State *L, struct lt_allocator *a, struct mapbox *box)
{
    struct gpu_mempool_map m;
    if (gpu_mempool_segments(a->pool, &m) != GPU_OK) {
        luaL_error(L, "out of host memory");
        return;
    }
    box->p = m, box->live = true;
    for (size_t s = 0; s < m.nchunks; s++) {
        const struct gpu_mempool_chunk *c = &m.chunks[s];
        lua_createtable(L, 0, 6);
        lt_seti(L, "address", c->addr);
        lt_seti(L, "size", c->size);
        lua_pushliteral(L, "pool");
        lua_setfield(L, -2, "pool");
        uint64_t al = 0;
        lua_createtable(L, (int)c->nblocks, 0);
        for (size_t i = 0; i < c->nblocks; i++) {
            const struct gpu_mempool_block *bk = &m.blocks[c->first_block + i];
            lua_createtable(L, 0, 7);
            lt_seti(L, "address", bk->addr);
            lt_seti(L, "offset", bk->addr - c->addr);
            lt_seti(L, "size", bk->size);
            lt_seti(L, "requested", bk->allocated ? bk->size : 0);
            lua_pushboolean(L, bk->allocated);
            lua_setfield(L, -2, "allocated");
            lua_pushboolean(L, bk->pending);
            lua_setfield(L, -2, "pending");
            lt_seti(L, "stream", (uint64_t)bk->stream);
            if (bk->allocated) {
                al += bk->size;
                push_tag(L, 1, bk->addr);
                lua_setfield(L, -2, "tag");
            }
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        lua_setfield(L, -2, "blocks");
        lt_seti(L, "allocated", al);
        lt_seti(L, "requested", al);
        lua_rawseti(L, -2, (lua_Integer)s + 1);
    }
    }

static int a_segments(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    /* tables for every block, built in C: charged before anything is allocated here, so that a
     * stop leaks nothing (the block count from the same estimate as host_bytes) */
    lt_vm_charge(L, 128 * (long long)(host_bytes(a) / HOST_PER_BLOCK + 1));
    lua_settop(L, 1);
    struct mapbox *box = new_mapbox(L); /* 2 */
    lua_newtable(L);
    a->ops->segments(L, a, box);
    /* the map's memory back now, not at the next collection */
    lua_pushcfunction(L, mapbox_gc);
    lua_pushvalue(L, 2);
    lua_call(L, 1, 0);
    return 1;
}

/* a:map{max=16, free=true} -> blocks for ex:map, total. Written in Lua (trusted, below): it
 * merges neighbours until the map fits the panel's cell limit. Each block says its segment
 * (`seg`, the first of a merged group), so the map can mark where segments meet. */
static const char map_src[] =
    "local segs, cap, reserved, max, with_free, seglabel = ...\n"
    "local out = {}\n"
    "local function add(o, st, b, seg) local l = out[#out]\n"
    "  if l and l.owner == o and l.state == st and l.seg == seg then l.bytes = l.bytes + b\n"
    "  else out[#out + 1] = { owner = o, state = st, bytes = b, seg = seg } end end\n"
    "local function fine()\n"
    "  out = {}\n"
    "  for i, s in ipairs(segs) do\n"
    "    for _, b in ipairs(s.blocks) do\n"
    "      if b.allocated then add(b.tag or (seglabel .. i), 'allocated', b.size, i)\n"
    "      else add(seglabel .. i, b.pending and 'pending' or 'cached', b.size, i) end\n"
    "    end\n"
    "  end\n"
    "end\n"
    "local function coarse(group)\n"
    "  out = {}\n"
    "  for g = 1, #segs, group do\n"
    "    local last = math.min(#segs, g + group - 1)\n"
    "    local name = g == last and (seglabel .. g) or (seglabel .. g .. '-' .. last)\n"
    "    local al, ca = 0, 0\n"
    "    for i = g, last do al = al + segs[i].allocated; ca = ca + segs[i].size - segs[i].allocated end\n"
    "    if al > 0 then add(name, 'allocated', al, g) end\n"
    "    if ca > 0 then out[#out + 1] = { owner = name, state = 'cached', bytes = ca, seg = g } end\n"
    "  end\n"
    "end\n"
    "local room = with_free and max - 1 or max\n"
    "fine()\n"
    "local group = 1\n"
    "while #out > room and group <= #segs do coarse(group); group = group * 2 end\n"
    "local total = with_free and cap or reserved\n"
    "if with_free and cap > reserved then out[#out + 1] = { owner = '', state = 'free', bytes = cap - reserved } end\n"
    "return out, total\n";

static int a_map(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    lua_Integer max = 16; /* blocks a map shows at a glance; the panel keeps up to 64 */
    bool with_free = a->model;
    if (!lua_isnoneornil(L, 2)) {
        static const char *const keys[] = {"max", "free", NULL};
        lt_opt_check(L, 2, "map", false, keys);
        max = lt_opt_int(L, 2, "max", max);
        with_free = lt_opt_bool(L, 2, "free", with_free);
        if (max < 2 || max > LT_EVENT_MAX_ITEMS)
            return luaL_argerror(L, 2, lua_pushfstring(L, "max must be 2..%d (a map panel's limit)",
                                                       LT_EVENT_MAX_ITEMS));
    }
    if (luaL_loadbuffer(L, map_src, sizeof map_src - 1, "=alloc.map") != LUA_OK) return lua_error(L);
    lua_pushcfunction(L, a_segments);
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    uint64_t reserved = 0;
    lua_Integer nseg = (lua_Integer)lua_rawlen(L, -1);
    for (lua_Integer i = 1; i <= nseg; i++) {
        lua_rawgeti(L, -1, i);
        lua_getfield(L, -1, "size");
        reserved += (uint64_t)lua_tointeger(L, -1);
        lua_pop(L, 2);
    }
    uint64_t cap = a->capacity;
    if (!a->model) {
        uint64_t f = 0, t = 0;
        if (ad_info(a, &f, &t) == GPU_OK) cap = reserved + f; /* what this allocator could grow to */
    }
    lua_pushinteger(L, (lua_Integer)cap);
    lua_pushinteger(L, (lua_Integer)reserved);
    lua_pushinteger(L, max);
    lua_pushboolean(L, with_free);
    bool zh = !strcmp(lt_runtime_lang(a->vm->rt), "zh"); /* the map's owner labels */
    lua_pushstring(L, a->ops->seglabel[zh]);
    lua_call(L, 6, 2);
    return 2;
}

/* ---- recording ----------------------------------------------------------------------------- */

static int a_record(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    if (!a->ops->caching) return luaL_error(L, ":record() is for caching allocators");
    bool on = lua_isnone(L, 2) || lua_toboolean(L, 2);
    if (on && !a->recording) {
        gpu_trace_buf_free(&a->rec);
        gpu_caching_record(a->c, gpu_trace_sink_buf, &a->rec);
    } else if (!on) {
        gpu_caching_record(a->c, NULL, NULL);
    }
    a->recording = on;
    account(a);
    return 0;
}

static int a_trace(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    if (!a->ops->caching) return luaL_error(L, ":trace() is for caching allocators");
    lt_vm_charge(L, (long long)(a->rec.len / 8));
    lua_pushlstring(L, a->rec.data ? a->rec.data : "", a->rec.len);
    return 1;
}

/* ---- the stream-ordered pool's own calls --------------------------------------------------- */

static struct lt_allocator *check_async(lua_State *L)
{
    struct lt_allocator *a = check_alloc(L, 1);
    if (!a->pool) luaL_error(L, "this call is for alloc.async_pool pools");
    return a;
}

static int p_synchronize(lua_State *L)
{
    struct lt_allocator *a = check_async(L);
    gpu_mempool_synchronize(a->pool, lua_isnoneornil(L, 2) ? -1 : stream_arg(L, 2, 0));
    return 0;
}

static int p_wait(lua_State *L)
{
    struct lt_allocator *a = check_async(L);
    gpu_mempool_wait(a->pool, stream_arg(L, 2, 0), stream_arg(L, 3, 0));
    return 0;
}

static int p_trim_to(lua_State *L)
{
    struct lt_allocator *a = check_async(L);
    gpu_mempool_trim_to(a->pool, lua_isnoneornil(L, 2) ? 0 : lt_alloc_bytes_arg(L, 2));
    return 0;
}

static int p_set_release_threshold(lua_State *L)
{
    struct lt_allocator *a = check_async(L);
    uint64_t v;
    if (lua_type(L, 2) == LUA_TSTRING && !strcmp(lua_tostring(L, 2), "max")) v = GPU_MEMPOOL_NO_RELEASE;
    else if (lua_isinteger(L, 2) && lua_tointeger(L, 2) == 0) v = 0;
    else v = lt_alloc_bytes_arg(L, 2);
    gpu_mempool_set_release_threshold(a->pool, v);
    return 0;
}

/* ---- the ledger ---------------------------------------------------------------------------- */

static void push_ledger(lua_State *L, const struct gpu_ledger *l, const char *lang)
{
    lua_createtable(L, 0, 16);
    lt_seti(L, "total", l->total);
    lt_seti(L, "free", l->free);
    lt_seti(L, "used", l->total - l->free);
    lt_seti(L, "live_bytes", l->live_bytes);
    lua_pushboolean(L, l->simulated);
    lua_setfield(L, -2, "simulated");
    lua_pushboolean(L, l->model);
    lua_setfield(L, -2, "model");
    lua_pushstring(L, l->backend);
    lua_setfield(L, -2, "backend");
    lua_pushstring(L, l->device);
    lua_setfield(L, -2, "device");
    lua_createtable(L, GPU_LEDGER_NPARTS, 0);
    for (int p = 0; p < GPU_LEDGER_NPARTS; p++) {
        lua_createtable(L, 0, 4);
        lua_pushstring(L, gpu_ledger_part_key((enum gpu_ledger_part)p));
        lua_setfield(L, -2, "key");
        lua_pushstring(L, lt_ledger_label((enum gpu_ledger_part)p, lang));
        lua_setfield(L, -2, "label");
        lt_seti(L, "bytes", l->part[p]);
        lua_pushboolean(L, l->known[p]);
        lua_setfield(L, -2, "known");
        lua_rawseti(L, -2, p + 1);
    }
    lua_setfield(L, -2, "parts");
    for (int p = 0; p < GPU_LEDGER_NPARTS; p++) {
        if (!l->known[p]) continue; /* unknown stays nil */
        lt_seti(L, gpu_ledger_part_key((enum gpu_ledger_part)p), l->part[p]);
    }
    if (l->has_allocator) {
        lua_createtable(L, 0, 6);
        lt_seti(L, "reserved", l->reserved);
        lt_seti(L, "allocated", l->allocated);
        lt_seti(L, "requested", l->requested);
        lt_seti(L, "largest_free", l->largest_free);
        lt_seti(L, "segments", l->segments);
        lt_seti(L, "inactive_split", l->inactive_split);
        lua_setfield(L, -2, "allocator");
    }
    lua_pushboolean(L, l->nvml);
    lua_setfield(L, -2, "nvml");
    lua_pushstring(L, l->nvml_note);
    lua_setfield(L, -2, "nvml_note");
    if (l->has_self) lt_seti(L, "self_nvml", l->self_nvml);
    if (l->driver_reserved) lt_seti(L, "driver_reserved", l->driver_reserved);
    lua_createtable(L, l->nprocs, 0);
    for (int i = 0; i < l->nprocs; i++) {
        lua_createtable(L, 0, 5);
        lt_seti(L, "pid", l->procs[i].pid);
        lua_pushstring(L, l->procs[i].name);
        lua_setfield(L, -2, "name");
        if (l->procs[i].has_used) lt_seti(L, "used", l->procs[i].used);
        lua_pushboolean(L, l->self[i]);
        lua_setfield(L, -2, "self");
        lua_pushstring(L, l->procs[i].graphics ? "graphics" : "compute");
        lua_setfield(L, -2, "type");
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "processes");
    /* in Lua's memory: an error raised while it is built (the heap cap) leaks nothing */
    size_t need = lt_ledger_text(l, lang, NULL, 0) + 1;
    luaL_Buffer b;
    char *buf = luaL_buffinitsize(L, &b, need);
    lt_ledger_text(l, lang, buf, need);
    luaL_pushresultsize(&b, strlen(buf));
    lua_setfield(L, -2, "text");
}

static int l_ledger(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    lua_settop(L, 1);
    bool none = lua_isnil(L, 1);
    struct gpu_ledger *l = lua_newuserdatauv(L, sizeof *l, 0); /* large: not on the C stack */
    const char *lang = lt_runtime_lang(vm->rt);
    if (none) {
        pthread_mutex_lock(&vm->rt->devlock);
        gpu_status st = gpu_ledger_fill(vm->rt->dev, NULL, l);
        pthread_mutex_unlock(&vm->rt->devlock);
        if (st != GPU_OK) {
            lua_pushnil(L);
            lua_pushstring(L, gpu_status_str(st));
            return 2;
        }
    } else {
        struct lt_allocator *a = check_alloc(L, 1);
        if (!a->ops->caching_stats)
            return luaL_argerror(L, 1, "the ledger takes a caching or raw allocator");
        struct gpu_caching_stats s;
        a->ops->caching_stats(a, &s);
        if (a->model) {
            gpu_ledger_fill_model(a->capacity, &s, l);
        } else {
            pthread_mutex_lock(&vm->rt->devlock);
            /* a raw allocator's memory is "other allocations": no caching layer to split */
            gpu_status st = gpu_ledger_fill(vm->rt->dev, a->ops->caching ? &s : NULL, l);
            pthread_mutex_unlock(&vm->rt->devlock);
            if (st != GPU_OK) {
                lua_pushnil(L);
                lua_pushstring(L, gpu_status_str(st));
                return 2;
            }
        }
    }
    push_ledger(L, l, lang);
    return 1;
}

static const struct lt_alloc_ops caching_ops = {
    .name = "caching", .device_allocs = true, .seglabel = {"seg ", "段 "},
    .malloc = caching_malloc, .free = caching_free, .in_use = caching_in_use,
    .release = caching_release, .host_bytes = caching_host_bytes,
    .empty_cache = caching_empty_cache, .reset_peak = caching_reset_peak,
    .push_stats = push_caching_stats, .caching_stats = caching_stats,
    .segments = caching_segments, .caching = true,
};
static const struct lt_alloc_ops raw_ops = {
    .name = "raw", .device_allocs = true, .seglabel = {"cudaMalloc ", "cudaMalloc "},
    .malloc = raw_malloc_op, .free = raw_free_op,
    .release = raw_release, .host_bytes = raw_host_bytes,
    .reset_peak = raw_reset_peak, .push_stats = push_caching_stats, .caching_stats = raw_stats,
    .segments = raw_segments,
};
static const struct lt_alloc_ops async_ops = {
    .name = "async", .streams = true, .seglabel = {"chunk ", "池块 "},
    .malloc = async_malloc, .free = async_free, .in_use = async_in_use,
    .release = async_release, .host_bytes = async_host_bytes,
    .empty_cache = async_empty_cache, .reset_peak = async_reset_peak,
    .push_stats = async_push_stats, .segments = async_segments,
};

int lt_open_alloc(lua_State *L)
{
    static const luaL_Reg a_methods[] = {
        {"malloc", a_malloc},
        {"free", a_free},
        {"empty_cache", a_empty_cache},
        {"stats", a_stats},
        {"summary", a_summary},
        {"segments", a_segments},
        {"map", a_map},
        {"reset_peak", a_reset_peak},
        {"close", a_close},
        {"record", a_record},
        {"trace", a_trace},
        {"synchronize", p_synchronize},
        {"wait", p_wait},
        {"trim_to", p_trim_to},
        {"set_release_threshold", p_set_release_threshold},
        {NULL, NULL}};
    static const luaL_Reg a_meta[] = {
        {"__gc", a_close}, {"__close", a_close}, {"__tostring", a_tostring}, {NULL, NULL}};
    static const luaL_Reg b_methods[] = {{"size", b_size},       {"requested", b_requested},
                                         {"address", b_address}, {"free", b_free},
                                         {"live", b_live},       {NULL, NULL}};
    static const luaL_Reg b_meta[] = {{"__tostring", b_tostring}, {NULL, NULL}};
    static const luaL_Reg funcs[] = {{"caching", l_caching},
                                     {"model", l_model},
                                     {"raw", l_raw},
                                     {"async_pool", l_async_pool},
                                     {"trace_replay", lt_alloc_trace_replay},
                                     {"snapshot", lt_alloc_snapshot},
                                     {"ledger", l_ledger},
                                     {"format_size", lt_alloc_format_size},
                                     {"round_size", lt_alloc_round_size},
                                     {NULL, NULL}};
    static const luaL_Reg mapbox_meta[] = {{"__gc", mapbox_gc}, {NULL, NULL}};
    lt_newclass(L, ALLOC_MT, a_meta, a_methods);
    lt_newclass(L, MAPBOX_MT, mapbox_meta, NULL);
    lt_newclass(L, BLOCK_MT, b_meta, b_methods);
    luaL_newlib(L, funcs);
    return 1;
}
