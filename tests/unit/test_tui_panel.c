/* test_tui_panel.c - the live panel widgets without a terminal: events build the models, every
 * rendered line fits its width (1..140 columns, UTF-8 and ASCII), SIMULATED data is labelled in
 * words, values carry their unit, a log-x sweep curve gets byte ticks, and odd input (NaN,
 * unknown panels, a flood of points) is survived. */
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

#include "gpu_fmt.h"
#include "tui_panel.h"
#include "tui_wrap.h"

#define T(s) lt_text1(s)

/* Test maps are written "owner:state:bytes[@seg]"; the blocks an emitter hands over are typed. */
static int to_blocks(const char *const *cells, int n, struct lt_map_block *out, char owners[][64])
{
    for (int i = 0; i < n; i++) {
        const char *c = cells[i] ? cells[i] : "", *c2 = strrchr(c, ':'), *c1 = NULL;
        for (const char *q = c; c2 && q < c2; q++)
            if (*q == ':') c1 = q;
        snprintf(owners[i], 64, "%.*s", c1 ? (int)(c1 - c) : (int)strlen(c), c);
        char state[32] = "";
        if (c1) snprintf(state, sizeof state, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
        int k = lt_map_state_parse(state);
        double v = c2 ? strtod(c2 + 1, NULL) : 0;
        const char *at = c2 ? strchr(c2, '@') : NULL;
        out[i] = (struct lt_map_block){T(owners[i]), k < 0 ? LT_MAP_CACHED : (enum lt_map_state)k,
                                       v > 0 && v < 1.8e19 ? (uint64_t)v : 0, at ? atoi(at + 1) : 0};
    }
    return n;
}

static void apply_map(struct tui_panelset *ps, const char *panel, double total, int n,
                      const char *const *cells)
{
    struct lt_map_block b[LT_EVENT_MAX_ITEMS];
    char owners[LT_EVENT_MAX_ITEMS][64];
    struct lt_event e = {.type = LT_EV_MAP, .panel = panel, .value = total,
                         .nblocks = to_blocks(cells, n, b, owners), .blocks = b};
    tui_panelset_apply(ps, &e);
}

static void ev_bar(struct tui_panelset *ps, const char *panel, const char *label, double v,
                   const char *unit, enum lt_style st)
{
    struct lt_event e = {.type = LT_EV_BAR, .panel = panel, .series = T(label), .value = v,
                         .unit = T(unit), .style = st};
    tui_panelset_apply(ps, &e);
}

static void ev_point(struct tui_panelset *ps, const char *panel, const char *series, double x,
                     double y, enum lt_style st)
{
    struct lt_event e = {.type = LT_EV_POINT, .panel = panel, .series = T(series), .x = x, .y = y,
                         .style = st};
    tui_panelset_apply(ps, &e);
}

static struct tui_panelset *sample(bool ascii)
{
    struct tui_panelset *ps = tui_panelset_new(ascii);
    assert_non_null(ps);
    struct lt_panel decl[] = {
        {"bw", "bars", "Bandwidth", "", "", "GB/s", false, 0, false},
        {"sweep", "curve", "Size sweep", "bytes", "GB/s", "GB/s", true, 0, false},
        {"t", "table", "Measured vs lecture", "", "", "", false, 0, false},
        {"g", "gauge", "Device memory 显存", "", "", "GiB", false, 0, false},
        {"m", "map", "Memory map", "", "", "", false, 0, false},
    };
    tui_panelset_declare(ps, decl, 5);
    ev_bar(ps, "bw", "host memcpy", 11.83, "GB/s", LT_MEASURED);
    ev_bar(ps, "bw", "H2D pinned (PCIe 4.0 x16)", 24.6, "GB/s", LT_SIMULATED);
    ev_bar(ps, "bw", "device (GDDR6X)", 936.2, "GB/s", LT_THEORETICAL);
    ev_bar(ps, "bw", "lecture says", 1000, "GB/s", LT_REFERENCE);
    for (int i = 10; i <= 30; i++) {
        double x = pow(2, i);
        ev_point(ps, "sweep", "H2D pinned", x, 25.0 * x / (x + 2e5), LT_SIMULATED);
        ev_point(ps, "sweep", "D2D", x, 900.0 * x / (x + 4e6), LT_SIMULATED);
    }
    /* what the section is about: a mark, a band (with a wide label), a capacity line */
    struct lt_event mk = {.type = LT_EV_MARK, .panel = "sweep", .series = T("n½ H2D"), .x = 262144, .y = 14.2,
                          .style = LT_SIMULATED};
    tui_panelset_apply(ps, &mk);
    struct lt_event bd = {.type = LT_EV_BAND, .panel = "sweep", .series = T("latency 延迟"), .x = 1024, .max = 262144};
    tui_panelset_apply(ps, &bd);
    struct lt_event lim = {.type = LT_EV_LIMIT, .panel = "bw", .series = T("PCIe link"), .value = 31.5,
                           .unit = T("GB/s"), .style = LT_THEORETICAL};
    tui_panelset_apply(ps, &lim);
    struct lt_event row = {.type = LT_EV_ROW, .panel = "t", .ncells = 3,
                           .cells = (const struct lt_text[]){T("what"), T("measured"), T("讲义 lecture")}};
    tui_panelset_apply(ps, &row);
    struct lt_event row2 = {.type = LT_EV_ROW, .panel = "t", .ncells = 3,
                            .cells = (const struct lt_text[]){T("H2D"), T("24.6 GB/s"), T("32 GB/s")}};
    tui_panelset_apply(ps, &row2);
    struct lt_event g = {.type = LT_EV_GAUGE, .panel = "g", .series = T("used"), .value = 13.5,
                         .max = 24, .unit = T("GiB"), .style = LT_SIMULATED};
    tui_panelset_apply(ps, &g);
    const char *m[] = {"weights:used:14000000000", "kv cache:cached:4000000000",
                       "activations:used:1000000000", ":free:6000000000"};
    apply_map(ps, "m", 24.0 * (1 << 30), 4, m);
    struct lt_event note = {.type = LT_EV_NOTE, .panel = "bw",
                            .text = T("array smaller than 4x the last-level cache: numbers are optimistic")};
    tui_panelset_apply(ps, &note);
    tui_panelset_apply(ps, &note); /* the same note twice shows once */
    struct lt_event st = {.type = LT_EV_STATUS, .text = T("running 1 GiB H2D pinned...")};
    tui_panelset_apply(ps, &st);
    struct lt_event pr = {.type = LT_EV_PRINT, .text = T("hello from print()")};
    tui_panelset_apply(ps, &pr);
    return ps;
}

static bool contains(const struct tui_lines *L, const char *needle)
{
    for (int i = 0; i < L->n; i++)
        if (strstr(L->v[i].s, needle)) return true;
    return false;
}

static void test_fits_every_width(void **state)
{
    (void)state;
    for (int ascii = 0; ascii < 2; ascii++) {
        struct tui_panelset *ps = sample(ascii);
        for (int w = 1; w <= 140; w++) {
            struct tui_lines L = {0};
            tui_panelset_render(ps, &L, w, ascii, ascii ? "en" : "zh");
            assert_false(L.oom);
            for (int i = 0; i < L.n; i++) {
                int lw = tui_width(L.v[i].s, (size_t)L.v[i].len);
                assert_int_equal(lw, L.v[i].width);
                if (lw > w && !(w < 2 && lw == 2))
                    fail_msg("width %d: panel line %d is %d wide: '%s'", w, i, lw, L.v[i].s);
                for (int k = 0; ascii && k < L.v[i].len; k++)
                    if ((unsigned char)L.v[i].s[k] >= 0x80) fail_msg("non-ASCII: '%s'", L.v[i].s);
            }
            tui_lines_free(&L);
        }
        tui_panelset_free(ps);
    }
}

static void test_content(void **state)
{
    (void)state;
    struct tui_panelset *ps = sample(false);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 60, false, "en");
    assert_true(contains(&L, " 11.8 GB/s")); /* the panel's one precision */
    assert_true(contains(&L, "936.2 GB/s"));
    assert_true(contains(&L, "[SIMULATED]"));
    assert_true(contains(&L, "SIM"));
    assert_true(contains(&L, "theory"));
    assert_true(contains(&L, "ref"));
    assert_true(contains(&L, "1M"));   /* byte ticks on the log axis */
    assert_true(contains(&L, "(log)"));
    assert_true(contains(&L, "24.6 GB/s"));
    assert_true(contains(&L, "13.50 / 24 GiB"));
    assert_true(contains(&L, "█ weights"));
    assert_true(contains(&L, "░ kv cache"));
    assert_true(contains(&L, "i array smaller"));
    assert_string_equal(tui_panelset_status(ps), "running 1 GiB H2D pinned...");
    assert_int_equal(tui_panelset_nlog(ps), 1);
    assert_string_equal(tui_panelset_log(ps, 0), "hello from print()");
    int notes = 0;
    for (int i = 0; i < L.n; i++) notes += strstr(L.v[i].s, "i array") != NULL;
    assert_int_equal(notes, 1);
    tui_lines_free(&L);
    /* clear keeps declared panels, empty */
    tui_panelset_clear(ps);
    assert_false(tui_panelset_has_data(ps));
    tui_panelset_render(ps, &L, 60, false, "en");
    assert_true(contains(&L, "(no data yet)"));
    assert_true(contains(&L, "Size sweep"));
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

static void test_odd_input(void **state)
{
    (void)state;
    struct tui_panelset *ps = tui_panelset_new(false);
    ev_bar(ps, "x", NULL, NAN, NULL, LT_MEASURED);   /* undeclared panel, no label, NaN */
    ev_bar(ps, "x", "inf", INFINITY, "B", 99);
    ev_point(ps, "c", "s", -1, 5, LT_MEASURED);       /* not drawable on log x, fine on linear */
    ev_point(ps, "c", "s", NAN, NAN, LT_MEASURED);
    for (int i = 0; i < 10000; i++) ev_point(ps, "flood", "s", i, i % 7, LT_MEASURED);
    const char *m[] = {"no-colons", "a:b:c:d:100"};
    apply_map(ps, "m", 0, 2, m);
    struct lt_event r = {.type = LT_EV_ROW, .panel = "r", .ncells = 40};
    tui_panelset_apply(ps, &r);
    for (int i = 0; i < 500; i++) {
        char line[32];
        snprintf(line, sizeof line, "line %d", i);
        struct lt_event p = {.type = LT_EV_PRINT, .text = T(line)};
        tui_panelset_apply(ps, &p);
    }
    assert_int_equal(tui_panelset_nlog(ps), TUI_LOG_MAX);
    assert_string_equal(tui_panelset_log(ps, TUI_LOG_MAX - 1), "line 499");
    for (int w = 1; w < 100; w += 7) {
        struct tui_lines L = {0};
        tui_panelset_render(ps, &L, w, false, "en");
        for (int i = 0; i < L.n; i++)
            if (L.v[i].width > w && w >= 2) fail_msg("width %d: '%s'", w, L.v[i].s);
        if (w > 30) assert_true(contains(&L, "n/a"));
        tui_lines_free(&L);
    }
    struct lt_event cl = {.type = LT_EV_CLEAR, .panel = "x"};
    assert_true(tui_panelset_apply(ps, &cl));
    tui_panelset_free(ps);
}

/* Event values at the edges of double and of int (NaN, inf, 1e300, 2^31..2^64, negative) in
 * every widget that turns a value into a cell, column or row: nothing is written outside the
 * widget's buffers (ASan checks that in the sanitizer pass), every line fits, and a map whose
 * first block is far larger than its declared total fills the whole map with that block. */
static const double extremes[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300, 2147483648.0,
                                  4294967232.0, 9223372036854775807.0, 18446744073709551616.0,
                                  -2147483649.0, 0, -1, 5e-324, 1.7976931348623157e308};
#define NEXT (int)(sizeof extremes / sizeof extremes[0])

static void test_extreme_values(void **state)
{
    (void)state;
    for (int ascii = 0; ascii < 2; ascii++) {
        struct tui_panelset *ps = tui_panelset_new(ascii);
        struct lt_panel decl[] = {{"lc", "curve", "log", "bytes", "GB/s", "GB/s", true, 0, false},
                                  {"c", "curve", "linear", "x", "y", "", false, 0, false}};
        tui_panelset_declare(ps, decl, 2);
        char cells[NEXT][2][64];
        for (int i = 0; i < NEXT; i++) {
            for (int k = 0; k < NEXT; k++) {
                ev_point(ps, "lc", "s", extremes[i], extremes[k], LT_MEASURED);
                ev_point(ps, "c", i % 2 ? "s" : "t", extremes[i], extremes[k], LT_MEASURED);
            }
            char label[16];
            snprintf(label, sizeof label, "b%d", i);
            ev_bar(ps, "bars", label, extremes[i], "B", LT_MEASURED);
            struct lt_event g = {.type = LT_EV_GAUGE, .panel = "g", .series = T(label),
                                 .value = extremes[i], .max = extremes[NEXT - 1 - i]};
            tui_panelset_apply(ps, &g);
            snprintf(cells[i][0], sizeof cells[i][0], "a:allocated:%.17g", extremes[i]);
            snprintf(cells[i][1], sizeof cells[i][1], "b:cached:%.17g", extremes[NEXT - 1 - i]);
        }
        for (int i = 0; i < NEXT; i++) {
            char id[16];
            snprintf(id, sizeof id, "m%d", i);
            const char *m[] = {cells[i][0], cells[i][1], cells[(i + 3) % NEXT][0]};
            apply_map(ps, id, extremes[i], 3, m);
        }
        for (int w = 1; w <= 140; w += (w < 70 ? 1 : 13)) {
            struct tui_lines L = {0};
            tui_panelset_render(ps, &L, w, ascii, "en");
            assert_false(L.oom);
            for (int i = 0; i < L.n; i++)
                if (L.v[i].width > w && !(w < 2 && L.v[i].width == 2))
                    fail_msg("width %d: '%s'", w, L.v[i].s);
            tui_lines_free(&L);
        }
        tui_panelset_free(ps);
    }
    /* the recorded attack: 147 cells (49 columns, 3 rows), a 2^32-64 byte block then one more */
    struct tui_panelset *ps = tui_panelset_new(true);
    const char *m[] = {"a:allocated:4294967232", "b:allocated:200"};
    apply_map(ps, "m", 147, 2, m);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 49, true, "en");
    int rows = 0;
    for (int i = 0; i < L.n; i++)
        if (L.v[i].len == 49 && L.v[i].s[0] == '#') {
            assert_int_equal(strspn(L.v[i].s, "#"), 49);
            rows++;
        }
    assert_int_equal(rows, 3);
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

/* A curve is drawn from its points in x order, whatever order they arrived in. */
static void test_curve_order(void **state)
{
    (void)state;
    struct tui_panelset *fw = tui_panelset_new(false), *bw = tui_panelset_new(false);
    for (int i = 0; i < 4096; i++) {
        ev_point(fw, "c", "s", i, (i * 7919) % 1000, LT_MEASURED);
        ev_point(bw, "c", "s", 4095 - i, ((4095 - i) * 7919) % 1000, LT_MEASURED);
    }
    struct tui_lines a = {0}, b = {0};
    tui_panelset_render(fw, &a, 80, false, "en");
    tui_panelset_render(bw, &b, 80, false, "en");
    assert_int_equal(a.n, b.n);
    for (int i = 0; i < a.n - 2; i++) assert_string_equal(a.v[i].s, b.v[i].s); /* but the legend */
    tui_lines_free(&a);
    tui_lines_free(&b);
    tui_panelset_free(fw);
    tui_panelset_free(bw);
}

static const char *const mk_utf8[] = {"●", "■", "▲", "◆", "✚", "✱"};

static struct tui_panelset *six_series(bool ascii)
{
    struct tui_panelset *ps = tui_panelset_new(ascii);
    assert_non_null(ps);
    struct lt_panel d = {"c", "curve", "Six", "n", "GB/s", "GB/s", false, 0, false};
    tui_panelset_declare(ps, &d, 1);
    static const char *const names[] = {"s0", "s1", "s2", "s3", "s4", "s5"};
    for (int k = 0; k < 6; k++)
        for (int i = 0; i <= 4; i++) ev_point(ps, "c", names[k], i * 25, 10 + 10 * k + i, LT_MEASURED);
    return ps;
}

/* Each series its own marker glyph, in the plot and in the legend, in UTF-8 and in ASCII; its
 * colour from the series palette, never a role's, never another series'. */
static void test_curve_markers(void **state)
{
    (void)state;
    for (int ascii = 0; ascii <= 1; ascii++) {
        struct tui_panelset *ps = six_series(ascii);
        struct tui_lines L = {0};
        tui_panelset_render(ps, &L, 80, ascii, "en");
        int seen_style[6] = {0};
        for (int k = 0; k < 6; k++) {
            char legend[32];
            snprintf(legend, sizeof legend, "%s s%d", ascii ? (char[]){"*o+x#@"[k], 0} : mk_utf8[k], k);
            if (!contains(&L, legend)) fail_msg("no legend '%s'", legend);
            /* the marker also in the plot (a line with the axis rule) */
            const char *mk = ascii ? (char[]){"*o+x#@"[k], 0} : mk_utf8[k];
            bool in_plot = false;
            for (int i = 0; i < L.n && !in_plot; i++) {
                const char *at = strstr(L.v[i].s, mk);
                if (!at || !strstr(L.v[i].s, ascii ? "|" : "│") || strstr(L.v[i].s, legend)) continue;
                in_plot = true;
                int st = L.v[i].st[at - L.v[i].s];
                assert_true(st >= TS_SERIES0 && st < TS_SERIES0 + TS_NSERIES);
                seen_style[st - TS_SERIES0]++;
            }
            if (!in_plot) fail_msg("series %d: marker '%s' not in the plot", k, mk);
        }
        for (int k = 0; k < 6; k++) assert_true(seen_style[k] > 0); /* six distinct series styles */
        tui_lines_free(&L);
        tui_panelset_free(ps);
    }
}

/* A line, not scattered dots: two far-apart points are joined, so every plot row between them
 * has ink. */
static void test_curve_connected(void **state)
{
    (void)state;
    struct tui_panelset *ps = tui_panelset_new(false);
    struct lt_panel d = {"c", "curve", "Line", "x", "y", "", false, 0, false};
    tui_panelset_declare(ps, &d, 1);
    ev_point(ps, "c", "a", 0, 0, LT_MEASURED);
    ev_point(ps, "c", "a", 100, 100, LT_MEASURED);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 60, false, "en");
    int rows = 0;
    for (int i = 0; i < L.n; i++) {
        const char *bar = strstr(L.v[i].s, "│");
        if (!bar || strstr(L.v[i].s, "└")) continue;
        rows++;
        bool ink = false;
        for (const char *q = bar + strlen("│"); *q; q++) ink |= *q != ' ';
        if (!ink) fail_msg("plot row %d has no ink: the line is broken: '%s'", rows, L.v[i].s);
    }
    assert_true(rows >= 5);
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

static int label_row(const struct tui_lines *L, const char *label)
{
    char want[40];
    for (int i = 0; i < L->n; i++) {
        const char *bar = strstr(L->v[i].s, "│");
        if (!bar) continue;
        int n = (int)(bar - L->v[i].s);
        snprintf(want, sizeof want, "%.*s", n, L->v[i].s);
        const char *t = want;
        while (*t == ' ') t++;
        if (!strcmp(t, label)) return i;
    }
    return -1;
}

/* One axis groups its labels alike: up to 17,686 GB/s (7.3) the y ticks read 5,000 10,000 15,000
 * (5000 beside 10,000 before); x ticks up to 20,000 read 5,000 too; an axis under 10,000 keeps 5000. */
static void test_curve_axis_grouping(void **state)
{
    (void)state;
    for (int big = 0; big < 2; big++) {
        struct tui_panelset *ps = tui_panelset_new(false);
        struct lt_panel d = {"c", "curve", "Line", "x", "GB/s", "", false, 0, false};
        tui_panelset_declare(ps, &d, 1);
        double top = big ? 17686 : 9000;
        ev_point(ps, "c", "a", 0, top, LT_SIMULATED);
        ev_point(ps, "c", "a", top, top / 3, LT_SIMULATED);
        struct tui_lines L = {0};
        tui_panelset_render(ps, &L, 70, false, "en");
        bool grouped = false, plain = false;
        for (int i = 0; i < L.n; i++) {
            grouped |= strstr(L.v[i].s, "5,000") != NULL;
            plain |= strstr(L.v[i].s, "5000") != NULL;
        }
        if (big) {
            assert_true(label_row(&L, "10,000") >= 0);
            assert_true(grouped);
            assert_false(plain);
        } else {
            assert_false(grouped);
        }
        tui_lines_free(&L);
        tui_panelset_free(ps);
    }
}

/* Values spanning decades get a log y axis with a tick per decade; a narrow range stays linear. */
static void test_curve_log_y(void **state)
{
    (void)state;
    struct tui_panelset *ps = tui_panelset_new(false);
    struct lt_panel d = {"lat", "curve", "Latency ladder", "bytes", "ns", "ns", true, 0, false};
    tui_panelset_declare(ps, &d, 1);
    double ns[] = {1, 1.2, 4, 12, 40, 90, 400};
    for (int i = 0; i < 7; i++) ev_point(ps, "lat", "chase", pow(2, 12 + 3 * i), ns[i], LT_MEASURED);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 80, false, "en");
    assert_true(contains(&L, "y: ns (log)"));
    int r1 = label_row(&L, "1"), r10 = label_row(&L, "10"), r100 = label_row(&L, "100"),
        r1k = label_row(&L, "1K");
    if (r1 < 0 || r10 < 0 || r100 < 0 || r1k < 0) fail_msg("decade ticks %d %d %d %d", r1, r10, r100, r1k);
    assert_true(r1k < r100 && r100 < r10 && r10 < r1); /* top to bottom, evenly by decade */
    int gap1 = r10 - r100, gap2 = r1 - r10;
    assert_true(abs(gap1 - gap2) <= 1);
    tui_lines_free(&L);
    tui_panelset_clear(ps);
    for (int i = 0; i < 7; i++) ev_point(ps, "lat", "chase", pow(2, 12 + 3 * i), 100 + 40 * i, LT_MEASURED);
    tui_panelset_render(ps, &L, 80, false, "en");
    assert_false(contains(&L, "ns (log)"));
    assert_true(label_row(&L, "0") >= 0); /* linear from zero */
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

/* "(no data yet)" stands for an empty panel only: a panel with just a note shows the note. */
static void test_placeholder_only_when_empty(void **state)
{
    (void)state;
    struct tui_panelset *ps = tui_panelset_new(false);
    struct lt_panel d[] = {{"a", "bars", "Empty", "", "", "", false, 0, false}, {"b", "bars", "Noted", "", "", "", false, 0, false}};
    tui_panelset_declare(ps, d, 2);
    struct lt_event note = {.type = LT_EV_NOTE, .panel = "b", .text = T("runs on the simulator")};
    tui_panelset_apply(ps, &note);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 60, false, "en");
    int placeholders = 0, at = -1, note_at = -1;
    for (int i = 0; i < L.n; i++) {
        if (strstr(L.v[i].s, "(no data yet)")) placeholders++, at = i;
        if (strstr(L.v[i].s, "runs on the simulator")) note_at = i;
    }
    assert_int_equal(placeholders, 1);
    assert_true(at >= 0 && note_at > at);
    assert_string_equal(L.v[note_at - 1].s, "Noted"); /* the note right under its title */
    assert_int_equal(L.v[note_at].st[0], TS_NOTE);     /* a neutral marker, not a warning */
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

/* Cells of a rendered line that are not "·" (not reserved) or a space: what a map covers. */
static int covered(const char *s)
{
    int n = 0;
    while (*s) {
        int l = (*s & 0x80) ? ((*s & 0xe0) == 0xc0 ? 2 : (*s & 0xf0) == 0xe0 ? 3 : 4) : 1;
        if (strncmp(s, "·", 2) && *s != ' ') n++;
        s += l;
    }
    return n;
}

static void ev_map(struct tui_panelset *ps, const char *panel, double total, int n, const char **cells)
{
    apply_map(ps, panel, total, n, cells);
}

/* Maps drawn to scale: two maps of one experiment share the larger one's scale (256 MiB covers
 * twice the cells of 128 MiB, the rest "·"), the glyph says the state, a rule marks where a
 * segment starts, alike neighbours share one legend line, and a declared scale wins. */
static void test_map_to_scale(void **state)
{
    (void)state;
    struct tui_panelset *ps = tui_panelset_new(false);
    struct lt_panel d[] = {{"m1", "map", "16 then 32", "", "", "", false, 0, false},
                           {"m2", "map", "32 then 16", "", "", "", false, 0, false}};
    tui_panelset_declare(ps, d, 2);
    const char *a[12], *b[8];
    char abuf[12][48], bbuf[8][48];
    for (int i = 0; i < 8; i++) snprintf(abuf[i], sizeof abuf[i], "seg %d:cached:16777216@%d", i + 1, i + 1);
    for (int i = 0; i < 4; i++) snprintf(abuf[8 + i], sizeof abuf[0], "32 MiB #%d:allocated:33554432@%d", i + 1, 9 + i);
    for (int i = 0; i < 8; i++) snprintf(bbuf[i], sizeof bbuf[i], "16 MiB #%d:allocated:16777216@%d", i + 1, i / 2 + 1);
    for (int i = 0; i < 12; i++) a[i] = abuf[i];
    for (int i = 0; i < 8; i++) b[i] = bbuf[i];
    ev_map(ps, "m1", 256.0 * 1048576, 12, a);
    ev_map(ps, "m2", 128.0 * 1048576, 8, b);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 64, false, "en");
    int t1 = -1, t2 = -1;
    for (int i = 0; i < L.n; i++) {
        if (!strcmp(L.v[i].s, "16 then 32")) t1 = i;
        if (!strcmp(L.v[i].s, "32 then 16")) t2 = i;
    }
    assert_true(t1 >= 0 && t2 > t1);
    int c1 = covered(L.v[t1 + 1].s) + covered(L.v[t1 + 2].s);
    int c2 = covered(L.v[t2 + 1].s) + covered(L.v[t2 + 2].s);
    assert_int_equal(c1, 128);                     /* 2 rows of 64: the larger map fills them */
    assert_int_equal(c2, 64);                      /* half the reservation, half the cells */
    assert_non_null(strstr(L.v[t2 + 2].s, "····")); /* the rest: not reserved */
    assert_non_null(strstr(L.v[t1 + 1].s, "░"));
    assert_non_null(strstr(L.v[t1 + 1].s, "│"));   /* segments meet */
    assert_null(strstr(L.v[t1 + 1].s, "a"));        /* no letters */
    assert_true(contains(&L, "░ seg 1 … seg 8  8 × 16 MiB"));
    assert_true(contains(&L, "█ 32 MiB #1 … 32 MiB #4  4 × 32 MiB"));
    assert_true(contains(&L, "total 128 MiB of 256 MiB"));
    assert_true(contains(&L, "█ allocated  ░ cached  │ segment  total 256 MiB"));
    assert_true(contains(&L, "█ allocated  · not reserved  │ segment  total 128 MiB"));
    /* m2: four 32 MiB segments holding two blocks each: three seams, not seven */
    int seams = 0;
    for (int r = 1; r <= 2; r++)
        for (const char *p = L.v[t2 + r].s; (p = strstr(p, "│")); p++) seams++;
    assert_int_equal(seams, 3);
    tui_lines_free(&L);
    /* a declared scale: the lesson fixes it before any map arrives */
    struct lt_panel big[] = {{"m1", "map", "16 then 32", "", "", "", false, 1024.0 * 1048576, false}};
    tui_panelset_declare(ps, big, 1);
    tui_panelset_render(ps, &L, 64, false, "zh");
    for (int i = 0; i < L.n; i++)
        if (!strcmp(L.v[i].s, "16 then 32")) t1 = i;
    assert_int_equal(covered(L.v[t1 + 1].s) + covered(L.v[t1 + 2].s), 32); /* 256 of 1024 MiB */
    assert_true(contains(&L, "已分配"));
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

/* The key figure: the panel the experiment names comes first, with a headline row that holds
 * the figure; a curve's key figure is its peak; no key, no headline. */
static void test_key_figure(void **state)
{
    (void)state;
    struct tui_panelset *ps = tui_panelset_new(false);
    struct lt_panel d[] = {{"bw", "bars", "Bandwidth", "", "", "GB/s", false, 0, false},
                           {"r", "bars", "VRAM / RAM", "", "", "x", false, 0, true}};
    tui_panelset_declare(ps, d, 2);
    struct tui_keyfig k;
    assert_false(tui_panelset_key(ps, &k)); /* nothing yet */
    ev_bar(ps, "bw", "RAM (triad)", 59.9, "GB/s", LT_MEASURED);
    ev_bar(ps, "bw", "PCIe H2D", 25.97, "GB/s", LT_SIMULATED);
    ev_bar(ps, "r", "VRAM/RAM", 13.6, "x", LT_SIMULATED);
    assert_true(tui_panelset_key(ps, &k));
    assert_string_equal(k.label, "VRAM/RAM");
    assert_true(fabs(k.value - 13.6) < 1e-9);
    assert_int_equal(k.style, LT_SIMULATED);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 60, false, "en");
    assert_string_equal(L.v[0].s, "VRAM / RAM                                       [SIMULATED]");
    assert_non_null(strstr(L.v[1].s, "▶ VRAM/RAM  13.6"));
    assert_non_null(strstr(L.v[1].s, "SIM"));
    assert_int_equal(L.v[1].st[0], TS_EM);
    int bw = -1;
    for (int i = 0; i < L.n; i++)
        if (strstr(L.v[i].s, "Bandwidth")) bw = i;
    assert_true(bw > 2); /* the other panel after it */
    tui_lines_free(&L);
    tui_panelset_free(ps);

    /* a curve: the highest point of any series, and where */
    ps = tui_panelset_new(false);
    struct lt_panel c[] = {{"c", "curve", "Copy bandwidth", "bytes", "GB/s", "GB/s", true, 0, true}};
    tui_panelset_declare(ps, c, 1);
    for (int i = 10; i <= 30; i += 2) {
        ev_point(ps, "c", "H2D pinned", pow(2, i), 25.0 * pow(2, i) / (pow(2, i) + 2e5), LT_SIMULATED);
        ev_point(ps, "c", "D2D", pow(2, i), 900.0 * pow(2, i) / (pow(2, i) + 4e6), LT_SIMULATED);
    }
    assert_true(tui_panelset_key(ps, &k));
    assert_true(k.curve);
    assert_string_equal(k.label, "D2D");
    assert_true(fabs(k.x - pow(2, 30)) < 1);
    tui_panelset_render(ps, &L, 70, false, "en");
    assert_non_null(strstr(L.v[1].s, "▶ peak D2D"));
    assert_non_null(strstr(L.v[1].s, "@ 1G"));
    tui_lines_free(&L);
    /* every width: the headline fits */
    for (int w = 1; w <= 90; w++) {
        tui_panelset_render(ps, &L, w, w % 2, "en");
        for (int i = 0; i < L.n; i++)
            if (L.v[i].width > w && !(w < 2 && L.v[i].width == 2)) fail_msg("width %d: '%s'", w, L.v[i].s);
        tui_lines_free(&L);
    }
    tui_panelset_free(ps);
}

