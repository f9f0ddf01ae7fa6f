/* lt_tablib.c - table.insert, remove, move, concat, unpack, pack and sort for the sandbox, with
 * the behaviour of Lua 5.4's, that charge their element loops to the sandbox limits.
 *
 * Lua's own run a loop sized by Lua values inside one C call, where the instruction hook never
 * fires: table.move({}, 1, math.maxinteger, 1) copies 2^63 nils, an insert or remove on a table
 * whose __len says 2^62 shifts that many, a sort over a "table" whose __index/__newindex/__lt are
 * C functions compares for hours. These read the length once (a __len that answers differently
 * the second time changes nothing) and charge the work to lt_vm_charge: up front when the count
 * is known (a range the budget can never pay for stops before the loop), else every CHARGE_BATCH
 * elements, and the time limit is checked every batch either way; an element costs ELEMENT_COST
 * instructions. Sort is a heapsort: at most 2 n log2 n comparisons whatever the order function
 * answers, charged up front. */
#include "lt_int.h"

#include <limits.h>
#include <lualib.h>

#define CHARGE_BATCH 1024
/* What one element costs, in VM instructions: a read and a write through the API (a C
 * metamethod's call included) take about as long as a few instructions do. */
#define ELEMENT_COST 4

/* The object at arg must be a table, or have the metamethods the operation uses. */
static void check_tab(lua_State *L, int arg, bool read, bool write, bool len)
{
    if (lua_type(L, arg) == LUA_TTABLE) return;
    bool ok = lua_getmetatable(L, arg);
    if (ok) {
        const char *need[] = {read ? "__index" : NULL, write ? "__newindex" : NULL,
                              len ? "__len" : NULL};
        for (int i = 0; i < 3 && ok; i++)
            if (need[i]) {
                ok = lua_getfield(L, -1, need[i]) != LUA_TNIL;
                lua_pop(L, 1);
            }
        lua_pop(L, 1);
    }
    if (!ok) luaL_typeerror(L, arg, "table");
}

static lua_Integer length(lua_State *L, int arg, bool write)
{
    check_tab(L, arg, true, write, true);
    return luaL_len(L, arg);
}

/* one element's worth of work; the budget sees it in batches */
static void tick(lua_State *L, lua_Integer *pending)
{
    if (++*pending >= CHARGE_BATCH) {
        lt_vm_charge(L, *pending * ELEMENT_COST);
        *pending = 0;
    }
}

/* n elements' worth, up front (saturating: n may be near 2^63) */
static void charge_elements(lua_State *L, lua_Integer n)
{
    lt_vm_charge(L, n > LLONG_MAX / ELEMENT_COST ? LLONG_MAX : n * ELEMENT_COST);
}

/* one element of a loop whose whole count was charged up front: the time limit is still
 * checked every batch */
static void beat(lua_State *L, lua_Integer *k)
{
    if (++*k >= CHARGE_BATCH) {
        lt_vm_charge(L, 0);
        *k = 0;
    }
}

static int t_insert(lua_State *L)
{
    lua_Integer e = length(L, 1, true), pos, pending = 0;
    luaL_argcheck(L, e < LUA_MAXINTEGER, 1, "table too long");
    e++; /* the first free slot */
    switch (lua_gettop(L)) {
    case 2: pos = e; break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        /* unsigned compare: also rejects positions below 1 */
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        charge_elements(L, e - pos); /* the shift, up front: one the budget cannot pay stops now */
        for (lua_Integer i = e; i > pos; i--) {
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
            beat(L, &pending);
        }
        break;
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

static int t_remove(lua_State *L)
{
    lua_Integer size = length(L, 1, true), pos = luaL_optinteger(L, 2, size), pending = 0;
    if (pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    if (pos < size) charge_elements(L, size - pos); /* the shift, up front */
    lua_geti(L, 1, pos); /* the result */
    for (; pos < size; pos++) {
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
        beat(L, &pending);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

static int t_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4), pending = 0;
    int tt = lua_isnoneornil(L, 5) ? 1 : 5; /* the destination table */
    check_tab(L, 1, true, false, false);
    check_tab(L, tt, false, true, false);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
        lua_Integer n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
        /* the whole count up front: a range the budget could never pay for stops at once */
        charge_elements(L, n);
        if (t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ))) {
            for (lua_Integer i = 0; i < n; i++) {
                lua_geti(L, 1, f + i);
                lua_seti(L, tt, t + i);
                beat(L, &pending);
            }
        } else { /* overlapping, moving up: from the end */
            for (lua_Integer i = n - 1; i >= 0; i--) {
                lua_geti(L, 1, f + i);
                lua_seti(L, tt, t + i);
                beat(L, &pending);
            }
        }
    }
    lua_pushvalue(L, tt);
    return 1;
}

