/* test_tui_wrap.c - the UTF-8 wrapper and the markup renderer: every line fits its width (by
 * wcwidth), no UTF-8 sequence or wide glyph is split, re-wrapping the joined output is stable,
 * fitting pads/cuts to the exact width, tables align by display width with CJK cells, and the
 * ASCII fallback emits ASCII only. Needs a UTF-8 locale (C.UTF-8 is tried first). */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui_render.h"
#include "tui_wrap.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* bnd[i] is true when byte i starts a glyph (or i == n). */
static bool *boundaries(const char *s, size_t n)
{
    bool *b = calloc(n + 1, 1);
    assert_non_null(b);
    for (size_t i = 0; i < n;) {
        unsigned cp;
        b[i] = true;
        i += (size_t)gpu_utf8_decode(s + i, n - i, &cp);
    }
    b[n] = true;
    return b;
}

static int glyphs(const char *s, size_t n)
{
    int g = 0;
    for (size_t i = 0; i < n; g++) {
        unsigned cp;
        i += (size_t)gpu_utf8_decode(s + i, n - i, &cp);
    }
    return g;
}

static bool only_blanks(const char *s, size_t n, bool *newline)
{
    *newline = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n') *newline = true;
        else if (s[i] != ' ' && s[i] != '\t') return false;
    }
    return true;
}

/* Wrap, check the per-line properties, and return the lines as one string joined the way a
 * reader would (a break at blanks -> one space, at '\n' -> '\n', elsewhere nothing). */
static char *check_wrap(const char *s, size_t n, int width)
{
    struct tui_wline *wl;
    int nl = tui_wrap(s, n, width, &wl);
    assert_true(nl >= 1);
    bool *bnd = boundaries(s, n);
    size_t cap = n + (size_t)nl + 2, o = 0;
    char *join = malloc(cap);
    assert_non_null(join);
    int prev_end = 0;
    for (int i = 0; i < nl; i++) {
        struct tui_wline *l = &wl[i];
        assert_true(l->start >= prev_end && l->start <= l->end && (size_t)l->end <= n);
        if (!bnd[l->start] || !bnd[l->end])
            fail_msg("width %d: line %d [%d,%d) splits a UTF-8 sequence", width, i, l->start,
                     l->end);
        int w = tui_width(s + l->start, (size_t)(l->end - l->start));
        assert_int_equal(w, l->width);
        if (w > width && !(width < 2 && w == 2 && glyphs(s + l->start, (size_t)(l->end - l->start)) == 1))
            fail_msg("width %d: line %d is %d columns wide: '%.*s'", width, i, w,
                     l->end - l->start, s + l->start);
        /* what lies between two lines is only blanks and newlines: nothing is lost */
        bool nlgap = false;
        if (i > 0) {
            if (!only_blanks(s + prev_end, (size_t)(l->start - prev_end), &nlgap))
                fail_msg("width %d: text lost before line %d", width, i);
            bool blanks = l->start > prev_end;
            const char *sep = nlgap ? "\n" : blanks ? " " : "";
            memcpy(join + o, sep, strlen(sep));
            o += strlen(sep);
        }
        memcpy(join + o, s + l->start, (size_t)(l->end - l->start));
        o += (size_t)(l->end - l->start);
        /* an output line wrapped alone at the same width is itself */
        struct tui_wline *one;
        int k = tui_wrap(s + l->start, (size_t)(l->end - l->start), width, &one);
        assert_int_equal(k, 1);
        assert_int_equal(one[0].end - one[0].start, l->end - l->start);
        free(one);
        prev_end = l->end;
    }
    bool nlgap;
    if (!only_blanks(s + prev_end, n - (size_t)prev_end, &nlgap)) fail_msg("text lost at the end");
    join[o] = 0;
    free(bnd);
    free(wl);
    return join;
}

static void lines_of(const char *s, size_t n, int width, char ***out, int *count)
{
    struct tui_wline *wl;
    int nl = tui_wrap(s, n, width, &wl);
    assert_true(nl >= 1);
    char **v = calloc((size_t)nl, sizeof *v);
    for (int i = 0; i < nl; i++) v[i] = strndup(s + wl[i].start, (size_t)(wl[i].end - wl[i].start));
    free(wl);
    *out = v, *count = nl;
}

