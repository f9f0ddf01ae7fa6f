/* test_lt.c - the Lua bridge: every forbidden thing refused, the memory cap, runaway code stopped
 * even inside pcall (and the VM usable afterwards), the lesson validator's file:line messages,
 * the markup parser, a lesson experiment run headless, exercise grading, and calls run the way the
 * TUI runs them (async: measurements on the worker, Lua in slices, cancel frees, ex:pause held
 * step by step, the en/zh pairs for L, feedback graded in both languages). */
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
#include "lt_int.h"
#include "lt_markup.h"

struct fixture {
    struct gpu_dev *dev;
    struct lt_runtime *rt;
    struct lt_vm *vm;
    char out[8192]; /* print() and events */
    int bars, rows, statuses;
};

static void sink(void *ud, const struct lt_event *ev)
{
    struct fixture *f = ud;
    size_t used = strlen(f->out);
    if (ev->type == LT_EV_PRINT) snprintf(f->out + used, sizeof f->out - used, "%s\n", lt_tx(ev->text, false));
    if (ev->type == LT_EV_BAR) f->bars++;
    if (ev->type == LT_EV_ROW) f->rows++;
    if (ev->type == LT_EV_STATUS) f->statuses++;
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    /* host experiments time short passes, as in every test (VRAMLAB_HOST_QUICK) */
    struct gpu_config c = {.datadir = ".", .deterministic = true, .cap_fraction = 0.9, .host_quick = true};
    char why[512], err[512];
    assert_int_equal(gpu_open("sim", &c, &f->dev, why, sizeof why), GPU_OK);
    f->rt = lt_runtime_new(f->dev, ".", lt_modules);
    struct lt_limits lim = {.mem_bytes = 16u << 20, .instructions = 5000000, .seconds = 5.0,
        .wall_seconds = 60.0};
    lt_runtime_set_limits(f->rt, &lim);
    lt_runtime_set_sink(f->rt, sink, f);
    f->vm = lt_vm_new(f->rt, err, sizeof err);
    assert_non_null(f->vm);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    lt_vm_free(f->vm);
    lt_runtime_free(f->rt);
    gpu_close(f->dev);
    free(f);
    return 0;
}

/* Run src; expect success and return the printed output. */
static const char *ok(struct fixture *f, const char *src)
{
    char err[1024];
    f->out[0] = 0;
    if (!lt_vm_dostring(f->vm, src, "test", err, sizeof err)) fail_msg("unexpected error: %s", err);
    return f->out;
}

/* Run src; expect an error containing want (or one of "a|b"). */
static void refused(struct fixture *f, const char *src, const char *want)
{
    char err[1024], alt[256];
    f->out[0] = 0;
    if (lt_vm_dostring(f->vm, src, "test", err, sizeof err)) fail_msg("not refused: %s", src);
    snprintf(alt, sizeof alt, "%s", want);
    for (char *a = strtok(alt, "|"); a; a = strtok(NULL, "|"))
        if (strstr(err, a)) return;
    fail_msg("error for %s was '%s', expected '%s'", src, err, want);
}

static void test_forbidden(void **state)
{
    struct fixture *f = *state;
    assert_string_equal(ok(f, "print(io, os.execute, os.exit, os.getenv, debug, package, dofile, "
                              "loadfile, string.dump, ('').dump, rawget(_G, 'collectgarbage') ~= "
                              "nil)"),
                        "nil\tnil\tnil\tnil\tnil\tnil\tnil\tnil\tnil\tnil\ttrue\n");
    assert_string_equal(ok(f, "print(getmetatable(''))"), "false\n");
    assert_string_equal(ok(f, "print(type(os.clock()), type(os.time()))"), "number\tnumber\n");
    refused(f, "setmetatable({}, {__gc = function() end})", "__gc");
    refused(f, "load('return 1', 'x', 'b')", "text-only");
    refused(f, "load(function() return nil end)", "source text only");
    refused(f, "require 'io'", "no module 'io'");
    refused(f, "collectgarbage('stop')", "collectgarbage only");
    refused(f, "load('\\27Lua')", "binary chunks");
    /* the string metatable cannot be reached or changed */
    refused(f, "getmetatable('').__index.rep = nil", "attempt to index");
    /* load gets the sandbox environment, not the real globals */
    assert_string_equal(ok(f, "print(load('return io')())"), "nil\n");
    /* replacing the sandbox's string functions does not reach trusted code */
    assert_string_equal(ok(f, "string.format = nil print(units.bytes(2^30))"), "1 GiB\n");
    /* buffer metatables are locked */
    assert_string_equal(ok(f, "local b = gpu.alloc(4096) print(getmetatable(b)) b:free()"),
                        "locked\n");
}

