/* tui_jsonl.c - see tui_jsonl.h. A recursive-descent reader over one line; every string it
 * returns is a fresh NUL-terminated UTF-8 copy (\u escapes, surrogate pairs included). */
#include "tui_jsonl.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_float.h"
#include "gpu_utf8.h"

struct rd {
    const char *p, *start;
    char *err;
    size_t n;
    bool failed;
};

static bool bad(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool bad(struct rd *r, const char *fmt, ...)
{
    if (r->failed) return false;
    r->failed = true;
    int k = snprintf(r->err, r->n, "column %d: ", (int)(r->p - r->start) + 1);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < r->n) vsnprintf(r->err + k, r->n - (size_t)k, fmt, ap);
    va_end(ap);
    return false;
}

static void ws(struct rd *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n') r->p++;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else return -1;
    }
    return v;
}

/* At the opening quote. */
static char *string(struct rd *r)
{
    const char *s = ++r->p;
    size_t cap = 0;
    while (*s && *s != '"') s += (*s == '\\' && s[1]) ? 2 : 1, cap++;
    if (*s != '"') return bad(r, "unterminated string"), NULL;
    /* every unit counted above yields at most one byte: \uXXXX (5 units) 3 bytes, a surrogate
     * pair (10) 4; so the copy is never longer than the source */
    char *out = malloc(cap + 1), *o = out;
    if (!out) return bad(r, "out of memory"), NULL;
    while (*r->p != '"') {
        unsigned char c = (unsigned char)*r->p;
        if (c < 0x20) {
            free(out);
            return bad(r, "control character in a string"), NULL;
        }
        if (c != '\\') {
            *o++ = (char)c, r->p++;
            continue;
        }
        char e = r->p[1];
        r->p += 2;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            int u = hex4(r->p);
            if (u < 0) goto bad_escape;
            r->p += 4;
            unsigned cp = (unsigned)u;
            if (cp >= 0xd800 && cp < 0xdc00) { /* a surrogate pair */
                int lo = r->p[0] == '\\' && r->p[1] == 'u' ? hex4(r->p + 2) : -1;
                if (lo < 0xdc00 || lo > 0xdfff) goto bad_escape;
                r->p += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + ((unsigned)lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp < 0xe000) {
                goto bad_escape;
            }
            if (cp == 0) cp = 0xfffd; /* strings are C strings here */
            o += gpu_utf8_encode(cp, 0, o);
            break;
        }
        default: goto bad_escape;
        }
    }
    r->p++;
    *o = 0;
    return out;
bad_escape:
    free(out);
    return bad(r, "bad escape in a string"), NULL;
}

static bool number(struct rd *r, double *v, char **text)
{
    const char *s = r->p;
    if (*r->p == '-') r->p++;
    if (!(*r->p >= '0' && *r->p <= '9')) return bad(r, "a value was expected");
    while ((*r->p >= '0' && *r->p <= '9') || *r->p == '.' || *r->p == 'e' || *r->p == 'E' ||
           *r->p == '+' || *r->p == '-')
        r->p++;
    char buf[64];
    size_t l = (size_t)(r->p - s);
    if (l >= sizeof buf) return bad(r, "number too long");
    memcpy(buf, s, l);
    buf[l] = 0;
    char *end;
    errno = 0;
    *v = strtod(buf, &end);
    if (*end) return bad(r, "bad number '%s'", buf);
    if (errno == ERANGE && isinf(*v)) return bad(r, "number out of range '%s'", buf);
    if (text && !(*text = strdup(buf))) return bad(r, "out of memory");
    return true;
}

static bool word(struct rd *r, const char *w)
{
    size_t l = strlen(w);
    if (strncmp(r->p, w, l)) return false;
    r->p += l;
    return true;
}

static bool array(struct rd *r, struct tui_jval *v)
{
    r->p++;
    ws(r);
    if (*r->p == ']') {
        r->p++;
        return true;
    }
    for (;;) {
        ws(r);
        char *item = NULL;
        double num;
        if (*r->p == '"') item = string(r);
        else if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9')) number(r, &num, &item);
        else if (word(r, "null")) item = strdup("");
        else return bad(r, "arrays hold strings or numbers only");
        if (!item) return bad(r, "out of memory");
        if (v->nitems >= 4096) {
            free(item);
            return bad(r, "array too long");
        }
        char **ni = realloc(v->items, (size_t)(v->nitems + 1) * sizeof *ni);
        if (!ni) {
            free(item);
            return bad(r, "out of memory");
        }
        v->items = ni;
        v->items[v->nitems++] = item;
        ws(r);
        if (*r->p == ',') {
            r->p++;
            continue;
        }
        if (*r->p == ']') {
            r->p++;
            return true;
        }
        return bad(r, "',' or ']' expected");
    }
}

