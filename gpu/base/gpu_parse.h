/* gpu_parse.h - the one strict reading of numbers and sizes that vramlab takes from the command
 * line, the environment and files (shared by every layer: gpu/ is the bottom one). The whole
 * text must be the number: no leading blanks, no trailing text ("0.9abc"), no hex, inf or nan.
 * Out of range is an error that states the range, never a silent clamp. err gets a message
 * without the name of what was read: "'0.9abc' is not a number", "2 is out of range [0.01, 1]";
 * the caller says what it was ("--cap: ..."). */
#ifndef GPU_PARSE_H
#define GPU_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A whole decimal number in [lo, hi]. */
bool gpu_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t n);
/* A decimal number (digits, '.', an exponent; an optional sign) in [lo, hi]. */
bool gpu_parse_double(const char *s, double lo, double hi, double *out, char *err, size_t n);
/* Bytes, in [lo, hi]: a size in the one grammar of gpu_units.h ("80GiB", "1.5 GB", "1,024",
 * "1073741824", "8Gb" = 1 GB) that comes to a whole number of bytes. Text that reads two ways
 * ("80gb": bits or bytes?) is refused with the question. */
bool gpu_parse_size(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t n);

#endif