static void test_runaway(void **state)
{
    struct fixture *f = *state;
    refused(f, "while true do end", "sandbox limit");
    /* pcall cannot swallow it: the statement after the pcall never runs */
    refused(f, "pcall(function() while true do end end) print('escaped')", "sandbox limit");
    assert_null(strstr(f->out, "escaped"));
    refused(f, "for i = 1, 10 do pcall(function() while true do end end) end", "sandbox limit");
    refused(f, "local co = coroutine.wrap(function() while true do end end) pcall(co)",
            "sandbox limit");
    refused(f, "local function r() return r() + 1 end r()", "stack overflow|memory limit");
    /* limits reset: the same VM runs the next chunk */
    assert_string_equal(ok(f, "print(1 + 1)"), "2\n");
}

static void test_memory_cap(void **state)
{
    struct fixture *f = *state;
    refused(f, "local t = {} for i = 1, 1e8 do t[i] = i end", "memory limit of 16 MiB");
    refused(f, "local s = string.rep('x', 64 * 1024 * 1024)", "memory limit");
    /* a pcall sees the refusal as an error; the VM survives */
    assert_string_equal(ok(f, "print((pcall(string.rep, 'x', 1e9)))"), "false\n");
    assert_string_equal(ok(f, "print('alive')"), "alive\n");
}

static void test_gpu_module(void **state)
{
    struct fixture *f = *state;
    assert_string_equal(ok(f, "print(gpu.backend(), gpu.info().simulated, gpu.info().name)"),
                        "sim\ttrue\tNVIDIA GeForce RTX 3090\n");
    /* an impossible allocation: nil + message, and nothing allocated */
    assert_string_equal(ok(f, "local b, e = gpu.alloc(2^50) print(b, e:match('at most 90%%') "
                              "~= nil)"),
                        "nil\ttrue\n");
    assert_int_equal(f->dev->live_allocs, 0);
    refused(f, "local b = gpu.alloc(4096) b:free() b:size()", "used after :free()");
    refused(f, "gpu.alloc(-1)", "positive");
    refused(f, "gpu.copy{dir = 'sideways', bytes = 4096}", "dir must be one of h2d, d2h, d2d (got 'sideways')");
    refused(f, "gpu.copy{dir = 'd2d'}", "'bytes' must be given");
    ok(f, "do local b <close> = gpu.alloc(1 << 20) end");
    assert_int_equal(f->dev->live_allocs, 0); /* <close> freed it */
    assert_string_equal(ok(f, "local r = gpu.copy{dir='d2d', bytes='64MiB'} "
                              "print(r.simulated, r.rw_bytes_per_s == 2 * r.bytes_per_s, "
                              "r.samples, r.backend)"),
                        "true\ttrue\t10\tsim\n");
    assert_string_equal(ok(f, "local r = gpu.copy{dir='h2d', bytes=4096} print(r.rw_bytes_per_s)"),
                        "nil\n");
    assert_string_equal(ok(f, "print(units.parse('16GiB'), units.parse('1.5 GB'), "
                              "select(2, units.parse('936 GB/s')))"),
                        "17179869184\t1500000000\trate\n"); /* whole sizes are integers */
}

static char *write_lesson(const char *body)
{
    static char path[64];
    strcpy(path, "/tmp/vramlab-lesson-XXXXXX.lua");
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    fputs(body, fp);
    fclose(fp);
    return path;
}

