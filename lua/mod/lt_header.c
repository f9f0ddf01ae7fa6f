/* lt_header.c - a lesson's header (id, chapter, titles, exercises) read from its text as tokens,
 * nothing run: the catalog lists a course in milliseconds, and a lesson's body is compiled only
 * when it is opened. Only the plain form is read (lt_header.h); anything else, however valid
 * Lua, makes the caller load the lesson. The tokens are Lua 5.4's (lt_lex.h); nesting counts
 * brackets and the blocks that `end` or `until` closes, so that a comma inside a function body
 * is not taken for one of the lesson table's. */
#include "lt_header.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_lex.h"

#define MAX_DEPTH 200 /* Lua's own parser stops at 200 nested levels (LUAI_MAXCCALLS) */

struct parse {
    struct lt_lex x;
    char open[MAX_DEPTH]; /* what each open level is: ( [ { or b (a block `end` closes), r (repeat) */
    int depth;
    bool in_local;        /* in the names of a `local` statement */
    bool after_function;  /* the last token was `function` */
    char *why;
    size_t nwhy;
    bool failed;
};

__attribute__((format(printf, 2, 3))) static bool fail(struct parse *P, const char *fmt, ...)
{
    if (!P->failed && P->nwhy) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(P->why, P->nwhy, fmt, ap);
        va_end(ap);
    }
    P->failed = true;
    return false;
}

/* The names lesson{} and its blocks are called by: redefining one makes the header unreadable
 * without running the file. */
static bool reserved(const struct lt_lex *x)
{
    static const char *const names[] = {"lesson", "text", "experiment", "exercise", NULL};
    for (int i = 0; names[i]; i++)
        if (lt_lex_is(x, LT_TOK_NAME, names[i])) return true;
    return false;
}

/* Consume the current token (nesting and the checks on redefined names), read the next. */
static bool advance(struct parse *P)
{
    struct lt_lex *x = &P->x;
    if (x->t == LT_TOK_BAD) return fail(P, "line %d: a token Lua would not read", x->tline);
    if (x->t == LT_TOK_EOF) return fail(P, "line %d: the file ends inside the lesson", x->tline);
    /* the environment reached as a table, or code compiled from a string, could redefine them */
    if (lt_lex_is(x, LT_TOK_NAME, "_ENV") || lt_lex_is(x, LT_TOK_NAME, "_G") || lt_lex_is(x, LT_TOK_NAME, "load"))
        return fail(P, "line %d: the file uses _ENV, _G or load", x->tline);
    if (reserved(x)) {
        struct lt_lex peek = *x;
        lt_lex_next(&peek);
        bool assigned = lt_lex_is(&peek, LT_TOK_PUNCT, "=") && !(P->depth > 0 && P->open[P->depth - 1] == '{');
        if (P->after_function || (P->in_local && P->depth == 0) || assigned)
            return fail(P, "line %d: the file redefines lesson, text, experiment or exercise", x->tline);
    }
    P->after_function = lt_lex_is(x, LT_TOK_NAME, "function");
    if (lt_lex_is(x, LT_TOK_NAME, "local")) P->in_local = true;
    else if (P->in_local && !(x->t == LT_TOK_NAME || lt_lex_is(x, LT_TOK_PUNCT, ",") || lt_lex_is(x, LT_TOK_PUNCT, "<") ||
                              lt_lex_is(x, LT_TOK_PUNCT, ">")))
        P->in_local = false;
    char k;
    int d = lt_lex_nest(x, &k);
    if (d > 0) {
        if (P->depth == MAX_DEPTH) return fail(P, "line %d: nested too deeply", x->tline);
        P->open[P->depth++] = k;
    } else if (d < 0) {
        if (P->depth == 0 || P->open[P->depth - 1] != k)
            return fail(P, "line %d: brackets or blocks that do not match", x->tline);
        P->depth--;
    }
    lt_lex_next(x);
    return true;
}

