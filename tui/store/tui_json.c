/* tui_json.c - see tui_json.h. */
#include "tui_json.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_json.h"
#include "gpu_utf8.h"

void tui_json_init(struct tui_json *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
}

void tui_json_init_ascii(struct tui_json *j, FILE *f)
{
    tui_json_init(j, f);
    j->ascii = true;
}

/* Before every value: the comma that separates it from the previous member. */
static void sep(struct tui_json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (!j->depth) return;
    if (j->used[j->depth - 1]) fputc(',', j->f);
    j->used[j->depth - 1] = true;
}

/* After every value: a top-level one ends its line. */
static void done(struct tui_json *j)
{
    if (!j->depth) fputc('\n', j->f);
}

static void open_level(struct tui_json *j, char c)
{
    sep(j);
    assert(j->depth < TUI_JSON_DEPTH);
    fputc(c, j->f);
    j->open[j->depth] = c;
    j->used[j->depth++] = false;
}

void tui_json_obj(struct tui_json *j) { open_level(j, '{'); }
void tui_json_arr(struct tui_json *j) { open_level(j, '['); }

void tui_json_end(struct tui_json *j)
{
    assert(j->depth > 0 && !j->after_key);
    fputc(j->open[--j->depth] == '{' ? '}' : ']', j->f);
    done(j);
}

static void put(void *ud, const char *p, size_t n) { fwrite(p, 1, n, ud); }

/* ASCII only, as Python's json.dumps(ensure_ascii=True): everything past U+007F is a \u escape
 * (a surrogate pair past U+FFFF). A lone surrogate stays one (as Python writes it), a byte that
 * is not UTF-8 is U+FFFD, and whatever the input, the output is ASCII, so it is valid. */
static void put_ascii(FILE *f, const unsigned char *s, size_t n)
{
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c < 0x80) {
            if (c == '"' || c == '\\') fprintf(f, "\\%c", (char)c);
            else if (c < 0x20 || c == 0x7f) fprintf(f, "\\u%04x", c);
            else fputc((int)c, f);
            i++;
            continue;
        }
        unsigned cp;
        int k = gpu_utf8_next((const char *)s + i, n - i, &cp, GPU_UTF8_SURROGATES);
        if (!k) k = 1, cp = 0xfffd; /* not UTF-8: one byte, shown as U+FFFD */
        i += (size_t)k;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            fprintf(f, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
        } else {
            fprintf(f, "\\u%04x", cp);
        }
    }
    fputc('"', f);
}

/* gpu_json_str's own quotes are the only one-byte '"' it writes (a quote inside is "\\\""):
 * dropping them lets pieces join inside one literal. */
static void put_inner(void *ud, const char *p, size_t n)
{
    if (!(n == 1 && *p == '"')) fwrite(p, 1, n, ud);
}

/* A string of n bytes: a NUL inside is written as \u0000 and the rest goes on. */
static void put_str(struct tui_json *j, const char *s, size_t n)
{
    if (j->ascii) {
        put_ascii(j->f, (const unsigned char *)s, n);
        return;
    }
    fputc('"', j->f);
    for (size_t i = 0; i <= n;) {
        size_t l = strnlen(s + i, n - i);
        char *piece = strndup(s + i, l);
        if (piece) gpu_json_str(piece, put_inner, j->f);
        else fputs("\\ufffd", j->f); /* out of memory: the text is lost, never the syntax */
        free(piece);
        i += l + 1;
        if (i <= n) fputs("\\u0000", j->f);
    }
    fputc('"', j->f);
}

void tui_json_key(struct tui_json *j, const char *key)
{
    assert(j->depth > 0 && j->open[j->depth - 1] == '{' && !j->after_key);
    sep(j);
    if (j->ascii) put_ascii(j->f, (const unsigned char *)key, strlen(key));
    else gpu_json_str(key, put, j->f);
    fputc(':', j->f);
    j->after_key = true;
}

void tui_json_strn(struct tui_json *j, const char *s, size_t n)
{
    sep(j);
    put_str(j, s, n);
    done(j);
}

void tui_json_str(struct tui_json *j, const char *s)
{
    sep(j);
    if (!s) fputs("null", j->f);
    else if (j->ascii) put_ascii(j->f, (const unsigned char *)s, strlen(s));
    else gpu_json_str(s, put, j->f);
    done(j);
}

static bool same(double a, double b) { return !memcmp(&a, &b, sizeof a); }

/* The shortest text that reads back as v (v finite); integral values up to 2^53 as integers. */
static void fmt_num(char *buf, size_t n, double v)
{
    double t = trunc(v);
    if (same(t, v) && fabs(v) < 9007199254740992.0) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    for (int p = 15; p <= 17; p++) {
        snprintf(buf, n, "%.*g", p, v);
        if (same(strtod(buf, NULL), v)) return;
    }
}

void tui_json_num(struct tui_json *j, double v)
{
    char buf[40];
    sep(j);
    if (!isfinite(v)) fputs("null", j->f);
    else fmt_num(buf, sizeof buf, v), fputs(buf, j->f);
    done(j);
}

void tui_json_real(struct tui_json *j, double v)
{
    char buf[40];
    sep(j);
    if (!isfinite(v)) fputs("null", j->f);
    else {
        fmt_num(buf, sizeof buf, v);
        fputs(buf, j->f);
        if (!strpbrk(buf, ".e")) fputs(".0", j->f);
    }
    done(j);
}

void tui_json_int(struct tui_json *j, long long v)
{
    sep(j);
    fprintf(j->f, "%lld", v);
    done(j);
}

void tui_json_uint(struct tui_json *j, unsigned long long v)
{
    sep(j);
    fprintf(j->f, "%llu", v);
    done(j);
}

void tui_json_bool(struct tui_json *j, bool v)
{
    sep(j);
    fputs(v ? "true" : "false", j->f);
    done(j);
}

void tui_json_null(struct tui_json *j)
{
    sep(j);
    fputs("null", j->f);
    done(j);
}

void tui_json_kstr(struct tui_json *j, const char *key, const char *s)
{
    tui_json_key(j, key);
    tui_json_str(j, s);
}

void tui_json_knum(struct tui_json *j, const char *key, double v)
{
    tui_json_key(j, key);
    tui_json_num(j, v);
}

void tui_json_kint(struct tui_json *j, const char *key, long long v)
{
    tui_json_key(j, key);
    tui_json_int(j, v);
}

void tui_json_kuint(struct tui_json *j, const char *key, unsigned long long v)
{
    tui_json_key(j, key);
    tui_json_uint(j, v);
}

void tui_json_kbool(struct tui_json *j, const char *key, bool v)
{
    tui_json_key(j, key);
    tui_json_bool(j, v);
}

void tui_json_knull(struct tui_json *j, const char *key)
{
    tui_json_key(j, key);
    tui_json_null(j);
}

void tui_json_kmaybe(struct tui_json *j, const char *key, double v, bool known)
{
    tui_json_key(j, key);
    if (known) tui_json_num(j, v);
    else tui_json_null(j);
}
