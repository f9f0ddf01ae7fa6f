/* test_escape.c - the sandbox escape suite: hostile Lua, tried against a real sandboxed VM on the
 * simulator. Every attempt must be refused with a clear message (or contained: it runs and does
 * no harm), the process stays alive, nothing stays allocated on the device, and the limits are
 * re-armed so the same VM runs ordinary code right afterwards. The categories follow the threat
 * list of docs/reliability.md: bytecode, the string metatable, finalizers, runaway code (also
 * inside pcall, coroutines, metamethods, C callbacks and patterns), memory bombs, deep
 * recursion, coroutine tricks, the forbidden libraries, huge device allocations, and lessons
 * that attack the loader/runner from inside a lesson file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu.h"
#include "lt.h"

static int attempts; /* escape attempts tried, reported at the end */

struct fixture {
    struct gpu_dev *dev;
    struct lt_runtime *rt;
    struct lt_vm *vm;
    char out[8192];
    char last_text[256], last_unit[256], last_series[256]; /* of the last plot event */
    int last_style;
    int nplots;
};

static void sink(void *ud, const struct lt_event *ev)
{
    struct fixture *f = ud;
    size_t used = strlen(f->out);
    if (ev->type == LT_EV_PRINT && used < sizeof f->out - 1)
        snprintf(f->out + used, sizeof f->out - used, "%s\n", lt_tx(ev->text, false));
    if (ev->type != LT_EV_PRINT && ev->type != LT_EV_STATUS) {
        f->nplots++;
        snprintf(f->last_text, sizeof f->last_text, "%s", lt_tx(ev->text, false));
        snprintf(f->last_unit, sizeof f->last_unit, "%s", lt_tx(ev->unit, false));
        snprintf(f->last_series, sizeof f->last_series, "%s", lt_tx(ev->series, false));
        f->last_style = (int)ev->style;
    }
}

/* Small limits, so that each of the ~360 attacks that runs into one gets there fast (the product's
 * are larger; the same code stops both). The heap cap and the instruction budget keep the ratio
 * a full collection's charge needs: collecting a full 4 MiB heap twice (alive()) costs about
 * 1.05 million of the 1.25 million instructions. */
static const struct lt_limits limits = {.mem_bytes = 4u << 20, .instructions = 1250000, .seconds = 3.0,
    .wall_seconds = 30.0};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    struct gpu_config c = {.datadir = ".", .deterministic = true, .cap_fraction = 0.9};
    char why[512], err[512];
    assert_int_equal(gpu_open("sim", &c, &f->dev, why, sizeof why), GPU_OK);
    f->rt = lt_runtime_new(f->dev, ".", lt_modules);
    lt_runtime_set_limits(f->rt, &limits);
    lt_runtime_set_sink(f->rt, sink, f);
    f->vm = lt_vm_new(f->rt, err, sizeof err);
    if (!f->vm) fail_msg("%s", err);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    if (getenv("VRAMLAB_ESCAPE_VERBOSE")) fprintf(stderr, "attempts so far: %d\n", attempts);
    lt_vm_free(f->vm);
    lt_runtime_free(f->rt);
    assert_int_equal(f->dev->live_allocs, 0);
    assert_int_equal(f->dev->live_host, 0);
    gpu_close(f->dev);
    free(f);
    return 0;
}

/* The VM is usable again with fresh limits: a loop of about 1.05 million instructions (most of
 * the 1.25 million budget, so a count that was not reset would trip) runs, and after a collection no
 * device memory is held. */
static void alive(struct fixture *f, const char *after)
{
    char err[1024];
    f->out[0] = 0;
    /* the collection first, on its own: it is charged by the heap's size, and an attack may
     * leave the heap full of garbage */
    if (!lt_vm_dostring(f->vm, "collectgarbage() collectgarbage()", "alive", err, sizeof err) ||
        !lt_vm_dostring(f->vm, "local x = 0 for i = 1, 500000 do x = x + i end print(x)",
                        "alive", err, sizeof err))
        fail_msg("VM not usable after '%s': %s", after, err);
    assert_string_equal(f->out, "125000250000\n");
    if (f->dev->live_allocs) fail_msg("'%s' left %d device buffer(s)", after, f->dev->live_allocs);
}

/* VRAMLAB_ESCAPE_VERBOSE=1: name each attempt before it runs (to find one that hangs) */
static void say(const char *src)
{
    if (getenv("VRAMLAB_ESCAPE_VERBOSE")) fprintf(stderr, "try: %s\n", src);
}

static bool matches(const char *err, const char *want)
{
    char alt[512];
    snprintf(alt, sizeof alt, "%s", want);
    for (char *save, *a = strtok_r(alt, "|", &save); a; a = strtok_r(NULL, "|", &save))
        if (strstr(err, a)) return true;
    return false;
}

/* must fail with an error matching want ("a|b" = either) */
static void refused(struct fixture *f, const char *src, const char *want)
{
    char err[1024];
    attempts++;
    say(src);
    f->out[0] = 0;
    if (lt_vm_dostring(f->vm, src, "escape", err, sizeof err)) fail_msg("not refused: %s", src);
    if (!matches(err, want)) fail_msg("%s\n  refused with '%s', expected '%s'", src, err, want);
    /* a refusal always says where: "escape:LINE: ..." */
    if (strncmp(err, "escape:", 7)) fail_msg("%s\n  message has no position: '%s'", src, err);
    if (strstr(err, "escaped")) fail_msg("%s\n  ran past the refusal: '%s'", src, err);
    alive(f, src);
}

/* must run to the end (asserting inside what it checks) */
static void contained(struct fixture *f, const char *src)
{
    char err[1024];
    attempts++;
    say(src);
    f->out[0] = 0;
    if (!lt_vm_dostring(f->vm, src, "escape", err, sizeof err)) fail_msg("%s\n  failed: %s", src, err);
    if (strstr(f->out, "escaped")) fail_msg("%s\n  escaped: %s", src, f->out);
    alive(f, src);
}

/* either outcome, as long as the process and the VM survive */
static void survives(struct fixture *f, const char *src)
{
    char err[1024];
    attempts++;
    say(src);
    f->out[0] = 0;
    if (!lt_vm_dostring(f->vm, src, "escape", err, sizeof err) && !err[0])
        fail_msg("%s\n  failed without a message", src);
    alive(f, src);
}

/* ---- bytecode ------------------------------------------------------------------------------- */

static void test_bytecode(void **state)
{
    struct fixture *f = *state;
    refused(f, "load(string.dump(print))", "attempt to call a nil value");
    refused(f, "string.dump(function() end)", "attempt to call a nil value (field 'dump')");
    refused(f, "local d = ('').dump d(print)", "attempt to call a nil value");
    refused(f, "load('\\27Lua\\x54\\0\\x19\\x93\\r\\n\\x1a\\n')", "binary chunks");
    refused(f, "load('\\27Lua', nil, 't')", "binary chunks");
    refused(f, "load('\\27', '=x', 't', {})", "binary chunks");
    refused(f, "load('return 1', 'x', 'b')", "text-only");
    refused(f, "load('return 1', 'x', 'bt')", "text-only");
    refused(f, "load('return 1', 'x', 'tb')", "text-only");
    refused(f, "load('return 1', nil, '')", "text-only");
    refused(f, "local p = {'return 1'} load(function() return table.remove(p) end)",
            "source text only");
    refused(f, "load(function() return '\\27Lua' end, 'x', 't')", "source text only");
    refused(f, "load(setmetatable({}, {__tostring = function() return 'return 1' end}))",
            "source text only");
    refused(f, "loadstring('return 1')", "attempt to call a nil value (global 'loadstring')");
    contained(f, "local g = assert(load('return 6 * 7', 'x', 't')) assert(g() == 42)");
    contained(f, "assert(load('return io', 'x', 't', _G)() == nil)");
    contained(f, "assert(load('return debug')() == nil and load('return package')() == nil)");
    contained(f, "local g, e = load(' \\27Lua') assert(g == nil and e)"); /* not a signature: text */
    contained(f, "local e = {} assert(load('x = 1', 'c', 't', e))() assert(e.x == 1 and x == nil)");
}

/* ---- the string metatable ------------------------------------------------------------------- */

