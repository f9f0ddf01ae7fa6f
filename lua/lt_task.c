/* lt_task.c - a sandboxed call run as a coroutine: a lesson's experiment, the grading of an
 * exercise (a "predict" one measures first), a REPL entry. In async mode (the TUI) a measurement
 * inside it runs on the worker thread while the coroutine yields, and Lua that computes for long
 * yields every slice (lt_vm.c), so the screen stays live; headless, a step runs it to the end.
 * Cancelling closes the coroutine under the limits. One call runs at a time per runtime: it and
 * the coroutines it resumes are the only threads that yield for measurements. A call is a run:
 * its wall-time limit, measurements included, starts here. */
#include "lt.h"
#include "lt_int.h"

#include <stdio.h>
#include <string.h>

#include "gpu_err.h"

/* (f, args...) -> a new thread holding them; protected: lua_newthread may raise. */
static int make_thread(lua_State *L)
{
    int n = lua_gettop(L);
    lua_State *co = lua_newthread(L);
    lua_insert(L, 1);
    lua_xmove(L, co, n);
    return 1;
}

bool lt_task_start(struct lt_vm *vm, int nargs, char *err, size_t n)
{
    lua_State *L = vm->L;
    struct lt_task *t = &vm->task;
    if (vm->rt->run_thread || t->co) {
        lua_pop(L, nargs + 1);
        gpu_errf(err, n, "another experiment or measurement is running: wait for it, or cancel "
                         "it with Esc where it runs");
        return false;
    }
    lua_pushcfunction(L, make_thread);
    lua_insert(L, -(nargs + 2));
    int st = lua_pcall(L, nargs + 1, 1, 0);
    if (st != LUA_OK) {
        lt_vm_errmsg(vm, st, err, n);
        lua_pop(L, 1);
        return false;
    }
    t->co = lua_tothread(L, -1);
    t->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    t->nargs = nargs;
    t->fresh = true;
    t->generation = ++vm->generation;
    vm->rt->run_thread = t->co;
    gpu_cancel_set(&vm->rt->cancel, false);
    lt_vm_run_begin(vm);
    return true;
}

int lt_task_step(struct lt_vm *vm, int *nres, char *err, size_t n)
{
    struct lt_task *t = &vm->task;
    struct lt_runtime *rt = vm->rt;
    *nres = 0;
    if (!t->co) {
        gpu_errf(err, n, "nothing is running");
        return LUA_ERRRUN;
    }
    for (;;) {
        bool measured = rt->job != NULL;
        if (rt->job) {
            if (rt->async && !lt_job_poll(rt)) {
                /* the measurement goes past the run's wall time: cancel it; the stop is raised
                 * where it was started once it returns */
                if (vm->wall_end > 0 && gpu_now() > vm->wall_end && !gpu_cancelled(&rt->cancel)) {
                    gpu_cancel_set(&rt->cancel, true);
                    vm->wall_tripped = vm->tripped = true;
                }
                return LUA_YIELD;
            }
            lt_job_wait(rt);
        }
        /* A fresh budget for the first resume and after a measurement; code that yields on its
         * own goes on with what it has left, or it would never be stopped. The coroutine keeps
         * its hook afterwards: sandboxed code that resumes it later is still limited. */
        if (measured || t->fresh) lt_vm_arm(vm, t->co);
        else lt_vm_continue(vm, t->co);
        vm->nested_ok = vm->propagate = false;
        int nr = 0, st = lua_resume(t->co, vm->L, t->fresh ? t->nargs : 0, &nr);
        lt_vm_disarm(vm);
        vm->nested_ok = vm->propagate = false; /* a yield passed up from a nested coroutine ends here */
        t->fresh = false;
        if (st == LUA_YIELD) {
            lua_pop(t->co, nr);
            if (!rt->async) continue;
            if (!rt->job) vm->paused_at = gpu_cpu_now(); /* its own yield or its slice ended */
            return LUA_YIELD;
        }
        if (st == LUA_OK && vm->tripped) { /* stopped, and a pcall in the code swallowed it */
            lua_settop(t->co, 0);
            lt_vm_push_stop(vm, t->co);
            st = LUA_ERRRUN;
        }
        if (st != LUA_OK) {
            struct lt_vm tmp = *vm; /* the message and its position come from the coroutine */
            tmp.L = t->co;
            lt_vm_errmsg(&tmp, st, err, n);
            return st;
        }
        *nres = nr;
        return LUA_OK;
    }
}

void lt_task_end(struct lt_vm *vm, bool free_allocations)
{
    struct lt_task *t = &vm->task;
    if (!t->co) return;
    if (vm->rt->run_thread == t->co) vm->rt->run_thread = NULL;
    lt_vm_run_end(vm);
    luaL_unref(vm->L, LUA_REGISTRYINDEX, t->ref);
    t->co = NULL;
    t->ref = LUA_NOREF;
    if (free_allocations) {
        lt_res_release(vm, t->generation);
    }
}

void lt_task_cancel(struct lt_vm *vm)
{
    struct lt_task *t = &vm->task;
    if (!t->co) return;
    gpu_cancel_set(&vm->rt->cancel, true);
    lt_job_wait(vm->rt);
    lua_State *co = t->co;
    t->co = NULL; /* its pending __close handlers finish here: no slices, no yields */
    lt_vm_arm(vm, co); /* they are sandboxed code: limited */
#if LUA_VERSION_RELEASE_NUM >= 50406
    lua_closethread(co, vm->L);
#else
    lua_resetthread(co);
#endif
    lt_vm_disarm(vm);
    t->co = co;
    lt_task_end(vm, true);
}
