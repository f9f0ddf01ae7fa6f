/* gpu_pickle.c - the safe pickle reader (gpu_pickle.h): a stack machine over the opcodes plain
 * data can use, following CPython's Lib/pickle.py (_Unpickler) and Modules/_pickle.c rule for
 * rule, and refusing every opcode that imports or calls. A value is one 8-byte word (a tagged
 * pointer, or a small int or None/bool inline): a snapshot of a million trace entries holds
 * tens of millions of values, and their memory is most of the time it takes to read one.
 * Values, strings and container items live in one bump arena freed at once; strings of up to
 * INTERN_MAX bytes are interned. Containers cannot be changed once they sit inside another
 * container: plain data never needs that (pickle writes a container whole before the opcode
 * that nests it), and it rules out self-referencing structures, so every walk over a document
 * ends. */
#include "gpu_pickle.h"
#include "gpu_strtab.h"
#include "gpu_u64map.h"
#include "gpu_utf8.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gpu_err.h"

#define INTERN_MAX 128
#define CHUNK (64u << 10)      /* the first arena chunk; each next one doubles, up to */
#define CHUNK_MAX (64u << 20)  /* this; big chunks ask for 2 MiB pages (fewer page faults) */
#define HUGE_PAGE (2u << 20)

/* ---- values ------------------------------------------------------------------------------- */

/* The low 3 bits of a word say what it is; arena pointers are 8-aligned. */
enum { TAG_INT, TAG_STR, TAG_SEQ, TAG_BOX, TAG_IMM, TAG_UNSET = 7 };
#define IMM_NONE ((0u << 3) | TAG_IMM)
#define IMM_FALSE ((1u << 3) | TAG_IMM)
#define IMM_TRUE ((2u << 3) | TAG_IMM)
#define INLINE_MIN (-(1ll << 60)) /* ints in [INLINE_MIN, INLINE_MAX) are stored inline */
#define INLINE_MAX (1ll << 60)

struct gpu_pk {
    uint64_t w;
};

struct pk_str { /* STR */
    uint64_t n;
    char s[];   /* n bytes and a NUL */
};

struct pk_box { /* INT beyond 61 bits, BIGINT, FLOAT, BYTES */
    uint32_t type, n;
    union {
        int64_t i;
        double f;
        const char *s;
    } u;
};

struct gpu_pk_seq {
    struct gpu_pk *items;
    uint32_t n, cap;  /* items; a dict holds 2 per pair */
    uint32_t depth;   /* 1 + the deepest container inside */
    uint8_t type;     /* LIST, TUPLE, SET, DICT */
    bool sealed;      /* nested in another container: no more changes */
};

/* Lists and tuples of at least this many items share one item array with an equal one when
 * they are nested: a snapshot writes a fresh list of the same shared frame dicts for every
 * allocation, a million lists of a few dozen words that say a few thousand things. */
#define SHARE_MIN 4

static inline struct gpu_pk W(uint64_t w) { return (struct gpu_pk){w}; }
static inline unsigned tag(struct gpu_pk v) { return (unsigned)(v.w & 7); }
static inline void *ptr(struct gpu_pk v) { return (void *)(uintptr_t)(v.w & ~(uint64_t)7); }
static inline struct gpu_pk tagged(const void *p, unsigned t) { return W((uint64_t)(uintptr_t)p | t); }
static inline bool is_container(struct gpu_pk v) { return tag(v) == TAG_SEQ; }
static inline struct gpu_pk_seq *seq(struct gpu_pk v) { return ptr(v); }

