/* lt_vm.c - the sandboxed Lua VM's machinery: a heap cap through lua_Alloc, an instruction/time
 * limit whose hook re-arms so that pcall cannot swallow it, the stop messages, every event's way
 * to the sink (lt_vm_emit), the run's resources (lt_res) and loading and running chunks. What
 * the VM's code sees, and the VM's creation and end, are lt_sandbox.c's. */
#include "lt.h"
#include "lt_int.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_esc.h"
#include "gpu_file.h"
#include "gpu_utf8.h"
#include "lt_embed.h"

#define HOOK_QUANTUM 1000 /* instructions between limit checks */
#define SLICE_SECONDS 0.02 /* a call in the TUI computes at most this long between screen turns */
/* Outside a run the C side may still allocate in the VM (a new experiment thread, an answer
 * string): it gets this much room above the cap, so that a lesson that left the heap full
 * makes its next run fail with the memory stop instead of the process panicking. */
#define HEAP_SLACK ((size_t)4 << 20)

void *lt_vm_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct lt_vm *vm = ud;
    if (!ptr) osize = 0;
    if (nsize == 0) {
        free(ptr);
        vm->mem -= osize;
        return NULL;
    }
    size_t cap = vm->rt->lim.mem_bytes + (vm->armed ? 0 : HEAP_SLACK);
    if (nsize > osize && vm->mem - osize + nsize > cap) {
        vm->mem_refused = true;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p) return NULL;
    vm->mem = vm->mem - osize + nsize;
    if (vm->mem > vm->mem_peak) vm->mem_peak = vm->mem;
    return p;
}

/* Code compiled into the binary (the lua/ support modules): never where a sandbox error is
 * reported. */
static bool trusted_source(const char *source)
{
    for (const struct lt_embedded *e = lt_embedded; e->name; e++)
        if (source[0] == '@' && !strcmp(source + 1, e->file)) return true;
    return false;
}

/* Where the running sandboxed code is, as "name:line:" for a message: the innermost frame of the
 * chunk being run (vm->chunk, by its full name) or of other sandboxed code (load()ed text, an
 * exercise answer, the REPL) on L's stack; else the line of the chunk the limit hook saw last.
 * Empty when nothing is known. */
static void where(struct lt_vm *vm, lua_State *L, char *buf, size_t n)
{
    lua_Debug ar;
    for (int lv = 0; lua_getstack(L, lv, &ar); lv++) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue; /* C frames */
        if (vm->chunk && !strcmp(ar.source, vm->chunk)) {
            snprintf(buf, n, "%s:%d:", vm->chunk + 1, ar.currentline);
            return;
        }
        if (!trusted_source(ar.source)) {
            snprintf(buf, n, "%s:%d:", ar.short_src, ar.currentline);
            return;
        }
    }
    if (vm->chunk) snprintf(buf, n, "%s:%d:", vm->chunk + 1, vm->chunk_line > 0 ? vm->chunk_line : 1);
    else if (n) buf[0] = 0;
}

/* "name:123: ..." */
static bool has_position(const char *m)
{
    const char *c = strchr(m, ':');
    if (!c || c == m || !isdigit((unsigned char)c[1])) return false;
    for (c++; isdigit((unsigned char)*c); c++) {}
    return *c == ':';
}

void lt_vm_push_stop(struct lt_vm *vm, lua_State *L)
{
    const struct lt_limits *lim = &vm->rt->lim;
    char msg[200];
    if (vm->wall_tripped)
        snprintf(msg, sizeof msg, "stopped: the run went past the sandbox limit of %g s of wall "
                 "time (measurements included)", lim->wall_seconds);
    else if (lim->instructions >= 1000000)
        snprintf(msg, sizeof msg, "stopped: the code ran past the sandbox limit (%g million "
                 "instructions or %g s)", (double)(lim->instructions / 100000) / 10, lim->seconds);
    else
        snprintf(msg, sizeof msg, "stopped: the code ran past the sandbox limit (%lld instructions "
                 "or %g s)", lim->instructions, lim->seconds);
    lua_pushstring(L, msg);
}