static void expect_lesson_error(struct fixture *f, const char *body, int line, const char *want)
{
    char err[1024], prefix[128];
    char *path = write_lesson(body);
    struct lt_lesson *ls = lt_lesson_load(f->rt, path, err, sizeof err);
    unlink(path);
    if (ls) fail_msg("lesson accepted, expected '%s'", want);
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    if (strncmp(err, prefix, strlen(prefix)) || !strstr(err, want))
        fail_msg("got '%s', expected '%s...%s'", err, prefix, want);
}

#define HEAD "return lesson {\n id = '9.1', chapter = 9,\n" \
             " title = {en='T', zh='T'}, chapter_title = {en='C', zh='C'},\n"

static void test_validator(void **state)
{
    struct fixture *f = *state;
    expect_lesson_error(f, "return 42\n", 1, "must end with 'return lesson");
    expect_lesson_error(f, "return lesson {\n id = 'one', chapter = 1 }\n", 2, "'id' must look like");
    expect_lesson_error(f, HEAD "}\n", 1, "no blocks");
    expect_lesson_error(f, HEAD " text { en = 'x' },\n}\n", 4, "both languages");
    expect_lesson_error(f, HEAD "\n text { en = '| a | b |\\n| 1 |', zh = 'y' },\n}\n", 5,
                        "text (en), line 2: table row has 1 cells, its header has 2");
    expect_lesson_error(f, HEAD " text { en = '```\\ncode', zh = 'y' },\n}\n", 4,
                        "never closed");
    expect_lesson_error(f, HEAD " text { en = '> [!warning] x', zh = 'y' },\n}\n", 4,
                        "unknown callout");
    expect_lesson_error(f, HEAD " text { en = 'x', zh = 'y', fr = 'z' },\n}\n", 4,
                        "unknown field 'fr'");
    expect_lesson_error(f, HEAD " experiment { id = 'e', title = {en='a', zh='b'},\n"
                               "   panels = {}, run = function() end },\n}\n", 5,
                        "at least one panel"); /* each error at its field's line */
    expect_lesson_error(f, HEAD " experiment { id = 'e', title = {en='a', zh='b'},\n"
                               "   panels = {{id='p', kind='pie', title={en='a', zh='b'}}},\n"
                               "   run = function() end },\n}\n", 5, "kind must be one of bars, curve, gauge, map, table, timeline (got pie)");
    /* the key figure names a panel of the experiment that has a number; scale is a size */
    expect_lesson_error(f, HEAD " experiment { id = 'e', title = {en='a', zh='b'}, key = 'nope',\n"
                               "   panels = {{id='p', kind='bars', title={en='a', zh='b'}}},\n"
                               "   run = function() end },\n}\n", 4, "'key' must name one of its panels");
    expect_lesson_error(f, HEAD " experiment { id = 'e', title = {en='a', zh='b'}, key = 't',\n"
                               "   panels = {{id='t', kind='table', title={en='a', zh='b'}}},\n"
                               "   run = function() end },\n}\n", 4, "key panel 't' is a table");
    expect_lesson_error(f, HEAD " experiment { id = 'e', title = {en='a', zh='b'},\n"
                               "   panels = {{id='p', kind='bars', title={en='a', zh='b'}, scale=-1}},\n"
                               "   run = function() end },\n}\n", 5, "'scale' must be a positive number");
    expect_lesson_error(f, HEAD " experiment { id = 'e', title = {en='a', zh='b'},\n"
                               "   panels = {{id='c', kind='curve', title={en='a', zh='b'}, scale=5}},\n"
                               "   run = function() end },\n}\n", 5, "'scale' applies to bars and map panels only");
    expect_lesson_error(f, HEAD " exercise { id = 'q', kind = 'choice', prompt = {en='a', zh='b'},\n"
                               " explain = {en='a', zh='b'}, hints = {{en='h', zh='h'}},\n"
                               " choices = {{en='a', zh='b'}, {en='c', zh='d'}}, answer = 3 },\n}\n",
                        6, "answer must be the index");
    expect_lesson_error(f, HEAD " text { en = 'a', zh = 'b' },\n 'oops',\n}\n", 1,
                        "block 2 is not");
    expect_lesson_error(f, HEAD " text { en = 'a', zh = 'b' }\n text { en = 'c', zh = 'd' },\n}\n", 5,
                        "'}' expected");
    expect_lesson_error(f, HEAD " text { en = 'a', zh = 'b' },\n while true do end\n}\n", 5,
                        "unexpected symbol");
    expect_lesson_error(f, "local x = 0 while true do x = x + 1 end\n", 1, "sandbox limit");
    expect_lesson_error(f, "error('boom')\n", 1, "boom");
}

