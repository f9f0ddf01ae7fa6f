/* tui_help.c - the help overlay (see tui_help.h). Rows come from tui_keys_names, which asks the
 * same lookup the dispatch uses which keys reach each row: a key taken by an earlier table is
 * not listed under a later one, and a row no key reaches is not listed at all. */
#include "tui_help.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_loop.h"
#include "tui_term.h"
#include "tui_wrap.h"

int tui_help_key_cols(int width) { return width < 40 ? 12 : 17; }

static void blank(struct tui_lines *L)
{
    struct tui_lb b = {.L = L};
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
}

/* One row: `keys` in the key column, `desc` beside it with a hanging indent; keys wider than
 * the column get a line of their own, so no key name is ever cut. */
static void row(struct tui_lines *L, const char *keys, const char *desc, int width,
                const struct tui_render_opts *o)
{
    int kw = tui_help_key_cols(width);
    char *f = o->ascii ? tui_ascii_fold(keys, strlen(keys), NULL, NULL) : NULL;
    const char *k = f ? f : keys;
    char first[160];
    if (tui_width(k, strlen(k)) < kw) {
        struct tui_lb b = {.L = L};
        tui_lb_fit(&b, k, kw, TUI_LEFT, o->ascii, TS_EM);
        snprintf(first, sizeof first, "%.*s ", b.len < 150 ? b.len : 150, b.s ? b.s : "");
        tui_lb_free(&b);
    } else {
        tui_render_para(L, k, strlen(k), TS_EM, false, "", TS_EM, o);
        snprintf(first, sizeof first, "%*s", kw + 1, "");
    }
    free(f);
    tui_render_para(L, desc, strlen(desc), TS_PLAIN, false, first, TS_EM, o);
}

static bool listed(const struct tui_keymap *const *done, int n, const struct tui_keymap *m)
{
    for (int i = 0; i < n; i++)
        if (done[i] == m) return true;
    return false;
}

void tui_help_lines(struct tui_lines *L, const struct tui_keymap *const *const *ctx, int nctx,
                    const struct tui_help_note *notes, int nnotes, int width, bool zh, bool ascii)
{
    struct tui_render_opts o = {width, zh ? "zh" : "en", ascii, -1};
    const struct tui_keymap *done[32];
    int ndone = 0;
    for (int c = 0; c < nctx; c++)
        for (int i = 0; ctx[c][i]; i++) {
            const struct tui_keymap *m = ctx[c][i];
            if (listed(done, ndone, m)) continue;
            if (ndone < 32) done[ndone++] = m;
            bool titled = false;
            for (int r = 0; r < m->n; r++) {
                char keys[256];
                if (!tui_keys_names(ctx[c], &m->v[r], zh, keys, sizeof keys)) continue;
                if (!titled) {
                    if (L->n) blank(L);
                    const char *t = zh ? m->title_zh : m->title_en;
                    tui_render_para(L, t, strlen(t), TS_H3, false, "", TS_H3, &o);
                    titled = true;
                }
                row(L, keys, zh ? m->v[r].zh : m->v[r].en, width, &o);
            }
        }
    blank(L);
    row(L, "Ctrl-C", zh ? "立即退出（终端会恢复原状）" : "quit now (the terminal is restored)", width, &o);
    for (int i = 0; i < nnotes; i++) {
        if (!notes[i].label) {
            blank(L);
            continue;
        }
        row(L, zh && notes[i].label_zh ? notes[i].label_zh : notes[i].label, zh ? notes[i].zh : notes[i].en, width, &o);
    }
}

void tui_help_open(struct tui_help *h, const struct tui_keymap *const *const *ctx, int nctx,
                   const struct tui_help_note *notes, int nnotes)
{
    memset(h, 0, sizeof *h);
    h->open = true;
    for (int i = 0; i < nctx && i < TUI_HELP_CTX_MAX; i++) h->ctx[h->nctx++] = ctx[i];
    h->notes = notes, h->nnotes = nnotes;
}

