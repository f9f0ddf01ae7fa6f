/* lt_lesson.c - a loaded lesson: its blocks for the front ends, its experiments run as
 * coroutines (yielding while the worker measures), its exercises graded (the catalog of every
 * lesson under a folder is lt_catalog.c). Everything a lesson does wrong becomes
 * "file:line: what". */
#include "lt.h"
#include "lt_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_suggest.h"
#include "lt_header.h"
#include "lt_lex.h"
#include "lt_markup.h"

struct lt_lesson {
    struct lt_runtime *rt;
    struct lt_vm *vm;
    char *path;
    char id[LT_ID_MAX + 1];
    int chapter;
    int ref; /* the private copy of the lesson table the validator checked: what C reads */
    char title[512]; /* a draft's title with its "not yet translated" marker */
    int nblocks;
    unsigned char *kinds; /* enum lt_block_kind of each block, from the validator's records */
    /* the experiment or grading being run (its coroutine is vm->task) */
    enum lt_run_state state;
    int run_block;
    bool grading;         /* the run grades an answer: its results are kept for answer_result */
    bool dev_ok_at_start; /* the device had not failed when the run began */
    bool held;            /* lt_lesson_run_hold: the front end does not step it */
    double held_left;     /* the wall time the run had left when held (0: no limit) */
    bool answer_ok;
    char *answer_fb;      /* the grader's feedback (NULL: no result yet) */
    char *answer_fb2;     /* the same in the other language (a live front end: L shows it) */
    char *info[5];        /* lt_answer_info's strings: broken, mistake, detail en, zh, how */
    char answer_lang[4];  /* the language of answer_fb */
    /* exercises */
    int *tries;
    bool *solved;
};

/* ---- C functions the trusted Lua side uses ----------------------------------------------- */

int lt_markup_check(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    struct lt_mk_doc doc;
    char err[256];
    if (lt_markup_parse(s, len, &doc, err, sizeof err) != 0) {
        lua_pushstring(L, err);
        return 1;
    }
    lt_markup_free(&doc);
    return 0;
}

/* A text of the event in both languages: the language the lesson ran in is the text as given,
 * the other the pair ex:t picked it from (lt_runtime_translate: the whole text, or a known start
 * followed by what is the same in both, a number or a name), else the same text. The other
 * language's string is pushed, so it stays anchored while the sink runs. */
static struct lt_text pair(lua_State *L, struct lt_runtime *rt, const char *s)
{
    bool zh = !strcmp(lt_runtime_lang(rt), "zh");
    char buf[1024];
    const char *o = lt_runtime_translate(rt, s, zh ? "en" : "zh", buf, sizeof buf);
    if (o != s) o = lua_pushstring(L, o);
    struct lt_text t;
    t.s[zh] = s, t.s[!zh] = o;
    return t;
}

/* Field k of the event table as a string ("" when absent; a number is refused: it would be a
 * new string nothing anchors). */
static const char *ev_str(lua_State *L, const char *k)
{
    return lt_opt_str(L, 1, k, "");
}

/* cells = { "a", "b", ... }: each a text in both languages, into an array that lives on the
 * stack (a userdata) while the sink runs. */
static void read_cells(lua_State *L, struct lt_runtime *rt, struct lt_event *ev)
{
    if (lt_opt_field(L, 1, "cells") != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    int t = lua_gettop(L), n = (int)lua_rawlen(L, t);
    if (n > LT_EVENT_MAX_ITEMS)
        luaL_error(L, "a row of %d cells; at most %d", n, LT_EVENT_MAX_ITEMS);
    struct lt_text *c = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *c, 0);
    luaL_checkstack(L, n + 4, "cells");
    for (int i = 0; i < n; i++) {
        /* a string only: a number converted here would be a new string nothing anchors */
        const char *v = lua_rawgeti(L, t, i + 1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        lua_pop(L, 1); /* the string stays anchored by the cells table */
        c[i] = pair(L, rt, v);
    }
    ev->cells = c, ev->ncells = n;
}

/* blocks = { { owner=, state=, bytes=, seg= }, ... }: a memory map's blocks, read typed. */
static void read_blocks(lua_State *L, struct lt_runtime *rt, struct lt_event *ev)
{
    if (lt_opt_field(L, 1, "blocks") != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    int t = lua_gettop(L), n = (int)lua_rawlen(L, t);
    if (n > LT_EVENT_MAX_ITEMS)
        luaL_error(L, "a map of %d blocks; at most %d", n, LT_EVENT_MAX_ITEMS);
    struct lt_map_block *b = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *b, 0);
    luaL_checkstack(L, n + 4, "blocks");
    for (int i = 0; i < n; i++) {
        if (lua_rawgeti(L, t, i + 1) != LUA_TTABLE) luaL_error(L, "map block %d is not a table", i + 1);
        int bi = lua_gettop(L);
        const char *owner = lt_opt_str(L, bi, "owner", "");
        const char *st = lt_opt_str(L, bi, "state", "allocated");
        int state = lt_map_state_parse(st);
        if (state < 0)
            luaL_error(L, "map block %d: no state '%s'", i + 1, st);
        double bytes = lt_opt_num(L, bi, "bytes", 0), seg = lt_opt_num(L, bi, "seg", 0);
        lua_pop(L, 1); /* the block table stays anchored by the blocks table */
        b[i].owner = pair(L, rt, owner);
        b[i].state = (enum lt_map_state)state;
        b[i].bytes = bytes > 0 && bytes < 1.8e19 ? (uint64_t)bytes : 0;
        b[i].seg = seg >= 1 && seg < 1e6 ? (int)seg : 0;
    }
    ev->blocks = b, ev->nblocks = n;
}

/* __lt_event_info() -> { panels = { bars = true, ... }, states = {...}, max_items = N,
 * timeline = { lanes =, kinds =, spans = } }: what lesson.lua checks
 * an experiment's panels and an ex:row/ex:map against, from the one registry (lt_event.h). */
int lt_event_info(lua_State *L)
{
    lua_createtable(L, 0, 2);
    lua_createtable(L, 0, LT_PANEL_COUNT);
    for (int k = 0; k < LT_PANEL_COUNT; k++) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, lt_panel_name((enum lt_panel_kind)k));
    }
    lua_setfield(L, -2, "panels");
    lua_createtable(L, 0, LT_MAP_COUNT);
    for (int k = 0; k < LT_MAP_COUNT; k++) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, lt_map_state_name((enum lt_map_state)k));
    }
    lua_setfield(L, -2, "states");
    lua_pushinteger(L, LT_EVENT_MAX_ITEMS);
    lua_setfield(L, -2, "max_items");
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, LT_TIMELINE_MAX_LANES);
    lua_setfield(L, -2, "lanes");
    lua_pushinteger(L, LT_TIMELINE_MAX_KINDS);
    lua_setfield(L, -2, "kinds");
    lua_pushinteger(L, LT_TIMELINE_MAX_SPANS);
    lua_setfield(L, -2, "spans");
    lua_setfield(L, -2, "timeline");
    return 1;
}