static void test_markup(void **state)
{
    struct lt_mk_doc d;
    char err[256];
    const char *src = "# Title\n\npara one\ncontinues\n\n- a\n  - b\n1. c\n\n| h1 | h2 |\n"
                      "|---|---|\n| 1 | 2 |\n\n```\n  code\n```\n> [!pitfall] Careful\n> body\n"
                      "\n中文一行\n中文二行\n";
    assert_int_equal(lt_markup_parse(src, strlen(src), &d, err, sizeof err), 0);
    assert_int_equal(d.n, 9);
    assert_int_equal(d.b[0].kind, LT_MK_HEADING);
    assert_string_equal(d.b[1].text, "para one continues");
    assert_int_equal(d.b[3].level, 1);
    assert_int_equal(d.b[4].number, 1);
    assert_int_equal(d.b[5].kind, LT_MK_TABLE);
    assert_int_equal(d.b[5].rows, 2);
    assert_string_equal(d.b[5].cells[3], "2");
    assert_string_equal(d.b[6].text, "  code");
    assert_int_equal(d.b[7].callout, LT_CALLOUT_pitfall);
    assert_string_equal(d.b[7].text, "Careful\nbody");
    lt_markup_free(&d);
    const char *cjk = "中文一行\n中文二行\n";
    assert_int_equal(lt_markup_parse(cjk, strlen(cjk), &d, err, sizeof err), 0);
    assert_string_equal(d.b[0].text, "中文一行中文二行"); /* no space between CJK lines */
    lt_markup_free(&d);
    const char *bad = "ok\n\n> plain quote\n";
    assert_int_equal(lt_markup_parse(bad, strlen(bad), &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 3:"));
    assert_string_equal(lt_callout_label(LT_CALLOUT_experience, "zh"), "个人经验");
}

/* Inline markup as runs: "[flags]text" each, the markers in none of them. */
static void span_str(void *ud, int sp, const char *p, size_t n)
{
    char *out = ud;
    size_t l = strlen(out);
    snprintf(out + l, 512 - l, "[%s%s%s]%.*s", sp & LT_SPAN_EM ? "b" : "", sp & LT_SPAN_ITALIC ? "i" : "",
             sp & LT_SPAN_CODE ? "c" : "", (int)n, p);
}

static const char *spans_of(const char *text)
{
    static char out[512];
    out[0] = 0;
    lt_markup_spans(text, span_str, out);
    return out;
}

static void test_markup_spans(void **state)
{
    (void)state;
    assert_string_equal(spans_of("a **b** c"), "[]a [b]b[] c");
    assert_string_equal(spans_of("as *allocated − requested*."), "[]as [i]allocated − requested[].");
    assert_string_equal(spans_of("记作*已分配 − 请求*。"), "[]记作[i]已分配 − 请求[]。");
    /* code inside strong: no backticks left (2.3's "**`torch.cuda.empty_cache()`**") */
    assert_string_equal(spans_of("- **`empty_cache()`** gives"), "[]- [bc]empty_cache()[] gives");
    assert_string_equal(spans_of("**x *y* z**"), "[b]x [bi]y[b] z");
    assert_string_equal(spans_of("*a `c` b*"), "[i]a [ic]c[i] b");
    /* products, lone stars and unclosed markers stay as written */
    assert_string_equal(spans_of("2*3*4 B"), "[]2*3*4 B");
    assert_string_equal(spans_of("a * b * c"), "[]a * b * c");
    assert_string_equal(spans_of("fits*"), "[]fits*");
    assert_string_equal(spans_of("**open"), "[]**open");
    assert_string_equal(spans_of("`open"), "[]`open");
    assert_string_equal(spans_of("*a*b"), "[]*a*b");
    /* no markup inside code */
    assert_string_equal(spans_of("`a*b*c`"), "[c]a*b*c");
    assert_string_equal(spans_of(""), "");
}

static void test_lesson_run_and_grade(void **state)
{
    struct fixture *f = *state;
    char err[1024], fb[1024];
    struct lt_lesson *ls = lt_lesson_load(f->rt, "lessons/ch01/1.3-vram-vs-ram.lua", err, sizeof err);
    if (!ls) fail_msg("%s", err);
    assert_string_equal(lt_lesson_id(ls), "1.3");
    int exp = -1, num = -1, choice = -1;
    for (int i = 0; i < lt_lesson_nblocks(ls); i++) {
        enum lt_block_kind k = lt_lesson_block_kind(ls, i);
        struct lt_exercise_info x;
        if (k == LT_BLOCK_EXPERIMENT && exp < 0) exp = i;
        if (k == LT_BLOCK_EXERCISE && lt_lesson_exercise(ls, i, &x)) {
            if (!strcmp(x.kind, "number")) num = i;
            if (!strcmp(x.kind, "choice")) choice = i;
        }
    }
    assert_true(exp >= 0 && num >= 0 && choice >= 0);
    struct lt_panel p[8];
    int np = lt_lesson_panels(ls, exp, p, 8), keys = 0;
    assert_true(np >= 2);
    /* the key figure's panel is marked, the others not; a declared scale comes through */
    for (int i = 0; i < np; i++) {
        keys += p[i].key;
        if (p[i].key) assert_string_equal(p[i].id, "ratio");
        if (!strcmp(p[i].id, "bw")) assert_true(p[i].scale > 999.999 && p[i].scale < 1000.001);
    }
    assert_int_equal(keys, 1);
    struct lt_limits lim = {.mem_bytes = 64u << 20, .instructions = 2000000000LL, .seconds = 60.0,
        .wall_seconds = 300.0};
    lt_runtime_set_limits(f->rt, &lim);
    f->dev->host_max = 8u << 20; /* the lesson sizes its host arrays by host.budget() */
    enum lt_run_state st = lt_lesson_run_start(ls, exp, err, sizeof err);
    while (st == LT_RUN_BUSY) st = lt_lesson_run_step(ls, err, sizeof err);
    if (st != LT_RUN_DONE) fail_msg("experiment failed: %s", err);
    assert_true(f->bars >= 3 && f->rows >= 4 && f->statuses >= 3);
    assert_int_equal(f->dev->live_allocs, 0); /* nothing outlives a run */
    /* grading: unreadable input is not a try; wrong gets a hint; right gets the explanation */
    assert_false(lt_lesson_answer(ls, num, "lots", fb, sizeof fb));
    assert_non_null(strstr(fb, "Type a number"));
    assert_false(lt_lesson_answer(ls, num, "10", fb, sizeof fb));
    assert_non_null(strstr(fb, "Divide"));
    assert_true(lt_lesson_answer(ls, num, "37.4", fb, sizeof fb));
    assert_non_null(strstr(fb, "936 / 25"));
    struct lt_exercise_info x;
    lt_lesson_exercise(ls, num, &x);
    assert_int_equal(x.tries, 2);
    assert_true(x.solved);
    /* three wrong tries reveal the answer */
    assert_false(lt_lesson_answer(ls, choice, "1", fb, sizeof fb));
    assert_false(lt_lesson_answer(ls, choice, "3", fb, sizeof fb));
    assert_false(lt_lesson_answer(ls, choice, "1", fb, sizeof fb));
    assert_non_null(strstr(fb, "PCIe link"));
    lt_runtime_set_lang(f->rt, "zh");
    assert_true(lt_lesson_answer(ls, choice, "2", fb, sizeof fb));
    assert_non_null(strstr(fb, "答对了"));
    assert_string_equal(lt_lesson_title(ls), "显存 vs 内存");
    lt_runtime_set_lang(f->rt, "en");
    lt_lesson_free(ls);
}

/* ex:pause as the tutor runs it (async): stepping holds each pause until the screen ends it,
 * lt_runtime_pauses counts them, and headless runs never pause; the en/zh pairs ex:t picks from
 * translate whole texts and known starts; graded in async mode, the feedback exists in both
 * languages. Polls only: a held pause waits for the key, whatever this machine's speed. */
static void test_steps_and_translations(void **state)
{
    struct fixture *f = *state;
    char err[1024], path[] = "/tmp/vramlab-test-steps-XXXXXX.lua";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    static const char src[] =
        "return lesson { id = '9.9', chapter = 9, chapter_title = { en = 'T', zh = '测' },\n"
        "  title = { en = 'Steps', zh = '分步' },\n"
        "  experiment { id = 'e', title = { en = 'E', zh = '实' },\n"
        "    panels = { { id = 't', kind = 'table', title = { en = 'T', zh = '表' } } },\n"
        "    run = function(ex)\n"
        "      for i = 1, 2 do\n"
        "        ex:row('t', { ex:t { en = 'Stage', zh = '阶段' }, ex:t { en = 'forward ', zh = '前向 ' } .. i })\n"
        "        ex:pause(5)\n"
        "      end\n"
        "    end },\n"
        "  exercise { id = 'n', kind = 'number', prompt = { en = 'Six times seven?', zh = '六乘七？' },\n"
        "    answer = 42, tolerance = 0.001, hints = { { en = 'Count by sevens.', zh = '七个七个地数。' } },\n"
        "    explain = { en = '6 x 7.', zh = '6 × 7。' } },\n"
        "}\n";
    assert_int_equal(write(fd, src, sizeof src - 1), (ssize_t)(sizeof src - 1));
    close(fd);
    struct lt_lesson *ls = lt_lesson_load(f->rt, path, err, sizeof err);
    unlink(path);
    if (!ls) fail_msg("%s", err);
    /* headless: straight through */
    unsigned p0 = lt_runtime_pauses(f->rt);
    enum lt_run_state st = lt_lesson_run_start(ls, 0, err, sizeof err);
    while (st == LT_RUN_BUSY) st = lt_lesson_run_step(ls, err, sizeof err);
    assert_int_equal(st, LT_RUN_DONE);
    assert_int_equal(lt_runtime_pauses(f->rt), p0);
    /* the tutor, step by step: each pause holds until pause_next */
    lt_runtime_set_async(f->rt, true);
    lt_runtime_set_stepping(f->rt, true);
    st = lt_lesson_run_start(ls, 0, err, sizeof err);
    for (unsigned want = p0 + 1; want <= p0 + 2; want++) {
        while (st == LT_RUN_BUSY && !lt_runtime_pausing(f->rt)) {
            usleep(1000);
            st = lt_lesson_run_step(ls, err, sizeof err);
        }
        assert_int_equal(st, LT_RUN_BUSY);
        assert_int_equal(lt_runtime_pauses(f->rt), want);
        for (int i = 0; i < 20; i++) { /* held: stepping ignores the 5 s */
            usleep(1000);
            assert_int_equal(lt_lesson_run_step(ls, err, sizeof err), LT_RUN_BUSY);
        }
        assert_true(lt_runtime_pausing(f->rt));
        lt_runtime_pause_next(f->rt);
        /* this pause ends; the run goes on to the next one (or to its end) */
        while (st == LT_RUN_BUSY && lt_runtime_pausing(f->rt) && lt_runtime_pauses(f->rt) == want) {
            usleep(1000);
            st = lt_lesson_run_step(ls, err, sizeof err);
        }
    }
    while (st == LT_RUN_BUSY) {
        usleep(1000);
        st = lt_lesson_run_step(ls, err, sizeof err);
    }
    assert_int_equal(st, LT_RUN_DONE);
    lt_runtime_set_stepping(f->rt, false);
    /* the pairs ex:t picked from */
    char buf[256];
    assert_string_equal(lt_runtime_translate(f->rt, "Stage", "zh", buf, sizeof buf), "阶段");
    assert_string_equal(lt_runtime_translate(f->rt, "阶段", "en", buf, sizeof buf), "Stage");
    assert_string_equal(lt_runtime_translate(f->rt, "forward 2", "zh", buf, sizeof buf), "前向 2");
    const char *same = "forwardly";
    assert_ptr_equal(lt_runtime_translate(f->rt, same, "zh", buf, sizeof buf), same);
    /* graded live: the feedback in both languages */
    st = lt_lesson_answer_start(ls, 1, "40", err, sizeof err);
    while (st == LT_RUN_BUSY) {
        usleep(1000);
        st = lt_lesson_run_step(ls, err, sizeof err);
    }
    const char *en = lt_lesson_answer_feedback(ls, "en"), *zh = lt_lesson_answer_feedback(ls, "zh");
    assert_non_null(en);
    assert_non_null(zh);
    assert_non_null(strstr(en, "Count by sevens"));
    assert_non_null(strstr(zh, "七个七个地数"));
    lt_runtime_set_async(f->rt, false);
    lt_lesson_free(ls);
}

/* Async (the TUI's mode): a REPL entry that measures comes back BUSY at once and finishes when
 * stepped; Lua that computes for long yields in slices and is still stopped by the limit; a
 * cancel frees what the entry allocated and the VM goes on; one call at a time per runtime. */
static void test_async_calls(void **state)
{
    struct fixture *f = *state;
    char out[2048];
    struct lt_limits lim = {.mem_bytes = 64u << 20, .instructions = 2000000000LL, .seconds = 60.0,
        .wall_seconds = 300.0};
    lt_runtime_set_limits(f->rt, &lim);
    lt_runtime_set_async(f->rt, true);
    lt_vm_repl_setup(f->vm);
    /* a measurement: BUSY first (the worker has it), then the value */
    enum lt_eval_status st = lt_vm_eval(f->vm, "host.latency{bytes = '2MiB'}.ns_per_load > 0", out, sizeof out);
    assert_int_equal(st, LT_EVAL_BUSY);
    while (st == LT_EVAL_BUSY) {
        usleep(1000);
        st = lt_vm_eval_step(f->vm, out, sizeof out);
    }
    assert_int_equal(st, LT_EVAL_OK);
    assert_string_equal(out, "true");
    /* pure Lua stepped in slices ends with its value (how many slices it takes depends on this
     * machine's speed: not asserted) */
    st = lt_vm_eval(f->vm, "local x = 0 for i = 1, 3e7 do x = x + i end return x", out, sizeof out);
    while (st == LT_EVAL_BUSY) st = lt_vm_eval_step(f->vm, out, sizeof out);
    assert_int_equal(st, LT_EVAL_OK);
    assert_string_equal(out, "450000015000000");
    /* the instruction limit still applies across slices */
    struct lt_limits small = {.mem_bytes = 64u << 20, .instructions = 20000000LL, .seconds = 60.0,
        .wall_seconds = 300.0};
    lt_runtime_set_limits(f->rt, &small);
    st = lt_vm_eval(f->vm, "while true do end", out, sizeof out);
    while (st == LT_EVAL_BUSY) st = lt_vm_eval_step(f->vm, out, sizeof out);
    assert_int_equal(st, LT_EVAL_ERROR);
    assert_non_null(strstr(out, "sandbox limit"));
    lt_runtime_set_limits(f->rt, &lim);
    /* cancel: the entry's buffer goes, the VM answers the next entry */
    long before = f->dev->live_allocs;
    st = lt_vm_eval(f->vm, "keep = gpu.alloc(1 << 20) return host.latency{bytes = '256MiB'}", out, sizeof out);
    assert_int_equal(st, LT_EVAL_BUSY);
    assert_int_equal(f->dev->live_allocs, before + 1);
    /* while it runs, nothing else starts */
    char err[512];
    struct lt_lesson *ls = lt_lesson_load(f->rt, "lessons/ch01/1.3-vram-vs-ram.lua", err, sizeof err);
    if (!ls) fail_msg("%s", err);
    int exp = -1;
    for (int i = 0; i < lt_lesson_nblocks(ls) && exp < 0; i++)
        if (lt_lesson_block_kind(ls, i) == LT_BLOCK_EXPERIMENT) exp = i;
    assert_int_equal(lt_lesson_run_start(ls, exp, err, sizeof err), LT_RUN_FAILED);
    assert_non_null(strstr(err, "is running"));
    lt_vm_eval_cancel(f->vm);
    assert_int_equal(f->dev->live_allocs, before);
    assert_int_equal(lt_vm_eval(f->vm, "keep:size()", out, sizeof out), LT_EVAL_ERROR);
    assert_non_null(strstr(out, "used after :free()"));
    assert_int_equal(lt_vm_eval(f->vm, "6 * 7", out, sizeof out), LT_EVAL_OK);
    assert_string_equal(out, "42");
    /* a predict grading, async: BUSY while it measures; a cancel is not a try. The lesson's
     * STREAM arrays are sized by host.budget(): small here (gpu_config.host_max) */
    f->dev->host_max = 8u << 20;
    int pred = -1;
    for (int i = 0; i < lt_lesson_nblocks(ls) && pred < 0; i++) {
        struct lt_exercise_info x;
        if (lt_lesson_exercise(ls, i, &x) && !strcmp(x.kind, "predict")) pred = i;
    }
    assert_true(pred >= 0);
    assert_int_equal(lt_lesson_answer_start(ls, pred, "20", err, sizeof err), LT_RUN_BUSY);
    assert_true(lt_lesson_run_grading(ls));
    lt_lesson_run_cancel(ls);
    struct lt_exercise_info x;
    lt_lesson_exercise(ls, pred, &x);
    assert_int_equal(x.tries, 0);
    enum lt_run_state rs = lt_lesson_answer_start(ls, pred, "20", err, sizeof err);
    while (rs == LT_RUN_BUSY) usleep(1000), rs = lt_lesson_run_step(ls, err, sizeof err);
    assert_int_equal(rs, LT_RUN_DONE);
    char fb[1024];
    (void)lt_lesson_answer_result(ls, fb, sizeof fb);
    assert_non_null(strstr(fb, "Measured on this machine"));
    assert_non_null(strstr(fb, "(measured)")); /* STREAM on the host: real on the simulator */
    lt_lesson_exercise(ls, pred, &x);
    assert_int_equal(x.tries, 1);
    /* the next try is graded against the figure shown, not a new (noisy) measurement */
    double shown = 0;
    const char *at = strstr(fb, "Measured on this machine: ");
    assert_non_null(at);
    assert_int_equal(sscanf(at + 26, "%lf", &shown), 1);
    char again[64];
    snprintf(again, sizeof again, "%.4g", shown);
    lt_runtime_set_async(f->rt, false);
    assert_true(lt_lesson_answer(ls, pred, again, fb, sizeof fb));
    assert_non_null(strstr(fb, again));
    lt_lesson_free(ls);
    lt_runtime_set_async(f->rt, false);
}

static void test_catalog(void **state)
{
    struct fixture *f = *state;
    struct lt_catalog_entry *e;
    int n = lt_catalog_scan(f->rt, "lessons", &e);
    assert_true(n >= 1);
    for (int i = 0; i < n; i++) {
        if (e[i].error) fail_msg("%s", e[i].error);
        if (i) assert_true(e[i - 1].chapter <= e[i].chapter);
    }
    lt_catalog_free(e, n);
}

/* What the watchdog prints of what runs is escaped when the label is made: the watchdog thread
 * may not allocate, so it copies the label as it is (a file name or a REPL entry holds anything). */
static void test_label_escaped(void **state)
{
    struct fixture *f = *state;
    struct lt_activity a;
    lt_vm_label(f->vm, "file %s", "run\x1b]52;c;UFdORUQ=\a\nFORGED\r\xc2\x85.lua");
    lt_vm_publish(f->vm, true);
    lt_runtime_activity(f->rt, &a);
    assert_string_equal(a.what, "file run\\x1b]52;c;UFdORUQ=\\x07\\x0aFORGED\\x0d\\u0085.lua");
    lt_vm_publish(f->vm, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_forbidden, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runaway, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memory_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpu_module, setup, teardown),
        cmocka_unit_test_setup_teardown(test_validator, setup, teardown),
        cmocka_unit_test(test_markup),
        cmocka_unit_test(test_markup_spans),
        cmocka_unit_test_setup_teardown(test_lesson_run_and_grade, setup, teardown),
        cmocka_unit_test_setup_teardown(test_async_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_steps_and_translations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_catalog, setup, teardown),
        cmocka_unit_test_setup_teardown(test_label_escaped, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
