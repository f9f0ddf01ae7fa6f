/* tui_plain.c - headless output (see tui_plain.h). */
#include "tui_plain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fmt.h"
#include "tui_json.h"
#include "tui_text.h"
#include "tui_widget.h"

void tui_plain_markup(struct tui_plain *p, const char *src)
{
    if (!src) return;
    if (p->json) {
        struct tui_json j;
        tui_json_init(&j, p->out);
        tui_json_obj(&j);
        tui_json_kstr(&j, "type", "text");
        tui_json_kstr(&j, "markup", src);
        tui_json_end(&j);
        return;
    }
    tui_text_markup(p->out, src, p->lang);
}

/* The style beside a value, in the reader's language; SIMULATED stays one word everywhere so
 * it is recognised (JSON keeps these English words). */
static const char *style_label(bool zh, enum lt_style s)
{
    static const char *const en[LT_STYLE_COUNT] = {"measured", "SIMULATED", "theoretical", "reference"};
    static const char *const zhs[LT_STYLE_COUNT] = {"实测", "SIMULATED", "理论值", "参考值"};
    return (zh ? zhs : en)[(unsigned)s < LT_STYLE_COUNT ? s : 0];
}

/* A memory map's state in words ("free 2 GiB", not "free 2 GiB (free)"). */
static const char *state_label(bool zh, enum lt_map_state s)
{
    static const char *const zhs[LT_MAP_COUNT] = {"已分配", "已缓存", "待回收", "空闲", "已用", "混合"};
    return zh ? zhs[(unsigned)s < LT_MAP_COUNT ? s : LT_MAP_USED] : lt_map_state_name(s);
}

/* ---- the printers: one row per event kind -------------------------------------------------- */

struct pctx {
    FILE *f;
    bool zh;
    const char *rp; /* ", REPLAY" when the events come from a recording */
};

#define TX(t) lt_tx(t, c->zh)

static void pr_print(const struct pctx *c, const struct lt_event *ev) { fprintf(c->f, "%s\n", TX(ev->text)); }

static void pr_point(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96], n2[96];
    /* the axes' labels give each number its unit: y's is a unit (GB/s, ms, %); x's is one on a
     * bytes axis (B), else a word in the lesson's one language (tokens, step), left out in 中文 */
    const char *xu = tui_w_bytes_axis(TX(ev->text)) ? "B" : c->zh ? "" : TX(ev->text), *yu = TX(ev->unit);
    gpu_fmt_num(ev->x, n1, sizeof n1), gpu_fmt_num(ev->y, n2, sizeof n2);
    fprintf(c->f, "  [%s] %s: x=%s%s%s y=%s%s%s (%s%s)\n", ev->panel, TX(ev->series), n1, *xu ? " " : "", xu,
            n2, *yu ? " " : "", yu, style_label(c->zh, ev->style), c->rp);
}

static void pr_bar(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96], n2[96];
    gpu_fmt_qty(ev->value, TX(ev->unit), n1, sizeof n1);
    fprintf(c->f, "  [%s] %s: %s (%s%s)", ev->panel, TX(ev->series), n1, style_label(c->zh, ev->style), c->rp);
    if (ev->max > 0) { /* the theoretical peak the lesson pairs with it */
        gpu_fmt_qty(ev->max, TX(ev->unit), n2, sizeof n2);
        fprintf(c->f, c->zh ? "，理论峰值 %s" : ", theoretical peak %s", n2);
    }
    fputc('\n', c->f);
}

static void pr_row(const struct pctx *c, const struct lt_event *ev)
{
    fprintf(c->f, "  [%s] ", ev->panel);
    for (int i = 0; i < (ev->cells ? ev->ncells : 0); i++) fprintf(c->f, "%s%s", i ? " | " : "", TX(ev->cells[i]));
    fputc('\n', c->f);
}

static void pr_gauge(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96], n2[96];
    gpu_fmt_num(ev->value, n1, sizeof n1), gpu_fmt_num(ev->max, n2, sizeof n2);
    fprintf(c->f, "  [%s] %s: %s %s %s %s (%s%s)\n", ev->panel, TX(ev->series), n1, c->zh ? "/" : "of",
            n2, TX(ev->unit), style_label(c->zh, ev->style), c->rp);
}

