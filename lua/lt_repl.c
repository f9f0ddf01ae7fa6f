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

#define SHOW_MAX 40 /* table entries shown before "..." */

/* ---- plot: the REPL's panel helpers --------------------------------------------------------- */

/* The style of a plotted value: opts.style, else opts.from's own `simulated` flag, else
 * "theoretical": a number the learner plots without saying where it came from is their own
 * arithmetic, neither a measurement nor the simulator's (a measurement says so with from = r). */
static enum lt_style plot_style(lua_State *L, int opts)
{
    static const char *const names[] = {"measured", "simulated", "theoretical", "reference", NULL};
    if (lua_type(L, opts) == LUA_TTABLE) { /* read raw, as every option table (lt_opt_field) */
        if (lt_opt_field(L, opts, "style") != LUA_TNIL) {
            int i = luaL_checkoption(L, -1, NULL, names);
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
    struct lt_event ev = {.type = LT_EV_POINT, .panel = "curve", .text = "", .unit = ""};
    lua_settop(L, 4);
    ev.series = luaL_tolstring(L, 1, NULL);
    ev.x = luaL_checknumber(L, 2);
    ev.y = luaL_checknumber(L, 3);
    ev.style = plot_style(L, 4);
    if (lua_type(L, 4) == LUA_TTABLE) { /* axis labels: {x = "bytes", y = "GB/s"} */
        ev.text = lt_opt_str(L, 4, "x", "");
        ev.unit = lt_opt_str(L, 4, "y", "");
    }
    plot_emit(L, &ev);
    return 0;
}

static int plot_bar(lua_State *L)
{
    struct lt_event ev = {.type = LT_EV_BAR, .panel = "bars", .text = ""};
    lua_settop(L, 4);
    ev.series = luaL_tolstring(L, 1, NULL);
    ev.value = luaL_checknumber(L, 2);
    ev.unit = plot_unit(L, 3);
    ev.style = plot_style(L, lua_type(L, 3) == LUA_TTABLE ? 3 : 4);
    plot_emit(L, &ev);
    return 0;
}

static int plot_gauge(lua_State *L)
{
    struct lt_event ev = {.type = LT_EV_GAUGE, .panel = "gauges", .text = ""};
    lua_settop(L, 5);
    ev.series = luaL_tolstring(L, 1, NULL);
    ev.value = luaL_checknumber(L, 2);
    ev.max = luaL_checknumber(L, 3);
    ev.unit = plot_unit(L, 4);
    ev.style = plot_style(L, lua_type(L, 4) == LUA_TTABLE ? 4 : 5);
    plot_emit(L, &ev);
    return 0;
}

static int plot_row(lua_State *L)
{
    struct lt_event ev = {.type = LT_EV_ROW, .panel = "table", .series = "", .text = "", .unit = ""};
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    lua_settop(L, 1);
    luaL_checkstack(L, 2 * LT_MAX_CELLS + 2, "plot.row"); /* each cell keeps two slots */
    for (lua_Integer i = 1; i <= n && ev.ncells < LT_MAX_CELLS; i++) {
        lua_geti(L, 1, i);
        ev.cells[ev.ncells++] = luaL_tolstring(L, -1, NULL); /* stays on the stack: anchored */
    }
    plot_emit(L, &ev);
    return 0;
}

static int plot_note(lua_State *L)
{
    struct lt_event ev = {.type = LT_EV_NOTE, .panel = "notes", .series = "", .unit = ""};
    lua_settop(L, 1);
    ev.text = luaL_tolstring(L, 1, NULL);
    plot_emit(L, &ev);
    return 0;
}

static int plot_clear(lua_State *L)
{
    static const char *const panels[] = {"curve", "bars", "gauges", "table", "notes"};
    for (size_t i = 0; i < sizeof panels / sizeof *panels; i++) {
        struct lt_event ev = {.type = LT_EV_CLEAR, .panel = panels[i], .series = "", .text = "",
                              .unit = ""};
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

enum lt_eval_status lt_vm_eval(struct lt_vm *vm, const char *src, char *out, size_t n)
{
    lua_State *L = vm->L;
    if (n) out[0] = 0;
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

/* ---- help() ---------------------------------------------------------------------------------- */

/* One line and one example per public function of gpu, host and alloc (docs/lua-api.md has the
 * full text; tests/lua/help.lua fails on a function missing here). */
static const struct {
    const char *name, *doc, *example, *zh;
} docs[] = {
    {"gpu.backend", "the backend's name: \"cuda\" or \"sim\"", "gpu.backend()",
     "后端的名字：\"cuda\" 或 \"sim\""},
    {"gpu.info", "the device: name, memory, clocks, bus, caches, PCIe (nil when unknown)", "gpu.info().total_bytes",
     "设备：名称、显存、频率、位宽、缓存、PCIe（未知时为 nil）"},
    {"gpu.mem", "free and total device memory in bytes", "free, total = gpu.mem()",
     "设备的空闲显存和总显存，单位字节"},
    {"gpu.budget", "bytes an experiment may allocate (the cap)", "gpu.budget()",
     "一个实验最多可以分配的字节数（上限）"},
    {"gpu.alloc", "allocate device memory: a buffer, or nil, message", "b = gpu.alloc(\"1GiB\")",
     "分配显存：返回一块缓冲，或 nil 和原因"},
    {"gpu.copy", "measure a copy {dir = h2d|d2h|d2d, bytes, method = ce|sm, pinned, trials, reps, single}", "gpu.copy{dir = \"h2d\", bytes = \"256MiB\"}",
     "测一次拷贝 {dir = h2d|d2h|d2d, bytes, method = ce|sm, pinned, trials, reps, single}"},
    {"gpu.latency", "pointer-chase latency over {bytes, load = global|generic}", "gpu.latency{bytes = \"64MiB\"}",
     "在 {bytes, load = global|generic} 上做指针追逐，测延迟"},
    {"gpu.overlap", "does a device copy run while a kernel holds every SM (a copy engine)? {bytes, busy_ms}", "gpu.overlap{bytes = \"256MiB\"}",
     "一个核函数占满所有 SM 时，显存内拷贝还能同时进行吗（拷贝引擎）？{bytes, busy_ms}"},
    {"gpu.clocks", "SM and memory clocks now and their maxima, in MHz (NVML)", "gpu.clocks().sm_mhz",
     "当前的 SM 与显存频率及其上限，单位 MHz（NVML）"},
    {"gpu.free_tolerance", "how far free memory may come back off after allocating and freeing n bytes: max(2 MiB, 0.01 %)", "gpu.free_tolerance(\"16GiB\")",
     "分配再释放 n 字节后，空闲显存允许偏离多少：max(2 MiB, 0.01%)"},
    {"gpu.stream", "STREAM kernels on the device {kernel = copy|scale|add|triad|dot, bytes, trials}", "gpu.stream{kernel = \"triad\", bytes = \"256MiB\"}",
     "设备上的 STREAM 核函数 {kernel = copy|scale|add|triad|dot, bytes, trials}"},
    {"gpu.plateaus", "group latency points {{bytes, ns}} into cache levels {where = gpu|host, levels}", "gpu.plateaus(points, {where = \"host\"})",
     "把延迟点 {{bytes, ns}} 分成各级缓存 {where = gpu|host, levels}"},
    {"gpu.peak", "theoretical bandwidth from memory clock (kHz) and bus width (bits)", "gpu.peak(9751000, 384)",
     "由显存频率（kHz）和位宽（bit）算出的理论带宽"},
    {"gpu.profiles", "the simulator's GPU profiles", "gpu.profiles()",
     "模拟器的 GPU 配置列表"},
    {"gpu.profile", "one simulator profile's figures", "gpu.profile(\"h100-sxm\")",
     "一个模拟器配置里的数字"},
    {"gpu.strided", "read 4-byte words at a stride {stride = 1..1024, offset, bytes, trials}: effective bandwidth, sectors per request", "gpu.strided{stride = 8, bytes = \"32MiB\"}",
     "按步长读 4 字节的字 {stride = 1..1024, offset, bytes, trials}：有效带宽、每次请求的扇区数"},
    {"gpu.random", "read every word of an array once, in a random order {bytes, trials}", "gpu.random{bytes = \"256MiB\"}",
     "以随机顺序把数组的每个字读一遍 {bytes, trials}"},
    {"gpu.layout", "particles as an array of structs or a struct of arrays {layout = aos|soa, particles, fields, trials}", "gpu.layout{layout = \"soa\", particles = 2^22}",
     "粒子按结构体数组或数组结构体存放 {layout = aos|soa, particles, fields, trials}"},
    {"gpu.reread", "read a working set again and again through L2 {bytes, trials}", "gpu.reread{bytes = \"4MiB\"}",
     "经由 L2 反复读一个工作集 {bytes, trials}"},
    {"gpu.persist", "a hot array re-read beside a streamed cold one, with an L2 persistence window {hot, cold, window, hit_ratio, trials}", "gpu.persist{hot = \"4MiB\", cold = \"256MiB\"}",
     "冷数组流式读一遍，旁边反复读热数组，可加 L2 持久化窗口 {hot, cold, window, hit_ratio, trials}"},
    {"gpu.transpose", "an n x n matrix copied or transposed {kernel = copy|naive|tiled|padded, n, trials}", "gpu.transpose{kernel = \"padded\", n = 4096}",
     "n x n 矩阵的拷贝或转置 {kernel = copy|naive|tiled|padded, n, trials}"},
    {"gpu.banks", "shared-memory reads at a word stride: bank conflicts {stride, loads, trials}", "gpu.banks{stride = 32}",
     "按字步长读共享内存：存储体（bank）冲突 {stride, loads, trials}"},
    {"gpu.fma", "a polynomial of fmas FMAs per element: arithmetic intensity {fmas, bytes, trials}", "gpu.fma{fmas = 64, bytes = \"64MiB\"}",
     "每个元素做 `fmas` 次 FMA 的多项式：算术强度 {fmas, bytes, trials}"},
    {"gpu.pages", "pointer chase with lines step bytes apart: TLB reach {bytes, step, trials}", "gpu.pages{bytes = \"1GiB\", step = \"2MiB\"}",
     "各行相隔 `step` 字节的指针追逐：TLB 覆盖范围 {bytes, step, trials}"},
    {"gpu.sectors", "32-byte sectors one warp's load touches (stride bytes, element bytes, offset bytes)", "gpu.sectors(8)",
     "一个线程束（warp）的一次加载碰到的 32 字节扇区数（步长字节、元素字节、偏移字节）"},
    {"gpu.bank_ways", "ways a warp's shared-memory load is split at a word stride: gcd(stride, 32)", "gpu.bank_ways(32)",
     "按字步长读共享内存时一个线程束（warp）的加载被拆成几路：gcd(stride, 32)"},
    {"gpu.program", "run buffers and copies, kernels, prefetches, events on streams; a timeline {buffers, ops}", "gpu.program{buffers = {d = {\"device\", \"1MiB\"}}, ops = {{\"fill\", \"d\"}}}",
     "在流上运行缓冲区与拷贝、核函数、预取、事件；返回时间线 {buffers, ops}"},
    {"gpu.pin", "the cost of pinning host memory {bytes, kind = pinned|registered|mapped|managed|pageable, trials}", "gpu.pin{bytes = \"1GiB\"}",
     "锁页主机内存的开销 {bytes, kind = pinned|registered|mapped|managed|pageable, trials}"},
    {"host.info", "this CPU: threads, RAM, last-level cache", "host.info()",
     "这颗 CPU：线程数、内存、末级缓存"},
    {"host.copy", "host memory copy bandwidth {method = memcpy|loop, bytes, trials, threads}", "host.copy{bytes = \"64MiB\"}",
     "主机内存拷贝带宽 {method = memcpy|loop, bytes, trials, threads}"},
    {"host.stream", "STREAM on the CPU {kernel = copy|scale|add|triad|dot, bytes, trials, threads}", "host.stream{kernel = \"add\", bytes = \"64MiB\"}",
     "CPU 上的 STREAM {kernel = copy|scale|add|triad|dot, bytes, trials, threads}"},
    {"host.triad", "STREAM triad on all threads {bytes, trials, threads}", "host.triad{bytes = \"64MiB\"}",
     "所有线程上的 STREAM triad {bytes, trials, threads}"},
    {"host.latency", "host pointer-chase latency {bytes, trials, threads}", "host.latency{bytes = \"8MiB\"}",
     "主机上的指针追逐延迟 {bytes, trials, threads}"},
    {"host.caches", "this CPU's data caches (one core's), smallest first", "host.caches()",
     "这颗 CPU 的数据缓存（单核可用的），从小到大"},
    {"host.budget", "bytes one host experiment may take in all its arrays", "host.stream{bytes = host.budget() // 3}",
     "一个主机实验的全部数组最多可用的字节数"},
    {"alloc.caching", "PyTorch's caching allocator on this device {max_split_size_mb, roundup_power2_divisions, expandable_segments, memory_fraction, conf, capacity}", "a = alloc.caching()",
     "本设备上的 PyTorch 缓存分配器 {max_split_size_mb, roundup_power2_divisions, expandable_segments, memory_fraction, conf, capacity}"},
    {"alloc.model", "the caching allocator on a model device {capacity, ...}", "a = alloc.model{capacity = \"80GiB\"}",
     "模型设备上的缓存分配器 {capacity, ...}"},
    {"alloc.raw", "plain cudaMalloc/cudaFree, no cache {capacity}", "r = alloc.raw()",
     "直接调用 cudaMalloc/cudaFree，不缓存 {capacity}"},
    {"alloc.async_pool", "a stream-ordered pool (cudaMallocAsync) {capacity, release_threshold, reuse_*}", "p = alloc.async_pool{capacity = \"24GiB\"}",
     "流有序内存池（cudaMallocAsync）{capacity, release_threshold, reuse_*}"},
    {"alloc.trace_replay", "replay an allocation trace into a model allocator", "alloc.trace_replay(text, {capacity = \"80GiB\"})",
     "把一份分配轨迹重放到模型分配器里"},
    {"alloc.ledger", "where device memory went (driver, allocator, other)", "alloc.ledger(a).text",
     "显存去了哪里（驱动、分配器、其他）"},
    {"alloc.format_size", "PyTorch's format_size text", "alloc.format_size(\"1GiB\")",
     "PyTorch 的 format_size 文本"},
    {"alloc.snapshot", "read a shipped PyTorch memory snapshot {device, top, columns, replay, capacity}", "alloc.snapshot(\"assets/snapshots/gpt-train.pickle\").peak",
     "读取随附的 PyTorch 显存快照 {device, top, columns, replay, capacity}"},
    {"alloc.round_size", "the block size, pool and segment a request gets", "alloc.round_size(\"1000B\")",
     "一次申请得到的块大小、池和段"},
    {"units.parse", "a size, rate, time or count from text: value, kind (nil, message when unreadable)", "units.parse(\"16GiB\")",
     "从文本读出大小、速率、时间或数量：值和种类（读不懂时为 nil 和原因）"},
    {"units.read", "how a quantity was written: value, number, unit, bits/binary/decimal, percent; or the two readings of '912 gb/s'", "units.read(\"912 Gb/s\")",
     "一个量是怎么写的：值、数字、单位、位/二进制/十进制、百分数；或“912 gb/s”的两种读法"},
    {"units.bytes", "bytes in binary units, as capacity is counted", "units.bytes(7e9 * 2)",
     "以二进制单位写字节数，容量按这种方式计"},
    {"units.si", "bytes in decimal units, as vendors print capacity", "units.si(7e9 * 2)",
     "以十进制单位写字节数，厂商标称容量用这种方式"},
    {"units.rate", "bytes per second in GB/s (decimal)", "units.rate(936e9)",
     "以 GB/s（十进制）写每秒字节数"},
    {"units.time", "seconds as ns, us, ms or s", "units.time(93.4e-9)",
     "以 ns、us、ms 或 s 写秒数"},
    {"units.gbs", "n / 1e9", "units.gbs(r.bytes_per_s)",
     "n / 1e9"},
    {"units.gib", "n / 2^30", "units.gib(gpu.info().total_bytes)",
     "n / 2^30"},
    {"plot.point", "add a curve point (series, x, y [, {style=, from=, x=, y=}])", "plot.point(\"memcpy\", 2^20, 12.5)",
     "给曲线加一个点 (series, x, y [, {style=, from=, x=, y=}])"},
    {"plot.bar", "set a bar (label, value, unit or {unit=, style=, from=})", "plot.bar(\"triad\", 41.2, \"GB/s\")",
     "设置一根柱 (label, value, unit 或 {unit=, style=, from=})"},
    {"plot.gauge", "set a gauge (label, value, max, unit or {unit=, style=})", "plot.gauge(\"used\", 3, 24, \"GiB\")",
     "设置一个仪表 (label, value, max, unit 或 {unit=, style=})"},
    {"plot.row", "add a table row (the first is the header)", "plot.row{\"size\", \"GB/s\"}",
     "给表格加一行（第一行是表头）"},
    {"plot.note", "a line under the panels", "plot.note(\"pinned beats pageable\")",
     "面板下方的一行注释"},
    {"plot.clear", "empty every panel", "plot.clear()",
     "清空所有面板"},
};

static const char *const help_modules[] = {"gpu", "host", "alloc", "vram", "units", "plot"};

/* A module without lines of its own here (vram): its function names, from the table itself. */
static void list_fields(lua_State *L, int t, const char *mod, bool zh, struct gpu_buf *b)
{
    const char *names[256];
    size_t nn = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_isfunction(L, -1) && nn < 256)
            names[nn++] = lua_tostring(L, -2);
        lua_pop(L, 1);
    }
    qsort(names, nn, sizeof *names, cmp_str);
    for (size_t i = 0; i < nn; i++) {
        puts_(b, i % 4 ? "  " : "\n  ");
        puts_(b, mod);
        puts_(b, ".");
        puts_(b, names[i]);
    }
    if (!strcmp(mod, "vram"))
        puts_(b, zh ? "\n  （带示例的说明见 docs/vram-api.md、vram-train.md 和 vram-infer.md）"
                    : "\n  (documented with examples in docs/vram-api.md, vram-train.md and vram-infer.md)");
}

/* One function's line: "gpu.copy: what it does\n  e.g. example". */
static void put_doc(struct gpu_buf *b, size_t i, bool zh)
{
    puts_(b, docs[i].name);
    puts_(b, zh ? "：" : ": ");
    puts_(b, zh ? docs[i].zh : docs[i].doc);
    puts_(b, zh ? "\n  例：" : "\n  e.g. ");
    puts_(b, docs[i].example);
}

/* A module's functions, a line each; a module without lines here (vram) lists its own names. */
static void put_module(lua_State *L, size_t m, bool zh, struct gpu_buf *b)
{
    const char *name = help_modules[m];
    size_t len = strlen(name);
    puts_(b, name);
    puts_(b, ":");
    size_t head = b->len;
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++)
        if (!strncmp(docs[i].name, name, len) && docs[i].name[len] == '.') {
            puts_(b, "\n  ");
            puts_(b, docs[i].name);
            puts_(b, "  ");
            puts_(b, zh ? docs[i].zh : docs[i].doc);
        }
    if (b->len != head) return;
    int top = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.env");
    if (lua_getfield(L, -1, name) == LUA_TTABLE) list_fields(L, lua_gettop(L), name, zh, b);
    lua_settop(L, top);
}

/* help([module or function, or its name]): prints what it knows, through the sandbox's print
 * (the REPL's transcript, eval's stdout). */
int lt_help(lua_State *L)
{
    lua_settop(L, 1);
    char text[4096] = "";
    struct gpu_buf b = GPU_BUF_FIXED(text, sizeof text);
    bool zh = !strcmp(lt_runtime_lang(lt_vm_of(L)->rt), "zh");
    const size_t nmod = sizeof help_modules / sizeof *help_modules;
    if (lua_type(L, 1) == LUA_TSTRING) { /* help("gpu.copy"), help("plot") outside the tutor */
        const char *name = lua_tostring(L, 1);
        for (size_t i = 0; !*text && i < sizeof docs / sizeof *docs; i++)
            if (!strcmp(docs[i].name, name)) put_doc(&b, i, zh);
        for (size_t m = 0; !*text && m < nmod; m++)
            if (!strcmp(name, help_modules[m])) put_module(L, m, zh, &b);
    } else if (lua_isnoneornil(L, 1)) {
        puts_(&b, zh ? "模块：gpu（设备）、host（这颗 CPU）、alloc（分配器）、vram（显存估算）、"
                       "units（大小）、plot（沙盒面板；仅在导师界面）。help(gpu) 列出一个模块，"
                       "help(gpu.copy) 显示一个函数。"
                     : "modules: gpu (the device), host (this CPU), alloc (allocators), vram "
                       "(memory estimates), units (sizes), plot (the sandbox panel; tutor only). "
                       "help(gpu) lists a module, help(gpu.copy) shows one function.");
    } else if (lua_istable(L, 1)) {
        lua_getfield(L, LUA_REGISTRYINDEX, "lt.env");
        for (size_t m = 0; !*text && m < nmod; m++) {
            lua_getfield(L, 2, help_modules[m]);
            bool same = lua_rawequal(L, -1, 1);
            lua_pop(L, 1);
            if (same) put_module(L, m, zh, &b);
        }
        lua_settop(L, 1);
    } else if (lua_isfunction(L, 1)) {
        lua_getfield(L, LUA_REGISTRYINDEX, "lt.env");
        for (size_t i = 0; !*text && i < sizeof docs / sizeof *docs; i++) {
            char mod[16];
            const char *dot = strchr(docs[i].name, '.');
            snprintf(mod, sizeof mod, "%.*s", (int)(dot - docs[i].name), docs[i].name);
            lua_getfield(L, 2, mod);
            bool same = lua_istable(L, -1) && lua_getfield(L, -1, dot + 1) != LUA_TNIL &&
                        lua_rawequal(L, -1, 1);
            lua_settop(L, 2);
            if (same) put_doc(&b, i, zh);
        }
        lua_settop(L, 1);
    }
    lua_pushstring(L, *text ? text : zh ? "没有这一项的帮助：help() 列出所有模块"
                                        : "no help for that: help() lists the modules");
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.env");
    lua_getfield(L, -1, "print");
    lua_pushvalue(L, -3);
    lua_call(L, 1, 0);
    return 0;
}