/* Bars read like a table: values right-aligned with one precision per panel (decimal points in
 * one column), a declared scale that holds while results arrive, a paired theoretical peak as a
 * marker on its bar; a gauge on one line with a track, turning alarming near full. */
static void test_bars_and_gauges(void **state)
{
    (void)state;
    struct tui_panelset *ps = tui_panelset_new(false);
    struct lt_panel d[] = {{"bw", "bars", "Bandwidth", "", "", "GB/s", false, 1000, false},
                           {"g", "gauge", "Cap", "", "", "GiB", false, 0, false}};
    tui_panelset_declare(ps, d, 2);
    ev_bar(ps, "bw", "RAM (triad)", 59.9, "GB/s", LT_MEASURED);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 60, false, "en");
    /* the declared scale: 59.9 of 1000 is a short bar, not the whole width */
    const char *row = L.v[1].s;
    int cells = 0;
    for (const char *q = row; (q = strstr(q, "█")); q += 3) cells++;
    assert_true(cells >= 1 && cells <= 4);
    tui_lines_free(&L);
    struct lt_event v = {.type = LT_EV_BAR, .panel = "bw", .series = T("VRAM (D2D copy)"), .value = 813.7,
                         .max = 936.1, .unit = T("GB/s"), .style = LT_SIMULATED};
    tui_panelset_apply(ps, &v);
    ev_bar(ps, "bw", "PCIe H2D", 25.97, "GB/s", LT_SIMULATED);
    tui_panelset_render(ps, &L, 70, false, "en");
    int dots[3], k = 0;
    for (int i = 0; i < L.n && k < 3; i++) {
        const char *dp = strstr(L.v[i].s, " GB/s");
        if (!dp || !strchr(L.v[i].s, '.')) continue;
        /* the column of the decimal point, in display cells */
        const char *pt = dp;
        while (pt > L.v[i].s && *pt != '.') pt--;
        dots[k++] = tui_width(L.v[i].s, (size_t)(pt - L.v[i].s));
    }
    assert_int_equal(k, 3);
    assert_int_equal(dots[0], dots[1]);
    assert_int_equal(dots[1], dots[2]);
    assert_true(contains(&L, " 59.9 GB/s"));
    assert_true(contains(&L, "813.7 GB/s SIM"));
    assert_true(contains(&L, " 26.0 GB/s SIM"));
    /* the peak: a marker on the VRAM row, past its fill, and said once in words */
    for (int i = 0; i < L.n; i++)
        if (strstr(L.v[i].s, "VRAM (D2D copy)") && strstr(L.v[i].s, "SIM")) {
            const char *mk = strstr(L.v[i].s, "│");
            assert_non_null(mk);
            assert_int_equal(L.v[i].st[mk - L.v[i].s], TS_THEORETICAL);
        }
    assert_true(contains(&L, "│ theoretical peak 936.1 GB/s (VRAM (D2D copy))"));
    assert_false(contains(&L, "▓"));
    tui_lines_free(&L);
    /* gauges: one line, a dim track, the fill colour by level */
    struct lt_event g = {.type = LT_EV_GAUGE, .panel = "g", .series = T("reserved"), .value = 18,
                         .max = 24, .unit = T("GiB"), .style = LT_MEASURED};
    tui_panelset_apply(ps, &g);
    tui_panelset_render(ps, &L, 60, false, "en");
    int gi = -1;
    for (int i = 0; i < L.n; i++)
        if (strstr(L.v[i].s, "reserved [")) gi = i;
    assert_true(gi >= 0);
    assert_non_null(strstr(L.v[gi].s, "░"));
    assert_non_null(strstr(L.v[gi].s, "18 / 24 GiB  75%"));
    const char *full = strstr(L.v[gi].s, "█");
    assert_int_equal(L.v[gi].st[full - L.v[gi].s], TS_WARN_LABEL); /* 75 %: a warning */
    tui_lines_free(&L);
    g.value = 24;
    tui_panelset_apply(ps, &g);
    tui_panelset_render(ps, &L, 60, false, "en");
    for (int i = 0; i < L.n; i++)
        if ((full = strstr(L.v[i].s, "reserved ["))) {
            full = strstr(L.v[i].s, "█");
            assert_int_equal(L.v[i].st[full - L.v[i].s], TS_BAD); /* a full cap: alarming */
        }
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