static int stop(lua_State *L, struct lt_vm *vm)
{
    char at[600];
    /* where the limit first ran out: a learner's loop inside a check's pcall is the answer's
     * line, not the line of the check that goes on after catching it */
    if (!vm->stop_at[0]) where(vm, L, vm->stop_at, sizeof vm->stop_at);
    snprintf(at, sizeof at, "%s", vm->stop_at);
    lua_pushstring(L, at);
    if (at[0]) lua_pushliteral(L, " ");
    lt_vm_push_stop(vm, L);
    lua_concat(L, at[0] ? 3 : 2);
    return lua_error(L);
}

int lt_vm_stop(lua_State *L) { return stop(L, lt_vm_of(L)); }

/* Has a limit run out? Sets the trip flags; the wall-time limit stays tripped until the run
 * ends, whatever later arms do. `now` is the wall clock; Lua's time limit is on the CPU time of
 * the thread that runs Lua, so a busy machine (a classroom server, a parallel test run) slows a
 * run down without stopping it. */
static bool spent(struct lt_vm *vm, double now)
{
    if (vm->wall_end > 0 && now > vm->wall_end) vm->wall_tripped = true;
    if (vm->wall_tripped || vm->count > vm->rt->lim.instructions || gpu_cpu_now() > vm->deadline)
        vm->tripped = true;
    return vm->tripped;
}

/* May L yield to the runner for its slice or a measurement: the call's own coroutine, or one it
 * resumed through yieldable resumers (lt_coro.c)? */
static bool in_call(struct lt_vm *vm, lua_State *L)
{
    return vm->task.co && vm->task.co == vm->rt->run_thread &&
           (L == vm->task.co || vm->nested_ok) && lua_isyieldable(L);
}

/* Add to the instruction count, saturating: a charge of 2^63 steps (a whole table.move range)
 * must not wrap it. */
static void count_add(struct lt_vm *vm, long long n)
{
    if (n <= 0) return;
    vm->count = n > LLONG_MAX - vm->count ? LLONG_MAX : vm->count + n;
}

static void vm_hook(lua_State *L, lua_Debug *ar)
{
    struct lt_vm *vm = lt_vm_of(L);
    /* Count what this thread's hook really stands for: a coroutine left at quantum 1 by an
     * earlier stop counts 1 per call (and gets the normal quantum back), not HOOK_QUANTUM. */
    int q = lua_gethookcount(L);
    count_add(vm, q > 0 ? q : HOOK_QUANTUM);
    double now = gpu_now();
    if (spent(vm, now)) {
        /* From now on every instruction of this thread raises again: a pcall that catches the
         * error only buys one more instruction. */
        lua_sethook(L, vm_hook, LUA_MASKCOUNT, 1);
        stop(L, vm);
    }
    if (q != HOOK_QUANTUM) lua_sethook(L, vm_hook, LUA_MASKCOUNT, HOOK_QUANTUM);
    /* remember the chunk's line: a memory stop has no stack left to say where it happened */
    if (vm->chunk && lua_getinfo(L, "Sl", ar) && ar->currentline > 0 &&
        !strcmp(ar->source, vm->chunk))
        vm->chunk_line = ar->currentline;
    /* A running call that computes for long gives the screen its turn every slice (the TUI
     * steps it again at once): keys stay live and Esc stops even a loop that never measures.
     * A coroutine the call resumed yields too; its resumers pass the yield up (lt_coro.c). */
    if (vm->rt->async && now > vm->slice_end && in_call(vm, L)) {
        if (L != vm->task.co) vm->propagate = true;
        lua_yield(L, 0);
    }
}

bool lt_job_can_yield(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    return vm->rt->async && !vm->rt->job && in_call(vm, L);
}

void lt_vm_charge(lua_State *L, long long steps)
{
    if (lua_gethook(L) != vm_hook) return; /* trusted code between runs: not limited */
    struct lt_vm *vm = lt_vm_of(L);
    count_add(vm, steps);
    if (spent(vm, gpu_now())) {
        lua_sethook(L, vm_hook, LUA_MASKCOUNT, 1);
        stop(L, vm);
    }
}

