/* lt_repl.c - what the sandbox REPL needs beyond a lesson VM: evaluating one entry the way lua.c
 * does (an expression shows its values, a statement runs, a chunk cut short asks for more), the
 * results pretty-printed without running any learner code, and `plot`, which lets the learner
 * chart their own numbers in the live panel. Same sandbox, modules and limits as lessons. */
#include "lt.h"
#include "lt_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_buf.h"
#include "gpu_suggest.h"

#define SHOW_MAX 40 /* table entries shown before "..." */

/* ---- plot: the REPL's panel helpers --------------------------------------------------------- */

/* The style of a plotted value: opts.style, else opts.from's own `simulated` flag, else
 * "theoretical": a number the learner plots without saying where it came from is their own
 * arithmetic, neither a measurement nor the simulator's (a measurement says so with from = r). */
static enum lt_style plot_style(lua_State *L, int opts)
{
    if (lua_type(L, opts) == LUA_TTABLE) { /* read raw, as every option table (lt_opt_field) */
        if (lt_opt_field(L, opts, "style") != LUA_TNIL) {
            const char *name = luaL_checkstring(L, -1);
            int i = lt_style_parse(name);
            if (i < 0)
                return (enum lt_style)luaL_error(L, "style must be measured, simulated, theoretical "
                                                    "or reference (got '%s')", name);
            lua_pop(L, 1);
            return (enum lt_style)i;
        }
        lua_pop(L, 1);
        if (lt_opt_field(L, opts, "from") == LUA_TTABLE) {
            lt_opt_field(L, -1, "simulated");
            bool sim = lua_toboolean(L, -1);
            lua_pop(L, 2);
            return sim ? LT_SIMULATED : LT_MEASURED;
        }
        lua_pop(L, 1);
    }
    return LT_THEORETICAL;
}

/* A unit given as a string, or opts.unit. */
static const char *plot_unit(lua_State *L, int arg)
{
    if (lua_type(L, arg) == LUA_TSTRING) return lua_tostring(L, arg);
    if (lua_type(L, arg) == LUA_TTABLE) return lt_opt_str(L, arg, "unit", "");
    return "";
}

static void plot_emit(lua_State *L, struct lt_event *ev) { lt_vm_emit(L, ev); }

/* Each plot function first fixes the stack to its parameter count: luaL_tolstring pushes the
 * label's string, which must land above the arguments, never in an absent one's slot (where
 * plot.bar("a", 3) read its own label as the unit). */
static int plot_point(lua_State *L)
{
    struct lt_event ev = {.type = LT_EV_POINT, .panel = "curve"};
    lua_settop(L, 4);
    ev.series = lt_text1(luaL_tolstring(L, 1, NULL));
    ev.x = luaL_checknumber(L, 2);
    ev.y = luaL_checknumber(L, 3);
    ev.style = plot_style(L, 4);
    if (lua_type(L, 4) == LUA_TTABLE) { /* axis labels: {x = "bytes", y = "GB/s"} */
        ev.text = lt_text1(lt_opt_str(L, 4, "x", ""));
        ev.unit = lt_text1(lt_opt_str(L, 4, "y", ""));
    }
    plot_emit(L, &ev);
    return 0;
}

static int plot_bar(lua_State *L)
{
    struct lt_event ev = {.type = LT_EV_BAR, .panel = "bars"};
    lua_settop(L, 4);
    ev.series = lt_text1(luaL_tolstring(L, 1, NULL));
    ev.value = luaL_checknumber(L, 2);
    ev.unit = lt_text1(plot_unit(L, 3));
    ev.style = plot_style(L, lua_type(L, 3) == LUA_TTABLE ? 3 : 4);
    plot_emit(L, &ev);
    return 0;
}

