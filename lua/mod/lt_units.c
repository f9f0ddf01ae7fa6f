/* lt_units.c - the unit grammar of gpu/base/gpu_units.h as the `units` module's readers:
 * units.read(text) for the grader and anyone who needs to know how a quantity was written, and
 * units.parse(text) for a value and its kind. lua/lib/units.lua takes both from the globals set
 * here (__lt_units_read, __lt_lt_units_parse) when it loads, so Lua has no second parser.
 * Tested by tests/lua/units.lua and tests/unit/test_gpu_units.c. */
#include "lt.h"
#include "lt_int.h"

#include <string.h>

#include "gpu_units.h"

static void set_str(lua_State *L, const char *k, const char *v)
{
    lua_pushstring(L, v);
    lua_setfield(L, -2, k);
}

static void set_bool(lua_State *L, const char *k, bool v)
{
    if (!v) return;
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, k);
}

/* A size in whole bytes reaches Lua as an integer (17179869184, not 1.7179869184e+10). */
static void push_value(lua_State *L, const struct gpu_qty *q)
{
    if ((q->flags & GPU_QF_EXACT) && q->exact <= (uint64_t)LUA_MAXINTEGER &&
        (q->kind == GPU_QK_SIZE || !q->unit[0]))
        lua_pushinteger(L, (lua_Integer)q->exact);
    else
        lua_pushnumber(L, q->value);
}

/* units.read(text) -> { value =, number =, kind =, unit =, bits =, binary =, decimal =,
 * percent =, times =, power = } for a quantity; { word =, number = } for a number and a word
 * that is no unit; { ambiguous = "bits"|"prefix"|"comma", alt = { a, b }, number = }; or nil,
 * message when there is no number. */
int lt_units_read(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    struct gpu_qty q;
    enum gpu_qread r = gpu_qty_read(s, len, &q);
    if (r == GPU_QR_BAD) {
        char msg[256];
        gpu_qty_explain(s, len, r, &q, msg, sizeof msg);
        lua_pushnil(L);
        lua_pushstring(L, msg);
        return 2;
    }
    lua_createtable(L, 0, 8);
    lua_pushnumber(L, q.number);
    lua_setfield(L, -2, "number");
    if (r == GPU_QR_WORD) {
        set_str(L, "word", q.word);
        return 1;
    }
    if (r == GPU_QR_AMBIGUOUS) {
        char msg[256];
        gpu_qty_explain(s, len, r, &q, msg, sizeof msg);
        set_str(L, "ambiguous", gpu_qamb_name(q.amb));
        set_str(L, "message", msg);
        if (q.amb != GPU_QA_COMMA) {
            set_str(L, "kind", gpu_qkind_name(q.kind));
            lua_pushinteger(L, q.power);
            lua_setfield(L, -2, "power");
        }
        lua_createtable(L, 2, 0);
        for (int i = 0; i < 2; i++) {
            lua_pushstring(L, q.alt[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "alt");
        return 1;
    }
    push_value(L, &q);
    lua_setfield(L, -2, "value");
    set_str(L, "kind", gpu_qkind_name(q.kind));
    set_str(L, "unit", q.unit);
    set_bool(L, "bits", q.flags & GPU_QF_BITS);
    set_bool(L, "binary", q.flags & GPU_QF_BIN);
    set_bool(L, "decimal", q.flags & GPU_QF_DEC);
    set_bool(L, "percent", q.flags & GPU_QF_PERCENT);
    set_bool(L, "times", q.flags & GPU_QF_TIMES);
    lua_pushinteger(L, q.power);
    lua_setfield(L, -2, "power");
    return 1;
}

/* units.parse(text) -> value, kind ("size", "rate", "time", "count"), or nil, message; a Lua
 * number is a size in bytes, as the modules pass sizes. */
int lt_units_parse(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TNUMBER) {
        lua_settop(L, 1);
        lua_pushliteral(L, "size");
        return 2;
    }
    if (lua_type(L, 1) != LUA_TSTRING) {
        lua_pushnil(L);
        lua_pushliteral(L, "expected a string such as '16GiB', '936 GB/s' or '2 ms'");
        return 2;
    }
    size_t len;
    const char *s = lua_tolstring(L, 1, &len);
    struct gpu_qty q;
    enum gpu_qread r = gpu_qty_read(s, len, &q);
    if (r != GPU_QR_OK) {
        char msg[256];
        gpu_qty_explain(s, len, r, &q, msg, sizeof msg);
        lua_pushnil(L);
        lua_pushstring(L, msg);
        return 2;
    }
    push_value(L, &q);
    lua_pushstring(L, gpu_qkind_name(q.kind));
    return 2;
}
