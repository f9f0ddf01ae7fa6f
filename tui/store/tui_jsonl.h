/* tui_jsonl.h - reading the flat JSON objects of a JSON-lines file (recordings; tui_json.h writes
 * them): one
 * object a line, values that are strings, numbers, true/false/null or arrays of strings. Enough
 * for what vramlab writes, strict about everything else. No ncurses: unit-tested and fuzzed. */
#ifndef TUI_JSONL_H
#define TUI_JSONL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TUI_JSON_MAXKEYS 48

enum tui_jtype { TUI_JSTR, TUI_JNUM, TUI_JBOOL, TUI_JNULL, TUI_JARR };

struct tui_jval {
    char *key;
    enum tui_jtype type;
    char *s;        /* TUI_JSTR */
    double num;     /* TUI_JNUM */
    bool b;         /* TUI_JBOOL */
    int nitems;     /* TUI_JARR: strings (numbers keep their text) */
    char **items;
};

struct tui_jobj {
    int n;
    struct tui_jval v[TUI_JSON_MAXKEYS];
};

/* Parse one line. False with err ("column N: what") when it is not such an object; o is then
 * empty (nothing to free). */
bool tui_jsonl_parse(const char *line, struct tui_jobj *o, char *err, size_t n);
void tui_jobj_free(struct tui_jobj *o);
const struct tui_jval *tui_jobj_get(const struct tui_jobj *o, const char *key);
const char *tui_jobj_str(const struct tui_jobj *o, const char *key, const char *def);
/* A number; null gives NaN (JSON has no NaN: writers put null). */
double tui_jobj_num(const struct tui_jobj *o, const char *key, double def);
/* A whole number in [lo, hi]: false when the key is missing, not a number, not integral or out
 * of range (so no cast of a recorded value is ever undefined). lo and hi within +-2^53. */
bool tui_jobj_int(const struct tui_jobj *o, const char *key, long long lo, long long hi,
                  long long *out);
bool tui_jobj_bool(const struct tui_jobj *o, const char *key, bool def);

#endif