static void test_string_metatable(void **state)
{
    struct fixture *f = *state;
    refused(f, "getmetatable('').__index.dump = load", "attempt to index a boolean value");
    refused(f, "local mt = getmetatable('') mt.__index = {}", "attempt to index a boolean value");
    refused(f, "rawget(getmetatable(''), '__index')", "table expected");
    refused(f, "rawset(getmetatable('a'), '__index', {})", "table expected");
    refused(f, "setmetatable('', {})", "table expected");
    refused(f, "debug.setmetatable('', {})", "attempt to index a nil value (global 'debug')");
    refused(f, "('x').rep = nil", "attempt to index a string value");
    contained(f, "assert(getmetatable('') == false and getmetatable('x') == false)");
    contained(f, "assert(('').dump == nil and string.dump == nil and ('x').dump == nil)");
    /* the sandbox's string table is a copy: changing it does not reach the shared one */
    contained(f, "string.rep = nil assert(('ab'):rep(2) == 'abab')");
    contained(f, "string.format = error assert(units.bytes(1024) == '1 KiB')");
    contained(f, "for k in pairs(string) do string[k] = nil end assert(('%d'):format(7) == '7')");
}

/* ---- finalizers ------------------------------------------------------------------------------ */

static void test_finalizers(void **state)
{
    struct fixture *f = *state;
    refused(f, "setmetatable({}, {__gc = function() while true do end end})", "__gc");
    refused(f, "setmetatable({}, {__gc = print})", "__gc");
    refused(f, "setmetatable({}, {__gc = false})", "__gc");
    refused(f, "setmetatable({}, setmetatable({}, {__index = function(_, k) "
               "if k == '__gc' then return print end end}))", "__gc");
    /* a __gc added after setmetatable never makes the object finalizable (Lua's rule) */
    contained(f, "ran = false local mt = {} local t = setmetatable({}, mt) "
                 "rawset(mt, '__gc', function() ran = true while true do end end) "
                 "t = nil collectgarbage() collectgarbage() assert(not ran, 'finalizer ran')");
    contained(f, "ran = false local mt = {} local t = setmetatable({}, mt) "
                 "mt.__gc = function() ran = true end t = nil collectgarbage() assert(not ran)");
    contained(f, "ran = false local mt = setmetatable({}, {__newindex = rawset}) "
                 "local t = setmetatable({}, mt) mt.__gc = function() ran = true end "
                 "t = nil collectgarbage() assert(not ran)");
    contained(f, "local t = {} for i = 1, 1000 do local mt = {} t[i] = setmetatable({}, mt) "
                 "mt.__gc = function() while true do end end end t = nil collectgarbage()");
    /* to-be-closed variables run inside the limits */
    refused(f, "do local x <close> = setmetatable({}, {__close = function() while true do end "
               "end}) end", "sandbox limit");
    refused(f, "local co = coroutine.create(function() local x <close> = setmetatable({}, "
               "{__close = function() while true do end end}) coroutine.yield() end) "
               "coroutine.resume(co) coroutine.close(co)", "sandbox limit");
}

/* ---- runaway code ------------------------------------------------------------------------ */

static void test_runaway(void **state)
{
    struct fixture *f = *state;
    static const char *const loops[] = {
        "while true do end",
        "repeat until false",
        "for i = 1, math.huge do end",
        "::a:: goto a",
        "pcall(function() while true do end end) print('escaped')",
        "xpcall(function() while true do end end, function(m) return m end) print('escaped')",
        "xpcall(error, function() while true do end end) print('escaped')",
        "for i = 1, 100 do pcall(function() while true do end end) end print('escaped')",
        "for i = 1, 1e9 do pcall(error) end",
        "coroutine.wrap(function() while true do end end)()",
        "local co = coroutine.create(function() while true do end end) "
        "print(coroutine.resume(co)) while true do end",
        "local co = coroutine.wrap(function() while true do coroutine.yield() end end) "
        "while true do co() end",
        "coroutine.wrap(function() for i = 1, 100 do pcall(function() while true do end end) "
        "end end)() print('escaped')",
        "local ok = pcall(coroutine.wrap(function() while true do end end)) print('escaped')",
        "('x'):rep(10):gsub('.', function() while true do end end)",
        "table.sort({3, 2, 1, 5, 4}, function(a, b) while true do end end)",
        "local t = setmetatable({}, {__index = function() while true do end end}) return t.x",
        "print(setmetatable({}, {__tostring = function() while true do end end}))",
        "local mt = {__eq = function() while true do end end} "
        "return setmetatable({}, mt) == setmetatable({}, mt)",
        "local e = setmetatable({}, {__concat = function() while true do end end}) error(e .. 'x')",
        "local t = setmetatable({}, {__len = function() while true do end end}) return #t",
        "string.rep('x', 10):gsub('x', setmetatable({}, {__index = function() "
        "while true do end end}))",
        "for w in ('a b c'):gmatch('%a') do while true do end end",
        /* patterns whose matching is exponential run inside the limits too */
        "string.find(('a'):rep(200), ('a-'):rep(12) .. 'b')",
        "string.match(('a'):rep(100), ('.-'):rep(20) .. '$b')",
        "('a'):rep(200):find(('a*'):rep(12) .. 'b')",
        "local s = ('a'):rep(60000) .. 'b' for w in ('a'):rep(2^20):gmatch(s) do end",
        "('a'):rep(2^20):gsub(('a'):rep(30000) .. 'b', '')",
        NULL};
    for (const char *const *l = loops; *l; l++) refused(f, *l, "sandbox limit");
    /* plain find is linear (memmem), not quadratic */
    contained(f, "assert(not ('a'):rep(2^20):find(('a'):rep(2^16) .. 'b', 1, true))");
    /* error objects are never converted by calling their metamethods */
    refused(f, "error(setmetatable({}, {__tostring = function() while true do end end}))",
            "error object is a table value");
    refused(f, "error(setmetatable({}, {__index = function() while true do end end}))",
            "error object is a table value");
    refused(f, "error({code = 1})", "error object is a table value");
    refused(f, "error()", "error object is a nil value");
    refused(f, "error('no position', 0)", "escape:1: no position");
    refused(f, "local co = coroutine.wrap(function() error(setmetatable({}, {__tostring = "
               "function() while true do end end})) end) co()", "error object is a table value");
    /* a pcall that swallows the stop still ends the run with the stop */
    refused(f, "local ok, e = pcall(function() while true do end end) "
               "for i = 1, 10 do pcall(function() end) end print('escaped', ok, e)",
            "sandbox limit");
}

/* ---- memory ----------------------------------------------------------------------------------- */

static void test_memory(void **state)
{
    struct fixture *f = *state;
    static const char *const bombs[] = {
        "local s = string.rep('x', 2^40)",
        "local s = ('x'):rep(1e9, ',')",
        "local t = {} for i = 1, 1e8 do t[i] = i end",
        "local t = {} while true do t[#t + 1] = {} end",
        "local s = 'x' while true do s = s .. s end",
        "local s = ('x'):rep(2^20) local t = {} for i = 1, 64 do t[i] = s end "
        "local big = table.concat(t)",
        "local t = {} for i = 1, 1e7 do t[i] = coroutine.create(print) end",
        "local t = {} for i = 1, 1e7 do t[('k%d'):format(i)] = i end",
        "local s = string.format('%s%s', ('x'):rep(2^23), ('x'):rep(2^23))",
        "local s = string.rep('x', 2^31):upper()",
        "print(('x'):rep(2^25))",
        "load(('x = 1 '):rep(2^22))",
        "local s = ('x'):rep(2^23) local t = {} for i = 1, 4 do t[i] = s .. i end",
        "local t = {} for i = 1, 1e6 do t[i] = {i, i, i, i} end",
        "local t = {} for i = 1, 1e6 do t[i] = 'x' .. i end local s = table.concat(t, ('y'):rep(100))",
        NULL};
    /* whichever limit a bomb hits first (heap, or time on a loaded machine) refuses it */
    for (const char *const *b = bombs; *b; b++)
        refused(f, *b, "memory limit|resulting string too large|sandbox limit");
    refused(f, "local s = ('ab'):rep(2^21) local u = s:gsub('a', 'aaaa')",
            "memory limit|sandbox limit");
    refused(f, "collectgarbage('stop') local t = {} for i = 1, 1e7 do t[i] = {} end",
            "collectgarbage only");
    refused(f, "table.unpack({}, 1, 1e7)", "too many results");
    refused(f, "string.rep('x', 2^62)", "memory limit|resulting string too large");
    /* a pcall sees the refusal as an error; the heap is usable right after */
    contained(f, "assert(not pcall(string.rep, 'x', 1e9)) local t = {} for i = 1, 1e4 do t[i] = i end");
    contained(f, "local ok = pcall(function() local t = {} while true do t[#t + 1] = {} end end) "
                 "assert(not ok) assert(#('x'):rep(1000) == 1000)");
    contained(f, "assert(collectgarbage('count') < 4 * 1024)");
}