static void pr_note(const struct pctx *c, const struct lt_event *ev)
{
    fprintf(c->f, "  [%s] %s%s\n", ev->panel, c->zh ? "注：" : "note: ", TX(ev->text));
}

/* "owner 1.50 GiB (state)" per block */
static void pr_map(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96];
    gpu_fmt_bytes(ev->value, GPU_FMT_BIN, n1, sizeof n1);
    fprintf(c->f, c->zh ? "  [%s] 显存布局（共 %s）：" : "  [%s] memory map (%s in all):", ev->panel, n1);
    for (int i = 0; i < (ev->blocks ? ev->nblocks : 0); i++) {
        const struct lt_map_block *b = &ev->blocks[i];
        const char *owner = TX(b->owner), *k = state_label(c->zh, b->state);
        const char *sep = c->zh ? (i ? "；" : "") : i ? "; " : " ";
        char size[64];
        gpu_fmt_bytes((double)b->bytes, GPU_FMT_BIN, size, sizeof size);
        fprintf(c->f, "%s%s%s%s", sep, owner, *owner ? " " : "", size);
        if (strcmp(owner, k)) fprintf(c->f, c->zh ? "（%s）" : " (%s)", k);
    }
    fputc('\n', c->f);
}

/* "H2D: copy in #3, 1.96 to 3.92 ms (SIMULATED)"; a span of no length only declares its lane
 * (its row on screen), nothing to print */
static void pr_span(const struct pctx *c, const struct lt_event *ev)
{
    if (!(ev->y > ev->x)) return;
    char n1[96], n2[96], num[32] = "";
    gpu_fmt_num(ev->x * 1e3, n1, sizeof n1), gpu_fmt_num(ev->y * 1e3, n2, sizeof n2);
    if (ev->value >= 0 && ev->value < 1e9) snprintf(num, sizeof num, " #%.0f", floor(ev->value));
    const char *kind = *TX(ev->text) ? TX(ev->text) : TX(ev->series);
    fprintf(c->f, c->zh ? "  [%s] %s：%s%s，%s 到 %s ms（%s%s）\n" : "  [%s] %s: %s%s, %s to %s ms (%s%s)\n", ev->panel,
            TX(ev->series), kind, num, n1, n2, style_label(c->zh, ev->style), c->rp);
}

static void pr_status(const struct pctx *c, const struct lt_event *ev) { fprintf(c->f, "  -- %s\n", TX(ev->text)); }

static void pr_mark(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96], n2[96];
    gpu_fmt_num(ev->x, n1, sizeof n1), gpu_fmt_num(ev->y, n2, sizeof n2);
    fprintf(c->f, c->zh ? "  [%s] 标记 %s：x=%s y=%s（%s%s）\n" : "  [%s] mark %s: x=%s y=%s (%s%s)\n", ev->panel,
            TX(ev->series), n1, n2, style_label(c->zh, ev->style), c->rp);
}

static void pr_band(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96], n2[96];
    gpu_fmt_num(ev->x, n1, sizeof n1), gpu_fmt_num(ev->max, n2, sizeof n2);
    fprintf(c->f, c->zh ? "  [%s] 区段 %s：x=%s 到 %s\n" : "  [%s] band %s: x=%s to %s\n", ev->panel, TX(ev->series), n1, n2);
}

static void pr_limit(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96];
    gpu_fmt_qty(ev->value, TX(ev->unit), n1, sizeof n1);
    fprintf(c->f, c->zh ? "  [%s] 上限 %s：%s（%s%s）\n" : "  [%s] limit %s: %s (%s%s)\n", ev->panel, TX(ev->series), n1,
            style_label(c->zh, ev->style), c->rp);
}

#undef TX

