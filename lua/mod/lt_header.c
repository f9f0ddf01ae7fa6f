/* lt_header.c - a lesson's header (id, chapter, titles, exercises) read from its text as tokens,
 * nothing run: the catalog lists a course in milliseconds, and a lesson's body is compiled only
 * when it is opened. Only the plain form is read (lt_header.h); anything else, however valid
 * Lua, makes the caller load the lesson. The tokens are Lua 5.4's (names, numbers, short and
 * long strings, comments, operators); nesting counts brackets and the blocks that `end` or
 * `until` closes, so that a comma inside a function body is not taken for one of the lesson
 * table's. */
#include "lt_header.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200 /* Lua's own parser stops at 200 nested levels (LUAI_MAXCCALLS) */

enum tok { T_EOF, T_NAME, T_STRING, T_NUMBER, T_PUNCT, T_BAD };

struct lex {
    const char *s, *end; /* the cursor and the end of the text */
    int line;
    enum tok t;          /* the current token: its kind, text and line */
    const char *p;
    size_t n;
    int tline;
    int level;           /* a string's long-bracket level; -1 for a quoted string */
};

struct parse {
    struct lex x;
    char open[MAX_DEPTH]; /* what each open level is: ( [ { or b (a block `end` closes), r (repeat) */
    int depth;
    bool in_local;        /* in the names of a `local` statement */
    bool after_function;  /* the last token was `function` */
    char *why;
    size_t nwhy;
    bool failed;
};

