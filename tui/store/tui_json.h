/* tui_json.h - the one JSON writer: every JSON vramlab writes (each --json output, recordings,
 * the snapshot summary) goes through it, so what it guarantees holds everywhere:
 *   - strings are valid UTF-8 whatever bytes they came from (gpu_json_str: control and bidi
 *     characters as \u escapes, bytes that are not UTF-8 as \ufffd), or pure ASCII in the
 *     ascii mode (every other character as a \u escape, as Python's json.dumps writes them);
 *   - numbers are finite (NaN and infinities are written as null, JSON has neither), integral
 *     values print as integers, others as the shortest text that reads back to the same double;
 *   - commas, colons and nesting are the writer's business, not the caller's;
 *   - a top-level value ends with a newline (one object a line: JSON lines).
 * No ncurses, no printing of its own: it writes to the FILE it is given. */
#ifndef TUI_JSON_H
#define TUI_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TUI_JSON_DEPTH 16

struct tui_json {
    FILE *f;
    bool ascii;                      /* strings in pure ASCII */
    bool after_key;                  /* a key was written: the value follows without a comma */
    int depth;
    char open[TUI_JSON_DEPTH];       /* '{' or '[' per level */
    bool used[TUI_JSON_DEPTH];       /* the level has a member: the next one needs a comma */
};

void tui_json_init(struct tui_json *j, FILE *f);
void tui_json_init_ascii(struct tui_json *j, FILE *f);

void tui_json_obj(struct tui_json *j); /* { */
void tui_json_arr(struct tui_json *j); /* [ */
void tui_json_end(struct tui_json *j); /* } or ], whichever is open */

void tui_json_key(struct tui_json *j, const char *key);
void tui_json_str(struct tui_json *j, const char *s);            /* NULL: null */
void tui_json_strn(struct tui_json *j, const char *s, size_t n); /* n bytes, NULs included */
void tui_json_num(struct tui_json *j, double v);
void tui_json_real(struct tui_json *j, double v); /* as num, but a float stays a float: 0.0 */
void tui_json_int(struct tui_json *j, long long v);
void tui_json_uint(struct tui_json *j, unsigned long long v);
void tui_json_bool(struct tui_json *j, bool v);
void tui_json_null(struct tui_json *j);

/* key and value in one call */
void tui_json_kstr(struct tui_json *j, const char *key, const char *s);
void tui_json_knum(struct tui_json *j, const char *key, double v);
void tui_json_kint(struct tui_json *j, const char *key, long long v);
void tui_json_kuint(struct tui_json *j, const char *key, unsigned long long v);
void tui_json_kbool(struct tui_json *j, const char *key, bool v);
void tui_json_knull(struct tui_json *j, const char *key);
/* a number that may be unknown: null when !known */
void tui_json_kmaybe(struct tui_json *j, const char *key, double v, bool known);

#endif