/* __lt_emit{type=, panel=, ...} -> the sink: the fields the registry gives the kind, read typed
 * (lt_event.h); a text in both languages. */
int lt_emit(lua_State *L)
{
    struct lt_runtime *rt = lt_vm_of(L)->rt;
    struct lt_event ev = {0};
    luaL_checktype(L, 1, LUA_TTABLE);
    const char *type = lt_opt_str(L, 1, "type", "");
    int t = lt_event_parse(type);
    if (t < 0) return luaL_error(L, "no event kind '%s'", type);
    ev.type = (enum lt_event_type)t;
    unsigned f = lt_event_fields(ev.type);
    ev.panel = f & LT_F_PANEL ? ev_str(L, "panel") : "";
    ev.series = pair(L, rt, f & LT_F_SERIES ? ev_str(L, "series") : "");
    const char *text = f & LT_F_TEXT ? ev_str(L, "text") : "";
    if (lt_opt_field(L, 1, "text") == LUA_TSTRING) ev.text_len = lua_rawlen(L, -1); /* NULs kept */
    lua_pop(L, 1);
    /* print() shows what the code printed, as it printed it: the same in both languages */
    ev.text = ev.type == LT_EV_PRINT ? lt_text1(text) : pair(L, rt, text);
    ev.unit = pair(L, rt, f & LT_F_UNIT ? ev_str(L, "unit") : "");
    int style = lt_style_parse(lt_opt_str(L, 1, "style", "measured"));
    ev.style = style < 0 ? LT_MEASURED : (enum lt_style)style;
    ev.x = lt_opt_num(L, 1, "x", 0);
    ev.y = lt_opt_num(L, 1, "y", 0);
    ev.value = lt_opt_num(L, 1, "value", 0);
    ev.max = lt_opt_num(L, 1, "max", 0);
    if (f & LT_F_CELLS) read_cells(L, rt, &ev);
    if (f & LT_F_BLOCKS) read_blocks(L, rt, &ev);
    lt_vm_emit(L, &ev); /* cut and counted at the source */
    return 0;
}

/* ---- loading --------------------------------------------------------------------------- */

static void push_module_fn(lua_State *L, const char *fn)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.modules");
    lua_getfield(L, -1, "lesson");
    lua_getfield(L, -1, fn);
    lua_replace(L, -3);
    lua_pop(L, 1);
}

/* Field k of the table at idx, read raw. Lesson tables are sandbox data: a metatable a lesson
 * put on them after validation must not run (here no limit is armed), and what is read may
 * have any type (every reader copes with NULL strings). */
static int field(lua_State *L, int idx, const char *k)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        lua_pushnil(L);
        return LUA_TNIL;
    }
    lua_pushstring(L, k);
    return lua_rawget(L, idx);
}

/* The string at idx, or NULL: never a number converted on the stack, whose string nothing would
 * anchor once it is popped. */
static const char *str(lua_State *L, int idx)
{
    return lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
}

/* Push a copy of the value at idx: tables are copied (raw reads, shared and cyclic tables copied
 * once), anything else is pushed as it is. The C side reads lessons from such a copy, which no
 * lesson code can reach: what an experiment does to its own tables later (types changed,
 * metatables set, strings replaced and collected) cannot reach a pointer handed out here. `seen`
 * maps originals to copies. With `strict`, a table that has a metatable is refused (lesson data
 * is plain tables: the validator must see what the C side will read); otherwise metatables are
 * dropped. */
static void copy_value(lua_State *L, int idx, int seen, int depth, bool strict)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        lua_pushvalue(L, idx);
        return;
    }
    lua_pushvalue(L, idx);
    if (lua_rawget(L, seen) != LUA_TNIL) return;
    lua_pop(L, 1);
    if (depth > 32) luaL_error(L, "lesson data nested deeper than 32 tables");
    if (strict && lua_getmetatable(L, idx))
        luaL_error(L, "lesson data must be plain tables (one has a metatable)");
    luaL_checkstack(L, 8, "lesson data");
    lua_newtable(L);
    int dst = lua_gettop(L);
    lua_pushvalue(L, idx);
    lua_pushvalue(L, dst);
    lua_rawset(L, seen);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        copy_value(L, -1, seen, depth + 1, strict);
        lua_pushvalue(L, -3);
        lua_insert(L, -2);
        lua_rawset(L, dst);
        lua_pop(L, 1);
    }
}

