/* tui_text.c - lesson markup as plain text (see tui_text.h). */
#include "tui_text.h"

#include <string.h>

#include "lt_markup.h"
#include "tui_wrap.h"

static void plain_spans(void *ud, int s, const char *p, size_t len)
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

static void strip_span(void *ud, int s, const char *p, size_t len)
{
    struct strip *st = ud;
    if (st->used + len >= st->cap) len = st->cap - st->used - 1;
    memcpy(st->out + st->used, p, len);
    st->used += len;
    st->out[st->used] = 0;
}

/* A table cell without its **emphasis** / *italic* / `code` markers, so widths line up. */
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
            const char *cell = plain_cell(b->cells[r * b->cols + c], buf, sizeof buf);
            int cw = tui_width(cell, strlen(cell));
            if (cw > w[c]) w[c] = cw;
        }
    for (int r = 0; r < b->rows; r++) {
        fputs("  ", f);
        for (int c = 0; c < cols; c++) {
            const char *cell = plain_cell(b->cells[r * b->cols + c], buf, sizeof buf);
            fprintf(f, "%s%s", c ? " | " : "", cell);
            if (c + 1 < cols)
                for (int k = tui_width(cell, strlen(cell)); k < w[c]; k++) fputc(' ', f);
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

void tui_text_markup(FILE *f, const char *src, const char *lang)
{
    struct lt_mk_doc doc;
    char err[256];
    if (!src) return;
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
            int w = tui_width(b->text, strlen(b->text));
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
            fprintf(f, "[%s] ", lt_callout_label(b->callout, lang));
            print_inline(f, b->text);
            fputs("\n\n", f);
            break;
        }
    }
    lt_markup_free(&doc);
}