static int plot_gauge(lua_State *L)
{
    struct lt_event ev = {.type = LT_EV_GAUGE, .panel = "gauges"};
    lua_settop(L, 5);
    ev.series = lt_text1(luaL_tolstring(L, 1, NULL));
    ev.value = luaL_checknumber(L, 2);
    ev.max = luaL_checknumber(L, 3);
    ev.unit = lt_text1(plot_unit(L, 4));
    ev.style = plot_style(L, lua_type(L, 4) == LUA_TTABLE ? 4 : 5);
    plot_emit(L, &ev);
    return 0;
}

static int plot_row(lua_State *L)
{
    struct lt_event ev = {.type = LT_EV_ROW, .panel = "table"};
    struct lt_text cells[LT_EVENT_MAX_ITEMS];
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    lua_settop(L, 1);
    if (n > LT_EVENT_MAX_ITEMS)
        return luaL_error(L, "plot.row: %d cells; at most %d", (int)n, LT_EVENT_MAX_ITEMS);
    luaL_checkstack(L, 2 * LT_EVENT_MAX_ITEMS + 2, "plot.row"); /* each cell keeps two slots */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 1, i);
        cells[ev.ncells++] = lt_text1(luaL_tolstring(L, -1, NULL)); /* on the stack: anchored */
    }
    ev.cells = cells;
    plot_emit(L, &ev);
    return 0;
}

static int plot_note(lua_State *L)
{
    struct lt_event ev = {.type = LT_EV_NOTE, .panel = "notes"};
    lua_settop(L, 1);
    ev.text = lt_text1(luaL_tolstring(L, 1, NULL));
    plot_emit(L, &ev);
    return 0;
}

static int plot_clear(lua_State *L)
{
    static const char *const panels[] = {"curve", "bars", "gauges", "table", "notes"};
    for (size_t i = 0; i < sizeof panels / sizeof *panels; i++) {
        struct lt_event ev = {.type = LT_EV_CLEAR, .panel = panels[i]};
        plot_emit(L, &ev);
    }
    return 0;
}

void lt_vm_repl_setup(struct lt_vm *vm)
{
    static const luaL_Reg fns[] = {{"point", plot_point}, {"bar", plot_bar},
                                   {"gauge", plot_gauge}, {"row", plot_row},
                                   {"note", plot_note},   {"clear", plot_clear},
                                   {NULL, NULL}};
    lua_State *L = vm->L;
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.env");
    luaL_newlib(L, fns);
    lua_setfield(L, -2, "plot");
    lua_pop(L, 1);
}

/* ---- pretty printing ------------------------------------------------------------------------ */

static void puts_(struct gpu_buf *o, const char *s) { gpu_buf_add(o, s, strlen(s)); }

static void put_string(struct gpu_buf *o, const char *s, size_t l)
{
    char esc[8];
    puts_(o, "\"");
    for (size_t i = 0; i < l; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') snprintf(esc, sizeof esc, "\\%c", c);
        else if (c == '\n') snprintf(esc, sizeof esc, "\\n");
        else if (c == '\t') snprintf(esc, sizeof esc, "\\t");
        else if (c < 0x20 || c == 0x7f) snprintf(esc, sizeof esc, "\\%d", c);
        else esc[0] = (char)c, esc[1] = 0;
        puts_(o, esc);
    }
    puts_(o, "\"");
}

/* A scalar as Lua would write it; tables one level deep are handled by the caller. Metamethods
 * are never called: formatting must not run learner code outside the limits. */
