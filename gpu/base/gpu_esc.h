/* gpu_esc.h - the one escaping function for text from files, lessons and the command line that
 * reaches a terminal or a message: a path, an id, a title, a label. Control characters (C0 with
 * \n, \r and \t, DEL, C1) and the bidi controls that reorder what is shown (U+061C, U+200E/F,
 * U+202A-U+202E, U+2066-U+2069) are written as \x0a / \u202e, bytes that are not UTF-8 as
 * U+FFFD, so a field stays one field on one line and a terminal shows it rather than acts on it.
 * Shared by every layer (gpu/ is the bottom one); it never allocates, so a label is escaped when
 * it is made and a thread that may not allocate (the watchdog) copies safe bytes. The plain
 * output filter (tui_plain.h) uses the same classification for whole streams, where \n and \t
 * separate lines. Unit-tested in test_gpu_esc.c; end to end in tests/cli/escape.sh. */
#ifndef GPU_ESC_H
#define GPU_ESC_H

#include <stdbool.h>
#include <stddef.h>

/* A code point a terminal acts on rather than shows (see above). */
bool gpu_esc_control(unsigned cp);
/* s escaped into out (always NUL-terminated); when it does not fit, cut at a character
 * boundary and ended with "…". Returns out. */
char *gpu_esc_field(char *out, size_t n, const char *s);
/* Whether s holds no control character (a name that needs no escaping), and, with utf8, is
 * valid UTF-8 too. */
bool gpu_esc_clean(const char *s, bool utf8);

#endif
