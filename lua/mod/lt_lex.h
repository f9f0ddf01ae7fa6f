/* lt_lex.h - Lua 5.4's tokens read from a text, nothing run: names, numbers, short and long
 * strings, comments, operators, each with its line. The one lexer of the readers that look at a
 * Lua file without running it: the catalog's header reader (lt_header.c), the line of a field in
 * a lesson's source for an error message (lt_lex_field_line), and the data-only files a teacher
 * writes (course.lua, an exam: lt_data.c). Pure: no Lua state; fuzzed through fuzz_lesson. */
#ifndef LT_LEX_H
#define LT_LEX_H

#include <stdbool.h>
#include <stddef.h>

enum lt_tok { LT_TOK_EOF, LT_TOK_NAME, LT_TOK_STRING, LT_TOK_NUMBER, LT_TOK_PUNCT, LT_TOK_BAD };

struct lt_lex {
    const char *s, *end; /* the cursor and the end of the text */
    int line;
    enum lt_tok t;       /* the current token: its kind, text and line */
    const char *p;
    size_t n;
    int tline;
    int level;           /* a string's long-bracket level; -1 for a quoted string */
};

/* Start at src (a #! first line skipped, as Lua does) and read the first token. */
void lt_lex_init(struct lt_lex *x, const char *src, size_t len);
/* Read the next token: LT_TOK_BAD for bytes Lua would not read (an unfinished string or long
 * comment, a stray byte), LT_TOK_EOF at the end. */
void lt_lex_next(struct lt_lex *x);
/* Is the current token of kind t with this text? */
bool lt_lex_is(const struct lt_lex *x, enum lt_tok t, const char *text);
/* Is the token after the current one? */
bool lt_lex_next_is(const struct lt_lex *x, enum lt_tok t, const char *text);
/* How the token changes the nesting: +1 for ( [ { and the words a block opens with (function,
 * do, if, repeat), -1 for ) ] } and end, until; 0 otherwise. open/close get the kind: ( [ { or
 * 'b' (closed by end) or 'r' (closed by until). */
int lt_lex_nest(const struct lt_lex *x, char *kind);
/* A string token's value when it is plain text: printable bytes (UTF-8 passes through), and of
 * the escapes only \\, \" and \'. NULL otherwise (or out of memory); malloc'ed. */
char *lt_lex_plain_string(const struct lt_lex *x);

/* The line of a field in a constructor's table: the first `{` that follows a call `NAME {` on
 * line `line` (or the first `{` on it when name is NULL), then `path`, dot-separated keys and
 * 1-based positions ("panels.2.unit", "hints.1.zh", "mistakes.1.say"). The line of the key (a
 * positional item: of its value). 0 when the text does not hold it as a literal table. */
int lt_lex_field_line(const char *src, size_t len, int line, const char *name, const char *path);

#endif
