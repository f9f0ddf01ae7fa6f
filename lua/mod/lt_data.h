/* lt_data.h - a data-only Lua file, read as tokens and never run: `return { ... }` of literals
 * only (strings, numbers, true/false, nested tables of fields and items), comments allowed. What
 * a teacher's course files are (course.lua, an exam): a file a class's vramlab reads must not run
 * anyone's code, and each value keeps its line, so that a mistake in it is said as
 * `file:line: what`. Pure: no Lua state (lt_lex.h underneath); unit-tested in test_lt_course.c
 * and fuzzed through fuzz_lesson. */
#ifndef LT_DATA_H
#define LT_DATA_H

#include <stdbool.h>
#include <stddef.h>

enum lt_data_kind { LT_DATA_STRING, LT_DATA_NUMBER, LT_DATA_BOOL, LT_DATA_TABLE };

struct lt_data {
    enum lt_data_kind kind;
    int line;              /* the line of the value; a field's: of its name */
    char *key;             /* a field's name; NULL for an item of a list */
    char *str;             /* LT_DATA_STRING */
    double num;            /* LT_DATA_NUMBER */
    bool b;                /* LT_DATA_BOOL */
    int n;                 /* LT_DATA_TABLE: its fields and items, in the file's order */
    struct lt_data *items;
};

/* Read src; false with "line N: what" in why (a value that is not a literal, a field given
 * twice, a string with escapes other than \\ \" \', nesting deeper than 16, more than 100000
 * values). */
bool lt_data_read(const char *src, size_t len, struct lt_data *out, char *why, size_t n);
/* The same for a file (a regular file of at most max bytes, through the safe reader): false with
 * "path:line: what". */
bool lt_data_read_file(const char *path, size_t max, struct lt_data *out, char *err, size_t n);
/* A table's field by name, or NULL. */
const struct lt_data *lt_data_field(const struct lt_data *t, const char *key);
/* The table's items (its values without a name): how many, the i-th (0-based) or NULL. */
int lt_data_nitems(const struct lt_data *t);
const struct lt_data *lt_data_item(const struct lt_data *t, int i);
/* A { en = "...", zh = "..." } value: its text in language l (0 en, 1 zh) or NULL. */
const char *lt_data_lang(const struct lt_data *v, int l);
void lt_data_free(struct lt_data *d);

#endif