bool lt_vm_mem_add(struct lt_vm *vm, long long delta)
{
    if (delta > 0 && vm->armed && vm->mem + (size_t)delta > vm->rt->lim.mem_bytes) {
        vm->mem_refused = true; /* not counted: the caller undoes what it did */
        return false;
    }
    if (delta < 0 && (size_t)-delta > vm->mem) delta = -(long long)vm->mem;
    vm->mem += (size_t)delta; /* two's complement: a negative delta subtracts */
    if (vm->mem > vm->mem_peak) vm->mem_peak = vm->mem;
    return true;
}

int lt_vm_mem_stop(lua_State *L)
{
    lt_vm_of(L)->mem_refused = true;
    return luaL_error(L, "not enough memory"); /* lt_vm_errmsg names the cap */
}

void lt_vm_publish(struct lt_vm *vm, bool computing)
{
    struct lt_runtime *rt = vm->rt;
    pthread_mutex_lock(&rt->watch.mu);
    rt->watch.a.lua_deadline = computing ? vm->deadline : 0;
    rt->watch.a.lua_clock = vm->clock;
    rt->watch.a.lua_limit = rt->lim.seconds;
    rt->watch.a.wall_end = vm->wall_end;
    rt->watch.a.wall_limit = rt->lim.wall_seconds;
    snprintf(rt->watch.a.what, sizeof rt->watch.a.what, "%s", vm->label[0] ? vm->label : "Lua code");
    pthread_mutex_unlock(&rt->watch.mu);
}

void lt_vm_label(struct lt_vm *vm, const char *fmt, ...)
{
    char raw[sizeof vm->label];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* escaped now, once: the watchdog, which may not allocate, writes it to the terminal as it
     * is (a file name or a REPL entry can hold any byte) */
    gpu_esc_field(vm->label, sizeof vm->label, raw);
}

void lt_vm_run_begin(struct lt_vm *vm)
{
    vm->text_bytes = 0;
    vm->wall_end = gpu_now() + vm->rt->lim.wall_seconds;
    vm->wall_tripped = false;
    vm->nested_ok = vm->propagate = false;
    if (!vm->rt->job) gpu_cancel_set(&vm->rt->cancel, false);
    lt_vm_publish(vm, false);
}

void lt_vm_run_end(struct lt_vm *vm)
{
    /* no measurement of this VM's is in flight now: its host arrays go (the arena stays) */
    gpu_host_arena_release(vm->host_arena);
    vm->wall_end = 0;
    vm->wall_tripped = false;
    lt_vm_publish(vm, false);
}

void lt_vm_arm(struct lt_vm *vm, lua_State *th)
{
    vm->count = 0;
    vm->tripped = vm->wall_tripped;
    if (!vm->tripped) vm->stop_at[0] = 0;
    vm->mem_refused = false;
    vm->clock = gpu_cpu_clock();
    vm->deadline = gpu_cpu_now() + vm->rt->lim.seconds;
    vm->slice_end = gpu_now() + SLICE_SECONDS;
    vm->armed = true;
    lua_sethook(th, vm_hook, LUA_MASKCOUNT, vm->tripped ? 1 : HOOK_QUANTUM);
    lt_vm_publish(vm, true);
}

void lt_vm_continue(struct lt_vm *vm, lua_State *th)
{
    /* Setting the hook restarts its count, so code that yields after a few instructions would
     * never reach a check: a resume costs a quantum, and a spent budget stops the resumed code
     * at its first instruction. */
    vm->armed = true;
    count_add(vm, HOOK_QUANTUM);
    double now = gpu_now();
    /* the limit is on Lua's time: what the thread did while the call was paused (drawing the
     * screen) is not the call's */
    if (vm->paused_at > 0) vm->deadline += gpu_cpu_now() - vm->paused_at;
    vm->paused_at = 0;
    vm->slice_end = now + SLICE_SECONDS;
    spent(vm, now);
    lua_sethook(th, vm_hook, LUA_MASKCOUNT, vm->tripped ? 1 : HOOK_QUANTUM);
    lt_vm_publish(vm, true);
}

