/* tui_snapshot.h - `vramlab snapshot FILE [--json] [--device N] [--top N] [--replay CONF]
 * [--capacity SIZE]`: a PyTorch memory snapshot summarised (gpu_snapshot.h), and the what-if
 * replay of its trace through the caching-allocator model. Headless; one self-contained
 * handler with its own options, so a table of subcommands can call it as it is. */
#ifndef TUI_SNAPSHOT_H
#define TUI_SNAPSHOT_H

#include <stdbool.h>
#include <stdio.h>

/* args: what follows "snapshot" on the command line. Exit codes as main's: 0 ok, 1 the file
 * could not be read or is not a snapshot, 2 usage. */
int tui_snapshot_cmd(int argc, char **argv, bool json, FILE *out, FILE *errf);

#endif
