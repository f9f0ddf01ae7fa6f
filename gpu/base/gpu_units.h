/* gpu_units.h - the one reading of quantities that vramlab takes from people: a learner's
 * answer, a lesson's sizes, a command-line option, an environment variable, a trace file. One
 * table of units serves them all (lessons reach it as units.read and units.parse, the command
 * line through gpu_parse_size), so a unit means the same thing everywhere.
 *
 * Numbers as engineers write them: 1024, 1,024 (a comma groups thousands), 0.85, .5, 1.5e9,
 * 1.5x10^9, full-width digits and signs (１２, from a Chinese input method), a minus sign (U+2212).
 * Units as engineers write them, where case matters only when it changes the meaning:
 * - B is a byte, b a bit: GB, GByte, gigabytes are bytes; Gb, Gbit, gigabits are bits. KB, MB,
 *   GB, TB, PB count in powers of 1000 (k or K); KiB, MiB, GiB, TiB, PiB in powers of 1024.
 * - a rate is a size per second: GB/s, GiB/s, GByte/s, GBps (bytes); Gb/s, Gbit/s, Gbps (bits).
 *   "bps" is bits per second in any case (kbps, Gbps, gbps).
 * - times: ns, us (µs, μs), ms, s, min, h, d (and 纳秒, 微秒, 毫秒, 秒, 分钟, 小时, 天).
 * - counts: none, % (a percentage: 85 % is 0.85), x or × (times, 倍).
 * Text that can be read two ways is not guessed: a unit with a b and no capital ("gb/s", "mb",
 * "kib") could be bits or bytes; a bare prefix ("24G") could be GB or GiB; a comma that does not
 * group thousands ("1,5") could be a decimal comma. The reader says so (GPU_QR_AMBIGUOUS) and
 * names the two readings, and the caller asks.
 * Pure: no allocation, no state, no second language (the caller words its messages).
 * Tested by tests/unit/test_gpu_units.c (every unit the course uses) and fuzzed by
 * tests/fuzz/fuzz_units.c. */
#ifndef GPU_UNITS_H
#define GPU_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gpu_qkind {
    GPU_QK_COUNT, /* a plain number, a percentage or a factor */
    GPU_QK_SIZE,  /* bytes */
    GPU_QK_RATE,  /* bytes per second */
    GPU_QK_TIME,  /* seconds */
};

enum gpu_qread {
    GPU_QR_OK,        /* a number and a unit of the table, or no unit */
    GPU_QR_WORD,      /* a number and a word that is no unit of the table ("12 tok/s"): q->word */
    GPU_QR_AMBIGUOUS, /* text that reads two ways: q->amb says how, q->alt names both */
    GPU_QR_BAD,       /* no number, or more text than a quantity */
};

enum gpu_qamb {
    GPU_QA_NONE,
    GPU_QA_BITS,   /* "gb/s": GB/s (bytes) or Gb/s (bits) */
    GPU_QA_PREFIX, /* "24G": GB (10^9) or GiB (2^30) */
    GPU_QA_COMMA,  /* "1,5": 1.5 (a decimal comma) or 15 */
};

#define GPU_QF_BITS 1u    /* the unit counts bits (Gb, Gbit/s, Gbps) */
#define GPU_QF_DEC 2u     /* a decimal prefix: k, M, G, T, P (powers of 1000) */
#define GPU_QF_BIN 4u     /* a binary prefix: Ki, Mi, Gi, Ti, Pi (powers of 1024) */
#define GPU_QF_PERCENT 8u /* % */
#define GPU_QF_TIMES 16u  /* x, ×, times, 倍 */
#define GPU_QF_EXACT 32u  /* q->exact holds the size as a whole number of bytes, exactly */

struct gpu_qty {
    double value;  /* in bytes, bytes per second, seconds, or the count (85 % is 0.85) */
    double number; /* the number as written, before its unit */
    enum gpu_qkind kind;
    unsigned flags;   /* GPU_QF_* */
    int power;        /* the prefix: 0 none, 1 k or Ki, 2 M or Mi, ... 5 P or Pi */
    uint64_t exact;   /* GPU_QF_EXACT: the size in bytes, computed without rounding */
    char unit[16];    /* the unit in the course's spelling: "GB/s", "Gb/s", "GiB", "%", "ms" */
    char word[48];    /* GPU_QR_WORD: the word after the number, trimmed (UTF-8) */
    enum gpu_qamb amb;
    char alt[2][24];  /* GPU_QR_AMBIGUOUS: the two readings as they would be written ("GB/s",
                         "Gb/s"; "GB", "GiB"; "1.5", "15") */
};

/* Read s (len bytes; it need not be terminated) into q. Blanks around the number and the unit
 * are skipped; nothing else may follow the unit. */
enum gpu_qread gpu_qty_read(const char *s, size_t len, struct gpu_qty *q);

/* One English line for a reading that is not GPU_QR_OK or is not of the wanted kind, quoting s:
 * "'80gb': bits or bytes? Write 80GB for gigabytes or 80Gb for gigabits (B is a byte, b a bit)".
 * For the command line and the Lua API's errors; the tutor words its own in both languages. */
void gpu_qty_explain(const char *s, size_t len, enum gpu_qread r, const struct gpu_qty *q,
                     char *buf, size_t n);

/* The names of enum gpu_qkind and enum gpu_qamb: "count", "size", "rate", "time"; "none",
 * "bits", "prefix", "comma". */
const char *gpu_qkind_name(enum gpu_qkind k);
const char *gpu_qamb_name(enum gpu_qamb a);

#endif
