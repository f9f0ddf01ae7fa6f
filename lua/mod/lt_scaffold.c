/* lt_scaffold.c - a new lesson's source and its reference answers, from lesson.lua's template
 * (M.scaffold): what `vramlab new-lesson` writes. */
#include "lt.h"
#include "lt_int.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"

bool lt_scaffold(struct lt_runtime *rt, const char *id, const char *title, const char *lang,
                 char **lesson, char **answers, char *slug, size_t nslug, char *err, size_t n)
{
    struct lt_vm *vm = lt_vm_new(rt, err, n);
    *lesson = *answers = NULL;
    if (!vm) return false;
    lua_State *L = vm->L;
    lt_lesson_push_fn(L, "scaffold");
    lua_pushstring(L, id);
    lua_pushstring(L, title);
    if (lang) lua_pushstring(L, lang);
    else lua_pushnil(L);
    bool ok = lua_pcall(L, 3, 3, 0) == LUA_OK;
    if (ok) {
        *lesson = strdup(lua_tostring(L, -3));
        *answers = strdup(lua_tostring(L, -2));
        snprintf(slug, nslug, "%s", lua_tostring(L, -1));
        ok = *lesson && *answers;
        if (!ok) gpu_errf(err, n, "out of memory");
    } else {
        gpu_errf(err, n, "the lesson template failed: %s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    }
    if (!ok) free(*lesson), free(*answers), *lesson = *answers = NULL;
    lt_vm_free(vm);
    return ok;
}