void lt_vm_disarm(struct lt_vm *vm)
{
    vm->armed = false;
    lua_sethook(vm->L, NULL, 0, 0);
    lt_vm_publish(vm, false);
}

void lt_vm_errmsg(struct lt_vm *vm, int status, char *err, size_t n)
{
    char what[1024], at[600];
    const char *msg = lua_type(vm->L, -1) == LUA_TSTRING ? lua_tostring(vm->L, -1) : NULL;
    /* a refused allocation inside the message handler surfaces as "error in error handling" */
    if (status == LUA_ERRMEM || (vm->mem_refused && (status == LUA_ERRERR ||
                                                     (msg && strstr(msg, "not enough memory")))))
        snprintf(what, sizeof what, "stopped: memory limit of %zu MiB reached",
                 vm->rt->lim.mem_bytes >> 20);
    else if (msg)
        snprintf(what, sizeof what, "%s", msg);
    else
        snprintf(what, sizeof what, "error object is a %s value", luaL_typename(vm->L, -1));
    /* Every message says where: a memory stop, error(x, 0) or an error object that is not a
     * string get the position of the code that ran (vm->L may be a failed coroutine, whose
     * frames are still there to look at). */
    at[0] = 0;
    if (!has_position(what)) where(vm, vm->L, at, sizeof at);
    /* Lua cuts a long file name to "...tail" (LUA_IDSIZE): the chunk's full path goes back in,
     * so that file:line can be opened */
    const char *colon = strncmp(what, "...", 3) ? NULL : strchr(what + 3, ':');
    size_t tail = colon ? (size_t)(colon - what - 3) : 0, full = vm->chunk ? strlen(vm->chunk + 1) : 0;
    if (colon && vm->chunk && vm->chunk[0] == '@' && full > tail &&
        !strncmp(vm->chunk + 1 + full - tail, what + 3, tail)) {
        gpu_errf(err, n, "%s%s%s%s", at, at[0] ? " " : "", vm->chunk + 1, colon);
        return;
    }
    gpu_errf(err, n, "%s%s%s", at, at[0] ? " " : "", what);
}

/* s (len bytes) as field f carries it (lt_event_cut): itself, or the result pushed on L (anchored
 * until the caller returns). Its length in *out. */
static const char *cut(lua_State *L, const char *s, size_t len, unsigned f, size_t *out)
{
    char buf[LT_EV_CUT_BUF];
    const char *c = lt_event_cut(s, len, f, buf, out);
    if (c != buf) return c;
    lua_pushlstring(L, buf, *out);
    return lua_tostring(L, -1);
}

/* A text of the event, both languages (the second one only when it differs). */
static size_t cut_text(lua_State *L, struct lt_text *t, unsigned f)
{
    size_t k, sum = 0;
    for (int z = 0; z < 2; z++) {
        if (!t->s[z]) continue;
        if (z && t->s[0] && !strcmp(t->s[0], t->s[1])) {
            t->s[1] = t->s[0];
            continue;
        }
        t->s[z] = cut(L, t->s[z], strlen(t->s[z]), f, &k), sum += k;
    }
    return sum;
}