/* __lt_snapshot(t) -> a private deep copy of lesson data (for lesson.lua's constructors): what
 * the validator checks and, for a lesson, what the C side reads. */
int lt_snapshot(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_newtable(L);
    copy_value(L, 1, 2, 0, true);
    return 1;
}

/* Is the data at a (a lesson's own table, maybe changed since) still what the snapshot at b
 * holds? Raw reads only; a metatable that appeared is a change. `seen` maps a's tables to b's. */
static bool same_value(lua_State *L, int a, int b, int seen, int depth)
{
    a = lua_absindex(L, a), b = lua_absindex(L, b);
    if (lua_type(L, a) != lua_type(L, b)) return false;
    if (lua_type(L, a) != LUA_TTABLE) return lua_rawequal(L, a, b);
    lua_pushvalue(L, a);
    if (lua_rawget(L, seen) != LUA_TNIL) {
        bool r = lua_rawequal(L, -1, b);
        lua_pop(L, 1);
        return r;
    }
    lua_pop(L, 1);
    if (depth > 32 || lua_getmetatable(L, a)) {
        if (depth <= 32) lua_pop(L, 1);
        return false;
    }
    luaL_checkstack(L, 8, "lesson data");
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_rawset(L, seen);
    lua_Integer na = 0, nb = 0;
    lua_pushnil(L);
    while (lua_next(L, a)) {
        na++;
        lua_pushvalue(L, -2);
        lua_rawget(L, b);
        bool eq = same_value(L, -2, -1, seen, depth + 1);
        lua_pop(L, 2);
        if (!eq) {
            lua_pop(L, 1);
            return false;
        }
    }
    lua_pushnil(L);
    while (lua_next(L, b)) {
        nb++;
        lua_pop(L, 1);
    }
    return na == nb;
}

/* __lt_same(a, b) -> is a still what its snapshot b holds? */
int lt_same(lua_State *L)
{
    lua_settop(L, 2);
    lua_newtable(L);
    lua_pushboolean(L, same_value(L, 1, 2, 3, 0));
    return 1;
}

/* __lt_suggest(word, names) -> the name of the list `names` that `word` most likely meant
 * (gpu_suggest.h), or nil: "did you mean" in the support code's messages. */
int lt_suggest(lua_State *L)
{
    const char *word = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    struct gpu_suggest s;
    gpu_suggest_init(&s, word);
    lua_Integer n = luaL_len(L, 2);
    for (lua_Integer i = 1; i <= n && i <= 4096; i++) { /* the strings stay in the table */
        if (lua_rawgeti(L, 2, i) == LUA_TSTRING) gpu_suggest_add(&s, lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    if (s.best) lua_pushstring(L, s.best);
    else lua_pushnil(L);
    return 1;
}

/* __lt_field_line(src, line, name, path) -> the line of a field of the constructor `name {` on
 * `line` (lt_lex.h), or nil: an error at the field that is wrong, not the block's first line. */
int lt_field_line(lua_State *L)
{
    size_t len;
    const char *src = luaL_checklstring(L, 1, &len);
    int line = (int)luaL_checkinteger(L, 2);
    const char *name = luaL_optstring(L, 3, NULL), *path = luaL_checkstring(L, 4);
    int at = lt_lex_field_line(src, len, line, name, path);
    if (at > 0) lua_pushinteger(L, at);
    else lua_pushnil(L);
    return 1;
}

/* Pushes the block's kind string (from the validator's record) or nil. */
static const char *block_kind_str(lua_State *L, int tbl_idx)
{
    push_module_fn(L, "meta");
    lua_pushvalue(L, tbl_idx < 0 ? tbl_idx - 1 : tbl_idx);
    lua_call(L, 1, 1);
    const char *k = NULL;
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "kind");
        k = lua_tostring(L, -1);
        lua_pop(L, 1); /* kind strings are interned constants of lesson.lua: stay valid */
    }
    lua_pop(L, 1);
    return k;
}

/* (t) -> snapshot, still the same?, the line of lesson{} (protected: it allocates). */
static int freeze(lua_State *L)
{
    push_module_fn(L, "meta");
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    lua_getfield(L, 2, "snap");
    lua_newtable(L);
    bool same = same_value(L, 1, 3, 4, 0);
    lua_pop(L, 1);
    lua_pushboolean(L, same);
    lua_getfield(L, 2, "line");
    return 3;
}

/* An id the C side may use (recordings, progress, file names through tui_file_id_name): the
 * validator's rules, checked again on the copy C reads. */
static bool id_ok(const char *s, bool lesson)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > (lesson ? 31u : 64u)) return false;
    if (lesson) {
        size_t a = strspn(s, "0123456789");
        return a > 0 && s[a] == '.' && s[a + 1] && strspn(s + a + 1, "0123456789") == n - a - 1;
    }
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