/* ---- recursion ------------------------------------------------------------------------------- */

static void test_recursion(void **state)
{
    struct fixture *f = *state;
    refused(f, "local function r() return 1 + r() end r()", "stack overflow|memory limit");
    refused(f, "local t = setmetatable({}, {}) getmetatable(t).__index = function(t, k) "
               "return t[k] end return t.x", "stack overflow");
    refused(f, "local t = {} setmetatable(t, {__index = t}) return t.x",
            "'__index' chain too long");
    refused(f, "local t = {} for i = 1, 1e4 do t = setmetatable({}, {__index = t}) end return t.x",
            "'__index' chain too long");
    refused(f, "local t = {} setmetatable(t, {__newindex = t}) t.x = 1",
            "'__newindex' chain too long");
    refused(f, "local mt = {} mt.__add = function(a, b) return a + b end "
               "return setmetatable({}, mt) + 1", "stack overflow");
    refused(f, "local mt = {} mt.__tostring = function(t) return tostring(t) end "
               "print(setmetatable({}, mt))", "stack overflow");
    refused(f, "local mt = {} mt.__len = function(t) return #t end return #setmetatable({}, mt)",
            "stack overflow");
    /* coroutine.wrap adds a position at every level of the error's way out */
    refused(f, "local function g() return coroutine.wrap(g)() end g()",
            "stack overflow|escape:1: escape:1:");
    refused(f, "assert(load(('('):rep(1e5) .. '1' .. (')'):rep(1e5)))",
            "syntax levels|overflow|too many");
    refused(f, "string.find('x', ('('):rep(40) .. 'x' .. (')'):rep(40))", "too many captures");
    refused(f, "string.find(('a'):rep(1000), ('a?'):rep(1000) .. ('a'):rep(1000))",
            "pattern too complex|sandbox limit");
    refused(f, "('x'):gsub('x', function() return ('x'):gsub('x', function() "
               "local function r() return 1 + r() end return r() end) end)",
            "stack overflow|memory limit");
    survives(f, "local function r() pcall(r) end r() print('done')");
    survives(f, "local function g(n) return n == 0 and 0 or 1 + select(2, pcall(g, n - 1)) end "
                "g(1e6)");
    survives(f, "load('return ' .. ('{'):rep(1e5))");
    survives(f, "table.concat(setmetatable({}, {__index = function(t, i) return 'x' end, "
                "__len = function() return 1e9 end}))");
}

/* ---- coroutines --------------------------------------------------------------------------------- */

static void test_coroutines(void **state)
{
    struct fixture *f = *state;
    refused(f, "coroutine.yield()", "attempt to yield from outside a coroutine");
    refused(f, "local co = coroutine.create(print) coroutine.resume(co) "
               "assert(coroutine.resume(co))", "cannot resume dead coroutine");
    refused(f, "local w = coroutine.wrap(print) w() w()", "cannot resume dead coroutine");
    refused(f, "assert(coroutine.resume(coroutine.running()))", "non-suspended coroutine");
    refused(f, "coroutine.wrap(function() table.sort({3, 2, 1}, function(a, b) "
               "coroutine.yield() return a < b end) end)()", "yield across a C-call boundary");
    refused(f, "coroutine.wrap(function() ('x'):gsub('.', coroutine.yield) end)()",
            "yield across a C-call boundary");
    refused(f, "coroutine.close(coroutine.running())", "cannot close");
    refused(f, "local co = coroutine.create(function() coroutine.yield() end) "
               "coroutine.resume(co) coroutine.close(co) assert(coroutine.resume(co))",
            "dead coroutine");
    refused(f, "for i = 1, 1e6 do coroutine.wrap(function() coroutine.yield() end)() end",
            "sandbox limit|memory limit");
    refused(f, "local co co = coroutine.wrap(function() co() end) co()",
            "non-suspended coroutine|cannot resume");
    contained(f, "coroutine.wrap(function() assert(pcall(coroutine.yield, 1)) end)()");
    contained(f, "local co = coroutine.wrap(function() return gpu.copy{dir = 'd2d', "
                 "bytes = 4096, trials = 1} end) assert(co().bytes == 4096)");
    contained(f, "local co = coroutine.create(function() pcall(coroutine.yield) "
                 "error('after') end) assert(coroutine.resume(co)) "
                 "local ok, e = coroutine.resume(co) assert(not ok and e:match('after'))");
}

/* ---- forbidden libraries -------------------------------------------------------------------- */

static void test_libraries(void **state)
{
    struct fixture *f = *state;
    /* the modules the sandbox sees are its own copies: changing them reaches neither the C side
     * nor the trusted Lua modules (they would run the learner's functions) */
    contained(f, "units.parse = function() print('escaped') end local a <close> = alloc.caching{} "
                 "a:free(a:malloc('1MiB')) host.copy{bytes = '64KiB', trials = 1}");
    contained(f, "units.bytes = function() print('escaped') return '' end "
                 "assert(vram.both(2^30) == '1.07 GB (1 GiB)')");
    contained(f, "units.si = nil vram.both = nil assert(vram.both == nil)");
    contained(f, "gpu.alloc = function() print('escaped') end host.copy = gpu.alloc "
                 "alloc.caching = gpu.alloc");
    contained(f, "for _, m in ipairs{gpu, host, alloc, units, vram} do "
                 "for k in pairs(m) do m[k] = nil end end");
    refused(f, "io.open('/etc/passwd')", "attempt to index a nil value (global 'io')");
    refused(f, "io.popen('id')", "global 'io'");
    refused(f, "os.execute('true')", "field 'execute'");
    refused(f, "os.exit(1)", "field 'exit'");
    refused(f, "os.getenv('HOME')", "field 'getenv'");
    refused(f, "os.remove('/tmp/vramlab-escape')", "field 'remove'");
    refused(f, "os.rename('/tmp/a', '/tmp/b')", "field 'rename'");
    refused(f, "os.tmpname()", "field 'tmpname'");
    refused(f, "os.setlocale('C')", "field 'setlocale'");
    refused(f, "debug.getregistry()", "global 'debug'");
    refused(f, "debug.sethook()", "global 'debug'");
    refused(f, "package.loadlib('libc.so.6', 'system')", "global 'package'");
    refused(f, "dofile('/etc/passwd')", "global 'dofile'");
    refused(f, "loadfile('/etc/passwd')", "global 'loadfile'");
    refused(f, "getfenv(1)", "global 'getfenv'");
    refused(f, "newproxy(true)", "global 'newproxy'");
    static const char *const mods[] = {"io", "os", "debug", "package", "lesson", "ffi", "lt_vm",
                                       "string", "coroutine", "_G", NULL};
    char src[128];
    for (const char *const *m = mods; *m; m++) {
        snprintf(src, sizeof src, "require '%s'", *m);
        refused(f, src, "no module");
    }
    static const char *const gc[] = {"stop", "restart", "step", "incremental", "generational",
                                     "setpause", "setstepmul", "isrunning", NULL};
    for (const char *const *g = gc; *g; g++) {
        snprintf(src, sizeof src, "collectgarbage('%s')", *g);
        refused(f, src, "collectgarbage only");
    }
    contained(f, "assert(require('units') == units and require('vram') == vram)");
    contained(f, "assert(io == nil and debug == nil and package == nil and dofile == nil "
                 "and loadfile == nil and rawget(_G, 'io') == nil and _G == _ENV)");
    contained(f, "for _, k in ipairs{'execute', 'exit', 'getenv', 'remove', 'rename', 'tmpname', "
                 "'setlocale'} do assert(os[k] == nil, k) end assert(type(os.clock()) == 'number')");
    contained(f, "local _ENV = {assert = assert} assert(io == nil)");
    contained(f, "assert(select('#', collectgarbage('count')) == 1)");
    contained(f, "gpu.info = nil units.parse = nil"); /* this VM's own tables only */
}

/* ---- huge allocations --------------------------------------------------------------------- */

