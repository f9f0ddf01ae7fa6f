/* test_tui_timeline.c - the timeline panel without a terminal: the time -> columns layout
 * (a cell shows the span that covers its centre; spans one after the other never share a cell;
 * a short span still shows), one row per lane in the order the lanes came, what runs at once in
 * the same columns, the axis in round ms ticks with its unit, the legend, SIMULATED in the
 * header, every line within its width from 1 to 140 columns (UTF-8 and ASCII), words instead of
 * a plot when too narrow, odd input (NaN, a finish before the start, too many lanes) left out,
 * and docs/lua-api.md's picture. */
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui_panel.h"
#include "tui_widget.h"
#include "tui_wrap.h"

#define T(s) lt_text1(s)

static void span(struct tui_panelset *ps, const char *lane, const char *kind, double t0, double t1,
                 double n, double total)
{
    struct lt_event e = {.type = LT_EV_SPAN, .panel = "tl", .series = T(lane), .text = T(kind),
                         .x = t0, .y = t1, .value = n, .max = total, .style = LT_SIMULATED};
    tui_panelset_apply(ps, &e);
}

static struct tui_panelset *declared(bool ascii)
{
    struct tui_panelset *ps = tui_panelset_new(ascii);
    assert_non_null(ps);
    struct lt_panel decl[] = {{"tl", "timeline", "Timeline", "", "", "", false, 0, false}};
    tui_panelset_declare(ps, decl, 1);
    return ps;
}

/* Three chunks through copy in, kernel, copy out on three streams, 1 ms each stage: the
 * pipeline of lesson 6.2 (5 ms in all). */
static struct tui_panelset *pipeline(bool ascii)
{
    struct tui_panelset *ps = declared(ascii);
    const double ms = 1e-3;
    for (int i = 0; i < 3; i++) {
        span(ps, "H2D", "copy in", i * ms, (i + 1) * ms, i, 5 * ms);
        span(ps, "SM", "kernel", (i + 1) * ms, (i + 2) * ms, i, 5 * ms);
        span(ps, "D2H", "copy out", (i + 2) * ms, (i + 3) * ms, i, 5 * ms);
    }
    return ps;
}

static const char *line_of(const struct tui_lines *L, const char *start)
{
    for (int i = 0; i < L->n; i++)
        if (!strncmp(L->v[i].s, start, strlen(start))) return L->v[i].s;
    return NULL;
}

static bool contains(const struct tui_lines *L, const char *needle)
{
    for (int i = 0; i < L->n; i++)
        if (strstr(L->v[i].s, needle)) return true;
    return false;
}

/* The plot cells of an ASCII lane row: 1 where a bar is (not blank). */
static int busy_cells(const char *row, int from, char *out, int cap)
{
    int n = 0;
    for (const char *p = row + from; *p && n < cap; p++) out[n++] = *p != ' ';
    return n;
}