/* A curve fits the rows the screen gives it (title, unit line, plot, axis, legend, footer), and
 * its unit stands at the top of its y axis. */
static void test_curve_fits_rows(void **state)
{
    (void)state;
    struct tui_panelset *ps = tui_panelset_new(false);
    struct lt_panel d = {"c", "curve", "Sweep", "bytes", "GB/s", "GB/s", true, 0, false};
    tui_panelset_declare(ps, &d, 1);
    for (int i = 10; i <= 30; i++) {
        ev_point(ps, "c", "H2D", pow(2, i), 25.0 * pow(2, i) / (pow(2, i) + 2e5), LT_SIMULATED);
        ev_point(ps, "c", "D2D", pow(2, i), 900.0 * pow(2, i) / (pow(2, i) + 4e6), LT_SIMULATED);
    }
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 78, false, "en");
    int tall = L.n;
    assert_string_equal(L.v[1].s, "GB/s");
    tui_lines_free(&L);
    for (int rows = 10; rows <= 16; rows++) {
        tui_panelset_set_rows(ps, rows);
        tui_panelset_render(ps, &L, 78, false, "en");
        if (L.n > rows) fail_msg("%d rows given, the curve takes %d", rows, L.n);
        tui_lines_free(&L);
    }
    assert_true(tall > 16);
    tui_panelset_free(ps);
}

