/* lt_data.c - a data-only Lua file read as tokens (lt_data.h). */
#include "lt_data.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_file.h"
#include "lt_lex.h"

#define MAX_DEPTH 16
#define MAX_VALUES 100000

struct reader {
    struct lt_lex x;
    int values;
    char *why;
    size_t nwhy;
    bool failed;
};

__attribute__((format(printf, 2, 3))) static bool fail(struct reader *r, const char *fmt, ...)
{
    if (!r->failed && r->nwhy) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->why, r->nwhy, fmt, ap);
        va_end(ap);
    }
    r->failed = true;
    return false;
}

static bool value(struct reader *r, struct lt_data *v, int depth);

/* A table, `{` current: its fields and items to the `}`. */
static bool table(struct reader *r, struct lt_data *t, int depth)
{
    struct lt_lex *x = &r->x;
    int cap = 0;
    t->kind = LT_DATA_TABLE, t->line = x->tline;
    if (depth >= MAX_DEPTH) return fail(r, "line %d: tables nested deeper than %d", x->tline, MAX_DEPTH);
    lt_lex_next(x);
    while (!lt_lex_is(x, LT_TOK_PUNCT, "}")) {
        if (t->n == cap) {
            int nc = cap ? 2 * cap : 8;
            struct lt_data *ni = realloc(t->items, (size_t)nc * sizeof *ni);
            if (!ni) return fail(r, "line %d: out of memory", x->tline);
            t->items = ni, cap = nc;
        }
        struct lt_data *v = &t->items[t->n];
        memset(v, 0, sizeof *v);
        int line = x->tline;
        char *key = NULL;
        if (x->t == LT_TOK_NAME && lt_lex_next_is(x, LT_TOK_PUNCT, "=")) {
            if (!(key = strndup(x->p, x->n))) return fail(r, "line %d: out of memory", line);
            for (int i = 0; i < t->n; i++)
                if (t->items[i].key && !strcmp(t->items[i].key, key)) {
                    fail(r, "line %d: '%s' is given twice (first at line %d)", line, key, t->items[i].line);
                    free(key);
                    return false;
                }
            lt_lex_next(x), lt_lex_next(x);
        }
        t->n++;
        v->key = key;
        if (!value(r, v, depth + 1)) return false;
        if (key) v->line = line;
        if (lt_lex_is(x, LT_TOK_PUNCT, ",") || lt_lex_is(x, LT_TOK_PUNCT, ";")) lt_lex_next(x);
        else if (!lt_lex_is(x, LT_TOK_PUNCT, "}"))
            return fail(r, "line %d: a ',' or '}' is missing (only literal values: \"text\", 12, "
                        "true, { ... })", x->tline);
    }
    lt_lex_next(x);
    return true;
}

static bool number_next(const struct lt_lex *x)
{
    struct lt_lex peek = *x;
    lt_lex_next(&peek);
    return peek.t == LT_TOK_NUMBER;
}

static bool value(struct reader *r, struct lt_data *v, int depth)
{
    struct lt_lex *x = &r->x;
    if (++r->values > MAX_VALUES) return fail(r, "line %d: more than %d values", x->tline, MAX_VALUES);
    v->line = x->tline;
    if (lt_lex_is(x, LT_TOK_PUNCT, "{")) return table(r, v, depth);
    if (x->t == LT_TOK_STRING) {
        if (!(v->str = lt_lex_plain_string(x)))
            return fail(r, "line %d: a string with escapes or control characters (only \\\\, \\\" "
                        "and \\' are read)", x->tline);
        v->kind = LT_DATA_STRING;
    } else if (x->t == LT_TOK_NUMBER || (lt_lex_is(x, LT_TOK_PUNCT, "-") && number_next(x))) {
        bool neg = x->t == LT_TOK_PUNCT;
        if (neg) lt_lex_next(x);
        char num[64], *end;
        if (x->n >= sizeof num) return fail(r, "line %d: a number too long", x->tline);
        memcpy(num, x->p, x->n), num[x->n] = 0;
        v->num = strtod(num, &end);
        if (*end || end == num || strpbrk(num, "xX")) return fail(r, "line %d: '%s' is not a decimal number", x->tline, num);
        if (neg) v->num = -v->num;
        v->kind = LT_DATA_NUMBER;
    } else if (lt_lex_is(x, LT_TOK_NAME, "true") || lt_lex_is(x, LT_TOK_NAME, "false")) {
        v->kind = LT_DATA_BOOL, v->b = lt_lex_is(x, LT_TOK_NAME, "true");
    } else {
        return fail(r, "line %d: not a literal value (only \"text\", numbers, true, false and "
                    "{ ... }: the file is read, never run)", x->tline);
    }
    lt_lex_next(x);
    return true;
}

