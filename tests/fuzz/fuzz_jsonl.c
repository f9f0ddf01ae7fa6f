/* fuzz_jsonl.c - libFuzzer target for the JSON-lines reader (tui_jsonl_parse), one line at a
 * time. Properties: a refusal says "column N:" for a column inside the line (or just past it)
 * and leaves the object empty; an accepted object is written back with the JSON writer
 * (tui_json.h) as exactly one line, and read again to the same keys, types, strings and numbers
 * (so what vramlab writes it reads); every string is valid UTF-8 once written; tui_jobj_int
 * never accepts a value outside its range or with a fraction. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_json.h"
#include "tui_jsonl.h"
#include "tui_wrap.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_jsonl: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);     \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

static void write_back(const struct tui_jobj *o, FILE *f)
{
    struct tui_json j;
    tui_json_init(&j, f);
    tui_json_obj(&j);
    for (int i = 0; i < o->n; i++) {
        const struct tui_jval *v = &o->v[i];
        tui_json_key(&j, v->key);
        switch (v->type) {
        case TUI_JSTR: tui_json_str(&j, v->s); break;
        case TUI_JNUM: tui_json_num(&j, v->num); break;
        case TUI_JBOOL: tui_json_bool(&j, v->b); break;
        case TUI_JNULL: tui_json_null(&j); break;
        case TUI_JARR:
            tui_json_arr(&j);
            for (int k = 0; k < v->nitems; k++) tui_json_str(&j, v->items[k]);
            tui_json_end(&j);
            break;
        }
    }
    tui_json_end(&j);
}

/* s as it reads back once written: bytes that are not UTF-8 become U+FFFD (malloc'ed) */
static char *fixed(const char *s)
{
    size_t n = strlen(s), k = 0;
    char *o = malloc(3 * n + 1);
    CHECK(o);
    for (size_t i = 0; i < n;) {
        unsigned cp;
        int l = gpu_utf8_decode(s + i, n - i, &cp);
        if (cp == 0xfffd && l == 1) memcpy(o + k, "\xef\xbf\xbd", 3), k += 3;
        else memcpy(o + k, s + i, (size_t)l), k += (size_t)l;
        i += (size_t)l;
    }
    o[k] = 0;
    return o;
}

static void same(const char *orig, const char *back)
{
    char *f = fixed(orig);
    CHECK(!strcmp(f, back));
    free(f);
}

static void one_line(const char *line)
{
    struct tui_jobj o, back;
    char err[256];
    if (!tui_jsonl_parse(line, &o, err, sizeof err)) {
        int col = 0;
        CHECK(sscanf(err, "column %d:", &col) == 1);
        CHECK(col >= 1 && (size_t)col <= strlen(line) + 1);
        CHECK(o.n == 0);
        return;
    }
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    CHECK(f);
    write_back(&o, f);
    fclose(f);
    CHECK(strlen(out) == len);
    CHECK(len && out[len - 1] == '\n' && strchr(out, '\n') == out + len - 1); /* one line */
    out[len - 1] = 0;
    if (!tui_jsonl_parse(out, &back, err, sizeof err)) {
        fprintf(stderr, "fuzz_jsonl: written back as '%s', not read again: %s\n", out, err);
        abort();
    }
    CHECK(back.n == o.n);
    for (int i = 0; i < o.n; i++) {
        const struct tui_jval *a = &o.v[i], *b = &back.v[i];
        same(a->key, b->key);
        CHECK(a->type == b->type);
        if (a->type == TUI_JNUM) CHECK(a->num == b->num);
        if (a->type == TUI_JSTR) same(a->s, b->s);
        if (a->type == TUI_JARR) {
            CHECK(a->nitems == b->nitems);
            for (int k = 0; k < a->nitems; k++) same(a->items[k], b->items[k]);
        }
        long long x;
        const struct tui_jval *first = tui_jobj_get(&o, a->key); /* a key may repeat */
        if (tui_jobj_int(&o, a->key, -1000000, 1000000, &x))
            CHECK(first->type == TUI_JNUM && x >= -1000000 && x <= 1000000 && (double)x == first->num);
    }
    tui_jobj_free(&back);
    tui_jobj_free(&o);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    CHECK(text);
    memcpy(text, data, size);
    text[size] = 0;
    for (char *line = text, *next; line < text + size; line = next) {
        next = line + strcspn(line, "\n");
        if (*next) *next++ = 0;
        else next = text + size;
        one_line(line);
    }
    free(text);
    return 0;
}