/* Marks, bands and a limit: where they are drawn and what they say. */
static void test_marks_bands_limit(void **state)
{
    (void)state;
    struct tui_panelset *ps = sample(false);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 78, false, "en");
    /* the mark: ▼ on the plot, its label under the axis, its values listed */
    assert_true(contains(&L, "▲ n½ H2D"));
    assert_true(contains(&L, "▼ n½ H2D: 14.20 GB/s, 256 KiB"));
    /* the band over its stretch, its label whole */
    assert_true(contains(&L, "latency 延迟"));
    assert_true(contains(&L, "├"));
    /* the limit: through every bar, a verdict on each, named with its value and the count */
    assert_true(contains(&L, "┃ PCIe link 31.5 GB/s: 2 of 4 fit"));
    int fit = 0, over = 0;
    for (int i = 0; i < L.n; i++) {
        if (strstr(L.v[i].s, "✓ fits")) fit++, assert_non_null(strstr(L.v[i].s, "┃"));
        if (strstr(L.v[i].s, "✗ over")) over++, assert_non_null(strstr(L.v[i].s, "┃"));
    }
    assert_int_equal(fit, 2);
    assert_int_equal(over, 2);
    tui_lines_free(&L);
    /* a mark sent again moves (one per label); an empty curve shows none */
    struct lt_event mk = {.type = LT_EV_MARK, .panel = "sweep", .series = T("n½ H2D"), .x = 524288, .y = 18};
    tui_panelset_apply(ps, &mk);
    tui_panelset_render(ps, &L, 78, false, "en");
    assert_true(contains(&L, "▼ n½ H2D: 18 GB/s, 512 KiB"));
    assert_false(contains(&L, "256 KiB"));
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