static bool value(struct rd *r, struct tui_jval *v)
{
    ws(r);
    switch (*r->p) {
    case '"': v->type = TUI_JSTR; return (v->s = string(r)) != NULL;
    case '[': v->type = TUI_JARR; return array(r, v);
    case '{': return bad(r, "nested objects are not supported");
    case 't': v->type = TUI_JBOOL, v->b = true; return word(r, "true") || bad(r, "bad literal");
    case 'f': v->type = TUI_JBOOL, v->b = false; return word(r, "false") || bad(r, "bad literal");
    case 'n': v->type = TUI_JNULL; return word(r, "null") || bad(r, "bad literal");
    default: v->type = TUI_JNUM; return number(r, &v->num, NULL);
    }
}

void tui_jobj_free(struct tui_jobj *o)
{
    for (int i = 0; i < o->n; i++) {
        struct tui_jval *v = &o->v[i];
        free(v->key), free(v->s);
        for (int k = 0; k < v->nitems; k++) free(v->items[k]);
        free(v->items);
    }
    memset(o, 0, sizeof *o);
}

bool tui_jsonl_parse(const char *line, struct tui_jobj *o, char *err, size_t n)
{
    struct rd r = {line, line, err, n, false};
    memset(o, 0, sizeof *o);
    ws(&r);
    if (*r.p != '{') return bad(&r, "'{' expected"), false;
    r.p++;
    ws(&r);
    if (*r.p == '}') r.p++;
    else
        for (;;) {
            ws(&r);
            if (*r.p != '"') {
                bad(&r, "a key was expected");
                break;
            }
            if (o->n == TUI_JSON_MAXKEYS) {
                bad(&r, "more than %d keys", TUI_JSON_MAXKEYS);
                break;
            }
            struct tui_jval *v = &o->v[o->n++];
            memset(v, 0, sizeof *v);
            if (!(v->key = string(&r))) break;
            ws(&r);
            if (*r.p != ':') {
                bad(&r, "':' expected");
                break;
            }
            r.p++;
            if (!value(&r, v)) break;
            ws(&r);
            if (*r.p == ',') {
                r.p++;
                continue;
            }
            if (*r.p == '}') {
                r.p++;
                break;
            }
            bad(&r, "',' or '}' expected");
            break;
        }
    if (!r.failed) {
        ws(&r);
        if (*r.p) bad(&r, "text after the object");
    }
    if (r.failed) {
        tui_jobj_free(o);
        return false;
    }
    return true;
}

const struct tui_jval *tui_jobj_get(const struct tui_jobj *o, const char *key)
{
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->v[i].key, key)) return &o->v[i];
    return NULL;
}

const char *tui_jobj_str(const struct tui_jobj *o, const char *key, const char *def)
{
    const struct tui_jval *v = tui_jobj_get(o, key);
    return v && v->type == TUI_JSTR ? v->s : def;
}

double tui_jobj_num(const struct tui_jobj *o, const char *key, double def)
{
    const struct tui_jval *v = tui_jobj_get(o, key);
    if (v && v->type == TUI_JNULL) return NAN;
    return v && v->type == TUI_JNUM ? v->num : def;
}

bool tui_jobj_int(const struct tui_jobj *o, const char *key, long long lo, long long hi,
                  long long *out)
{
    const struct tui_jval *v = tui_jobj_get(o, key);
    /* compared as doubles first: only then is the conversion defined */
    if (!v || v->type != TUI_JNUM || !(v->num >= (double)lo && v->num <= (double)hi) ||
        !gpu_feq(v->num, floor(v->num)))
        return false;
    *out = (long long)v->num;
    return true;
}

bool tui_jobj_bool(const struct tui_jobj *o, const char *key, bool def)
{
    const struct tui_jval *v = tui_jobj_get(o, key);
    return v && v->type == TUI_JBOOL ? v->b : def;
}
