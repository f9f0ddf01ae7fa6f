/* tui_plain.c - headless output (see tui_plain.h). */
#include "tui_plain.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int tui_str_width(const char *s)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    int w = 0;
    size_t len = strlen(s);
    while (len) {
        wchar_t wc;
        size_t k = mbrtowc(&wc, s, len, &st);
        if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
            memset(&st, 0, sizeof st);
            k = 1, wc = L'?';
        }
        int cw = wcwidth(wc);
        w += cw < 0 ? 1 : cw;
        s += k, len -= k;
    }
    return w;
}

void tui_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c == '\n') fputs("\\n", f);
        else if (c == '\t') fputs("\\t", f);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void plain_spans(void *ud, enum lt_span s, const char *p, size_t len)
{
    fwrite(p, 1, len, ud); /* plain output drops the emphasis markers */
}

static void print_inline(FILE *f, const char *text)
{
    lt_markup_spans(text, plain_spans, f);
}

struct strip {
    char *out;
    size_t used, cap;
};

static void strip_span(void *ud, enum lt_span s, const char *p, size_t len)
{
    struct strip *st = ud;
    if (st->used + len >= st->cap) len = st->cap - st->used - 1;
    memcpy(st->out + st->used, p, len);
    st->used += len;
    st->out[st->used] = 0;
}

/* A table cell without its **emphasis** / `code` markers, so widths line up. */
static const char *plain_cell(const char *cell, char *buf, size_t n)
{
    struct strip st = {buf, 0, n};
    buf[0] = 0;
    lt_markup_spans(cell, strip_span, &st);
    return buf;
}

static void print_table(FILE *f, const struct lt_mk_block *b)
{
    int w[64] = {0}, cols = b->cols < 64 ? b->cols : 64;
    char buf[1024];
    for (int r = 0; r < b->rows; r++)
        for (int c = 0; c < cols; c++) {
            int cw = tui_str_width(plain_cell(b->cells[r * b->cols + c], buf, sizeof buf));
            if (cw > w[c]) w[c] = cw;
        }
    for (int r = 0; r < b->rows; r++) {
        fputs("  ", f);
        for (int c = 0; c < cols; c++) {
            const char *cell = plain_cell(b->cells[r * b->cols + c], buf, sizeof buf);
            fprintf(f, "%s%s", c ? " | " : "", cell);
            if (c + 1 < cols)
                for (int k = tui_str_width(cell); k < w[c]; k++) fputc(' ', f);
        }
        fputc('\n', f);
        if (r == 0) {
            fputs("  ", f);
            for (int c = 0; c < cols; c++) {
                if (c) fputs("-+-", f);
                for (int k = 0; k < w[c]; k++) fputc('-', f);
            }
            fputc('\n', f);
        }
    }
}

void tui_plain_markup(struct tui_plain *p, const char *src)
{
    struct lt_mk_doc doc;
    char err[256];
    FILE *f = p->out;
    if (!src) return;
    if (p->json) {
        fputs("{\"type\":\"text\",\"markup\":", f);
        tui_json_str(f, src);
        fputs("}\n", f);
        return;
    }
    if (lt_markup_parse(src, strlen(src), &doc, err, sizeof err) != 0) {
        fprintf(f, "(markup error: %s)\n%s\n", err, src);
        return;
    }
    for (int i = 0; i < doc.n; i++) {
        const struct lt_mk_block *b = &doc.b[i];
        switch (b->kind) {
        case LT_MK_HEADING: {
            fputc('\n', f);
            print_inline(f, b->text);
            fputc('\n', f);
            int w = tui_str_width(b->text);
            for (int k = 0; k < w; k++) fputc(b->level == 1 ? '=' : '-', f);
            fputc('\n', f);
            break;
        }
        case LT_MK_PARA:
            print_inline(f, b->text);
            fputs("\n\n", f);
            break;
        case LT_MK_ITEM:
            for (int k = 0; k < b->level; k++) fputs("  ", f);
            if (b->number) fprintf(f, "  %d. ", b->number);
            else fputs("  - ", f);
            print_inline(f, b->text);
            fputc('\n', f);
            if (i + 1 == doc.n || doc.b[i + 1].kind != LT_MK_ITEM) fputc('\n', f);
            break;
        case LT_MK_TABLE:
            print_table(f, b);
            fputc('\n', f);
            break;
        case LT_MK_CODE:
            for (const char *l = b->text; l && *l;) {
                const char *nl = strchr(l, '\n');
                fprintf(f, "    %.*s\n", (int)(nl ? nl - l : (long)strlen(l)), l);
                l = nl ? nl + 1 : l + strlen(l);
            }
            fputc('\n', f);
            break;
        case LT_MK_CALLOUT:
            fprintf(f, "[%s] ", lt_callout_label(b->callout, p->lang));
            print_inline(f, b->text);
            fputs("\n\n", f);
            break;
        }
    }
    lt_markup_free(&doc);
}

static const char *style_name(enum lt_style s)
{
    static const char *const n[] = {"measured", "SIMULATED", "theoretical", "reference"};
    return n[s];
}