static void test_span_cols(void **state)
{
    (void)state;
    int c0, c1;
    /* 10 cells over 0..10: cell k is [k, k+1), its centre k + 0.5 */
    assert_true(tui_w_span_cols(0, 1, 10, 10, &c0, &c1));
    assert_int_equal(c0, 0), assert_int_equal(c1, 1);
    assert_true(tui_w_span_cols(1, 3, 10, 10, &c0, &c1));
    assert_int_equal(c0, 1), assert_int_equal(c1, 3);
    assert_true(tui_w_span_cols(0, 10, 10, 10, &c0, &c1));
    assert_int_equal(c0, 0), assert_int_equal(c1, 10);
    /* one after the other at 1.5: the shared cell goes to the one covering its centre */
    int a0, a1, b0, b1;
    assert_true(tui_w_span_cols(0, 1.5, 10, 10, &a0, &a1));
    assert_true(tui_w_span_cols(1.5, 3, 10, 10, &b0, &b1));
    assert_int_equal(a1, 1), assert_int_equal(b0, 1), assert_int_equal(b1, 3);
    assert_true(a1 <= b0);
    /* at 1.6 the centre 1.5 is the first's */
    assert_true(tui_w_span_cols(0, 1.6, 10, 10, &a0, &a1));
    assert_true(tui_w_span_cols(1.6, 3, 10, 10, &b0, &b1));
    assert_int_equal(a1, 2), assert_int_equal(b0, 2);
    /* too short to cover a centre: the cell its middle lies in */
    assert_true(tui_w_span_cols(4.2, 4.4, 10, 10, &c0, &c1));
    assert_int_equal(c0, 4), assert_int_equal(c1, 5);
    assert_true(tui_w_span_cols(4.6, 5.4, 10, 10, &c0, &c1)); /* covers 4.5? no: 5.5? no */
    assert_int_equal(c0, 5), assert_int_equal(c1, 6);
    /* past the end: cut at the last cell; starting there: not drawn */
    assert_true(tui_w_span_cols(9, 30, 10, 10, &c0, &c1));
    assert_int_equal(c0, 9), assert_int_equal(c1, 10);
    assert_false(tui_w_span_cols(10, 11, 10, 10, &c0, &c1));
    /* no length, backwards, NaN, a bad axis */
    assert_false(tui_w_span_cols(2, 2, 10, 10, &c0, &c1));
    assert_false(tui_w_span_cols(3, 2, 10, 10, &c0, &c1));
    assert_false(tui_w_span_cols(NAN, 2, 10, 10, &c0, &c1));
    assert_false(tui_w_span_cols(0, 2, 0, 10, &c0, &c1));
    assert_false(tui_w_span_cols(0, 2, 10, 0, &c0, &c1));
    /* huge values stay inside */
    assert_true(tui_w_span_cols(0, 1e300, 10, 10, &c0, &c1));
    assert_int_equal(c0, 0), assert_int_equal(c1, 10);
    assert_true(tui_w_span_cols(1e-300, INFINITY, 1e-299, 7, &c0, &c1));
    assert_true(c0 >= 0 && c1 <= 7 && c0 < c1);
}

static void test_lanes_and_overlap(void **state)
{
    (void)state;
    struct tui_panelset *ps = pipeline(true);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 54, true, "en");
    assert_false(L.oom);
    /* one row per lane, in the order they came; the label column is 3 wide, the plot 50 */
    const char *h2d = line_of(&L, "H2D "), *sm = line_of(&L, "SM  "), *d2h = line_of(&L, "D2H ");
    assert_non_null(h2d), assert_non_null(sm), assert_non_null(d2h);
    int ih = -1, is = -1, id = -1;
    for (int i = 0; i < L.n; i++) {
        if (L.v[i].s == h2d) ih = i;
        if (L.v[i].s == sm) is = i;
        if (L.v[i].s == d2h) id = i;
    }
    assert_true(ih < is && is < id);
    char b[3][64];
    int n = busy_cells(h2d, 4, b[0], 64);
    assert_int_equal(n, 50);
    busy_cells(sm, 4, b[1], 64), busy_cells(d2h, 4, b[2], 64);
    /* 5 ms on 50 columns: each ms is 10 columns; H2D busy 0..3 ms, SM 1..4, D2H 2..5 */
    for (int x = 0; x < 50; x++) {
        assert_int_equal(b[0][x], x < 30);
        assert_int_equal(b[1][x], x >= 10 && x < 40);
        assert_int_equal(b[2][x], x >= 20);
    }
    /* the overlap: from 2 to 3 ms all three engines at once */
    int all3 = 0;
    for (int x = 0; x < 50; x++) all3 += b[0][x] && b[1][x] && b[2][x];
    assert_int_equal(all3, 10);
    /* each kind its glyph (ASCII: # = +), each bar its chunk in the middle */
    assert_non_null(strstr(h2d, "####0#####"));
    assert_non_null(strstr(sm, "====1====="));
    assert_non_null(strstr(d2h, "++++2+++++"));
    /* the axis: round ticks in ms with the unit; the legend; SIMULATED */
    assert_true(contains(&L, "ms"));
    const char *ticks = NULL;
    for (int i = 0; i < L.n && !ticks; i++)
        if (strstr(L.v[i].s, "0") && strstr(L.v[i].s, "ms") && strstr(L.v[i].s, " 1 ")) ticks = L.v[i].s;
    assert_non_null(ticks);
    assert_non_null(strstr(ticks, " 2 ")), assert_non_null(strstr(ticks, " 4 "));
    assert_true(contains(&L, "# copy in"));
    assert_true(contains(&L, "= kernel"));
    assert_true(contains(&L, "+ copy out"));
    assert_true(contains(&L, "column 0.100 ms"));
    assert_true(contains(&L, "[SIMULATED]"));
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