struct chunk {
    struct chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

struct gpu_pk_doc {
    struct chunk *chunks;
    size_t next_chunk;
    struct gpu_strtab names;      /* short strings, each once */
    const struct pk_str **istr;   /* by name id: the arena copy */
    size_t icap;
    struct gpu_pk root;
    size_t bytes;
    int proto;
};

/* ---- arena -------------------------------------------------------------------------------- */

/* Big blocks ask the kernel for 2 MiB pages: a large snapshot takes a few hundred MiB, and
 * 4 KiB page faults were most of its reading time. */
static void *big_alloc(size_t *bytes)
{
    if (*bytes < 2 * HUGE_PAGE) return malloc(*bytes);
    *bytes = (*bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = aligned_alloc(HUGE_PAGE, *bytes);
#ifdef MADV_HUGEPAGE
    if (p) madvise(p, *bytes, MADV_HUGEPAGE); /* a hint: fine if the kernel says no */
#endif
    return p;
}

static struct chunk *chunk_new(size_t cap)
{
    size_t bytes = sizeof(struct chunk) + cap;
    struct chunk *c = big_alloc(&bytes);
    if (!c) return NULL;
    c->cap = bytes - sizeof *c;
    c->used = 0;
    return c;
}

static void *arena_alloc(struct gpu_pk_doc *d, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    struct chunk *c = d->chunks;
    if (!c || c->cap - c->used < n) {
        if (!d->next_chunk) d->next_chunk = CHUNK;
        bool big = n > d->next_chunk / 4;
        c = chunk_new(big ? n : d->next_chunk);
        if (!c) return NULL;
        if (big && d->chunks) { /* a big one goes behind the current chunk */
            c->next = d->chunks->next;
            d->chunks->next = c;
        } else {
            c->next = d->chunks;
            d->chunks = c;
            if (d->next_chunk < CHUNK_MAX) d->next_chunk *= 2;
        }
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

/* Grow an item array: in place when it is the newest thing in the current chunk. */
static bool arena_grow(struct gpu_pk_doc *d, struct gpu_pk_seq *q, uint32_t want)
{
    if (want <= q->cap) return true;
    uint64_t cap = q->cap ? (uint64_t)q->cap * 2 : want;
    if (cap < want) cap = want;
    if (cap > UINT32_MAX) return false;
    struct chunk *c = d->chunks;
    size_t old = (size_t)q->cap * sizeof *q->items, need = (size_t)cap * sizeof *q->items;
    if (q->items && c && (unsigned char *)q->items + old == c->data + c->used &&
        c->cap - c->used >= need - old) {
        c->used += need - old;
        q->cap = (uint32_t)cap;
        return true;
    }
    struct gpu_pk *items = arena_alloc(d, need);
    if (!items) return false;
    if (q->n) memcpy(items, q->items, (size_t)q->n * sizeof *items);
    q->items = items;
    q->cap = (uint32_t)cap;
    return true;
}

/* ---- interned strings --------------------------------------------------------------------- */

/* The arena copy of s[0..n): long ones each their own, short ones once (the string table
 * numbers each distinct text; istr[id] is its arena copy, so equal keys are one pointer). */
static struct pk_str *str_new(struct gpu_pk_doc *d, const char *s, size_t n)
{
    struct pk_str *p = arena_alloc(d, sizeof *p + n + 1);
    if (!p) return NULL;
    p->n = n;
    memcpy(p->s, s, n);
    p->s[n] = 0;
    return p;
}

static const struct pk_str *str_store(struct gpu_pk_doc *d, const char *s, size_t n)
{
    if (n > INTERN_MAX) return str_new(d, s, n);
    size_t before = d->names.count;
    uint32_t id = gpu_strtab_intern(&d->names, s, n);
    if (id == GPU_STRTAB_NONE) return NULL;
    if (d->names.count == before) return d->istr[id];
    if (id >= d->icap) {
        size_t cap = d->icap ? d->icap * 2 : 1024;
        const struct pk_str **t = realloc(d->istr, cap * sizeof *t);
        if (!t) return NULL; /* the name stays in the table: a later lookup fails the same way */
        d->istr = t;
        d->icap = cap;
    }
    return d->istr[id] = str_new(d, s, n);
}

/* ---- text helpers ------------------------------------------------------------------------- */

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* ---- the machine -------------------------------------------------------------------------- */

struct parser {
    struct gpu_pk_doc *d;
    const unsigned char *buf;
    size_t len, pos, op_at;
    size_t frame_end; /* where the current FRAME ends; 0: not in one */
    const char *op_name;
    struct gpu_pk_limits lim;
    struct gpu_pk *stack;
    size_t sp, scap;
    size_t *marks;
    size_t nmarks, mcap;
    struct gpu_pk *memo;
    size_t memo_cap, memo_count;
    struct gpu_u64map sparse; /* memo indexes far beyond the values made: index -> value word */
    struct gpu_u64map shared; /* item arrays kept once: a hash of their words -> the array */
    uint64_t objects;
    const gpu_cancel_flag *cancel;
    void (*consumed)(void *ud, size_t upto);
    void *ud;
    char *err;
    size_t errn;
    char *tmp; /* scratch for decoded text (protocol 0 strings) */
    size_t tmp_cap;
};

static gpu_status fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static gpu_status fail(struct parser *p, const char *fmt, ...)
{
    if (p->err && p->errn) {
        int k = snprintf(p->err, p->errn, "offset %zu: ", p->op_at);
        if (k >= 0 && (size_t)k < p->errn) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(p->err + k, p->errn - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return GPU_ERR_ARG;
}

static gpu_status oom(struct parser *p) { return fail(p, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM)); }

/* the argument bytes of the current opcode */
static gpu_status past_frame(struct parser *p)
{
    return fail(p, "%s runs past the end of its FRAME (at offset %zu)", p->op_name, p->frame_end);
}

static inline gpu_status take(struct parser *p, size_t k, const unsigned char **out)
{
    if (__builtin_expect(p->len - p->pos < k, 0)) return fail(p, "truncated in %s", p->op_name);
    /* as pickle's own reader: an opcode lies wholly inside its frame */
    if (__builtin_expect(p->frame_end && k > p->frame_end - p->pos, 0)) return past_frame(p);
    *out = p->buf + p->pos;
    p->pos += k;
    return GPU_OK;
}

static gpu_status take_line(struct parser *p, const unsigned char **out, size_t *n)
{
    const unsigned char *s = p->buf + p->pos;
    const unsigned char *nl = memchr(s, '\n', p->len - p->pos);
    if (!nl) return fail(p, "truncated in %s (no end of line)", p->op_name);
    if (p->frame_end && (size_t)(nl - p->buf) >= p->frame_end) return past_frame(p);
    *out = s;
    *n = (size_t)(nl - s);
    p->pos += *n + 1;
    return GPU_OK;
}

/* little-endian loads, whatever the host's byte order (compilers make each one load) */
static inline uint64_t le16(const unsigned char *b) { return (uint64_t)b[0] | (uint64_t)b[1] << 8; }
static inline uint64_t le32(const unsigned char *b)
{
    return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24;
}
static inline uint64_t le64(const unsigned char *b) { return le32(b) | le32(b + 4) << 32; }

static uint64_t le(const unsigned char *b, int k)
{
    return k == 1 ? b[0] : k == 2 ? le16(b) : k == 4 ? le32(b) : le64(b);
}

static gpu_status push_slow(struct parser *p, struct gpu_pk v)
{
    if (p->objects > p->lim.max_objects)
        return fail(p, "more than %llu values: larger than the limit for a snapshot",
                    (unsigned long long)p->lim.max_objects);
    size_t cap = p->scap ? p->scap * 2 : 256;
    struct gpu_pk *s = realloc(p->stack, cap * sizeof *s);
    if (!s) return oom(p);
    p->stack = s;
    p->scap = cap;
    p->stack[p->sp++] = v;
    return GPU_OK;
}

static inline gpu_status push(struct parser *p, struct gpu_pk v)
{
    if (__builtin_expect(++p->objects > p->lim.max_objects || p->sp == p->scap, 0))
        return push_slow(p, v);
    p->stack[p->sp++] = v;
    return GPU_OK;
}

static gpu_status push_box(struct parser *p, uint32_t type, uint32_t n, int64_t i, double f,
                           const char *s)
{
    struct pk_box *b = arena_alloc(p->d, sizeof *b);
    if (!b) return oom(p);
    b->type = type;
    b->n = n;
    if (type == GPU_PK_FLOAT) b->u.f = f;
    else if (type == GPU_PK_INT) b->u.i = i;
    else b->u.s = s;
    return push(p, tagged(b, TAG_BOX));
}

static inline gpu_status push_int(struct parser *p, int64_t i)
{
    if (__builtin_expect(i >= INLINE_MIN && i < INLINE_MAX, 1)) return push(p, W((uint64_t)i << 3));
    return push_box(p, GPU_PK_INT, 0, i, 0, NULL);
}

static size_t frame_base(const struct parser *p) { return p->nmarks ? p->marks[p->nmarks - 1] : 0; }

/* at least k values above the last MARK */
static inline gpu_status need(struct parser *p, size_t k)
{
    if (__builtin_expect(p->sp - frame_base(p) < k, 0))
        return fail(p, "stack underflow in %s", p->op_name);
    return GPU_OK;
}

static gpu_status pop_mark(struct parser *p, size_t *base)
{
    if (!p->nmarks) return fail(p, "%s without a MARK before it", p->op_name);
    *base = p->marks[--p->nmarks];
    return GPU_OK;
}

static struct gpu_pk_seq *new_seq(struct parser *p, uint32_t type)
{
    struct gpu_pk_seq *q = arena_alloc(p->d, sizeof *q);
    if (q) {
        memset(q, 0, sizeof *q);
        q->type = (uint8_t)type;
        q->depth = 1;
    }
    return q;
}

static gpu_status push_container(struct parser *p, uint32_t type)
{
    struct gpu_pk_seq *q = new_seq(p, type);
    if (!q) return oom(p);
    return push(p, tagged(q, TAG_SEQ));
}

/* Put items[0..k) into q (which must not be nested yet): they become nested themselves.
 * pairs: q is a dict and the items are key, value, key, value ... */
/* c is being nested for the first time: its items (sealed from now on) become the copy of an
 * equal array seen before, and its own are given back when nothing was allocated after them. */
static void share_items(struct parser *p, struct gpu_pk_seq *c)
{
    if (c->n < SHARE_MIN || (c->type != GPU_PK_LIST && c->type != GPU_PK_TUPLE)) return;
    uint64_t h = gpu_hash(GPU_HASH_INIT, c->items, (size_t)c->n * sizeof *c->items);
    h ^= c->n; /* and the length: a zero hash is fine, a map key is any value */
    size_t at = gpu_u64map_find(&p->shared, h);
    if (at == SIZE_MAX) {
        if (p->shared.cap || gpu_u64map_init(&p->shared, 1024))
            (void)gpu_u64map_put(&p->shared, h, (uint64_t)(uintptr_t)c); /* a cache: may fail */
        return;
    }
    const struct gpu_pk_seq *o = (const struct gpu_pk_seq *)(uintptr_t)p->shared.val[at];
    if (o->n != c->n || memcmp(o->items, c->items, (size_t)c->n * sizeof *c->items)) return;
    struct chunk *ch = p->d->chunks;
    size_t bytes = (size_t)c->cap * sizeof *c->items;
    if (ch && (unsigned char *)c->items + bytes == ch->data + ch->used) ch->used -= bytes;
    c->items = o->items;
    c->cap = c->n;
}

static gpu_status add_items(struct parser *p, struct gpu_pk_seq *q, const struct gpu_pk *items,
                            size_t k, bool pairs)
{
    if (q->sealed)
        return fail(p, "%s changes a container already nested in another (a self-referencing "
                       "structure, not plain snapshot data)", p->op_name);
    if ((uint64_t)q->n + k > UINT32_MAX) return fail(p, "container too large");
    uint32_t depth = q->depth;
    for (size_t i = 0; i < k; i++) {
        if (!is_container(items[i])) continue;
        struct gpu_pk_seq *c = seq(items[i]);
        if (pairs && !(i & 1) && (c->type == GPU_PK_LIST || c->type == GPU_PK_DICT))
            return fail(p, "%s: a %s cannot be a dict key", p->op_name,
                        c->type == GPU_PK_LIST ? "list" : "dict");
        if (!c->sealed && c != q) share_items(p, c);
        c->sealed = true;
        if (c->depth + 1 > depth) depth = c->depth + 1;
    }
    if (q->sealed) /* one of the items was q itself */
        return fail(p, "%s puts a container inside itself (a self-referencing structure, not "
                       "plain snapshot data)", p->op_name);
    if (depth > p->lim.max_depth)
        return fail(p, "containers nested more than %u deep: deeper than the limit for a "
                       "snapshot", p->lim.max_depth);
    if (!arena_grow(p->d, q, q->n + (uint32_t)k)) return oom(p);
    if (k) memcpy(q->items + q->n, items, k * sizeof *items);
    q->n += (uint32_t)k;
    q->depth = depth;
    return GPU_OK;
}

/* A container made from the values above the last MARK (LIST, DICT, TUPLE, FROZENSET). */
static gpu_status from_mark(struct parser *p, uint32_t type)
{
    size_t base = 0;
    gpu_status st = pop_mark(p, &base);
    if (st != GPU_OK) return st;
    size_t k = p->sp - base;
    if (type == GPU_PK_DICT && k % 2) return fail(p, "odd number of items for %s", p->op_name);
    struct gpu_pk_seq *q = new_seq(p, type);
    if (!q) return oom(p);
    if ((st = add_items(p, q, p->stack + base, k, type == GPU_PK_DICT)) != GPU_OK) return st;
    p->sp = base;
    return push(p, tagged(q, TAG_SEQ));
}

static gpu_status tuple_n(struct parser *p, size_t k)
{
    gpu_status st = need(p, k);
    if (st != GPU_OK) return st;
    struct gpu_pk_seq *q = new_seq(p, GPU_PK_TUPLE);
    if (!q) return oom(p);
    if ((st = add_items(p, q, p->stack + p->sp - k, k, false)) != GPU_OK) return st;
    p->sp -= k;
    return push(p, tagged(q, TAG_SEQ));
}

/* APPEND(S), SETITEM(S), ADDITEMS: the values from base up go into the container below them. */
static gpu_status fill(struct parser *p, size_t base, uint32_t want, const char *what)
{
    /* the container sits right under the values, in the same frame */
    if (base == 0 || base - 1 < frame_base(p)) return fail(p, "stack underflow in %s", p->op_name);
    struct gpu_pk *c = &p->stack[base - 1];
    if (!is_container(*c) || seq(*c)->type != want)
        return fail(p, "%s into a %s (only a %s takes it)", p->op_name, gpu_pk_type_name(c), what);
    size_t k = p->sp - base;
    if (want == GPU_PK_DICT && k % 2) return fail(p, "odd number of items for %s", p->op_name);
    gpu_status st = add_items(p, seq(*c), p->stack + base, k, want == GPU_PK_DICT);
    if (st != GPU_OK) return st;
    p->sp = base;
    return GPU_OK;
}

/* The memo: a table for the indexes a pickler writes (0, 1, 2 ... as values are made), a map
 * for any others (a hand-made pickle may name index 2^28 after nine bytes: Python accepts it,
 * and a table that size is gigabytes), so memory follows the values and PUTs in the file. */
static gpu_status memo_put(struct parser *p, uint64_t idx)
{
    gpu_status st = need(p, 1);
    if (st != GPU_OK) return st;
    if (idx >= p->lim.max_objects)
        return fail(p, "memo index %llu is larger than a snapshot can need",
                    (unsigned long long)idx);
    if (idx >= p->memo_cap && idx > 2 * p->objects + 1024) {
        size_t at = gpu_u64map_find(&p->sparse, idx);
        if (at == SIZE_MAX && !p->sparse.cap && !gpu_u64map_init(&p->sparse, 64)) return oom(p);
        if (at == SIZE_MAX) p->memo_count++;
        if (!gpu_u64map_put(&p->sparse, idx, p->stack[p->sp - 1].w)) return oom(p);
        return GPU_OK;
    }
    if (idx >= p->memo_cap) {
        size_t cap = p->memo_cap ? p->memo_cap : 1024;
        while (cap <= idx) cap *= 2;
        struct gpu_pk *m = realloc(p->memo, cap * sizeof *m);
        if (!m) return oom(p);
        for (size_t i = p->memo_cap; i < cap; i++) m[i].w = TAG_UNSET;
        p->memo = m;
        p->memo_cap = cap;
    }
    if (p->memo[idx].w == TAG_UNSET && gpu_u64map_find(&p->sparse, idx) == SIZE_MAX) p->memo_count++;
    p->memo[idx] = p->stack[p->sp - 1];
    return GPU_OK;
}

static gpu_status memo_get_slow(struct parser *p, uint64_t idx)
{
    size_t at = gpu_u64map_find(&p->sparse, idx);
    if (at == SIZE_MAX)
        return fail(p, "%s of memo %llu, which was never stored", p->op_name,
                    (unsigned long long)idx);
    return push(p, W(p->sparse.val[at]));
}

static inline gpu_status memo_get(struct parser *p, uint64_t idx)
{
    if (__builtin_expect(idx >= p->memo_cap || p->memo[idx].w == TAG_UNSET, 0))
        return memo_get_slow(p, idx);
    return push(p, p->memo[idx]);
}

static gpu_status push_text(struct parser *p, const char *s, size_t n, uint32_t type)
{
    if (n > p->lim.max_string)
        return fail(p, "a %s of %zu bytes is longer than the limit (%llu)",
                    type == GPU_PK_STR ? "str" : "bytes", n, (unsigned long long)p->lim.max_string);
    if (type == GPU_PK_STR) {
        /* as Python's pickle writes it ('surrogatepass'): lone surrogates are allowed */
        if (!gpu_utf8_valid(s, n, GPU_UTF8_SURROGATES)) return fail(p, "invalid UTF-8 in %s", p->op_name);
        const struct pk_str *c = str_store(p->d, s, n);
        if (!c) return oom(p);
        return push(p, tagged(c, TAG_STR));
    }
    char *b = arena_alloc(p->d, n + 1);
    if (!b) return oom(p);
    memcpy(b, s, n);
    b[n] = 0;
    return push_box(p, type, (uint32_t)n, 0, 0, b);
}

/* counted string opcodes: k length bytes (little-endian), then the bytes */
static gpu_status counted(struct parser *p, int k, bool is_signed, uint32_t type, bool ascii)
{
    const unsigned char *b = NULL;
    gpu_status st = take(p, (size_t)k, &b);
    if (st != GPU_OK) return st;
    uint64_t n = le(b, k);
    if (is_signed && k == 4 && (n & 0x80000000u))
        return fail(p, "%s has a negative length", p->op_name);
    if (n > p->lim.max_string)
        return fail(p, "a %s of %llu bytes is longer than the limit (%llu)",
                    type == GPU_PK_STR ? "str" : "bytes", (unsigned long long)n,
                    (unsigned long long)p->lim.max_string);
    if ((st = take(p, (size_t)n, &b)) != GPU_OK) return st;
    if (ascii)
        for (uint64_t i = 0; i < n; i++)
            if (b[i] & 0x80) return fail(p, "non-ASCII byte in %s (a Python 2 str)", p->op_name);
    return push_text(p, (const char *)b, (size_t)n, type);
}

/* LONG1/LONG4 payload: n bytes, little-endian two's complement */
static gpu_status push_long_bytes(struct parser *p, const unsigned char *b, size_t n)
{
    if (n <= 8) { /* the usual case: sign-extend n bytes */
        uint64_t v = 0;
        for (size_t i = n; i-- > 0;) v = v << 8 | b[i];
        if (n && n < 8 && (b[n - 1] & 0x80)) v |= ~0ull << (8 * n);
        return push_int(p, (int64_t)v);
    }
    bool neg = b[n - 1] & 0x80;
    size_t sig = n; /* drop redundant sign bytes */
    while (sig > 1 && b[sig - 1] == (neg ? 0xff : 0x00) && ((b[sig - 2] & 0x80) != 0) == neg) sig--;
    if (sig <= 8) return push_long_bytes(p, b, sig);
    char *c = arena_alloc(p->d, sig);
    if (!c) return oom(p);
    memcpy(c, b, sig);
    return push_box(p, GPU_PK_BIGINT, (uint32_t)sig, 0, 0, c);
}

static bool py_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static int digit_of(unsigned char c)
{
    int h = hexval(c);
    return h >= 0 ? h : 99;
}

/* Python's int(text, 0): optional sign, 0x/0o/0b prefixes, single underscores between digits,
 * no leading zeros on a decimal other than zero itself, whitespace around. Wider than int64
 * becomes a BIGINT kept as its text: nothing in a snapshot needs the value. */
static gpu_status push_py_int(struct parser *p, const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n && py_space(s[i])) i++;
    while (n > i && py_space(s[n - 1])) n--;
    size_t text = i;
    bool neg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    unsigned base = 10;
    bool zero_lead = false;
    if (n - i >= 2 && s[i] == '0') {
        unsigned char x = s[i + 1] | 0x20;
        base = x == 'x' ? 16 : x == 'o' ? 8 : x == 'b' ? 2 : 10;
        if (base != 10) {
            i += 2;
            if (i < n && s[i] == '_') i++; /* 0x_ff */
        } else {
            zero_lead = true;
        }
    }
    uint64_t mag = 0;
    bool big = false, any = false, last_us = false;
    for (; i < n; i++) {
        if (s[i] == '_') {
            if (!any || last_us) return fail(p, "%s: not a whole number", p->op_name);
            last_us = true;
            continue;
        }
        int d = digit_of(s[i]);
        if (d >= (int)base) return fail(p, "%s: not a whole number", p->op_name);
        if (zero_lead && d != 0) return fail(p, "%s: not a whole number (leading zeros)", p->op_name);
        if (mag > (UINT64_MAX - (unsigned)d) / base) big = true;
        else mag = mag * base + (unsigned)d;
        any = true;
        last_us = false;
    }
    if (!any || last_us) return fail(p, "%s: not a whole number", p->op_name);
    if (!big && (neg ? mag <= (1ull << 63) : mag < (1ull << 63)))
        return push_int(p, neg ? (int64_t)(0 - mag) : (int64_t)mag);
    char *c = arena_alloc(p->d, n - text + 1);
    if (!c) return oom(p);
    memcpy(c, s + text, n - text);
    c[n - text] = 0;
    return push_box(p, GPU_PK_BIGINT, (uint32_t)(n - text), 0, 0, c);
}

/* INT: CPython's C unpickler reads it with strtol(text, &end, 0) ("0755" is octal there) and
 * falls back to int(text, 0) when strtol stops early or overflows. LONG: int(text, 0). */
static gpu_status push_int_text(struct parser *p, const unsigned char *s, size_t n, bool is_long)
{
    if (!is_long && n < 64) {
        char t[64];
        memcpy(t, s, n);
        t[n] = 0;
        char *end;
        errno = 0;
        long long v = strtoll(t, &end, 0);
        /* two characters that read as 0 or 1 ("00", "01", even "-0") are a bool */
        if (!errno && end != t && *end == 0)
            return n == 2 && (v == 0 || v == 1) ? push(p, W(v ? IMM_TRUE : IMM_FALSE))
                                                : push_int(p, v);
    }
    return push_py_int(p, s, n);
}

static bool tmp_reserve(struct parser *p, size_t n)
{
    if (n <= p->tmp_cap) return true;
    char *t = realloc(p->tmp, n);
    if (!t) return false;
    p->tmp = t;
    p->tmp_cap = n;
    return true;
}

static gpu_status push_string_repr(struct parser *p, const unsigned char *s, size_t n)
{
    while (n && s[n - 1] == '\r') n--;
    if (n < 2 || s[0] != s[n - 1] || (s[0] != '\'' && s[0] != '"'))
        return fail(p, "the STRING opcode argument must be quoted");
    s++, n -= 2;
    if (!tmp_reserve(p, n + 1)) return oom(p);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c != '\\') {
            p->tmp[o++] = (char)c;
            continue;
        }
        if (++i == n) return fail(p, "STRING: a backslash at the end");
        c = s[i];
        static const char esc[] = "\\\\''\"\"a\ab\bf\fn\nr\rt\tv\v";
        const char *e = NULL;
        for (size_t k = 0; esc[k]; k += 2)
            if (esc[k] == (char)c) e = &esc[k + 1];
        if (e) p->tmp[o++] = *e;
        else if (c == '\n') continue;
        else if (c >= '0' && c <= '7') {
            unsigned v = c - '0';
            for (int k = 0; k < 2 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7'; k++)
                v = v * 8 + (unsigned)(s[++i] - '0');
            p->tmp[o++] = (char)(v & 0xff);
        } else if (c == 'x') {
            int h1 = i + 1 < n ? hexval(s[i + 1]) : -1, h2 = i + 2 < n ? hexval(s[i + 2]) : -1;
            if (h1 < 0 || h2 < 0) return fail(p, "STRING: bad \\x escape");
            p->tmp[o++] = (char)(h1 * 16 + h2);
            i += 2;
        } else {
            p->tmp[o++] = '\\';
            p->tmp[o++] = (char)c;
        }
    }
    for (size_t i = 0; i < o; i++)
        if (p->tmp[i] & 0x80) return fail(p, "non-ASCII byte in STRING (a Python 2 str)");
    return push_text(p, p->tmp, o, GPU_PK_STR);
}

/* UNICODE: raw-unicode-escape (latin-1 bytes, \uXXXX and \UXXXXXXXX) */
static gpu_status push_raw_unicode(struct parser *p, const unsigned char *s, size_t n)
{
    if (!tmp_reserve(p, n * 4 + 1)) return oom(p);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        /* an escape is a backslash preceded by an even number of backslashes */
        if (c == '\\' && i + 1 < n && (s[i + 1] == 'u' || s[i + 1] == 'U')) {
            size_t bs = 0;
            for (size_t j = i; j > 0 && s[j - 1] == '\\'; j--) bs++;
            if (bs % 2 == 0) {
                int k = s[i + 1] == 'u' ? 4 : 8;
                if (i + 2 + (size_t)k > n) return fail(p, "UNICODE: truncated \\%c escape", s[i + 1]);
                uint32_t cp = 0;
                for (int j = 0; j < k; j++) {
                    int h = hexval(s[i + 2 + (size_t)j]);
                    if (h < 0) return fail(p, "UNICODE: bad \\%c escape", s[i + 1]);
                    cp = cp * 16 + (uint32_t)h;
                }
                if (cp > 0x10ffff) return fail(p, "UNICODE: \\U escape beyond U+10FFFF");
                o += (size_t)gpu_utf8_encode(cp, GPU_UTF8_SURROGATES, p->tmp + o);
                i += 1 + (size_t)k;
                continue;
            }
        }
        o += (size_t)gpu_utf8_encode(c, GPU_UTF8_SURROGATES, p->tmp + o);
    }
    return push_text(p, p->tmp, o, GPU_PK_STR);
}

static const char *const refused[256] = {
    ['c'] = "GLOBAL",       [0x93] = "STACK_GLOBAL", ['R'] = "REDUCE",   ['b'] = "BUILD",
    ['i'] = "INST",         ['o'] = "OBJ",           [0x81] = "NEWOBJ",  [0x92] = "NEWOBJ_EX",
    [0x82] = "EXT1",        [0x83] = "EXT2",         [0x84] = "EXT4",    ['P'] = "PERSID",
    ['Q'] = "BINPERSID",    [0x97] = "NEXT_BUFFER",  [0x98] = "READONLY_BUFFER",
};

static const char *const names[256] = {
    ['('] = "MARK", ['.'] = "STOP", ['0'] = "POP", ['1'] = "POP_MARK", ['2'] = "DUP",
    ['F'] = "FLOAT", ['I'] = "INT", ['J'] = "BININT", ['K'] = "BININT1", ['L'] = "LONG",
    ['M'] = "BININT2", ['N'] = "NONE", ['S'] = "STRING", ['T'] = "BINSTRING",
    ['U'] = "SHORT_BINSTRING", ['V'] = "UNICODE", ['X'] = "BINUNICODE", ['a'] = "APPEND",
    ['d'] = "DICT", ['}'] = "EMPTY_DICT", ['e'] = "APPENDS", ['g'] = "GET", ['h'] = "BINGET",
    ['j'] = "LONG_BINGET", ['l'] = "LIST", [']'] = "EMPTY_LIST", ['p'] = "PUT",
    ['q'] = "BINPUT", ['r'] = "LONG_BINPUT", ['s'] = "SETITEM", ['t'] = "TUPLE",
    [')'] = "EMPTY_TUPLE", ['u'] = "SETITEMS", ['G'] = "BINFLOAT", [0x80] = "PROTO",
    [0x85] = "TUPLE1", [0x86] = "TUPLE2", [0x87] = "TUPLE3", [0x88] = "NEWTRUE",
    [0x89] = "NEWFALSE", [0x8a] = "LONG1", [0x8b] = "LONG4", ['B'] = "BINBYTES",
    ['C'] = "SHORT_BINBYTES", [0x8c] = "SHORT_BINUNICODE", [0x8d] = "BINUNICODE8",
    [0x8e] = "BINBYTES8", [0x8f] = "EMPTY_SET", [0x90] = "ADDITEMS", [0x91] = "FROZENSET",
    [0x94] = "MEMOIZE", [0x95] = "FRAME", [0x96] = "BYTEARRAY8",
};

static gpu_status step(struct parser *p, bool *stop)
{
    if (p->frame_end && p->pos >= p->frame_end) p->frame_end = 0;
    p->op_at = p->pos;
    unsigned op = p->buf[p->pos++];
    if (refused[op]) {
        p->op_name = refused[op];
        return fail(p, "opcode %s is not allowed in a memory snapshot", refused[op]);
    }
    p->op_name = names[op];
    if (!p->op_name) return fail(p, "unknown opcode 0x%02x: not a pickle", op);
    const unsigned char *b = NULL;
    size_t n = 0, base = 0;
    gpu_status st;
    switch (op) {
    case 0x80: /* PROTO */
        if ((st = take(p, 1, &b)) != GPU_OK) return st;
        if (b[0] > 5) return fail(p, "unsupported pickle protocol %u", b[0]);
        p->d->proto = b[0];
        return GPU_OK;
    case 0x95: /* FRAME: a length; the opcodes inside are read as usual, each inside it */
        if (p->frame_end) return fail(p, "a FRAME begins before the current one ends");
        if ((st = take(p, 8, &b)) != GPU_OK) return st;
        if (le(b, 8) > p->len - p->pos) return fail(p, "truncated in FRAME");
        if (le(b, 8)) p->frame_end = p->pos + (size_t)le(b, 8);
        return GPU_OK;
    case '.':
        if ((st = need(p, 1)) != GPU_OK) return st;
        p->d->root = p->stack[--p->sp];
        *stop = true;
        return GPU_OK;
    case '(':
        if (p->nmarks >= p->lim.max_depth)
            return fail(p, "more than %u MARKs open: deeper than the limit for a snapshot",
                        p->lim.max_depth);
        if (p->nmarks == p->mcap) {
            size_t cap = p->mcap ? p->mcap * 2 : 16;
            size_t *m = realloc(p->marks, cap * sizeof *m);
            if (!m) return oom(p);
            p->marks = m;
            p->mcap = cap;
        }
        p->marks[p->nmarks++] = p->sp;
        return GPU_OK;
    case '0': /* POP: a value, or the MARK when nothing is above it */
        if (p->sp > frame_base(p)) p->sp--;
        else if (p->nmarks) p->nmarks--;
        else return fail(p, "stack underflow in POP");
        return GPU_OK;
    case '1':
        if ((st = pop_mark(p, &base)) != GPU_OK) return st;
        p->sp = base;
        return GPU_OK;
    case '2':
        if ((st = need(p, 1)) != GPU_OK) return st;
        return push(p, p->stack[p->sp - 1]);
    case 'N': return push(p, W(IMM_NONE));
    case 0x88:
    case 0x89: return push(p, W(op == 0x88 ? IMM_TRUE : IMM_FALSE));
    case 'K':
        if ((st = take(p, 1, &b)) != GPU_OK) return st;
        return push_int(p, b[0]);
    case 'M':
        if ((st = take(p, 2, &b)) != GPU_OK) return st;
        return push_int(p, (int64_t)le16(b));
    case 'J':
        if ((st = take(p, 4, &b)) != GPU_OK) return st;
        return push_int(p, (int32_t)(uint32_t)le32(b));
    case 0x8a:
        if ((st = take(p, 1, &b)) != GPU_OK) return st;
        n = b[0];
        if ((st = take(p, n, &b)) != GPU_OK) return st;
        return push_long_bytes(p, b, n);
    case 0x8b: {
        if ((st = take(p, 4, &b)) != GPU_OK) return st;
        uint64_t k = le(b, 4);
        if (k & 0x80000000u) return fail(p, "LONG4 has a negative byte count");
        if (k > p->lim.max_string) return fail(p, "a LONG4 of %llu bytes is longer than the limit",
                                               (unsigned long long)k);
        if ((st = take(p, (size_t)k, &b)) != GPU_OK) return st;
        return push_long_bytes(p, b, (size_t)k);
    }
    case 'I':
    case 'L':
        if ((st = take_line(p, &b, &n)) != GPU_OK) return st;
        if (op == 'L' && n && b[n - 1] == 'L') n--;
        return push_int_text(p, b, n, op == 'L');
    case 'F': {
        if ((st = take_line(p, &b, &n)) != GPU_OK) return st;
        if (!tmp_reserve(p, n + 1)) return oom(p);
        memcpy(p->tmp, b, n);
        p->tmp[n] = 0;
        char *end;
        errno = 0;
        double f = strtod(p->tmp, &end);
        while (*end == ' ' || *end == '\r' || *end == '\t') end++;
        if (end == p->tmp || *end) return fail(p, "FLOAT: not a number");
        return push_box(p, GPU_PK_FLOAT, 0, 0, f, NULL);
    }
    case 'G': {
        if ((st = take(p, 8, &b)) != GPU_OK) return st;
        uint64_t v = 0;
        for (int i = 0; i < 8; i++) v = v << 8 | b[i];
        double f;
        memcpy(&f, &v, sizeof f);
        return push_box(p, GPU_PK_FLOAT, 0, 0, f, NULL);
    }
    case 'X': return counted(p, 4, false, GPU_PK_STR, false);
    case 0x8c: return counted(p, 1, false, GPU_PK_STR, false);
    case 0x8d: return counted(p, 8, false, GPU_PK_STR, false);
    case 'B': return counted(p, 4, false, GPU_PK_BYTES, false);
    case 'C': return counted(p, 1, false, GPU_PK_BYTES, false);
    case 0x8e:
    case 0x96: return counted(p, 8, false, GPU_PK_BYTES, false);
    case 'T': return counted(p, 4, true, GPU_PK_STR, true);
    case 'U': return counted(p, 1, false, GPU_PK_STR, true);
    case 'S':
        if ((st = take_line(p, &b, &n)) != GPU_OK) return st;
        return push_string_repr(p, b, n);
    case 'V':
        if ((st = take_line(p, &b, &n)) != GPU_OK) return st;
        return push_raw_unicode(p, b, n);
    case ']': return push_container(p, GPU_PK_LIST);
    case '}': return push_container(p, GPU_PK_DICT);
    case ')': return push_container(p, GPU_PK_TUPLE);
    case 0x8f: return push_container(p, GPU_PK_SET);
    case 'l': return from_mark(p, GPU_PK_LIST);
    case 'd': return from_mark(p, GPU_PK_DICT);
    case 't': return from_mark(p, GPU_PK_TUPLE);
    case 0x91: return from_mark(p, GPU_PK_SET);
    case 0x85: return tuple_n(p, 1);
    case 0x86: return tuple_n(p, 2);
    case 0x87: return tuple_n(p, 3);
    case 'a':
        if ((st = need(p, 2)) != GPU_OK) return st;
        return fill(p, p->sp - 1, GPU_PK_LIST, "list");
    case 's':
        if ((st = need(p, 3)) != GPU_OK) return st;
        return fill(p, p->sp - 2, GPU_PK_DICT, "dict");
    case 'e':
    case 'u':
    case 0x90:
        if ((st = pop_mark(p, &base)) != GPU_OK) return st;
        return fill(p, base, op == 'e' ? GPU_PK_LIST : op == 'u' ? GPU_PK_DICT : GPU_PK_SET,
                    op == 'e' ? "list" : op == 'u' ? "dict" : "set");
    case 'p':
    case 'g': {
        if ((st = take_line(p, &b, &n)) != GPU_OK) return st;
        uint64_t idx = 0;
        if (!n) return fail(p, "%s: not a memo index", p->op_name);
        for (size_t i = 0; i < n; i++) {
            if (b[i] < '0' || b[i] > '9' || idx > UINT32_MAX)
                return fail(p, "%s: not a memo index", p->op_name);
            idx = idx * 10 + (uint64_t)(b[i] - '0');
        }
        return op == 'p' ? memo_put(p, idx) : memo_get(p, idx);
    }
    case 'q':
    case 'h':
        if ((st = take(p, 1, &b)) != GPU_OK) return st;
        return op == 'q' ? memo_put(p, b[0]) : memo_get(p, b[0]);
    case 'r':
    case 'j':
        if ((st = take(p, 4, &b)) != GPU_OK) return st;
        return op == 'r' ? memo_put(p, le32(b)) : memo_get(p, le32(b));
    case 0x94: return memo_put(p, p->memo_count);
    }
    return fail(p, "unknown opcode 0x%02x: not a pickle", op);
}

static void limits_fill(struct gpu_pk_limits *o, const struct gpu_pk_limits *in)
{
    struct gpu_pk_limits z = {0};
    if (!in) in = &z;
    o->max_file = in->max_file ? in->max_file : GPU_PK_DEFAULT_MAX_FILE;
    o->max_objects = in->max_objects ? in->max_objects : GPU_PK_DEFAULT_MAX_OBJECTS;
    if (o->max_objects > (1ull << 31)) o->max_objects = 1ull << 31;
    o->max_depth = in->max_depth ? in->max_depth : GPU_PK_DEFAULT_MAX_DEPTH;
    o->max_string = in->max_string ? in->max_string : GPU_PK_DEFAULT_MAX_STRING;
    if (o->max_string > UINT32_MAX) o->max_string = UINT32_MAX;
}

void gpu_pk_free(struct gpu_pk_doc *d)
{
    if (!d) return;
    while (d->chunks) {
        struct chunk *nx = d->chunks->next;
        free(d->chunks);
        d->chunks = nx;
    }
    gpu_strtab_free(&d->names);
    free(d->istr);
    free(d);
}

gpu_status gpu_pk_parse(const void *buf, size_t len, const struct gpu_pk_limits *lim,
                        struct gpu_pk_doc **out, char *err, size_t n)
{
    struct gpu_pk_run run = {.lim = lim};
    return gpu_pk_parse_run(buf, len, &run, out, err, n);
}

#define CHECK_EVERY 8192        /* opcodes between looks at the cancel flag */
#define CONSUMED_EVERY (4u << 20) /* bytes between reports of what was read */

gpu_status gpu_pk_parse_run(const void *buf, size_t len, const struct gpu_pk_run *run,
                            struct gpu_pk_doc **out, char *err, size_t n)
{
    if (err && n) err[0] = 0;
    if (!out || (!buf && len) || !run) return GPU_ERR_ARG;
    *out = NULL;
    struct parser p = {.buf = buf, .len = len, .err = err, .errn = n, .cancel = run->cancel,
                       .consumed = run->consumed, .ud = run->ud};
    limits_fill(&p.lim, run->lim);
    if (len > p.lim.max_file) {
        gpu_errf(err, n, "%zu bytes: larger than the limit for a snapshot (%llu bytes)", len,
                 (unsigned long long)p.lim.max_file);
        return GPU_ERR_ARG;
    }
    p.d = calloc(1, sizeof *p.d);
    if (!p.d) {
        gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
        return GPU_ERR_HOST_NOMEM;
    }
    p.d->bytes = len;
    p.scap = 256; /* never NULL: p.stack + 0 must be a pointer */
    p.stack = malloc(p.scap * sizeof *p.stack);
    gpu_status st = p.stack ? GPU_OK : oom(&p);
    bool stop = false;
    size_t reported = 0;
    for (unsigned k = 0; st == GPU_OK && !stop; k++) {
        if (k == CHECK_EVERY) {
            k = 0;
            if (gpu_cancelled(p.cancel)) {
                p.op_at = p.pos;
                fail(&p, "%s", gpu_status_str(GPU_ERR_CANCELLED));
                st = GPU_ERR_CANCELLED;
                break;
            }
            if (p.consumed && p.pos - reported >= CONSUMED_EVERY) p.consumed(p.ud, reported = p.pos);
        }
        if (p.pos >= p.len) {
            p.op_at = p.len;
            st = len ? fail(&p, "truncated: the pickle ends before its STOP opcode")
                     : fail(&p, "empty file: not a pickle");
            break;
        }
        st = step(&p, &stop);
    }
    free(p.stack);
    free(p.marks);
    free(p.memo);
    gpu_u64map_free(&p.sparse);
    gpu_u64map_free(&p.shared);
    free(p.tmp);
    if (st == GPU_ERR_ARG && len && p.buf[0] != 0x80 && p.op_at < 64 && err) {
        /* most likely some other file: say so rather than leave only an opcode's name */
        size_t k = strlen(err);
        snprintf(err + k, n > k ? n - k : 0, " (snapshots are pickles of protocol 2 or later, "
                 "which start with byte 0x80; this file does not)");
    }
    if (st != GPU_OK) {
        gpu_pk_free(p.d);
        return st;
    }
    *out = p.d;
    return GPU_OK;
}

/* ---- access ------------------------------------------------------------------------------- */

const struct gpu_pk *gpu_pk_root(const struct gpu_pk_doc *d) { return d ? &d->root : NULL; }
size_t gpu_pk_file_bytes(const struct gpu_pk_doc *d) { return d ? d->bytes : 0; }
int gpu_pk_protocol(const struct gpu_pk_doc *d) { return d ? d->proto : 0; }

enum gpu_pk_type gpu_pk_type(const struct gpu_pk *v)
{
    if (!v) return GPU_PK_NONE;
    switch (tag(*v)) {
    case TAG_INT: return GPU_PK_INT;
    case TAG_STR: return GPU_PK_STR;
    case TAG_SEQ: return (enum gpu_pk_type)seq(*v)->type;
    case TAG_BOX: return (enum gpu_pk_type)((const struct pk_box *)ptr(*v))->type;
    default: return v->w == IMM_NONE ? GPU_PK_NONE : GPU_PK_BOOL;
    }
}

const char *gpu_pk_type_name(const struct gpu_pk *v)
{
    static const char *const t[] = {"None", "bool",  "int",   "int",  "float", "str",
                                    "bytes", "list", "tuple", "set", "dict"};
    return v ? t[gpu_pk_type(v)] : "nothing";
}

bool gpu_pk_int(const struct gpu_pk *v, int64_t *out)
{
    if (!v) return false;
    if (tag(*v) == TAG_INT) {
        *out = (int64_t)v->w >> 3; /* arithmetic shift: what gcc and clang do */
        return true;
    }
    if (tag(*v) != TAG_BOX || ((const struct pk_box *)ptr(*v))->type != GPU_PK_INT) return false;
    *out = ((const struct pk_box *)ptr(*v))->u.i;
    return true;
}

bool gpu_pk_bool(const struct gpu_pk *v, bool *out)
{
    if (!v || (v->w != IMM_TRUE && v->w != IMM_FALSE)) return false;
    *out = v->w == IMM_TRUE;
    return true;
}

bool gpu_pk_float(const struct gpu_pk *v, double *out)
{
    if (!v || tag(*v) != TAG_BOX || ((const struct pk_box *)ptr(*v))->type != GPU_PK_FLOAT)
        return false;
    *out = ((const struct pk_box *)ptr(*v))->u.f;
    return true;
}

const char *gpu_pk_str(const struct gpu_pk *v, size_t *len)
{
    if (!v || tag(*v) != TAG_STR) return NULL;
    const struct pk_str *s = ptr(*v);
    if (len) *len = s->n;
    return s->s;
}

const char *gpu_pk_bytes(const struct gpu_pk *v, size_t *len)
{
    if (!v || tag(*v) != TAG_BOX) return NULL;
    const struct pk_box *b = ptr(*v);
    if (b->type != GPU_PK_BYTES && b->type != GPU_PK_BIGINT) return NULL;
    if (len) *len = b->n;
    return b->u.s;
}

bool gpu_pk_is_str(const struct gpu_pk *v, const char *s)
{
    size_t n;
    const char *t = gpu_pk_str(v, &n);
    return t && strlen(s) == n && !memcmp(t, s, n);
}

size_t gpu_pk_len(const struct gpu_pk *v)
{
    if (!v || !is_container(*v)) return 0;
    return seq(*v)->type == GPU_PK_DICT ? seq(*v)->n / 2 : seq(*v)->n;
}

const struct gpu_pk *gpu_pk_at(const struct gpu_pk *v, size_t i)
{
    if (i >= gpu_pk_len(v)) return NULL;
    return &seq(*v)->items[seq(*v)->type == GPU_PK_DICT ? 2 * i : i];
}

const struct gpu_pk *gpu_pk_dict_value(const struct gpu_pk *v, size_t i)
{
    if (gpu_pk_type(v) != GPU_PK_DICT || i >= gpu_pk_len(v)) return NULL;
    return &seq(*v)->items[2 * i + 1];
}

const void *gpu_pk_identity(const struct gpu_pk *v)
{
    return v && (is_container(*v) || tag(*v) == TAG_STR || tag(*v) == TAG_BOX) ? ptr(*v) : NULL;
}

const void *gpu_pk_items_id(const struct gpu_pk *v)
{
    return v && is_container(*v) && seq(*v)->n ? (const void *)seq(*v)->items : gpu_pk_identity(v);
}

const char *gpu_pk_intern(const struct gpu_pk_doc *d, const char *s)
{
    if (!d || !s) return NULL;
    size_t n = strlen(s);
    if (n > INTERN_MAX) return NULL;
    uint32_t id = gpu_strtab_find(&d->names, s, n);
    return id != GPU_STRTAB_NONE && id < d->icap && d->istr[id] ? d->istr[id]->s : NULL;
}

const struct gpu_pk *gpu_pk_get(const struct gpu_pk *dict, const char *interned)
{
    if (!dict || !interned || !is_container(*dict) || seq(*dict)->type != GPU_PK_DICT) return NULL;
    /* the key's word: an interned string is one arena object, so equal words = equal keys */
    uint64_t want = (uint64_t)(uintptr_t)(interned - offsetof(struct pk_str, s)) | TAG_STR;
    const struct gpu_pk *it = seq(*dict)->items;
    for (size_t i = seq(*dict)->n; i >= 2; i -= 2)
        if (it[i - 2].w == want) return &it[i - 1];
    return NULL;
}