static void put_scalar(lua_State *L, int i, struct gpu_buf *o, bool quote)
{
    char buf[64];
    switch (lua_type(L, i)) {
    case LUA_TNIL: puts_(o, "nil"); break;
    case LUA_TBOOLEAN: puts_(o, lua_toboolean(L, i) ? "true" : "false"); break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, i)) snprintf(buf, sizeof buf, LUA_INTEGER_FMT, lua_tointeger(L, i));
        else {
            lua_Number v = lua_tonumber(L, i);
            if (isnan(v)) snprintf(buf, sizeof buf, "%snan", signbit(v) ? "-" : "");
            else if (isinf(v)) snprintf(buf, sizeof buf, "%sinf", v < 0 ? "-" : "");
            else {
                snprintf(buf, sizeof buf, LUA_NUMBER_FMT, v);
                if (!strpbrk(buf, ".eEn")) strcat(buf, ".0"); /* a float looks like one */
            }
        }
        puts_(o, buf);
        break;
    case LUA_TSTRING: {
        size_t l;
        const char *s = lua_tolstring(L, i, &l);
        if (quote) put_string(o, s, l);
        else gpu_buf_add(o, s, l);
        break;
    }
    case LUA_TTABLE: puts_(o, "{...}"); break;
    default:
        snprintf(buf, sizeof buf, "%s: %p", luaL_typename(L, i), lua_topointer(L, i));
        puts_(o, buf);
        break;
    }
}

static bool is_ident(const char *s)
{
    static const char *const kw[] = {"and", "break", "do", "else", "elseif", "end", "false",
                                     "for", "function", "goto", "if", "in", "local", "nil",
                                     "not", "or", "repeat", "return", "then", "true", "until",
                                     "while", NULL};
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) return false;
    for (const char *c = s; *c; c++)
        if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9')))
            return false;
    for (const char *const *k = kw; *k; k++)
        if (!strcmp(s, *k)) return false;
    return true;
}

/* Order of keys outside the sequence part: numbers by value, then strings, then the rest. */
static int key_rank(lua_State *L, int i)
{
    int t = lua_type(L, i);
    return t == LUA_TNUMBER ? 0 : t == LUA_TSTRING ? 1 : t == LUA_TBOOLEAN ? 2 : 3;
}

static bool key_less(lua_State *L, int a, int b)
{
    int ra = key_rank(L, a), rb = key_rank(L, b);
    if (ra != rb) return ra < rb;
    if (ra == 0) return lua_tonumber(L, a) < lua_tonumber(L, b);
    if (ra == 1) return strcmp(lua_tostring(L, a), lua_tostring(L, b)) < 0;
    if (ra == 2) return !lua_toboolean(L, a) && lua_toboolean(L, b);
    return false;
}

static void put_table(lua_State *L, int t, struct gpu_buf *o)
{
    t = lua_absindex(L, t);
    lua_Integer seq = 0;
    while (seq < SHOW_MAX && lua_rawgeti(L, t, seq + 1) != LUA_TNIL) {
        lua_pop(L, 1);
        seq++;
    }
    lua_pop(L, 1);
    /* the other keys, collected into an array on the stack's scratch table, then sorted */
    lua_newtable(L);
    int keys = lua_gettop(L), nk = 0, total = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        total++;
        if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= seq) continue;
        if (nk < 4 * SHOW_MAX) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, keys, ++nk);
        }
    }
    /* insertion sort: shown tables are small */
    for (int i = 2; i <= nk; i++)
        for (int j = i; j > 1; j--) {
            lua_rawgeti(L, keys, j);
            lua_rawgeti(L, keys, j - 1);
            bool less = key_less(L, -2, -1);
            if (!less) {
                lua_pop(L, 2);
                break;
            }
            lua_rawseti(L, keys, j);
            lua_rawseti(L, keys, j - 1);
        }
    if (total == 0) {
        puts_(o, "{}");
        lua_pop(L, 1);
        return;
    }
    puts_(o, "{ ");
    int shown = 0;
    for (lua_Integer i = 1; i <= seq; i++, shown++) {
        if (shown) puts_(o, ", ");
        lua_rawgeti(L, t, i);
        put_scalar(L, -1, o, true);
        lua_pop(L, 1);
    }
    for (int k = 1; k <= nk && shown < SHOW_MAX; k++, shown++) {
        if (shown) puts_(o, ", ");
        lua_rawgeti(L, keys, k);
        if (lua_type(L, -1) == LUA_TSTRING && is_ident(lua_tostring(L, -1))) {
            puts_(o, lua_tostring(L, -1));
        } else {
            puts_(o, "[");
            put_scalar(L, -1, o, true);
            puts_(o, "]");
        }
        puts_(o, " = ");
        lua_rawget(L, t);
        put_scalar(L, -1, o, true);
        lua_pop(L, 1);
    }
    if (total > shown) {
        char more[48];
        snprintf(more, sizeof more, "%s... (%d more)", shown ? ", " : "", total - shown);
        puts_(o, more);
    }
    puts_(o, " }");
    lua_pop(L, 1);
}

