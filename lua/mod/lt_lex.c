/* lt_lex.c - Lua's tokens without running anything (lt_lex.h). */
#include "lt_lex.h"

#include <stdlib.h>
#include <string.h>

static bool name0(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool digit(int c) { return c >= '0' && c <= '9'; }
static bool namec(int c) { return name0(c) || digit(c); }

bool lt_lex_is(const struct lt_lex *x, enum lt_tok t, const char *text)
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
static const char *long_close(struct lt_lex *x, const char *q, int level)
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

void lt_lex_next(struct lt_lex *x)
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
                    x->t = LT_TOK_BAD;
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
        x->t = LT_TOK_EOF, x->n = 0;
        return;
    }
    const char *q = x->s;
    unsigned char c = (unsigned char)*q;
    if (name0(c)) {
        while (q < x->end && namec((unsigned char)*q)) q++;
        x->t = LT_TOK_NAME;
    } else if (digit(c) || (c == '.' && q + 1 < x->end && digit((unsigned char)q[1]))) {
        for (q++; q < x->end; q++) {
            unsigned char d = (unsigned char)*q;
            bool sign = (d == '+' || d == '-') && strchr("eEpP", q[-1]) && q[-1];
            if (!namec(d) && d != '.' && !sign) break;
        }
        x->t = LT_TOK_NUMBER;
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
            x->s = x->end, x->t = LT_TOK_BAD;
            return;
        }
        q++;
        x->t = LT_TOK_STRING;
    } else if (c == '[' && long_open(q, x->end) >= 0) {
        x->level = long_open(q, x->end);
        q = long_close(x, q + x->level + 2, x->level);
        if (!q) {
            x->s = x->end, x->t = LT_TOK_BAD;
            return;
        }
        x->t = LT_TOK_STRING;
    } else if (c < 0x80 && strchr("+-*/%^#&~|<>=(){}[];:,.", c) && c) {
        static const char *const two[] = {"==", "~=", "<=", ">=", "//", "::", "<<", ">>", "..", NULL};
        q++;
        for (int i = 0; two[i]; i++)
            if (x->end - x->s >= 2 && !memcmp(x->s, two[i], 2)) q = x->s + 2;
        if (q - x->s == 2 && !memcmp(x->s, "..", 2) && q < x->end && *q == '.') q++; /* ... */
        x->t = LT_TOK_PUNCT;
    } else {
        x->s = x->end, x->t = LT_TOK_BAD; /* a byte Lua does not read outside a string */
        return;
    }
    x->n = (size_t)(q - x->s);
    x->s = q;
}

void lt_lex_init(struct lt_lex *x, const char *src, size_t len)
{
    memset(x, 0, sizeof *x);
    x->s = src, x->end = src + len, x->line = 1;
    if (len && src[0] == '#') /* a #! line, as the loader skips it */
        while (x->s < x->end && *x->s != '\n') x->s++;
    lt_lex_next(x);
}

bool lt_lex_next_is(const struct lt_lex *x, enum lt_tok t, const char *text)
{
    struct lt_lex peek = *x;
    lt_lex_next(&peek);
    return lt_lex_is(&peek, t, text);
}

int lt_lex_nest(const struct lt_lex *x, char *kind)
{
    char k = 0;
    int d = 0;
    if (x->t == LT_TOK_PUNCT && x->n == 1 && strchr("([{", *x->p)) k = *x->p, d = 1;
    else if (lt_lex_is(x, LT_TOK_NAME, "function") || lt_lex_is(x, LT_TOK_NAME, "do") ||
             lt_lex_is(x, LT_TOK_NAME, "if"))
        k = 'b', d = 1;
    else if (lt_lex_is(x, LT_TOK_NAME, "repeat")) k = 'r', d = 1;
    else if (x->t == LT_TOK_PUNCT && x->n == 1 && strchr(")]}", *x->p))
        k = *x->p == ')' ? '(' : *x->p == ']' ? '[' : '{', d = -1;
    else if (lt_lex_is(x, LT_TOK_NAME, "end")) k = 'b', d = -1;
    else if (lt_lex_is(x, LT_TOK_NAME, "until")) k = 'r', d = -1;
    if (kind) *kind = k;
    return d;
}

