/* test_tui_record.c - recordings: the JSON-lines reader (escapes, surrogates, errors with their
 * column), a record -> replay round trip of every lt_event field on the simulator, a truncated
 * last line (a crash while writing) still replaying, the REPLAY label, the player's pacing, and
 * the presenter's big font. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu.h"
#include "lt.h"
#include "tui_bigfont.h"
#include "tui_jsonl.h"
#include "tui_record.h"

static void test_jsonl(void **s)
{
    struct tui_jobj o;
    char err[128];
    assert_true(tui_jsonl_parse("{\"a\":\"x\\\"y\\n\\u00e9\\ud83d\\ude00\",\"n\":-1.5e3,\"b\":true,"
                                "\"z\":null,\"c\":[\"p\",2]} ", &o, err, sizeof err));
    assert_string_equal(tui_jobj_str(&o, "a", NULL), "x\"y\né😀");
    assert_true(tui_jobj_num(&o, "n", 0) == -1500);
    assert_true(tui_jobj_bool(&o, "b", false));
    assert_true(isnan(tui_jobj_num(&o, "z", 0)));
    const struct tui_jval *c = tui_jobj_get(&o, "c");
    assert_int_equal(c->nitems, 2);
    assert_string_equal(c->items[1], "2");
    assert_string_equal(tui_jobj_str(&o, "missing", "def"), "def");
    tui_jobj_free(&o);
    static const char *const bad[] = {"", "[1]", "{\"a\":1", "{\"a\" 1}", "{\"a\":\"\\x\"}",
                                      "{\"a\":{}}", "{\"a\":\"\\ud800\"}", "{\"a\":1} x",
                                      "{\"a\":tru}", "{\"a\":\"cut"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_false(tui_jsonl_parse(bad[i], &o, err, sizeof err));
        assert_non_null(strstr(err, "column"));
    }
}

struct fx {
    struct gpu_dev *dev;
    struct lt_runtime *rt;
    char path[64];
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    char why[256];
    struct gpu_config c = {.datadir = ".", .deterministic = true, .cap_fraction = 0.9};
    assert_int_equal(gpu_open("sim", &c, &f->dev, why, sizeof why), GPU_OK);
    f->rt = lt_runtime_new(f->dev, ".", lt_modules);
    strcpy(f->path, "/tmp/vramlab-rec-XXXXXX");
    int fd = mkstemp(f->path);
    assert_true(fd >= 0);
    close(fd);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    unlink(f->path);
    lt_runtime_free(f->rt);
    gpu_close(f->dev);
    free(f);
    return 0;
}

static struct lt_event got[8]; /* its strings and arrays are the replay's: used before it goes */
static int ngot;
static void collect(void *ud, const struct lt_event *ev)
{
    if (ngot < 8) got[ngot] = *ev;
    ngot++;
}