static int t_concat(lua_State *L)
{
    size_t lsep;
    lua_Integer last = length(L, 1, false), pending = 0;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_opt(L, luaL_checkinteger, 4, last);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (; i <= last; i++) {
        lua_geti(L, 1, i);
        if (!lua_isstring(L, -1))
            return luaL_error(L, "invalid value (at index %I) in table for 'concat'", (LUAI_UACINT)i);
        size_t l;
        lua_tolstring(L, -1, &l);
        pending += (lua_Integer)((l + lsep) / 64); /* the copy: a byte is cheap */
        luaL_addvalue(&b);
        if (i < last) luaL_addlstring(&b, sep, lsep);
        tick(L, &pending);
        if (i == LUA_MAXINTEGER) break;
    }
    lt_vm_charge(L, pending);
    luaL_pushresult(&b);
    return 1;
}

static int t_unpack(lua_State *L)
{
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer e = luaL_opt(L, luaL_checkinteger, 3, luaL_len(L, 1));
    if (i > e) return 0;
    lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i; /* one less than the count */
    if (n >= (unsigned)INT_MAX || !lua_checkstack(L, (int)(++n)))
        return luaL_error(L, "too many results to unpack");
    charge_elements(L, (lua_Integer)n);
    for (; i < e; i++) lua_geti(L, 1, i);
    lua_geti(L, 1, e);
    return (int)n;
}

static int t_pack(lua_State *L)
{
    int n = lua_gettop(L);
    charge_elements(L, n);
    lua_createtable(L, n, 1);
    lua_insert(L, 1);
    for (int i = n; i >= 1; i--) lua_seti(L, 1, i);
    lua_pushinteger(L, n);
    lua_setfield(L, 1, "n");
    return 1;
}

/* ---- sort ---------------------------------------------------------------------------------- */

struct sorter {
    lua_State *L;
    bool has_cmp; /* an order function at index 2 */
    lua_Integer pending;
};

/* a[i] < a[j]? (1-based) */
static bool less(struct sorter *s, lua_Integer i, lua_Integer j)
{
    lua_State *L = s->L;
    bool r;
    beat(L, &s->pending);
    if (s->has_cmp) {
        lua_pushvalue(L, 2);
        lua_geti(L, 1, i);
        lua_geti(L, 1, j);
        lua_call(L, 2, 1);
        r = lua_toboolean(L, -1);
        lua_pop(L, 1);
    } else {
        lua_geti(L, 1, i);
        lua_geti(L, 1, j);
        r = lua_compare(L, -2, -1, LUA_OPLT);
        lua_pop(L, 2);
    }
    return r;
}

static void swap(lua_State *L, lua_Integer i, lua_Integer j)
{
    lua_geti(L, 1, i);
    lua_geti(L, 1, j);
    lua_seti(L, 1, i);
    lua_seti(L, 1, j);
}

static void sift_down(struct sorter *s, lua_Integer root, lua_Integer n)
{
    for (;;) {
        lua_Integer child = 2 * root;
        if (child > n) return;
        if (child < n && less(s, child, child + 1)) child++;
        if (!less(s, root, child)) return;
        swap(s->L, root, child);
        root = child;
    }
}

static int t_sort(lua_State *L)
{
    lua_Integer n = length(L, 1, true);
    if (n > 1) {
        luaL_argcheck(L, n < INT_MAX, 1, "array too big");
        if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
        lua_settop(L, 2);
        luaL_checkstack(L, 8, "sort");
        struct sorter s = {L, !lua_isnil(L, 2), 0};
        /* what a sort of n costs, up front: one the budget can never pay for stops now */
        lua_Integer lg = 1;
        while (lg < 62 && ((lua_Integer)1 << lg) < n) lg++;
        charge_elements(L, n > LLONG_MAX / (2 * lg) ? LLONG_MAX : 2 * n * lg); /* comparisons */
        for (lua_Integer i = n / 2; i >= 1; i--) sift_down(&s, i, n);
        for (lua_Integer end = n; end > 1; end--) {
            swap(L, 1, end);
            sift_down(&s, 1, end - 1);
        }
    }
    return 0;
}

void lt_tablib_install(lua_State *L)
{
    static const luaL_Reg fns[] = {{"insert", t_insert}, {"remove", t_remove}, {"move", t_move},
                                   {"concat", t_concat}, {"unpack", t_unpack}, {"pack", t_pack},
                                   {"sort", t_sort},     {NULL, NULL}};
    lua_getglobal(L, LUA_TABLIBNAME);
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}
