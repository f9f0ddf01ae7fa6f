/* lt_header.h - what the catalog shows of a lesson (its id, chapter, titles and exercises), read
 * without running the file when the lesson is written in the plain form (lt_header.c), or taken
 * from a loaded lesson; `vramlab check` holds the two to be the same. */
#ifndef LT_HEADER_H
#define LT_HEADER_H

#include <stdbool.h>
#include <stddef.h>

#include "lt.h"

struct lt_header {
    char id[32];
    int chapter;
    int line;               /* the line of `lesson {` (1 when taken from a loaded lesson) */
    char *title[2];         /* [0] en, [1] zh; a draft's other language carries its marker */
    char *chapter_title[2];
    int nexercises;
    char **exercises;       /* the exercises' ids, in the lesson's order */
};

/* The header of a lesson file's text, read as tokens, nothing run: true when the file is in the
 * plain form (docs/lesson-format.md, "How the catalog reads a lesson"): `return lesson { ... }`
 * at the end, its id, chapter, titles and draft written as literals, each block a
 * text{}/experiment{}/exercise{} call with each exercise's id a literal, and none of those
 * names redefined. Otherwise false with why ("line 12: the title is not a literal"); the caller
 * then loads the lesson to know. A header that breaks lesson.lua's rules (an id that is not
 * "N.M", a chapter that does not match it, a missing language) is not plain either: the loader
 * says what is wrong. */
bool lt_header_scan(const char *src, size_t len, struct lt_header *h, char *why, size_t n);
/* The same figures from a loaded lesson (false: out of memory). */
bool lt_lesson_header(struct lt_lesson *ls, struct lt_header *h);
/* Are two headers the same? False with the first difference in what. */
bool lt_header_same(const struct lt_header *a, const struct lt_header *b, char *what, size_t n);
void lt_header_free(struct lt_header *h);

#endif