static void (*const printers[LT_EV_COUNT])(const struct pctx *, const struct lt_event *) = {
    [LT_EV_PRINT] = pr_print, [LT_EV_POINT] = pr_point, [LT_EV_BAR] = pr_bar,
    [LT_EV_ROW] = pr_row,     [LT_EV_GAUGE] = pr_gauge, [LT_EV_NOTE] = pr_note,
    [LT_EV_MAP] = pr_map,     [LT_EV_CLEAR] = NULL,     [LT_EV_STATUS] = pr_status,
    [LT_EV_MARK] = pr_mark,   [LT_EV_BAND] = pr_band,   [LT_EV_LIMIT] = pr_limit,
    [LT_EV_SPAN] = pr_span,
};

/* JSON: the fields the registry gives the kind, under their names ("series" is "label"), in
 * the reader's language; NaN and inf are null, as JSON has neither. */
static void json_event(const struct tui_plain *p, FILE *f, const struct lt_event *ev, bool zh)
{
    unsigned fl = lt_event_fields(ev->type);
    struct tui_json j;
    tui_json_init(&j, f);
    tui_json_obj(&j);
    tui_json_kstr(&j, "type", lt_event_name(ev->type));
    if ((fl & LT_F_PANEL) && *ev->panel) tui_json_kstr(&j, "panel", ev->panel);
    if ((fl & LT_F_SERIES) && *lt_tx(ev->series, zh)) tui_json_kstr(&j, "label", lt_tx(ev->series, zh));
    if ((fl & LT_F_TEXT) && *lt_tx(ev->text, zh)) tui_json_kstr(&j, "text", lt_tx(ev->text, zh));
    if ((fl & LT_F_UNIT) && *lt_tx(ev->unit, zh)) tui_json_kstr(&j, "unit", lt_tx(ev->unit, zh));
    if (fl & LT_F_X) tui_json_knum(&j, "x", ev->x);
    if (fl & LT_F_Y) tui_json_knum(&j, "y", ev->y);
    if (fl & LT_F_VALUE) tui_json_knum(&j, "value", ev->value);
    if ((fl & LT_F_MAX) && ev->type == LT_EV_BAR) { /* a bar's max is its theoretical peak */
        if (ev->max > 0) tui_json_knum(&j, "peak", ev->max);
    } else if (fl & LT_F_MAX) {
        tui_json_knum(&j, "max", ev->max);
    }
    if (fl & LT_F_STYLE) {
        tui_json_kstr(&j, "style", style_label(false, ev->style)); /* "SIMULATED" is one word everywhere */
        tui_json_kbool(&j, "simulated", ev->style == LT_SIMULATED);
    }
    if (p->replay) tui_json_kbool(&j, "replay", true);
    if ((fl & LT_F_CELLS) && ev->cells && ev->ncells > 0) {
        tui_json_key(&j, "cells");
        tui_json_arr(&j);
        for (int i = 0; i < (ev->cells ? ev->ncells : 0); i++) tui_json_str(&j, lt_tx(ev->cells[i], zh));
        tui_json_end(&j);
    }
    if (fl & LT_F_BLOCKS) {
        tui_json_key(&j, "blocks");
        tui_json_arr(&j);
        for (int i = 0; i < (ev->blocks ? ev->nblocks : 0); i++) {
            const struct lt_map_block *b = &ev->blocks[i];
            tui_json_obj(&j);
            tui_json_kstr(&j, "owner", lt_tx(b->owner, zh));
            tui_json_kstr(&j, "state", lt_map_state_name(b->state));
            tui_json_kuint(&j, "bytes", b->bytes);
            if (b->seg) tui_json_kint(&j, "seg", b->seg);
            tui_json_end(&j);
        }
        tui_json_end(&j);
    }
    tui_json_end(&j);
}

void tui_plain_sink(void *ud, const struct lt_event *in)
{
    struct tui_plain *p = ud;
    struct lt_event copy;
    char *text;
    const struct lt_event *ev = lt_event_visible(in, "\\0", &copy, &text);
    bool zh = p->lang && !strcmp(p->lang, "zh");
    if ((unsigned)ev->type >= LT_EV_COUNT) {
        free(text);
        return; /* an index from elsewhere: checked first */
    }
    if (p->json) json_event(p, p->out, ev, zh);
    else if (printers[ev->type]) printers[ev->type](&(struct pctx){p->out, zh, p->replay ? ", REPLAY" : ""}, ev);
    fflush(p->out);
    free(text);
}
