/* test_tui_evlog.c - an experiment's events kept for L and for the next visit: each kept event
 * is a deep copy (the emitter's strings and arrays may go at once), with both languages of
 * every text, a row's cells, a map's blocks and a print's NUL bytes; replayed in order; cleared
 * for a new run; past TUI_EVLOG_MAX it stops and says it is incomplete. tui_run_relang builds a
 * panel set again from it in the other language, so a finished run's labels switch without a
 * new measurement, and leaves the panels alone when the log is incomplete. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui_evlog.h"
#include "tui_run.h"

static struct lt_event got[8];
static int ngot;
static void collect(void *ud, const struct lt_event *ev)
{
    (void)ud;
    if (ngot < 8) got[ngot] = *ev;
    ngot++;
}

static void test_deep_copy(void **state)
{
    (void)state;
    struct tui_evlog *g = tui_evlog_new();
    assert_non_null(g);
    char *en = strdup("bandwidth"), *zh = strdup("带宽"), *cell = strdup("cell"), *own = strdup("weights");
    struct lt_text cells[2] = {{{en, zh}}, lt_text1(cell)};
    struct lt_map_block blocks[1] = {{{{own, "权重"}}, LT_MAP_CACHED, 1ull << 40, 3}};
    struct lt_event bar = {.type = LT_EV_BAR, .panel = "bw", .series = {{en, zh}}, .value = 1.5,
                           .style = LT_SIMULATED};
    struct lt_event row = {.type = LT_EV_ROW, .panel = "t", .ncells = 2, .cells = cells};
    struct lt_event map = {.type = LT_EV_MAP, .panel = "m", .value = 2e12, .nblocks = 1, .blocks = blocks};
    struct lt_event pr = {.type = LT_EV_PRINT, .text = lt_text1("a\0b"), .text_len = 3};
    tui_evlog_add(g, &bar);
    tui_evlog_add(g, &row);
    tui_evlog_add(g, &map);
    tui_evlog_add(g, &pr);
    memset(en, 'x', strlen(en)), memset(zh, 'x', strlen(zh)), memset(cell, 'x', 4), memset(own, 'x', 7);
    free(en), free(zh), free(cell), free(own); /* the emitter's strings are gone */
    assert_true(tui_evlog_complete(g));
    assert_int_equal(tui_evlog_count(g), 4);
    ngot = 0;
    tui_evlog_replay(g, collect, NULL);
    assert_int_equal(ngot, 4);
    assert_int_equal(got[0].type, LT_EV_BAR);
    assert_string_equal(lt_tx(got[0].series, false), "bandwidth");
    assert_string_equal(lt_tx(got[0].series, true), "带宽");
    assert_true(got[0].value == 1.5 && got[0].style == LT_SIMULATED);
    assert_int_equal(got[1].ncells, 2);
    assert_string_equal(lt_tx(got[1].cells[0], true), "带宽");
    assert_string_equal(lt_tx(got[1].cells[1], true), "cell");
    assert_int_equal(got[2].nblocks, 1);
    assert_string_equal(lt_tx(got[2].blocks[0].owner, false), "weights");
    assert_string_equal(lt_tx(got[2].blocks[0].owner, true), "权重");
    assert_true(got[2].blocks[0].state == LT_MAP_CACHED && got[2].blocks[0].bytes == 1ull << 40 &&
                got[2].blocks[0].seg == 3);
    assert_int_equal(got[3].text_len, 3);
    assert_memory_equal(lt_tx(got[3].text, false), "a\0b", 4); /* the NUL and what follows, ended */
    tui_evlog_clear(g);
    assert_int_equal(tui_evlog_count(g), 0);
    tui_evlog_free(g);
    tui_evlog_free(NULL);
}

static void test_bound(void **state)
{
    (void)state;
    struct tui_evlog *g = tui_evlog_new();
    struct lt_event p = {.type = LT_EV_POINT, .panel = "c", .series = lt_text1("s")};
    for (int i = 0; i < TUI_EVLOG_MAX + 10; i++) tui_evlog_add(g, &p);
    assert_false(tui_evlog_complete(g));
    assert_true(tui_evlog_count(g) <= TUI_EVLOG_MAX);
    tui_evlog_clear(g); /* a new run is kept again */
    tui_evlog_add(g, &p);
    assert_true(tui_evlog_complete(g));
    tui_evlog_free(g);
}

static bool shows(struct tui_panelset *ps, const char *needle)
{
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 80, false, "en");
    bool found = false;
    for (int i = 0; i < L.n; i++) found |= strstr(L.v[i].s, needle) != NULL;
    tui_lines_free(&L);
    return found;
}

static void test_relang(void **state)
{
    (void)state;
    struct tui_run r = {.log = tui_evlog_new(), .ps = tui_panelset_new(false)};
    tui_panelset_set_lang(r.ps, "en");
    struct lt_event bar = {.type = LT_EV_BAR, .panel = "bw", .series = {{"host copy", "主机拷贝"}},
                           .unit = lt_text1("GB/s"), .value = 12};
    struct lt_event note = {.type = LT_EV_NOTE, .panel = "bw", .text = {{"a note", "一条注释"}}};
    assert_true(tui_run_event(&r, &bar));
    tui_run_event(&r, &note);
    assert_true(shows(r.ps, "host copy") && shows(r.ps, "a note"));
    assert_true(tui_run_relang(&r, "zh"));
    assert_true(shows(r.ps, "主机拷贝") && shows(r.ps, "一条注释"));
    assert_false(shows(r.ps, "host copy"));
    assert_true(tui_run_relang(&r, "en"));
    assert_true(shows(r.ps, "host copy"));
    /* an incomplete log: the panels keep what they show */
    struct lt_event p = {.type = LT_EV_POINT, .panel = "c", .series = lt_text1("s")};
    for (int i = 0; i < TUI_EVLOG_MAX + 1; i++) tui_evlog_add(r.log, &p);
    assert_false(tui_run_relang(&r, "zh"));
    assert_true(shows(r.ps, "host copy"));
    tui_evlog_free(r.log);
    tui_panelset_free(r.ps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_deep_copy), cmocka_unit_test(test_bound),
                                       cmocka_unit_test(test_relang)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
