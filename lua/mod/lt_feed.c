/* lt_feed.c - how a program feeds the GPU, in the `gpu` module: gpu.program runs buffers of any
 * kind of memory and a list of copies, kernels, prefetches, advice, events and host work on
 * streams, and returns its timeline (gpu_feed.h); gpu.pin times pinning a host buffer. Both run
 * on the worker thread. Streams and events are numbered from 1 in Lua, buffers are named. */
#include "lt_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_feed.h"
#include "lt_alloc_int.h"
#include "lt_say.h"

#define NAME_MAX_LEN 24

struct prog_job {
    struct lt_job base;
    struct gpu_prog p;
    char name[GPU_PROG_MAX_BUFS][NAME_MAX_LEN + 1];
    char event[GPU_PROG_MAX_EVENTS][NAME_MAX_LEN + 1];
    int nevent;
};

static int buf_index(lua_State *L, struct prog_job *j, int op, const char *role)
{
    if (lua_type(L, -1) != LUA_TSTRING)
        return luaL_error(L, "gpu.program: ops[%d]: %s must be a buffer's name", op, role);
    const char *s = lua_tostring(L, -1);
    for (int b = 0; b < j->p.nbuf; b++)
        if (!strcmp(j->name[b], s)) return b;
    return luaL_error(L, "gpu.program: ops[%d]: no buffer named '%s'", op, s);
}

/* An event's number, by name or number in order of first use. */
static int event_index(lua_State *L, struct prog_job *j, int op)
{
    char key[NAME_MAX_LEN + 1];
    int ty = lt_opt_field(L, -1, "event");
    if (ty == LUA_TNUMBER && lua_isinteger(L, -1))
        snprintf(key, sizeof key, "#%lld", (long long)lua_tointeger(L, -1));
    else if (ty == LUA_TSTRING && lua_rawlen(L, -1) <= NAME_MAX_LEN)
        snprintf(key, sizeof key, "%s", lua_tostring(L, -1));
    else
        return luaL_error(L, "gpu.program: ops[%d]: event must be a name or a whole number", op);
    lua_pop(L, 1);
    for (int e = 0; e < j->nevent; e++)
        if (!strcmp(j->event[e], key)) return e;
    if (j->nevent == GPU_PROG_MAX_EVENTS)
        return luaL_error(L, "gpu.program: at most %d events", GPU_PROG_MAX_EVENTS);
    snprintf(j->event[j->nevent], sizeof j->event[0], "%s", key);
    return j->nevent++;
}

static const char *const op_keys[] = {"stream", "bytes", "off", "src_off", "seconds", "seed",
                                      "event", "to", "label", NULL};

/* Keys of an operation's table: its positional [1..3] and the named ones above. */
static void check_op_keys(lua_State *L, int op)
{
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= 3)
            continue;
        if (lua_type(L, -1) == LUA_TSTRING) {
            int i = 0;
            while (op_keys[i] && strcmp(op_keys[i], lua_tostring(L, -1))) i++;
            if (op_keys[i]) continue;
        }
        const char *bad = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1);
        luaL_error(L, "gpu.program: ops[%d]: unknown option '%s' (valid: [1] kind, [2] buffer, "
                      "[3] source or advice, stream, bytes, off, src_off, seconds, seed, event, "
                      "to, label)", op, bad);
    }
}