int lt_lesson_lint(struct lt_lesson *ls, void (*report)(void *ud, enum lt_lint sev, const char *msg),
                   void *ud)
{
    lua_State *L = ls->vm->L;
    int top = lua_gettop(L), n = 0;
    push_module_fn(L, "lint");
    if (lua_pcall(L, 0, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
        report(ud, LT_LINT_ERROR, str(L, -1) ? str(L, -1) : "the course rules could not be checked");
        lua_settop(L, top);
        return 1;
    }
    for (int i = 1; lua_rawgeti(L, -1, i) == LUA_TTABLE; i++, n++) {
        lua_getfield(L, -1, "sev");
        const char *sev = str(L, -1);
        lua_getfield(L, -2, "msg");
        enum lt_lint s = !sev || !strcmp(sev, "error") ? LT_LINT_ERROR
                       : !strcmp(sev, "house")          ? LT_LINT_HOUSE : LT_LINT_WARN;
        report(ud, s, str(L, -1) ? str(L, -1) : "?");
        lua_pop(L, 3);
    }
    lua_settop(L, top);
    return n;
}

struct lt_lesson *lt_lesson_load(struct lt_runtime *rt, const char *path, char *err, size_t n)
{
    struct lt_vm *vm = lt_vm_new(rt, err, n);
    if (!vm) return NULL;
    lua_State *L = vm->L;
    if (!lt_vm_dofile_keep(vm, path, true, err, n)) {
        lt_vm_suggest_file(vm, path, err, n); /* exercize {: did you mean exercise? */
        lt_vm_free(vm);
        return NULL;
    }
    const char *kind = lua_istable(L, -1) ? block_kind_str(L, -1) : NULL;
    if (!kind || strcmp(kind, "lesson")) {
        gpu_errf(err, n, "%s:1: the file must end with 'return lesson { ... }'", path);
        lt_vm_free(vm);
        return NULL;
    }
    /* What lesson{} validated is its snapshot (lesson.lua), the copy C reads from now on. Code
     * that ran after it (a <close> handler, a metamethod, a closure) must not have changed the
     * lesson's own tables: a lesson that rewrites itself after validation is refused. */
    lua_pushcfunction(L, freeze);
    lua_pushvalue(L, -2);
    int st = lua_pcall(L, 1, 3, 0);
    if (st != LUA_OK) {
        gpu_errf(err, n, "%s:1: the lesson could not be checked: %s", path,
                 str(L, -1) ? str(L, -1) : "out of memory");
        lt_vm_free(vm);
        return NULL;
    }
    if (!lua_toboolean(L, -2)) {
        gpu_errf(err, n, "%s:%d: the lesson changed after lesson{} validated it: code that ran "
                 "later (a <close> handler, a metamethod or a closure) rewrote its tables; lesson "
                 "data must be final when lesson{} returns", path, (int)lua_tointeger(L, -1));
        lt_vm_free(vm);
        return NULL;
    }
    lua_pop(L, 2); /* the original, then the snapshot on top */
    struct lt_lesson *ls = calloc(1, sizeof *ls);
    if (!ls) {
        gpu_errf(err, n, "out of memory");
        lt_vm_free(vm);
        return NULL;
    }
    ls->rt = rt;
    ls->vm = vm;
    ls->path = strdup(path);
    field(L, -1, "id");
    snprintf(ls->id, sizeof ls->id, "%s", str(L, -1) ? str(L, -1) : "");
    bool ids = id_ok(str(L, -1), true);
    field(L, -2, "chapter");
    lua_Integer chapter = lua_tointeger(L, -1);
    ids = ids && chapter >= 1 && chapter <= 9999; /* before it becomes an int */
    ls->chapter = ids ? (int)chapter : 0;
    lua_pop(L, 2);
    ls->nblocks = (int)lua_rawlen(L, -1);
    ls->kinds = calloc((size_t)ls->nblocks + 1, 1);
    for (int i = 0; ls->kinds && i < ls->nblocks; i++) {
        lua_rawgeti(L, -2, i + 1); /* the original block: the validator's record is keyed by it */
        const char *k = block_kind_str(L, -1);
        lua_pop(L, 1);
        ls->kinds[i] = k && !strcmp(k, "experiment") ? LT_BLOCK_EXPERIMENT
                       : k && !strcmp(k, "exercise") ? LT_BLOCK_EXERCISE
                                                     : LT_BLOCK_TEXT;
        if (ls->kinds[i] != LT_BLOCK_TEXT) {
            lua_rawgeti(L, -1, i + 1);
            field(L, -1, "id");
            ids = ids && id_ok(str(L, -1), false);
            lua_pop(L, 2);
        }
    }
    lua_remove(L, -2);
    ls->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    ls->tries = calloc((size_t)ls->nblocks, sizeof *ls->tries);
    ls->solved = calloc((size_t)ls->nblocks, sizeof *ls->solved);
    if (!ls->kinds || !ls->path || !ls->tries || !ls->solved) {
        gpu_errf(err, n, "out of memory");
        lt_lesson_free(ls);
        return NULL;
    }
    if (!ids) { /* the validator says the same, first: this is the C side's own guard */
        gpu_errf(err, n, "%s:1: a lesson, experiment or exercise id is not a plain word", path);
        lt_lesson_free(ls);
        return NULL;
    }
    return ls;
}

void lt_lesson_free(struct lt_lesson *ls)
{
    if (!ls) return;
    if (ls->state == LT_RUN_BUSY) lt_lesson_run_cancel(ls);
    lt_vm_free(ls->vm);
    free(ls->path);
    free(ls->tries);
    free(ls->solved);
    free(ls->kinds);
    free(ls->answer_fb), free(ls->answer_fb2);
    for (int i = 0; i < 5; i++) free(ls->info[i]);
    free(ls);
}

const char *lt_lesson_id(const struct lt_lesson *ls) { return ls->id; }
int lt_lesson_chapter(const struct lt_lesson *ls) { return ls->chapter; }
const char *lt_lesson_path(const struct lt_lesson *ls) { return ls->path; }
int lt_lesson_nblocks(const struct lt_lesson *ls) { return ls->nblocks; }

/* Push lesson[i] (1-based in Lua; 0-based here). */
static void push_block(const struct lt_lesson *ls, int i)
{
    lua_State *L = ls->vm->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ls->ref);
    if (i >= 0) {
        lua_rawgeti(L, -1, i + 1);
        lua_remove(L, -2);
    }
}

