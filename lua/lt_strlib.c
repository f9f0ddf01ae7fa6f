/* lt_strlib.c - string.find, string.match, string.gmatch and string.gsub for the sandbox, with
 * Lua 5.4's pattern semantics, that charge their matching work to the sandbox limits.
 *
 * Lua's own versions run a backtracking matcher inside one C call, where the instruction hook
 * never fires: ("a"):rep(200):find(("a-"):rep(12) .. "b") takes hours, and a plain find is
 * quadratic. These count every step of the matcher and hand the count to lt_vm_charge every
 * STEP_BATCH steps, which stops the code like any other runaway loop (and not at all for
 * trusted code running outside a run). A plain find uses memmem, which is linear.
 *
 * The behaviour (results, captures, anchors, frontier and balance items, the 5.4 rule that
 * gmatch and gsub skip an empty match right after the previous match, the error messages) is
 * that of the reference implementation; tests/fuzz/fuzz_strlib.c checks it against Lua's own
 * functions on random subjects and patterns. */
#include "lt_int.h"

#include <ctype.h>
#include <lualib.h>
#include <stdbool.h>
#include <string.h>

#define MAX_CAPTURES 32   /* LUA_MAXCAPTURES */
#define MAX_DEPTH 200     /* nested match calls ("pattern too complex"), as MAXCCALLS */
#define STEP_BATCH 4096   /* matcher steps per lt_vm_charge call */
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define SPECIALS "^$*+?.([%-"

struct mstate {
    const char *src_init, *src_end, *p_end;
    lua_State *L;
    int depth;  /* match calls still allowed to nest */
    int level;  /* captures open or closed so far */
    long steps; /* not yet charged */
    struct {
        const char *init;
        ptrdiff_t len;
    } cap[MAX_CAPTURES];
};

static void step(struct mstate *ms)
{
    if (++ms->steps >= STEP_BATCH) {
        long n = ms->steps;
        ms->steps = 0;
        lt_vm_charge(ms->L, n);
    }
}

static const char *do_match(struct mstate *ms, const char *s, const char *p);

static int capture_index(struct mstate *ms, int c)
{
    int l = c - '1';
    if (l < 0 || l >= ms->level || ms->cap[l].len == CAP_UNFINISHED)
        return luaL_error(ms->L, "invalid capture index %%%d", l + 1);
    return l;
}

static int open_capture(struct mstate *ms)
{
    for (int l = ms->level - 1; l >= 0; l--)
        if (ms->cap[l].len == CAP_UNFINISHED) return l;
    return luaL_error(ms->L, "invalid pattern capture");
}