static void test_round_trip(void **state)
{
    struct fx *f = *state;
    char err[512];
    struct tui_rec *r = tui_rec_open(f->path, f->rt, "test", err, sizeof err);
    assert_non_null(r);
    /* texts in both languages where the lesson had a pair; a map's blocks typed */
    struct lt_event bar = {.type = LT_EV_BAR, .panel = "bw", .series = {{"VRAM \"D2D\"\n", "显存 D2D"}},
                           .unit = lt_text1("GB/s"), .value = 813.75, .style = LT_SIMULATED};
    struct lt_event pt = {.type = LT_EV_POINT, .panel = "sweep", .series = lt_text1("H2D"),
                          .x = 4096, .y = NAN, .style = LT_MEASURED};
    const struct lt_text cells[] = {lt_text1("a,b"), {{"VRAM", "显存"}}};
    struct lt_event row = {.type = LT_EV_ROW, .panel = "t", .ncells = 2, .cells = cells};
    const struct lt_map_block blocks[] = {{{{"weights", "权重"}}, LT_MAP_ALLOCATED, 3ull << 40, 1},
                                          {{{"a:b:c", "a:b:c"}}, LT_MAP_PENDING, 512, 2}};
    struct lt_event map = {.type = LT_EV_MAP, .panel = "m", .value = 4e12, .nblocks = 2, .blocks = blocks};
    tui_rec_begin(r, "1.3", "measure", "Measure");
    tui_rec_event(r, &bar);
    tui_rec_event(r, &pt);
    tui_rec_event(r, &row);
    tui_rec_event(r, &map);
    tui_rec_end(r, LT_RUN_DONE, "");
    tui_rec_begin(r, "1.3", "measure", "Measure");
    tui_rec_event(r, &bar);
    tui_rec_end(r, LT_RUN_FAILED, "boom");
    assert_null(tui_rec_error(r));
    assert_true(tui_rec_close(r, true, err, sizeof err));

    struct tui_replay *rp = tui_replay_load(f->path, err, sizeof err);
    assert_non_null(rp);
    assert_true(rp->simulated);
    assert_string_equal(rp->gpu, f->dev->info.name);
    assert_int_equal(rp->nruns, 2);
    const struct tui_replay_run *run = tui_replay_find(rp, "1.3", "measure");
    assert_int_equal(run->run, 1); /* the last run that finished, not the failed one */
    assert_int_equal(run->nev, 4);
    assert_null(tui_replay_find(rp, "1.3", "other"));
    char label[256];
    tui_replay_label(rp, label, sizeof label);
    assert_non_null(strstr(label, "REPLAY · "));
    assert_non_null(strstr(label, f->dev->info.name));

    struct tui_player pl;
    ngot = 0;
    tui_player_start(&pl, run, 0, 0); /* all at once */
    assert_true(tui_player_step(&pl, 0, collect, NULL));
    assert_int_equal(ngot, 4);
    assert_int_equal(got[0].type, LT_EV_BAR);
    /* a label is one line: its line break escaped as it is read (lt_event_cut) */
    assert_string_equal(lt_tx(got[0].series, false), "VRAM \"D2D\"\\x0a");
    assert_string_equal(lt_tx(got[0].series, true), "显存 D2D");
    assert_string_equal(lt_tx(got[0].unit, true), "GB/s");
    assert_true(got[0].value == 813.75);
    assert_int_equal(got[0].style, LT_SIMULATED);
    assert_true(got[1].x == 4096 && isnan(got[1].y)); /* NaN travels as null */
    assert_int_equal(got[2].ncells, 2);
    assert_string_equal(lt_tx(got[2].cells[0], true), "a,b");
    assert_string_equal(lt_tx(got[2].cells[1], false), "VRAM");
    assert_string_equal(lt_tx(got[2].cells[1], true), "显存");
    assert_int_equal(got[3].nblocks, 2);
    assert_string_equal(lt_tx(got[3].blocks[0].owner, true), "权重");
    assert_int_equal(got[3].blocks[0].state, LT_MAP_ALLOCATED);
    assert_int_equal(got[3].blocks[0].bytes, 3ull << 40);
    assert_int_equal(got[3].blocks[0].seg, 1);
    assert_string_equal(lt_tx(got[3].blocks[1].owner, false), "a:b:c"); /* colons are text */
    assert_int_equal(got[3].blocks[1].state, LT_MAP_PENDING);
    assert_int_equal(got[3].blocks[1].bytes, 512);
    tui_replay_free(rp);

    /* a crash in the middle of a line: everything before it still replays */
    FILE *fp = fopen(f->path, "a");
    fputs("{\"type\":\"event\",\"run\":1,\"t\":0.5,\"ev\":\"bar\",\"pan", fp);
    fclose(fp);
    rp = tui_replay_load(f->path, err, sizeof err);
    assert_non_null(rp);
    assert_int_equal(rp->bad_lines, 1);
    assert_int_equal(tui_replay_find(rp, "1.3", "measure")->nev, 4);
    tui_replay_free(rp);

    /* not a recording */
    fp = fopen(f->path, "w");
    fputs("{\"type\":\"lesson\"}\n", fp);
    fclose(fp);
    assert_null(tui_replay_load(f->path, err, sizeof err));
    assert_non_null(strstr(err, "not a vramlab recording"));
}

