/* lt_util.c - small helpers of the Lua bridge: optional fields of argument tables, sizes given
 * as numbers or unit strings, and the result table every measurement returns. */
#include "lt_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu_float.h"
#include "gpu_fmt.h"
#include "gpu_units.h"
#include "lt_say.h"

/* Field k of the option table at t, read raw: an option table is sandbox data, and a
 * metamethod run from here could make the value it returns (a string nothing else anchors),
 * collect it before the caller uses it, or change the table under the caller's feet. Metatables
 * on option tables are ignored; every value read is the table's own, anchored by the table,
 * which no code runs to change while the C function that reads it runs. */
int lt_opt_field(lua_State *L, int t, const char *k)
{
    t = lua_absindex(L, t);
    luaL_checktype(L, t, LUA_TTABLE);
    lua_pushstring(L, k);
    return lua_rawget(L, t);
}

lua_Integer lt_opt_int(lua_State *L, int t, const char *k, lua_Integer def)
{
    lua_Integer v = def;
    if (lt_opt_field(L, t, k) != LUA_TNIL) {
        int ok;
        v = lua_tointegerx(L, -1, &ok);
        if (!ok) luaL_error(L, "field '%s' must be an integer", k);
    }
    lua_pop(L, 1);
    return v;
}

double lt_opt_num(lua_State *L, int t, const char *k, double def)
{
    double v = def;
    if (lt_opt_field(L, t, k) != LUA_TNIL) {
        int ok;
        v = lua_tonumberx(L, -1, &ok);
        if (!ok) luaL_error(L, "field '%s' must be a number", k);
    }
    lua_pop(L, 1);
    return v;
}

const char *lt_opt_str(lua_State *L, int t, const char *k, const char *def)
{
    const char *v = def;
    int ty = lt_opt_field(L, t, k);
    if (ty != LUA_TNIL) {
        if (ty != LUA_TSTRING) luaL_error(L, "field '%s' must be a string", k);
        v = lua_tostring(L, -1); /* the table's own string (raw read): the table anchors it */
    }
    lua_pop(L, 1);
    return v;
}

int lt_opt_range(lua_State *L, int t, const char *k, int def, int lo, int hi, const char *what)
{
    lua_Integer v = lt_opt_int(L, t, k, def);
    if (v < lo || v > hi) luaL_error(L, "%s: %s must be %d..%d", what, k, lo, hi);
    return (int)v;
}

bool lt_opt_bool(lua_State *L, int t, const char *k, bool def)
{
    bool v = lt_opt_field(L, t, k) == LUA_TNIL ? def : lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* Sizes are below 2^63: every size reaches Lua again as an integer, and a double at or past
 * 2^63 has no integer to convert to (llround's result is unspecified there). */
#define SIZE_LIMIT 0x1p63

static bool to_bytes(lua_State *L, int idx, uint64_t *out)
{
    if (lua_type(L, idx) == LUA_TSTRING) { /* the unit grammar, as units.parse reads it */
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        struct gpu_qty q;
        char msg[256];
        enum gpu_qread r = gpu_qty_read(s, len, &q);
        if (r != GPU_QR_OK) {
            gpu_qty_explain(s, len, r, &q, msg, sizeof msg);
            luaL_error(L, "%s", msg);
        }
        /* a rate or a time is not a size: "936 GB/s" must not allocate 936 GB */
        if (q.kind != GPU_QK_SIZE && (q.kind != GPU_QK_COUNT || q.unit[0]))
            luaL_error(L, "'%s' is a %s, not a size (try '256MiB')", s,
                       q.unit[0] == '%' || (q.flags & GPU_QF_TIMES) ? "plain number" : gpu_qkind_name(q.kind));
        if (q.flags & GPU_QF_EXACT) {
            if (q.exact >= (uint64_t)1 << 63) return false;
            *out = q.exact;
            return true;
        }
        double v = q.value;
        if (!(v >= 0 && v < SIZE_LIMIT)) return false;
        *out = (uint64_t)llround(v);
        return true;
    }
    if (lua_isinteger(L, idx)) {
        lua_Integer i = lua_tointeger(L, idx);
        if (i < 0) return false;
        *out = (uint64_t)i;
        return true;
    }
    int ok;
    double v = lua_tonumberx(L, idx, &ok);
    if (!ok || !(v >= 0 && v < SIZE_LIMIT) || !gpu_feq(v, floor(v))) return false;
    *out = (uint64_t)v;
    return true;
}

uint64_t lt_opt_bytes(lua_State *L, int t, const char *k, uint64_t def)
{
    lt_opt_field(L, t, k);
    uint64_t v = def;
    if (!lua_isnil(L, -1) && !to_bytes(L, -1, &v))
        luaL_error(L, "field '%s' must be a whole number of bytes below 2^63 or a size such as "
                   "'256MiB'", k);
    lua_pop(L, 1);
    return v;
}

static void push_list(lua_State *L, const char *const names[])
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; names[i]; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, names[i]);
    }
    luaL_pushresult(&b);
}