static void read_op(lua_State *L, struct prog_job *j, int i)
{
    struct gpu_prog_op *o = &j->p.op[i];
    const int n = i + 1;
    if (!lua_istable(L, -1))
        luaL_error(L, "gpu.program: ops[%d] must be a table such as {\"copy\", \"dst\", \"src\"}", n);
    check_op_keys(L, n);
    memset(o, 0, sizeof *o);
    o->buf = o->src = -1;
    lua_rawgeti(L, -1, 1);
    int k = lua_type(L, -1) == LUA_TSTRING ? gpu_op_parse(lua_tostring(L, -1)) : -1;
    if (k < 0)
        luaL_error(L, "gpu.program: ops[%d][1] must be copy, kernel, read, fill, host_fill, "
                      "prefetch, advise, record, wait, sync or cpu", n);
    lua_pop(L, 1);
    o->kind = (enum gpu_op_kind)k;
    bool on_buf = k != GPU_OP_RECORD && k != GPU_OP_WAIT && k != GPU_OP_SYNC && k != GPU_OP_CPU;
    if (on_buf) {
        lua_rawgeti(L, -1, 2);
        o->buf = buf_index(L, j, n, k == GPU_OP_COPY ? "[2], the destination," : "[2]");
        lua_pop(L, 1);
    }
    if (k == GPU_OP_COPY) {
        lua_rawgeti(L, -1, 3);
        o->src = buf_index(L, j, n, "[3], the source,");
        lua_pop(L, 1);
    }
    if (k == GPU_OP_ADVISE) {
        lua_rawgeti(L, -1, 3);
        int a = lua_type(L, -1) == LUA_TSTRING ? gpu_advice_parse(lua_tostring(L, -1)) : -1;
        if (a < 0)
            luaL_error(L, "gpu.program: ops[%d][3] must be read_mostly, prefer_host, "
                          "prefer_device or accessed_by", n);
        o->advice = a;
        lua_pop(L, 1);
    }
    if (k == GPU_OP_PREFETCH) {
        static const char *const to[] = {"device", "host", NULL};
        o->advice = lt_opt_enum(L, -1, "to", 0, to, "gpu.program: prefetch");
    }
    int deflt = k == GPU_OP_SYNC ? 0 : 1; /* sync without a stream: every stream */
    o->stream = lt_opt_range(L, -1, "stream", deflt, k == GPU_OP_SYNC ? 0 : 1,
                             GPU_PROG_MAX_STREAMS, "gpu.program") - 1;
    o->bytes = lt_opt_bytes(L, -1, "bytes", 0);
    o->off = lt_opt_bytes(L, -1, "off", 0);
    o->src_off = lt_opt_bytes(L, -1, "src_off", 0);
    o->seconds = lt_opt_num(L, -1, "seconds", 0);
    o->seed = (uint32_t)lt_opt_int(L, -1, "seed", 1);
    if (k == GPU_OP_RECORD || k == GPU_OP_WAIT) o->event = event_index(L, j, n);
    if (lt_opt_field(L, -1, "label") > LUA_TNIL && lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "gpu.program: ops[%d]: label must be a string", n);
    lua_pop(L, 1);
}

static int cmp_name(const void *a, const void *b) { return strcmp(a, b); }