static void test_allocations(void **state)
{
    struct fixture *f = *state;
    refused(f, "assert(gpu.alloc(2^62))", "at most 90%");
    refused(f, "assert(gpu.alloc(math.maxinteger))", "at most 90%");
    refused(f, "gpu.alloc(-1)", "positive");
    refused(f, "gpu.alloc(0)", "positive");
    refused(f, "gpu.alloc(0/0)", "whole number of bytes below 2^63");
    refused(f, "gpu.alloc(math.huge)", "whole number of bytes below 2^63");
    refused(f, "gpu.alloc(-math.huge)", "whole number of bytes below 2^63");
    refused(f, "gpu.alloc(2^63)", "whole number of bytes below 2^63");
    refused(f, "gpu.alloc(1.5)", "whole number of bytes below 2^63");
    refused(f, "gpu.alloc('1e30GiB')", "whole number of bytes below 2^63");
    refused(f, "gpu.alloc({})", "size (bytes, or a string such as '256MiB') expected, got table");
    static const char *const bad_bytes[] = {"-1", "0/0", "math.huge", "1.5", "'1e30GiB'",
                                            "'-5GiB'", "2^64", "-0.5", "{}", NULL};
    char src[256];
    for (const char *const *b = bad_bytes; *b; b++) {
        snprintf(src, sizeof src, "gpu.copy{dir = 'd2d', bytes = %s}", *b);
        refused(f, src, "whole number of bytes|must be given|bad size|not a size|cannot read");
    }
    refused(f, "assert(gpu.copy{dir = 'd2d', bytes = 2^62})", "experiments may take at most");
    refused(f, "assert(gpu.copy{dir = 'd2d', bytes = 2^63})", "below 2^63");
    refused(f, "assert(gpu.copy{dir = 'd2d', bytes = 0x7fffffffffffffff})",
            "experiments may take at most|at most 90%");
    refused(f, "assert(gpu.copy{dir = 'h2d', bytes = '1000GiB'})", "experiments may take at most");
    refused(f, "assert(gpu.latency{bytes = 2^62})", "exceeds the experiment cap");
    refused(f, "assert(gpu.stream{bytes = 2^62})", "STREAM needs");
    refused(f, "assert(gpu.stream{bytes = 0x5555555555555558})", "at most|STREAM needs");
    /* host arrays are real: half the machine's RAM at most (no OOM killer) */
    refused(f, "assert(host.stream{bytes = host.info().ram_bytes // 5})", "RAM");
    refused(f, "assert(host.copy{bytes = math.min(host.info().ram_bytes // 3, 64 * 2^30)})",
            "RAM|between 4 KiB and 64 GiB");
    refused(f, "assert(host.latency{bytes = math.min(host.info().ram_bytes // 3 * 2, 64 * 2^30)})",
            "RAM|between 4 KiB and 64 GiB");
    refused(f, "host.stream{bytes = '65GiB'}", "between 4 KiB and 64 GiB");
    /* filling the device: allocations fail cleanly, and everything comes back */
    contained(f, "local t, n = {}, 0 for i = 1, 20000 do local b = gpu.alloc(2^24) "
                 "if not b then break end n = n + 1 t[n] = b end assert(n > 100 and n < 20000)");
    assert_int_equal(f->dev->live_allocs, 0);
    survives(f, "alloc.model{capacity = 2^62}");
    survives(f, "alloc.model{capacity = '1e30GiB'}");
    survives(f, "local a <close> = alloc.model{capacity = '1GiB'} assert(a:malloc(2^62))");
    survives(f, "local a <close> = alloc.model{capacity = '1GiB'} a:malloc(-1)");
    survives(f, "local a <close> = alloc.model{capacity = '1GiB'} a:malloc(0/0)");
    survives(f, "local a <close> = alloc.caching{} assert(a:malloc(2^62))");
    survives(f, "local a <close> = alloc.caching{} for i = 1, 1e5 do if not a:malloc(2^26) "
                "then break end end");
    survives(f, "alloc.round_size(2^63)");
    survives(f, "alloc.round_size(-1)");
    survives(f, "alloc.format_size(0/0)");
}

/* ---- lessons attacking the loader and the runner ------------------------------------------- */

static char lesson_path[64];

static const char *write_lesson(const char *body)
{
    strcpy(lesson_path, "/tmp/vramlab-escape-XXXXXX.lua");
    int fd = mkstemps(lesson_path, 4);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    fputs(body, fp);
    fclose(fp);
    return lesson_path;
}

#define HEAD "return lesson {\n id = '9.1', chapter = 9,\n" \
             " title = {en='T', zh='T'}, chapter_title = {en='C', zh='C'},\n"
#define TEXT " text { en = 'a', zh = 'b' },\n"
#define PANELS " panels = {{id = 'p', kind = 'bars', title = {en='P', zh='P'}}},\n"

/* Load must fail with "path:LINE: ...want..." (LINE > 0). */
static void lesson_refused(struct fixture *f, const char *body, const char *want)
{
    char err[1024];
    attempts++;
    say(body);
    const char *path = write_lesson(body);
    struct lt_lesson *ls = lt_lesson_load(f->rt, path, err, sizeof err);
    unlink(path);
    if (ls) fail_msg("lesson accepted, expected '%s'", want);
    size_t pl = strlen(path);
    int line = 0;
    if (strncmp(err, path, pl) || sscanf(err + pl, ":%d:", &line) != 1 || line < 1)
        fail_msg("message does not start with '%s:LINE:': %s", path, err);
    if (!matches(err, want)) fail_msg("got '%s', expected '%s'", err, want);
    assert_int_equal(f->dev->live_allocs, 0);
}

/* Every accessor of a loaded lesson, in both languages: must return (NULL is fine). */
static void read_everything(struct lt_lesson *ls, struct lt_runtime *rt)
{
    for (int lang = 0; lang < 2; lang++) {
        lt_runtime_set_lang(rt, lang ? "zh" : "en");
        (void)lt_lesson_title(ls);
        (void)lt_lesson_id(ls);
        for (int i = 0; i < lt_lesson_nblocks(ls); i++) {
            struct lt_panel p[8];
            struct lt_exercise_info x;
            (void)lt_lesson_block_kind(ls, i);
            (void)lt_lesson_block_text(ls, i);
            (void)lt_lesson_block_title(ls, i);
            (void)lt_lesson_block_id(ls, i);
            (void)lt_lesson_panels(ls, i, p, 8);
            (void)lt_lesson_exercise(ls, i, &x);
        }
    }
    lt_runtime_set_lang(rt, "en");
}

static struct lt_lesson *load_ok(struct fixture *f, const char *body)
{
    char err[1024];
    attempts++;
    say(body);
    const char *path = write_lesson(body);
    struct lt_lesson *ls = lt_lesson_load(f->rt, path, err, sizeof err);
    unlink(path);
    if (!ls) fail_msg("lesson refused: %s", err);
    return ls;
}

static enum lt_run_state run_all(struct lt_lesson *ls, int block, char *err, size_t n)
{
    enum lt_run_state st = lt_lesson_run_start(ls, block, err, n);
    for (int i = 0; st == LT_RUN_BUSY && i < 100000; i++) st = lt_lesson_run_step(ls, err, n);
    return st;
}