static void test_fits_every_width(void **state)
{
    (void)state;
    for (int ascii = 0; ascii < 2; ascii++) {
        struct tui_panelset *ps = pipeline(ascii);
        span(ps, "一个很长的通道名字 a very long lane name", "拷贝", 0.0001, 0.0002, 12345, 0);
        for (int w = 1; w <= 140; w++) {
            struct tui_lines L = {0};
            tui_panelset_render(ps, &L, w, ascii, ascii ? "en" : "zh");
            assert_false(L.oom);
            assert_true(L.n > 3);
            for (int i = 0; i < L.n; i++) {
                int lw = tui_width(L.v[i].s, (size_t)L.v[i].len);
                assert_int_equal(lw, L.v[i].width);
                if (lw > w && !(w < 2 && lw == 2))
                    fail_msg("width %d: line %d is %d wide: '%s'", w, i, lw, L.v[i].s);
                for (int k = 0; ascii && k < L.v[i].len; k++)
                    if ((unsigned char)L.v[i].s[k] >= 0x80) fail_msg("non-ASCII: '%s'", L.v[i].s);
            }
            tui_lines_free(&L);
        }
        tui_panelset_free(ps);
    }
}

static void test_narrow_words(void **state)
{
    (void)state;
    struct tui_panelset *ps = pipeline(true);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 12, true, "en"); /* 3 for labels leaves 8: still a plot */
    assert_non_null(line_of(&L, "H2D "));
    tui_lines_free(&L);
    tui_panelset_render(ps, &L, 10, true, "en"); /* a label column of 2 leaves 7: words */
    assert_true(contains(&L, "H2D: 3"));
    assert_true(contains(&L, "spans"));
    tui_lines_free(&L);
    tui_panelset_render(ps, &L, 60, true, "en");
    assert_false(contains(&L, "H2D: 3"));
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

static void test_axis_units(void **state)
{
    (void)state;
    /* a run of 40 µs reads in µs; of 30 s in s; an axis given by total = keeps its length */
    struct tui_panelset *ps = declared(true);
    span(ps, "SM", "kernel", 0, 40e-6, -1, 0);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 60, true, "en");
    assert_true(contains(&L, "us"));
    assert_false(contains(&L, " ms"));
    tui_lines_free(&L);
    tui_panelset_free(ps);
    ps = declared(true);
    span(ps, "SM", "kernel", 0, 30, -1, 0);
    tui_panelset_render(ps, &L, 60, true, "en");
    assert_true(contains(&L, "column 0.526 s")); /* 30 s on 60 - 2 - 1 = 57 columns */
    tui_lines_free(&L);
    tui_panelset_free(ps);
    /* half the run so far on an axis of the whole run: the bar fills half the plot */
    ps = declared(true);
    span(ps, "SM", "kernel", 0, 0.005, -1, 0.010);
    tui_panelset_render(ps, &L, 51, true, "en");
    const char *sm = line_of(&L, "SM ");
    assert_non_null(sm);
    char b[64];
    assert_int_equal(busy_cells(sm, 3, b, 64), 48);
    int n = 0;
    for (int x = 0; x < 48; x++) n += b[x];
    assert_int_equal(n, 24);
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