/* buffers = {name = {kind, bytes}, ...}: indices in name order, so a run is the same each time */
static void read_buffers(lua_State *L, struct prog_job *j)
{
    static const char *const kinds[] = {"device", "pageable", "pinned", "registered", "mapped",
                                        "managed", NULL};
    if (lt_opt_field(L, 1, "buffers") != LUA_TTABLE)
        luaL_error(L, "gpu.program: 'buffers' must be a table {name = {kind, bytes}, ...}");
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING || lua_rawlen(L, -1) == 0 ||
            lua_rawlen(L, -1) > NAME_MAX_LEN)
            luaL_error(L, "gpu.program: buffers are named by strings of 1 to %d characters",
                       NAME_MAX_LEN);
        if (n == GPU_PROG_MAX_BUFS) luaL_error(L, "gpu.program: at most %d buffers", GPU_PROG_MAX_BUFS);
        snprintf(j->name[n++], sizeof j->name[0], "%s", lua_tostring(L, -1));
    }
    if (!n) luaL_error(L, "gpu.program: give at least one buffer");
    qsort(j->name, (size_t)n, sizeof j->name[0], cmp_name);
    j->p.nbuf = n;
    for (int b = 0; b < n; b++) {
        lua_pushstring(L, j->name[b]);
        if (lua_rawget(L, -2) != LUA_TTABLE)
            luaL_error(L, "gpu.program: buffers.%s must be {kind, bytes}", j->name[b]);
        lua_rawgeti(L, -1, 1);
        int k = -1;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (k = 0; kinds[k] && strcmp(kinds[k], lua_tostring(L, -1)); k++) {}
        if (k < 0 || !kinds[k])
            luaL_error(L, "gpu.program: buffers.%s[1] must be device, pageable, pinned, "
                          "registered, mapped or managed", j->name[b]);
        lua_pop(L, 1);
        j->p.buf[b].kind = (enum gpu_mem)k;
        lua_rawgeti(L, -1, 2);
        j->p.buf[b].bytes = lua_isnil(L, -1) ? 0 : lt_arg_bytes(L, lua_gettop(L), 1);
        if (j->p.buf[b].bytes == 0 || j->p.buf[b].bytes % 4)
            luaL_error(L, "gpu.program: buffers.%s[2] must be a size in whole 4-byte words",
                       j->name[b]);
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

/* A program's wrong data, said with its buffers' names (lt_say's rows; the numbers as text),
 * from the refusal the job kept (the Lua thread: it reads the language). */
static bool wrong_why(struct prog_job *j, const char *lang)
{
    const double *a = j->base.why_arg;
    char n[4][32];
    for (int i = 0; i < 4; i++) snprintf(n[i], sizeof n[i], "%.0f", a[i]);
    int b = (int)a[1] - 1, e = (int)a[0] - 1;
    const char *name = b >= 0 && b < j->p.nbuf ? j->name[b] : "?";
    const char *end_name = e >= 0 && e < j->p.nbuf ? j->name[e] : "?";
    char *w = j->base.why;
    size_t size = sizeof j->base.why;
    if (j->base.why_key == GPU_WHY_FEED_WRONG)
        lt_say(w, size, lang, LT_SAY_WHY_FEED_WRONG, n[0], name, n[2], n[3]);
    else if (j->base.why_key == GPU_WHY_FEED_WRONG_END)
        lt_say(w, size, lang, LT_SAY_WHY_FEED_WRONG_END, end_name, n[1], n[2]);
    else if (j->base.why_key == GPU_WHY_FEED_RACE)
        lt_say(w, size, lang, LT_SAY_WHY_FEED_RACE, n[0], n[1]);
    else return false;
    return true;
}

static void prog_fn(struct lt_job *jb)
{
    struct prog_job *j = (struct prog_job *)jb;
    struct gpu_dev *dev = jb->rt->dev;
    dev->why[0] = 0;
    jb->st = gpu_prog_run(dev, &j->p, &jb->rt->cancel);
    lt_job_keep_why(jb, dev); /* said on the Lua thread (push_failure, wrong_why) */
}

static void setnum(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

/* A job that did not finish: a cancel raises, a refusal is nil, message in the learner's
 * language. */
static int push_failure(lua_State *L, struct lt_job *jb)
{
    if (jb->st == GPU_ERR_CANCELLED) return luaL_error(L, "cancelled");
    char why[sizeof jb->why];
    lua_pushnil(L);
    lua_pushstring(L, lt_job_why(jb, why, sizeof why));
    return 2;
}

/* Seconds a lane was busy: the length of the union of its operations' intervals. */
struct span {
    double s, e;
};
static int cmp_span(const void *a, const void *b)
{
    double x = ((const struct span *)a)->s, y = ((const struct span *)b)->s;
    return (x > y) - (x < y);
}

static double busy(const struct gpu_prog *p, enum gpu_lane lane)
{
    struct span v[GPU_PROG_MAX_OPS];
    int n = 0;
    for (int i = 0; i < p->nop; i++) {
        const struct gpu_prog_op *o = &p->op[i];
        struct span x = lane == GPU_LANE_HOST ? (struct span){o->issue, o->ret}
                                              : (struct span){o->start, o->end};
        if ((lane == GPU_LANE_HOST || o->lane == lane) && x.e > x.s) v[n++] = x;
    }
    qsort(v, (size_t)n, sizeof v[0], cmp_span);
    double sum = 0, s = 0, e = -1;
    for (int i = 0; i < n; i++) {
        if (v[i].s > e) {
            if (e > s) sum += e - s;
            s = v[i].s, e = v[i].e;
        } else if (v[i].e > e) {
            e = v[i].e;
        }
    }
    return e > s ? sum + (e - s) : sum;
}

static int prog_push(lua_State *L, struct lt_job *jb)
{
    struct prog_job *j = (struct prog_job *)jb;
    const struct gpu_prog *p = &j->p;
    if (jb->st == GPU_ERR_VALIDATION && wrong_why(j, lt_runtime_lang(jb->rt))) {
        lua_pushnil(L);
        lua_pushstring(L, jb->why);
        return 2;
    }
    if (jb->st != GPU_OK) return push_failure(L, jb);
    lua_createtable(L, 0, 12);
    setnum(L, "seconds", p->seconds);
    lua_pushboolean(L, p->simulated);
    lua_setfield(L, -2, "simulated");
    lua_pushboolean(L, p->validated);
    lua_setfield(L, -2, "validated");
    lua_pushboolean(L, p->held);
    lua_setfield(L, -2, "held");
    if (p->engines > 0) lt_seti(L, "engines", (uint64_t)p->engines);
    lua_pushstring(L, jb->rt->dev->be->name);
    lua_setfield(L, -2, "backend");
    lua_pushstring(L, "seconds from the program's start; start/finish on the device lane, "
                      "issued/returned on the host; bytes per operation");
    lua_setfield(L, -2, "convention");
    lt_opt_field(L, 1, "ops"); /* the caller's list: labels */
    int ops = lua_gettop(L);
    lua_createtable(L, p->nop, 0);
    for (int i = 0; i < p->nop; i++) {
        const struct gpu_prog_op *o = &p->op[i];
        lua_createtable(L, 0, 14);
        lua_pushstring(L, gpu_op_name(o->kind));
        lua_setfield(L, -2, "kind");
        if (o->kind != GPU_OP_CPU && o->kind != GPU_OP_HOST_FILL && o->kind != GPU_OP_ADVISE &&
            !(o->kind == GPU_OP_SYNC && o->stream < 0))
            lt_seti(L, "stream", (uint64_t)o->stream + 1);
        lua_pushstring(L, gpu_lane_name(o->lane));
        lua_setfield(L, -2, "lane");
        setnum(L, "start", o->start);
        setnum(L, "finish", o->end);
        setnum(L, "issued", o->issue);
        setnum(L, "returned", o->ret);
        if (o->buf >= 0) {
            lua_pushstring(L, j->name[o->buf]);
            lua_setfield(L, -2, "buffer");
            lt_seti(L, "bytes", gpu_prog_op_bytes(p, o));
        }
        if (o->src >= 0) {
            lua_pushstring(L, j->name[o->src]);
            lua_setfield(L, -2, "source");
        }
        if (o->kind == GPU_OP_KERNEL) lt_seti(L, "rounds", o->rounds);
        if (o->buf >= 0 && p->buf[o->buf].kind == GPU_MEM_MANAGED && p->simulated) {
            lt_seti(L, "faulted", o->faulted);
            lt_seti(L, "evicted", o->evicted);
        }
        if (lua_rawgeti(L, ops, i + 1) == LUA_TTABLE) { /* its label, if it has one */
            if (lt_opt_field(L, -1, "label") == LUA_TSTRING) lua_setfield(L, -3, "label");
            else lua_pop(L, 1);
        }
        lua_pop(L, 1);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -3, "ops");
    lua_pop(L, 1); /* the caller's list */
    lua_createtable(L, 0, p->nbuf);
    for (int b = 0; b < p->nbuf; b++) {
        lua_createtable(L, 0, 4);
        lua_pushstring(L, gpu_mem_name(p->buf[b].kind));
        lua_setfield(L, -2, "kind");
        lt_seti(L, "bytes", p->buf[b].bytes);
        setnum(L, "alloc_seconds", p->buf[b].alloc_s);
        setnum(L, "free_seconds", p->buf[b].free_s);
        lua_setfield(L, -2, j->name[b]);
    }
    lua_setfield(L, -2, "buffers");
    lua_createtable(L, 0, GPU_LANE_COUNT);
    for (int l = 0; l < GPU_LANE_COUNT; l++) setnum(L, gpu_lane_name((enum gpu_lane)l), busy(p, (enum gpu_lane)l));
    lua_setfield(L, -2, "busy");
    lua_newtable(L);
    char text[256];
    int w = 0;
    for (unsigned bit = 1; bit && bit <= GPU_WARN_LAST; bit <<= 1)
        if (p->warn & bit) {
            lua_pushstring(L, lt_say_warn(bit, lt_runtime_lang(jb->rt), text, sizeof text));
            lua_rawseti(L, -2, ++w);
        }
    lua_setfield(L, -2, "warnings");
    return 1;
}

/* gpu.program{buffers = {name = {kind, bytes}}, ops = {{kind, buffer, ...}, ...}} */
static int l_program(lua_State *L)
{
    static const char *const keys[] = {"buffers", "ops", NULL};
    lt_opt_check(L, 1, "gpu.program", false, keys);
    struct prog_job *j = lua_newuserdatauv(L, sizeof *j, 0); /* anchored on the stack */
    memset(j, 0, sizeof *j);
    j->base.fn = prog_fn;
    j->base.push = prog_push;
    int top = lua_gettop(L);
    read_buffers(L, j);
    if (lt_opt_field(L, 1, "ops") != LUA_TTABLE)
        return luaL_error(L, "gpu.program: 'ops' must be a list of operations");
    lua_Unsigned n = lua_rawlen(L, -1);
    if (n > GPU_PROG_MAX_OPS) return luaL_error(L, "gpu.program: at most %d operations", GPU_PROG_MAX_OPS);
    j->p.nop = (int)n;
    for (int i = 0; i < j->p.nop; i++) {
        lua_rawgeti(L, -1, i + 1);
        read_op(L, j, i);
        lua_pop(L, 1);
    }
    lua_settop(L, top);
    struct lt_runtime *rt = lt_vm_of(L)->rt;
    pthread_mutex_lock(&rt->devlock);
    gpu_status st = gpu_prog_check(rt->dev, &j->p); /* misuse raises before anything runs */
    char why[256];
    snprintf(why, sizeof why, "%s", rt->dev->why);
    pthread_mutex_unlock(&rt->devlock);
    if (st == GPU_ERR_ARG) return luaL_error(L, "gpu.%s", why);
    return lt_job_run(L, &j->base);
}

/* ---- gpu.pin ------------------------------------------------------------------------------ */

struct pin_job {
    struct lt_job base;
    enum gpu_mem kind;
    uint64_t bytes;
    int trials;
    double alloc_s, free_s;
};

static void pin_fn(struct lt_job *jb)
{
    struct pin_job *j = (struct pin_job *)jb;
    struct gpu_dev *dev = jb->rt->dev;
    dev->why[0] = 0;
    jb->st = gpu_feed_pin(dev, j->kind, j->bytes, j->trials, &j->alloc_s, &j->free_s,
                          &jb->rt->cancel);
    lt_job_keep_why(jb, dev); /* said on the Lua thread (push_failure) */
}

static int pin_push(lua_State *L, struct lt_job *jb)
{
    struct pin_job *j = (struct pin_job *)jb;
    if (jb->st != GPU_OK) return push_failure(L, jb);
    lua_createtable(L, 0, 9);
    lua_pushstring(L, gpu_mem_name(j->kind));
    lua_setfield(L, -2, "kind");
    lt_seti(L, "bytes", j->bytes);
    lt_seti(L, "trials", j->trials);
    setnum(L, "alloc_seconds", j->alloc_s);
    setnum(L, "free_seconds", j->free_s);
    setnum(L, "alloc_seconds_per_gib", j->alloc_s / ((double)j->bytes / 1073741824.0));
    lua_pushboolean(L, jb->rt->dev->info.simulated);
    lua_setfield(L, -2, "simulated");
    lua_pushstring(L, jb->rt->dev->be->name);
    lua_setfield(L, -2, "backend");
    lua_pushstring(L, "best of the trials; allocation and pinning (registered: cudaHostRegister "
                      "of touched memory), then the release; seconds per GiB = 2^30 B");
    lua_setfield(L, -2, "convention");
    return 1;
}

/* gpu.pin{bytes =, kind = "pinned"|"registered"|"mapped"|"managed"|"pageable", trials = 3} */
static int l_pin(lua_State *L)
{
    static const char *const keys[] = {"kind", "bytes", "trials", NULL};
    static const char *const kinds[] = {"pinned", "registered", "mapped", "managed", "pageable",
                                        NULL};
    static const enum gpu_mem map[] = {GPU_MEM_PINNED, GPU_MEM_REGISTERED, GPU_MEM_MAPPED,
                                       GPU_MEM_MANAGED, GPU_MEM_PAGEABLE};
    lt_opt_check(L, 1, "gpu.pin", false, keys);
    struct pin_job *j = lua_newuserdatauv(L, sizeof *j, 0);
    memset(j, 0, sizeof *j);
    j->base.fn = pin_fn;
    j->base.push = pin_push;
    j->kind = map[lt_opt_enum(L, 1, "kind", 0, kinds, "gpu.pin")];
    j->bytes = lt_opt_bytes(L, 1, "bytes", 0);
    j->trials = lt_opt_range(L, 1, "trials", 3, 1, 16, "gpu.pin");
    if (j->bytes == 0) return luaL_error(L, "gpu.pin: 'bytes' must be given and > 0");
    return lt_job_run(L, &j->base);
}

void lt_feed_register(lua_State *L)
{
    static const luaL_Reg funcs[] = {{"program", l_program}, {"pin", l_pin}, {NULL, NULL}};
    luaL_setfuncs(L, funcs, 0);
}