static void test_lesson_files(void **state)
{
    struct fixture *f = *state;
    char err[1024];
    lesson_refused(f, "error('no position', 0)\n", ":1: no position");
    lesson_refused(f, "\n\nerror({})\n", ":3: error object is a table value");
    lesson_refused(f, "\nerror(setmetatable({}, {__tostring = function() while true do end end}))\n",
                   ":2: error object is a table value");
    lesson_refused(f, "\x1bLua\x54", "binary chunks");
    lesson_refused(f, "local t = {}\nfor i = 1, 1e8 do t[i] = i end\n", "memory limit");
    lesson_refused(f, "local s = string.rep('x', 2^30)\n", "memory limit");
    lesson_refused(f, "\n\nwhile true do end\n", ":3: stopped: the code ran past");
    lesson_refused(f, "pcall(function() while true do end end)\nreturn 1\n", "stopped");
    lesson_refused(f, "setmetatable({}, {__gc = print})\n", "__gc");
    lesson_refused(f, "require 'lesson'\n", "no module");
    lesson_refused(f, "local x <close> = setmetatable({}, {__close = function() while true do end "
                      "end})\n" HEAD TEXT "}\n", "stopped");

    /* a block with a hostile metatable: lesson data is plain tables, and the validator reads
     * a raw copy of it, never the lesson's metamethods */
    lesson_refused(f, "local t = text { en = 'a', zh = 'b' }\n"
                      "local evil = {__index = function() while true do end end,\n"
                      "  __len = function() while true do end end}\n"
                      "setmetatable(t, evil)\n" HEAD " t,\n}\n", "plain tables|changed after text{}");
    lesson_refused(f, "local t = setmetatable({ en = 'a' }, {__index = function() return 'b' end})\n"
                      HEAD " text(t),\n}\n", "plain tables");
    struct lt_lesson *ls;

    /* a lesson that changes its own tables after validation (from a to-be-closed variable
     * that runs after lesson{} returned) is refused */
    lesson_refused(f, "local title = {en = 'T', zh = 'T'}\nlocal blk = text { en = 'a', zh = 'b' }\n"
                      "local x <close> = setmetatable({}, {__close = function()\n"
                      "  title.en = nil title.zh = {} blk.en = 42\n"
                      "  setmetatable(title, {__index = function() while true do end end})\n"
                      "  setmetatable(blk, getmetatable(title))\n"
                      "end})\n"
                      "return lesson { id = '9.1', chapter = 9, title = title,\n"
                      "  chapter_title = {en='C', zh='C'}, blk }\n",
                   ":8: the lesson changed after lesson{} validated it");
    struct lt_catalog_entry *cat;
    int nc = lt_catalog_scan(f->rt, "/nonexistent-vramlab-dir", &cat);
    lt_catalog_free(cat, nc);

    /* an experiment that yields on its own forever is stopped, headless */
    ls = load_ok(f, HEAD " experiment { id = 'e', title = {en='E', zh='E'},\n" PANELS
                    "  run = function(ex) while true do coroutine.yield() end end },\n}\n");
    assert_int_equal(run_all(ls, 0, err, sizeof err), LT_RUN_FAILED);
    if (!strstr(err, "sandbox limit")) fail_msg("yielding experiment: %s", err);
    lt_lesson_free(ls);

    /* an experiment that mutates its lesson and raises an error object */
    ls = load_ok(f, "local L\nL = lesson { id = '9.1', chapter = 9,\n"
                    " title = {en='T', zh='T'}, chapter_title = {en='C', zh='C'},\n"
                    " experiment { id = 'e', title = {en='E', zh='E'},\n" PANELS
                    "  run = function(ex)\n"
                    "   L.title = 5 L[1].panels = 7 L[1].title = setmetatable({}, {__index = error})\n"
                    "   error(setmetatable({}, {__tostring = function() while true do end end}))\n"
                    "  end },\n}\nreturn L\n");
    assert_int_equal(run_all(ls, 0, err, sizeof err), LT_RUN_FAILED);
    if (!strstr(err, "error object is a table value") || !strstr(err, ":8:"))
        fail_msg("mutating experiment: %s", err);
    read_everything(ls, f->rt);
    lt_lesson_free(ls);

    /* exercise checks run inside the limits; the next answer works */
    ls = load_ok(f, HEAD " exercise { id = 'q', kind = 'code', entry = 'f',\n"
                    "  prompt = {en='p', zh='p'}, explain = {en='x', zh='x'}, hints = {{en='h', zh='h'}},\n"
                    "  check = function(fn) return fn() end },\n}\n");
    char fb[1024];
    assert_false(lt_lesson_answer(ls, 0, "function f() while true do end end", fb, sizeof fb));
    if (!strstr(fb, "sandbox limit")) fail_msg("looping answer: %s", fb);
    assert_true(lt_lesson_answer(ls, 0, "function f() return true end", fb, sizeof fb));
    assert_false(lt_lesson_answer(ls, 0, "function f() return ('x'):rep(2^40) end", fb, sizeof fb));
    assert_true(lt_lesson_answer(ls, 0, "function f() return 1 end", fb, sizeof fb));
    lt_lesson_free(ls);

    /* an experiment that leaks buffers: nothing outlives the run */
    ls = load_ok(f, HEAD " experiment { id = 'e', title = {en='E', zh='E'},\n" PANELS
                    "  run = function(ex) keep = {} for i = 1, 50 do keep[i] = gpu.alloc(2^20) end end },\n}\n");
    assert_int_equal(run_all(ls, 0, err, sizeof err), LT_RUN_DONE);
    assert_int_equal(f->dev->live_allocs, 0);
    lt_lesson_free(ls);
}

/* The async (TUI) runner: a stashed experiment coroutine resumed from an exercise check, and a
 * run cancelled while a looping to-be-closed variable waits. */
static void test_lesson_async(void **state)
{
    struct fixture *f = *state;
    char err[1024], fb[1024];
    lt_runtime_set_async(f->rt, true);
    struct lt_lesson *ls = load_ok(f, HEAD
        " experiment { id = 'e', title = {en='E', zh='E'},\n" PANELS
        "  run = function(ex) STASH = coroutine.running() coroutine.yield()\n"
        "   while true do end end },\n"
        " exercise { id = 'q', kind = 'code', entry = 'f',\n"
        "  prompt = {en='p', zh='p'}, explain = {en='x', zh='x'}, hints = {{en='h', zh='h'}},\n"
        "  check = function(fn) return coroutine.resume(STASH) end },\n}\n");
    assert_int_equal(lt_lesson_run_start(ls, 0, err, sizeof err), LT_RUN_BUSY);
    (void)lt_lesson_answer(ls, 1, "function f() end", fb, sizeof fb); /* must return */
    enum lt_run_state st = LT_RUN_BUSY;
    for (int i = 0; st == LT_RUN_BUSY && i < 100000; i++) st = lt_lesson_run_step(ls, err, sizeof err);
    assert_int_not_equal(st, LT_RUN_BUSY);
    lt_lesson_free(ls);

    ls = load_ok(f, HEAD " experiment { id = 'e', title = {en='E', zh='E'},\n" PANELS
                    "  run = function(ex)\n"
                    "   local x <close> = setmetatable({}, {__close = function() while true do end end})\n"
                    "   coroutine.yield() end },\n}\n");
    assert_int_equal(lt_lesson_run_start(ls, 0, err, sizeof err), LT_RUN_BUSY);
    lt_lesson_run_cancel(ls); /* must return */
    assert_int_equal(lt_lesson_run_state(ls), LT_RUN_CANCELLED);
    lt_lesson_free(ls);
    lt_runtime_set_async(f->rt, false);
    assert_int_equal(f->dev->live_allocs, 0);
}

/* ---- C library loops that Lua values size -------------------------------------------------- */

/* Loops inside one C call, where the instruction hook never fires: each is charged to the
 * budget (or capped before it starts), so each stops like a Lua loop. */
