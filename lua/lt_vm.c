/* lt_vm.c - the sandboxed Lua VM: an allow-listed environment, text-only load, no string.dump,
 * a locked string metatable, no __gc from sandboxed code, a heap cap through lua_Alloc, and an
 * instruction/time limit whose hook re-arms so that pcall cannot swallow it. */
#include "lt.h"
#include "lt_int.h"

#include <errno.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_embed.h"

#define HOOK_QUANTUM 1000 /* instructions between limit checks */

static void *vm_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct lt_vm *vm = ud;
    if (!ptr) osize = 0;
    if (nsize == 0) {
        free(ptr);
        vm->mem -= osize;
        return NULL;
    }
    if (nsize > osize && vm->mem - osize + nsize > vm->rt->lim.mem_bytes) {
        vm->mem_refused = true;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p) return NULL;
    vm->mem = vm->mem - osize + nsize;
    if (vm->mem > vm->mem_peak) vm->mem_peak = vm->mem;
    return p;
}

static void vm_hook(lua_State *L, lua_Debug *ar)
{
    struct lt_vm *vm = lt_vm_of(L);
    vm->count += HOOK_QUANTUM;
    if (!vm->tripped && (vm->count > vm->rt->lim.instructions || gpu_now() > vm->deadline))
        vm->tripped = true;
    if (vm->tripped) {
        /* From now on every instruction of this thread raises again: a pcall that catches the
         * error only buys one more instruction. */
        lua_sethook(L, vm_hook, LUA_MASKCOUNT, 1);
        lua_getinfo(L, "Sl", ar);
        lua_pushfstring(L, "%s:%d: stopped: the code ran past the sandbox limit (%d million "
                        "instructions or %d s)", ar->short_src, ar->currentline,
                        (int)(vm->rt->lim.instructions / 1000000), (int)vm->rt->lim.seconds);
        lua_error(L);
    }
}

void lt_vm_arm(struct lt_vm *vm, lua_State *th)
{
    vm->count = 0;
    vm->tripped = false;
    vm->mem_refused = false;
    vm->deadline = gpu_now() + vm->rt->lim.seconds;
    lua_sethook(th, vm_hook, LUA_MASKCOUNT, HOOK_QUANTUM);
}

void lt_vm_errmsg(struct lt_vm *vm, int status, char *err, size_t n)
{
    const char *msg = lua_type(vm->L, -1) == LUA_TSTRING ? lua_tostring(vm->L, -1) : NULL;
    if (status == LUA_ERRMEM || (vm->mem_refused && msg && strstr(msg, "not enough memory")))
        snprintf(err, n, "stopped: memory limit of %zu MiB reached", vm->rt->lim.mem_bytes >> 20);
    else if (msg)
        snprintf(err, n, "%s", msg);
    else
        snprintf(err, n, "error object is a %s value", luaL_typename(vm->L, -1));
}

/* ---- the allow-listed environment -------------------------------------------------------- */

static int sb_setmetatable(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_type(L, 2) == LUA_TTABLE && lua_getfield(L, 2, "__gc") != LUA_TNIL)
        return luaL_error(L, "sandbox: metatables with __gc (finalizers) are not allowed");
    lua_settop(L, 2);
    lua_getglobal(L, "setmetatable"); /* the real one, from the unsandboxed globals */
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