static bool name0(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool digit(int c) { return c >= '0' && c <= '9'; }
static bool namec(int c) { return name0(c) || digit(c); }

static bool is(const struct lex *x, enum tok t, const char *text)
{
    size_t l = strlen(text);
    return x->t == t && x->n == l && !memcmp(x->p, text, l);
}

/* `[` followed by `=`* and `[` opens a long bracket: its level, or -1 */
static int long_open(const char *s, const char *end)
{
    const char *q = s + 1;
    while (q < end && *q == '=') q++;
    return q < end && *q == '[' ? (int)(q - s - 1) : -1;
}

/* From inside a long bracket of `level` to just past its close, or NULL when it never closes. */
static const char *long_close(struct lex *x, const char *q, int level)
{
    for (; q < x->end; q++) {
        if (*q == '\n') x->line++;
        else if (*q == ']') {
            const char *r = q + 1;
            while (r < x->end && *r == '=') r++;
            if (r - q - 1 == level && r < x->end && *r == ']') return r + 1;
        }
    }
    return NULL;
}

static void next(struct lex *x)
{
    for (;;) { /* white space and comments */
        while (x->s < x->end && strchr(" \t\r\v\f\n", *x->s) && *x->s) x->line += *x->s++ == '\n';
        if (x->end - x->s >= 2 && x->s[0] == '-' && x->s[1] == '-') {
            x->s += 2;
            int lv = x->s < x->end && *x->s == '[' ? long_open(x->s, x->end) : -1;
            if (lv >= 0) {
                x->s = long_close(x, x->s + lv + 2, lv);
                if (!x->s) {
                    x->s = x->end;
                    x->t = T_BAD;
                    return;
                }
            } else {
                while (x->s < x->end && *x->s != '\n') x->s++;
            }
            continue;
        }
        break;
    }
    x->p = x->s, x->tline = x->line, x->level = -1;
    if (x->s >= x->end) {
        x->t = T_EOF, x->n = 0;
        return;
    }
    const char *q = x->s;
    unsigned char c = (unsigned char)*q;
    if (name0(c)) {
        while (q < x->end && namec((unsigned char)*q)) q++;
        x->t = T_NAME;
    } else if (digit(c) || (c == '.' && q + 1 < x->end && digit((unsigned char)q[1]))) {
        for (q++; q < x->end; q++) {
            unsigned char d = (unsigned char)*q;
            bool sign = (d == '+' || d == '-') && strchr("eEpP", q[-1]) && q[-1];
            if (!namec(d) && d != '.' && !sign) break;
        }
        x->t = T_NUMBER;
    } else if (c == '"' || c == '\'') {
        for (q++; q < x->end && *q != (char)c; q++) {
            if (*q == '\n') break; /* an unfinished string */
            if (*q != '\\') continue;
            if (++q >= x->end) break;
            if (*q == '\n') x->line++;
            else if (*q == 'z') /* \z skips the white space that follows, new lines included */
                while (q + 1 < x->end && strchr(" \t\r\v\f\n", q[1]) && q[1]) x->line += *++q == '\n';
        }
        if (q >= x->end || *q != (char)c) {
            x->s = x->end, x->t = T_BAD;
            return;
        }
        q++;
        x->t = T_STRING;
    } else if (c == '[' && long_open(q, x->end) >= 0) {
        x->level = long_open(q, x->end);
        q = long_close(x, q + x->level + 2, x->level);
        if (!q) {
            x->s = x->end, x->t = T_BAD;
            return;
        }
        x->t = T_STRING;
    } else if (c < 0x80 && strchr("+-*/%^#&~|<>=(){}[];:,.", c) && c) {
        static const char *const two[] = {"==", "~=", "<=", ">=", "//", "::", "<<", ">>", "..", NULL};
        q++;
        for (int i = 0; two[i]; i++)
            if (x->end - x->s >= 2 && !memcmp(x->s, two[i], 2)) q = x->s + 2;
        if (q - x->s == 2 && !memcmp(x->s, "..", 2) && q < x->end && *q == '.') q++; /* ... */
        x->t = T_PUNCT;
    } else {
        x->s = x->end, x->t = T_BAD; /* a byte Lua does not read outside a string */
        return;
    }
    x->n = (size_t)(q - x->s);
    x->s = q;
}

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
static bool reserved(const struct lex *x)
{
    static const char *const names[] = {"lesson", "text", "experiment", "exercise", NULL};
    for (int i = 0; names[i]; i++)
        if (is(x, T_NAME, names[i])) return true;
    return false;
}

/* Consume the current token (nesting and the checks on redefined names), read the next. */
static bool advance(struct parse *P)
{
    struct lex *x = &P->x;
    if (x->t == T_BAD) return fail(P, "line %d: a token Lua would not read", x->tline);
    if (x->t == T_EOF) return fail(P, "line %d: the file ends inside the lesson", x->tline);
    /* the environment reached as a table, or code compiled from a string, could redefine them */
    if (is(x, T_NAME, "_ENV") || is(x, T_NAME, "_G") || is(x, T_NAME, "load"))
        return fail(P, "line %d: the file uses _ENV, _G or load", x->tline);
    if (reserved(x)) {
        struct lex peek = *x;
        next(&peek);
        bool assigned = is(&peek, T_PUNCT, "=") && !(P->depth > 0 && P->open[P->depth - 1] == '{');
        if (P->after_function || (P->in_local && P->depth == 0) || assigned)
            return fail(P, "line %d: the file redefines lesson, text, experiment or exercise", x->tline);
    }
    P->after_function = is(x, T_NAME, "function");
    if (is(x, T_NAME, "local")) P->in_local = true;
    else if (P->in_local && !(x->t == T_NAME || is(x, T_PUNCT, ",") || is(x, T_PUNCT, "<") ||
                              is(x, T_PUNCT, ">")))
        P->in_local = false;
    char o = 0, c = 0;
    if (x->t == T_PUNCT && x->n == 1 && strchr("([{", *x->p)) o = *x->p;
    else if (is(x, T_NAME, "function") || is(x, T_NAME, "do") || is(x, T_NAME, "if")) o = 'b';
    else if (is(x, T_NAME, "repeat")) o = 'r';
    else if (x->t == T_PUNCT && x->n == 1 && strchr(")]}", *x->p)) c = *x->p == ')' ? '(' : *x->p == ']' ? '[' : '{';
    else if (is(x, T_NAME, "end")) c = 'b';
    else if (is(x, T_NAME, "until")) c = 'r';
    if (o) {
        if (P->depth == MAX_DEPTH) return fail(P, "line %d: nested too deeply", x->tline);
        P->open[P->depth++] = o;
    } else if (c) {
        if (P->depth == 0 || P->open[P->depth - 1] != c)
            return fail(P, "line %d: brackets or blocks that do not match", x->tline);
        P->depth--;
    }
    next(x);
    return true;
}

/* A string token's value when it is plain text: printable bytes (UTF-8 passes through), and of
 * the escapes only \\, \" and \'. NULL otherwise (or out of memory). */
static char *plain_string(const struct lex *x)
{
    const char *s, *e;
    if (x->level >= 0) {
        s = x->p + x->level + 2, e = x->p + x->n - x->level - 2;
        if (s < e && (*s == '\n' || *s == '\r')) { /* a long string drops its first new line */
            s += (s + 1 < e && (s[1] == '\n' || s[1] == '\r') && s[1] != *s) ? 2 : 1;
        }
    } else {
        s = x->p + 1, e = x->p + x->n - 1;
    }
    char *out = malloc((size_t)(e - s) + 1), *o = out;
    if (!out) return NULL;
    for (; s < e; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\' && x->level < 0) {
            if (++s >= e || !strchr("\\\"'", *s) || !*s) break;
            c = (unsigned char)*s;
        } else if (c < 0x20 || c == 0x7f) {
            break;
        }
        *o++ = (char)c;
    }
    if (s < e) {
        free(out);
        return NULL;
    }
    *o = 0;
    return out;
}

