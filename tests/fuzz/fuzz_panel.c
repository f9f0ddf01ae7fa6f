/* fuzz_panel.c - libFuzzer target for the live panels: events with any values, from the raw
 * bytes of the input, applied to a panel set (tui_panelset_apply, also tui_panelset_declare)
 * and rendered at widths 1, 7, 49 and 200, UTF-8 and ASCII (up to 64 events an input, each with up to LT_EVENT_MAX_ITEMS cells or map blocks, a state past the list included). Numbers are either raw doubles from the
 * input or picked from the edges (NaN, +-inf, 1e300, 2^31..2^64, denormals, -0), so the
 * fuzzer reaches values that overflow an int on its first inputs. Properties: no write outside
 * a buffer (ASan), no undefined conversion (UBSan), every rendered line is as wide as it says
 * and fits its width (a line of one wide glyph at width 1 excepted), no line stored short. */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_panel.h"
#include "tui_wrap.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_panel: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);     \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8"))
        fprintf(stderr, "fuzz_panel: no UTF-8 locale: non-ASCII glyphs count one column\n");
    return 0;
}

struct in {
    const uint8_t *p;
    size_t n;
};

static uint8_t byte(struct in *in)
{
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

static const double edges[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300, 2147483647.0,
                               2147483648.0, 4294967232.0, 4294967296.0, 9223372036854775807.0,
                               18446744073709551616.0, -2147483649.0, 5e-324, -0.0, 0, 1, -1, 147,
                               1.7976931348623157e308, 1e-300, 24.0 * (1 << 30), 0.5};

static double number(struct in *in)
{
    uint8_t sel = byte(in);
    if (sel < 0x80) return edges[sel % (sizeof edges / sizeof edges[0])];
    double d = 0;
    uint64_t bits = 0;
    for (int i = 0; i < 8; i++) bits = bits << 8 | byte(in);
    memcpy(&d, &bits, sizeof d);
    return sel & 1 ? d : (double)(int64_t)(bits >> 1) * (sel & 2 ? 1 : -1);
}

/* A short string from the input (up to 24 bytes, any bytes but NUL). */
static const char *text(struct in *in, char *buf)
{
    size_t l = byte(in) % 25, k = 0;
    for (size_t i = 0; i < l && in->n; i++) {
        char c = (char)byte(in);
        if (c) buf[k++] = c;
    }
    buf[k] = 0;
    return buf;
}

static void render_all(const struct tui_panelset *ps, bool ascii)
{
    static const int widths[] = {1, 7, 49, 200};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        struct tui_lines L = {0};
        tui_panelset_render(ps, &L, widths[w], ascii, w % 2 ? "zh" : "en");
        CHECK(!L.oom);
        for (int i = 0; i < L.n; i++) {
            CHECK((int)strlen(L.v[i].s) == L.v[i].len);
            CHECK(tui_width(L.v[i].s, (size_t)L.v[i].len) == L.v[i].width);
            CHECK(L.v[i].width <= widths[w] || (widths[w] < 2 && L.v[i].width <= 2));
        }
        tui_lines_free(&L);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct in in = {data, size};
    struct tui_panelset *ps[2] = {tui_panelset_new(false), tui_panelset_new(true)};
    CHECK(ps[0] && ps[1]);
    static const char *const ids[] = {"m", "c", "b", "g", "t", "n", ""};
    static const char *const kinds[] = {"map", "curve", "bars", "gauge", "table", "?"};
    for (int k = 0; k < 64 && in.n; k++) {
        char s1[32], s2[32], s3[32], s4[32], cells[LT_EVENT_MAX_ITEMS][32];
        struct lt_text tc[LT_EVENT_MAX_ITEMS];
        struct lt_map_block blk[LT_EVENT_MAX_ITEMS];
        uint8_t t = byte(&in);
        if (t == 0xff) { /* (re)declare the panels, as a lesson or a language switch does */
            struct lt_panel decl[4];
            int nd = byte(&in) % 5;
            for (int i = 0; i < nd; i++)
                decl[i] = (struct lt_panel){ids[byte(&in) % 7], kinds[byte(&in) % 6], text(&in, s1),
                                            "bytes", "y", "GB/s", (bool)(byte(&in) & 1),
                                            byte(&in) * 1048576.0, (bool)(byte(&in) & 1)};
            for (int a = 0; a < 2; a++) tui_panelset_declare(ps[a], decl, nd);
            continue;
        }
        struct lt_event ev = {.type = (enum lt_event_type)(t % LT_EV_COUNT),
                              .panel = ids[byte(&in) % 7], .style = (enum lt_style)(byte(&in) % 5)};
        /* texts in two languages, one of them sometimes missing (a zeroed text reads as "") */
        ev.series = (struct lt_text){{text(&in, s1), byte(&in) & 1 ? text(&in, s4) : NULL}};
        ev.text = lt_text1(text(&in, s2));
        ev.unit = lt_text1(text(&in, s3));
        ev.x = number(&in), ev.y = number(&in), ev.value = number(&in), ev.max = number(&in);
        int n = byte(&in) % (LT_EVENT_MAX_ITEMS + 1);
        for (int i = 0; i < n; i++) {
            tc[i] = lt_text1(text(&in, cells[i]));
            double b = number(&in); /* a block's bytes: any value an emitter may clamp to */
            blk[i] = (struct lt_map_block){tc[i], (enum lt_map_state)(byte(&in) % (LT_MAP_COUNT + 1)),
                                           b > 0 && b < 1.8e19 ? (uint64_t)b : (uint64_t)byte(&in) << 56,
                                           byte(&in) % 4};
        }
        if (byte(&in) & 1) ev.cells = tc, ev.ncells = n;
        else ev.blocks = blk, ev.nblocks = n;
        for (int a = 0; a < 2; a++) tui_panelset_apply(ps[a], &ev);
    }
    for (int a = 0; a < 2; a++) {
        render_all(ps[a], a);
        tui_panelset_free(ps[a]);
    }
    return 0;
}
