/* lt_sandbox.c - the world a VM's code sees, and the VM's life: the allow-listed base library
 * (setmetatable without __gc, load of text only, pcall that cannot swallow a limit, require of
 * the embedded modules alone), the counting string and table libraries, the modules the runtime
 * was given (lt_modules.c) and the support code's globals; lt_vm_new builds it, lt_vm_free
 * takes it down with the run's resources. The core's top file: it names the files below it
 * (lt_vm.c's machinery, the libraries, tasks, jobs, the REPL's help), none of them names it. */
#include "lt.h"
#include "lt_int.h"

#include <assert.h>
#include <limits.h>
#include <lualib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "lt_embed.h"

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

/* xpcall's message handler runs where the error was raised. For a limit stop that is inside the
 * instruction hook, where Lua runs no hooks at all: a handler that loops would never be stopped,
 * and one that raises is called again, nested. So once the limit has tripped the lesson's
 * handler is skipped and the stop goes on unchanged. */
static int sb_msgh(lua_State *L)
{
    if (lt_vm_of(L)->tripped) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int sb_pcall_done(lua_State *L, int status, lua_KContext base)
{
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)base;
}

/* xpcall(f, handler, ...) with the handler wrapped by sb_msgh; yieldable like the original. */
static int sb_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_msgh, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1); /* the first result when f succeeds */
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2); /* f, handler, true, f, args... */
    int st = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, sb_pcall_done);
    return sb_pcall_done(L, st, 2);
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
    lt_vm_charge(L, 1 + (long long)len * 4); /* the parser runs in C: its work is charged */
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
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    lt_vm_charge(L, n + (long long)(len / 8));
    /* the bytes after a NUL are kept: the event carries the length */
    struct lt_event ev = {.type = LT_EV_PRINT, .panel = "", .text = lt_text1(text), .text_len = len};
    lt_vm_emit(L, &ev);
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
        /* a full collection walks the whole heap in one C call: charged by its size */
        lt_vm_charge(L, 1 + (long long)(lt_vm_of(L)->mem / 8));
        lua_gc(L, LUA_GCCOLLECT);
        lua_pushinteger(L, 0);
        return 1;
    }
    return luaL_error(L, "sandbox: collectgarbage only supports \"count\" and \"collect\"");
}

/* require: only the public modules compiled into the binary, as the copies its environment
 * holds (upvalue 1: name -> copy). lt.modules also holds trusted support code (lesson.lua, with
 * the runner's internals) that sandboxed code must not reach. */
static int sb_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    if ((strcmp(name, "units") && strcmp(name, "vram")) ||
        lua_getfield(L, lua_upvalueindex(1), name) == LUA_TNIL)
        return luaL_error(L, "sandbox: no module '%s' (available: units, vram)", name);
    return 1;
}

/* A copy of the table at idx: nested tables copied too (modules hold tables of constants), the
 * rest shared. Sandboxed code that changes a module changes only its own view; trusted code and
 * the C side keep the real one. */
static void copy_table(lua_State *L, int idx, int depth)
{
    idx = lua_absindex(L, idx);
    luaL_checkstack(L, 6, "copy");
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -1) == LUA_TTABLE && depth < 4) {
            copy_table(L, -1, depth + 1);
            lua_replace(L, -2);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
}

/* __lt_sandbox_env() -> a fresh sandbox environment: the allow-listed globals, copies of the
 * libraries and of the public modules (its require returns those copies), load bound to it, _G
 * itself. The lesson VM's own environment is one; every exercise answer gets another, so
 * nothing an answer does reaches the lesson's globals or the modules its check uses. */