/* Is the token after the current one `t`? */
static bool next_is(const struct lex *x, enum tok t, const char *text)
{
    struct lex peek = *x;
    next(&peek);
    return is(&peek, t, text);
}

/* The end of a field's or block's value: `,` `;` (consumed) or the table's `}` (left). */
static bool item_end(struct parse *P)
{
    if (is(&P->x, T_PUNCT, ",") || is(&P->x, T_PUNCT, ";")) return advance(P);
    if (is(&P->x, T_PUNCT, "}")) return true;
    return fail(P, "line %d: a value that is not a literal", P->x.tline);
}

/* A string literal as a field's whole value. */
static bool string_value(struct parse *P, char **out, const char *what)
{
    if (P->x.t != T_STRING || !(*out = plain_string(&P->x)) || !**out)
        return fail(P, "line %d: %s is not a plain string literal", P->x.tline, what);
    return advance(P) && item_end(P);
}

/* { en = "...", zh = "..." } (a draft may lack one: checked with the draft, later). */
static bool lang_value(struct parse *P, char *v[2], const char *what)
{
    if (!is(&P->x, T_PUNCT, "{")) return fail(P, "line %d: %s is not a literal { en =, zh = }", P->x.tline, what);
    if (!advance(P)) return false;
    while (!is(&P->x, T_PUNCT, "}")) {
        int l = is(&P->x, T_NAME, "en") ? 0 : is(&P->x, T_NAME, "zh") ? 1 : -1;
        if (l < 0 || v[l] || !next_is(&P->x, T_PUNCT, "="))
            return fail(P, "line %d: %s is not a literal { en =, zh = }", P->x.tline, what);
        if (!advance(P) || !advance(P) || !string_value(P, &v[l], what)) return false;
    }
    return advance(P) && item_end(P);
}

/* Skip a value up to the `,` `;` or `}` that ends it at this level (not consumed). */
static bool skip_value(struct parse *P)
{
    int d = P->depth;
    while (!(P->depth == d && (is(&P->x, T_PUNCT, ",") || is(&P->x, T_PUNCT, ";") ||
                               is(&P->x, T_PUNCT, "}"))))
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
        if (exercise && P->depth == d + 1 && is(&P->x, T_NAME, "id") && next_is(&P->x, T_PUNCT, "=")) {
            ok = advance(P) && advance(P);
            bad_id = bad_id || id || P->x.t != T_STRING || /* a literal, the value's whole */
                     !(next_is(&P->x, T_PUNCT, ",") || next_is(&P->x, T_PUNCT, ";") ||
                       next_is(&P->x, T_PUNCT, "}"));
            if (ok && !id && P->x.t == T_STRING) id = plain_string(&P->x);
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
    while (ok && !is(&P->x, T_PUNCT, "}")) {
        struct lex *x = &P->x;
        if (x->t == T_NAME && next_is(x, T_PUNCT, "=")) {
            char key[16];
            snprintf(key, sizeof key, "%.*s", (int)(x->n < 15 ? x->n : 15), x->p);
            ok = advance(P) && advance(P);
            if (!ok) break;
            if (!strcmp(key, "id") && !id) {
                ok = string_value(P, &id, "the id");
            } else if (!strcmp(key, "chapter") && !have_chapter) {
                have_chapter = true;
                if (x->t != T_NUMBER || x->n > 4 || strspn(x->p, "0123456789") < x->n) {
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
        } else if (x->t == T_NAME && next_is(x, T_PUNCT, "{") &&
                   (is(x, T_NAME, "text") || is(x, T_NAME, "experiment") || is(x, T_NAME, "exercise"))) {
            bool ex = is(x, T_NAME, "exercise");
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
    P.x.s = src, P.x.end = src + len, P.x.line = 1;
    if (len && src[0] == '#') /* a #! line, as the loader skips it */
        while (P.x.s < P.x.end && *P.x.s != '\n') P.x.s++;
    next(&P.x);
    bool ok = true;
    while (ok && P.x.t != T_EOF && !(P.depth == 0 && is(&P.x, T_NAME, "return")))
        ok = advance(&P);
    if (ok && P.x.t != T_EOF && advance(&P) && is(&P.x, T_NAME, "lesson") && next_is(&P.x, T_PUNCT, "{")) {
        h->line = P.x.tline;
        P.in_local = false;
        ok = advance(&P) && lesson_table(&P, h);
        if (ok && is(&P.x, T_PUNCT, ";")) ok = advance(&P);
        if (ok && P.x.t != T_EOF) ok = fail(&P, "line %d: code after the lesson table", P.x.tline);
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
