/* lt_coro.c - coroutine.resume and coroutine.wrap for the sandbox. They behave as Lua's own, with
 * one addition. In the TUI a call (experiment, grading, REPL entry) yields to the runner while a
 * measurement runs on the worker, and every 20 ms slice of computing (lt_runtime.c, lt_vm.c).
 * A coroutine the call resumed may do the same: its yield is marked (vm->propagate), and every
 * resumer on the way passes it up instead of returning it to the Lua code that resumed, then
 * resumes the inner coroutine again when the runner resumes the call. So a measurement started at
 * any depth runs on the worker and Esc cancels it, and a loop in a nested coroutine still gives
 * the screen its turn. A resumer that cannot yield (one inside a metamethod or a C callback) is
 * never asked to: vm->nested_ok says whether the coroutine running now may pass a yield up. */
#include "lt_int.h"

#include <lualib.h>
#include <string.h>

static int resume_loop(lua_State *L, int narg, int wrap);

/* The runner resumed the call again: resume the coroutine that waits below (index 1). */
static int resume_k(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    lua_settop(L, 1); /* values handed down would be for nobody: the inner yield takes none */
    return resume_loop(L, 0, (int)ctx);
}

/* May L pass a yield up to the runner? The call's own coroutine or one resumed through yieldable
 * resumers (vm->nested_ok describes the coroutine running now), and able to yield itself. */
static bool can_pass_up(struct lt_vm *vm, lua_State *L)
{
    bool chain = vm->task.co && vm->task.co == vm->rt->run_thread &&
                 (L == vm->task.co || vm->nested_ok);
    return chain && lua_isyieldable(L);
}

/* Resume the coroutine at index 1 with the narg values above it. Results as coroutine.resume
 * (true, values... / false, error) or, for wrap, the values or the error raised. */
static int resume_loop(lua_State *L, int narg, int wrap)
{
    struct lt_vm *vm = lt_vm_of(L);
    lua_State *co = lua_tothread(L, 1);
    int st, nres;
    for (;;) {
        bool up = can_pass_up(vm, L), saved = vm->nested_ok;
        vm->nested_ok = up;
        st = lua_resume(co, L, narg, &nres);
        vm->nested_ok = saved;
        narg = 0;
        if (st != LUA_YIELD || !vm->propagate) break;
        lua_pop(co, nres);
        if (up) return lua_yieldk(L, 0, wrap, resume_k); /* flag stays set for the next resumer */
        vm->propagate = false; /* cannot go up from here: a slice goes on, a measurement waits */
        lt_job_wait_here(L);
        if (vm->tripped || vm->wall_tripped) return lt_vm_stop(L);
    }
    if (st == LUA_OK || st == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            if (wrap) return lua_error(L);
            lua_pushboolean(L, 0);
            lua_insert(L, -2);
            return 2;
        }
        if (!wrap) lua_pushboolean(L, 1);
        lua_xmove(co, L, nres);
        return wrap ? nres : nres + 1;
    }
    lua_xmove(co, L, 1); /* the error object */
    if (!wrap) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    /* wrap: the dead coroutine's pending to-be-closed variables run now (under its own limit
     * hook), then the error goes on, with the caller's position when it is a string */
    st = lua_status(co);
    if (st != LUA_OK && st != LUA_YIELD) { /* an error inside it, not a refused resume */
#if LUA_VERSION_RELEASE_NUM >= 50406
        st = lua_closethread(co, L);
#else
        st = lua_resetthread(co);
#endif
        lua_pop(L, 1);
        lua_xmove(co, L, 1); /* the error as the closing left it */
    }
    if (st != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/* Move the narg arguments into co, after the checks coroutine.resume makes; NULL + a message
 * on L's top when co cannot be resumed. */
static bool prepare(lua_State *L, lua_State *co, int narg)
{
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return false;
    }
    if (lua_status(co) == LUA_OK && lua_gettop(co) == 0) {
        lua_pushliteral(L, "cannot resume dead coroutine");
        return false;
    }
    lua_xmove(L, co, narg);
    return true;
}

static int co_resume(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    int narg = lua_gettop(L) - 1;
    if (!prepare(L, co, narg)) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    return resume_loop(L, narg, 0);
}

static int co_wrap_call(lua_State *L)
{
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int narg = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1); /* the coroutine at index 1, as resume_loop wants it */
    if (!prepare(L, co, narg)) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
        return lua_error(L);
    }
    return resume_loop(L, narg, 1);
}

static int co_wrap(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, co_wrap_call, 1);
    return 1;
}

void lt_coro_install(lua_State *L)
{
    lua_getglobal(L, LUA_COLIBNAME);
    lua_pushcfunction(L, co_resume);
    lua_setfield(L, -2, "resume");
    lua_pushcfunction(L, co_wrap);
    lua_setfield(L, -2, "wrap");
    lua_pop(L, 1);
}