static void test_c_loops(void **state)
{
    struct fixture *f = *state;
    static const char *const bombs[] = {
        "table.move({}, 1, math.maxinteger, 1)",
        "table.move({}, 1, math.maxinteger, 1, {})",
        "table.move({}, 1, 1e8, 2)",
        "table.insert(setmetatable({}, {__len = function() return math.maxinteger - 1 end}), 1, 0)",
        "table.insert(setmetatable({}, {__len = function() return 1e9 end}), 2, 0)",
        "table.remove(setmetatable({}, {__len = function() return math.maxinteger - 1 end}), 1)",
        "table.remove(setmetatable({}, {__len = function() return 1e9 end}), 1)",
        "table.sort(setmetatable({}, {__len = function() return 2^31 - 2 end, __index = rawlen, "
        "__newindex = rawequal}))",
        "table.sort(setmetatable({}, {__len = function() return 2^24 end, __index = rawlen, "
        "__newindex = rawequal}), rawequal)",
        "table.concat(setmetatable({}, {__len = function() return math.maxinteger end, "
        "__index = rawlen}))",
        "table.concat(setmetatable({}, {__len = function() return 1e9 end, __index = function() "
        "return '' end}))",
        "for i = 1, 1e4 do table.unpack({}, 1, 1e6) end",
        "for i = 1, 1e4 do table.pack(table.unpack({}, 1, 1e5)) end",
        "for i = 1, 1e9 do string.rep('', math.maxinteger) end",
        "for i = 1, 1e9 do string.rep('', math.maxinteger, '') end",
        "string.rep('x', 2^26)",
        "string.rep('', 2^40, 'y')",
        "local s = ('x'):rep(2^20) for i = 1, 1e9 do local r = s:rep(2) end",
        "local t = {} for i = 1, 5e4 do t[i] = 65 end for i = 1, 1e4 do utf8.char(table.unpack(t)) end",
        "for _ in utf8.codes(('x'):rep(2^20)) do end",
        "local s = ('\\u{10FFFF}'):rep(2^18) for i = 1, 1e9 do utf8.len(s) end",
        "for i = 1, 1e9 do local s = string.format('%99.99f', 1e308) end",
        "local t = {} for i = 1, 1000 do t[i] = 1 end local fm = ('%99d'):rep(1000) "
        "for i = 1, 1e9 do fm:format(table.unpack(t)) end",
        "local s = ('x'):rep(2^20) for i = 1, 1e9 do local p = string.pack('s8', s) end",
        "local s = ('x'):rep(2^20) for i = 1, 1e9 do local u = s:upper() end",
        "local s = ('x'):rep(2^20) for i = 1, 1e9 do tostring(s) select('#', s) end",
        "local s = ('x = 1 '):rep(2^16) for i = 1, 1e9 do load(s) end",
        "local t = {} for i = 1, 2e4 do t[i] = {} end for i = 1, 1e9 do collectgarbage() end",
        NULL};
    for (const char *const *b = bombs; *b; b++)
        refused(f, *b, "sandbox limit|memory limit|too many results|too large");
    /* the sandbox's versions behave as Lua's own */
    contained(f, "local t = {5, 3, 1, 4, 2} table.sort(t) assert(table.concat(t, ',') == '1,2,3,4,5')");
    contained(f, "local t = {5, 3, 1, 4, 2} table.sort(t, function(a, b) return a > b end) "
                 "assert(table.concat(t, ' ') == '5 4 3 2 1')");
    contained(f, "local t = {} for i = 1, 2000 do t[i] = (i * 7919) % 1009 end table.sort(t) "
                 "for i = 2, #t do assert(t[i - 1] <= t[i]) end");
    contained(f, "local t = {'b', 'a', 'c'} table.sort(t) assert(t[1] == 'a' and t[3] == 'c')");
    contained(f, "local t = {1, 2, 3} table.insert(t, 1, 0) table.insert(t, 9) "
                 "assert(table.concat(t, ',') == '0,1,2,3,9')");
    contained(f, "local t = {1, 2, 3} assert(table.remove(t, 1) == 1 and table.remove(t) == 3 "
                 "and #t == 1 and t[1] == 2) assert(table.remove({}) == nil)");
    contained(f, "local t = {1, 2, 3, 4, 5} table.move(t, 1, 3, 2) assert(table.concat(t, ',') == '1,1,2,3,5')");
    contained(f, "local t = {1, 2, 3, 4, 5} table.move(t, 2, 5, 1) assert(table.concat(t, ',') == '2,3,4,5,5')");
    contained(f, "local d = table.move({1, 2}, 1, 2, 3, {7, 8}) assert(table.concat(d, ',') == '7,8,1,2')");
    contained(f, "assert(select('#', table.unpack({1, nil, 3}, 1, 3)) == 3)");
    contained(f, "local p = table.pack(1, nil, 3) assert(p.n == 3 and p[3] == 3)");
    contained(f, "assert(table.concat({1, 2.5, 'x'}, '-') == '1-2.5-x' and table.concat({}) == '')");
    contained(f, "assert(table.concat({'a', 'b', 'c'}, ',', 2, 3) == 'b,c')");
    contained(f, "assert(('ab'):rep(3, ',') == 'ab,ab,ab' and ('x'):rep(0) == '' and "
                 "('x'):rep(-1) == '' and (''):rep(5, 'x') == 'xxxx' and (''):rep(1, 'x') == '')");
    contained(f, "assert(utf8.char(72, 105) == 'Hi' and utf8.len('h\\u{e9}') == 2)");
    refused(f, "table.insert({1, 2}, 5, 0)", "position out of bounds");
    refused(f, "table.insert({}, 1, 2, 3)", "wrong number of arguments");
    refused(f, "table.concat({1, {}, 3})", "invalid value (at index 2)");
    refused(f, "table.sort({1, 'x'})", "attempt to compare");
    refused(f, "table.move({}, math.mininteger, -1, 1)", "too many elements to move");
}

/* ---- lesson data frozen after validation ------------------------------------------------------ */

#define EXERCISE(id) " exercise { id = " id ", kind = 'code', entry = 'f',\n" \
    "  prompt = {en='p', zh='p'}, explain = {en='x', zh='x'}, hints = {{en='h', zh='h'}},\n" \
    "  starter = 'function f() os.execute(1) end', check = function(fn) return fn() == 1 end }"

/* A lesson whose <close> handler (or other code that runs after lesson{} returned) changes it. */
static void mutated(struct fixture *f, const char *change)
{
    char body[2048];
    snprintf(body, sizeof body,
             "local ex = exercise { id = 'e1', kind = 'choice', prompt = {en='p', zh='p'},\n"
             "  explain = {en='x', zh='x'}, hints = {{en='h', zh='h'}}, answer = 1,\n"
             "  choices = {{en='a', zh='a'}, {en='b', zh='b'}} }\n"
             "local exp = experiment { id = 'x', title = {en='E', zh='E'},\n" PANELS
             "  run = function(ex) end }\n"
             "local L = lesson { id = '9.1', chapter = 9, title = {en='T', zh='T'},\n"
             "  chapter_title = {en='C', zh='C'}, ex, exp }\n"
             "local mutate <close> = setmetatable({}, {__close = function()\n"
             "  %s\n"
             "end})\n"
             "return L\n", change);
    lesson_refused(f, body, ":7: the lesson changed after lesson{} validated it");
}

static void test_lesson_frozen(void **state)
{
    struct fixture *f = *state;
    char err[1024];
    /* a <close> after `return L` renames the lesson into a path, and variants: ids, titles, choices,
     * panels, metatables rewritten */
    mutated(f, "L.id = '../../../rt-pwn/planted' ex.id = 'x'");
    mutated(f, "L.id = '/../../../rt-pwn/x'");
    mutated(f, "ex.id = '../x'");
    mutated(f, "ex.id = 'a/b'");
    mutated(f, "L.title = 5");
    mutated(f, "L.title.en = {}");
    mutated(f, "ex.choices[1].en = {} ex.choices[2] = nil");
    mutated(f, "ex.choices[1].en = 'changed text'");
    mutated(f, "exp.panels = 7");
    mutated(f, "exp.panels[1].kind = 'curve'");
    mutated(f, "L[3] = L[1]");
    mutated(f, "L.extra = true");
    mutated(f, "setmetatable(L, {__index = function(t, k) return '../x' end})");
    mutated(f, "setmetatable(ex.prompt, {})");
    mutated(f, "setmetatable({}, {__newindex = L}).id = '../x'");
    mutated(f, "rawset(L, 'id', '9.2')");
    /* a <close> in a nested function: runs after lesson{} returned, before the file does */
    lesson_refused(f, "local function make()\n"
                      "  local L\n"
                      "  local x <close> = setmetatable({}, {__close = function() L.id = '../x' end})\n"
                      "  L = lesson { id = '9.1', chapter = 9, title = {en='T', zh='T'},\n"
                      "    chapter_title = {en='C', zh='C'}, text { en = 'a', zh = 'b' } }\n"
                      "  return L\n"
                      "end\n"
                      "return make()\n", ":4: the lesson changed after lesson{} validated it");
    /* a block changed between its own constructor and lesson{} */
    lesson_refused(f, "local ex = exercise { id = 'e1', kind = 'number', prompt = {en='p', zh='p'},\n"
                      "  explain = {en='x', zh='x'}, hints = {{en='h', zh='h'}}, answer = 1 }\n"
                      "ex.id = '../x'\n" HEAD " ex,\n}\n",
                   ":1: exercise changed after exercise{} validated it");
    /* ids that are not plain words never pass the validator */
    static const char *const bad_ids[] = {"'a/b'", "'..'", "'/x'", "'e\\0x'", "''", "'.e'",
                                          "('x'):rep(300)", "'e x'", "'\\n'", "7", NULL};
    char body[2048];
    for (const char *const *b = bad_ids; *b; b++) {
        snprintf(body, sizeof body, HEAD EXERCISE("%s") ",\n}\n", *b);
        lesson_refused(f, body, "must be a word");
    }
    lesson_refused(f, "return lesson { id = '9.1/../x', chapter = 9, title = {en='T', zh='T'},\n"
                      " chapter_title = {en='C', zh='C'}, text { en = 'a', zh = 'b' } }\n",
                   "'id' must look like");
    lesson_refused(f, "return lesson { id = ('9'):rep(70) .. '.1', chapter = 9, title = {en='T', zh='T'},\n"
                      " chapter_title = {en='C', zh='C'}, text { en = 'a', zh = 'b' } }\n",
                   "'id' must look like");
    /* a closure kept and called later (by an experiment) changes the lesson's own tables: the
     * copy the C side reads stays as validated */
    struct lt_lesson *ls = load_ok(f, "local L\nlocal function evil() L.id = '../x' L[2].id = '../y'\n"
                                      " L[2].starter = 'planted' L.title = 5 end\n"
                                      "L = lesson { id = '9.1', chapter = 9, title = {en='T', zh='T'},\n"
                                      " chapter_title = {en='C', zh='C'},\n"
                                      " experiment { id = 'x', title = {en='E', zh='E'},\n" PANELS
                                      "  run = function(ex) evil() end },\n"
                                      EXERCISE("'e1'") ",\n}\nreturn L\n");
    assert_int_equal(run_all(ls, 0, err, sizeof err), LT_RUN_DONE);
    assert_string_equal(lt_lesson_id(ls), "9.1");
    assert_string_equal(lt_lesson_title(ls), "T");
    struct lt_exercise_info x;
    assert_true(lt_lesson_exercise(ls, 1, &x));
    assert_string_equal(x.id, "e1");
    assert_string_equal(x.starter, "function f() os.execute(1) end");
    read_everything(ls, f->rt);
    lt_lesson_free(ls);
}