static int sb_load(lua_State *L)
{
    size_t len;
    const char *s = lua_tolstring(L, 1, &len);
    const char *mode = luaL_optstring(L, 3, "t");
    if (!s) return luaL_error(L, "sandbox: load takes source text only (no reader functions)");
    if (strcmp(mode, "t")) return luaL_error(L, "sandbox: load is text-only (mode 't')");
    if (len && s[0] == LUA_SIGNATURE[0])
        return luaL_error(L, "sandbox: binary chunks are not allowed");
    const char *name = luaL_optstring(L, 2, "=(load)");
    int st = luaL_loadbufferx(L, s, len, name, "t");
    if (st != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    /* env: the given table, else the sandbox environment (upvalue 1) */
    if (!lua_isnoneornil(L, 4)) lua_pushvalue(L, 4);
    else lua_pushvalue(L, lua_upvalueindex(1));
    if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    return 1;
}

static int sb_print(lua_State *L)
{
    luaL_Buffer b;
    int n = lua_gettop(L);
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    struct lt_runtime *rt = lt_vm_of(L)->rt;
    if (rt->sink) {
        struct lt_event ev = {.type = LT_EV_PRINT, .panel = "", .text = lua_tostring(L, -1)};
        rt->sink(rt->sink_ud, &ev);
    }
    return 0;
}

static int sb_collectgarbage(lua_State *L)
{
    const char *opt = luaL_optstring(L, 1, "collect");
    if (!strcmp(opt, "count")) {
        lua_pushnumber(L, (lua_Number)lt_vm_of(L)->mem / 1024.0);
        return 1;
    }
    if (!strcmp(opt, "collect")) {
        lua_gc(L, LUA_GCCOLLECT);
        lua_pushinteger(L, 0);
        return 1;
    }
    return luaL_error(L, "sandbox: collectgarbage only supports \"count\" and \"collect\"");
}

/* require: only the modules compiled into the binary. */
static int sb_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.modules");
    if (lua_getfield(L, -1, name) == LUA_TNIL)
        return luaL_error(L, "sandbox: no module '%s' (available: units, vram)", name);
    return 1;
}

static void copy_fields(lua_State *L, const char *lib, const char *const *names)
{
    lua_newtable(L);
    lua_getglobal(L, lib);
    for (; *names; names++) {
        lua_getfield(L, -1, *names);
        lua_setfield(L, -3, *names);
    }
    lua_pop(L, 1);
}

static void build_env(lua_State *L)
{
    static const char *const base[] = {"assert", "error", "ipairs", "next", "pairs", "pcall",
                                       "select", "tonumber", "tostring", "type", "xpcall",
                                       "rawequal", "rawlen", "rawget", "rawset", "getmetatable",
                                       "_VERSION", NULL};
    static const char *const os_ok[] = {"clock", "time", "date", "difftime", NULL};
    static const char *const libs[] = {"string", "table", "math", "utf8", "coroutine", NULL};
    lua_newtable(L); /* the sandbox environment */
    int env = lua_gettop(L);
    for (const char *const *b = base; *b; b++) {
        lua_getglobal(L, *b);
        lua_setfield(L, env, *b);
    }
    for (const char *const *l = libs; *l; l++) {
        lua_getglobal(L, *l);
        lua_newtable(L); /* a copy: the sandbox cannot replace what trusted modules use */
        lua_pushnil(L);
        while (lua_next(L, -3)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, -4);
        }
        lua_setfield(L, env, *l);
        lua_pop(L, 1);
    }
    copy_fields(L, "os", os_ok);
    lua_setfield(L, env, "os");
    lua_pushcfunction(L, sb_setmetatable);
    lua_setfield(L, env, "setmetatable");
    lua_pushvalue(L, env);
    lua_pushcclosure(L, sb_load, 1);
    lua_setfield(L, env, "load");
    lua_pushcfunction(L, sb_print);
    lua_setfield(L, env, "print");
    lua_pushcfunction(L, sb_collectgarbage);
    lua_setfield(L, env, "collectgarbage");
    lua_pushcfunction(L, sb_require);
    lua_setfield(L, env, "require");
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");
}

/* Load the embedded support modules with the trusted globals, then expose them to the sandbox:
 * lt.modules[name] = module. `lesson` gets the constructors and the runner's helpers. */