/* past the single-character class at p */
static const char *class_end(struct mstate *ms, const char *p)
{
    char c = *p++;
    if (c == '%') {
        if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (c == '[') {
        if (*p == '^') p++;
        do { /* the first character, even a ']', belongs to the set */
            if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (missing ']')");
            if (*(p++) == '%' && p < ms->p_end) p++;
        } while (*p != ']');
        return p + 1;
    }
    return p;
}

static bool in_class(int c, int cl)
{
    bool r;
    switch (tolower(cl)) {
    case 'a': r = isalpha(c); break;
    case 'c': r = iscntrl(c); break;
    case 'd': r = isdigit(c); break;
    case 'g': r = isgraph(c); break;
    case 'l': r = islower(c); break;
    case 'p': r = ispunct(c); break;
    case 's': r = isspace(c); break;
    case 'u': r = isupper(c); break;
    case 'w': r = isalnum(c); break;
    case 'x': r = isxdigit(c); break;
    case 'z': r = c == 0; break; /* deprecated since 5.2, still accepted */
    default: return cl == c; /* %. %% %] ...: the character itself */
    }
    return isupper(cl) ? !r : r;
}

/* p at '[', ec at its closing ']' */
static bool in_set(int c, const char *p, const char *ec)
{
    bool yes = true;
    if (p[1] == '^') {
        yes = false;
        p++;
    }
    while (++p < ec) {
        if (*p == '%') {
            p++;
            if (in_class(c, (unsigned char)*p)) return yes;
        } else if (p[1] == '-' && p + 2 < ec) {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return yes;
            p += 2;
        } else if ((unsigned char)*p == c) {
            return yes;
        }
    }
    return !yes;
}

static bool single(struct mstate *ms, const char *s, const char *p, const char *ep)
{
    if (s >= ms->src_end) return false;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.': return true;
    case '%': return in_class(c, (unsigned char)p[1]);
    case '[': return in_set(c, p, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

static const char *balance(struct mstate *ms, const char *s, const char *p)
{
    if (p >= ms->p_end - 1) luaL_error(ms->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= ms->src_end || *s != *p) return NULL;
    char open = p[0], close = p[1];
    int depth = 1;
    while (++s < ms->src_end) {
        step(ms);
        if (*s == close) {
            if (--depth == 0) return s + 1;
        } else if (*s == open) {
            depth++;
        }
    }
    return NULL;
}

/* greedy: take as many as match, then give back one at a time */
static const char *greedy(struct mstate *ms, const char *s, const char *p, const char *ep)
{
    ptrdiff_t n = 0;
    while (single(ms, s + n, p, ep)) {
        n++;
        step(ms);
    }
    for (; n >= 0; n--) {
        const char *r = do_match(ms, s + n, ep + 1);
        if (r) return r;
    }
    return NULL;
}

/* lazy: try the rest first, take one more only when it fails */
static const char *lazy(struct mstate *ms, const char *s, const char *p, const char *ep)
{
    for (;;) {
        const char *r = do_match(ms, s, ep + 1);
        if (r) return r;
        if (!single(ms, s, p, ep)) return NULL;
        s++;
    }
}

static const char *capture_open(struct mstate *ms, const char *s, const char *p, ptrdiff_t what)
{
    if (ms->level >= MAX_CAPTURES) luaL_error(ms->L, "too many captures");
    ms->cap[ms->level].init = s;
    ms->cap[ms->level].len = what;
    ms->level++;
    const char *r = do_match(ms, s, p);
    if (!r) ms->level--;
    return r;
}

static const char *capture_close(struct mstate *ms, const char *s, const char *p)
{
    int l = open_capture(ms);
    ms->cap[l].len = s - ms->cap[l].init;
    const char *r = do_match(ms, s, p);
    if (!r) ms->cap[l].len = CAP_UNFINISHED;
    return r;
}

static const char *backref(struct mstate *ms, const char *s, int c)
{
    int l = capture_index(ms, c);
    size_t len = (size_t)ms->cap[l].len; /* a position capture never matches (huge length) */
    if ((size_t)(ms->src_end - s) >= len && !memcmp(ms->cap[l].init, s, len)) return s + len;
    return NULL;
}

static const char *do_match(struct mstate *ms, const char *s, const char *p)
{
    if (ms->depth-- == 0) luaL_error(ms->L, "pattern too complex");
    for (;;) { /* each pass handles one pattern item; a simple item continues the loop */
        step(ms);
        if (p == ms->p_end) break;
        if (*p == '(') {
            s = p[1] == ')' ? capture_open(ms, s, p + 2, CAP_POSITION)
                            : capture_open(ms, s, p + 1, CAP_UNFINISHED);
            break;
        }
        if (*p == ')') {
            s = capture_close(ms, s, p + 1);
            break;
        }
        if (*p == '$' && p + 1 == ms->p_end) {
            if (s != ms->src_end) s = NULL;
            break;
        }
        if (*p == '%' && p[1] == 'b') {
            s = balance(ms, s, p + 2);
            if (!s) break;
            p += 4;
            continue;
        }
        if (*p == '%' && p[1] == 'f') {
            p += 2;
            if (*p != '[') luaL_error(ms->L, "missing '[' after '%%f' in pattern");
            const char *ep = class_end(ms, p);
            int prev = s == ms->src_init ? 0 : (unsigned char)s[-1];
            int cur = s < ms->src_end ? (unsigned char)*s : 0;
            if (!in_set(prev, p, ep - 1) && in_set(cur, p, ep - 1)) {
                p = ep;
                continue;
            }
            s = NULL;
            break;
        }
        if (*p == '%' && isdigit((unsigned char)p[1])) {
            s = backref(ms, s, (unsigned char)p[1]);
            if (!s) break;
            p += 2;
            continue;
        }
        const char *ep = class_end(ms, p);
        if (!single(ms, s, p, ep)) {
            if (*ep == '*' || *ep == '?' || *ep == '-') { /* zero occurrences are fine */
                p = ep + 1;
                continue;
            }
            s = NULL;
            break;
        }
        if (*ep == '?') {
            const char *r = do_match(ms, s + 1, ep + 1);
            if (r) {
                s = r;
                break;
            }
            p = ep + 1;
            continue;
        }
        if (*ep == '+') {
            s = greedy(ms, s + 1, p, ep);
            break;
        }
        if (*ep == '*') {
            s = greedy(ms, s, p, ep);
            break;
        }
        if (*ep == '-') {
            s = lazy(ms, s, p, ep);
            break;
        }
        s++; /* a single character matched */
        p = ep;
    }
    ms->depth++;
    return s;
}

/* ---- captures ---------------------------------------------------------------------------- */

/* Capture i (0-based) of the match [s, e); with no captures, capture 0 is the whole match.
 * Returns its length and sets *cap, or CAP_POSITION after pushing the position. */
static ptrdiff_t get_capture(struct mstate *ms, int i, const char *s, const char *e,
                             const char **cap)
{
    if (i >= ms->level) {
        if (i != 0) luaL_error(ms->L, "invalid capture index %%%d", i + 1);
        *cap = s;
        return e - s;
    }
    ptrdiff_t len = ms->cap[i].len;
    *cap = ms->cap[i].init;
    if (len == CAP_UNFINISHED) luaL_error(ms->L, "unfinished capture");
    if (len == CAP_POSITION) lua_pushinteger(ms->L, (ms->cap[i].init - ms->src_init) + 1);
    return len;
}

static void push_capture(struct mstate *ms, int i, const char *s, const char *e)
{
    const char *cap;
    ptrdiff_t len = get_capture(ms, i, s, e, &cap);
    if (len != CAP_POSITION) lua_pushlstring(ms->L, cap, (size_t)len);
}

/* s == NULL: the captures only (find); else the whole match when there are none */
static int push_captures(struct mstate *ms, const char *s, const char *e)
{
    int n = ms->level == 0 && s ? 1 : ms->level;
    luaL_checkstack(ms->L, n, "too many captures");
    for (int i = 0; i < n; i++) push_capture(ms, i, s, e);
    return n;
}

static void prepare(struct mstate *ms, lua_State *L, const char *s, size_t ls, const char *p,
                    size_t lp)
{
    ms->L = L;
    ms->src_init = s;
    ms->src_end = s + ls;
    ms->p_end = p + lp;
    ms->steps = 0;
}

static void reset(struct mstate *ms)
{
    ms->level = 0;
    ms->depth = MAX_DEPTH;
}

/* string.find's and gmatch's init: 1-based, negative from the end, clamped at 1 */
static size_t start_index(lua_Integer pos, size_t len)
{
    if (pos > 0) return (size_t)pos;
    if (pos == 0 || pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

static bool has_specials(const char *p, size_t lp)
{
    for (size_t i = 0; i < lp; i++)
        if (p[i] && strchr(SPECIALS, p[i])) return true;
    return false;
}

/* ---- the library functions -------------------------------------------------------------- */

static int find_aux(lua_State *L, bool find)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_index(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
        /* memmem is linear: charge it lightly, by the bytes it may scan */
        lt_vm_charge(L, (long long)((ls - init) / 64));
        const char *hit = memmem(s + init, ls - init, p, lp);
        if (hit) {
            lua_pushinteger(L, (hit - s) + 1);
            lua_pushinteger(L, (lua_Integer)((size_t)(hit - s) + lp));
            return 2;
        }
    } else {
        struct mstate ms;
        const char *s1 = s + init;
        bool anchor = *p == '^';
        if (anchor) p++, lp--;
        prepare(&ms, L, s, ls, p, lp);
        do {
            reset(&ms);
            const char *e = do_match(&ms, s1, p);
            if (e) {
                if (find) {
                    lua_pushinteger(L, (s1 - s) + 1);
                    lua_pushinteger(L, e - s);
                    return push_captures(&ms, NULL, 0) + 2;
                }
                return push_captures(&ms, s1, e);
            }
        } while (s1++ < ms.src_end && !anchor);
    }
    luaL_pushfail(L);
    return 1;
}

static int str_find(lua_State *L) { return find_aux(L, true); }
static int str_match(lua_State *L) { return find_aux(L, false); }

struct gmatch_state {
    const char *src, *p, *last;
    struct mstate ms;
};

static int gmatch_next(lua_State *L)
{
    struct gmatch_state *g = lua_touserdata(L, lua_upvalueindex(3));
    g->ms.L = L; /* the iterator may be called from another coroutine */
    for (const char *src = g->src; src <= g->ms.src_end; src++) {
        reset(&g->ms);
        const char *e = do_match(&g->ms, src, g->p);
        if (e && e != g->last) {
            g->src = g->last = e;
            return push_captures(&g->ms, src, e);
        }
    }
    return 0;
}

static int str_gmatch(lua_State *L)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_index(luaL_optinteger(L, 3, 1), ls) - 1;
    lua_settop(L, 2); /* the closure keeps both strings alive */
    struct gmatch_state *g = lua_newuserdatauv(L, sizeof *g, 0);
    if (init > ls) init = ls + 1;
    prepare(&g->ms, L, s, ls, p, lp);
    g->src = s + init;
    g->p = p;
    g->last = NULL;
    lua_pushcclosure(L, gmatch_next, 3);
    return 1;
}

static void add_template(struct mstate *ms, luaL_Buffer *b, const char *s, const char *e)
{
    lua_State *L = ms->L;
    size_t l;
    const char *t = lua_tolstring(L, 3, &l), *pc;
    while ((pc = memchr(t, '%', l)) != NULL) {
        luaL_addlstring(b, t, (size_t)(pc - t));
        pc++;
        if (*pc == '%') {
            luaL_addchar(b, '%');
        } else if (*pc == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit((unsigned char)*pc)) {
            const char *cap;
            ptrdiff_t len = get_capture(ms, *pc - '1', s, e, &cap);
            if (len == CAP_POSITION) luaL_addvalue(b);
            else luaL_addlstring(b, cap, (size_t)len);
        } else {
            luaL_error(L, "invalid use of '%%' in replacement string");
        }
        l -= (size_t)(pc + 1 - t);
        t = pc + 1;
    }
    luaL_addlstring(b, t, l);
}

/* Returns whether the match was replaced (false: the replacement was false/nil). */
static bool add_value(struct mstate *ms, luaL_Buffer *b, const char *s, const char *e, int tr)
{
    lua_State *L = ms->L;
    if (tr == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = push_captures(ms, s, e);
        lua_call(L, n, 1);
    } else if (tr == LUA_TTABLE) {
        push_capture(ms, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_template(ms, b, s, e);
        return true;
    }
    if (!lua_toboolean(L, -1)) { /* keep the original text */
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return false;
    }
    if (!lua_isstring(L, -1))
        luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return true;
}

static int str_gsub(lua_State *L)
{
    size_t ls, lp;
    const char *src = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    const char *last = NULL;
    int tr = lua_type(L, 3);
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)ls + 1), n = 0;
    bool anchor = *p == '^', changed = false;
    struct mstate ms;
    luaL_Buffer b;
    luaL_argexpected(L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION ||
                            tr == LUA_TTABLE, 3, "string/function/table");
    luaL_buffinit(L, &b);
    if (anchor) p++, lp--;
    prepare(&ms, L, src, ls, p, lp);
    while (n < max) {
        reset(&ms);
        const char *e = do_match(&ms, src, p);
        if (e && e != last) {
            n++;
            changed = add_value(&ms, &b, src, e, tr) || changed;
            src = last = e;
        } else if (src < ms.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor) break;
    }
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, src, (size_t)(ms.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

void lt_strlib_install(lua_State *L)
{
    static const luaL_Reg fns[] = {{"find", str_find},
                                   {"match", str_match},
                                   {"gmatch", str_gmatch},
                                   {"gsub", str_gsub},
                                   {NULL, NULL}};
    lua_getglobal(L, LUA_STRLIBNAME);
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}