/* Bars with a blank line between them, where the rows allow. */
static void test_bar_gaps(void **state)
{
    (void)state;
    struct tui_panelset *ps = tui_panelset_new(false);
    struct lt_panel d = {"b", "bars", "Three", "", "", "GiB", false, 0, false};
    tui_panelset_declare(ps, &d, 1);
    ev_bar(ps, "b", "one", 1, "GiB", LT_MEASURED);
    ev_bar(ps, "b", "two", 2, "GiB", LT_MEASURED);
    ev_bar(ps, "b", "three", 3, "GiB", LT_MEASURED);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 60, false, "en");
    int a = -1;
    for (int i = 0; i < L.n; i++)
        if (!strncmp(L.v[i].s, "one", 3)) a = i;
    assert_true(a > 0 && a + 4 < L.n);
    assert_int_equal(L.v[a + 1].len, 0);
    assert_int_equal(strncmp(L.v[a + 2].s, "two", 3), 0);
    assert_int_equal(L.v[a + 3].len, 0);
    tui_lines_free(&L);
    /* a viewport too short for the gaps: the bars close up */
    tui_panelset_set_rows(ps, 5);
    tui_panelset_render(ps, &L, 60, false, "en");
    for (int i = 0; i < L.n; i++)
        if (!strncmp(L.v[i].s, "one", 3)) assert_int_equal(strncmp(L.v[i + 1].s, "two", 3), 0);
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

