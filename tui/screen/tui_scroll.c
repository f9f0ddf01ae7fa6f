/* tui_scroll.c - the scrolling viewport (see tui_scroll.h). */
#include "tui_scroll.h"

#include <curses.h>
#include <string.h>

#include "tui_term.h"

int tui_scroll_max(const struct tui_scroll *s)
{
    int h = s->height > 0 ? s->height : 0;
    return s->total > h ? s->total - h : 0;
}

static void clamp(struct tui_scroll *s)
{
    int max = tui_scroll_max(s);
    if (s->follow && s->tail) s->top = max;
    if (s->top > max) s->top = max;
    if (s->top < 0) s->top = 0;
}

void tui_scroll_resize(struct tui_scroll *s, int total, int height)
{
    s->total = total > 0 ? total : 0;
    s->height = height > 0 ? height : 0;
    clamp(s);
}

int tui_scroll_page(const struct tui_scroll *s) { return s->height > 3 ? s->height - 2 : 1; }

void tui_scroll_to(struct tui_scroll *s, int top)
{
    s->top = top;
    s->tail = false;
    clamp(s);
    s->tail = s->top >= tui_scroll_max(s);
}

void tui_scroll_by(struct tui_scroll *s, int lines)
{
    /* far moves (Home/End) must not overflow */
    long t = (long)s->top + lines;
    tui_scroll_to(s, t > 1 << 30 ? 1 << 30 : t < -(1 << 30) ? -(1 << 30) : (int)t);
}

void tui_scroll_end(struct tui_scroll *s) { tui_scroll_to(s, 1 << 30); }

void tui_scroll_show(struct tui_scroll *s, int first, int last, int margin)
{
    if (last < first) last = first;
    if (last >= s->top + s->height) tui_scroll_to(s, last - s->height + 1 + margin);
    if (first < s->top) tui_scroll_to(s, first - margin);
}

bool tui_scroll_above(const struct tui_scroll *s) { return s->top > 0; }
bool tui_scroll_below(const struct tui_scroll *s) { return s->top < tui_scroll_max(s); }

/* ---- keys ------------------------------------------------------------------------------------ */

static void line(void *to, const struct tui_key *k)
{
    bool up = k->code == TUI_KEY_FN(KEY_UP) || k->code == 'k';
    tui_scroll_by(to, up ? -1 : 1);
}

static void page(void *to, const struct tui_key *k)
{
    struct tui_scroll *s = to;
    tui_scroll_by(s, k->code == TUI_KEY_FN(KEY_PPAGE) ? -tui_scroll_page(s) : tui_scroll_page(s));
}

static void ends(void *to, const struct tui_key *k)
{
    if (k->code == TUI_KEY_FN(KEY_HOME) || k->code == 'g') tui_scroll_to(to, 0);
    else tui_scroll_end(to);
}

static void wheel(void *to, const struct tui_key *k)
{
    tui_scroll_by(to, k->code == TUI_KEY_WHEEL_UP ? -TUI_WHEEL_LINES : TUI_WHEEL_LINES);
}

static const struct tui_binding rows[] = {
    {.keys = {TUI_KEY_FN(KEY_UP), TUI_KEY_FN(KEY_DOWN), 'k', 'j'}, .run = line,
     .en = "scroll one line", .zh = "滚动一行"},
    {.keys = {TUI_KEY_FN(KEY_PPAGE), TUI_KEY_FN(KEY_NPAGE)}, .run = page,
     .en = "scroll one page", .zh = "翻页"},
    {.keys = {TUI_KEY_FN(KEY_HOME), TUI_KEY_FN(KEY_END), 'g', 'G'}, .run = ends,
     .en = "top / bottom", .zh = "到顶 / 到底"},
    {.keys = {TUI_KEY_WHEEL_UP, TUI_KEY_WHEEL_DOWN}, .run = wheel,
     .en = "scroll three lines", .zh = "滚动三行"},
};

const struct tui_keymap tui_scroll_keys = TUI_KEYMAP("Scrolling", "滚动", TUI_TO_SCROLL, rows);

bool tui_scroll_key(struct tui_scroll *s, const struct tui_key *k)
{
    static const struct tui_keymap *const ctx[] = {&tui_scroll_keys, NULL};
    struct tui_targets t = {NULL, s, NULL};
    return tui_keys_dispatch(ctx, &t, k) != NULL;
}

/* ---- the marks ------------------------------------------------------------------------------- */

void tui_scroll_marks(const struct tui_scroll *s, int y, int x, int h, bool ascii)
{
    if (h <= 0) return;
    const char *up = ascii ? "^" : "↑", *down = ascii ? "v" : "↓";
    /* one row: what is hidden below comes first */
    if (tui_scroll_above(s) && (h > 1 || !tui_scroll_below(s)))
        tui_term_put(y, x, 1, up, strlen(up), NULL, TS_DIM);
    if (tui_scroll_below(s)) tui_term_put(y + h - 1, x, 1, down, strlen(down), NULL, TS_DIM);
}