/* The {en=,zh=} table on top in language `lang`; in a draft that lacks it, the other language
 * (the title says "not yet translated"). Pops nothing; the string is anchored by the table. */
static const char *in_lang(lua_State *L, const char *lang)
{
    field(L, -1, lang);
    const char *s = str(L, -1);
    lua_pop(L, 1);
    if (!s) {
        field(L, -1, strcmp(lang, "zh") ? "zh" : "en");
        s = str(L, -1);
        lua_pop(L, 1);
    }
    return s;
}

/* The string of field k (a {en=,zh=} table) of the table on top, in the runtime's language.
 * Pops nothing; the string is anchored by the lesson table. */
static const char *lang_field(const struct lt_lesson *ls, const char *k)
{
    lua_State *L = ls->vm->L;
    const char *s = NULL;
    if (field(L, -1, k) == LUA_TTABLE) s = in_lang(L, ls->rt->lang);
    lua_pop(L, 1);
    return s;
}

/* A draft written in another language than lang: its titles say so. */
static const char *const untranslated[] = {" (not yet translated)", "（尚未翻译）"};
static bool draft_other(lua_State *L, const char *lang)
{
    bool other = field(L, -1, "draft") == LUA_TSTRING && strcmp(lua_tostring(L, -1), lang);
    lua_pop(L, 1);
    return other;
}

const char *lt_lesson_title(const struct lt_lesson *ls)
{
    push_block(ls, -1);
    const char *s = lang_field(ls, "title");
    if (s && draft_other(ls->vm->L, ls->rt->lang)) {
        struct lt_lesson *w = (struct lt_lesson *)(uintptr_t)ls; /* the title's buffer only */
        snprintf(w->title, sizeof w->title, "%s%s", s, untranslated[!strcmp(ls->rt->lang, "zh")]);
        s = w->title;
    }
    lua_pop(ls->vm->L, 1);
    return s ? s : ls->id;
}

/* What the catalog shows of a loaded lesson (lt_header.h): both languages' titles as the catalog
 * gives them (a draft's other language marked), and the exercises' ids. */