/* The block under `marker` in docs/visual-language.md (between its ``` fences), or NULL. */
static char *doc_block(const char *marker)
{
    FILE *f = fopen("docs/visual-language.md", "r");
    if (!f) return NULL;
    static char buf[1 << 17];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *at = strstr(buf, marker);
    if (!at || !(at = strstr(at, "```\n"))) return NULL;
    at += 4;
    char *end = strstr(at, "```");
    if (!end) return NULL;
    return strndup(at, (size_t)(end - at));
}

/* Lines joined with '\n', trailing blanks dropped, as a picture in the docs shows them. */
static char *joined(const struct tui_lines *L)
{
    size_t cap = 1;
    for (int i = 0; i < L->n; i++) cap += (size_t)L->v[i].len + 1;
    char *s = malloc(cap), *o = s;
    for (int i = 0; i < L->n; i++) {
        int l = L->v[i].len;
        while (l > 0 && L->v[i].s[l - 1] == ' ') l--;
        memcpy(o, L->v[i].s, (size_t)l), o += l, *o++ = '\n';
    }
    *o = 0;
    return s;
}

/* Replace the block under `marker` with `pic` (VRAMLAB_UPDATE_PICTURES=1: the docs follow). */
static void doc_write(const char *marker, const char *pic)
{
    FILE *f = fopen("docs/visual-language.md", "r");
    assert_non_null(f);
    static char buf[1 << 17];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *at = strstr(strstr(buf, marker), "```\n") + 4, *end = strstr(at, "```");
    f = fopen("docs/visual-language.md", "w");
    assert_non_null(f);
    fwrite(buf, 1, (size_t)(at - buf), f);
    fputs(pic, f);
    fputs(end, f);
    fclose(f);
}

