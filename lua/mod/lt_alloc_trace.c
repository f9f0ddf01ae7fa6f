/* lt_alloc_trace.c - the `alloc` module's functions of the allocator model alone: replaying an
 * allocation trace (a job on the worker: a million events take a few hundred ms; a run's limits
 * and Esc cancel it between events, and what it takes in C counts against the heap cap while it
 * runs), and PyTorch's size arithmetic (format_size, round_size). */
#include "lt_alloc_int.h"

#include <stdio.h>
#include <string.h>

struct replay_job {
    struct lt_job base;
    const char *text; /* anchored on the caller's stack */
    size_t len;
    bool events;      /* the trace came as a table: "line N" means event N */
    struct gpu_caching_opts o;
    uint64_t capacity;
    size_t nevents;
    double parse_s, replay_s;
    struct gpu_replay_result r;
    struct lt_vm *vm;
    long long charged; /* host bytes counted against the heap cap while the job runs */
};

/* What a replay takes in C, from a pass over the text: the parsed events and the replayer's slot
 * tables per line, and the model's blocks, one per allocation live at once (frees counted by
 * line, which is close enough for a bound). Sets *lines. */
static long long replay_bytes(const char *s, size_t len, long long *lines)
{
    long long n = 0, live = 0, peak = 0;
    for (const char *p = s, *e = s + len; p < e;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        while (p < e && (*p == ' ' || *p == '\t')) p++;
        if (p < e && *p == 'a') peak = ++live > peak ? live : peak;
        else if (p < e && *p == 'f' && live > 0) live--;
        n++;
        p = nl ? nl + 1 : e;
    }
    *lines = n;
    return n * ((long long)sizeof(struct gpu_trace_ev) + 16) + peak * 160;
}

static void replay_release(struct lt_job *j)
{
    struct replay_job *rj = (struct replay_job *)j;
    lt_vm_mem_add(rj->vm, -rj->charged);
    rj->charged = 0;
}

static void replay_fn(struct lt_job *j)
{
    struct replay_job *rj = (struct replay_job *)j;
    struct gpu_trace t;
    struct gpu_caching *c = NULL;
    double t0 = gpu_now();
    j->st = gpu_trace_parse(rj->text, rj->len, &t, j->why, sizeof j->why);
    rj->parse_s = gpu_now() - t0;
    if (j->st != GPU_OK) return;
    rj->nevents = t.n;
    j->st = gpu_caching_new_model(&rj->o, rj->capacity, &c, j->why, sizeof j->why);
    if (j->st == GPU_OK) {
        t0 = gpu_now();
        j->st = gpu_trace_replay(&t, c, &rj->r, &j->rt->cancel, j->why, sizeof j->why); /* Esc */
        rj->replay_s = gpu_now() - t0;
    }
    gpu_caching_destroy(c);
    gpu_trace_free(&t);
}

static int replay_push(lua_State *L, struct lt_job *j)
{
    struct replay_job *rj = (struct replay_job *)j;
    if (j->st == GPU_ERR_CANCELLED) return luaL_error(L, "cancelled");
    if (j->st != GPU_OK) {
        lua_pushnil(L);
        if (rj->events && !strncmp(j->why, "line ", 5)) lua_pushfstring(L, "event %s", j->why + 5);
        else lua_pushstring(L, j->why);
        return 2;
    }
    const struct gpu_replay_result *r = &rj->r;
    lua_createtable(L, 0, 16);
    lt_seti(L, "events", rj->nevents);
    lt_seti(L, "allocs", r->allocs);
    lt_seti(L, "frees", r->frees);
    lt_seti(L, "empties", r->empties);
    lt_seti(L, "ooms", r->ooms);
    lt_seti(L, "skipped_frees", r->skipped_frees);
    lt_seti(L, "capacity", rj->capacity);
    lt_setn(L, "parse_seconds", rj->parse_s);
    lt_setn(L, "replay_seconds", rj->replay_s);
    char conf[160];
    lt_alloc_conf_text(&rj->o, conf, sizeof conf);
    lua_pushstring(L, conf);
    lua_setfield(L, -2, "conf");
    if (r->ooms) {
        lua_createtable(L, 0, 2);
        lt_seti(L, rj->events ? "event" : "line", r->first_oom_line);
        lua_pushstring(L, r->first_oom);
        lua_setfield(L, -2, "message");
        lua_setfield(L, -2, "first_oom");
    }
    lua_createtable(L, (int)r->noom_list, 0);
    for (size_t i = 0; i < r->noom_list; i++) {
        lua_createtable(L, 0, 2);
        lt_seti(L, rj->events ? "event" : "line", r->oom_list[i].line);
        lt_seti(L, "bytes", r->oom_list[i].bytes);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "oom_list");
    lt_alloc_push_stats(L, &r->stats);
    lua_setfield(L, -2, "stats");
    return 1;
}

