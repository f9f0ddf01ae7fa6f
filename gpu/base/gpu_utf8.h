/* gpu_utf8.h - the one UTF-8 codec of every layer: decode, encode, step back, cut at a boundary
 * and validate. Display width (wcwidth, CJK) is the terminal's business and lives in tui_wrap.h;
 * this knows bytes and code points only. Pure: no allocation, no locale, no globals. Tested by
 * tests/unit/test_gpu_utf8.c against a reference walk over every 1..4-byte sequence class. */
#ifndef GPU_UTF8_H
#define GPU_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* flags: lone surrogates (U+D800..U+DFFF) are accepted and encoded as three bytes, as Python's
 * 'surrogatepass' writes them (pickle); without it they are invalid, as the standard says */
enum { GPU_UTF8_SURROGATES = 1 };

/* Strict: the length (1..4) of the sequence at s[0..n) (n >= 1) and its code point in *cp, or
 * 0 when it is not valid UTF-8 (cut by n, overlong, past U+10FFFF, a surrogate without the flag). */
int gpu_utf8_next(const char *s, size_t n, unsigned *cp, unsigned flags);
/* Lenient, for text on its way to a person: as gpu_utf8_next, but an invalid or cut sequence
 * takes 1 byte and decodes as U+FFFD, so a walk always moves on. */
int gpu_utf8_decode(const char *s, size_t n, unsigned *cp);
/* Where the sequence that ends at s[i] starts (an invalid byte is a sequence of its own, as
 * gpu_utf8_decode reads it). 0 when i is 0. */
size_t gpu_utf8_prev(const char *s, size_t i);
/* The largest n' <= n that does not split a sequence of s (s holds at least n bytes; s[n] is
 * read when it exists, so s must be NUL-terminated or longer than n): where to cut a copy. */
size_t gpu_utf8_cut(const char *s, size_t n);
/* True when s[0..n) is the start of a valid sequence that needs more bytes than n: a reader
 * of a stream waits for the rest instead of calling it invalid. */
bool gpu_utf8_partial(const char *s, size_t n);
/* Encode cp into out (4 bytes room); returns the length. Past U+10FFFF, or a surrogate without
 * GPU_UTF8_SURROGATES, becomes U+FFFD. */
int gpu_utf8_encode(unsigned cp, unsigned flags, char *out);
/* True when all of s[0..n) is valid UTF-8 under the flags. */
bool gpu_utf8_valid(const char *s, size_t n, unsigned flags);
/* East Asian Wide or Fullwidth by Unicode's ranges (CJK, kana, hangul, fullwidth forms): two
 * columns wherever the terminal's own table (wcwidth, in tui_wrap) is not at hand, and written
 * without spaces between words. */
bool gpu_utf8_wide(unsigned cp);
/* True when the text a[0..alen) ends and b[0..bn) starts with a wide character: two source lines
 * joined there take no space between them (Chinese has none between words). */
bool gpu_utf8_join_tight(const char *a, size_t alen, const char *b, size_t bn);

#endif