/* L is the picture under "<!-- picture: WHAT, from tests/unit/test_tui_panel.c -->"; frees L. */
static void doc_check(struct tui_lines *L, const char *what)
{
    char marker[160];
    snprintf(marker, sizeof marker, "<!-- picture: %s, from tests/unit/test_tui_panel.c -->", what);
    char *got = joined(L), *want = doc_block(marker);
    if (want && strcmp(got, want) && getenv("VRAMLAB_UPDATE_PICTURES")) doc_write(marker, got);
    else if (!want || strcmp(got, want))
        fail_msg("docs/visual-language.md: the picture of %s is not what renders; it should be:\n%s", what, got);
    free(got), free(want);
    tui_lines_free(L);
}

/* The pictures in docs/visual-language.md are what this code renders. */
static void test_doc_pictures(void **state)
{
    (void)state;
    struct tui_panelset *ps = tui_panelset_new(false);
    struct lt_panel d[] = {{"bw", "bars", "Bandwidth (read+write, GB/s)", "", "", "GB/s", false, 1000, false},
                           {"g", "gauge", "Reserved vs the cap", "", "", "GiB", false, 0, false}};
    tui_panelset_declare(ps, d, 2);
    ev_bar(ps, "bw", "RAM (triad)", 59.9, "GB/s", LT_MEASURED);
    struct lt_event v = {.type = LT_EV_BAR, .panel = "bw", .series = T("VRAM (D2D copy)"), .value = 813.7,
                         .max = 936.1, .unit = T("GB/s"), .style = LT_SIMULATED};
    tui_panelset_apply(ps, &v);
    ev_bar(ps, "bw", "PCIe H2D (pinned)", 25.97, "GB/s", LT_SIMULATED);
    struct lt_event g = {.type = LT_EV_GAUGE, .panel = "g", .series = T("reserved"), .value = 18,
                         .max = 24, .unit = T("GiB"), .style = LT_MEASURED};
    tui_panelset_apply(ps, &g);
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 78, false, "en");
    doc_check(&L, "bars and a gauge at 78 columns");
    tui_panelset_free(ps);
    /* the curves: a latency ladder (log y by itself), copy bandwidth in UTF-8 and in ASCII */
    ps = tui_panelset_new(false);
    struct lt_panel lat = {"lat", "curve", "Latency ladder", "bytes", "ns", "ns", true, 0, false};
    tui_panelset_declare(ps, &lat, 1);
    double ns[] = {1, 1.2, 4, 12, 40, 90, 400};
    for (int i = 0; i < 7; i++) ev_point(ps, "lat", "chase", pow(2, 12 + 3 * i), ns[i], LT_MEASURED);
    tui_panelset_render(ps, &L, 78, false, "en");
    doc_check(&L, "a latency ladder at 78 columns");
    tui_panelset_free(ps);
    for (int ascii = 0; ascii < 2; ascii++) {
        ps = tui_panelset_new(ascii);
        struct lt_panel bw = {"bw", "curve", "Copy bandwidth", "bytes", "GB/s", "GB/s", true, 0, false};
        tui_panelset_declare(ps, &bw, 1);
        for (int i = 10; i <= 30; i++) {
            double x = pow(2, i);
            ev_point(ps, "bw", "H2D pinned", x, 25.0 * x / (x + 2e5), LT_SIMULATED);
            ev_point(ps, "bw", "D2D", x, 900.0 * x / (x + 4e6), LT_SIMULATED);
        }
        struct lt_event note = {.type = LT_EV_NOTE, .panel = "bw", .text = T("a neutral note")};
        tui_panelset_apply(ps, &note);
        tui_panelset_render(ps, &L, 78, ascii, "en");
        doc_check(&L, ascii ? "copy bandwidth in ASCII at 78 columns" : "copy bandwidth at 78 columns");
        tui_panelset_free(ps);
    }
}

/* A panel table fits its width without ever putting a number and its unit on two lines: the
 * header wraps, the outer frame goes, a column's one unit moves into its header ("time (ms)"),
 * long labels end in "…", and what still cannot fit is said in one line naming the key that
 * shows it whole; shown whole it becomes records. Every row of a table has one display width,
 * Chinese labels included. */
static struct tui_panelset *wide_table(bool zh)
{
    struct tui_panelset *ps = tui_panelset_new(false);
    tui_panelset_set_lang(ps, zh ? "zh" : "en");
    struct lt_panel d = {"t", "table", "Oversubscribed passes", "", "", "", false, 0, false};
    tui_panelset_declare(ps, &d, 1);
    static const char *const rows[][6] = {
        {"program", "pass", "time", "rate", "faulted in", "evicted"},
        {"as it is", "1", "673.15 ms", "5.60 GB/s", "3.51 GiB", "1.17 GiB"},
        {"as it is", "2", "865.48 ms", "4.36 GB/s", "3.51 GiB", "3.51 GiB"},
        {"read in place with the pages advised to stay", "1", "151.85 ms", "24.84 GB/s", "0 B", "0 B"},
    };
    static const char *const zh_label[] = {"程序", "照原样", "照原样", "就地读取，页面建议留在主机内存"};
    for (int r = 0; r < 4; r++) {
        struct lt_text c[6];
        for (int k = 0; k < 6; k++) c[k] = T(rows[r][k]);
        if (zh) c[0] = (struct lt_text){{rows[r][0], zh_label[r]}};
        struct lt_event e = {.type = LT_EV_ROW, .panel = "t", .ncells = 6, .cells = c};
        tui_panelset_apply(ps, &e);
    }
    return ps;
}

