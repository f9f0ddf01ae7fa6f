/* tui_lineedit.c - the line editor (see tui_lineedit.h). */
#include "tui_lineedit.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_wrap.h"

void tui_lineedit_init(struct tui_lineedit *e, int max)
{
    memset(e, 0, sizeof *e);
    e->max = max > 0 && max < TUI_LINE_MAX ? max : TUI_LINE_MAX - 1;
}

static int cp_at(const struct tui_lineedit *e, int i, unsigned *cp)
{
    return gpu_utf8_decode(e->s + i, (size_t)(e->len - i), cp);
}

int tui_lineedit_next(const struct tui_lineedit *e, int i)
{
    unsigned cp;
    if (i >= e->len) return e->len;
    i += cp_at(e, i, &cp);
    while (i < e->len) { /* combining marks belong to the glyph before them */
        int l = cp_at(e, i, &cp);
        if (tui_cp_width(cp) != 0 || cp == '\n') break;
        i += l;
    }
    return i;
}

int tui_lineedit_prev(const struct tui_lineedit *e, int i)
{
    unsigned cp;
    while (i > 0) {
        i = (int)gpu_utf8_prev(e->s, (size_t)i);
        cp_at(e, i, &cp);
        if (tui_cp_width(cp) != 0 || cp == '\n') break;
    }
    return i;
}

void tui_lineedit_set(struct tui_lineedit *e, const char *s)
{
    size_t n = strlen(s);
    if (n > (size_t)e->max) { /* cut at a sequence boundary */
        n = gpu_utf8_cut(s, (size_t)e->max);
    }
    memcpy(e->s, s, n);
    e->s[n] = 0;
    e->len = e->cur = (int)n;
}

bool tui_lineedit_insert(struct tui_lineedit *e, const char *s, size_t n)
{
    if (e->len + (long)n > e->max) return false;
    memmove(e->s + e->cur + n, e->s + e->cur, (size_t)(e->len - e->cur + 1));
    memcpy(e->s + e->cur, s, n);
    e->len += (int)n, e->cur += (int)n;
    return true;
}

static void delete_range(struct tui_lineedit *e, int from, int to)
{
    if (from < 0) from = 0;
    if (to > e->len) to = e->len;
    if (from >= to) return;
    memmove(e->s + from, e->s + to, (size_t)(e->len - to + 1));
    e->len -= to - from;
    if (e->cur > to) e->cur -= to - from;
    else if (e->cur > from) e->cur = from;
}

/* ---- keys ------------------------------------------------------------------------------------ */

static void left(void *to, const struct tui_key *k)
{
    struct tui_lineedit *e = to;
    e->cur = tui_lineedit_prev(e, e->cur);
}

static void right(void *to, const struct tui_key *k)
{
    struct tui_lineedit *e = to;
    e->cur = tui_lineedit_next(e, e->cur);
}

static void home(void *to, const struct tui_key *k) { ((struct tui_lineedit *)to)->cur = 0; }

static void end(void *to, const struct tui_key *k)
{
    struct tui_lineedit *e = to;
    e->cur = e->len;
}

static void backspace(void *to, const struct tui_key *k)
{
    struct tui_lineedit *e = to;
    delete_range(e, tui_lineedit_prev(e, e->cur), e->cur);
}

void tui_lineedit_delete(struct tui_lineedit *e) { delete_range(e, e->cur, tui_lineedit_next(e, e->cur)); }

static void del(void *to, const struct tui_key *k) { tui_lineedit_delete(to); }

static void kill_end(void *to, const struct tui_key *k)
{
    struct tui_lineedit *e = to;
    delete_range(e, e->cur, e->len);
}

static void kill_start(void *to, const struct tui_key *k)
{
    struct tui_lineedit *e = to;
    delete_range(e, 0, e->cur);
}

static void kill_word(void *to, const struct tui_key *k)
{
    struct tui_lineedit *e = to;
    int i = e->cur;
    while (i > 0 && e->s[i - 1] == ' ') i--;
    while (i > 0 && e->s[i - 1] != ' ') i--;
    delete_range(e, i, e->cur);
}

static void text(void *to, const struct tui_key *k)
{
    char u[4];
    tui_lineedit_insert(to, u, (size_t)gpu_utf8_encode((unsigned)k->code, 0, u));
}

