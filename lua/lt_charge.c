/* lt_charge.c - the C library functions whose work Lua code can size, charged to the sandbox
 * limits (the instruction hook never fires inside one C call).
 *
 * string.rep is replaced: Lua's own loops n times even when every piece is empty
 * (string.rep("", math.maxinteger) never returns). This one returns "" at once for an empty
 * result, refuses a result past the heap cap before building it, and charges the bytes it writes.
 *
 * The others (the rest of string, utf8, select, math.max/min, tostring, tonumber, os.date) keep
 * Lua's code and get a wrapper that charges, before the call, what it can cost: ARG_COST per
 * argument, one step per CHARS_PER_STEP bytes of string arguments, and for string.format
 * SPEC_COST per conversion (a %99.99f of 1e308 prints 400 digits). Every such call is bounded by
 * its arguments, which the heap cap bounds; the charge makes a loop of them reach the instruction
 * budget at about the pace of the work (a VM instruction is a few ns; a byte of a string pass
 * about an eighth of one), and checks the time limit at every call. */
#include "lt_int.h"

#include <lualib.h>
#include <string.h>

#define CHARS_PER_STEP 8
#define ARG_COST 4
#define SPEC_COST 256
#define MAX_SIZE ((size_t)1 << 62) /* Lua's own bound on a string, rounded down */

static int charged(lua_State *L)
{
    int n = lua_gettop(L);
    long long steps = 1 + (long long)n * ARG_COST;
    for (int i = 1; i <= n; i++)
        if (lua_type(L, i) == LUA_TSTRING) steps += (long long)(lua_rawlen(L, i) / CHARS_PER_STEP);
    if (lua_toboolean(L, lua_upvalueindex(2)) && lua_type(L, 1) == LUA_TSTRING) { /* format */
        size_t len;
        const char *f = lua_tolstring(L, 1, &len);
        for (const char *p = f; (p = memchr(p, '%', len - (size_t)(p - f))); p++) steps += SPEC_COST;
    }
    lt_vm_charge(L, steps);
    /* Lua's own function, in this frame: none of them uses upvalues */
    return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* Wrap t[name] (a C function) with the charge. */
static void wrap(lua_State *L, int t, const char *name)
{
    if (lua_getfield(L, t, name) != LUA_TFUNCTION || !lua_tocfunction(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pushboolean(L, !strcmp(name, "format")); /* charged per conversion too */
    lua_pushcclosure(L, charged, 2);
    lua_setfield(L, t, name);
}

static int str_rep(lua_State *L)
{
    size_t l, lsep;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || (l == 0 && lsep == 0) || (n == 1 && l == 0)) {
        lua_pushliteral(L, "");
        return 1;
    }
    /* the result's size, without overflow; past the heap cap it can never be built: the memory
     * stop at once, not after n copies */
    size_t cap = lt_vm_of(L)->rt->lim.mem_bytes;
    if (l + lsep < l || (lua_Unsigned)n > (lua_Unsigned)MAX_SIZE / (l + lsep))
        return luaL_error(L, "resulting string too large");
    if ((lua_Unsigned)n > cap || l + lsep > (cap + lsep) / (size_t)n) return lt_vm_mem_stop(L);
    size_t total = (size_t)n * l + (size_t)(n - 1) * lsep;
    lt_vm_charge(L, 1 + (long long)(total / CHARS_PER_STEP));
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, total);
    for (lua_Integer i = 0; i < n; i++) {
        memcpy(p, s, l);
        p += l;
        if (lsep && i + 1 < n) {
            memcpy(p, sep, lsep);
            p += lsep;
        }
    }
    luaL_pushresultsize(&b, total);
    return 1;
}

void lt_charge_install(lua_State *L)
{
    static const char *const strs[] = {"byte", "char", "format", "lower", "upper", "reverse",
                                       "sub", "pack", "packsize", "unpack", "len", NULL};
    static const char *const utf8s[] = {"char", "codepoint", "len", "offset", "codes", NULL};
    static const char *const base[] = {"select", "tostring", "tonumber", NULL};
    lua_getglobal(L, LUA_STRLIBNAME);
    int t = lua_gettop(L);
    for (const char *const *k = strs; *k; k++) wrap(L, t, *k);
    lua_pushcfunction(L, str_rep);
    lua_setfield(L, t, "rep");
    lua_getglobal(L, LUA_UTF8LIBNAME);
    for (const char *const *k = utf8s; *k; k++) wrap(L, t + 1, *k);
    lua_getglobal(L, LUA_MATHLIBNAME);
    wrap(L, t + 2, "max");
    wrap(L, t + 2, "min");
    lua_getglobal(L, LUA_OSLIBNAME);
    wrap(L, t + 3, "date");
    lua_pushglobaltable(L);
    for (const char *const *k = base; *k; k++) wrap(L, t + 4, *k);
    lua_settop(L, t - 1);
}