static bool any_line(const struct tui_lines *L, const char *needle)
{
    for (int i = 0; i < L->n; i++)
        if (strstr(L->v[i].s, needle)) return true;
    return false;
}

static void test_table_fits(void **state)
{
    (void)state;
    static const char *const units[] = {"ms", "GB/s", "GiB", "B"};
    for (int zh = 0; zh < 2; zh++)
        for (int framed = 0; framed < 2; framed++) {
            struct tui_panelset *ps = wide_table(zh);
            for (int w = 12; w <= 140; w++) {
                struct tui_panel_view v = {framed, 'z', false};
                tui_panelset_set_view(ps, &v);
                struct tui_lines L = {0};
                tui_panelset_render(ps, &L, w, false, zh ? "zh" : "en");
                int tw = -1;
                for (int i = 0; i < L.n; i++) {
                    const char *s = L.v[i].s;
                    if (L.v[i].width > w) fail_msg("width %d: '%s' is %d wide", w, s, L.v[i].width);
                    /* a unit never starts a cell's line: the number before it is on its line */
                    for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
                        char bad[32];
                        snprintf(bad, sizeof bad, "│ %s ", units[u]);
                        if (strstr(s, bad)) fail_msg("width %d: a unit alone: '%s'", w, s);
                    }
                    /* the table's rows (they hold its column rule) all have one width */
                    if (strstr(s, "│") && (strstr(s, "673.15") || strstr(s, "865.48") || strstr(s, "151.85"))) {
                        if (tw < 0) tw = L.v[i].width;
                        else if (L.v[i].width != tw) fail_msg("width %d: row '%s' is %d wide, not %d", w, s, L.v[i].width, tw);
                    }
                }
                bool moved = any_line(&L, "(ms)") || any_line(&L, "（ms）");
                if (any_line(&L, "673.15") && !moved && !any_line(&L, "673.15 ms"))
                    fail_msg("width %d: 673.15 without its unit, none in the header", w);
                if (w >= 104) assert_true(any_line(&L, "673.15 ms") && !moved);
                if (w < 60 && !zh) {
                    bool cut = any_line(&L, "z shows the table whole") || any_line(&L, "z: whole");
                    assert_true(cut || moved || any_line(&L, "…"));
                    if (w <= 30 && w >= 24 && !cut) fail_msg("width %d: a table cut, and no line says so", w);
                }
                tui_lines_free(&L);
            }
            /* shown whole, at a width that cannot hold the columns: records */
            struct tui_panel_view v = {framed, 0, true};
            tui_panelset_set_view(ps, &v);
            struct tui_lines L = {0};
            tui_panelset_render(ps, &L, 30, false, zh ? "zh" : "en");
            assert_true(any_line(&L, "time: 673.15 ms"));
            assert_false(any_line(&L, "shows the table whole"));
            tui_lines_free(&L);
            tui_panelset_free(ps);
        }
    /* framed: the title in the top edge, the frame closed, no SIMULATED (the screen says it) */
    struct tui_panelset *ps = wide_table(false);
    struct lt_event b = {.type = LT_EV_BAR, .panel = "t", .series = T("x"), .value = 1, .unit = T("GB/s"),
                         .style = LT_SIMULATED};
    tui_panelset_apply(ps, &b);
    tui_panelset_set_view(ps, &(struct tui_panel_view){true, 'z', false});
    struct tui_lines L = {0};
    tui_panelset_render(ps, &L, 60, false, "en");
    assert_true(L.n > 3);
    assert_true(strncmp(L.v[0].s, "┌ Oversubscribed passes ─", strlen("┌ Oversubscribed passes ─")) == 0);
    assert_true(strncmp(L.v[L.n - 1].s, "└─", strlen("└─")) == 0);
    for (int i = 0; i < L.n; i++) {
        assert_int_equal(L.v[i].width, 60);
        assert_null(strstr(L.v[i].s, "SIMULATED"));
    }
    tui_lines_free(&L);
    tui_panelset_free(ps);
}

/* One column left out, its name too long to list: "+1 column: z shows the table whole" (was
 * "+1 columns"); two: "+2 columns". */
static void test_table_cut_count(void **state)
{
    (void)state;
    for (int hidden = 1; hidden <= 2; hidden++) {
        struct tui_panelset *ps = tui_panelset_new(false);
        struct lt_panel d = {"t", "table", "Lecture vs this machine", "", "", "", false, 0, false};
        tui_panelset_declare(ps, &d, 1);
        static const char *const rows[][4] = {
            {"Dimension", "Lecture RAM", "a very long measured column name", "another long column name"},
            {"Bandwidth", "~50 GB/s", "23.30 GB/s", "832.0 GB/s"},
        };
        for (int r = 0; r < 2; r++) {
            struct lt_text c[4];
            for (int k = 0; k < 4; k++) c[k] = T(rows[r][k]);
            struct lt_event e = {.type = LT_EV_ROW, .panel = "t", .ncells = 2 + hidden, .cells = c};
            tui_panelset_apply(ps, &e);
        }
        tui_panelset_set_view(ps, &(struct tui_panel_view){true, 'z', false});
        bool seen = false;
        for (int w = 30; w <= 60; w++) {
            struct tui_lines L = {0};
            tui_panelset_render(ps, &L, w, false, "en");
            if (any_line(&L, "+1 columns")) fail_msg("width %d: '+1 columns'", w);
            seen |= any_line(&L, hidden == 1 ? "+1 column: z" : "+2 columns: z");
            tui_lines_free(&L);
        }
        assert_true(seen);
        tui_panelset_free(ps);
    }
}

int main(void)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8")) {
        printf("SKIP: no UTF-8 locale\n");
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fits_every_width),
        cmocka_unit_test(test_content),
        cmocka_unit_test(test_odd_input),
        cmocka_unit_test(test_extreme_values),
        cmocka_unit_test(test_curve_order),
        
        cmocka_unit_test(test_curve_markers),
        cmocka_unit_test(test_curve_connected),
        cmocka_unit_test(test_curve_log_y),
        cmocka_unit_test(test_placeholder_only_when_empty),
        cmocka_unit_test(test_map_to_scale),
        cmocka_unit_test(test_key_figure),
        cmocka_unit_test(test_bars_and_gauges),
        cmocka_unit_test(test_curve_fits_rows),
        cmocka_unit_test(test_marks_bands_limit),
        cmocka_unit_test(test_bar_gaps),
        cmocka_unit_test(test_doc_pictures),
        cmocka_unit_test(test_table_fits),
        cmocka_unit_test(test_table_cut_count),
        cmocka_unit_test(test_curve_axis_grouping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