static void check_stable(const char *s, int width)
{
    char *j1 = check_wrap(s, strlen(s), width);
    char **a, **b;
    int na, nb;
    lines_of(s, strlen(s), width, &a, &na);
    lines_of(j1, strlen(j1), width, &b, &nb);
    if (na != nb) fail_msg("width %d: re-wrap gives %d lines, first wrap %d", width, nb, na);
    for (int i = 0; i < na; i++) {
        if (strcmp(a[i], b[i])) fail_msg("width %d line %d: '%s' vs '%s'", width, i, a[i], b[i]);
        free(a[i]);
        free(b[i]);
    }
    free(a);
    free(b);
    free(j1);
}

static const char *samples[] = {
    "",
    "a",
    "Hello world, this is a paragraph about VRAM bandwidth measured in GB/s.",
    "显存（VRAM）是显卡上的专用内存，用来存放模型权重、激活值和 KV 缓存。它的带宽远高于系统内存。",
    "Mixed 中英文 text: HBM3e 显存带宽 4.8 TB/s，而 DDR5 只有约 100 GB/s。",
    "supercalifragilisticexpialidocious_and_an_overlong_identifier_without_spaces",
    "https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#memory-optimizations",
    "line one\nline two\n\n  indented code line\n",
    "tab\tseparated\tvalues and trailing   ",
    "emoji 🚀🚀 rockets and combining e\xcc\x81 accents",
    "bad bytes \xff\xfe here \xe4\xb8 cut \xf0\x9f sequence",
    "「引号」里的内容，以及《书名》。还有、顿号；分号：冒号！感叹号？问号。",
    "————……全角　空格",
};

static void test_samples(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++)
        for (int w = 1; w <= 90; w++) {
            char *j = check_wrap(samples[i], strlen(samples[i]), w);
            free(j);
        }
}