static int sandbox_env(lua_State *L)
{
    static const char *const base[] = {"assert", "error", "ipairs", "next", "pairs", "pcall",
                                       "select", "tonumber", "tostring", "type", "xpcall",
                                       "rawequal", "rawlen", "rawget", "rawset", "getmetatable",
                                       "_VERSION", NULL};
    static const char *const os_ok[] = {"clock", "time", "date", "difftime", NULL};
    static const char *const libs[] = {"string", "table", "math", "utf8", "coroutine", NULL};
    static const char *const mods[] = {"gpu", "host", "alloc", "units", "vram", NULL};
    lua_settop(L, 0);
    lua_newtable(L); /* 1: the environment */
    lua_newtable(L); /* 2: its modules, for require */
    for (const char *const *b = base; *b; b++) {
        lua_getglobal(L, *b);
        lua_setfield(L, 1, *b);
    }
    for (const char *const *l = libs; *l; l++) {
        lua_getglobal(L, *l);
        copy_table(L, -1, 4); /* flat: library tables hold functions and numbers */
        lua_setfield(L, 1, *l);
        lua_pop(L, 1);
    }
    lua_newtable(L);
    lua_getglobal(L, "os");
    for (const char *const *k = os_ok; *k; k++) {
        lua_getfield(L, -1, *k);
        lua_setfield(L, -3, *k);
    }
    lua_pop(L, 1);
    lua_setfield(L, 1, "os");
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.modules");
    for (const char *const *m = mods; *m; m++) {
        if (lua_getglobal(L, *m) != LUA_TTABLE) { /* units, vram: embedded Lua modules */
            lua_pop(L, 1);
            lua_getfield(L, 3, *m);
        }
        copy_table(L, -1, 0);
        lua_pushvalue(L, -1);
        lua_setfield(L, 2, *m);
        lua_setfield(L, 1, *m);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_pushcfunction(L, sb_setmetatable);
    lua_setfield(L, 1, "setmetatable");
    lua_pushcfunction(L, sb_xpcall);
    lua_setfield(L, 1, "xpcall");
    lua_pushvalue(L, 1);
    lua_pushcclosure(L, sb_load, 1);
    lua_setfield(L, 1, "load");
    lua_pushcfunction(L, sb_print);
    lua_setfield(L, 1, "print");
    lua_pushcfunction(L, sb_collectgarbage);
    lua_setfield(L, 1, "collectgarbage");
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_require, 1);
    lua_setfield(L, 1, "require");
    lua_pushvalue(L, 1);
    lua_setfield(L, 1, "_G");
    lua_settop(L, 1);
    return 1;
}