char *lt_lex_plain_string(const struct lt_lex *x)
{
    const char *s, *e;
    if (x->t != LT_TOK_STRING) return NULL;
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

/* ---- the line of a field ----------------------------------------------------------------- */

/* Past one value at this level: to the `,` `;` or `}` that ends it (not consumed). False at the
 * end of the text or a bad token. */
static bool skip_value(struct lt_lex *x)
{
    int depth = 0;
    while (x->t != LT_TOK_EOF && x->t != LT_TOK_BAD) {
        if (depth == 0 && (lt_lex_is(x, LT_TOK_PUNCT, ",") || lt_lex_is(x, LT_TOK_PUNCT, ";") ||
                           lt_lex_is(x, LT_TOK_PUNCT, "}")))
            return true;
        depth += lt_lex_nest(x, NULL);
        if (depth < 0) return false;
        lt_lex_next(x);
    }
    return false;
}

int lt_lex_field_line(const char *src, size_t len, int line, const char *name, const char *path)
{
    struct lt_lex x;
    lt_lex_init(&x, src, len);
    while (x.t != LT_TOK_EOF && x.t != LT_TOK_BAD && x.tline < line) lt_lex_next(&x);
    /* the constructor's call on that line: `name {`, the table its `{` opens */
    while (x.t != LT_TOK_EOF && x.t != LT_TOK_BAD && x.tline == line &&
           !(name ? x.t == LT_TOK_NAME && lt_lex_is(&x, LT_TOK_NAME, name) && lt_lex_next_is(&x, LT_TOK_PUNCT, "{")
                  : lt_lex_is(&x, LT_TOK_PUNCT, "{")))
        lt_lex_next(&x);
    if (x.tline != line || x.t == LT_TOK_EOF || x.t == LT_TOK_BAD) return 0;
    if (name) lt_lex_next(&x); /* onto the { */
    const char *part = path;
    while (*part) {
        size_t pl = strcspn(part, ".");
        char *end;
        long want = strtol(part, &end, 10); /* a position, or 0: a key */
        if (end != part + pl) want = 0;
        if (!lt_lex_is(&x, LT_TOK_PUNCT, "{")) return 0;
        lt_lex_next(&x);
        long pos = 0;
        int found = 0;
        while (!lt_lex_is(&x, LT_TOK_PUNCT, "}")) {
            int kline = x.tline;
            bool match;
            if (x.t == LT_TOK_NAME && lt_lex_next_is(&x, LT_TOK_PUNCT, "=")) {
                match = !want && x.n == pl && !memcmp(x.p, part, pl);
                lt_lex_next(&x), lt_lex_next(&x);
            } else if (lt_lex_is(&x, LT_TOK_PUNCT, "[")) { /* [key] = value: a number key counts */
                lt_lex_next(&x);
                match = want && x.t == LT_TOK_NUMBER && strtol(x.p, NULL, 10) == want &&
                        lt_lex_next_is(&x, LT_TOK_PUNCT, "]");
                if (!skip_value(&x) && !lt_lex_is(&x, LT_TOK_PUNCT, "]")) return 0;
                while (!lt_lex_is(&x, LT_TOK_PUNCT, "]")) {
                    if (x.t == LT_TOK_EOF || x.t == LT_TOK_BAD) return 0;
                    lt_lex_next(&x);
                }
                lt_lex_next(&x);
                if (!lt_lex_is(&x, LT_TOK_PUNCT, "=")) return 0;
                lt_lex_next(&x);
            } else {
                match = want && ++pos == want;
                kline = x.tline;
            }
            if (match) {
                found = kline;
                break;
            }
            if (!skip_value(&x)) return 0;
            if (!lt_lex_is(&x, LT_TOK_PUNCT, "}")) lt_lex_next(&x);
        }
        if (!found) return 0;
        part += pl;
        if (!*part) return found;
        part++;
    }
    return 0;
}