static void put_value(lua_State *L, int i, struct gpu_buf *o)
{
    if (lua_type(L, i) == LUA_TTABLE) put_table(L, i, o);
    else put_scalar(L, i, o, true);
}

/* ---- evaluation ----------------------------------------------------------------------------- */

/* The chunk stops at its end where the grammar wants more: lua.c's test. */
static bool incomplete(lua_State *L)
{
    size_t l;
    const char *m = lua_tolstring(L, -1, &l);
    return m && l >= 5 && !strcmp(m + l - 5, "<eof>");
}

static int load_env(struct lt_vm *vm, const char *src, size_t len)
{
    int st = luaL_loadbufferx(vm->L, src, len, "=repl", "t");
    if (st == LUA_OK) {
        lua_getfield(vm->L, LUA_REGISTRYINDEX, "lt.env");
        lua_setupvalue(vm->L, -2, 1);
    }
    return st;
}

static bool alpha(char ch);

/* "help" or "help vram.kv_cache" typed as a command, as in a shell or MATLAB: the call it
 * means, into buf ("help()", "help(vram.kv_cache)"); false for anything else. */
static bool help_command(const char *src, char *buf, size_t n)
{
    const char *p = src + strspn(src, " \t");
    if (strncmp(p, "help", 4) || (p[4] && p[4] != ' ' && p[4] != '\t')) return false;
    p += 4 + strspn(p + 4, " \t");
    size_t w = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
    if (p[w + strspn(p + w, " \t")] || (w && !alpha(*p)) || w + 8 > n) return false;
    snprintf(buf, n, "help(%.*s)", (int)w, p);
    return true;
}

enum lt_eval_status lt_vm_eval(struct lt_vm *vm, const char *src, char *out, size_t n)
{
    lua_State *L = vm->L;
    char cmd[128];
    if (n) out[0] = 0;
    if (help_command(src, cmd, sizeof cmd)) src = cmd;
    if (*src == '=') src++; /* Lua 5.1's "=expr" still works */
    /* an expression first ("return " .. src), as lua.c does; else a statement */
    size_t len = strlen(src);
    char *ret = malloc(len + 8);
    if (!ret) {
        snprintf(out, n, "out of memory");
        return LT_EVAL_ERROR;
    }
    memcpy(ret, "return ", 7);
    memcpy(ret + 7, src, len + 1);
    int st = load_env(vm, ret, len + 7);
    free(ret);
    if (st != LUA_OK) {
        lua_pop(L, 1);
        st = load_env(vm, src, len);
    }
    if (st != LUA_OK) {
        enum lt_eval_status r = incomplete(L) && st == LUA_ERRSYNTAX ? LT_EVAL_INCOMPLETE
                                                                     : LT_EVAL_ERROR;
        if (r == LT_EVAL_ERROR) lt_vm_errmsg(vm, st, out, n);
        lua_pop(L, 1);
        return r;
    }
    /* a coroutine, so a measurement can go to the worker while the screen stays live */
    size_t first = strcspn(src, "\n");
    lt_vm_label(vm, "the REPL entry `%.*s%s`", first > 60 ? 60 : (int)first, src,
                first > 60 || src[first] ? "..." : "");
    if (!lt_task_start(vm, 0, out, n)) return LT_EVAL_ERROR;
    return lt_vm_eval_step(vm, out, n);
}