static const struct tui_binding rows[] = {
    {.keys = {TUI_KEY_FN(KEY_LEFT), TUI_CTRL('B')}, .run = left,
     .en = "cursor one glyph left", .zh = "光标左移一个字"},
    {.keys = {TUI_KEY_FN(KEY_RIGHT), TUI_CTRL('F')}, .run = right,
     .en = "cursor one glyph right", .zh = "光标右移一个字"},
    {.keys = {TUI_KEY_FN(KEY_HOME), TUI_CTRL('A')}, .run = home,
     .en = "start of the line", .zh = "到行首"},
    {.keys = {TUI_KEY_FN(KEY_END), TUI_CTRL('E')}, .run = end,
     .en = "end of the line", .zh = "到行尾"},
    {.keys = {TUI_KEY_FN(KEY_BACKSPACE)}, .run = backspace,
     .en = "delete the glyph before the cursor", .zh = "删除光标前的字"},
    {.keys = {TUI_KEY_FN(KEY_DC)}, .run = del,
     .en = "delete the glyph under the cursor", .zh = "删除光标处的字"},
    {.keys = {TUI_CTRL('K')}, .run = kill_end,
     .en = "delete to the end of the line", .zh = "删除到行尾"},
    {.keys = {TUI_CTRL('U')}, .run = kill_start,
     .en = "delete to the start of the line", .zh = "删除到行首"},
    {.keys = {TUI_CTRL('W')}, .run = kill_word,
     .en = "delete the word before the cursor", .zh = "删除光标前的词"},
    {.keys = {TUI_KEY_TEXT}, .run = text, .en = "inserted at the cursor", .zh = "插入到光标处"},
};

const struct tui_keymap tui_lineedit_keys = TUI_KEYMAP("Line editing", "行编辑", TUI_TO_EDIT, rows);

void tui_lineedit_history_reset(struct tui_lineedit *e)
{
    e->hpos = e->hist.count ? e->hist.count(e->hist.ud) : 0;
}

static void history(void *to, const struct tui_key *k)
{
    struct tui_lineedit *e = to;
    int n = e->hist.count ? e->hist.count(e->hist.ud) : 0;
    bool back = k->code == TUI_KEY_FN(KEY_UP) || k->code == TUI_CTRL('P');
    if (e->hpos > n) e->hpos = n;
    int dest = e->hpos + (back ? -1 : 1);
    if (dest < 0 || dest > n) return;
    if (e->hpos == n) snprintf(e->typed, sizeof e->typed, "%s", e->s);
    e->hpos = dest;
    const char *s = dest == n ? e->typed : e->hist.get(e->hist.ud, dest);
    tui_lineedit_set(e, s ? s : "");
}

static const struct tui_binding hist_rows[] = {
    {.keys = {TUI_KEY_FN(KEY_UP), TUI_KEY_FN(KEY_DOWN), TUI_CTRL('P'), TUI_CTRL('N')}, .run = history,
     .en = "older / newer entry of the history (saved)", .zh = "历史中的上一条 / 下一条（会保存）",
     .hint_en = "history", .hint_zh = "历史", .hint_keys = 2},
};

const struct tui_keymap tui_lineedit_history_keys =
    TUI_KEYMAP("History", "历史", TUI_TO_EDIT, hist_rows);

/* ---- the visible window ----------------------------------------------------------------------- */

void tui_lineedit_view(const struct tui_lineedit *e, int width, const char *nl, char *out,
                       size_t cap, int *cursor)
{
    size_t nll = strlen(nl), k = 0, at = 0;
    char *shown = malloc((size_t)e->len * (nll > 1 ? nll : 1) + 1);
    *cursor = 0;
    if (cap) out[0] = 0;
    if (!shown) return;
    for (int i = 0; i <= e->len; i++) {
        if (i == e->cur) at = k;
        if (i == e->len) break;
        if (e->s[i] == '\n') memcpy(shown + k, nl, nll), k += nll;
        else shown[k++] = e->s[i];
    }
    shown[k] = 0;
    if (width < 1) width = 1;
    /* leave the cursor a cell to stand on at the right edge */
    size_t start = 0;
    while (start < at && tui_width(shown + start, at - start) > width - 1) {
        unsigned cp;
        start += (size_t)gpu_utf8_decode(shown + start, k - start, &cp);
    }
    int used;
    size_t take = tui_prefix_fit(shown + start, k - start, width, &used);
    if (take >= cap) take = cap ? cap - 1 : 0;
    take = gpu_utf8_cut(shown + start, take);
    memcpy(out, shown + start, take);
    if (cap) out[take] = 0;
    *cursor = tui_width(shown + start, at - start);
    free(shown);
}
