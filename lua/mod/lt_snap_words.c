/* lt_snap_words.c - see lt_snap_words.h. The sentences are rows of lt_say (SNAP_*, in the order
 * of GPU_SNAP_FINDINGS); here each finding's numbers are written for them: B bytes, N a count,
 * X the real number x, one letter per v[i] the row takes. */
#include "lt_snap_words.h"

#include <stdio.h>
#include <string.h>

#include "lt_say.h"

_Static_assert(LT_SAY_SNAP_DIFF_NON_RELEASABLE - LT_SAY_SNAP_NOTE_NO_SETTINGS + 1 ==
                   GPU_SNAP_NFINDING_KINDS,
               "one SNAP_ row of lt_say per finding kind, in order");

static const char *const args[GPU_SNAP_NFINDING_KINDS] = {
    [GPU_SNAP_NOTE_ROUNDUP_INTERVALS] = "N", [GPU_SNAP_NOTE_GC_THRESHOLD] = "X",
    [GPU_SNAP_NOTE_PRE_TRACE] = "NBNB",      [GPU_SNAP_NOTE_STREAMS] = "N",
    [GPU_SNAP_NOTE_EMPTY_CACHE] = "N",       [GPU_SNAP_NOTE_PRIVATE_POOLS] = "N",
    [GPU_SNAP_NOTE_PRE_TRACE_UNPLACED] = "N", [GPU_SNAP_DIFF_OOM] = "BNNN",
    [GPU_SNAP_DIFF_PEAK_RESERVED] = "BB",    [GPU_SNAP_DIFF_DEVICE_CALLS] = "NNNN",
    [GPU_SNAP_DIFF_END_SEGMENTS] = "NBNB",   [GPU_SNAP_DIFF_END_SIZES] = "NB",
    [GPU_SNAP_DIFF_NON_RELEASABLE] = "BB",
};

const char *lt_snap_finding_text(const struct gpu_snap_finding *f, bool zh, char *buf, size_t n)
{
    if (!n) return buf;
    if (f->kind >= GPU_SNAP_NFINDING_KINDS) {
        snprintf(buf, n, "?");
        return buf;
    }
    char v[4][64];
    const char *a = args[f->kind] ? args[f->kind] : "";
    for (int i = 0; i < 4; i++) {
        char kind = (size_t)i < strlen(a) ? a[i] : 'N';
        if (kind == 'B') {
            char h[32];
            gpu_cache_format_size(f->v[i], h, sizeof h);
            snprintf(v[i], sizeof v[i], "%s (%llu B)", h, (unsigned long long)f->v[i]);
        } else if (kind == 'X') {
            snprintf(v[i], sizeof v[i], "%g", f->x);
        } else {
            snprintf(v[i], sizeof v[i], "%llu", (unsigned long long)f->v[i]);
        }
    }
    return lt_say(buf, n, zh ? "zh" : "en", (enum lt_say_id)(LT_SAY_SNAP_NOTE_NO_SETTINGS + f->kind),
                  v[0], v[1], v[2], v[3]);
}