/* The frame's top or bottom line, with a title on top. */
static void frame_line(struct tui_lines *F, const struct tui_rect *r, bool top, const char *title,
                       bool ascii)
{
    const struct tui_glyphs *g = tui_glyphs(ascii);
    struct tui_lb b = {.L = F};
    tui_lb_puts(&b, top ? g->tl : g->bl, TS_RULE);
    if (title) {
        tui_lb_puts(&b, g->h, TS_RULE);
        int tw = tui_width(title, strlen(title));
        tui_lb_fit(&b, title, tw < r->w - 4 ? tw : r->w - 4, TUI_LEFT, ascii, TS_EM);
    }
    while (b.width < r->w - 1) tui_lb_puts(&b, g->h, TS_RULE);
    tui_lb_puts(&b, top ? g->tr : g->br, TS_RULE);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_free(&b);
}

void tui_help_draw(struct tui_help *h, const struct tui_rect *r, bool zh, bool ascii)
{
    h->r = *r;
    if (r->h < 3 || r->w < 6) return;
    const struct tui_glyphs *g = tui_glyphs(ascii);
    struct tui_lines L = {0}, F = {0};
    /* the screen's notes, then which colours are in use and why (the terminal was asked) */
    struct tui_help_note notes[40];
    int nn = 0;
    for (int i = 0; i < h->nnotes && nn < 38; i++) notes[nn++] = h->notes[i];
    char en[300], zhl[300];
    tui_term_theme_line(en, sizeof en, false);
    tui_term_theme_line(zhl, sizeof zhl, true);
    notes[nn++] = (struct tui_help_note){NULL, NULL, NULL, NULL};
    notes[nn++] = (struct tui_help_note){"colours", en, zhl, "颜色"};
    tui_help_lines(&L, h->ctx, h->nctx, notes, nn, r->w - 4, zh, ascii);
    int inner = r->h - 2;
    tui_scroll_resize(&h->sc, L.n, inner);
    frame_line(&F, r, true, zh ? " 按键（Esc 关闭） " : " Keys (Esc closes) ", ascii);
    frame_line(&F, r, false, NULL, ascii);
    tui_term_line(r->y, r->x, r->w, &F.v[0], TS_PLAIN);
    for (int i = 0; i < inner; i++) {
        int y = r->y + 1 + i, li = h->sc.top + i;
        tui_term_put(y, r->x, 1, g->v, strlen(g->v), NULL, TS_RULE);
        tui_term_fill(y, r->x + 1, 1, r->w - 2, TS_PLAIN);
        if (li < L.n) tui_term_line(y, r->x + 2, r->w - 4, &L.v[li], TS_PLAIN);
        tui_term_put(y, r->x + r->w - 1, 1, g->v, strlen(g->v), NULL, TS_RULE);
    }
    tui_scroll_marks(&h->sc, r->y + 1, r->x + r->w - 2, inner, ascii);
    tui_term_line(r->y + r->h - 1, r->x, r->w, &F.v[1], TS_PLAIN);
    tui_lines_free(&F);
    tui_lines_free(&L);
}

/* ---- keys ------------------------------------------------------------------------------------ */

static void close_help(void *to, const struct tui_key *k) { ((struct tui_help *)to)->open = false; }

static void page(void *to, const struct tui_key *k)
{
    struct tui_help *h = to;
    tui_scroll_by(&h->sc, tui_scroll_page(&h->sc));
}

static void click(void *to, const struct tui_key *k)
{
    struct tui_help *h = to;
    if (!tui_rect_contains(&h->r, k->y, k->x)) h->open = false;
}

static const struct tui_binding rows[] = {
    {.keys = {TUI_KEY_ESC, '?', 'q', 'h', TUI_KEY_FN(KEY_F(1))}, .run = close_help,
     .en = "close this help", .zh = "关闭帮助",
     .hint_en = "close", .hint_zh = "关闭"},
    {.keys = {' '}, .run = page, .en = "scroll one page down", .zh = "向下翻页"},
    {.keys = {TUI_KEY_CLICK}, .run = click,
     .en = "outside the box: close this help", .zh = "框外：关闭帮助"},
};

static const struct tui_keymap help_keys = TUI_KEYMAP("This help", "本帮助", TUI_TO_SCREEN, rows);

const struct tui_keymap *const tui_help_keys[] = {&help_keys, &tui_scroll_keys, &tui_loop_keys, NULL};

void tui_help_key(struct tui_help *h, const struct tui_key *k)
{
    struct tui_targets t = {h, &h->sc, NULL};
    tui_keys_dispatch(tui_help_keys, &t, k);
}
