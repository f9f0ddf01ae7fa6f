/* lt_answers.c - a lesson's reference answers (N.M-slug.answers.lua beside it) graded through
 * the real grading path, in the lesson's own VM: the engine of `vramlab check --answers`. The
 * file is read by lesson.lua (M.answers: structure, exercise ids, every exercise covered); each
 * answer is then graded by lt_lesson_answer as a first try, so what a learner would be told is
 * what is checked. */
#include "lt.h"
#include "lt_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One answer to grade, copied out of the Lua table (grading runs Lua, which may collect it). */
struct acase {
    int block, line;
    int right;             /* 1 right, 0 wrong, -1 the predict's figure */
    char *input, *says, *figure, *what;
};

static char *dup_field(lua_State *L, const char *k)
{
    lua_getfield(L, -1, k);
    char *s = lua_type(L, -1) == LUA_TSTRING ? strdup(lua_tostring(L, -1)) : NULL;
    lua_pop(L, 1);
    return s;
}

/* (ls, src, file) -> M.answers(src, file, lesson, lesson path): cases, or nil and errors */
static int call_answers(lua_State *L)
{
    const struct lt_lesson *ls = lua_touserdata(L, 1);
    lt_lesson_push_fn(L, "answers");
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lt_lesson_push_block(ls, -1);
    lua_pushstring(L, lt_lesson_path(ls));
    lua_call(L, 4, 2);
    return 2;
}

/* The cases of the answers file, or -1 after reporting why there are none. */
static int load_cases(struct lt_lesson *ls, const char *file, const char *src, struct acase **out,
                      void (*report)(void *, const char *), void *ud)
{
    lua_State *L = lt_lesson_state(ls);
    struct lt_vm *vm = lt_lesson_vm(ls);
    char err[1024];
    int top = lua_gettop(L), n = -1;
    lua_pushcfunction(L, call_answers);
    lua_pushlightuserdata(L, ls);
    lua_pushstring(L, src);
    lua_pushstring(L, file);
    lt_vm_label(vm, "the reference answers of lesson %s (%s)", lt_lesson_id(ls), file);
    lt_vm_arm(vm, L); /* teacher's code, under the same limits as a lesson */
    int st = lua_pcall(L, 3, 2, 0);
    lt_vm_disarm(vm);
    if (st != LUA_OK) {
        lt_vm_errmsg(vm, st, err, sizeof err);
        report(ud, err);
    } else if (lua_type(L, -2) != LUA_TTABLE) {
        for (int i = 1; lua_type(L, -1) == LUA_TTABLE && lua_rawgeti(L, -1, i) == LUA_TSTRING; i++) {
            report(ud, lua_tostring(L, -1));
            lua_pop(L, 1);
        }
    } else {
        lua_pop(L, 1);
        int k = (int)lua_rawlen(L, -1);
        *out = calloc((size_t)k + 1, sizeof **out);
        for (int i = 0; *out && i < k; i++) {
            struct acase *c = &(*out)[i];
            lua_rawgeti(L, -1, i + 1);
            lua_getfield(L, -1, "block"), c->block = (int)lua_tointeger(L, -1), lua_pop(L, 1);
            lua_getfield(L, -1, "line"), c->line = (int)lua_tointeger(L, -1), lua_pop(L, 1);
            lua_getfield(L, -1, "right");
            c->right = lua_isnil(L, -1) ? -1 : lua_toboolean(L, -1);
            lua_pop(L, 1);
            c->input = dup_field(L, "input"), c->says = dup_field(L, "says");
            c->figure = dup_field(L, "figure"), c->what = dup_field(L, "what");
            lua_pop(L, 1);
        }
        if (*out) n = k;
        else report(ud, "out of memory");
    }
    lua_settop(L, top);
    return n;
}

/* The figure a predict exercise's grading measured, as its feedback shows it; NULL before. */
static bool figure(struct lt_lesson *ls, int block, char *fig, size_t nf, char *how, size_t nh)
{
    lua_State *L = lt_lesson_state(ls);
    lt_lesson_push_fn(L, "figure");
    lt_lesson_push_block(ls, block);
    lua_call(L, 1, 2);
    bool ok = lua_type(L, -2) == LUA_TSTRING;
    if (ok) snprintf(fig, nf, "%s", lua_tostring(L, -2)), snprintf(how, nh, "%s", lua_tostring(L, -1));
    lua_pop(L, 2);
    return ok;
}