/* A recording written by hand: a header, then the given lines. */
static const char *write_rec(const char *lines)
{
    static char path[64];
    strcpy(path, "/tmp/vramlab-rec2-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("{\"type\":\"header\",\"format\":\"vramlab-record\",\"version\":1,\"gpu\":\"G\"}\n", f);
    fputs(lines, f);
    fclose(f);
    return path;
}

static void test_player_pace(void **s)
{
    const char *path = write_rec(
        "{\"type\":\"run\",\"run\":1,\"lesson\":\"1.1\",\"experiment\":\"e\"}\n"
        "{\"type\":\"event\",\"run\":1,\"t\":0,\"ev\":\"status\",\"text\":\"x\"}\n"
        "{\"type\":\"event\",\"run\":1,\"t\":5,\"ev\":\"status\",\"text\":\"x\"}\n"
        "{\"type\":\"event\",\"run\":1,\"t\":10,\"ev\":\"status\",\"text\":\"x\"}\n");
    char err[512];
    struct tui_replay *rp = tui_replay_load(path, err, sizeof err);
    unlink(path);
    assert_non_null(rp);
    const struct tui_replay_run *run = tui_replay_find(rp, "1.1", "e");
    assert_non_null(run);
    struct tui_player pl;
    ngot = 0;
    tui_player_start(&pl, run, 100, 2.0); /* 10 s recorded, played in 2 s */
    assert_false(tui_player_step(&pl, 100, collect, NULL));
    assert_int_equal(ngot, 1);
    assert_false(tui_player_step(&pl, 101, collect, NULL));
    assert_int_equal(ngot, 2);
    assert_true(tui_player_step(&pl, 102, collect, NULL));
    assert_int_equal(ngot, 3);
    tui_replay_free(rp);
}

/* Numbers read from a recording are range-checked before any cast: a run number that is huge,
 * negative, fractional, NaN-like (null) or past 2^63 makes that line a bad line, nothing else. */
static void test_numbers_out_of_range(void **s)
{
    static const char *const runs[] = {"1e300", "-1e300", "1.5", "null", "9223372036854775808",
                                       "18446744073709551616", "-1", "0", "1e9", "\"1\"", "true",
                                       "2147483648", "-2147483649", "4294967297"};
    char lines[4096], err[512];
    size_t len = 0;
    len += (size_t)snprintf(lines + len, sizeof lines - len,
                            "{\"type\":\"run\",\"run\":1,\"lesson\":\"1.1\",\"experiment\":\"e\"}\n");
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++)
        len += (size_t)snprintf(lines + len, sizeof lines - len,
                                "{\"type\":\"event\",\"run\":%s,\"ev\":\"clear\"}\n"
                                "{\"type\":\"end\",\"run\":%s,\"state\":\"failed\"}\n"
                                "{\"type\":\"run\",\"run\":%s,\"lesson\":\"x\",\"experiment\":\"y\"}\n",
                                runs[i], runs[i], runs[i]);
    snprintf(lines + len, sizeof lines - len, "{\"type\":\"event\",\"run\":1,\"ev\":\"clear\"}\n");
    const char *path = write_rec(lines);
    struct tui_replay *rp = tui_replay_load(path, err, sizeof err);
    unlink(path);
    assert_non_null(rp);
    assert_int_equal(rp->nruns, 1);
    assert_int_equal(rp->bad_lines, 3 * (int)(sizeof runs / sizeof *runs));
    assert_int_equal(rp->runs[0].nev, 1);
    assert_string_equal(rp->runs[0].state, "incomplete");
    tui_replay_free(rp);
    /* the JSON reader refuses numbers past double's range rather than making them inf */
    struct tui_jobj o;
    assert_false(tui_jsonl_parse("{\"run\":1e400}", &o, err, sizeof err));
    assert_non_null(strstr(err, "out of range"));
    long long v;
    assert_true(tui_jsonl_parse("{\"a\":4,\"b\":4.5,\"c\":-3,\"d\":\"4\"}", &o, err, sizeof err));
    assert_true(tui_jobj_int(&o, "a", 1, 10, &v) && v == 4);
    assert_false(tui_jobj_int(&o, "b", 1, 10, &v));
    assert_false(tui_jobj_int(&o, "c", 1, 10, &v));
    assert_false(tui_jobj_int(&o, "d", 1, 10, &v));
    assert_false(tui_jobj_int(&o, "missing", 1, 10, &v));
    tui_jobj_free(&o);
}

/* a sanitizer's shadow memory (AddressSanitizer's red zones, ThreadSanitizer's shadow) is memory
 * of its own: the memory bound below is the normal build's */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#if (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)) && !defined(UNDER_ASAN)