enum lt_eval_status lt_vm_eval_step(struct lt_vm *vm, char *out, size_t n)
{
    struct gpu_buf o = GPU_BUF_FIXED(out, n);
    int nres = 0, st = lt_task_step(vm, &nres, out, n);
    if (st == LUA_YIELD) return LT_EVAL_BUSY;
    lua_State *co = vm->task.co;
    if (st != LUA_OK) {
        if (vm->tripped && strlen(out) + 1 < n) strncat(out, "; the session goes on", n - strlen(out) - 1);
        lt_task_end(vm, false);
        lua_gc(vm->L, LUA_GCCOLLECT); /* a memory stop leaves garbage behind: give it back now */
        return LT_EVAL_ERROR;
    }
    if (n) out[0] = 0;
    int top = lua_gettop(co);
    if (!lua_checkstack(co, 16)) nres = 0; /* no room to look at them: show nothing */
    for (int i = top - nres + 1; i <= top; i++) {
        if (i > top - nres + 1) puts_(&o, "\t");
        put_value(co, i, &o);
    }
    lua_settop(co, 0);
    /* what the entry allocated stays: a buffer kept in a global is for the next entry */
    lt_task_end(vm, false);
    return LT_EVAL_OK;
}

void lt_vm_eval_cancel(struct lt_vm *vm) { lt_task_cancel(vm); }

/* ---- completion ------------------------------------------------------------------------------ */

struct compl {
    const char *word; /* "gpu.co": a dotted path of names, the last one cut short */
    char *out;
    size_t n;
    int count;
};

static bool alpha(char ch) { return ch == '_' || ((ch | 32) >= 'a' && (ch | 32) <= 'z'); }

static bool ident(const char *s, size_t n)
{
    if (!n || !alpha(s[0])) return false;
    for (size_t i = 1; i < n; i++)
        if (!alpha(s[i]) && !(s[i] >= '0' && s[i] <= '9')) return false;
    return true;
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Protected (a name is pushed, which may need memory): walk the path through plain tables, read
 * raw (no learner metamethod runs on Tab), then list the keys that start with the last part. */
static int complete_in(lua_State *L)
{
    struct compl *c = lua_touserdata(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.env");
    const char *w = c->word, *dot;
    while ((dot = strchr(w, '.'))) {
        if (!ident(w, (size_t)(dot - w)) || !lua_istable(L, -1)) return 0;
        lua_pushlstring(L, w, (size_t)(dot - w));
        lua_rawget(L, -2);
        lua_remove(L, -2);
        w = dot + 1;
    }
    if (!lua_istable(L, -1)) return 0;
    size_t pl = strlen(w), base = (size_t)(w - c->word), used = 0, nn = 0;
    const char *names[256];
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        size_t kl;
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &kl) : NULL;
        if (k && kl >= pl && !strncmp(k, w, pl) && ident(k, kl) && strncmp(k, "__", 2) && nn < 256)
            names[nn++] = k; /* the key stays in the table: its string lives on */
        lua_pop(L, 1);
    }
    qsort(names, nn, sizeof *names, cmp_str);
    for (size_t i = 0; i < nn; i++) {
        int wr = snprintf(c->out + used, c->n - used, "%s%.*s%s", i ? "\n" : "", (int)base, c->word, names[i]);
        if (wr < 0 || used + (size_t)wr >= c->n) break;
        used += (size_t)wr;
        c->count++;
    }
    return 0;
}

int lt_vm_complete(struct lt_vm *vm, const char *word, char *out, size_t n)
{
    struct compl c = {word, out, n, 0};
    if (!n) return 0;
    *out = 0;
    lua_State *L = vm->L;
    int top = lua_gettop(L);
    lua_pushcfunction(L, complete_in);
    lua_pushlightuserdata(L, &c);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) c.count = 0, *out = 0;
    lua_settop(L, top);
    return c.count;
}

/* ---- did you mean --------------------------------------------------------------------------- */