void lt_vm_emit(lua_State *L, struct lt_event *ev)
{
    struct lt_vm *vm = lt_vm_of(L);
    size_t k, sum = 0;
    int nc = ev->cells ? ev->ncells : 0, nb = ev->blocks ? ev->nblocks : 0;
    luaL_checkstack(L, 16 + 2 * (nc + nb), "event");
    if (ev->panel)
        ev->panel = cut(L, ev->panel, strlen(ev->panel), LT_F_PANEL, &k), sum += k;
    sum += cut_text(L, &ev->series, LT_F_SERIES) +
           cut_text(L, &ev->unit, LT_F_UNIT);
    if (ev->cells && nc > 0) { /* cut into a copy: the emitter's array is its own */
        struct lt_text *c = lua_newuserdatauv(L, (size_t)nc * sizeof *c, 0);
        memcpy(c, ev->cells, (size_t)nc * sizeof *c);
        for (int i = 0; i < nc; i++) sum += cut_text(L, &c[i], LT_F_CELLS);
        ev->cells = c;
    }
    if (ev->blocks && nb > 0) {
        struct lt_map_block *b = lua_newuserdatauv(L, (size_t)nb * sizeof *b, 0);
        memcpy(b, ev->blocks, (size_t)nb * sizeof *b);
        for (int i = 0; i < nb; i++) sum += cut_text(L, &b[i].owner, LT_F_BLOCKS);
        ev->blocks = b;
    }
    if (ev->type == LT_EV_PRINT && ev->text.s[0]) { /* bytes after a NUL count: text_len */
        const char *t = ev->text.s[0];
        t = cut(L, t, ev->text_len ? ev->text_len : strlen(t), LT_F_TEXT, &k);
        if (ev->text_len) ev->text_len = k;
        ev->text = lt_text1(t);
        sum += k;
    } else {
        sum += cut_text(L, &ev->text, lt_event_text_field(ev->type));
    }
    vm->text_bytes += sum;
    if (vm->text_bytes > LT_RUN_TEXT_MAX)
        luaL_error(L, LT_RUN_TEXT_STOP, (int)(LT_RUN_TEXT_MAX >> 20));
    struct lt_runtime *rt = vm->rt;
    if (rt->sink) rt->sink(rt->sink_ud, ev);
}

void lt_res_add(struct lt_vm *vm, struct lt_res *r, void (*release)(struct lt_res *))
{
    r->release = release;
    r->generation = vm->generation;
    r->prev = NULL;
    r->next = vm->res;
    if (r->next) r->next->prev = r;
    vm->res = r;
}

void lt_res_remove(struct lt_vm *vm, struct lt_res *r)
{
    if (r->prev) r->prev->next = r->next;
    else if (vm->res == r) vm->res = r->next;
    else return; /* not linked */
    if (r->next) r->next->prev = r->prev;
    r->prev = r->next = NULL;
}

void lt_res_release(struct lt_vm *vm, int generation)
{
    for (struct lt_res *r = vm->res, *nx; r; r = nx) { /* newest first */
        nx = r->next; /* a release unlinks r alone */
        if (r->generation >= generation) r->release(r);
    }
}

/* Load a chunk with the sandbox environment as its _ENV. */
static int vm_load(struct lt_vm *vm, const char *src, size_t len, const char *name)
{
    free(vm->chunk); /* what errors and stops are reported against from now on */
    vm->chunk = strdup(name);
    vm->chunk_line = 0;
    int st = luaL_loadbufferx(vm->L, src, len, name, "t");
    if (st != LUA_OK) return st;
    lua_getfield(vm->L, LUA_REGISTRYINDEX, "lt.env");
    lua_setupvalue(vm->L, -2, 1);
    return LUA_OK;
}

/* Keep a "file:line: what" message as it is; give one without a position (error(x, 0), an error
 * object that is not a string) the position of the sandboxed code that raised it, while its
 * frames are still on the stack. Error objects are never converted through their metamethods. */
static int traceback_msgh(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    const char *msg = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : NULL;
    char at[600];
    if (msg && has_position(msg)) return 1;
    where(vm, L, at, sizeof at);
    if (!at[0]) return 1;
    if (msg) lua_pushfstring(L, "%s %s", at, msg);
    else lua_pushfstring(L, "%s error object is a %s value", at, luaL_typename(L, 1));
    return 1;
}