static void test_odd_input(void **state)
{
    (void)state;
    struct tui_panelset *ps = declared(false);
    span(ps, "A", "k", NAN, 1, -1, 0);
    span(ps, "A", "k", 2, 1, -1, 0);
    span(ps, "A", "k", -1, 1, -1, 0);
    span(ps, "A", "k", 0, INFINITY, -1, 0);
    assert_false(tui_panelset_has_data(ps));
    /* more lanes than a timeline keeps: the rest left out, the first ones drawn */
    char name[32];
    for (int i = 0; i < LT_TIMELINE_MAX_LANES + 4; i++) {
        snprintf(name, sizeof name, "lane %02d", i);
        span(ps, name, "k", i * 1e-3, (i + 1) * 1e-3, i, NAN);
    }
    assert_true(tui_panelset_has_data(ps));
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 80, false, "en");
    assert_non_null(line_of(&L, "lane 00 "));
    snprintf(name, sizeof name, "lane %02d ", LT_TIMELINE_MAX_LANES - 1);
    assert_non_null(line_of(&L, name));
    snprintf(name, sizeof name, "lane %02d ", LT_TIMELINE_MAX_LANES);
    assert_null(line_of(&L, name));
    tui_lines_free(&L);
    /* a clear empties it */
    struct lt_event clr = {.type = LT_EV_CLEAR, .panel = "tl"};
    tui_panelset_apply(ps, &clr);
    assert_false(tui_panelset_has_data(ps));
    tui_panelset_free(ps);
}

/* docs/lua-api.md's picture is what the widget draws for its example's spans (those the
 * simulator gave it, deterministic, RTX 3090: tests/cli/timeline.sh runs the example and checks
 * its plain lines, 0.650 to 1.30 ms and so on, against the same run). */
static void test_doc_picture(void **state)
{
    (void)state;
    static const struct {
        const char *lane, *kind;
        double t0, t1, n;
    } sp[] = {
        {"H2D copy", "copy in", 0, 0.0006495421686746987, 0},
        {"SMs", "kernel", 0.0006495421686746987, 0.0016575421686746987, 0},
        {"H2D copy", "copy in", 0.0006495421686746987, 0.0012990843373493974, 1},
        {"SMs", "kernel", 0.0016575421686746987, 0.0026655421686746987, 1},
        {"H2D copy", "copy in", 0.0016575421686746987, 0.0023070843373493976, 2},
        {"SMs", "kernel", 0.0026655421686746987, 0.003673542168674699, 2},
        {"H2D copy", "copy in", 0.0026655421686746987, 0.003315084337349398, 3},
        {"SMs", "kernel", 0.003673542168674699, 0.0046815421686746995, 3},
    };
    struct tui_panelset *ps = declared(false);
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++)
        span(ps, sp[i].lane, sp[i].kind, sp[i].t0, sp[i].t1, sp[i].n, 0.0046815421686746995);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 49, false, "en");
    FILE *f = fopen("docs/lua-api.md", "r");
    assert_non_null(f);
    static char doc[1 << 18];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = 0;
    const char *at = strstr(doc, "<!-- picture: the example's spans at 49 columns");
    assert_non_null(at);
    at = strstr(at, "```\n");
    assert_non_null(at);
    at += 4;
    const char *end = strstr(at, "```");
    assert_non_null(end);
    /* the picture's lines, in order, are the panel's lines after its title */
    int first = -1;
    for (int i = 0; i < L.n && first < 0; i++)
        if (!strncmp(L.v[i].s, "H2D copy", 8)) first = i;
    assert_true(first >= 0);
    int k = first;
    for (const char *p = at; p < end; k++) {
        const char *nl = strchr(p, '\n');
        assert_true(k < L.n);
        char want[512];
        snprintf(want, sizeof want, "%.*s", (int)(nl - p), p);
        char got[512];
        snprintf(got, sizeof got, "%s", L.v[k].s);
        for (size_t e = strlen(got); e > 0 && got[e - 1] == ' ';) got[--e] = 0;
        if (strcmp(want, got)) fail_msg("docs/lua-api.md's picture, line %d:\n want '%s'\n got  '%s'", k - first + 1, want, got);
        p = nl + 1;
    }
    assert_int_equal(k - first, 5);
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

int main(void)
{
    setlocale(LC_ALL, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_span_cols),    cmocka_unit_test(test_lanes_and_overlap),
        cmocka_unit_test(test_fits_every_width), cmocka_unit_test(test_narrow_words),
        cmocka_unit_test(test_axis_units),   cmocka_unit_test(test_odd_input),
        cmocka_unit_test(test_doc_picture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