/* ---- grading integrity --------------------------------------------------------------------- */

static void test_grading(void **state)
{
    struct fixture *f = *state;
    char fb[2048], err[1024];
    /* the check uses the lesson's own helper and the standard library */
    struct lt_lesson *ls = load_ok(f,
        "function helper(x) return 2 * x end\n"
        HEAD
        " exercise { id = 'q', kind = 'code', entry = 'f',\n"
        "  prompt = {en='p', zh='p'}, explain = {en='x', zh='x'}, hints = {{en='h', zh='h'}},\n"
        "  check = function(fn)\n"
        "   local got = fn(21)\n"
        "   if type(got) ~= 'number' or math.abs(got - helper(21)) > 1e-9 then\n"
        "     return false, 'got ' .. tostring(got) end\n"
        "   if helper(1) ~= 2 or string.format('%d', 1) ~= '1' or tostring(1) ~= '1' or\n"
        "      table.concat({1, 2}) ~= '12' or units.parse('1KiB') ~= 1024 or\n"
        "      select('#', pairs({})) ~= 3 then return false, 'helpers changed' end\n"
        "   return true end },\n"
        " experiment { id = 'e', title = {en='E', zh='E'},\n" PANELS
        "  run = function(ex) assert(math.abs(-1) == 1 and helper(2) == 4 and f == nil and\n"
        "    string.format('%d', 3) == '3' and type(1) == 'number' and not STOLEN, 'lesson env changed') end },\n"
        "}\n");
    static const char *const cheats[] = {
        "function f() return 0 end\n_G.math = { abs = function() return 0 end }",
        "function f() return 0 end math.abs = function() return 0 end",
        "function f() return 0 end helper = function() return 0 end _G.helper = helper",
        "function f() return 0 end string.format = function() return '1' end",
        "function f() return 0 end table.concat = function() return '12' end pairs = nil",
        "function f() return 0 end type = function() return 'number' end tostring = nil",
        "function f() return 0 end setmetatable(_G, {__index = function() return function() return 0 end end})",
        "_ENV = setmetatable({}, {__index = _G}) function f() return 0 end",
        "local e = _ENV _ENV = {} e.f = function() return 0 end",
        "load('math.abs = function() return 0 end helper = nil STOLEN = true')() function f() return 0 end",
        "require('units').parse = function() return 1024 end units.parse = nil function f() return 0 end",
        "function f() return setmetatable({}, {__eq = function() return true end, __lt = function() "
        "return false end, __le = function() return true end, __sub = function() return 0 end, "
        "__tostring = function() return 'Right.' end}) end",
        "function f() return {} end",
        "function f() return coroutine.create(print) end",
        "function f() error(setmetatable({}, {__tostring = function() return 'Right.' end})) end",
        "error(setmetatable({}, {__tostring = function() return 'Right.' end}))",
        "error('Right.', 0)",
        "function f(x) return 42 end STOLEN = true",
        NULL};
    for (const char *const *c = cheats; *c; c++) {
        attempts++;
        say(*c);
        bool ok = lt_lesson_answer(ls, 0, *c, fb, sizeof fb);
        /* the last one is a right answer for 21 only: the grader counts it; the env stays */
        if (c[1] == NULL) continue;
        if (ok) fail_msg("graded right: %s\n  feedback: %s", *c, fb);
        if (!strncmp(fb, "Right", 5)) fail_msg("feedback starts 'Right': %s\n  %s", *c, fb);
    }
    assert_true(lt_lesson_answer(ls, 0, "function f(x) return 2 * x end", fb, sizeof fb));
    /* nothing an answer did reached the lesson's environment */
    assert_int_equal(run_all(ls, 1, err, sizeof err), LT_RUN_DONE);
    lt_lesson_free(ls);
    /* the answer string is pushed protected: a lesson that left its heap full and a large answer
     * give a message, not an aborted process */
    ls = load_ok(f, "FILL = {} for _, n in ipairs {2^22, 2^20, 2^16} do\n"
                    " pcall(function() while true do FILL[#FILL + 1] = ('x'):rep(n) end end) end\n"
                    HEAD EXERCISE("'q'") ",\n}\n");
    char *big = malloc(6u << 20);
    memset(big, ' ', (6u << 20) - 1);
    big[(6u << 20) - 1] = 0;
    memcpy(big, "return 1", 8);
    assert_false(lt_lesson_answer(ls, 0, big, fb, sizeof fb));
    if (!strstr(fb, "memory limit")) fail_msg("big answer: %s", fb);
    free(big);
    lt_lesson_free(ls);
}

/* ---- what allocators, traces and measurements cost ---------------------------------------- */

static void test_costs(void **state)
{
    struct fixture *f = *state;
    /* allocator structures in C count against the heap cap */
    static const char *const bombs[] = {
        "local a = alloc.model{capacity = '4TiB'} for i = 1, 1e9 do a:malloc(512) end",
        "local a = alloc.model{capacity = '4TiB', expandable_segments = true} "
        "for i = 1, 1e9 do a:malloc(512) end",
        "local a = alloc.raw{capacity = '4TiB'} for i = 1, 1e9 do a:malloc(512) end",
        "local a = alloc.async_pool{capacity = '4TiB'} for i = 1, 1e9 do a:malloc(512) end",
        "local a = alloc.model{capacity = '4TiB'} a:record() "
        "for i = 1, 1e9 do a:free(a:malloc(512)) end",
        "alloc.trace_replay(('a 1 1MiB\\n'):rep(2^18 // 9 * 8))",
        /* C maps built into tables until the heap is full: nothing leaks (the ASan pass) */
        "local a = alloc.model{capacity = '1TiB'} local k = {} for i = 1, 5e3 do k[i] = a:malloc(512) "
        "end local fill = {} while true do fill[#fill + 1] = a:segments() end",
        "local a = alloc.raw{capacity = '1TiB'} local k = {} for i = 1, 5e3 do k[i] = a:malloc(512) "
        "end for i = 1, 5e3, 2 do a:free(k[i]) end local fill = {} "
        "while true do fill[#fill + 1] = a:segments() end",
        "local a = alloc.async_pool{capacity = '1TiB'} for i = 1, 2e4 do a:malloc(4096) end "
        "local fill = {} while true do fill[#fill + 1] = a:segments() end",
        "local a = alloc.model{capacity = '1TiB'} for i = 1, 2e3 do a:malloc(512) end "
        "local fill = {} while true do fill[#fill + 1] = a:summary() .. alloc.ledger(a).text end",
        NULL};
    for (const char *const *b = bombs; *b; b++) refused(f, *b, "memory limit|sandbox limit");
    contained(f, "local a <close> = alloc.model{capacity = '1GiB'} for i = 1, 1000 do "
                 "a:free(a:malloc(512)) end assert(collectgarbage('count') < 4 * 1024)");
    /* a run's wall time counts its measurements: a loop of them ends */
    struct lt_limits lim = limits;
    lim.wall_seconds = 0.5;
    lt_runtime_set_limits(f->rt, &lim);
    refused(f, "while true do host.copy{bytes = '64KiB', trials = 1} end", "wall time");
    refused(f, "while true do alloc.trace_replay('a 1 1MiB\\nf 1\\n') end", "wall time");
    refused(f, "local co = coroutine.wrap(function() while true do "
               "gpu.copy{dir = 'h2d', bytes = 4096, trials = 1} end end) co()", "wall time");
    lt_runtime_set_limits(f->rt, &limits);
    /* sizes at or past 2^63 are refused, never clamped */
    static const char *const huge[] = {"'1e19'", "2^63", "2^64", "'9.3e18'", "1e300", NULL};
    char src[256];
    for (const char *const *h = huge; *h; h++) {
        snprintf(src, sizeof src, "gpu.copy{dir = 'd2d', bytes = %s}", *h);
        refused(f, src, "below 2^63");
        snprintf(src, sizeof src, "alloc.model{capacity = '1GiB'}:malloc(%s)", *h);
        refused(f, src, "below 2^63|positive|integer representation");
    }
    refused(f, "gpu.copy{dir = 'd2d', bytes = 4096, trials = 2^32 + 10}", "trials must be 1..");
    refused(f, "host.copy{bytes = 4096, threads = 2^32 + 1}", "threads must be 0..256");
}

