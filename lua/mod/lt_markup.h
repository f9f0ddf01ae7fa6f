/* lt_markup.h - the small Markdown subset lesson text is written in: headings (#, ##, ###),
 * paragraphs, lists (- or 1.), tables (| a | b | with a |---| rule under the header), fenced
 * code (```), callouts (> [!pitfall] ..., > [!experience], > [!errata], > [!note], > [!source],
 * > [!tip]) and inline **emphasis**, *italic* and `code`. Pure C: also used by the fuzzers and
 * the TUI. */
#ifndef LT_MARKUP_H
#define LT_MARKUP_H

#include <stddef.h>

enum lt_mk_kind { LT_MK_HEADING, LT_MK_PARA, LT_MK_ITEM, LT_MK_TABLE, LT_MK_CODE, LT_MK_CALLOUT };

#define LT_CALLOUT_LIST(X)                                                                        \
    X(note, "Note", "注意")                                                                       \
    X(pitfall, "Pitfall", "避坑指南")                                                             \
    X(experience, "From experience", "个人经验")                                                  \
    X(errata, "Errata", "勘误")                                                                   \
    X(source, "Source", "出处")                                                                   \
    X(tip, "Tip", "提示")

#define LT_X_CALLOUT(id, en, zh) LT_CALLOUT_##id,
enum lt_callout { LT_CALLOUT_LIST(LT_X_CALLOUT) LT_CALLOUT_COUNT };
#undef LT_X_CALLOUT
const char *lt_callout_name(int c);                  /* "pitfall" */
const char *lt_callout_label(int c, const char *lang); /* "Pitfall" / "避坑指南" */

struct lt_mk_block {
    enum lt_mk_kind kind;
    int line;       /* 1-based line in the source where the block starts */
    int level;      /* heading: 1..3; item: nesting depth 0..; item numbered: ordinal or 0 */
    int number;     /* numbered list item: its number (0 = bullet) */
    int callout;    /* enum lt_callout */
    char *text;     /* heading/para/item/callout body (lines joined); code: lines with \n */
    int rows, cols; /* table: rows including the header row */
    char **cells;   /* table: rows x cols, trimmed; row 0 is the header */
};

struct lt_mk_doc {
    struct lt_mk_block *b;
    int n, cap;
};

/* Parse src. On a mistake return -1 with err = "line N: what" (and doc freed); else 0. */
int lt_markup_parse(const char *src, size_t len, struct lt_mk_doc *doc, char *err, size_t n);
void lt_markup_free(struct lt_mk_doc *doc);

/* Inline spans: split text into runs, each with the markers it is inside of: **strong**,
 * *italic* and `code` (flags, combined: "**`x`**" is EM | CODE). The markers themselves are in
 * no run. A single star opens italic only before a non-blank and after no ASCII letter or digit,
 * and closes only after a non-blank and before none ("2*3*4" and "a * b" stay as they are); a
 * marker without its closing one is plain text; code spans hold no other markup. Calls fn for
 * each run, in order. */
enum lt_span { LT_SPAN_PLAIN = 0, LT_SPAN_EM = 1, LT_SPAN_ITALIC = 2, LT_SPAN_CODE = 4 };
void lt_markup_spans(const char *text, void (*fn)(void *ud, int spans, const char *p, size_t len),
                     void *ud);

#endif