static int load_embedded(lua_State *L, char *err, size_t n)
{
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "lt.modules");
    for (const struct lt_embedded *e = lt_embedded; e->name; e++) {
        char chunk[128];
        snprintf(chunk, sizeof chunk, "@%s", e->file);
        if (luaL_loadbufferx(L, e->src, e->len, chunk, "t") != LUA_OK ||
            lua_pcall(L, 0, 1, 0) != LUA_OK) {
            snprintf(err, n, "%s", lua_tostring(L, -1));
            lua_pop(L, 1);
            return -1;
        }
        /* trusted modules reach each other through require (package.loaded) */
        lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
        lua_pushvalue(L, -2);
        lua_setfield(L, -2, e->name);
        lua_pop(L, 1);
        lua_getfield(L, LUA_REGISTRYINDEX, "lt.modules");
        lua_insert(L, -2);
        lua_setfield(L, -2, e->name);
        lua_pop(L, 1);
    }
    return 0;
}

static int vm_setup(lua_State *L)
{
    char *err = lua_touserdata(L, 1);
    luaL_openlibs(L);
    /* string.dump is reachable through every string's metatable: remove it at the source, and
     * lock the string metatable so getmetatable("") cannot hand it out. */
    lua_getglobal(L, "string");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);

    luaL_requiref(L, "gpu", lt_open_gpu, 1);
    luaL_requiref(L, "host", lt_open_host, 1);
    luaL_requiref(L, "alloc", lt_open_alloc, 1);
    lua_pop(L, 3);
    lua_pushcfunction(L, lt_emit);
    lua_setglobal(L, "__lt_emit");
    lua_pushcfunction(L, lt_markup_check);
    lua_setglobal(L, "__lt_markup_check");
    lua_pushcfunction(L, lt_pause);
    lua_setglobal(L, "__lt_pause");
    if (load_embedded(L, err, 256) != 0) return luaL_error(L, "%s", err);

    build_env(L);
    int env = lua_gettop(L);
    static const char *const mods[] = {"gpu", "host", "alloc", NULL};
    for (const char *const *m = mods; *m; m++) {
        lua_getglobal(L, *m);
        lua_setfield(L, env, *m);
    }
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.modules");
    static const char *const lmods[] = {"units", "vram", NULL};
    for (const char *const *m = lmods; *m; m++) {
        lua_getfield(L, -1, *m);
        lua_setfield(L, env, *m);
    }
    /* lesson constructors: lesson, text, experiment, exercise */
    lua_getfield(L, -1, "lesson");
    lua_getfield(L, -1, "install");
    lua_pushvalue(L, env);
    lua_call(L, 1, 0);
    lua_pop(L, 2);
    lua_setfield(L, LUA_REGISTRYINDEX, "lt.env");
    return 0;
}

struct lt_vm *lt_vm_new(struct lt_runtime *rt, char *err, size_t n)
{
    struct lt_vm *vm = calloc(1, sizeof *vm);
    char setup_err[256] = "";
    if (!vm) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    vm->rt = rt;
    vm->L = lua_newstate(vm_alloc, vm);
    if (!vm->L) {
        snprintf(err, n, "cannot create a Lua state (memory limit too small?)");
        free(vm);
        return NULL;
    }
    *(struct lt_vm **)lua_getextraspace(vm->L) = vm;
    lua_pushcfunction(vm->L, vm_setup);
    lua_pushlightuserdata(vm->L, setup_err);
    if (lua_pcall(vm->L, 1, 0, 0) != LUA_OK) {
        snprintf(err, n, "sandbox set-up failed: %s", lua_tostring(vm->L, -1));
        lua_close(vm->L);
        free(vm);
        return NULL;
    }
    return vm;
}

void lt_vm_free(struct lt_vm *vm)
{
    if (!vm) return;
    if (vm->rt->job) lt_job_wait(vm->rt);
    lt_gpu_free_all(vm);
    lt_alloc_free_all(vm);
    lua_sethook(vm->L, NULL, 0, 0);
    lua_close(vm->L);
    free(vm);
}

/* Load a chunk with the sandbox environment as its _ENV. */
static int vm_load(struct lt_vm *vm, const char *src, size_t len, const char *name)
{
    int st = luaL_loadbufferx(vm->L, src, len, name, "t");
    if (st != LUA_OK) return st;
    lua_getfield(vm->L, LUA_REGISTRYINDEX, "lt.env");
    lua_setupvalue(vm->L, -2, 1);
    return LUA_OK;
}