void lt_opt_check(lua_State *L, int t, const char *fn, bool optional, const char *const keys[])
{
    t = lua_absindex(L, t);
    if (optional && lua_isnoneornil(L, t)) return;
    if (!lua_istable(L, t))
        luaL_error(L, "%s: expected an option table {...}, got %s", fn, luaL_typename(L, t));
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -1);
            int i = 0;
            while (keys[i] && strcmp(keys[i], k)) i++;
            if (keys[i]) continue;
        }
        const char *bad = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                          : luaL_typename(L, -1);
        push_list(L, keys);
        luaL_error(L, "%s: unknown option '%s' (valid: %s)", fn, bad, lua_tostring(L, -1));
    }
}

int lt_opt_enum(lua_State *L, int t, const char *k, int def, const char *const names[],
                const char *fn)
{
    int ty = lt_opt_field(L, t, k), r = def;
    if (ty == LUA_TNIL && def >= 0) {
        lua_pop(L, 1);
        return def;
    }
    if (ty == LUA_TSTRING) {
        for (r = 0; names[r] && strcmp(names[r], lua_tostring(L, -1)); r++) {}
        if (names[r]) {
            lua_pop(L, 1);
            return r;
        }
    }
    const char *got = ty == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1);
    push_list(L, names);
    return luaL_error(L, "%s: %s must be one of %s (got '%s')", fn, k, lua_tostring(L, -1), got);
}

uint64_t lt_arg_bytes(lua_State *L, int i, uint64_t min)
{
    uint64_t v = 0;
    if (!lua_isnumber(L, i) && lua_type(L, i) != LUA_TSTRING)
        luaL_typeerror(L, i, "size (bytes, or a string such as '256MiB')");
    if (!to_bytes(L, i, &v))
        luaL_argerror(L, i, "size must be a positive whole number of bytes below 2^63, or a "
                            "string such as '256MiB'");
    if (v < min) luaL_argerror(L, i, "size must be a positive number of bytes");
    return v;
}