static void plain_sink(struct tui_plain *p, const struct lt_event *ev);

void tui_plain_sink(void *ud, const struct lt_event *ev)
{
    struct lt_event copy;
    char *text;
    plain_sink(ud, tui_event_visible(ev, "\\0", &copy, &text));
    free(text);
}

static void plain_sink(struct tui_plain *p, const struct lt_event *ev)
{
    FILE *f = p->out;
    static const char *const types[] = {"print", "point", "bar", "row", "gauge",
                                        "note",  "map",   "clear", "status"};
    if (p->json) {
        fprintf(f, "{\"type\":\"%s\"", types[ev->type]);
        if (ev->panel && *ev->panel) fputs(",\"panel\":", f), tui_json_str(f, ev->panel);
        if (ev->series && *ev->series) fputs(",\"label\":", f), tui_json_str(f, ev->series);
        if (ev->text && *ev->text) fputs(",\"text\":", f), tui_json_str(f, ev->text);
        if (ev->unit && *ev->unit) fputs(",\"unit\":", f), tui_json_str(f, ev->unit);
        if (ev->type == LT_EV_POINT) fprintf(f, ",\"x\":%.17g,\"y\":%.17g", ev->x, ev->y);
        if (ev->type == LT_EV_BAR || ev->type == LT_EV_GAUGE || ev->type == LT_EV_MAP)
            fprintf(f, ",\"value\":%.17g", ev->value);
        if (ev->type == LT_EV_GAUGE) fprintf(f, ",\"max\":%.17g", ev->max);
        if (ev->type == LT_EV_BAR || ev->type == LT_EV_POINT || ev->type == LT_EV_GAUGE)
            fprintf(f, ",\"style\":\"%s\",\"simulated\":%s", style_name(ev->style),
                    ev->style == LT_SIMULATED ? "true" : "false");
        if (p->replay) fputs(",\"replay\":true", f);
        if (ev->ncells) {
            fputs(",\"cells\":[", f);
            for (int i = 0; i < ev->ncells; i++) {
                if (i) fputc(',', f);
                tui_json_str(f, ev->cells[i]);
            }
            fputc(']', f);
        }
        fputs("}\n", f);
        fflush(f);
        return;
    }
    const char *rp = p->replay ? ", REPLAY" : "";
    switch (ev->type) {
    case LT_EV_PRINT: fprintf(f, "%s\n", ev->text); break;
    case LT_EV_POINT:
        fprintf(f, "  [%s] %s: x=%.6g y=%.6g (%s%s)\n", ev->panel, ev->series, ev->x, ev->y,
                style_name(ev->style), rp);
        break;
    case LT_EV_BAR:
        fprintf(f, "  [%s] %s: %.4g %s (%s%s)\n", ev->panel, ev->series, ev->value, ev->unit,
                style_name(ev->style), rp);
        break;
    case LT_EV_ROW:
        fprintf(f, "  [%s] ", ev->panel);
        for (int i = 0; i < ev->ncells; i++) fprintf(f, "%s%s", i ? " | " : "", ev->cells[i]);
        fputc('\n', f);
        break;
    case LT_EV_GAUGE:
        fprintf(f, "  [%s] %s: %.4g of %.4g %s (%s%s)\n", ev->panel, ev->series, ev->value,
                ev->max, ev->unit, style_name(ev->style), rp);
        break;
    case LT_EV_NOTE: fprintf(f, "  [%s] note: %s\n", ev->panel, ev->text); break;
    case LT_EV_MAP:
        fprintf(f, "  [%s] memory map (%.0f bytes):", ev->panel, ev->value);
        for (int i = 0; i < ev->ncells; i++) fprintf(f, " %s", ev->cells[i]);
        fputc('\n', f);
        break;
    case LT_EV_CLEAR: break;
    case LT_EV_STATUS: fprintf(f, "  -- %s\n", ev->text); break;
    }
    fflush(f);
}

const struct lt_event *tui_event_visible(const struct lt_event *ev, const char *nul,
                                         struct lt_event *copy, char **to_free)
{
    *to_free = NULL;
    if (!ev->text_len || !ev->text || !memchr(ev->text, 0, ev->text_len)) return ev;
    *copy = *ev;
    if (!(*to_free = tui_event_text(ev, nul))) return ev;
    copy->text = *to_free;
    copy->text_len = 0;
    return copy;
}

char *tui_event_text(const struct lt_event *ev, const char *nul)
{
    const char *s = ev->text ? ev->text : "";
    size_t len = ev->text_len ? ev->text_len : strlen(s), nl = strlen(nul), extra = 0;
    for (size_t i = 0; i < len; i++) extra += s[i] ? 0 : nl - 1;
    char *out = malloc(len + extra + 1), *o = out;
    if (!out) return NULL;
    for (size_t i = 0; i < len; i++) {
        if (s[i]) *o++ = s[i];
        else memcpy(o, nul, nl), o += nl;
    }
    *o = 0;
    return out;
}
