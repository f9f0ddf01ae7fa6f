/* fuzz_sandbox.c - libFuzzer target for the sandboxed Lua VM (lt_vm_dostring) under tight
 * limits (4 MiB heap, 500k instructions, 1 s), with the REPL's plot.* reachable. Any input must
 * return (C library loops included); the heap, C-side allocator memory included, never goes
 * past the cap; nothing escapes: the real (trusted) globals and library tables, the locked string
 * metatable and the removed string.dump are exactly as before the run, no finalizer was
 * installed from sandboxed code, and once the VM is freed no device memory stays allocated. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "lt.h"
#include "lt_int.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_sandbox: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);   \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

static struct gpu_dev *dev;
static struct lt_runtime *rt;
static const struct lt_limits lim = {.mem_bytes = 4u << 20, .instructions = 500000, .seconds = 1.0,
    .wall_seconds = 2.0};

static void sink(void *ud, const struct lt_event *ev) { (void)ud, (void)ev; }

static void cleanup(void)
{
    lt_runtime_free(rt);
    gpu_close(dev);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *datadir = getenv("VRAMLAB_DATADIR");
    /* host experiments of 1 MiB at most: an input checks what the code does, not the RAM */
    struct gpu_config c = {.datadir = datadir ? datadir : ".", .deterministic = true,
                           .cap_fraction = 0.9, .host_max = 1u << 20};
    char why[512];
    if (gpu_open("sim", &c, &dev, why, sizeof why) != GPU_OK) {
        fprintf(stderr, "fuzz_sandbox: cannot open the simulator (run from the source tree or set "
                        "VRAMLAB_DATADIR): %s\n", why);
        exit(1);
    }
    rt = lt_runtime_new(dev, c.datadir, lt_modules);
    lt_runtime_set_limits(rt, &lim);
    lt_runtime_set_sink(rt, sink, NULL);
    atexit(cleanup);
    return 0;
}

/* A fingerprint of what sandboxed code must never change: every (key, value) of the real
 * globals and of the real library tables, plus the string metatable. */
#define SNAP_MAX 2048
struct snap {
    const void *v[SNAP_MAX];
    int t[SNAP_MAX];
    int n;
};

static void snap_table(lua_State *L, int idx, struct snap *s)
{
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (s->n < SNAP_MAX - 1) {
            s->t[s->n] = lua_type(L, -2) * 16 + lua_type(L, -1);
            s->v[s->n++] = lua_topointer(L, -1); /* NULL for numbers and booleans */
        }
        lua_pop(L, 1);
    }
}

static void snapshot(lua_State *L, struct snap *s)
{
    static const char *const libs[] = {"string", "table", "math", "utf8", "coroutine", "os", "io",
                                       "debug", "package", "gpu", "host", "alloc", NULL};
    s->n = 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    snap_table(L, -1, s);
    for (const char *const *l = libs; *l; l++) {
        if (lua_getfield(L, -1, *l) == LUA_TTABLE) snap_table(L, -1, s);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_pushliteral(L, "");
    CHECK(lua_getmetatable(L, -1));
    snap_table(L, -1, s);
    lua_pop(L, 2);
    s->t[s->n] = lua_gc(L, LUA_GCISRUNNING);
    s->v[s->n++] = NULL;
}

/* Table iteration order can change when a table is resized, never its contents: compare as
 * multisets of (type, pointer) pairs. */
static int cmp_pair(const void *a, const void *b)
{
    const uintptr_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : x[1] != y[1] ? (x[1] < y[1] ? -1 : 1) : 0;
}

static void check_same(const struct snap *a, const struct snap *b)
{
    static uintptr_t pa[SNAP_MAX][2], pb[SNAP_MAX][2];
    CHECK(a->n == b->n);
    for (int i = 0; i < a->n; i++) {
        pa[i][0] = (uintptr_t)a->t[i], pa[i][1] = (uintptr_t)a->v[i];
        pb[i][0] = (uintptr_t)b->t[i], pb[i][1] = (uintptr_t)b->v[i];
    }
    qsort(pa, (size_t)a->n, sizeof pa[0], cmp_pair);
    qsort(pb, (size_t)b->n, sizeof pb[0], cmp_pair);
    CHECK(!memcmp(pa, pb, (size_t)a->n * sizeof pa[0]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    char *src = malloc(size + 1);
    CHECK(src);
    memcpy(src, data, size);
    src[size] = 0; /* lt_vm_dostring takes a C string: an embedded NUL ends it */
    struct lt_vm *vm = lt_vm_new(rt, err, sizeof err);
    CHECK(vm);
    lt_vm_repl_setup(vm); /* plot.*: option tables that C reads */
    struct snap before, after;
    snapshot(vm->L, &before);
    lua_State *L = vm->L;
    int top = lua_gettop(L);
    if (!lt_vm_dostring(vm, src, "fuzz", err, sizeof err)) CHECK(err[0]);
    CHECK(lua_gettop(L) == top);
    CHECK(vm->mem_peak <= lim.mem_bytes);
    snapshot(L, &after);
    check_same(&before, &after);
    /* string.dump stays gone from the real string table */
    lua_getglobal(L, "string");
    CHECK(lua_getfield(L, -1, "dump") == LUA_TNIL);
    lua_pop(L, 2);
    /* the VM still works after whatever ran (limits re-armed) */
    CHECK(lt_vm_dostring(vm, "local x = 0 for i = 1, 1000 do x = x + i end assert(x == 500500)",
                         "probe", err, sizeof err) ||
          strstr(err, "memory limit")); /* the input may have filled the heap with live data */
    lt_vm_free(vm);
    CHECK(dev->live_allocs == 0 && dev->live_host == 0);
    free(src);
    return 0;
}