bool lt_lesson_header(struct lt_lesson *ls, struct lt_header *h)
{
    static const char *const langs[] = {"en", "zh"};
    lua_State *L = ls->vm->L;
    bool ok = true;
    memset(h, 0, sizeof *h);
    snprintf(h->id, sizeof h->id, "%s", ls->id);
    h->chapter = ls->chapter;
    h->line = 1;
    push_block(ls, -1);
    for (int l = 0; l < 2; l++) {
        char t[512];
        bool other = draft_other(L, langs[l]);
        field(L, -1, "title");
        const char *v = in_lang(L, langs[l]);
        snprintf(t, sizeof t, "%s%s", v ? v : "?", other ? untranslated[l] : "");
        ok = ok && (h->title[l] = strdup(t));
        lua_pop(L, 1);
        field(L, -1, "chapter_title");
        v = in_lang(L, langs[l]);
        ok = ok && (h->chapter_title[l] = strdup(v ? v : "?"));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    h->exercises = calloc((size_t)ls->nblocks + 1, sizeof *h->exercises);
    ok = ok && h->exercises;
    for (int b = 0; ok && b < ls->nblocks; b++) {
        if (lt_lesson_block_kind(ls, b) != LT_BLOCK_EXERCISE) continue;
        const char *id = lt_lesson_block_id(ls, b);
        ok = (h->exercises[h->nexercises] = strdup(id ? id : ""));
        h->nexercises += ok;
    }
    if (!ok) lt_header_free(h);
    return ok;
}

enum lt_block_kind lt_lesson_block_kind(const struct lt_lesson *ls, int i)
{
    if (i < 0 || i >= ls->nblocks) return LT_BLOCK_TEXT;
    return (enum lt_block_kind)ls->kinds[i];
}

const char *lt_lesson_block_text(const struct lt_lesson *ls, int i)
{
    lua_State *L = ls->vm->L;
    const char *s = NULL;
    push_block(ls, i);
    switch (lt_lesson_block_kind(ls, i)) {
    case LT_BLOCK_TEXT: s = in_lang(L, ls->rt->lang); break;
    case LT_BLOCK_EXPERIMENT: s = lang_field(ls, "intro"); break;
    case LT_BLOCK_EXERCISE: s = lang_field(ls, "prompt"); break;
    }
    lua_pop(L, 1);
    return s;
}

const char *lt_lesson_block_title(const struct lt_lesson *ls, int i)
{
    push_block(ls, i);
    const char *s = lang_field(ls, "title");
    lua_pop(ls->vm->L, 1);
    return s;
}

const char *lt_lesson_block_id(const struct lt_lesson *ls, int i)
{
    lua_State *L = ls->vm->L;
    if (lt_lesson_block_kind(ls, i) == LT_BLOCK_TEXT) return NULL;
    push_block(ls, i);
    field(L, -1, "id");
    const char *s = str(L, -1); /* anchored by the block table */
    lua_pop(L, 2);
    return s;
}

int lt_lesson_panels(const struct lt_lesson *ls, int block, struct lt_panel *out, int max)
{
    lua_State *L = ls->vm->L;
    int n = 0;
    if (lt_lesson_block_kind(ls, block) != LT_BLOCK_EXPERIMENT) return 0;
    push_block(ls, block);
    if (field(L, -1, "panels") != LUA_TTABLE) {
        lua_pop(L, 2);
        return 0;
    }
    field(L, -2, "key");
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_insert(L, -2); /* the key string stays below the panels while they are read */
    for (int i = 1; n < max && lua_rawgeti(L, -1, i) == LUA_TTABLE; i++) {
        struct lt_panel *p = &out[n++];
        memset(p, 0, sizeof *p);
        field(L, -1, "id"), p->id = str(L, -1), lua_pop(L, 1);
        field(L, -1, "kind"), p->kind = str(L, -1), lua_pop(L, 1);
        field(L, -1, "unit"), p->unit = str(L, -1), lua_pop(L, 1);
        field(L, -1, "x"), p->x_label = str(L, -1), lua_pop(L, 1);
        field(L, -1, "y"), p->y_label = str(L, -1), lua_pop(L, 1);
        field(L, -1, "logx"), p->logx = lua_toboolean(L, -1), lua_pop(L, 1);
        field(L, -1, "scale"), p->scale = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
        lua_pop(L, 1);
        p->key = key && p->id && !strcmp(key, p->id);
        p->title = lang_field(ls, "title");
        lua_pop(L, 1);
    }
    lua_pop(L, 4);
    return n;
}

/* For lt_answers.c (lt_int.h). */
lua_State *lt_lesson_state(const struct lt_lesson *ls) { return ls->vm->L; }
struct lt_vm *lt_lesson_vm(const struct lt_lesson *ls) { return ls->vm; }
void lt_lesson_push_block(const struct lt_lesson *ls, int i) { push_block(ls, i); }
void lt_lesson_push_fn(lua_State *L, const char *fn) { push_module_fn(L, fn); }

void lt_lesson_set_tries(struct lt_lesson *ls, int block, int tries)
{
    if (lt_lesson_block_kind(ls, block) == LT_BLOCK_EXERCISE) ls->tries[block] = tries < 0 ? 0 : tries;
}

/* ---- running an experiment ---------------------------------------------------------------- */

static void emit_status(struct lt_runtime *rt, const char *text)
{
    if (!rt->sink) return;
    struct lt_event ev = {.type = LT_EV_STATUS, .panel = "", .text = lt_text1(text)};
    rt->sink(rt->sink_ud, &ev);
}

static void run_end(struct lt_lesson *ls, enum lt_run_state st)
{
    /* What the run allocated and did not free goes now: nothing outlives a run. */
    lt_task_end(ls->vm, true);
    ls->state = st;
}

/* The experiment's coroutine function and its ex object: (run, ex) on the stack. */
static int push_experiment(lua_State *L)
{
    struct lt_lesson *ls = lua_touserdata(L, 1);
    int block = (int)lua_tointeger(L, 2);
    push_block(ls, block);
    lua_newtable(L);
    copy_value(L, -2, lua_gettop(L), 0, false); /* new_ex gives lesson code its panels: not ours */
    lua_replace(L, -3);
    lua_pop(L, 1);
    field(L, -1, "run");
    push_module_fn(L, "new_ex");
    lua_pushvalue(L, -3);
    lua_pushstring(L, ls->rt->lang);
    lua_pushboolean(L, ls->rt->dev->info.simulated);
    lua_call(L, 3, 1);
    return 2;
}

/* Start the call now on the stack (function + nargs) as this lesson's run. */
static enum lt_run_state run_begin(struct lt_lesson *ls, int block, int nargs, bool grading,
                                   char *err, size_t n)
{
    const char *bid = lt_lesson_block_id(ls, block);
    lt_vm_label(ls->vm, "lesson %s (%s), %s '%s'", ls->id, ls->path,
                grading ? "grading exercise" : "experiment", bid ? bid : "?");
    if (!lt_task_start(ls->vm, nargs, err, n)) {
        if (!grading) emit_status(ls->rt, err);
        return LT_RUN_FAILED;
    }
    ls->dev_ok_at_start = !ls->rt->dev->failed;
    ls->held = false;
    ls->run_block = block;
    ls->grading = grading;
    ls->state = LT_RUN_BUSY;
    free(ls->answer_fb), free(ls->answer_fb2);
    ls->answer_fb = ls->answer_fb2 = NULL;
    snprintf(ls->answer_lang, sizeof ls->answer_lang, "%s", ls->rt->lang);
    return lt_lesson_run_step(ls, err, n);
}

void lt_lesson_run_hold(struct lt_lesson *ls, bool on)
{
    struct lt_vm *vm = ls->vm;
    if (ls->state != LT_RUN_BUSY || on == ls->held) return;
    ls->held = on;
    double now = gpu_now();
    if (on) { /* as an ex:pause does: the limit waits, and the watchdog with it */
        ls->held_left = vm->wall_end > 0 ? (vm->wall_end > now ? vm->wall_end - now : 1e-3) : 0;
        vm->wall_end = 0;
    } else if (ls->held_left > 0) {
        vm->wall_end = now + ls->held_left;
    }
    lt_vm_publish(vm, false);
}

enum lt_run_state lt_lesson_run_start(struct lt_lesson *ls, int block, char *err, size_t n)
{
    lua_State *L = ls->vm->L;
    if (ls->state == LT_RUN_BUSY) {
        gpu_errf(err, n, "an experiment is already running");
        return LT_RUN_FAILED;
    }
    if (lt_lesson_block_kind(ls, block) != LT_BLOCK_EXPERIMENT) {
        gpu_errf(err, n, "block %d is not an experiment", block + 1);
        return LT_RUN_FAILED;
    }
    /* Armed and protected: new_ex reads the block (sandbox data, maybe changed by an earlier
     * run), and a lesson that left the heap full must fail here, not panic the process. */
    lua_pushcfunction(L, push_experiment);
    lua_pushlightuserdata(L, ls);
    lua_pushinteger(L, block);
    lt_vm_arm(ls->vm, L);
    int st = lua_pcall(L, 2, 2, 0);
    lt_vm_disarm(ls->vm);
    if (st != LUA_OK) {
        lt_vm_errmsg(ls->vm, st, err, n);
        lua_pop(L, 1);
        emit_status(ls->rt, err);
        return LT_RUN_FAILED;
    }
    return run_begin(ls, block, 1, false, err, n);
}

/* A grading ended: keep (ok, feedback[, feedback in the other language]) and count the try. */
static void keep_answer(struct lt_lesson *ls, lua_State *co, int nres)
{
    if (nres >= 3) { /* grade2 */
        const char *fb2 = lua_tostring(co, -1);
        ls->answer_fb2 = fb2 ? strdup(fb2) : NULL;
        lua_pop(co, 1);
        nres--;
    }
    const char *fb = nres >= 2 ? lua_tostring(co, -1) : NULL;
    ls->answer_fb = strdup(fb ? fb : "");
    ls->answer_ok = false;
    if (nres >= 2 && !lua_isnil(co, -2)) { /* nil: the input could not be read, not a try */
        ls->answer_ok = lua_toboolean(co, -2);
        ls->tries[ls->run_block]++;
        ls->solved[ls->run_block] |= ls->answer_ok;
    }
}

enum lt_run_state lt_lesson_run_step(struct lt_lesson *ls, char *err, size_t n)
{
    struct lt_runtime *rt = ls->rt;
    if (ls->state != LT_RUN_BUSY) return ls->state;
    int nres = 0, st = lt_task_step(ls->vm, &nres, err, n);
    if (st == LUA_YIELD) return LT_RUN_BUSY;
    if (st == LUA_OK && ls->dev_ok_at_start && rt->dev->failed) {
        /* the lesson coped with the errors, but its device results are gone: say so */
        gpu_errf(err, n, "%s: the GPU failed during this %s (sticky error): device results are "
                 "unavailable until vramlab restarts; host experiments still run", ls->path,
                 ls->grading ? "measurement" : "experiment");
        st = LUA_ERRRUN;
    }
    if (st == LUA_OK) {
        if (ls->grading) keep_answer(ls, ls->vm->task.co, nres);
        run_end(ls, LT_RUN_DONE);
        return LT_RUN_DONE;
    }
    if (ls->grading) ls->answer_fb = strdup(err);
    else emit_status(rt, err);
    run_end(ls, LT_RUN_FAILED);
    return LT_RUN_FAILED;
}

void lt_lesson_run_cancel(struct lt_lesson *ls)
{
    if (ls->state != LT_RUN_BUSY) return;
    lt_task_cancel(ls->vm);
    ls->state = LT_RUN_CANCELLED;
    if (!ls->grading) emit_status(ls->rt, "cancelled");
}

enum lt_run_state lt_lesson_run_state(const struct lt_lesson *ls) { return ls->state; }
bool lt_lesson_run_grading(const struct lt_lesson *ls) { return ls->grading; }

/* ---- exercises -------------------------------------------------------------------------- */

bool lt_lesson_exercise(const struct lt_lesson *ls, int block, struct lt_exercise_info *out)
{
    lua_State *L = ls->vm->L;
    memset(out, 0, sizeof *out);
    if (lt_lesson_block_kind(ls, block) != LT_BLOCK_EXERCISE) return false;
    push_block(ls, block);
    field(L, -1, "id"), out->id = str(L, -1), lua_pop(L, 1);
    field(L, -1, "kind"), out->kind = str(L, -1), lua_pop(L, 1);
    field(L, -1, "unit"), out->unit = str(L, -1) ? str(L, -1) : "";
    lua_pop(L, 1);
    field(L, -1, "entry"), out->entry = str(L, -1), lua_pop(L, 1);
    field(L, -1, "starter"), out->starter = str(L, -1) ? str(L, -1) : "";
    lua_pop(L, 1);
    if (field(L, -1, "hints") == LUA_TTABLE) {
        for (int i = 1; i <= 8 && lua_rawgeti(L, -1, i) == LUA_TTABLE; i++) {
            out->hints[out->nhints++] = in_lang(L, ls->rt->lang);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    out->prompt = lang_field(ls, "prompt");
    out->explain = lang_field(ls, "explain");
    if (out->kind && !strcmp(out->kind, "choice") && field(L, -1, "answer") == LUA_TNUMBER)
        out->answer_choice = (int)lua_tointeger(L, -1);
    if (out->kind && !strcmp(out->kind, "choice")) lua_pop(L, 1);
    if (field(L, -1, "choices") == LUA_TTABLE) {
        for (int i = 1; i <= 10 && lua_rawgeti(L, -1, i) == LUA_TTABLE; i++) {
            out->choices[out->nchoices++] = in_lang(L, ls->rt->lang);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    out->tries = ls->tries[block];
    out->solved = ls->solved[block];
    return true;
}

/* (ls, block, answer) -> grade, block, answer, lang, tries, simulated: the grading call */
static int push_grading(lua_State *L)
{
    struct lt_lesson *ls = lua_touserdata(L, 1);
    int block = (int)lua_tointeger(L, 2);
    const char *answer = lua_touserdata(L, 3);
    lua_settop(L, 0);
    /* live (the tutor): the feedback in both languages, so that L can show it again */
    push_module_fn(L, ls->rt->async ? "grade2" : "grade");
    push_block(ls, block);
    lua_pushstring(L, answer);
    lua_pushstring(L, ls->rt->lang);
    lua_pushinteger(L, ls->tries[block]);
    /* a predict's feedback names the profile a simulated figure comes from */
    if (ls->rt->dev->info.simulated) lua_pushstring(L, ls->rt->dev->info.name);
    else lua_pushboolean(L, false);
    return 6;
}

enum lt_run_state lt_lesson_answer_start(struct lt_lesson *ls, int block, const char *answer,
                                         char *err, size_t n)
{
    lua_State *L = ls->vm->L;
    if (ls->state == LT_RUN_BUSY) {
        gpu_errf(err, n, "an experiment is running: wait for it, or press Esc to cancel it");
        return LT_RUN_FAILED;
    }
    if (lt_lesson_block_kind(ls, block) != LT_BLOCK_EXERCISE) {
        gpu_errf(err, n, "not an exercise");
        return LT_RUN_FAILED;
    }
    free(ls->answer_fb); /* no result until this grading ends */
    ls->answer_fb = NULL;
    /* protected: the answer string is copied into a heap a lesson may have left nearly full */
    lua_pushcfunction(L, push_grading);
    lua_pushlightuserdata(L, ls);
    lua_pushinteger(L, block);
    lua_pushlightuserdata(L, (void *)(uintptr_t)answer); /* read only, by l_grade */
    int st = lua_pcall(L, 3, 6, 0);
    if (st != LUA_OK) {
        lt_vm_errmsg(ls->vm, st, err, n);
        lua_pop(L, 1);
        return LT_RUN_FAILED;
    }
    return run_begin(ls, block, 5, true, err, n);
}

const char *lt_lesson_answer_feedback(const struct lt_lesson *ls, const char *lang)
{
    if (!ls->answer_fb) return NULL;
    return !strcmp(lang, ls->answer_lang) ? ls->answer_fb : ls->answer_fb2;
}

bool lt_lesson_answer_result(const struct lt_lesson *ls, char *feedback, size_t n)
{
    snprintf(feedback, n, "%s", ls->answer_fb ? ls->answer_fb : "");
    return ls->answer_fb && ls->answer_ok;
}

bool lt_lesson_answer(struct lt_lesson *ls, int block, const char *answer, char *feedback,
                      size_t n)
{
    /* to the end here, measurement included: the worker is for callers that keep stepping */
    bool async = ls->rt->async;
    ls->rt->async = false;
    enum lt_run_state st = lt_lesson_answer_start(ls, block, answer, feedback, n);
    while (st == LT_RUN_BUSY) st = lt_lesson_run_step(ls, feedback, n);
    ls->rt->async = async;
    if (st == LT_RUN_FAILED && !ls->answer_fb) return false; /* feedback holds why */
    return lt_lesson_answer_result(ls, feedback, n);
}

/* A string field of the table on top (or of its field `sub`), copied; NULL when not a string. */
static char *dup_str(lua_State *L, const char *k, const char *sub)
{
    char *v = NULL;
    int t = lua_getfield(L, -1, k);
    if (sub && t == LUA_TTABLE) t = lua_getfield(L, -1, sub), lua_remove(L, -2);
    if (t == LUA_TSTRING) v = strdup(lua_tostring(L, -1));
    lua_pop(L, 1);
    return v;
}

bool lt_lesson_answer_info(struct lt_lesson *ls, struct lt_answer_info *out)
{
    lua_State *L = ls->vm->L;
    memset(out, 0, sizeof *out);
    out->figure = NAN;
    int top = lua_gettop(L);
    push_module_fn(L, "last");
    if (lua_pcall(L, 0, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
        lua_settop(L, top);
        return false;
    }
    for (int i = 0; i < 5; i++) free(ls->info[i]);
    ls->info[0] = dup_str(L, "broken", NULL), ls->info[1] = dup_str(L, "mistake", NULL);
    ls->info[2] = dup_str(L, "detail", "en"), ls->info[3] = dup_str(L, "detail", "zh");
    ls->info[4] = dup_str(L, "how", NULL);
    if (lua_getfield(L, -1, "figure") == LUA_TNUMBER) out->figure = lua_tonumber(L, -1);
    lua_settop(L, top);
    out->broken = ls->info[0], out->mistake = ls->info[1];
    out->detail[0] = ls->info[2], out->detail[1] = ls->info[3], out->how = ls->info[4];
    return true;
}

/* (ls, block) -> measure_check, block: the call lt_lesson_check_measure runs */
static int push_measure_check(lua_State *L)
{
    struct lt_lesson *ls = lua_touserdata(L, 1);
    int block = (int)lua_tointeger(L, 2);
    lua_settop(L, 0);
    push_module_fn(L, "measure_check");
    push_block(ls, block);
    return 2;
}

int lt_lesson_check_measure(struct lt_lesson *ls, int block, char *msg, size_t n)
{
    lua_State *L = ls->vm->L;
    struct lt_exercise_info x;
    msg[0] = 0;
    if (!lt_lesson_exercise(ls, block, &x) || strcmp(x.kind, "predict")) return 0;
    if (ls->state == LT_RUN_BUSY) {
        snprintf(msg, n, "an experiment is running");
        return -1;
    }
    lua_pushcfunction(L, push_measure_check);
    lua_pushlightuserdata(L, ls);
    lua_pushinteger(L, block);
    if (lua_pcall(L, 2, 2, 0) != LUA_OK) {
        lt_vm_errmsg(ls->vm, LUA_ERRRUN, msg, n);
        lua_pop(L, 1);
        return -1;
    }
    bool async = ls->rt->async;
    ls->rt->async = false; /* to the end here, the measurement included */
    enum lt_run_state st = run_begin(ls, block, 1, true, msg, n);
    while (st == LT_RUN_BUSY) st = lt_lesson_run_step(ls, msg, n);
    ls->rt->async = async;
    if (st != LT_RUN_DONE) return -1; /* msg: why (the grading path's error) */
    snprintf(msg, n, "%s", ls->answer_fb ? ls->answer_fb : "");
    return msg[0] ? 1 : 0;
}
