/* lt_host.c - the `host` module: CPU/RAM facts and the host-memory experiments (memcpy, loop
 * copy, STREAM kernels, pointer-chase latency), real on every backend, run on the worker. */
#include "lt_int.h"

#include <string.h>

#include "gpu_fmt.h"
#include "lt_say.h"

static int l_info(lua_State *L)
{
    struct gpu_host_info h;
    gpu_host_info(&h);
    lua_createtable(L, 0, 11);
    lua_pushstring(L, h.cpu);
    lua_setfield(L, -2, "cpu");
    lua_pushinteger(L, h.threads);
    lua_setfield(L, -2, "threads");
    lt_push_size(L, h.ram_bytes);
    lua_setfield(L, -2, "ram_bytes");
    /* the last-level cache: nil where unknown or judged a package's figure (gpu_hostcache.c) */
    const struct { const char *k; uint64_t v; } llc[] = {{"llc_bytes", h.llc_bytes},
        {"llc_total_bytes", h.llc_total_bytes}, {"llc_read_bytes", h.llc_read_bytes},
        {"llc_shared_cpus", (uint64_t)h.llc_shared_cpus}};
    for (size_t i = 0; i < sizeof llc / sizeof llc[0]; i++)
        if (llc[i].v) {
            lt_push_size(L, llc[i].v);
            lua_setfield(L, -2, llc[i].k);
        }
    if (h.llc_read_bytes) {
        lua_pushboolean(L, h.llc_plausible);
        lua_setfield(L, -2, "llc_plausible");
    }
    lua_pushstring(L, h.llc_source ? h.llc_source : "none");
    lua_setfield(L, -2, "llc_source");
    lt_push_size(L, h.page_bytes);
    lua_setfield(L, -2, "page_bytes");
    return 1;
}

struct host_job {
    struct lt_job base;
    struct gpu_host_arena *arena; /* the VM's: arrays kept for the run's next measurement */
    int kind; /* enum gpu_host_kind, or -1: latency */
    uint64_t bytes;
    int threads, trials;
    struct gpu_result r;
};

static void host_fn(struct lt_job *j)
{
    struct host_job *h = (struct host_job *)j;
    j->st = h->kind < 0 ? gpu_host_latency_in(h->arena, j->rt->dev, h->bytes, &h->r, &j->rt->cancel)
                        : gpu_host_bench_in(h->arena, j->rt->dev, (enum gpu_host_kind)h->kind,
                                            h->bytes, h->threads, h->trials, &h->r, &j->rt->cancel);
    /* the status only: host_push says it in the learner's language on the Lua thread */
}

static int host_push(lua_State *L, struct lt_job *j)
{
    struct host_job *h = (struct host_job *)j;
    if (j->st == GPU_ERR_CANCELLED) return luaL_error(L, "cancelled");
    if (j->st != GPU_OK) {
        char why[256], size[32];
        lua_pushnil(L);
        if (j->st == GPU_ERR_HOST_NOMEM) {
            double arrays = h->kind >= GPU_HOST_COPY ? 3 : h->kind < 0 ? 1 : 2;
            gpu_fmt_bytes((double)h->bytes * arrays, GPU_FMT_BIN, size, sizeof size);
            lua_pushstring(L, lt_say(why, sizeof why, lt_runtime_lang(j->rt), LT_SAY_HOST_NOMEM, size));
        } else {
            lua_pushstring(L, gpu_status_str(j->st));
        }
        return 2;
    }
    lt_push_result(L, &h->r, "host");
    lua_pushstring(L, h->kind < 0 ? "latency" : gpu_host_kind_name((enum gpu_host_kind)h->kind));
    lua_setfield(L, -2, "kernel");
    if (h->kind >= 0) {
        lua_pushinteger(L, h->threads);
        lua_setfield(L, -2, "threads");
    }
    return 1;
}

/* Bytes one host experiment may take in all its arrays: half of the RAM (past physical memory
 * the arrays, every page touched, wake the OOM killer rather than fail), and no more than the
 * run's host cap (gpu_config.host_max, VRAMLAB_HOST_MAX) when there is one. */
static uint64_t budget(const struct gpu_dev *dev, const struct gpu_host_info *hi)
{
    uint64_t b = hi->ram_bytes ? hi->ram_bytes / 2 : 3 * ((uint64_t)64 << 30);
    return dev->host_max && dev->host_max < b ? dev->host_max : b;
}

/* Every measurement's options: these, plus the kind's own key (method or kernel) as keys[0]. */
static const char *const common_keys[] = {NULL, "bytes", "trials", "threads", NULL};

