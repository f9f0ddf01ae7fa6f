/* gpu_fmt.h - the one way vramlab writes a number for a person to read (panels, feedback, plain
 * output, results): no exponents ("16,384", not "1.638e+04"), no ".0" on whole values ("400
 * calls"), about three significant digits otherwise, and decimal byte units scaled to the value
 * ("780 KB", not "7.80e-04 GB"). Machine formats (JSON, CSV, records) keep %.17g instead. */
#ifndef GPU_FMT_H
#define GPU_FMT_H

#include <stddef.h>
#include <stdint.h>

/* v as text: "n/a" when not finite; whole values and values of 1000 or more rounded, from
 * 10,000 on with a comma every three digits ("16,384"; "4800" stays); 100..999 one decimal; 1..99 two; below 1 three
 * significant digits ("0.00123"); below 1e-9 as "%.2e", the one case an exponent is clearer. */
void gpu_fmt_num(double v, char *buf, size_t n);
/* v with its unit. The caller's unit stays (a lesson may ask for an answer in it) unless the
 * number would need leading zeros or an exponent: a byte unit (B, KB .. PB or B, KiB .. PiB, with
 * or without "/s") below 1 moves down ("7.8e-4 GB" -> "780 KB"), one of a million or more moves
 * up; any other unit is kept ("400 calls"). An empty or NULL unit gives the number alone. */
void gpu_fmt_qty(double v, const char *unit, char *buf, size_t n);
/* A byte count or rate, scaled to the unit that leaves it below 1024 (GPU_FMT_BIN: B, KiB, MiB,
 * GiB, TiB, PiB, as capacity and allocations are counted) or 1000 (GPU_FMT_DEC: B, KB .. PB, as
 * vendors and bandwidths count), the number as gpu_fmt_num writes it: "512 B", "1.50 GiB",
 * "14.75 GiB", "16 GiB", "512 MiB", "936 GB/s". GPU_FMT_RATE appends "/s"; GPU_FMT_DIGITS(d) fixes the
 * decimals of a scaled value instead (a lesson's units.bytes(n, d)); GPU_FMT_TICK writes an axis
 * label: no space, one-letter units, no decimals on whole values ("4K", "1.5M", "256M", "1G").
 * Whole bytes stay whole; "n/a" when v is not finite. This is units.bytes/si/rate in Lua. */
enum {
    GPU_FMT_BIN = 0,
    GPU_FMT_DEC = 1 << 0,
    GPU_FMT_RATE = 1 << 1,
    GPU_FMT_TICK = 1 << 2,
};
#define GPU_FMT_DIGITS(d) ((unsigned)((d) + 1) << 8) /* d: 0..9 */
void gpu_fmt_bytes(double v, unsigned flags, char *buf, size_t n);
/* A byte count stated exactly, in the largest binary unit that divides it (a limit in an error
 * message): "2 MiB", "4 TiB", "1000 B", "1536 B", "18446744073709551615 B"; at most PiB. */
void gpu_fmt_bytes_exact(uint64_t v, char *buf, size_t n);
/* A short axis tick: 950, 10K, 100K, 1M, 2.5M, 10G (powers of 1000; no unit). */
void gpu_fmt_tick(double v, char *buf, size_t n);

#endif