#define UNDER_ASAN 1
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
    if (f) fclose(f);
    return kib;
}

/* Big or hostile recordings: the event limit refuses the file with a message naming it; many
 * runs with events all pointing at the first run load in one pass (the run lookup is hashed);
 * and memory grows with the file, not ten times faster. */
static void test_recording_limits(void **s)
{
    char path[] = "/tmp/vramlab-rec3-XXXXXX", err[512];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("{\"type\":\"header\",\"format\":\"vramlab-record\",\"version\":1}\n", f);
    for (int r = 1; r <= 10000; r++)
        fprintf(f, "{\"type\":\"run\",\"run\":%d,\"lesson\":\"1.%d\",\"experiment\":\"e\"}\n", r, r);
    for (int i = 0; i < 200000; i++) fputs("{\"type\":\"event\",\"run\":1,\"ev\":\"clear\"}\n", f);
    long size = ftell(f);
    fclose(f);
    long before = rss_kib();
    struct tui_replay *rp = tui_replay_load(path, err, sizeof err);
    long after = rss_kib();
    assert_non_null(rp);
    assert_int_equal(rp->nruns, 10000);
    assert_int_equal(rp->runs[0].nev, 200000);
    assert_int_equal(rp->bad_lines, 0);
    assert_ptr_equal(tui_replay_find(rp, "1.10000", "e"), &rp->runs[9999]);
    /* the old reader took about ten times the file; allow three (not under AddressSanitizer,
     * whose red zones and quarantine are memory of its own) */
#if !UNDER_ASAN
    if (before > 0 && after > 0 && (after - before) * 1024 > 3 * size)
        fail_msg("loading %ld bytes took %ld KiB", size, after - before);
#endif
    print_message("loading %ld bytes took %ld KiB\n", size, after - before);
    tui_replay_free(rp);
    /* one event past the limit: refused, with the limit in the message */
    f = fopen(path, "w");
    fputs("{\"type\":\"header\",\"format\":\"vramlab-record\",\"version\":1}\n"
          "{\"type\":\"run\",\"run\":7,\"lesson\":\"1.1\",\"experiment\":\"e\"}\n", f);
    for (int i = 0; i <= 1000; i++) fputs("{\"type\":\"event\",\"run\":7,\"ev\":\"clear\"}\n", f);
    fclose(f);
    assert_non_null(rp = tui_replay_load_max(path, 1001, err, sizeof err));
    tui_replay_free(rp);
    assert_null(tui_replay_load_max(path, 1000, err, sizeof err));
    assert_non_null(strstr(err, ":1003: more than 1000 events"));
    assert_non_null(strstr(err, path));
    unlink(path);
}

/* A recording is held to a live run's limits as it is read (lt_event_cut, LT_RUN_TEXT_MAX):
 * each cell, label and text cut with "…" (Chinese too), ids longer than a lesson's skipped, and
 * a run whose text passes the budget ends "failed" there with the live run's message, the events
 * after it dropped, whatever its end line says. */