static bool vm_run(struct lt_vm *vm, int nres, char *err, size_t n)
{
    lua_pushcfunction(vm->L, traceback_msgh);
    lua_insert(vm->L, -2);
    lt_vm_label(vm, "file %s", vm->chunk ? vm->chunk + 1 : "?");
    lt_vm_run_begin(vm);
    lt_vm_arm(vm, vm->L);
    int st = lua_pcall(vm->L, 0, nres, -2);
    lt_vm_disarm(vm);
    if (st == LUA_OK && vm->tripped) { /* a pcall caught the stop on its way out: still a stop */
        lua_settop(vm->L, lua_gettop(vm->L) - (nres < 0 ? 0 : nres));
        lt_vm_push_stop(vm, vm->L);
        st = LUA_ERRRUN; /* lt_vm_errmsg adds the line the hook saw last */
    }
    lt_vm_run_end(vm);
    if (st != LUA_OK) {
        lt_vm_errmsg(vm, st, err, n);
        lua_pop(vm->L, 2);
        /* a memory stop leaves garbage behind, some of it C memory that only finalizers give
         * back (an allocator's blocks), which Lua's emergency collections never run */
        if (vm->mem_refused) lua_gc(vm->L, LUA_GCCOLLECT);
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
    /* regular files only (a FIFO would hang the catalog scan), or "-" for standard input; 4 MiB
     * at most either way */
    return gpu_file_read(path, LT_MAX_FILE, GPU_FILE_STDIN, len, err, n);
}

/* A file's error always starts "path:line:": one raised inside other code (text given to load(),
 * an error the message handler could not place) is prefixed with the file's line. Returns false,
 * for the callers' convenience. */
static bool ensure_path(const char *path, int line, char *err, size_t n)
{
    size_t pl = strlen(path);
    const char *p = err + pl;
    if (!strncmp(err, path, pl) && p[0] == ':' && isdigit((unsigned char)p[1])) {
        for (p++; isdigit((unsigned char)*p); p++) {}
        if (*p == ':') return false;
    }
    char *orig = strdup(err);
    if (orig) gpu_errf(err, n, "%s:%d: %s", path, line > 0 ? line : 1, orig);
    free(orig);
    return false;
}

bool lt_vm_dofile_keep(struct lt_vm *vm, const char *path, bool keep, char *err, size_t n)
{
    size_t len;
    char chunk[1100];
    char *src = lt_read_file(path, &len, err, n);
    if (!src) return false;
    if (!strcmp(path, "-")) path = "stdin"; /* messages read "stdin:LINE: ..." */
    snprintf(chunk, sizeof chunk, "@%s", path);
    const char *body = src;
    if (len && src[0] == '#') { /* a #! line: keep the line count right */
        body = strchr(src, '\n');
        body = body ? body : src + len;
    }
    if (len && src[0] == LUA_SIGNATURE[0]) {
        gpu_errf(err, n, "%s:1: binary chunks are not allowed", path);
        free(src);
        return false;
    }
    if (keep) { /* `return lesson {...}` is a tail call: tell the validator where the file is */
        lua_getfield(vm->L, LUA_REGISTRYINDEX, "lt.modules");
        lua_getfield(vm->L, -1, "lesson");
        lua_getfield(vm->L, -1, "set_loading");
        lua_pushstring(vm->L, path);
        lua_pushlstring(vm->L, src, len);
        /* protected: a big file under a small heap cap must not panic the process */
        int st = lua_pcall(vm->L, 2, 0, 0);
        if (st != LUA_OK) {
            lt_vm_errmsg(vm, st, err, n);
            lua_pop(vm->L, 3);
            free(src);
            return ensure_path(path, 1, err, n);
        }
        lua_pop(vm->L, 2);
    }
    int st = vm_load(vm, body, len - (size_t)(body - src), chunk);
    free(src);
    if (st != LUA_OK) {
        lt_vm_errmsg(vm, st, err, n);
        lua_pop(vm->L, 1);
        return ensure_path(path, 1, err, n);
    }
    if (vm_run(vm, keep ? 1 : 0, err, n)) return true;
    return ensure_path(path, vm->chunk_line, err, n);
}

bool lt_vm_dofile(struct lt_vm *vm, const char *path, char *err, size_t n)
{
    return lt_vm_dofile_keep(vm, path, false, err, n);
}
