/* snap_pickle.h - a pickle writer for the snapshot tests: protocol-4 opcodes byte by byte (no
 * Python needed), and the pieces of a memory snapshot (frames, blocks, trace entries) in the
 * shape torch/csrc/cuda/memory_snapshot.cpp writes them. Static functions: each test file that
 * includes it gets its own copy. */
#ifndef SNAP_PICKLE_H
#define SNAP_PICKLE_H

#include <stdint.h>
#include <string.h>

#define MiB (1ull << 20)

/* ---- a pickle writer for the tests ------------------------------------------------------ */

struct pb {
    unsigned char b[1 << 16];
    size_t n;
};

static inline void raw(struct pb *p, const void *s, size_t n)
{
    assert_true(p->n + n <= sizeof p->b);
    memcpy(p->b + p->n, s, n);
    p->n += n;
}
static inline void op(struct pb *p, int c) { p->b[p->n++] = (unsigned char)c; }
static inline void ops(struct pb *p, const char *s) { raw(p, s, strlen(s)); }

static inline void le_n(struct pb *p, uint64_t v, int k)
{
    for (int i = 0; i < k; i++) op(p, i < 8 ? (int)((v >> (8 * i)) & 0xff) : 0);
}

static inline void str(struct pb *p, const char *s) /* SHORT_BINUNICODE or BINUNICODE */
{
    size_t n = strlen(s);
    if (n < 256) op(p, 0x8c), op(p, (int)n);
    else op(p, 'X'), le_n(p, n, 4);
    raw(p, s, n);
}

static inline void num(struct pb *p, int64_t v) /* as Python's pickler chooses */
{
    if (v >= 0 && v < 256) op(p, 'K'), op(p, (int)v);
    else if (v >= 0 && v < 65536) op(p, 'M'), le_n(p, (uint64_t)v, 2);
    else if (v >= INT32_MIN && v <= INT32_MAX) op(p, 'J'), le_n(p, (uint64_t)v, 4);
    else op(p, 0x8a), op(p, 8), le_n(p, (uint64_t)v, 8);
}

static inline void begin(struct pb *p) { op(p, 0x80), op(p, 4); }
static inline void stop(struct pb *p) { op(p, '.'); }
static inline void dict_begin(struct pb *p) { op(p, '}'), op(p, '('); }
static inline void dict_end(struct pb *p) { op(p, 'u'); }
static inline void list_begin(struct pb *p) { op(p, ']'), op(p, '('); }
static inline void list_end(struct pb *p) { op(p, 'e'); }
static inline void kv_num(struct pb *p, const char *k, int64_t v) { str(p, k), num(p, v); }
static inline void kv_str(struct pb *p, const char *k, const char *v) { str(p, k), str(p, v); }

static inline void frames(struct pb *p, const char *file, int line)
{
    str(p, "frames"), list_begin(p);
    dict_begin(p), kv_str(p, "filename", "/x/site-packages/torch/nn/modules/linear.py");
    kv_num(p, "line", 125), kv_str(p, "name", "forward"), dict_end(p);
    dict_begin(p), kv_str(p, "filename", "Python/ceval.c"), kv_num(p, "line", 1);
    kv_str(p, "name", "_PyEval_EvalFrameDefault"), dict_end(p);
    dict_begin(p), kv_str(p, "filename", "/usr/lib/python3.11/runpy.py"), kv_num(p, "line", 88);
    kv_str(p, "name", "_run_code"), dict_end(p);
    if (file) {
        dict_begin(p), kv_str(p, "filename", file), kv_num(p, "line", line);
        kv_str(p, "name", "fwd"), dict_end(p);
    }
    list_end(p);
}

static inline void block(struct pb *p, int64_t size, int64_t req, const char *state, const char *file)
{
    dict_begin(p);
    kv_num(p, "size", size), kv_num(p, "requested_size", req), kv_str(p, "state", state);
    if (file) frames(p, file, 10);
    else str(p, "frames"), list_begin(p), list_end(p);
    dict_end(p);
}

static inline void event(struct pb *p, const char *action, int64_t addr, int64_t size, int64_t stream,
                  int64_t t, const char *file)
{
    dict_begin(p);
    kv_str(p, "action", action);
    kv_num(p, strcmp(action, "oom") ? "addr" : "device_free", addr);
    kv_num(p, "size", size), kv_num(p, "stream", stream);
    if (t >= 0) kv_num(p, "time_us", t);
    if (file) frames(p, file, 10);
    dict_end(p);
}

#endif