static void setnum(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

void lt_push_size(lua_State *L, uint64_t bytes)
{
    if (bytes > LT_SIZE_MAX)
        luaL_error(L, "a size of %I bytes is past what a Lua number holds exactly (2^53)",
                   (lua_Integer)(bytes > (uint64_t)LUA_MAXINTEGER ? LUA_MAXINTEGER : (lua_Integer)bytes));
    lua_pushinteger(L, (lua_Integer)bytes);
}

void lt_push_result(lua_State *L, const struct gpu_result *r, const char *backend)
{
    lua_createtable(L, 0, 20);
    lt_push_size(L, r->bytes);
    lua_setfield(L, -2, "bytes");
    lt_push_size(L, r->moved_bytes);
    lua_setfield(L, -2, "moved_bytes");
    lua_pushinteger(L, r->samples);
    lua_setfield(L, -2, "samples");
    setnum(L, "seconds", r->best_s);
    setnum(L, "median_seconds", r->median_s);
    setnum(L, "worst_seconds", r->worst_s);
    setnum(L, "spread", r->spread);
    if (r->bytes_per_s > 0) setnum(L, "bytes_per_s", r->bytes_per_s);
    if (r->rw_bytes_per_s > 0) setnum(L, "rw_bytes_per_s", r->rw_bytes_per_s);
    if (r->bytes_per_s > 0 && r->median_s > 0)
        setnum(L, "median_bytes_per_s", r->bytes_per_s * r->best_s / r->median_s);
    if (r->ns_per_load > 0) {
        setnum(L, "ns_per_load", r->ns_per_load);
        setnum(L, "median_ns_per_load", r->median_s * 1e9);
    }
    if (r->ticks > 0) setnum(L, "ticks", r->ticks);
    lua_pushboolean(L, r->simulated);
    lua_setfield(L, -2, "simulated");
    if (r->ns_per_load <= 0) { /* bandwidth: the data was (or was not) checked afterwards */
        lua_pushboolean(L, r->validated);
        lua_setfield(L, -2, "validated");
    }
    if (!gpu_feq(r->dot, 0)) setnum(L, "dot", r->dot);
    if (r->numa_node >= 0) {
        lua_pushinteger(L, r->numa_node);
        lua_setfield(L, -2, "numa_node");
    }
    if (r->cycles_per_load > 0) setnum(L, "cycles_per_load", r->cycles_per_load);
    if (r->sm_clock_mhz > 0) setnum(L, "sm_clock_mhz", r->sm_clock_mhz);
    if (r->sm_clock_max_mhz > 0) { /* a device chase: the clock's maximum and the load used */
        setnum(L, "sm_clock_max_mhz", r->sm_clock_max_mhz);
        lua_pushboolean(L, r->low_clock);
        lua_setfield(L, -2, "low_clock");
    }
    if (r->nsm > 0) {
        lua_pushstring(L, r->load == GPU_LOAD_GENERIC ? "generic" : "global");
        lua_setfield(L, -2, "load");
    }
    if (r->reps > 0) {
        lua_pushinteger(L, r->reps);
        lua_setfield(L, -2, "reps");
    }
    if (r->single) {
        lua_pushboolean(L, true);
        lua_setfield(L, -2, "single");
    }
    if (r->run_sm_mhz > 0) setnum(L, "run_sm_mhz", r->run_sm_mhz);
    if (r->run_mem_mhz > 0) setnum(L, "run_mem_mhz", r->run_mem_mhz);
    if (r->nsm > 0) { /* latency on a device: one sample per SM */
        setnum(L, "min_ns_per_load", r->best_s * 1e9);
        setnum(L, "max_ns_per_load", r->worst_s * 1e9);
        lua_createtable(L, r->nsm, 0);
        for (int i = 0; i < r->nsm; i++) {
            if (r->sm[i] < 0) continue;
            lua_pushinteger(L, r->sm[i]);
            lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
        }
        lua_setfield(L, -2, "sms");
    }
    lua_pushstring(L, backend);
    lua_setfield(L, -2, "backend");
    lua_pushstring(L, r->nsm > 0 ? "ns per dependent load; one chase per SM, best (min), median "
                                   "and max across SMs"
                      : r->ns_per_load > 0 ? "ns per dependent load, best of N after warm-up"
                                         : "bytes_per_s = n/t; rw_bytes_per_s = bytes read + "
                                           "written / t; GB/s = 1e9 B/s; best of N after warm-up");
    lua_setfield(L, -2, "convention");
    lua_newtable(L);
    int nw = 0;
    const char *lang = lt_runtime_lang(lt_vm_of(L)->rt); /* warnings in the learner's language */
    for (unsigned bit = 1; bit && bit <= GPU_WARN_LAST; bit <<= 1)
        if (r->warn & bit) {
            char w[256];
            lua_pushstring(L, lt_say_warn(bit, lang, w, sizeof w));
            lua_rawseti(L, -2, ++nw);
        }
    lua_setfield(L, -2, "warnings");
}

/* __lt_fmt_bytes(n, kind, digits) -> text: units.bytes ("bin"), units.si ("dec") and units.rate
 * ("rate") are this, so a lesson and a screen write the same figure the same way (gpu_fmt_bytes). */
int lt_fmt_bytes(lua_State *L)
{
    static const char *const kinds[] = {"bin", "dec", "rate", NULL};
    static const char *const names[] = {"units.bytes", "units.si", "units.rate"};
    int k = luaL_checkoption(L, 2, NULL, kinds);
    if (!lua_isnumber(L, 1))
        return luaL_error(L, "bad argument #1 to '%s' (number expected, got %s)", names[k],
                          luaL_typename(L, 1));
    unsigned flags = k == 0 ? GPU_FMT_BIN : k == 1 ? GPU_FMT_DEC : GPU_FMT_DEC | GPU_FMT_RATE;
    if (!lua_isnoneornil(L, 3)) {
        lua_Integer d = luaL_checkinteger(L, 3);
        if (d < 0 || d > 9)
            return luaL_error(L, "bad argument #2 to '%s' (digits: 0 to 9)", names[k]);
        flags |= GPU_FMT_DIGITS(d);
    }
    char buf[64];
    gpu_fmt_bytes(lua_tonumber(L, 1), flags, buf, sizeof buf);
    lua_pushstring(L, buf);
    return 1;
}

void lt_newclass(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods)
{
    luaL_newmetatable(L, name); /* mt */
    luaL_setfuncs(L, meta, 0);
    if (methods) {
        lua_newtable(L); /* mt methods */
        luaL_setfuncs(L, methods, 0);
        lua_setfield(L, -2, "__index"); /* mt */
    }
    lua_pushliteral(L, "locked"); /* mt "locked" */
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

const char *lt_dev_why(const struct lt_runtime *rt, const struct gpu_dev *dev, gpu_status st,
                       char *buf, size_t n)
{
    const char *en = dev->why[0] ? dev->why : gpu_status_str(st);
    return lt_say_why(dev->why[0] ? dev->why_key : GPU_WHY_TEXT, dev->why_arg, en,
                      lt_runtime_lang(rt), buf, n);
}

void lt_job_keep_why(struct lt_job *j, const struct gpu_dev *dev)
{
    snprintf(j->why, sizeof j->why, "%s", dev->why[0] ? dev->why : gpu_status_str(j->st));
    j->why_key = dev->why[0] ? dev->why_key : GPU_WHY_TEXT;
    memcpy(j->why_arg, dev->why_arg, sizeof j->why_arg);
}

const char *lt_job_why(const struct lt_job *j, char *buf, size_t n)
{
    return lt_say_why(j->why_key, j->why_arg, j->why, lt_runtime_lang(j->rt), buf, n);
}