static void test_recording_text_cut(void **s)
{
    char path[] = "/tmp/vramlab-rec4-XXXXXX", err[512];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    char *big = malloc(70000);
    assert_non_null(big);
    memset(big, 'y', 69999), big[69999] = 0;
    fprintf(f, "{\"type\":\"header\",\"format\":\"vramlab-record\",\"version\":2,\"gpu\":\"%s\"}\n"
               "{\"type\":\"run\",\"run\":1,\"lesson\":\"9.1\",\"experiment\":\"e\",\"title\":\"%s\"}\n"
               "{\"type\":\"run\",\"run\":2,\"lesson\":\"%s\",\"experiment\":\"e\"}\n",
            big, big, big);
    fprintf(f, "{\"type\":\"event\",\"run\":1,\"ev\":\"row\",\"panel\":\"t\",\"cells\":[\"%s\",\"a\"],"
               "\"cells_zh\":[\"%s\",\"b\"]}\n", big, big);
    fprintf(f, "{\"type\":\"event\",\"run\":1,\"ev\":\"note\",\"panel\":\"t\",\"text\":\"%s\"}\n", big);
    /* 4 MiB of 4 KiB notes: the run stops at the one that passes it */
    for (int i = 0; i < 1100; i++)
        fprintf(f, "{\"type\":\"event\",\"run\":1,\"ev\":\"print\",\"text\":\"%d%.5000s\"}\n", i, big);
    fputs("{\"type\":\"end\",\"run\":1,\"state\":\"done\",\"error\":\"\"}\n", f);
    fclose(f);
    free(big);
    struct tui_replay *rp = tui_replay_load(path, err, sizeof err);
    assert_non_null(rp);
    assert_int_equal(rp->nruns, 1); /* run 2's lesson id is longer than any lesson's */
    assert_int_equal(rp->bad_lines, 1);
    assert_int_equal(strlen(rp->gpu), LT_EV_LABEL_MAX);
    const struct tui_replay_run *r = &rp->runs[0];
    assert_int_equal(strlen(r->title), LT_EV_LABEL_MAX);
    struct lt_event ev;
    tui_replay_get(r, 0, &ev);
    assert_int_equal(ev.ncells, 2);
    for (int z = 0; z < 2; z++) {
        const char *c = ev.cells[0].s[z];
        assert_int_equal(strlen(c), LT_EV_LABEL_MAX);
        assert_string_equal(c + LT_EV_LABEL_MAX - 3, "\xe2\x80\xa6");
    }
    assert_string_equal(ev.cells[1].s[1], "b");
    tui_replay_get(r, 1, &ev);
    assert_int_equal(strlen(lt_tx(ev.text, false)), LT_EV_TEXT_MAX);
    /* 4 MiB / 4 KiB a print: about a thousand kept, not 1100, and the run failed there */
    assert_in_range(r->nev, 1000, 1030);
    assert_string_equal(r->state, "failed");
    assert_non_null(strstr(r->error, "more than 4 MiB of text"));
    tui_replay_free(rp);
    unlink(path);
}

/* The writer never writes what the replay refuses: at the event limit the recording stops, the
 * run then recorded ends "failed" saying why, later runs are not recorded, and the file is kept
 * and loads (it was refused whole: "more than N events"). */
static void test_recording_full(void **state)
{
    struct fx *f = *state;
    char err[512];
    struct tui_rec *r = tui_rec_open_max(f->path, f->rt, "test", 10, err, sizeof err);
    assert_non_null(r);
    struct lt_event ev = {.type = LT_EV_PRINT, .text = lt_text1("x")};
    tui_rec_begin(r, "1.1", "e", "E");
    for (int i = 0; i < 15; i++) tui_rec_event(r, &ev);
    tui_rec_end(r, LT_RUN_DONE, "");
    tui_rec_begin(r, "1.2", "e", "E");
    tui_rec_event(r, &ev);
    tui_rec_end(r, LT_RUN_DONE, "");
    assert_null(tui_rec_error(r));
    assert_non_null(tui_rec_full(r));
    assert_non_null(strstr(tui_rec_full(r), "what a replay reads (10 events"));
    assert_true(tui_rec_close(r, false, err, sizeof err));
    struct tui_replay *rp = tui_replay_load_max(f->path, 10, err, sizeof err);
    assert_non_null(rp);
    assert_int_equal(rp->nruns, 1);
    assert_int_equal(rp->runs[0].nev, 10);
    assert_string_equal(rp->runs[0].state, "failed");
    assert_non_null(strstr(rp->runs[0].error, "the recording stopped"));
    assert_int_equal(rp->bad_lines, 0);
    tui_replay_free(rp);
}

static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Shipped recordings offered by the tutor: read by their headers only, real GPUs before
 * simulated ones, newest first, each labelled as its header says; anything else is skipped. */
