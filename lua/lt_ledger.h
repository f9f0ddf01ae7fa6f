/* lt_ledger.h - "where did my VRAM go" in the learner's language: the device layer fills a
 * struct gpu_ledger with numbers and sources (gpu_ledger.h), and this writes it as the table
 * `vramlab ledger` prints and alloc.ledger(...).text holds. Words from lt_say.h. Pure: no Lua
 * state. Tested by tests/unit/test_ledger.c and tests/cli/ledger.sh. */
#ifndef LT_LEDGER_H
#define LT_LEDGER_H

#include <stddef.h>

#include "gpu_ledger.h"

/* A part's label ("rounding waste", "取整浪费"); "?" for a part out of range. */
const char *lt_ledger_label(enum gpu_ledger_part p, const char *lang);
/* The table, every figure in MiB and GiB, into buf; like snprintf (returns the length the whole
 * text needs, so lt_ledger_text(l, lang, NULL, 0) + 1 sizes a buffer). */
size_t lt_ledger_text(const struct gpu_ledger *l, const char *lang, char *buf, size_t n);

#endif
