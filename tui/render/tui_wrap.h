/* tui_wrap.h - UTF-8 text measured by display width (wcwidth), wrapped and fitted to columns.
 * Pure: no ncurses. Every boundary it returns is a glyph boundary, so no caller can split a UTF-8
 * sequence or half a wide glyph. Needs a UTF-8 LC_CTYPE for wcwidth of non-ASCII characters; in
 * any other locale non-ASCII glyphs count as one column (tui_ascii_fold makes them ASCII first).
 * The bytes-to-code-points part is gpu_utf8.h's, which every layer shares. */
#ifndef TUI_WRAP_H
#define TUI_WRAP_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu_utf8.h" /* the codec: gpu_utf8_decode, _prev, _encode */

/* Columns a code point takes: 0 (combining, zero-width), 1 or 2. Controls and anything wcwidth
 * rejects count 1: they are drawn as '?'. */
int tui_cp_width(unsigned cp);
/* True when the code point is drawn as-is (tui_cp_width's 1 for it is its real width). */
bool tui_cp_printable(unsigned cp);
int tui_width(const char *s, size_t n);

/* One wrapped line: bytes [start, end) of the text, trailing blanks dropped. `hard` when a '\n'
 * (or the end of the text) ended it; `width` its display width, which is <= the wrap width except
 * for a single glyph wider than the whole width (a wide glyph at width 1). */
struct tui_wline {
    int start, end, width;
    bool hard;
};

/* Greedy wrap of s[0..n) to `width` columns (width < 1 counts as 1). '\n' breaks; blanks are
 * break points and are dropped at a soft break; a line may break before and after any wide
 * glyph (CJK), except before closing CJK punctuation; a word longer than the width is split at a
 * glyph boundary. Leading blanks of a hard line (indentation) are kept. Returns the number of
 * lines (>= 1) and a malloc'd array in *out, or -1 when out of memory. */
int tui_wrap(const char *s, size_t n, int width, struct tui_wline **out);

/* The widest run tui_wrap never breaks: a word, a number with its unit ("16.49 GiB"), a wide
 * glyph (a line may break beside any). A column this wide holds every such run whole. */
int tui_word_width(const char *s, size_t n);

/* The longest prefix of s[0..n) (in bytes) that fits `width` columns; *used gets its width. */
size_t tui_prefix_fit(const char *s, size_t n, int width, int *used);

enum tui_align { TUI_LEFT, TUI_RIGHT, TUI_CENTER };
/* Write s[0..n) into out (NUL-terminated, at most cap bytes) so that it takes exactly `width`
 * columns: padded with spaces, or cut at a glyph boundary with an ellipsis ("…", or "~" when
 * ascii) when it is too wide. Returns the bytes written. */
size_t tui_fit(const char *s, size_t n, int width, enum tui_align al, bool ascii, char *out,
               size_t cap);

/* Like tui_fit (left-aligned, padded), but a text too wide is cut at the last word boundary
 * (a blank, or a " · " separator) that leaves room for the ellipsis, so no word is cut in half;
 * a first word wider than everything is cut at a glyph boundary. */
size_t tui_fit_words(const char *s, int width, bool ascii, char *out, size_t cap);

/* The backend line without the word SIMULATED, which a screen's header strip shows once:
 * "SIMULATED · NVIDIA H100 80GB HBM3 profile (h100)" -> "NVIDIA H100 80GB HBM3 profile (h100)",
 * "REPLAY · NVIDIA GeForce RTX 3090 (SIMULATED) · 2026-12-03" -> "REPLAY · NVIDIA GeForce RTX
 * 3090 · 2026-12-03". */
void tui_backend_nosim(const char *full, char *out, size_t cap);
/* The short form of a backend line for a narrow status bar: "SIMULATED · NVIDIA GeForce RTX 3090
 * profile (rtx3090)" -> "SIM · rtx3090" (also its Chinese form), "CUDA device 0 · NVIDIA H100
 * 80GB HBM3" -> "CUDA 0 · H100 80GB HBM3"; anything else unchanged. */
void tui_backend_short(const char *full, char *out, size_t cap);

/* ASCII transliteration for non-UTF-8 terminals ("—" -> "--", "×" -> "x", "≥" -> ">=", CJK and
 * anything unknown -> "?"). Returns a malloc'd string (NULL when out of memory); with `map`, also a
 * malloc'd array giving, for each output byte, the input byte it came from. */
char *tui_ascii_fold(const char *s, size_t n, size_t *outlen, int **map);

#endif