static void test_recordings_offer(void **s)
{
    char dir[] = "/tmp/vramlab-offer-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *h = "{\"type\":\"header\",\"format\":\"vramlab-record\",\"version\":1,";
    char line[512];
    snprintf(line, sizeof line, "%s\"gpu\":\"NVIDIA GeForce RTX 3090\",\"simulated\":true,"
             "\"date\":\"2026-03-01T10:00:00+0000\"}\n", h);
    put(dir, "a-sim-old.jsonl", line);
    snprintf(line, sizeof line, "%s\"gpu\":\"NVIDIA GeForce RTX 3090\",\"simulated\":true,"
             "\"date\":\"2026-06-01T10:00:00+0000\"}\n", h);
    put(dir, "b-sim-new.jsonl", line);
    snprintf(line, sizeof line, "%s\"gpu\":\"NVIDIA H200\",\"simulated\":false,"
             "\"date\":\"2026-01-01T10:00:00+0000\"}\n", h);
    put(dir, "c-gpu.jsonl", line);
    put(dir, "d-not-a-recording.jsonl", "{\"type\":\"run\"}\n");
    put(dir, "e-notes.txt", line);
    struct tui_rec_offer o[8];
    assert_int_equal(tui_recordings_scan(dir, o, 8), 3);
    assert_string_equal(o[0].machine, "NVIDIA H200");
    assert_false(o[0].simulated);
    assert_string_equal(o[0].label, "REPLAY · NVIDIA H200 · 2026-01-01 10:00");
    assert_string_equal(o[1].machine, "NVIDIA GeForce RTX 3090 (SIMULATED)");
    assert_non_null(strstr(o[1].path, "b-sim-new.jsonl"));
    assert_non_null(strstr(o[2].path, "a-sim-old.jsonl"));
    assert_int_equal(tui_recordings_scan("/nonexistent-dir", o, 8), 0);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_bigfont(void **s)
{
    char buf[32];
    tui_big_number(2840.77, buf, sizeof buf);
    assert_string_equal(buf, "2841");
    tui_big_number(813.75, buf, sizeof buf);
    assert_string_equal(buf, "813.8");
    tui_big_number(2.5, buf, sizeof buf);
    assert_string_equal(buf, "2.5");
    tui_big_number(1e12, buf, sizeof buf);
    assert_string_equal(buf, "1000000000000");
    tui_big_number(NAN, buf, sizeof buf);
    assert_string_equal(buf, "n/a");
    assert_int_equal(tui_big_width("1"), 4);
    assert_int_equal(tui_big_width("1.5"), 4 + 1 + 1 + 1 + 4);
    assert_int_equal(tui_big_width("12 GB/s") > 0, 1);
    assert_int_equal(tui_big_width("n/a"), -1); /* 'a' has no glyph */
    struct tui_lines L = {0};
    assert_true(tui_big_render(&L, "42 GiB", true, TS_MEASURED));
    assert_int_equal(L.n, TUI_BIG_ROWS);
    for (int i = 0; i < L.n; i++) assert_int_equal(L.v[i].width, tui_big_width("42 GiB"));
    assert_false(tui_big_render(&L, "?", true, TS_MEASURED));
    assert_int_equal(L.n, TUI_BIG_ROWS);
    tui_lines_free(&L);
    /* scaled for a projector: the largest scale that fits both ways, k x k cells a dot */
    int w = tui_big_width("12.5 GB/s");
    assert_int_equal(tui_big_fit("12.5 GB/s", w - 1, 50), 0);            /* not even at 1 */
    assert_int_equal(tui_big_fit("12.5 GB/s", w, 4), 0);
    assert_int_equal(tui_big_fit("12.5 GB/s", w, 5), 1);
    assert_int_equal(tui_big_fit("12.5 GB/s", 3 * w + 2, 100), 3);       /* the width limits */
    assert_int_equal(tui_big_fit("12.5 GB/s", 1000, 4 * TUI_BIG_ROWS + 4), 4); /* the rows */
    assert_int_equal(tui_big_fit("?", 1000, 1000), 0);
    assert_true(tui_big_render_scaled(&L, "12.5 GB/s", 3, 7, false, TS_MEASURED));
    assert_int_equal(L.n, 3 * TUI_BIG_ROWS);
    for (int i = 0; i < L.n; i++) assert_int_equal(L.v[i].width, 7 + 3 * w);
    /* each font row three times, each dot three cells: the first two rows are one */
    assert_string_equal(L.v[0].s, L.v[2].s);
    assert_true(strcmp(L.v[0].s, L.v[3].s) != 0);
    tui_lines_free(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jsonl),
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test(test_player_pace),
        cmocka_unit_test(test_numbers_out_of_range),
        cmocka_unit_test(test_recording_limits),
        cmocka_unit_test(test_recording_text_cut),
        cmocka_unit_test_setup_teardown(test_recording_full, setup, teardown),
        cmocka_unit_test(test_bigfont),
        cmocka_unit_test(test_recordings_offer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