static int start(lua_State *L, int kind, uint64_t def_bytes, const char *fn, const char *own)
{
    const char *keys[] = {own, "bytes", "trials", "threads", NULL};
    lt_opt_check(L, 1, fn, true, own ? keys : common_keys + 1);
    if (lua_isnoneornil(L, 1)) lua_newtable(L), lua_replace(L, 1);
    struct gpu_dev *dev = lt_vm_of(L)->rt->dev;
    struct gpu_host_info hi;
    gpu_host_info(&hi);
    int arrays = kind >= GPU_HOST_COPY ? 3 : kind < 0 ? 1 : 2;
    uint64_t room = budget(dev, &hi);
    /* the default size fits the budget (whole pages); a size asked for is checked against it */
    if (def_bytes > room / arrays) def_bytes = room / arrays / 4096 * 4096;
    struct lt_vm *vm = lt_vm_of(L);
    if (!vm->host_arena) vm->host_arena = gpu_host_arena_new(); /* NULL: each call its own arrays */
    struct host_job *h = lua_newuserdatauv(L, sizeof *h, 0);
    memset(h, 0, sizeof *h);
    h->arena = vm->host_arena;
    h->base.fn = host_fn;
    h->base.push = host_push;
    h->kind = kind;
    h->bytes = lt_opt_bytes(L, 1, "bytes", def_bytes);
    h->trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, fn);
    h->threads = lt_opt_range(L, 1, "threads", 0, 0, 256, fn);
    if (h->bytes < 4096 || h->bytes > ((uint64_t)64 << 30))
        return luaL_error(L, "host: 'bytes' must be between 4 KiB and 64 GiB");
    if ((double)h->bytes * arrays > (double)room) {
        lua_pushnil(L);
        if (room < (hi.ram_bytes ? hi.ram_bytes / 2 : UINT64_MAX))
            lua_pushfstring(L, "host: %d array(s) of %f MiB would take more than this run's host "
                            "budget (%f MiB, VRAMLAB_HOST_MAX); size by host.budget()", arrays,
                            (double)h->bytes / 1048576.0, (double)room / 1048576.0);
        else
            lua_pushfstring(L, "host: %d array(s) of %f GiB would take more than half of this "
                            "machine's RAM (%f GiB); use a smaller size", arrays,
                            (double)h->bytes / 1073741824.0, (double)hi.ram_bytes / 1073741824.0);
        return 2;
    }
    if (kind >= GPU_HOST_COPY && h->threads == 0) {
        h->threads = hi.threads;
    } else if (kind >= 0 && h->threads == 0) {
        h->threads = 1;
    }
    return lt_job_run(L, &h->base);
}

/* host.budget() -> bytes one host experiment may take in all its arrays */
static int l_budget(lua_State *L)
{
    struct gpu_host_info hi;
    gpu_host_info(&hi);
    lt_push_size(L, budget(lt_vm_of(L)->rt->dev, &hi));
    return 1;
}

static int l_copy(lua_State *L)
{
    static const char *const methods[] = {"memcpy", "loop", NULL};
    int m = lua_istable(L, 1) ? lt_opt_enum(L, 1, "method", 0, methods, "host.copy") : 0;
    return start(L, gpu_host_kind_parse(methods[m]), 256u << 20, "host.copy", "method");
}

static int l_stream(lua_State *L)
{
    static const char *const kernels[] = {"copy", "scale", "add", "triad", "dot", NULL};
    int k = lua_istable(L, 1) ? lt_opt_enum(L, 1, "kernel", 3, kernels, "host.stream") : 3;
    return start(L, gpu_host_kind_parse(kernels[k]), 256u << 20, "host.stream", "kernel");
}

static int l_triad(lua_State *L) { return start(L, GPU_HOST_TRIAD, 256u << 20, "host.triad", NULL); }

/* host.caches() -> {{name = "L1", bytes = 49152}, ..., source = "sysfs"} (smallest first; the
 * levels judged one core's, as gpu_host_caches gives them) */
static int l_caches(lua_State *L)
{
    struct gpu_level lv[8];
    const char *src;
    int n = gpu_host_caches(lv, 8, &src);
    lua_createtable(L, n, 1);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 0, 2);
        lua_pushstring(L, lv[i].name);
        lua_setfield(L, -2, "name");
        lt_push_size(L, lv[i].bytes);
        lua_setfield(L, -2, "bytes");
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushstring(L, src);
    lua_setfield(L, -2, "source");
    return 1;
}
static int l_latency(lua_State *L) { return start(L, -1, 256u << 20, "host.latency", NULL); }

int lt_open_host(lua_State *L)
{
    static const luaL_Reg funcs[] = {{"info", l_info},     {"copy", l_copy},
                                     {"stream", l_stream}, {"triad", l_triad},
                                     {"latency", l_latency}, {"caches", l_caches},
                                     {"budget", l_budget},   {NULL, NULL}};
    luaL_newlib(L, funcs);
    return 1;
}