struct guess {
    const char *src, *name; /* name: the nil one, LT_NAME_MAX bytes at most */
    size_t name_len;
    bool field;
    char *out;
    size_t n;
};

#define GUESS_PATH 128

/* The dotted path before ".name" or ":name" in src (a word boundary after it), into path. */
static bool path_before(const char *src, const char *name, size_t nl, char *path, size_t n)
{
    for (const char *p = src; (p = strstr(p, name)); p += nl) {
        if (p == src || (p[-1] != '.' && p[-1] != ':') || alpha(p[nl]) || (p[nl] >= '0' && p[nl] <= '9'))
            continue;
        const char *end = p - 1, *start = end;
        while (start > src && (alpha(start[-1]) || (start[-1] >= '0' && start[-1] <= '9') || start[-1] == '.'))
            start--;
        if (start == end || (size_t)(end - start) >= n || !alpha(*start)) continue;
        memcpy(path, start, (size_t)(end - start));
        path[end - start] = 0;
        return true;
    }
    return false;
}

/* Protected: the table the name was looked for in (env, or the path's), raw; its closest key. */
static int guess_in(lua_State *L)
{
    struct guess *g = lua_touserdata(L, 1);
    char path[GUESS_PATH] = "", name[64];
    if (g->name_len >= sizeof name) return 0;
    memcpy(name, g->name, g->name_len);
    name[g->name_len] = 0;
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.env");
    if (g->field) {
        if (!path_before(g->src, name, g->name_len, path, sizeof path)) return 0;
        for (const char *w = path, *dot; lua_istable(L, -1) && *w; w = dot + !!*dot) {
            dot = w + strcspn(w, ".");
            if (!ident(w, (size_t)(dot - w))) return 0;
            lua_pushlstring(L, w, (size_t)(dot - w));
            lua_rawget(L, -2);
            lua_remove(L, -2);
        }
    }
    if (!lua_istable(L, -1)) return 0;
    struct gpu_suggest s;
    gpu_suggest_init(&s, name);
    lua_pushnil(L);
    while (lua_next(L, -2)) { /* a key stays in the table: s.best lives until we are done */
        size_t kl;
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &kl) : NULL;
        if (k && ident(k, kl) && strncmp(k, "__", 2) && !lua_isnil(L, -1)) gpu_suggest_add(&s, k);
        lua_pop(L, 1);
    }
    if (s.best) snprintf(g->out, g->n, "%s%s%s", path, *path ? "." : "", s.best);
    return 0;
}

bool lt_vm_suggest(struct lt_vm *vm, const char *src, const char *err, char *out, size_t n)
{
    if (!n) return false;
    *out = 0;
    static const char *const kinds[] = {"(global '", "(field '", "(method '"};
    const char *at = NULL;
    size_t k = 0;
    if (!src || !err || !strstr(err, "a nil value")) return false;
    for (; k < 3 && !at; k++) at = strstr(err, kinds[k]);
    if (!at) return false;
    at += strlen(kinds[k - 1]);
    const char *end = strchr(at, '\'');
    if (!end || !ident(at, (size_t)(end - at))) return false;
    struct guess g = {src, at, (size_t)(end - at), k > 1, out, n};
    lua_State *L = vm->L;
    int top = lua_gettop(L);
    lua_pushcfunction(L, guess_in);
    lua_pushlightuserdata(L, &g);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) *out = 0;
    lua_settop(L, top);
    return *out != 0;
}

bool lt_vm_suggest_file(struct lt_vm *vm, const char *path, char *err, size_t n)
{
    char e2[256], name[160];
    size_t len, l = strlen(err);
    if (!strstr(err, "a nil value") || !strcmp(path, "-")) return false; /* stdin is read once */
    char *src = lt_read_file(path, &len, e2, sizeof e2);
    bool ok = src && lt_vm_suggest(vm, src, err, name, sizeof name);
    if (ok) snprintf(err + l, n - l, "; did you mean %s?", name);
    free(src);
    return ok;
}