static int no_plot(lua_State *L)
{
    return luaL_error(L, "plot.%s is only available in the tutor's sandbox (vramlab, then ':'); "
                      "a script can print, a lesson draws with ex:point, ex:bar, ex:note",
                      lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?");
}

/* The embedded modules compiled once per process: every VM after the first (the catalog makes one
 * per lesson, `check` one per file) loads their bytecode instead of parsing 190 KB of Lua again,
 * which was most of a VM's set-up. Trusted code only, dumped here with its debug information
 * (messages keep their file:line); the sandbox's own load() stays text-only. */
struct dumped {
    char *p;
    size_t len, cap;
};
static struct dumped g_dumped[64];
static pthread_mutex_t g_dump_mu = PTHREAD_MUTEX_INITIALIZER;

static int dump_writer(lua_State *L, const void *p, size_t sz, void *ud)
{
    struct dumped *d = ud;
    if (d->len + sz > d->cap) {
        size_t nc = (d->len + sz) * 2;
        char *np = realloc(d->p, nc);
        if (!np) return 1;
        d->p = np, d->cap = nc;
    }
    memcpy(d->p + d->len, p, sz);
    d->len += sz;
    return 0;
}

/* Module i's chunk on the stack: from the process's bytecode when there is one, else parsed
 * (and dumped for the next VM). */
static int load_module(lua_State *L, int i, const struct lt_embedded *e, const char *chunk)
{
    struct dumped *d = i < (int)(sizeof g_dumped / sizeof *g_dumped) ? &g_dumped[i] : NULL;
    pthread_mutex_lock(&g_dump_mu);
    int st = d && d->len ? luaL_loadbufferx(L, d->p, d->len, chunk, "b") : -1;
    if (st == -1) {
        st = luaL_loadbufferx(L, e->src, e->len, chunk, "t");
        if (st == LUA_OK && d && !d->len) {
            struct dumped nd = {0};
            if (lua_dump(L, dump_writer, &nd, 0) == 0) *d = nd;
            else free(nd.p);
        }
    }
    pthread_mutex_unlock(&g_dump_mu);
    return st;
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
        if (load_module(L, (int)(e - lt_embedded), e, chunk) != LUA_OK ||
            lua_pcall(L, 0, 1, 0) != LUA_OK) {
            gpu_errf(err, n, "%s", lua_tostring(L, -1));
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

/* Under lua_pcall, with the error buffer and its size as arguments. Each phase leaves the stack
 * as it found it (mpv's checks after each phase of its set-up): a slip shows here, not later as
 * a wrong value in some other phase. */
static int vm_setup(lua_State *L)
{
    char *err = lua_touserdata(L, 1);
    size_t errn = (size_t)lua_tointeger(L, 2);
    const int base = lua_gettop(L);
    luaL_openlibs(L);
    lt_strlib_install(L); /* pattern matching that counts against the limits */
    lt_tablib_install(L); /* and the other loops Lua code can size */
    lt_charge_install(L);
    lt_coro_install(L);   /* measurements and slices from nested coroutines reach the runner */
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
    assert(lua_gettop(L) == base);

    /* the modules the runtime was given (lt_modules.c), as Lua's linit.c opens its libraries */
    for (const struct lt_module *m = lt_vm_of(L)->rt->modules; m && m->name; m++) {
        if (m->kind == LT_MODULE_LIB) {
            luaL_requiref(L, m->name, m->open, 1);
            lua_pop(L, 1);
        } else {
            lua_pushcfunction(L, m->open);
            lua_setglobal(L, m->name);
        }
    }
    /* the core's own, for the support code */
    static const luaL_Reg own[] = {{"__lt_pause", lt_pause}, {"__lt_tr", lt_tr_add},
                                   {"__lt_answer_env", sandbox_env}, {"__lt_fmt_bytes", lt_fmt_bytes},
                                   {NULL, NULL}};
    for (const luaL_Reg *r = own; r->name; r++) {
        lua_pushcfunction(L, r->func);
        lua_setglobal(L, r->name);
    }
    lua_createtable(L, 0, 1); /* what the validator holds lessons to: lt_limits.h, not a copy */
    lua_pushinteger(L, LT_ID_MAX);
    lua_setfield(L, -2, "id");
    lua_setglobal(L, "__lt_limits");
    if (load_embedded(L, err, errn) != 0) return luaL_error(L, "%s", err);
    assert(lua_gettop(L) == base);

    lua_pushcfunction(L, sandbox_env);
    lua_call(L, 0, 1);
    int env = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.modules");
    /* lesson constructors: lesson, text, experiment, exercise */
    lua_getfield(L, -1, "lesson");
    lua_getfield(L, -1, "install");
    lua_pushvalue(L, env);
    lua_call(L, 1, 0);
    lua_pop(L, 2);
    /* plot draws on the tutor's sandbox panels (lt_vm_repl_setup replaces this): elsewhere a use
     * says where it works instead of "attempt to index a nil value (global 'plot')" */
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, no_plot);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_setfield(L, env, "plot");
    lua_pushcfunction(L, lt_help);
    lua_setfield(L, env, "help");
    lua_setfield(L, LUA_REGISTRYINDEX, "lt.env");
    assert(lua_gettop(L) == base);
    return 0;
}

/* Lua calls this for an error raised where nothing catches it; returning would abort silently.
 * Every call into Lua from C is protected, so this is a bug: say so, with the terminal back. */
static int vm_panic(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "not a string";
    if (vm && vm->rt->fatal) vm->rt->fatal(msg);
    fprintf(stderr, "vramlab: internal error: a Lua error that nothing caught: %s\n", msg);
    fflush(stderr);
    abort();
}

struct lt_vm *lt_vm_new(struct lt_runtime *rt, char *err, size_t n)
{
    struct lt_vm *vm = calloc(1, sizeof *vm);
    char setup_err[256] = "";
    if (!vm) {
        gpu_errf(err, n, "out of memory");
        return NULL;
    }
    vm->rt = rt;
    vm->L = lua_newstate(lt_vm_alloc, vm);
    if (!vm->L) {
        gpu_errf(err, n, "cannot create a Lua state (memory limit too small?)");
        free(vm);
        return NULL;
    }
    *(struct lt_vm **)lua_getextraspace(vm->L) = vm;
    lua_atpanic(vm->L, vm_panic);
    lua_pushcfunction(vm->L, vm_setup);
    lua_pushlightuserdata(vm->L, setup_err);
    lua_pushinteger(vm->L, (lua_Integer)sizeof setup_err);
    if (lua_pcall(vm->L, 2, 0, 0) != LUA_OK) {
        gpu_errf(err, n, "sandbox set-up failed: %s", lua_tostring(vm->L, -1));
        lua_close(vm->L);
        free(vm);
        return NULL;
    }
    return vm;
}

void lt_vm_free(struct lt_vm *vm)
{
    if (!vm) return;
    lt_task_cancel(vm);
    if (vm->rt->job) lt_job_wait(vm->rt);
    lt_res_release(vm, INT_MIN); /* every buffer and allocator, whoever made it */
    gpu_host_arena_free(vm->host_arena);
    lua_sethook(vm->L, NULL, 0, 0);
    lua_close(vm->L);
    free(vm->chunk);
    free(vm);
}