/* Grade input as the first try in lang: 1 right, 0 wrong, -1 not graded (refused, or the
 * grading failed); the feedback in fb. */
static int grade(struct lt_lesson *ls, int block, const char *input, const char *lang, char *fb,
                 size_t n)
{
    struct lt_exercise_info x;
    lt_runtime_set_lang(lt_lesson_vm(ls)->rt, lang);
    lt_lesson_set_tries(ls, block, 0);
    bool ok = lt_lesson_answer(ls, block, input, fb, n);
    lt_lesson_exercise(ls, block, &x);
    return x.tries == 0 ? -1 : ok;
}

/* "first line of the feedback" cut short for a one-line report */
static const char *brief(char *fb)
{
    fb[strcspn(fb, "\n")] = 0;
    if (strlen(fb) > 240) strcpy(fb + 236, "...");
    return fb;
}

int lt_lesson_check_answers(struct lt_lesson *ls, int *graded,
                            void (*report)(void *ud, const char *line), void *ud)
{
    char file[2048], msg[4096], fb[4096], fig[64], how[32], lang0[4];
    const char *path = lt_lesson_path(ls);
    size_t l = strlen(path);
    struct lt_exercise_info x;
    int nex = 0, bad = 0;
    *graded = 0;
    for (int b = 0; b < lt_lesson_nblocks(ls); b++) nex += lt_lesson_exercise(ls, b, &x);
    snprintf(file, sizeof file, "%.*s.answers.lua", (int)(l > 4 && !strcmp(path + l - 4, ".lua") ? l - 4 : l), path);
    if (access(file, F_OK) != 0) {
        if (!nex) return 0;
        snprintf(msg, sizeof msg, "%s:1: no reference answers for its %d exercise(s): write %s "
                 "(docs/lesson-format.md, \"Reference answers\")", path, nex, file);
        report(ud, msg);
        return 1;
    }
    char *src = lt_read_file(file, NULL, msg, sizeof msg);
    if (!src) {
        report(ud, msg);
        return 1;
    }
    struct acase *cs = NULL;
    int n = load_cases(ls, file, src, &cs, report, ud);
    free(src);
    if (n < 0) return 1;
    struct lt_runtime *rt = lt_lesson_vm(ls)->rt;
    snprintf(lang0, sizeof lang0, "%s", rt->lang);
    for (int i = 0; i < n; i++) {
        struct acase *c = &cs[i];
        const char *input = c->input;
        int want = c->right;
        if (want < 0) { /* a predict: its figure, once a wrong guess measured it */
            if (!figure(ls, c->block, fig, sizeof fig, how, sizeof how)) {
                snprintf(msg, sizeof msg, "%s:%d: %s: no figure was measured (a wrong guess "
                         "measures it first)", file, c->line, c->what);
                report(ud, msg), bad++;
                continue;
            }
            if (strcmp(how, c->figure)) {
                snprintf(msg, sizeof msg, "%s:%d: %s: the figure %s is %s, the answers say %s",
                         file, c->line, c->what, fig, how, c->figure);
                report(ud, msg), bad++;
            }
            input = fig, want = 1;
        }
        (*graded)++;
        int got = grade(ls, c->block, input, "en", fb, sizeof fb);
        const char *fail = NULL;
        if (got != want) fail = got < 0 ? "not graded (refused or failed)" : got ? "graded right" : "graded wrong";
        else if (c->says && !strstr(fb, c->says)) fail = "its feedback does not say what `says` expects";
        else if ((got = grade(ls, c->block, input, "zh", fb, sizeof fb)) != want) {
            fail = got < 0 ? "not graded in Chinese (refused or failed)"
                           : got ? "graded right in Chinese" : "graded wrong in Chinese";
        }
        if (fail) {
            snprintf(msg, sizeof msg, "%s:%d: %s (%.*s%s): %s%s%s: %s", file, c->line, c->what,
                     (int)strcspn(input, "\n"), input, strchr(input, '\n') ? " ..." : "", fail, c->says && !strstr(fail, "Chinese") ? ", expected: " : "",
                     c->says && !strstr(fail, "Chinese") ? c->says : "", brief(fb));
            report(ud, msg), bad++;
        }
    }
    lt_runtime_set_lang(rt, lang0);
    for (int i = 0; i < n; i++)
        free(cs[i].input), free(cs[i].says), free(cs[i].figure), free(cs[i].what);
    free(cs);
    return bad;
}
