/* fuzz_markup.c - libFuzzer target for the lesson markup parser (lt_markup_parse): any bytes
 * either parse or fail with "line N: what" for a line that exists; every block starts on a line
 * of the input, tables are rectangular, inline spans stay inside their text, nothing leaks
 * (LeakSanitizer). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_markup.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_markup: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);    \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

struct span_check {
    const char *text;
    size_t len, covered;
    const char *last;
};

static void on_span(void *ud, int s, const char *p, size_t len)
{
    struct span_check *c = ud;
    CHECK(s >= 0 && s <= (LT_SPAN_EM | LT_SPAN_ITALIC | LT_SPAN_CODE));
    CHECK(p >= c->last); /* runs come in order and never overlap */
    c->last = p + len;
    CHECK(p >= c->text && p + len <= c->text + c->len);
    c->covered += len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *src = (const char *)data;
    /* lines as the parser counts them: each '\n' ends one, and a last line without one counts */
    int nlines = 0;
    for (size_t i = 0; i < size; i++) nlines += src[i] == '\n';
    if (size && src[size - 1] != '\n') nlines++;

    struct lt_mk_doc doc;
    char err[256];
    err[0] = 0;
    int rc = lt_markup_parse(src, size, &doc, err, sizeof err);
    CHECK(rc == 0 || rc == -1);
    if (rc != 0) {
        int line = 0;
        CHECK(sscanf(err, "line %d:", &line) == 1);
        CHECK(line >= 1 && line <= nlines);
        CHECK(doc.n == 0 && doc.b == NULL); /* freed on failure */
        return 0;
    }
    int prev = 0;
    for (int i = 0; i < doc.n; i++) {
        const struct lt_mk_block *b = &doc.b[i];
        CHECK(b->line >= 1 && b->line <= nlines);
        CHECK(b->line >= prev); /* blocks come in source order */
        prev = b->line;
        switch (b->kind) {
        case LT_MK_HEADING: CHECK(b->level >= 1 && b->level <= 3); break;
        case LT_MK_ITEM: CHECK(b->level >= 0 && b->number >= 0); break;
        case LT_MK_CALLOUT: CHECK(b->callout >= 0 && b->callout < LT_CALLOUT_COUNT); break;
        case LT_MK_PARA:
        case LT_MK_CODE: break;
        case LT_MK_TABLE:
            CHECK(b->rows >= 1 && b->cols >= 1 && b->cells);
            for (int c = 0; c < b->rows * b->cols; c++) CHECK(b->cells[c] != NULL);
            continue;
        default: CHECK(!"unknown block kind");
        }
        CHECK(b->text != NULL);
        /* a block's text is made of input bytes (plus joining spaces/newlines): never longer
         * than the input */
        size_t tl = strlen(b->text);
        CHECK(tl <= size + (size_t)nlines);
        struct span_check sc = {b->text, tl, 0, b->text};
        lt_markup_spans(b->text, on_span, &sc);
        CHECK(sc.covered <= tl);
    }
    lt_markup_free(&doc);
    CHECK(doc.n == 0 && doc.b == NULL);
    return 0;
}