/* {{"a", id, bytes}, {"f", id}, {"e"}} -> trace text, one event per line */
static void events_to_text(lua_State *L, int t)
{
    luaL_Buffer b;
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    luaL_buffinit(L, &b);
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_rawgeti(L, t, i) != LUA_TTABLE) luaL_error(L, "alloc.trace_replay: event %d is not a table", (int)i);
        int e = lua_gettop(L);
        lua_rawgeti(L, e, 1);
        const char *op = lua_tostring(L, -1);
        if (!op || (strcmp(op, "a") && strcmp(op, "f") && strcmp(op, "e")))
            luaL_error(L, "alloc.trace_replay: event %d: op must be \"a\", \"f\" or \"e\"", (int)i);
        char line[96];
        if (*op == 'e') {
            snprintf(line, sizeof line, "e\n");
        } else {
            lua_rawgeti(L, e, 2);
            lua_Integer id = lua_tointeger(L, -1);
            if (*op == 'f') {
                snprintf(line, sizeof line, "f %lld\n", (long long)id);
            } else {
                lua_rawgeti(L, e, 3);
                lua_Integer by = lua_tointeger(L, -1);
                snprintf(line, sizeof line, "a %lld %lld\n", (long long)id, (long long)by);
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 2); /* op, event */
        luaL_addstring(&b, line);
    }
    luaL_pushresult(&b);
}

int lt_alloc_trace_replay(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    int opt = 2;
    if (!lua_isnoneornil(L, opt)) luaL_checktype(L, opt, LUA_TTABLE);
    lua_settop(L, 2);
    bool events = lua_type(L, 1) == LUA_TTABLE;
    if (events) {
        events_to_text(L, 1);
        lua_replace(L, 1);
    } else {
        luaL_checktype(L, 1, LUA_TSTRING);
    }
    struct replay_job *rj = lua_newuserdatauv(L, sizeof *rj, 0); /* anchored on the stack */
    memset(rj, 0, sizeof *rj);
    rj->base.fn = replay_fn;
    rj->base.push = replay_push;
    rj->events = events;
    rj->text = lua_tolstring(L, 1, &rj->len);
    lt_alloc_read_opts(L, opt, &rj->o, "alloc.trace_replay");
    uint64_t fr = 0, tot = 0;
    pthread_mutex_lock(&vm->rt->devlock);
    if (gpu_mem_info(vm->rt->dev, &fr, &tot) != GPU_OK) tot = 0;
    pthread_mutex_unlock(&vm->rt->devlock);
    rj->capacity = lt_alloc_opt_capacity(L, opt, tot ? tot : 80ull << 30);
    long long lines;
    rj->charged = replay_bytes(rj->text, rj->len, &lines);
    lt_vm_charge(L, lines); /* parsing and replaying run in C: their work counts too */
    rj->vm = vm;
    if (!lt_vm_mem_add(vm, rj->charged)) return lt_vm_mem_stop(L); /* nothing was counted */
    rj->base.release = replay_release;
    return lt_job_run(L, &rj->base);
}

/* alloc.format_size(bytes) -> PyTorch's format_size text ("20.00 MiB") */
int lt_alloc_format_size(lua_State *L)
{
    char buf[32];
    gpu_cache_format_size(lt_arg_bytes(L, 1, 0), buf, sizeof buf);
    lua_pushstring(L, buf);
    return 1;
}

/* alloc.round_size(bytes [, opts]) -> rounded block size, pool, segment size */
int lt_alloc_round_size(lua_State *L)
{
    uint64_t n = lt_alloc_bytes_arg(L, 1);
    struct gpu_caching_opts o;
    char err[256];
    lt_alloc_read_opts(L, 2, &o, "alloc.round_size");
    o.memory_fraction = 0;
    o.expandable_segments = false;
    struct gpu_caching *c;
    /* a tiny throwaway model answers exactly as the allocator rounds */
    if (gpu_caching_new_model(&o, 1ull << 42, &c, err, sizeof err) != GPU_OK) return luaL_error(L, "%s", err);
    uint64_t addr;
    gpu_status st = gpu_caching_malloc(c, n, &addr, err, sizeof err);
    struct gpu_caching_stats s;
    gpu_caching_stats(c, &s);
    gpu_caching_destroy(c);
    if (st != GPU_OK) return luaL_error(L, "%s", err);
    lt_push_size(L, s.allocated_bytes[GPU_CACHE_ALL].current);
    lua_pushstring(L, s.segment[GPU_CACHE_SMALL].current ? "small" : "large");
    lt_push_size(L, s.reserved_bytes[GPU_CACHE_ALL].current);
    return 3;
}