/* The end of a field's or block's value: `,` `;` (consumed) or the table's `}` (left). */
static bool item_end(struct parse *P)
{
    if (lt_lex_is(&P->x, LT_TOK_PUNCT, ",") || lt_lex_is(&P->x, LT_TOK_PUNCT, ";")) return advance(P);
    if (lt_lex_is(&P->x, LT_TOK_PUNCT, "}")) return true;
    return fail(P, "line %d: a value that is not a literal", P->x.tline);
}

/* A string literal as a field's whole value. */
static bool string_value(struct parse *P, char **out, const char *what)
{
    if (P->x.t != LT_TOK_STRING || !(*out = lt_lex_plain_string(&P->x)) || !**out)
        return fail(P, "line %d: %s is not a plain string literal", P->x.tline, what);
    return advance(P) && item_end(P);
}

/* { en = "...", zh = "..." } (a draft may lack one: checked with the draft, later). */
static bool lang_value(struct parse *P, char *v[2], const char *what)
{
    if (!lt_lex_is(&P->x, LT_TOK_PUNCT, "{")) return fail(P, "line %d: %s is not a literal { en =, zh = }", P->x.tline, what);
    if (!advance(P)) return false;
    while (!lt_lex_is(&P->x, LT_TOK_PUNCT, "}")) {
        int l = lt_lex_is(&P->x, LT_TOK_NAME, "en") ? 0 : lt_lex_is(&P->x, LT_TOK_NAME, "zh") ? 1 : -1;
        if (l < 0 || v[l] || !lt_lex_next_is(&P->x, LT_TOK_PUNCT, "="))
            return fail(P, "line %d: %s is not a literal { en =, zh = }", P->x.tline, what);
        if (!advance(P) || !advance(P) || !string_value(P, &v[l], what)) return false;
    }
    return advance(P) && item_end(P);
}

/* Skip a value up to the `,` `;` or `}` that ends it at this level (not consumed). */
static bool skip_value(struct parse *P)
{
    int d = P->depth;
    while (!(P->depth == d && (lt_lex_is(&P->x, LT_TOK_PUNCT, ",") || lt_lex_is(&P->x, LT_TOK_PUNCT, ";") ||
                               lt_lex_is(&P->x, LT_TOK_PUNCT, "}"))))
        if (!advance(P)) return false;
    return true;
}

