/* fuzz_strlib.c - differential libFuzzer target: the sandbox's string.find/match/gmatch/gsub
 * (lua/lt_strlib.c, which count their matching work against the limits) must behave exactly as
 * Lua 5.4's own on any subject, pattern, init, plain flag and replacement: the same results
 * (values and types), or the same error message. Input: an op byte, an init byte, then subject,
 * pattern and replacement separated by 0xff bytes. Patterns with more than 3 quantifiers are
 * skipped: Lua's own matcher (the reference here) can backtrack for hours on those - which is
 * why the sandbox has its own. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lt_int.h"

static lua_State *L;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    L = luaL_newstate();
    luaL_openlibs(L);
    /* keep Lua's own functions as native_find, ... ; then install ours in their place */
    static const char *const fns[] = {"find", "match", "gmatch", "gsub", NULL};
    lua_getglobal(L, "string");
    for (const char *const *f = fns; *f; f++) {
        char name[32];
        lua_getfield(L, -1, *f);
        snprintf(name, sizeof name, "native_%s", *f);
        lua_setglobal(L, name);
    }
    lua_pop(L, 1);
    lt_strlib_install(L);
    /* run(fn, iter, s, p, a3, a4) -> a printable record of every result or the error */
    static const char runner[] =
        "local function rec(ok, ...)\n"
        "  local t = {ok and 'ok' or 'err'}\n"
        "  if not ok then return 'err|' .. tostring((...)):gsub(\"to '[^']*'\", \"to '?'\") end\n"
        "  for i = 1, select('#', ...) do local v = select(i, ...)\n"
        "    t[#t + 1] = type(v) .. ':' .. tostring(v) end\n"
        "  return table.concat(t, '|')\n"
        "end\n"
        "function run(fn, iter, s, p, a3, a4)\n"
        "  if not iter then return rec(pcall(fn, s, p, a3, a4)) end\n"
        "  local ok, it = pcall(fn, s, p, a3)\n"
        "  if not ok then return rec(false, it) end\n"
        "  local out = {}\n"
        "  for i = 1, 50 do\n"
        "    local r = table.pack(pcall(it))\n"
        "    out[#out + 1] = rec(table.unpack(r, 1, r.n))\n"
        "    if not r[1] or r[2] == nil then break end\n"
        "  end\n"
        "  return table.concat(out, ';')\n"
        "end\n";
    if (luaL_dostring(L, runner)) {
        fprintf(stderr, "fuzz_strlib: %s\n", lua_tostring(L, -1));
        exit(1);
    }
    return 0;
}

static int quantifiers(const char *p, size_t n)
{
    int q = 0;
    for (size_t i = 0; i < n; i++) q += p[i] == '*' || p[i] == '+' || p[i] == '-' || p[i] == '?';
    return q;
}

static const char *call(const char *fn, int iter, int op_is_gsub, const char *s, size_t ls,
                        const char *p, size_t lp, int op, lua_Integer init, const char *r,
                        size_t lr)
{
    lua_getglobal(L, "run");
    lua_getglobal(L, fn);
    lua_pushboolean(L, iter);
    lua_pushlstring(L, s, ls);
    lua_pushlstring(L, p, lp);
    if (op_is_gsub) {
        switch (op % 4) { /* the replacement: a template, a table, a function, or a bad value */
        case 0: lua_pushlstring(L, r, lr); break;
        case 1:
            lua_newtable(L);
            lua_pushliteral(L, "X");
            lua_setfield(L, -2, "a");
            lua_pushboolean(L, 0);
            lua_setfield(L, -2, "b");
            break;
        case 2: luaL_dostring(L, "return function(a, b) if a == 'x' then return nil end "
                                 "return tostring(b or a) .. '.' end"); break;
        default: lua_pushboolean(L, 1);
        }
        lua_pushinteger(L, init % 8 - 2); /* max replacements, also 0 and negative */
    } else {
        lua_pushinteger(L, init);
        if (op & 8) lua_pushboolean(L, 1);
        else lua_pushnil(L);
    }
    lua_call(L, 6, 1);
    return lua_tostring(L, -1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3) return 0;
    int op = data[0];
    lua_Integer init = (lua_Integer)(int8_t)data[1];
    const char *rest = (const char *)data + 2, *end = (const char *)data + size;
    const char *s = rest, *p, *r = "";
    size_t ls, lp, lr = 0;
    const char *sep = memchr(s, 0xff, (size_t)(end - s));
    if (!sep) return 0;
    ls = (size_t)(sep - s);
    p = sep + 1;
    sep = memchr(p, 0xff, (size_t)(end - p));
    lp = (size_t)((sep ? sep : end) - p);
    if (sep) r = sep + 1, lr = (size_t)(end - r);
    if (ls > 64 || lp > 32 || lr > 16 || quantifiers(p, lp) > 3) return 0;
    static const char *const fns[] = {"find", "match", "gmatch", "gsub"};
    const char *fn = fns[(op >> 4) & 3];
    char native[32];
    snprintf(native, sizeof native, "native_%s", fn);
    int iter = !strcmp(fn, "gmatch");
    int top = lua_gettop(L);
    int gsub = !strcmp(fn, "gsub");
    const char *a = call(native, iter, gsub, s, ls, p, lp, op, init, r, lr);
    lua_getglobal(L, "string");
    lua_getfield(L, -1, fn);
    lua_setglobal(L, "sandbox_fn");
    lua_pop(L, 1);
    const char *b = call("sandbox_fn", iter, gsub, s, ls, p, lp, op, init, r, lr);
    if (strcmp(a, b)) { /* any difference fails the run; libFuzzer keeps the input */
        fprintf(stderr, "fuzz_strlib: string.%s differs\n  subject %.*s\n  pattern %.*s\n"
                        "  Lua:     %s\n  sandbox: %s\n", fn, (int)ls, s, (int)lp, p, a, b);
        abort();
    }
    lua_settop(L, top);
    lua_gc(L, LUA_GCSTEP, 0);
    return 0;
}
