/* lt_ledger.c - see lt_ledger.h. */
#include "lt_ledger.h"

#include <stdio.h>
#include <string.h>

#include "gpu_buf.h"
#include "gpu_fmt.h"
#include "gpu_utf8.h"
#include "lt_say.h"

const char *lt_ledger_label(enum gpu_ledger_part p, const char *lang)
{
    return p < GPU_LEDGER_NPARTS ? lt_say_fmt((enum lt_say_id)(LT_SAY_LEDGER_OTHER_PROCS + p), lang)
                                 : "?";
}

_Static_assert(LT_SAY_LEDGER_FREE - LT_SAY_LEDGER_OTHER_PROCS == GPU_LEDGER_FREE,
               "one LEDGER_ row per gpu_ledger_part, in order");

static void row(struct gpu_buf *b, int indent, const char *label, uint64_t v, const char *src)
{
    /* pad by columns: a wide character (the Chinese labels) takes two */
    int cols = 0;
    for (size_t i = 0, n = strlen(label); i < n;) {
        unsigned cp;
        i += (size_t)gpu_utf8_decode(label + i, n - i, &cp);
        cols += gpu_utf8_wide(cp) ? 2 : 1;
    }
    gpu_buf_printf(b, "  %*s%s%*s %12.2f MiB %9.2f GiB  %s\n", indent, "", label,
        cols + indent < 40 ? 40 - cols - indent : 1, "", v / 1048576.0, v / 1073741824.0, src);
}

size_t lt_ledger_text(const struct gpu_ledger *l, const char *lang, char *buf, size_t n)
{
    struct gpu_buf b = GPU_BUF_FIXED(buf, n);
    if (n) buf[0] = 0;
#define S(id) lt_say_fmt(LT_SAY_##id, lang)
    const char *na = S(LEDGER_UNKNOWN), *model_none = S(LEDGER_MODEL_NONE);
    char title[256];
    lt_say(title, sizeof title, lang, LT_SAY_LEDGER_TITLE, l->device, l->backend,
           l->simulated ? S(LEDGER_SIMULATED) : "");
    gpu_buf_printf(&b, "%s\n", title);
    row(&b, 0, S(LEDGER_TOTAL), l->total, l->model ? S(LEDGER_MODEL_DEVICE) : "cudaMemGetInfo");
    for (int p = 0; p < GPU_LEDGER_NPARTS; p++) {
        const char *src = "";
        int ind = 2;
        switch (p) {
        case GPU_LEDGER_OTHER_PROCS:
            src = l->model ? model_none : l->simulated ? S(LEDGER_SIM_NONE) : l->nvml ? "NVML" : na;
            break;
        case GPU_LEDGER_CONTEXT:
            src = l->model ? model_none
                  : l->simulated ? S(LEDGER_SIM_PROFILE)
                  : l->has_self ? S(LEDGER_NVML_SELF)
                  : l->known[p] ? S(LEDGER_MEASURED) : na;
            break;
        case GPU_LEDGER_UNACCOUNTED: src = S(LEDGER_USED_LESS); break;
        case GPU_LEDGER_OTHER_ALLOCS: src = "gpu.alloc, alloc.raw"; break;
        case GPU_LEDGER_REQUESTED: ind = 6; src = "requested_bytes"; break;
        case GPU_LEDGER_ROUNDING: ind = 6; src = S(LEDGER_ALLOC_LESS_REQ); break;
        case GPU_LEDGER_CACHED: ind = 4; src = S(LEDGER_FRAGMENTATION); break;
        case GPU_LEDGER_FREE: src = l->model ? S(LEDGER_MODEL_DEVICE) : "cudaMemGetInfo"; break;
        }
        if (p >= GPU_LEDGER_REQUESTED && p <= GPU_LEDGER_CACHED && !l->has_allocator) {
            if (p == GPU_LEDGER_REQUESTED)
                row(&b, 2, S(LEDGER_ALLOCATOR), 0, S(LEDGER_NO_ALLOCATOR_HERE));
            continue;
        }
        if (p == GPU_LEDGER_REQUESTED) {
            row(&b, 2, S(LEDGER_RESERVED), l->reserved, "reserved_bytes");
            row(&b, 4, S(LEDGER_ALLOCATED), l->allocated, "allocated_bytes");
        }
        row(&b, ind, lt_ledger_label((enum gpu_ledger_part)p, lang), l->part[p], src);
        if (p == GPU_LEDGER_CACHED) {
            row(&b, 6, S(LEDGER_LARGEST_FREE), l->largest_free, "cacheInfo");
            row(&b, 6, S(LEDGER_NON_RELEASABLE), l->inactive_split, "inactive_split_bytes");
        }
    }
    if (!l->simulated) {
        char line[448];
        static const enum lt_say_id worth[] = {
            [GPU_LEDGER_NVML_NONE] = LT_SAY_LEDGER_NVML_NONE,
            [GPU_LEDGER_NVML_NOT_REAL] = LT_SAY_LEDGER_NVML_NOT_REAL,
            [GPU_LEDGER_NVML_PER_PROCESS] = LT_SAY_LEDGER_NVML_PER_PROCESS,
            [GPU_LEDGER_NVML_HIDDEN] = LT_SAY_LEDGER_NVML_HIDDEN,
            [GPU_LEDGER_NVML_NAMESPACE] = LT_SAY_LEDGER_NVML_NAMESPACE,
            [GPU_LEDGER_NVML_WHOLE_GPU] = LT_SAY_LEDGER_NVML_WHOLE_GPU,
        };
        char note[256];
        lt_say(note, sizeof note, lang, worth[l->nvml_state], l->nvml_note);
        gpu_buf_printf(&b, "%s\n", lt_say(line, sizeof line, lang, LT_SAY_LEDGER_NVML, note));
        if (l->driver_reserved) { /* nvidia-smi shows it apart from Used: so does the ledger */
            char rsv[48];
            gpu_fmt_bytes((double)l->driver_reserved, GPU_FMT_BIN, rsv, sizeof rsv);
            gpu_buf_printf(&b, "%s\n", lt_say(line, sizeof line, lang, LT_SAY_LEDGER_DRIVER_RESERVED, rsv));
        }
        for (int i = 0; i < l->nprocs; i++) {
            const struct gpu_nvml_proc *pr = &l->procs[i];
            char used[48] = "";
            if (pr->has_used) gpu_fmt_bytes((double)pr->used, GPU_FMT_BIN, used, sizeof used);
            gpu_buf_printf(&b, "  pid %-8u %c %-28.28s %14s%s\n", pr->pid, pr->graphics ? 'G' : 'C',
                pr->name[0] ? pr->name : "?", pr->has_used ? used : na,
                l->self[i] ? S(LEDGER_THIS_PROCESS) : "");
        }
    }
#undef S
    return b.len;
}