static bool word_ok(const char *s) /* an experiment's or exercise's id (lt_lesson.c's id_ok) */
{
    size_t n = strlen(s);
    return n > 0 && n <= 64 &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* A block call's table, `{` current: to just past its `}`; an exercise's literal id kept. */
static bool block(struct parse *P, struct lt_header *h, bool exercise)
{
    int d = P->depth, line = P->x.tline;
    char *id = NULL;
    bool ok = advance(P), bad_id = false;
    while (ok && P->depth > d) {
        if (exercise && P->depth == d + 1 && lt_lex_is(&P->x, LT_TOK_NAME, "id") && lt_lex_next_is(&P->x, LT_TOK_PUNCT, "=")) {
            ok = advance(P) && advance(P);
            bad_id = bad_id || id || P->x.t != LT_TOK_STRING || /* a literal, the value's whole */
                     !(lt_lex_next_is(&P->x, LT_TOK_PUNCT, ",") || lt_lex_next_is(&P->x, LT_TOK_PUNCT, ";") ||
                       lt_lex_next_is(&P->x, LT_TOK_PUNCT, "}"));
            if (ok && !id && P->x.t == LT_TOK_STRING) id = lt_lex_plain_string(&P->x);
        }
        ok = ok && advance(P);
    }
    if (!ok || !exercise) {
        free(id);
        return ok;
    }
    for (int i = 0; id && i < h->nexercises; i++)
        bad_id = bad_id || !strcmp(h->exercises[i], id);
    char **ne = id && !bad_id && word_ok(id) ? realloc(h->exercises, (size_t)(h->nexercises + 1) * sizeof *ne) : NULL;
    if (!ne) {
        free(id);
        return fail(P, "line %d: an exercise whose id is not a plain word literal (or is used twice)", line);
    }
    h->exercises = ne;
    h->exercises[h->nexercises++] = id;
    return true;
}

/* lesson.lua's rules for the header: what it would refuse is not plain (the loader says why). */
static bool header_ok(struct parse *P, struct lt_header *h, char *v[2][2], char *draft, int nblocks)
{
    static const char *const untranslated[] = {" (not yet translated)", "（尚未翻译）"};
    size_t a = strspn(h->id, "0123456789");
    char ch[16];
    snprintf(ch, sizeof ch, "%d", h->chapter);
    if (!(a > 0 && h->id[a] == '.' && h->id[a + 1] &&
          strspn(h->id + a + 1, "0123456789") == strlen(h->id + a + 1)))
        return fail(P, "line %d: the id is not a literal such as \"1.3\"", h->line);
    if (h->chapter < 1 || h->chapter > 9999 || strlen(ch) != a || strncmp(ch, h->id, a))
        return fail(P, "line %d: the chapter is not the id's whole-number literal", h->line);
    if (draft && strcmp(draft, "en") && strcmp(draft, "zh"))
        return fail(P, "line %d: draft is not \"en\" or \"zh\"", h->line);
    if (nblocks == 0) return fail(P, "line %d: no blocks", h->line);
    for (int k = 0; k < 2; k++) /* title, chapter_title */
        for (int l = 0; l < 2; l++) {
            const char *mine = v[k][l], *other = v[k][!l];
            bool missing_ok = draft && strcmp(draft, l ? "zh" : "en"); /* not the draft's language */
            if (!mine && (!other || !missing_ok))
                return fail(P, "line %d: a title without both languages", h->line);
            const char *mark = draft && strcmp(draft, l ? "zh" : "en") ? untranslated[l] : "";
            size_t len = strlen(mine ? mine : other) + strlen(mark) + 1;
            char *s = malloc(len);
            if (!s) return fail(P, "line %d: out of memory", h->line);
            snprintf(s, len, "%s%s", mine ? mine : other, k ? "" : mark);
            if (k) h->chapter_title[l] = s;
            else h->title[l] = s;
        }
    return true;
}

/* The lesson table, `{` current (after `return lesson`). */
static bool lesson_table(struct parse *P, struct lt_header *h)
{
    char *v[2][2] = {{NULL, NULL}, {NULL, NULL}}, *id = NULL, *draft = NULL;
    int nblocks = 0;
    bool have_chapter = false, ok = advance(P);
    while (ok && !lt_lex_is(&P->x, LT_TOK_PUNCT, "}")) {
        struct lt_lex *x = &P->x;
        if (x->t == LT_TOK_NAME && lt_lex_next_is(x, LT_TOK_PUNCT, "=")) {
            char key[16];
            snprintf(key, sizeof key, "%.*s", (int)(x->n < 15 ? x->n : 15), x->p);
            ok = advance(P) && advance(P);
            if (!ok) break;
            if (!strcmp(key, "id") && !id) {
                ok = string_value(P, &id, "the id");
            } else if (!strcmp(key, "chapter") && !have_chapter) {
                have_chapter = true;
                if (x->t != LT_TOK_NUMBER || x->n > 4 || strspn(x->p, "0123456789") < x->n) {
                    ok = fail(P, "line %d: the chapter is not a whole-number literal", x->tline);
                    break;
                }
                h->chapter = atoi(x->p);
                ok = advance(P) && item_end(P);
            } else if (!strcmp(key, "title") && !v[0][0] && !v[0][1]) {
                ok = lang_value(P, v[0], "the title");
            } else if (!strcmp(key, "chapter_title") && !v[1][0] && !v[1][1]) {
                ok = lang_value(P, v[1], "the chapter title");
            } else if (!strcmp(key, "draft") && !draft) {
                ok = string_value(P, &draft, "draft");
            } else if (!strcmp(key, "requires")) {
                ok = skip_value(P) && item_end(P);
            } else {
                ok = fail(P, "line %d: a field lesson{} does not take, or one given twice: %s", x->tline, key);
            }
        } else if (x->t == LT_TOK_NAME && lt_lex_next_is(x, LT_TOK_PUNCT, "{") &&
                   (lt_lex_is(x, LT_TOK_NAME, "text") || lt_lex_is(x, LT_TOK_NAME, "experiment") || lt_lex_is(x, LT_TOK_NAME, "exercise"))) {
            bool ex = lt_lex_is(x, LT_TOK_NAME, "exercise");
            nblocks++;
            ok = advance(P) && block(P, h, ex) && item_end(P);
        } else {
            ok = fail(P, "line %d: a block that is not text{...}, experiment{...} or exercise{...}", x->tline);
        }
    }
    if (ok && !(id && have_chapter)) ok = fail(P, "line %d: no literal id or chapter", h->line);
    if (ok) snprintf(h->id, sizeof h->id, "%s", strlen(id) < sizeof h->id ? id : "");
    ok = ok && header_ok(P, h, v, draft, nblocks) && advance(P); /* past the lesson's } */
    free(id), free(draft);
    for (int k = 0; k < 2; k++) free(v[k][0]), free(v[k][1]);
    return ok;
}

bool lt_header_scan(const char *src, size_t len, struct lt_header *h, char *why, size_t n)
{
    struct parse P = {.why = why, .nwhy = n};
    memset(h, 0, sizeof *h);
    if (n) why[0] = 0;
    if (len && src[0] == 0x1b) return fail(&P, "line %d: a binary chunk", 1);
    lt_lex_init(&P.x, src, len);
    bool ok = true;
    while (ok && P.x.t != LT_TOK_EOF && !(P.depth == 0 && lt_lex_is(&P.x, LT_TOK_NAME, "return")))
        ok = advance(&P);
    if (ok && P.x.t != LT_TOK_EOF && advance(&P) && lt_lex_is(&P.x, LT_TOK_NAME, "lesson") && lt_lex_next_is(&P.x, LT_TOK_PUNCT, "{")) {
        h->line = P.x.tline;
        P.in_local = false;
        ok = advance(&P) && lesson_table(&P, h);
        if (ok && lt_lex_is(&P.x, LT_TOK_PUNCT, ";")) ok = advance(&P);
        if (ok && P.x.t != LT_TOK_EOF) ok = fail(&P, "line %d: code after the lesson table", P.x.tline);
    } else if (ok) {
        ok = fail(&P, "line %d: the file does not end with 'return lesson { ... }'", P.x.tline);
    }
    if (!ok) lt_header_free(h);
    return ok;
}

void lt_header_free(struct lt_header *h)
{
    for (int l = 0; l < 2; l++) free(h->title[l]), free(h->chapter_title[l]);
    for (int i = 0; i < h->nexercises; i++) free(h->exercises[i]);
    free(h->exercises);
    memset(h, 0, sizeof *h);
}

bool lt_header_same(const struct lt_header *a, const struct lt_header *b, char *what, size_t n)
{
    static const char *const lang[] = {"en", "zh"};
    if (strcmp(a->id, b->id)) return snprintf(what, n, "the id (%s, %s)", a->id, b->id), false;
    if (a->chapter != b->chapter) return snprintf(what, n, "the chapter (%d, %d)", a->chapter, b->chapter), false;
    for (int l = 0; l < 2; l++) {
        if (strcmp(a->title[l], b->title[l]))
            return snprintf(what, n, "the %s title (\"%s\", \"%s\")", lang[l], a->title[l], b->title[l]), false;
        if (strcmp(a->chapter_title[l], b->chapter_title[l]))
            return snprintf(what, n, "the %s chapter title (\"%s\", \"%s\")", lang[l], a->chapter_title[l],
                            b->chapter_title[l]), false;
    }
    if (a->nexercises != b->nexercises)
        return snprintf(what, n, "the number of exercises (%d, %d)", a->nexercises, b->nexercises), false;
    for (int i = 0; i < a->nexercises; i++)
        if (strcmp(a->exercises[i], b->exercises[i]))
            return snprintf(what, n, "exercise %d's id (%s, %s)", i + 1, a->exercises[i], b->exercises[i]), false;
    return true;
}