static void test_known_breaks(void **state)
{
    (void)state;
    char **v;
    int n;
    lines_of("the quick brown fox", 19, 10, &v, &n);
    assert_int_equal(n, 2);
    assert_string_equal(v[0], "the quick");
    assert_string_equal(v[1], "brown fox");
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
    /* CJK breaks between any two characters, 2 columns each */
    const char *z = "显存带宽很高";
    lines_of(z, strlen(z), 5, &v, &n);
    assert_int_equal(n, 3);
    assert_string_equal(v[0], "显存");
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
    /* closing punctuation never starts a line */
    const char *p = "显存带宽。很高";
    lines_of(p, strlen(p), 6, &v, &n);
    for (int i = 0; i < n; i++) {
        assert_true(strncmp(v[i], "。", strlen("。")) != 0);
        free(v[i]);
    }
    free(v);
    /* overlong words are split, never overflow */
    lines_of("abcdefghij", 10, 4, &v, &n);
    assert_int_equal(n, 3);
    assert_string_equal(v[0], "abcd");
    assert_string_equal(v[2], "ij");
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
    /* a number keeps its unit on its line, at every width; "s = 3" is no unit */
    const char *u[] = {"the peak is 16.49 GiB here", "就是它的 0 B）。账本", "at 936.1 GB/s and 93 ns",
                       "copy 1,024 MiB then 45 %", "x 2  KiB y", "when 2 s = 3 holds",
                       "staging (26.07 GB/s pinned)", "FP32 82.6 TFLOPS、1008 GB/s", "masks in 1 byte: ~80-120 ns"};
    for (size_t k = 0; k < sizeof u / sizeof *u; k++)
        for (int w = 4; w <= 30; w++) {
            lines_of(u[k], strlen(u[k]), w, &v, &n);
            for (int i = 0; i + 1 < n; i++) {
                size_t l = strlen(v[i]);
                bool digit_end = l && v[i][l - 1] >= '0' && v[i][l - 1] <= '9';
                bool unit_start = !strncmp(v[i + 1], "GiB", 3) || !strncmp(v[i + 1], "B）", 4) ||
                                  !strncmp(v[i + 1], "GB/s", 4) || !strncmp(v[i + 1], "ns", 2) ||
                                  !strncmp(v[i + 1], "MiB", 3) || !strncmp(v[i + 1], "%", 1) ||
                                  !strncmp(v[i + 1], "KiB", 3) || !strncmp(v[i + 1], "TFLOPS", 6) ||
                                  !strncmp(v[i + 1], "byte", 4);
                if (digit_end && unit_start && tui_width(v[i], l) + 1 < w)
                    fail_msg("'%s' at %d columns: '%s' / '%s'", u[k], w, v[i], v[i + 1]);
            }
            for (int i = 0; i < n; i++) free(v[i]);
            free(v);
        }
    lines_of("a b c 16.49 GiB", 15, 13, &v, &n);
    assert_int_equal(n, 2);
    assert_string_equal(v[0], "a b c");
    assert_string_equal(v[1], "16.49 GiB");
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
    /* the widest run a wrap keeps whole: a number with its unit is one word; fp16 is no number */
    assert_int_equal(tui_word_width("a 16.49 GiB", 11), 9);
    assert_int_equal(tui_word_width("x (26.07 GB/s) y", 16), 12);
    assert_int_equal(tui_word_width("fp16 B", 6), 4);
    assert_int_equal(tui_word_width("显存 0 B", strlen("显存 0 B")), 3);
    lines_of("when 2 s = 3", 12, 7, &v, &n); /* a variable: the break stays */
    assert_string_equal(v[0], "when 2");
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
    /* code indentation survives */
    lines_of("x\n    y", 7, 20, &v, &n);
    assert_int_equal(n, 2);
    assert_string_equal(v[1], "    y");
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* Random text from pieces that stress the wrapper: words, CJK, punctuation, blanks, newlines,
 * combining marks, emoji, invalid bytes. No two blanks in a row (the joined form of a wrap has
 * single blanks, so the stability property is stated for such text). */
static void test_random_stable(void **state)
{
    (void)state;
    static const char *pieces[] = {"a", "word", "VRAM", "GB/s", "x", "显", "存", "带宽", "。", "，",
                                   "（", "）", "「", "」", " ", " ", " ", "\t", "\n", "e\xcc\x81",
                                   "🚀", "\xff", "supercalifragilistic", "1.5", "—", "…", "　"};
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    char buf[600];
    for (int iter = 0; iter < 3000; iter++) {
        size_t o = 0;
        int np = 1 + (int)(seed % 60);
        bool prev_blank = false;
        for (int k = 0; k < np; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const char *pc = pieces[(seed >> 33) % (sizeof pieces / sizeof *pieces)];
            bool blank = pc[0] == ' ' || pc[0] == '\t';
            if (blank && prev_blank) continue;
            size_t l = strlen(pc);
            if (o + l >= sizeof buf) break;
            memcpy(buf + o, pc, l);
            o += l;
            prev_blank = blank;
        }
        buf[o] = 0;
        int w = 1 + (int)((seed >> 20) % 40);
        check_stable(buf, w);
        if (w > 2) check_stable(buf, w / 2);
    }
}

static void test_fit(void **state)
{
    (void)state;
    const char *s[] = {"", "abc", "显存带宽", "a显b存c", "e\xcc\x81x", "\xff\xfe", "GB/s · 测"};
    char out[256];
    for (size_t i = 0; i < sizeof s / sizeof *s; i++)
        for (int w = 0; w < 20; w++)
            for (int al = 0; al < 3; al++)
                for (int ascii = 0; ascii < 2; ascii++) {
                    size_t n = tui_fit(s[i], strlen(s[i]), w, (enum tui_align)al, ascii, out,
                                       sizeof out);
                    assert_int_equal(strlen(out), n);
                    if (tui_width(out, n) != w)
                        fail_msg("fit '%s' to %d gives '%s' (%d columns)", s[i], w, out,
                                 tui_width(out, n));
                }
    tui_fit("abcdef", 6, 4, TUI_LEFT, false, out, sizeof out);
    assert_string_equal(out, "abc…");
    tui_fit("42", 2, 5, TUI_RIGHT, false, out, sizeof out);
    assert_string_equal(out, "   42");
    tui_fit("显存带宽", strlen("显存带宽"), 4, TUI_LEFT, true, out, sizeof out);
    assert_string_equal(out, "显~ "); /* a wide glyph that would straddle is replaced by a pad */
    size_t used;
    assert_int_equal(tui_prefix_fit("显存", 6, 3, NULL), 3);
    (void)used;
}

static void test_fold(void **state)
{
    (void)state;
    size_t n;
    char *a = tui_ascii_fold("1 GiB × 2 — ≥ 3 µs 显存", strlen("1 GiB × 2 — ≥ 3 µs 显存"), &n, NULL);
    assert_non_null(a);
    assert_string_equal(a, "1 GiB x 2 -- >= 3 us ??");
    free(a);
}

/* ---- rendering ---------------------------------------------------------------------------- */

static const char *lesson_en =
    "# VRAM vs system RAM\n"
    "Your GPU has its own memory, **VRAM**, next to the chip. It is fast: an H200 reads "
    "`4.8 TB/s` while a desktop DDR5 system manages about 80 GB/s.\n\n"
    "## Why it matters\n"
    "- Model weights live in VRAM while a kernel runs.\n"
    "- Copies between host and device cross PCIe, which is far slower than either memory.\n"
    "  - nested item with a long enough text to wrap around at narrow widths\n"
    "1. numbered\n"
    "2. list\n\n"
    "| memory | bandwidth | latency |\n"
    "|---|---|---|\n"
    "| DDR5 system RAM | 80 GB/s | 90 ns |\n"
    "| HBM3e (H200) | 4800 GB/s | 500 ns |\n\n"
    "```\n"
    "cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice);\n"
    "\tfor (int i = 0; i < n; i++) sum += a[i];\n"
    "```\n\n"
    "> [!pitfall] Pinned memory is not free\n"
    "> Page-locked buffers speed up copies but reduce what the OS can page.\n"
    "> - do not pin half your RAM\n"
    "> - free what you pin\n";

static const char *lesson_zh =
    "# 显存 vs 内存\n"
    "显卡有自己的内存，即**显存**（VRAM），它紧挨着芯片。H200 的带宽是 `4.8 TB/s`，"
    "而桌面 DDR5 系统大约只有 80 GB/s。\n\n"
    "| 存储 | 带宽 | 延迟 |\n"
    "|---|---|---|\n"
    "| DDR5 内存 | 80 GB/s | 90 ns |\n"
    "| HBM3e 显存（H200） | 4800 GB/s | 500 ns |\n\n"
    "> [!experience] 个人经验\n"
    "> 大模型推理时，显存容量往往比算力先成为瓶颈。\n";

static bool vbar(unsigned cp)
{
    static const unsigned v[] = {0x2502, 0x253c, 0x251c, 0x2524, 0x252c, 0x2534,
                                 0x250c, 0x2510, 0x2514, 0x2518, '|', '+'};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        if (v[i] == cp) return true;
    return false;
}

/* Display columns of the table's vertical rules on one line, as a bit set. */
static void bar_cols(const struct tui_line *l, unsigned char *cols, int max)
{
    memset(cols, 0, (size_t)max);
    int x = 0;
    for (int i = 0; i < l->len;) {
        unsigned cp;
        int k = gpu_utf8_decode(l->s + i, (size_t)(l->len - i), &cp);
        if (vbar(cp) && x < max) cols[x] = 1;
        x += tui_cp_width(cp);
        i += k;
    }
}

static void check_lines(const struct tui_lines *L, int width, bool ascii)
{
    assert_false(L->oom);
    for (int i = 0; i < L->n; i++) {
        const struct tui_line *l = &L->v[i];
        assert_int_equal((int)strlen(l->s), l->len);
        assert_int_equal(tui_width(l->s, (size_t)l->len), l->width);
        if (l->width > width && !(width < 2 && glyphs(l->s, (size_t)l->len) == 1))
            fail_msg("width %d: rendered line %d is %d wide: '%s'", width, i, l->width, l->s);
        bool *b = boundaries(l->s, (size_t)l->len);
        free(b);
        for (int k = 0; k < l->len; k++) {
            assert_true(l->st[k] < TS_COUNT);
            if (ascii && (unsigned char)l->s[k] >= 0x80) fail_msg("non-ASCII in '%s'", l->s);
        }
        unsigned cp;
        for (int k = 0; k < l->len;) {
            k += gpu_utf8_decode(l->s + k, (size_t)(l->len - k), &cp);
            if (cp == 0xfffd) fail_msg("width %d: broken UTF-8 in rendered line '%s'", width, l->s);
        }
    }
}

static void test_render_fits(void **state)
{
    (void)state;
    const char *docs[] = {lesson_en, lesson_zh};
    for (int d = 0; d < 2; d++)
        for (int ascii = 0; ascii < 2; ascii++)
            for (int w = 1; w <= 120; w++) {
                struct tui_lines L = {0};
                struct tui_render_opts o = {w, d ? "zh" : "en", ascii, 3};
                tui_render_markup(&L, docs[d], strlen(docs[d]), &o);
                assert_true(L.n > 5);
                check_lines(&L, w, ascii);
                for (int i = 0; i < L.n; i++) assert_int_equal(L.v[i].block, 3);
                tui_lines_free(&L);
            }
}

static void test_table_alignment(void **state)
{
    (void)state;
    const char *cells[] = {"存储", "带宽 (GB/s)", "note",
                           "DDR5 内存", "80", "双通道 dual channel",
                           "HBM3e 显存（H200）", "4800", "**8 stacks**",
                           "x", "1234567", "`code`"};
    for (int ascii = 0; ascii < 2; ascii++)
        for (int w = 1; w <= 100; w++) {
            struct tui_lines L = {0};
            struct tui_render_opts o = {w, "zh", ascii, 0};
            tui_render_table(&L, cells, 4, 3, true, &o);
            check_lines(&L, w, ascii);
            unsigned char c0[128], ci[128];
            bar_cols(&L.v[0], c0, 128);
            if (!memchr(c0, 1, sizeof c0)) { /* narrow: records of "header: value" lines */
                bool colon = false;
                for (int i = 0; i < L.n; i++) colon |= strchr(L.v[i].s, ':') != NULL;
                if (!colon) fail_msg("width %d ascii %d: no 'header: value' line", w, ascii);
                tui_lines_free(&L);
                continue;
            }
            /* every line of a table has the same width and rules in the same columns */
            for (int i = 1; i < L.n; i++) {
                assert_int_equal(L.v[i].width, L.v[0].width);
                bar_cols(&L.v[i], ci, 128);
                if (memcmp(c0, ci, 128)) fail_msg("width %d: table line %d misaligned: '%s'", w, i, L.v[i].s);
            }
            tui_lines_free(&L);
        }
    /* a table whose words cannot fit becomes records, not split words */
    {
        struct tui_lines R = {0};
        struct tui_render_opts ro = {24, "en", false, 0};
        tui_render_table(&R, cells, 4, 3, true, &ro);
        assert_string_equal(R.v[0].s, "DDR5 内存");
        assert_non_null(strstr(R.v[1].s, "带宽 (GB/s): 80"));
        tui_lines_free(&R);
    }
    /* wide enough: no wrapping, numbers right-aligned */
    struct tui_lines L = {0};
    struct tui_render_opts o = {100, "en", false, 0};
    tui_render_table(&L, cells, 4, 3, true, &o);
    assert_int_equal(L.n, 7); /* top, header, rule, 3 rows, bottom */
    assert_non_null(strstr(L.v[3].s, "      80 "));
    tui_lines_free(&L);
}

static void test_builder(void **state)
{
    (void)state;
    struct tui_lines L = {0};
    struct tui_lb b = {.L = &L};
    tui_lb_puts(&b, "显存", TS_EM);
    tui_lb_pad(&b, 7, TS_PLAIN);
    tui_lb_fit(&b, "abcdef", 3, TUI_LEFT, false, TS_CODE);
    tui_lb_end(&b, 2, TUI_LK_RUN, 5);
    tui_lb_free(&b);
    assert_int_equal(L.n, 1);
    assert_int_equal(L.v[0].width, 10);
    assert_int_equal(L.v[0].kind, TUI_LK_RUN);
    assert_int_equal(L.v[0].tag, 5);
    assert_int_equal(L.v[0].st[0], TS_EM);
    assert_int_equal(L.v[0].st[L.v[0].len - 1], TS_CODE);
    tui_lines_free(&L);
}

/* A status bar that must cut: at a word with "…", never inside one; the backend's short form. */
static void test_fit_words(void **state)
{
    (void)state;
    char out[256];
    const char *be = "SIMULATED · NVIDIA GeForce RTX 3090 profile (rtx3090)";
    tui_fit_words(be, 40, false, out, sizeof out);
    assert_string_equal(out, "SIMULATED · NVIDIA GeForce RTX 3090…    ");
    tui_fit_words(be, 16, false, out, sizeof out);
    assert_string_equal(out, "SIMULATED…      "); /* the dangling " ·" goes with the cut */
    tui_fit_words(be, 60, false, out, sizeof out);
    assert_int_equal(tui_width(out, strlen(out)), 60);
    assert_non_null(strstr(out, "(rtx3090)"));
    tui_fit_words("Supercalifragilistic", 8, true, out, sizeof out);
    assert_string_equal(out, "Superca~"); /* one word wider than all: cut, with the mark */
    for (int w = 1; w <= 60; w++) { /* every width: exactly w columns, never half a word */
        tui_fit_words(be, w, false, out, sizeof out);
        assert_int_equal(tui_width(out, strlen(out)), w);
    }
    tui_backend_short(be, out, sizeof out);
    assert_string_equal(out, "SIM · rtx3090");
    tui_backend_short("SIMULATED · NVIDIA GeForce RTX 3090 配置（rtx3090）", out, sizeof out);
    assert_string_equal(out, "SIM · rtx3090");
    tui_backend_short("CUDA device 1 · NVIDIA GeForce RTX 4090", out, sizeof out);
    assert_string_equal(out, "CUDA 1 · RTX 4090");
    tui_backend_short("REPLAY · a.jsonl", out, sizeof out);
    assert_string_equal(out, "REPLAY · a.jsonl");
    /* the status line's backend when the header strip says SIMULATED (tutor, watch, exam) */
    tui_backend_nosim(be, out, sizeof out);
    assert_string_equal(out, "NVIDIA GeForce RTX 3090 profile (rtx3090)");
    tui_backend_nosim("REPLAY · NVIDIA GeForce RTX 3090 (SIMULATED) · 2026-12-03", out, sizeof out);
    assert_string_equal(out, "REPLAY · NVIDIA GeForce RTX 3090 · 2026-12-03");
    tui_backend_nosim("CUDA device 0 · NVIDIA H100", out, sizeof out);
    assert_string_equal(out, "CUDA device 0 · NVIDIA H100");
}

/* What a terminal would act on is drawn as one '?': C0, DEL, C1 and the bidi controls that reorder
 * a line (a frame's file name from a snapshot may hold U+202E); the escaper classifies the same. */
static void test_controls(void **state)
{
    (void)state;
    const unsigned acts[] = {0x1b, 0x7f, 0x9b, 0x61c, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069};
    for (size_t i = 0; i < sizeof acts / sizeof *acts; i++) {
        assert_false(tui_cp_printable(acts[i]));
        assert_int_equal(tui_cp_width(acts[i]), 1);
    }
    assert_true(tui_cp_printable('a'));
    assert_true(tui_cp_printable(0x4e2d));
    assert_int_equal(tui_cp_width(0x4e2d), 2);
    assert_int_equal(tui_width("a\xe2\x80\xae" "b", 5), 3);
}

int main(void)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8")) {
        printf("SKIP: no UTF-8 locale\n");
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples),         cmocka_unit_test(test_known_breaks),
        cmocka_unit_test(test_random_stable),   cmocka_unit_test(test_fit),
        cmocka_unit_test(test_fold),            cmocka_unit_test(test_render_fits),
        cmocka_unit_test(test_table_alignment), cmocka_unit_test(test_builder),
        cmocka_unit_test(test_fit_words),       cmocka_unit_test(test_controls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
