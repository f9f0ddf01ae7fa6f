/* tui_snapshot.h - `vramlab snapshot FILE [--json] [--top N] [--replay CONF] [--capacity SIZE]
 * [--device N] [--segments] [--collapsed [--at peak|end]]` and `vramlab snapshot diff A B`: a
 * PyTorch memory snapshot summarised (gpu_snap_summary.h), the what-if replay of its trace
 * through the caching-allocator model, its segments one by one, its stacks collapsed for a
 * flame graph, two snapshots compared (gpu_snap_diff.h). Headless; the command table (tui_cmd.c)
 * parses the options and hands their values over as given. */
#ifndef TUI_SNAPSHOT_H
#define TUI_SNAPSHOT_H

#include <stdbool.h>
#include <stdio.h>

struct tui_snapshot_args {
    const char *file, *other; /* other: B of `snapshot diff A B` (file is A) */
    bool json;
    const char *top, *conf, *capacity, *device, *at; /* as given; NULL: not given */
    bool collapsed, segments;
    bool zh; /* the text report in Chinese (JSON does not change) */
};

/* Exit codes as main's: 0 ok, 1 the file could not be read or is not a snapshot, 2 a bad
 * option value. */
int tui_snapshot_cmd(const struct tui_snapshot_args *a, FILE *out, FILE *errf);
/* `vramlab snapshot diff A B [--json] [--top N]`: the same codes. */
int tui_snapshot_diff_cmd(const struct tui_snapshot_args *a, FILE *out, FILE *errf);

#endif
