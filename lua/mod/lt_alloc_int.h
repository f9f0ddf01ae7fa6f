/* lt_alloc_int.h - what the files of the `alloc` module share (not for tui/): options, the
 * statistics table, sizes given as numbers or unit strings. */
#ifndef LT_ALLOC_INT_H
#define LT_ALLOC_INT_H

#include "lt_int.h"

#include "gpu_caching.h"
#include "gpu_model_dev.h"
#include "gpu_trace.h"

/* t.k = v on the table at the stack top */
void lt_seti(lua_State *L, const char *k, uint64_t v);
void lt_setn(lua_State *L, const char *k, double v);
/* The caching allocator's options from the table at index t (nil: the defaults); a bad or
 * unknown option raises. */
void lt_alloc_read_opts(lua_State *L, int t, struct gpu_caching_opts *o, const char *fn);
/* The options as PYTORCH_CUDA_ALLOC_CONF text ("max_split_size_mb:128,expandable_segments:True"). */
void lt_alloc_conf_text(const struct gpu_caching_opts *o, char *buf, size_t n);
/* t.capacity (bytes or "80GiB") between 2 MiB and 4 TiB, else def. */
uint64_t lt_alloc_opt_capacity(lua_State *L, int t, uint64_t def);
/* A size argument: a positive integer of bytes, or a string units.parse reads. */
uint64_t lt_alloc_bytes_arg(lua_State *L, int i);
/* memory_stats()-shaped table: pool p's figures as fields */
void lt_alloc_push_pool(lua_State *L, const struct gpu_caching_stats *s, int p);
/* The whole statistics table (all pools, "small", "large", the counters) onto the stack. */
void lt_alloc_push_stats(lua_State *L, const struct gpu_caching_stats *s);

/* Module functions (lt_alloc_trace.c) */
int lt_alloc_trace_replay(lua_State *L);
int lt_alloc_format_size(lua_State *L);
int lt_alloc_round_size(lua_State *L);
/* alloc.snapshot: a PyTorch memory snapshot from the shipped folders (lt_snapshot.c) */
int lt_alloc_snapshot(lua_State *L);

#endif