static int traceback_msgh(lua_State *L)
{
    return 1; /* keep the message as it is: "file:line: what" */
}

static bool vm_run(struct lt_vm *vm, int nres, char *err, size_t n)
{
    lua_pushcfunction(vm->L, traceback_msgh);
    lua_insert(vm->L, -2);
    lt_vm_arm(vm, vm->L);
    int st = lua_pcall(vm->L, 0, nres, -2);
    lua_sethook(vm->L, NULL, 0, 0);
    if (st == LUA_OK && vm->tripped) { /* a pcall caught the stop on its way out: still a stop */
        lua_settop(vm->L, lua_gettop(vm->L) - (nres < 0 ? 0 : nres));
        lua_pushfstring(vm->L, "stopped: the code ran past the sandbox limit (%d million "
                        "instructions or %d s)", (int)(vm->rt->lim.instructions / 1000000),
                        (int)vm->rt->lim.seconds);
        st = LUA_ERRRUN;
    }
    if (st != LUA_OK) {
        lt_vm_errmsg(vm, st, err, n);
        lua_pop(vm->L, 2);
        return false;
    }
    lua_remove(vm->L, -1 - (nres < 0 ? 0 : nres));
    return true;
}

bool lt_vm_dostring(struct lt_vm *vm, const char *src, const char *name, char *err, size_t n)
{
    char chunk[512];
    snprintf(chunk, sizeof chunk, "=%s", name ? name : "(string)");
    int st = vm_load(vm, src, strlen(src), chunk);
    if (st != LUA_OK) {
        lt_vm_errmsg(vm, st, err, n);
        lua_pop(vm->L, 1);
        return false;
    }
    if (!vm_run(vm, 0, err, n)) return false;
    return true;
}

char *lt_read_file(const char *path, size_t *len, char *err, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, n, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + used, 1, cap - used - 1, f);
        used += got;
        if (used < cap - 1) break;
        if (cap >= (4u << 20)) {
            snprintf(err, n, "%s: file larger than 4 MiB", path);
            free(buf);
            fclose(f);
            return NULL;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb) free(buf);
        buf = nb, cap *= 2;
    }
    fclose(f);
    if (!buf) {
        snprintf(err, n, "%s: out of memory", path);
        return NULL;
    }
    buf[used] = 0;
    *len = used;
    return buf;
}

bool lt_vm_dofile_keep(struct lt_vm *vm, const char *path, bool keep, char *err, size_t n)
{
    size_t len;
    char chunk[1100];
    char *src = lt_read_file(path, &len, err, n);
    if (!src) return false;
    snprintf(chunk, sizeof chunk, "@%s", path);
    const char *body = src;
    if (len && src[0] == '#') { /* a #! line: keep the line count right */
        body = strchr(src, '\n');
        body = body ? body : src + len;
    }
    if (len && src[0] == LUA_SIGNATURE[0]) {
        snprintf(err, n, "%s: binary chunks are not allowed", path);
        free(src);
        return false;
    }
    if (keep) { /* `return lesson {...}` is a tail call: tell the validator where the file is */
        lua_getfield(vm->L, LUA_REGISTRYINDEX, "lt.modules");
        lua_getfield(vm->L, -1, "lesson");
        lua_getfield(vm->L, -1, "set_loading");
        lua_pushstring(vm->L, path);
        lua_pushlstring(vm->L, src, len);
        lua_call(vm->L, 2, 0);
        lua_pop(vm->L, 2);
    }
    int st = vm_load(vm, body, len - (size_t)(body - src), chunk);
    free(src);
    if (st != LUA_OK) {
        lt_vm_errmsg(vm, st, err, n);
        lua_pop(vm->L, 1);
        return false;
    }
    return vm_run(vm, keep ? 1 : 0, err, n);
}

bool lt_vm_dofile(struct lt_vm *vm, const char *path, char *err, size_t n)
{
    return lt_vm_dofile_keep(vm, path, false, err, n);
}
