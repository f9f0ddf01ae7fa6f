/* lt_modules.c - the C modules a VM opens, as one table (Lua's linit.c: loadedlibs). The
 * runtime's core (lt_vm.c, lt_task.c, lt_runtime.c) names no module: the front end hands this
 * table to lt_runtime_new, each VM opens what it lists, and what a module holds for sandboxed
 * code outside Lua's heap it links into the VM's resource list (lt_res), which the core frees
 * by run. Adding a module: one row here (and its file in lua/mod/). */
#include "lt_int.h"

const struct lt_module lt_modules[] = {
    /* the libraries lessons see: required by name, as Lua's own (luaL_requiref) */
    {"gpu", lt_open_gpu, LT_MODULE_LIB},
    {"host", lt_open_host, LT_MODULE_LIB},
    {"alloc", lt_open_alloc, LT_MODULE_LIB},
    /* what the trusted support code (lua/lib/) takes at load: globals it keeps as upvalues;
     * the sandbox's own environment never holds them */
    {"__lt_emit", lt_emit, LT_MODULE_GLOBAL},
    {"__lt_event_info", lt_event_info, LT_MODULE_GLOBAL},
    {"__lt_markup_check", lt_markup_check, LT_MODULE_GLOBAL},
    {"__lt_field_line", lt_field_line, LT_MODULE_GLOBAL},
    {"__lt_snapshot", lt_snapshot, LT_MODULE_GLOBAL},
    {"__lt_same", lt_same, LT_MODULE_GLOBAL},
    {"__lt_suggest", lt_suggest, LT_MODULE_GLOBAL},
    {"__lt_units_read", lt_units_read, LT_MODULE_GLOBAL},
    {"__lt_units_parse", lt_units_parse, LT_MODULE_GLOBAL},
    {NULL, NULL, LT_MODULE_LIB},
};