/* ---- option tables are read raw --------------------------------------------------------------- */

static void test_option_tables(void **state)
{
    struct fixture *f = *state;
    lt_vm_repl_setup(f->vm);
    /* an __index that makes each string and collects the last one: never run */
    f->nplots = 0;
    contained(f, "local n = 0 local opts = setmetatable({}, {__index = function(t, k) n = n + 1 "
                 "if k == 'x' then return ('X'):rep(100) end collectgarbage() collectgarbage() "
                 "return 'Y' end}) plot.point('s', 1, 2, opts) assert(n == 0)");
    assert_int_equal(f->nplots, 1);
    assert_string_equal(f->last_text, "");
    assert_string_equal(f->last_unit, "");
    contained(f, "plot.point('s', 1, 2, {x = 'bytes', y = 'ns'})");
    assert_string_equal(f->last_text, "bytes");
    assert_string_equal(f->last_unit, "ns");
    static const char *const calls[] = {
        "plot.bar('b', 1, setmetatable({}, {__index = function() collectgarbage() return ('u'):rep(50) end}))",
        "plot.gauge('g', 1, 2, setmetatable({}, {__index = function() collectgarbage() return 'GB' end}))",
        "plot.bar('b', 1, 'u', setmetatable({}, {__index = function() error('ran') end}))",
        "plot.point('s', 1, 2, setmetatable({}, {__index = function() while true do end end}))",
        "host.copy(setmetatable({bytes = '64KiB', trials = 1}, {__index = function() error('ran') end}))",
        "gpu.copy(setmetatable({dir = 'h2d', bytes = 4096}, {__index = function() error('ran') end}))",
        "alloc.model(setmetatable({capacity = '1GiB'}, {__index = function() error('ran') end})):close()",
        NULL};
    for (const char *const *c = calls; *c; c++) contained(f, *c);
    assert_true(strcmp(f->last_text, "(null)") != 0);
    /* a row longer than a panel keeps is refused where it is plotted, never cut */
    refused(f, "plot.row(setmetatable({}, {__len = function() return 1e9 end, __index = function(t, i) "
               "collectgarbage() return ('c'):rep(i) end}))", "1000000000 cells; at most 64");
    /* an optional argument left out is absent, not the label the call converted: the label
     * never turns into the unit or the style */
    static const struct {
        const char *call, *series, *unit;
        int style;
    } plain[] = {
        {"plot.bar('a', 3)", "a", "", LT_THEORETICAL},
        {"plot.bar(42, 3)", "42", "", LT_THEORETICAL},
        {"plot.gauge('used', 3, 24)", "used", "", LT_THEORETICAL},
        {"plot.gauge('used', 3, 24, 'GiB')", "used", "GiB", LT_THEORETICAL},
        {"plot.bar('a', 3, 'GB/s')", "a", "GB/s", LT_THEORETICAL},
        {"plot.bar('a', 3, {unit = 'GB/s', style = 'measured'})", "a", "GB/s", LT_MEASURED},
        {"plot.point('measured', 1, 2)", "measured", "", LT_THEORETICAL},
    };
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) {
        contained(f, plain[i].call);
        if (strcmp(f->last_series, plain[i].series) || strcmp(f->last_unit, plain[i].unit) ||
            f->last_style != plain[i].style)
            fail_msg("%s: label '%s' unit '%s' style %d", plain[i].call, f->last_series,
                     f->last_unit, f->last_style);
    }
}

/* ---- measurements from nested coroutines go to the worker ----------------------------------- */

static enum lt_eval_status eval_all(struct fixture *f, const char *src, char *out, size_t n,
                                    int *busy)
{
    enum lt_eval_status st = lt_vm_eval(f->vm, src, out, n);
    *busy = 0;
    while (st == LT_EVAL_BUSY) {
        (*busy)++;
        usleep(500);
        st = lt_vm_eval_step(f->vm, out, n);
    }
    return st;
}

static void test_nested_async(void **state)
{
    struct fixture *f = *state;
    char out[1024];
    int busy;
    lt_runtime_set_async(f->rt, true);
    /* at any depth the measurement yields to the runner (BUSY), then gives its value */
    static const char *const nested[] = {
        "coroutine.wrap(function() return host.copy{bytes = '1MiB', trials = 2}.bytes end)()",
        "select(2, coroutine.resume(coroutine.create(function() return host.copy{bytes = '1MiB', "
        "trials = 2}.bytes end)))",
        "coroutine.wrap(function() return coroutine.wrap(function() return coroutine.wrap("
        "function() return host.copy{bytes = '1MiB', trials = 2}.bytes end)() end)() end)()",
        "coroutine.wrap(function() return alloc.trace_replay('a 1 1MiB\\nf 1\\n').events * 524288 end)()",
        NULL};
    for (const char *const *n = nested; *n; n++) {
        attempts++;
        assert_int_equal(eval_all(f, *n, out, sizeof out, &busy), LT_EVAL_OK);
        assert_string_equal(out, "1048576");
        if (busy < 1) fail_msg("did not reach the runner: %s", *n);
    }
    /* a nested coroutine's own yields are still its resumer's */
    assert_int_equal(eval_all(f, "local co = coroutine.wrap(function() host.copy{bytes = '1MiB', "
                                 "trials = 1} coroutine.yield(7) return 8 end) return co() + co()",
                              out, sizeof out, &busy), LT_EVAL_OK);
    assert_string_equal(out, "15");
    /* computing in a nested coroutine gives the screen its slices (50 ms of CPU > a 20 ms slice) */
    assert_int_equal(eval_all(f, "coroutine.wrap(function() local t = os.clock() "
                                 "while os.clock() - t < 0.05 do end return 1 end)()",
                              out, sizeof out, &busy), LT_EVAL_OK);
    assert_true(busy >= 1);
    /* where nothing can yield (a sort's comparator), the measurement waits in place */
    assert_int_equal(eval_all(f, "local t = {2, 1} table.sort(t, function(a, b) "
                                 "host.copy{bytes = '64KiB', trials = 1} return a < b end) return t[1]",
                              out, sizeof out, &busy), LT_EVAL_OK);
    assert_string_equal(out, "1");
    /* a loop of measurements in a nested coroutine is cancelled like any entry */
    attempts++;
    enum lt_eval_status st = lt_vm_eval(f->vm, "keep = gpu.alloc(2^20) coroutine.wrap(function() "
                                               "while true do host.copy{bytes = '1MiB', trials = 4} "
                                               "end end)()", out, sizeof out);
    assert_int_equal(st, LT_EVAL_BUSY);
    for (int i = 0; i < 20 && st == LT_EVAL_BUSY; i++) usleep(1000), st = lt_vm_eval_step(f->vm, out, sizeof out);
    assert_int_equal(st, LT_EVAL_BUSY);
    lt_vm_eval_cancel(f->vm);
    assert_int_equal(f->dev->live_allocs, 0);
    assert_int_equal(eval_all(f, "6 * 7", out, sizeof out, &busy), LT_EVAL_OK);
    assert_string_equal(out, "42");
    lt_runtime_set_async(f->rt, false);
}

static int report(void **state)
{
    (void)state;
    printf("escape attempts tried: %d\n", attempts);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bytecode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_string_metatable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_finalizers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runaway, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recursion, setup, teardown),
        cmocka_unit_test_setup_teardown(test_coroutines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_libraries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_allocations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lesson_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lesson_async, setup, teardown),
        cmocka_unit_test_setup_teardown(test_c_loops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lesson_frozen, setup, teardown),
        cmocka_unit_test_setup_teardown(test_grading, setup, teardown),
        cmocka_unit_test_setup_teardown(test_costs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_option_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nested_async, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, report);
}
