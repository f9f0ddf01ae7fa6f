/* gpu_pickle.h - a safe reader for the plain-data pickles PyTorch memory snapshots are made of
 * (pickle.dump of the torch.cuda.memory._snapshot() dictionary): dicts, lists, tuples, sets,
 * str, bytes, ints of any width, floats, bools and None, with protocols 0-5. Every opcode that
 * would import or call something (GLOBAL, REDUCE, BUILD, NEWOBJ, PERSID, ...) is refused by
 * name, so reading a snapshot never runs code. Values live in one arena owned by the document;
 * short strings are interned, so a dict key compares by pointer. No Python at run time. */
#ifndef GPU_PICKLE_H
#define GPU_PICKLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu.h"

enum gpu_pk_type {
    GPU_PK_NONE,
    GPU_PK_BOOL,
    GPU_PK_INT,    /* fits int64 */
    GPU_PK_BIGINT, /* does not fit int64 (gpu_pk_bytes: its digits or its two's complement) */
    GPU_PK_FLOAT,
    GPU_PK_STR,    /* UTF-8 (lone surrogates allowed, as Python's pickle writes them); may hold
                      NUL bytes, so use the length */
    GPU_PK_BYTES,  /* bytes and bytearray */
    GPU_PK_LIST,
    GPU_PK_TUPLE,
    GPU_PK_SET,    /* set and frozenset, in the order they were written */
    GPU_PK_DICT,   /* in insertion order; equal keys are kept, the last one wins a lookup */
};

/* A value inside a document: one 8-byte word (small ints and None/bool inline, the rest a
 * tagged pointer into the document's arena), read through the functions below. Pointers to
 * values stay valid until the document is freed. */
struct gpu_pk;

/* What a document may hold before it is refused with a clear message. Zero fields take the
 * defaults (GPU_PK_DEFAULT_*). */
struct gpu_pk_limits {
    uint64_t max_file;     /* bytes in the file */
    uint64_t max_objects;  /* values created (each opcode that pushes one counts) */
    uint32_t max_depth;    /* containers nested in containers, and open MARKs */
    uint64_t max_string;   /* bytes in one str or bytes value */
};
#define GPU_PK_DEFAULT_MAX_FILE (8ull << 30) /* the parser's own; files come through gpu_file */
#define GPU_PK_DEFAULT_MAX_OBJECTS (256ull << 20)
#define GPU_PK_DEFAULT_MAX_DEPTH 64u
#define GPU_PK_DEFAULT_MAX_STRING (256ull << 20)

struct gpu_pk_doc;

/* Parse buf[0..len). Errors read "offset N: what" (N: the byte offset of the opcode), e.g.
 * "offset 12: opcode GLOBAL is not allowed in a memory snapshot", "offset 40: truncated in
 * BINUNICODE". On failure *out is NULL. lim may be NULL (defaults). */
gpu_status gpu_pk_parse(const void *buf, size_t len, const struct gpu_pk_limits *lim,
                        struct gpu_pk_doc **out, char *err, size_t n);
/* The same, for a long read on a worker: every few thousand opcodes it looks at *cancel (NULL:
 * never cancelled; GPU_ERR_CANCELLED, "offset N: cancelled") and tells consumed(ud, upto) that
 * the bytes below upto will not be read again (NULL: nobody asks), so a mapped file's pages can
 * go as the parse passes them. */
struct gpu_pk_run {
    const struct gpu_pk_limits *lim;
    const gpu_cancel_flag *cancel;
    void (*consumed)(void *ud, size_t upto);
    void *ud;
};
gpu_status gpu_pk_parse_run(const void *buf, size_t len, const struct gpu_pk_run *run,
                            struct gpu_pk_doc **out, char *err, size_t n);
void gpu_pk_free(struct gpu_pk_doc *d);

const struct gpu_pk *gpu_pk_root(const struct gpu_pk_doc *d);
size_t gpu_pk_file_bytes(const struct gpu_pk_doc *d);  /* what was parsed */
int gpu_pk_protocol(const struct gpu_pk_doc *d);       /* from PROTO; 0 when absent */

enum gpu_pk_type gpu_pk_type(const struct gpu_pk *v);
const char *gpu_pk_type_name(const struct gpu_pk *v); /* Python's name: "dict", "int", ... */

/* Scalars: true (and the value) when v is of that type; bool is not an int, as in the JSON a
 * snapshot's reader expects. */
bool gpu_pk_int(const struct gpu_pk *v, int64_t *out);
bool gpu_pk_bool(const struct gpu_pk *v, bool *out);
bool gpu_pk_float(const struct gpu_pk *v, double *out);
/* STR: its bytes (NUL-terminated) and length, else NULL. Equal short strings share one copy
 * (see gpu_pk_intern), so a pointer comparison with an interned key is a string comparison. */
const char *gpu_pk_str(const struct gpu_pk *v, size_t *len);
/* BYTES, and BIGINT's raw form: the bytes and length, else NULL. */
const char *gpu_pk_bytes(const struct gpu_pk *v, size_t *len);
bool gpu_pk_is_str(const struct gpu_pk *v, const char *s); /* a str equal to s */

/* Containers: element count (pairs for a dict) and the i-th element (the i-th key for a dict;
 * gpu_pk_dict_value for its value). Out of range or not a container: 0 / NULL. */
size_t gpu_pk_len(const struct gpu_pk *v);
const struct gpu_pk *gpu_pk_at(const struct gpu_pk *v, size_t i);
const struct gpu_pk *gpu_pk_dict_value(const struct gpu_pk *v, size_t i);
/* The same container seen through two values (a memo reference) gives the same identity. */
const void *gpu_pk_identity(const struct gpu_pk *v);
/* The same for what a container holds: lists and tuples of 4 or more items that were equal
 * when they were nested share one item array (a snapshot's per-allocation frame lists repeat a
 * few thousand stacks a million times), so equal ones usually give the same id; a reader may
 * key its work by it. Not a container, or empty: gpu_pk_identity. */
const void *gpu_pk_items_id(const struct gpu_pk *v);

/* Dict lookup by text. Interned keys make it a pointer comparison: gpu_pk_intern gives the
 * document's copy of a string (NULL when no str with that text exists, so no dict has it as
 * a key), gpu_pk_get looks it up (the last of equal keys wins, as in Python). */
const char *gpu_pk_intern(const struct gpu_pk_doc *d, const char *s);
const struct gpu_pk *gpu_pk_get(const struct gpu_pk *dict, const char *interned);

#endif