bool lt_data_read(const char *src, size_t len, struct lt_data *out, char *why, size_t n)
{
    struct reader r = {.why = why, .nwhy = n};
    memset(out, 0, sizeof *out);
    if (n) why[0] = 0;
    lt_lex_init(&r.x, src, len);
    if (!lt_lex_is(&r.x, LT_TOK_NAME, "return"))
        return fail(&r, "line %d: the file must be 'return { ... }'", r.x.tline);
    lt_lex_next(&r.x);
    if (!lt_lex_is(&r.x, LT_TOK_PUNCT, "{"))
        return fail(&r, "line %d: the file must be 'return { ... }'", r.x.tline);
    bool ok = value(&r, out, 0);
    if (ok && lt_lex_is(&r.x, LT_TOK_PUNCT, ";")) lt_lex_next(&r.x);
    if (ok && r.x.t != LT_TOK_EOF) ok = fail(&r, "line %d: something after the table", r.x.tline);
    if (!ok) lt_data_free(out);
    return ok;
}

bool lt_data_read_file(const char *path, size_t max, struct lt_data *out, char *err, size_t n)
{
    char why[512];
    size_t len;
    memset(out, 0, sizeof *out);
    char *src = gpu_file_read(path, max, 0, &len, why, sizeof why);
    if (!src) {
        gpu_errf(err, n, "%s", why);
        return false;
    }
    bool ok = lt_data_read(src, len, out, why, sizeof why);
    free(src);
    if (!ok) { /* "line N: what" -> "path:N: what" */
        int line = 1;
        const char *w = why;
        if (sscanf(why, "line %d:", &line) == 1 && strchr(why, ':')) w = strchr(why, ':') + 2;
        gpu_errf(err, n, "%s:%d: %s", path, line, w);
    }
    return ok;
}

const struct lt_data *lt_data_field(const struct lt_data *t, const char *key)
{
    for (int i = 0; t && t->kind == LT_DATA_TABLE && i < t->n; i++)
        if (t->items[i].key && !strcmp(t->items[i].key, key)) return &t->items[i];
    return NULL;
}

int lt_data_nitems(const struct lt_data *t)
{
    int k = 0;
    for (int i = 0; t && t->kind == LT_DATA_TABLE && i < t->n; i++) k += !t->items[i].key;
    return k;
}

const struct lt_data *lt_data_item(const struct lt_data *t, int i)
{
    for (int j = 0; t && t->kind == LT_DATA_TABLE && j < t->n; j++)
        if (!t->items[j].key && i-- == 0) return &t->items[j];
    return NULL;
}

const char *lt_data_lang(const struct lt_data *v, int l)
{
    const struct lt_data *s = lt_data_field(v, l ? "zh" : "en");
    return s && s->kind == LT_DATA_STRING ? s->str : NULL;
}

void lt_data_free(struct lt_data *d)
{
    if (!d) return;
    for (int i = 0; i < d->n; i++) lt_data_free(&d->items[i]);
    free(d->items), free(d->key), free(d->str);
    memset(d, 0, sizeof *d);
}
