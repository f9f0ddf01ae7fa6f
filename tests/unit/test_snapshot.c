/* test_snapshot.c - the pickle reader and PyTorch memory snapshots: every opcode class, the
 * opcodes that import or call refused by name at their offset, truncation at every offset
 * of a real snapshot pickle (a clear error, never a crash), the size limits, big ints, the
 * memo, self-reference refused; a hand-built snapshot's summary (states, fragmentation, the
 * peak and what was live at it, the pre-trace blocks, OOMs, the older 'history' format); the
 * what-if replay with and without expandable segments, and from a trace that began after
 * allocations existed. The pickles are written byte by byte here (no Python needed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_pickle.h"
#include "gpu_snap_replay.h"
#include "gpu_snap_summary.h"
#include "gpu_snap_walk.h"
#include "gpu_snapshot.h"
#include "snap_pickle.h"


static struct gpu_pk_doc *parse_ok(const struct pb *p)
{
    struct gpu_pk_doc *d = NULL;
    char err[512];
    gpu_status st = gpu_pk_parse(p->b, p->n, NULL, &d, err, sizeof err);
    if (st != GPU_OK) fprintf(stderr, "parse: %s\n", err);
    assert_int_equal(st, GPU_OK);
    return d;
}

static void parse_fails(const void *b, size_t n, const struct gpu_pk_limits *lim, const char *want)
{
    struct gpu_pk_doc *d = (void *)1;
    char err[512] = "";
    assert_int_not_equal(gpu_pk_parse(b, n, lim, &d, err, sizeof err), GPU_OK);
    assert_null(d);
    if (!strstr(err, want)) fprintf(stderr, "got '%s', want '%s'\n", err, want);
    assert_non_null(strstr(err, want));
}

static int64_t as_int(const struct gpu_pk *v)
{
    int64_t i = 0;
    assert_true(gpu_pk_int(v, &i));
    return i;
}

/* ---- opcodes ------------------------------------------------------------------------------ */

static void test_pickle_scalars(void **state)
{
    (void)state;
    struct pb p = {0};
    begin(&p);
    op(&p, '(');
    num(&p, 7);                                      /* BININT1 */
    num(&p, 60000);                                  /* BININT2 */
    num(&p, -5);                                     /* BININT, negative */
    num(&p, 0x7f3a00000000ll);                       /* LONG1, 8 bytes */
    op(&p, 0x8a), op(&p, 0);                         /* LONG1 of 0 bytes: 0 */
    op(&p, 0x8a), op(&p, 2), op(&p, 0xff), op(&p, 0x7f); /* 32767 */
    op(&p, 0x8a), op(&p, 1), op(&p, 0x80);           /* -128 */
    op(&p, 0x8b), le_n(&p, 3, 4), op(&p, 1), op(&p, 0), op(&p, 0x80); /* LONG4: -8388607 */
    ops(&p, "I-42\n");                               /* INT (protocol 0) */
    ops(&p, "I01\n");                                /* INT: True */
    ops(&p, "L123456789012L\n");                     /* LONG */
    op(&p, 'G'), raw(&p, "\x40\x09\x21\xfb\x54\x44\x2d\x18", 8); /* BINFLOAT pi */
    ops(&p, "F2.5\n");
    op(&p, 0x88), op(&p, 0x89), op(&p, 'N');
    op(&p, 't');
    stop(&p);
    struct gpu_pk_doc *d = parse_ok(&p);
    const struct gpu_pk *t = gpu_pk_root(d);
    assert_int_equal(gpu_pk_type(t), GPU_PK_TUPLE);
    assert_int_equal(gpu_pk_len(t), 16);
    assert_int_equal(as_int(gpu_pk_at(t, 0)), 7);
    assert_int_equal(as_int(gpu_pk_at(t, 1)), 60000);
    assert_int_equal(as_int(gpu_pk_at(t, 2)), -5);
    assert_int_equal(as_int(gpu_pk_at(t, 3)), 0x7f3a00000000ll);
    assert_int_equal(as_int(gpu_pk_at(t, 4)), 0);
    assert_int_equal(as_int(gpu_pk_at(t, 5)), 32767);
    assert_int_equal(as_int(gpu_pk_at(t, 6)), -128);
    assert_int_equal(as_int(gpu_pk_at(t, 7)), -8388607);
    assert_int_equal(as_int(gpu_pk_at(t, 8)), -42);
    bool b = false;
    assert_true(gpu_pk_bool(gpu_pk_at(t, 9), &b) && b);
    assert_int_equal(as_int(gpu_pk_at(t, 10)), 123456789012ll);
    double f = 0;
    assert_true(gpu_pk_float(gpu_pk_at(t, 11), &f));
    assert_true(f > 3.14159 && f < 3.1416);
    assert_true(gpu_pk_float(gpu_pk_at(t, 12), &f) && f == 2.5);
    assert_true(gpu_pk_bool(gpu_pk_at(t, 13), &b) && b);
    assert_true(gpu_pk_bool(gpu_pk_at(t, 14), &b) && !b);
    assert_int_equal(gpu_pk_type(gpu_pk_at(t, 15)), GPU_PK_NONE);
    assert_false(gpu_pk_int(gpu_pk_at(t, 13), &(int64_t){0})); /* a bool is not an int */
    gpu_pk_free(d);
}

/* Protocol 0 INT is read as CPython's C unpickler reads it: strtol(text, 0), so a leading 0
 * means octal, two characters that read 0 or 1 are a bool; LONG is Python's int(text, 0). */
static void test_pickle_int_text(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int kind; /* 0 int, 1 bool, 2 refused */
        int64_t v;
    } c[] = {{"I0512\n.", 0, 330}, {"I0x1f\n.", 0, 31},   {"I 12\n.", 0, 12},
             {"I1_000\n.", 0, 1000}, {"I0b101\n.", 0, 5},  {"I-0\n.", 1, 0},
             {"I01\n.", 1, 1},       {"I000\n.", 0, 0},    {"I1\n.", 0, 1},
             {"L0x_ffL\n.", 0, 255}, {"L0512L\n.", 2, 0},  {"L1__0L\n.", 2, 0},
             {"I12a\n.", 2, 0}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        struct gpu_pk_doc *d = NULL;
        char err[256];
        gpu_status st = gpu_pk_parse(c[i].text, strlen(c[i].text), NULL, &d, err, sizeof err);
        if (c[i].kind == 2) {
            assert_int_not_equal(st, GPU_OK);
            assert_non_null(strstr(err, "not a whole number"));
            continue;
        }
        assert_int_equal(st, GPU_OK);
        int64_t v = -1;
        bool b = false;
        if (c[i].kind == 1) assert_true(gpu_pk_bool(gpu_pk_root(d), &b) && b == (c[i].v != 0));
        else assert_true(gpu_pk_int(gpu_pk_root(d), &v) && v == c[i].v);
        gpu_pk_free(d);
    }
}

static void test_pickle_big_ints(void **state)
{
    (void)state;
    struct pb p = {0};
    begin(&p);
    op(&p, '(');
    /* 2^63: 9 bytes, not an int64 */
    op(&p, 0x8a), op(&p, 9), le_n(&p, 0, 7), op(&p, 0x80), op(&p, 0);
    /* -2^63: fits */
    op(&p, 0x8a), op(&p, 8), le_n(&p, 0, 7), op(&p, 0x80);
    /* 100 written with redundant sign bytes: still 100 */
    op(&p, 0x8a), op(&p, 12), op(&p, 100), le_n(&p, 0, 11);
    /* -1 in 16 bytes */
    op(&p, 0x8a), op(&p, 16), le_n(&p, ~0ull, 8), le_n(&p, ~0ull, 8);
    /* 2^60 and -2^60 - 1: past the inline range, still ints */
    num(&p, 1ll << 60);
    num(&p, -(1ll << 60) - 1);
    ops(&p, "L99999999999999999999999\n"); /* text, too wide */
    ops(&p, "I-9223372036854775808\n");
    op(&p, 'l');
    stop(&p);
    struct gpu_pk_doc *d = parse_ok(&p);
    const struct gpu_pk *l = gpu_pk_root(d);
    assert_int_equal(gpu_pk_len(l), 8);
    int64_t i;
    size_t n;
    assert_int_equal(gpu_pk_type(gpu_pk_at(l, 0)), GPU_PK_BIGINT);
    assert_false(gpu_pk_int(gpu_pk_at(l, 0), &i));
    assert_non_null(gpu_pk_bytes(gpu_pk_at(l, 0), &n));
    assert_int_equal(n, 9);
    assert_int_equal(as_int(gpu_pk_at(l, 1)), INT64_MIN);
    assert_int_equal(as_int(gpu_pk_at(l, 2)), 100);
    assert_int_equal(as_int(gpu_pk_at(l, 3)), -1);
    assert_int_equal(as_int(gpu_pk_at(l, 4)), 1ll << 60);
    assert_int_equal(as_int(gpu_pk_at(l, 5)), -(1ll << 60) - 1);
    assert_int_equal(gpu_pk_type(gpu_pk_at(l, 6)), GPU_PK_BIGINT);
    assert_string_equal(gpu_pk_bytes(gpu_pk_at(l, 6), &n), "99999999999999999999999");
    assert_int_equal(as_int(gpu_pk_at(l, 7)), INT64_MIN);
    assert_string_equal(gpu_pk_type_name(gpu_pk_at(l, 6)), "int");
    gpu_pk_free(d);
}

static void test_pickle_strings(void **state)
{
    (void)state;
    struct pb p = {0};
    begin(&p);
    op(&p, '(');
    str(&p, "segments");
    char long_s[300];
    memset(long_s, 'x', sizeof long_s - 1);
    long_s[sizeof long_s - 1] = 0;
    str(&p, long_s);                                        /* BINUNICODE */
    op(&p, 0x8d), le_n(&p, 3, 8), raw(&p, "\xe4\xb8\xad", 3); /* BINUNICODE8: one CJK char */
    ops(&p, "Vcaf\\u00e9 \\U0001F600\n");                   /* UNICODE raw-unicode-escape */
    ops(&p, "S'a\\'b\\n\\x41\\101'\n");                     /* STRING */
    op(&p, 'U'), op(&p, 2), raw(&p, "hi", 2);               /* SHORT_BINSTRING */
    op(&p, 'T'), le_n(&p, 2, 4), raw(&p, "yo", 2);          /* BINSTRING */
    op(&p, 'C'), op(&p, 3), raw(&p, "a\0b", 3);             /* SHORT_BINBYTES with a NUL */
    op(&p, 'B'), le_n(&p, 1, 4), raw(&p, "z", 1);           /* BINBYTES */
    op(&p, 0x8e), le_n(&p, 2, 8), raw(&p, "ok", 2);         /* BINBYTES8 */
    op(&p, 0x96), le_n(&p, 1, 8), raw(&p, "q", 1);          /* BYTEARRAY8 */
    op(&p, 0x8c), op(&p, 3), raw(&p, "\xed\xa0\x80", 3);    /* a lone surrogate */
    op(&p, 'l');
    stop(&p);
    struct gpu_pk_doc *d = parse_ok(&p);
    const struct gpu_pk *l = gpu_pk_root(d);
    size_t n;
    assert_string_equal(gpu_pk_str(gpu_pk_at(l, 0), &n), "segments");
    assert_int_equal(strlen(gpu_pk_str(gpu_pk_at(l, 1), &n)), 299);
    assert_string_equal(gpu_pk_str(gpu_pk_at(l, 2), &n), "\xe4\xb8\xad");
    assert_string_equal(gpu_pk_str(gpu_pk_at(l, 3), &n), "caf\xc3\xa9 \xf0\x9f\x98\x80");
    assert_string_equal(gpu_pk_str(gpu_pk_at(l, 4), &n), "a'b\nAA");
    assert_string_equal(gpu_pk_str(gpu_pk_at(l, 5), &n), "hi");
    assert_string_equal(gpu_pk_str(gpu_pk_at(l, 6), &n), "yo");
    const char *b = gpu_pk_bytes(gpu_pk_at(l, 7), &n);
    assert_int_equal(n, 3);
    assert_memory_equal(b, "a\0b", 3);
    assert_int_equal(gpu_pk_type(gpu_pk_at(l, 10)), GPU_PK_BYTES);
    assert_int_equal(gpu_pk_type(gpu_pk_at(l, 11)), GPU_PK_STR);
    /* short strings are interned: the key is found by pointer */
    assert_ptr_equal(gpu_pk_intern(d, "segments"), gpu_pk_str(gpu_pk_at(l, 0), NULL));
    assert_null(gpu_pk_intern(d, "not there"));
    gpu_pk_free(d);

    parse_fails("\x80\x04\x8c\x02\xc3\x28.", 7, NULL, "offset 2: invalid UTF-8 in SHORT_BINUNICODE");
    parse_fails("\x80\x02U\x01\xe9.", 6, NULL, "offset 2: non-ASCII byte in SHORT_BINSTRING");
    parse_fails("\x80\x02Sabc\n.", 8, NULL, "offset 2: the STRING opcode argument must be quoted");
}

static void test_pickle_containers(void **state)
{
    (void)state;
    struct pb p = {0};
    begin(&p);
    dict_begin(&p);
    str(&p, "list");
    op(&p, ']'), num(&p, 1), op(&p, 'a'), op(&p, '('), num(&p, 2), num(&p, 3), op(&p, 'e');
    str(&p, "t0"), op(&p, ')');
    str(&p, "t1"), num(&p, 1), op(&p, 0x85);
    str(&p, "t2"), num(&p, 1), num(&p, 2), op(&p, 0x86);
    str(&p, "t3"), num(&p, 1), num(&p, 2), num(&p, 3), op(&p, 0x87);
    str(&p, "set"), op(&p, 0x8f), op(&p, '('), num(&p, 5), num(&p, 6), op(&p, 0x90);
    str(&p, "frozen"), op(&p, '('), num(&p, 7), op(&p, 0x91);
    str(&p, "d0"), op(&p, '('), str(&p, "k"), num(&p, 1), op(&p, 'd');
    str(&p, "l0"), op(&p, '('), num(&p, 9), op(&p, 'l');
    str(&p, "dup"), num(&p, 1);
    str(&p, "dup"), num(&p, 2); /* the last one wins, as in Python */
    dict_end(&p);
    str(&p, "late"), num(&p, 4), op(&p, 's'); /* SETITEM */
    op(&p, '2'), op(&p, '0');                 /* DUP, POP */
    op(&p, '('), num(&p, 1), num(&p, 2), op(&p, '1'); /* POP_MARK */
    stop(&p);
    struct gpu_pk_doc *d = parse_ok(&p);
    const struct gpu_pk *r = gpu_pk_root(d);
    assert_int_equal(gpu_pk_type(r), GPU_PK_DICT);
    const struct gpu_pk *l = gpu_pk_get(r, gpu_pk_intern(d, "list"));
    assert_int_equal(gpu_pk_len(l), 3);
    assert_int_equal(as_int(gpu_pk_at(l, 2)), 3);
    assert_int_equal(gpu_pk_len(gpu_pk_get(r, gpu_pk_intern(d, "t0"))), 0);
    assert_int_equal(gpu_pk_len(gpu_pk_get(r, gpu_pk_intern(d, "t3"))), 3);
    assert_int_equal(gpu_pk_type(gpu_pk_get(r, gpu_pk_intern(d, "set"))), GPU_PK_SET);
    assert_int_equal(gpu_pk_len(gpu_pk_get(r, gpu_pk_intern(d, "set"))), 2);
    assert_int_equal(gpu_pk_len(gpu_pk_get(r, gpu_pk_intern(d, "frozen"))), 1);
    const struct gpu_pk *d0 = gpu_pk_get(r, gpu_pk_intern(d, "d0"));
    assert_int_equal(as_int(gpu_pk_get(d0, gpu_pk_intern(d, "k"))), 1);
    assert_int_equal(as_int(gpu_pk_get(r, gpu_pk_intern(d, "dup"))), 2);
    assert_int_equal(as_int(gpu_pk_get(r, gpu_pk_intern(d, "late"))), 4);
    assert_string_equal(gpu_pk_str(gpu_pk_at(r, 0), NULL), "list");
    assert_int_equal(gpu_pk_len(r), 12);
    gpu_pk_free(d);

#define PF(lit, want) parse_fails(lit, sizeof lit - 1, NULL, want)
    PF("\x80\x02}K\x01" "s.", "offset 5: stack underflow in SETITEM");
    PF("\x80\x02}(K\x01" "u.", "offset 6: odd number of items for SETITEMS");
    PF("\x80\x02}K\x01" "a.", "offset 5: APPEND into a dict (only a list takes it)");
    PF("\x80\x02}(]K\x01" "u.", "offset 7: SETITEMS: a list cannot be a dict key");
    PF("\x80\x02" "e.", "offset 2: APPENDS without a MARK before it");
    PF("\x80\x02.", "offset 2: stack underflow in STOP");
#undef PF
}

static void test_pickle_memo(void **state)
{
    (void)state;
    struct pb p = {0};
    begin(&p);
    op(&p, ']'), op(&p, 0x94);                /* MEMOIZE -> 0 */
    str(&p, "x"), op(&p, 'q'), op(&p, 5);     /* BINPUT 5 */
    op(&p, 0x94);                             /* MEMOIZE -> 2: len(memo), not 6 */
    op(&p, 'r'), le_n(&p, 70000, 4);          /* LONG_BINPUT */
    op(&p, '0');
    op(&p, 'h'), op(&p, 2);                   /* BINGET 2 */
    op(&p, 'j'), le_n(&p, 70000, 4);          /* LONG_BINGET */
    ops(&p, "p9\n0g9\n");                     /* PUT/GET text */
    op(&p, 'h'), op(&p, 0);                   /* the list again */
    op(&p, 'h'), op(&p, 0);
    op(&p, 0x86);
    op(&p, 0x87);                             /* (list, "x", "x", ...) needs 3: take last 3 */
    op(&p, 0x86);
    stop(&p);
    struct gpu_pk_doc *d = parse_ok(&p);
    const struct gpu_pk *t = gpu_pk_root(d);
    assert_int_equal(gpu_pk_type(t), GPU_PK_TUPLE);
    /* the list under two references is one container */
    const struct gpu_pk *inner = gpu_pk_at(t, 1);
    assert_int_equal(gpu_pk_len(inner), 3);
    const struct gpu_pk *pair = gpu_pk_at(inner, 2);
    assert_ptr_equal(gpu_pk_identity(gpu_pk_at(pair, 0)), gpu_pk_identity(gpu_pk_at(pair, 1)));
    assert_ptr_equal(gpu_pk_identity(gpu_pk_at(t, 0)), gpu_pk_identity(gpu_pk_at(pair, 0)));
    gpu_pk_free(d);

    parse_fails("\x80\x02h\x03.", 5, NULL, "offset 2: BINGET of memo 3, which was never stored");
    /* a list put inside itself, directly or through another */
    parse_fails("\x80\x02]\x94h\x00" "a.", 8, NULL, "APPEND puts a container inside itself");
    parse_fails("\x80\x02]\x94]\x94h\x00" "aa.", 11, NULL,
                "APPEND changes a container already nested in another");
}

static void test_pickle_refused(void **state)
{
    (void)state;
    static const struct {
        unsigned char op;
        const char *name;
    } r[] = {{'c', "GLOBAL"},   {0x93, "STACK_GLOBAL"},  {'R', "REDUCE"},      {'b', "BUILD"},
             {'i', "INST"},     {'o', "OBJ"},            {0x81, "NEWOBJ"},     {0x92, "NEWOBJ_EX"},
             {0x82, "EXT1"},    {0x83, "EXT2"},          {0x84, "EXT4"},       {'P', "PERSID"},
             {'Q', "BINPERSID"}, {0x97, "NEXT_BUFFER"},  {0x98, "READONLY_BUFFER"}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        /* after a valid start, so the offset is not 0 */
        unsigned char b[] = {0x80, 0x04, ']', r[i].op, 'o', 's', '\n', 's', 'y', 's', '\n', '.'};
        char want[128];
        snprintf(want, sizeof want, "offset 3: opcode %s is not allowed in a memory snapshot",
                 r[i].name);
        parse_fails(b, sizeof b, NULL, want);
    }
    /* the classic exploit: os.system via GLOBAL + REDUCE */
    const char evil[] = "cos\nsystem\n(S'echo pwned'\ntR.";
    parse_fails(evil, sizeof evil - 1, NULL, "offset 0: opcode GLOBAL is not allowed");
    parse_fails("\x80\x02\xff.", 4, NULL, "offset 2: unknown opcode 0xff: not a pickle");
    parse_fails("\x80\x09.", 3, NULL, "offset 0: unsupported pickle protocol 9");
    parse_fails("", 0, NULL, "offset 0: empty file");
}

/* a small but real snapshot pickle */
static void small_snapshot(struct pb *p)
{
    begin(p);
    op(p, 0x95), le_n(p, 0, 8); /* a FRAME opcode, as protocol 4 writes */
    dict_begin(p);
    str(p, "segments");
    list_begin(p);
    dict_begin(p);
    kv_num(p, "device", 0), kv_num(p, "address", 0x7f0000000000ll), kv_num(p, "total_size", 2 * MiB);
    kv_str(p, "segment_type", "small");
    str(p, "blocks");
    list_begin(p);
    dict_begin(p);
    kv_num(p, "address", 0x7f0000000000ll), kv_num(p, "size", 512), kv_num(p, "requested_size", 100);
    kv_str(p, "state", "active_allocated");
    str(p, "frames"), list_begin(p);
    dict_begin(p), kv_str(p, "filename", "/u/a.py"), kv_num(p, "line", 3), kv_str(p, "name", "f");
    dict_end(p), list_end(p);
    dict_end(p);
    dict_begin(p);
    kv_num(p, "size", 2 * MiB - 512), kv_str(p, "state", "inactive");
    dict_end(p);
    list_end(p);
    dict_end(p);
    list_end(p);
    str(p, "device_traces");
    list_begin(p);
    list_begin(p);
    dict_begin(p);
    kv_str(p, "action", "segment_alloc"), kv_num(p, "addr", 0x7f0000000000ll), kv_num(p, "size", 2 * MiB);
    kv_num(p, "stream", 0), kv_num(p, "time_us", 1700000000000000ll);
    dict_end(p);
    dict_begin(p);
    kv_str(p, "action", "alloc"), kv_num(p, "addr", 0x7f0000000000ll), kv_num(p, "size", 100);
    kv_num(p, "stream", 0), kv_num(p, "time_us", 1700000000000010ll);
    dict_end(p);
    list_end(p);
    list_end(p);
    dict_end(p);
    stop(p);
}

static void test_pickle_truncated_everywhere(void **state)
{
    (void)state;
    struct pb p = {0};
    small_snapshot(&p);
    struct gpu_pk_doc *d = parse_ok(&p);
    gpu_pk_free(d);
    for (size_t n = 0; n < p.n; n++) {
        char err[512] = "";
        d = (void *)1;
        assert_int_not_equal(gpu_pk_parse(p.b, n, NULL, &d, err, sizeof err), GPU_OK);
        assert_null(d);
        unsigned long off = 0;
        assert_int_equal(sscanf(err, "offset %lu:", &off), 1);
        assert_true(off <= n);
        if (n) assert_non_null(strstr(err, "truncated"));
        else assert_non_null(strstr(err, "empty file"));
    }
    /* the FRAME opcode's length past the end is truncation too */
    parse_fails("\x80\x04\x95\xff\x00\x00\x00\x00\x00\x00\x00N.", 13, NULL,
                "offset 2: truncated in FRAME");
    parse_fails("\x80\x04X\x10\x00\x00\x00" "ab", 9, NULL, "offset 2: truncated in BINUNICODE");
    /* an opcode lies wholly inside its FRAME, as pickle's own reader requires */
    parse_fails("\x80\x04\x95\x03\x00\x00\x00\x00\x00\x00\x00" "NNK\x05.", 16, NULL,
                "offset 13: BININT1 runs past the end of its FRAME (at offset 14)");
    parse_fails("\x80\x04\x95\x02\x00\x00\x00\x00\x00\x00\x00" "\x95N", 13, NULL,
                "offset 11: a FRAME begins before the current one ends");
    parse_fails("\x80\x04K", 3, NULL, "offset 2: truncated in BININT1");
}

static void test_pickle_limits(void **state)
{
    (void)state;
    struct pb p = {0};
    small_snapshot(&p);
    struct gpu_pk_limits l = {.max_file = 10};
    parse_fails(p.b, p.n, &l, "larger than the limit for a snapshot");
    l = (struct gpu_pk_limits){.max_objects = 20};
    parse_fails(p.b, p.n, &l, "more than 20 values: larger than the limit for a snapshot");
    l = (struct gpu_pk_limits){.max_string = 4};
    parse_fails(p.b, p.n, &l, "a str of 8 bytes is longer than the limit (4)");
    l = (struct gpu_pk_limits){.max_depth = 3};
    parse_fails(p.b, p.n, &l, "deeper than the limit for a snapshot");
    /* nesting: [[[[...]]]] 100 deep is refused at the default limit of 64 */
    struct pb q = {0};
    begin(&q);
    for (int i = 0; i < 100; i++) op(&q, ']');
    for (int i = 0; i < 99; i++) op(&q, 'a');
    stop(&q);
    parse_fails(q.b, q.n, NULL, "containers nested more than 64 deep");
    /* and 100 open MARKs */
    struct pb m = {0};
    begin(&m);
    for (int i = 0; i < 100; i++) op(&m, '(');
    parse_fails(m.b, m.n, NULL, "more than 64 MARKs open");
    /* a memo index far beyond what the document could hold */
    parse_fails("\x80\x04Nr\xff\xff\xff\x7f.", 9, NULL, "memo index 2147483647 is larger");
    /* nine bytes naming index 2^28 - 1: accepted as Python accepts it, without a table that size
     * (the memo is a map past the values made; under a 64 MiB address space cap this would
     * fail if it were a table of 2 GiB) */
    struct gpu_pk_doc *d = NULL;
    char err[256];
    assert_int_equal(gpu_pk_parse("\x80\x04}r\xff\xff\xff\x0f.", 9, NULL, &d, err, sizeof err), GPU_OK);
    assert_int_equal(gpu_pk_type(gpu_pk_root(d)), GPU_PK_DICT);
    gpu_pk_free(d);
}

/* ---- snapshots ------------------------------------------------------------------------------ */

static struct gpu_snapshot *snap_of(const struct pb *p)
{
    struct gpu_snapshot *s = NULL;
    char err[512];
    gpu_status st = gpu_snapshot_from_doc(parse_ok(p), NULL, &s, err, sizeof err);
    if (st != GPU_OK) fprintf(stderr, "snapshot: %s\n", err);
    assert_int_equal(st, GPU_OK);
    return s;
}

static void snap_fails(const struct pb *p, const char *want)
{
    struct gpu_snapshot *s = (void *)1;
    char err[512] = "";
    assert_int_not_equal(gpu_snapshot_from_doc(parse_ok(p), NULL, &s, err, sizeof err), GPU_OK);
    assert_null(s);
    if (!strstr(err, want)) fprintf(stderr, "got '%s', want '%s'\n", err, want);
    assert_non_null(strstr(err, want));
}

/* The hand-built snapshot of test_snapshot_summary (numbers worked out there). */
static void summary_snapshot(struct pb *p)
{
    begin(p);
    dict_begin(p);
    str(p, "segments");
    list_begin(p);
    dict_begin(p); /* A: 20 MiB, large */
    kv_num(p, "device", 0), kv_num(p, "address", 0x1000000), kv_num(p, "total_size", 20 * MiB);
    kv_str(p, "segment_type", "large"), str(p, "blocks"), list_begin(p);
    block(p, 4 * MiB, 4000000, "active_allocated", "/home/u/model.py");
    block(p, 2 * MiB, 2000000, "active_pending_free", "/home/u/model.py");
    block(p, 14 * MiB, 0, "inactive", NULL);
    list_end(p), dict_end(p);
    dict_begin(p); /* B: 2 MiB, small, all free */
    kv_num(p, "device", 0), kv_num(p, "address", 0x4000000), kv_num(p, "total_size", 2 * MiB);
    kv_str(p, "segment_type", "small"), str(p, "blocks"), list_begin(p);
    block(p, 2 * MiB, 0, "inactive", NULL);
    list_end(p), dict_end(p);
    list_end(p);
    str(p, "device_traces");
    list_begin(p), list_begin(p);
    event(p, "free_completed", 0x9000000, 1000, 0, 1000, NULL); /* allocated before the trace */
    event(p, "segment_alloc", 0x1000000, 20 * MiB, 0, 1010, NULL);
    event(p, "alloc", 0x1000000, 4000000, 0, 1020, "/home/u/model.py");
    event(p, "alloc", 0x1400000, 2000000, 0, 1030, "/home/u/model.py");
    event(p, "alloc", 0x1600000, 5000000, 7, 1040, NULL);
    event(p, "free_requested", 0x1600000, 5000000, 7, 1050, NULL);
    event(p, "free_completed", 0x1600000, 5000000, 7, 1060, NULL);
    event(p, "free_requested", 0x1400000, 2000000, 0, -1, NULL); /* no time */
    event(p, "oom", 123, 32 * MiB, 0, 1080, "/home/u/train.py");
    event(p, "segment_alloc", 0x4000000, 2 * MiB, 0, 1090, NULL);
    event(p, "snapshot", 0, 6 * MiB, 0, 1100, NULL);
    list_end(p), list_end(p);
    str(p, "allocator_settings");
    dict_begin(p);
    kv_str(p, "PYTORCH_CUDA_ALLOC_CONF", "max_split_size_mb:64");
    kv_num(p, "max_split_size", 64 * MiB);
    str(p, "expandable_segments"), op(p, 0x89);
    str(p, "roundup_power2_divisions"), dict_begin(p), kv_num(p, "1", 0), kv_num(p, "2", 0);
    dict_end(p);
    dict_end(p);
    dict_end(p);
    stop(p);
}

static void test_snapshot_summary(void **state)
{
    (void)state;
    struct pb p = {0};
    summary_snapshot(&p);
    struct gpu_snapshot *s = snap_of(&p);
    const struct gpu_snap_settings *set = gpu_snapshot_settings(s);
    assert_true(set->present);
    assert_string_equal(set->conf, "max_split_size_mb:64");
    assert_int_equal(set->max_split_size, 64 * MiB);
    assert_int_equal(set->expandable, 0);
    assert_int_equal(set->nroundup, 2);
    struct gpu_snap_summary sum;
    char err[256];
    assert_int_equal(gpu_snapshot_summarize(s, 10, NULL, &sum, err, sizeof err), GPU_OK);
    assert_int_equal(sum.ndev, 1);
    const struct gpu_snap_device *d = &sum.dev[0];
    assert_int_equal(d->nsegs, 2);
    assert_int_equal(d->nlarge, 1);
    assert_int_equal(d->nsmall, 1);
    assert_int_equal(d->reserved, 22 * MiB);
    assert_int_equal(d->blocks[GPU_SNAP_ACTIVE_ALLOCATED].count, 1);
    assert_int_equal(d->blocks[GPU_SNAP_ACTIVE_ALLOCATED].bytes, 4 * MiB);
    assert_int_equal(d->blocks[GPU_SNAP_ACTIVE_ALLOCATED].requested, 4000000);
    assert_int_equal(d->blocks[GPU_SNAP_ACTIVE_PENDING_FREE].bytes, 2 * MiB);
    assert_int_equal(d->blocks[GPU_SNAP_INACTIVE].count, 2);
    assert_int_equal(d->blocks[GPU_SNAP_INACTIVE].bytes, 16 * MiB);
    /* free 2 MiB in B (nothing live there), 14 MiB beside live blocks in A */
    assert_int_equal(d->releasable, 2 * MiB);
    assert_int_equal(d->non_releasable, 14 * MiB);
    assert_int_equal(d->largest_free, 14 * MiB);
    assert_int_equal(d->events, 11);
    assert_int_equal(d->actions[GPU_SNAP_ALLOC], 3);
    assert_int_equal(d->actions[GPU_SNAP_FREE_REQUESTED], 2);
    assert_int_equal(d->actions[GPU_SNAP_FREE_COMPLETED], 2);
    assert_int_equal(d->actions[GPU_SNAP_SEGMENT_ALLOC], 2);
    assert_int_equal(d->actions[GPU_SNAP_OOM], 1);
    assert_int_equal(d->actions[GPU_SNAP_SNAPSHOT], 1);
    assert_int_equal(d->streams, 2);
    assert_int_equal(d->first_time, 1000);
    assert_int_equal(d->last_time, 1100);
    /* live requested: 1000 before the trace (freed at entry 0), then 4e6, 6e6, 11e6 (the
     * peak, after entry 4), 6e6 after the free; the pending block is still live */
    assert_int_equal(d->start_bytes, 1000);
    assert_int_equal(d->pre_trace_blocks, 1);
    assert_int_equal(d->peak_bytes, 11000000);
    assert_int_equal(d->peak_event, 4);
    assert_int_equal(d->end_bytes, 6000000);
    assert_int_equal(d->snapshot_active_requested, 6000000);
    /* reserved: 22 MiB at the end, two segment_allocs, so 0 before; the peak at entry 9 */
    assert_int_equal(d->reserved_start, 0);
    assert_int_equal(d->reserved_peak, 22 * MiB);
    assert_int_equal(d->reserved_peak_event, 9);
    /* at the peak: two blocks under model.py:10 (the torch, CPython and runpy frames are
     * skipped), one with no frames */
    assert_int_equal(d->ntop, 2);
    assert_string_equal(d->top[0].where, "/home/u/model.py:10");
    assert_string_equal(d->top[0].function, "fwd");
    assert_int_equal(d->top[0].bytes, 6000000);
    assert_int_equal(d->top[0].count, 2);
    assert_string_equal(d->top[1].where, "<no frames recorded>");
    assert_int_equal(d->top[1].bytes, 5000000);
    /* the OOM, with what was live and reserved then */
    assert_int_equal(d->nooms, 1);
    assert_int_equal(d->ooms[0].event, 8);
    assert_int_equal(d->ooms[0].size, 32 * MiB);
    assert_true(d->ooms[0].has_free);
    assert_int_equal(d->ooms[0].device_free, 123);
    assert_int_equal(d->ooms[0].live_requested, 6000000);
    assert_int_equal(d->ooms[0].reserved, 20 * MiB);
    assert_string_equal(d->ooms[0].where.where, "/home/u/train.py:10");
    gpu_snap_summary_free(&sum);
    /* --top 1 keeps the largest group */
    assert_int_equal(gpu_snapshot_summarize(s, 1, NULL, &sum, err, sizeof err), GPU_OK);
    assert_int_equal(sum.dev[0].ntop, 1);
    gpu_snap_summary_free(&sum);
    gpu_snapshot_free(s);
}

static void test_snapshot_shape_errors(void **state)
{
    (void)state;
    struct pb p = {0};
    begin(&p), list_begin(&p), list_end(&p), stop(&p);
    snap_fails(&p, "not a PyTorch memory snapshot (the pickle holds a list, not a dict)");
    p.n = 0;
    begin(&p), dict_begin(&p), kv_num(&p, "device_traces", 1), dict_end(&p), stop(&p);
    snap_fails(&p, "not a PyTorch memory snapshot (no 'segments' key)");
    p.n = 0;
    begin(&p), dict_begin(&p), str(&p, "segments"), list_begin(&p), dict_begin(&p);
    kv_num(&p, "address", 0), kv_num(&p, "total_size", 1), str(&p, "blocks"), list_begin(&p);
    dict_begin(&p), kv_num(&p, "size", 1), kv_str(&p, "state", "weird"), dict_end(&p);
    list_end(&p), dict_end(&p), list_end(&p), dict_end(&p), stop(&p);
    snap_fails(&p, "segments[0].blocks[0].state is not one of");
    p.n = 0;
    begin(&p), dict_begin(&p), str(&p, "segments"), list_begin(&p), list_end(&p);
    str(&p, "device_traces"), list_begin(&p), list_begin(&p), dict_begin(&p);
    kv_str(&p, "action", "alloc"), kv_num(&p, "addr", 1), kv_num(&p, "size", -4);
    dict_end(&p), list_end(&p), list_end(&p), dict_end(&p), stop(&p);
    snap_fails(&p, "device_traces[0][0].size is not a size (a whole number of bytes)");
    /* sizes that cannot be real: past 2^62 bytes in one device */
    p.n = 0;
    begin(&p), dict_begin(&p), str(&p, "segments"), list_begin(&p);
    for (int i = 0; i < 3; i++) {
        dict_begin(&p), kv_num(&p, "address", 0), kv_num(&p, "total_size", 1ll << 61);
        str(&p, "blocks"), list_begin(&p), list_end(&p), dict_end(&p);
    }
    list_end(&p), dict_end(&p), stop(&p);
    snap_fails(&p, "add up past 2^62 bytes");
}

static void test_snapshot_legacy_history(void **state)
{
    (void)state;
    struct pb p = {0};
    begin(&p), dict_begin(&p), str(&p, "segments"), list_begin(&p), dict_begin(&p);
    kv_num(&p, "address", 4096), kv_num(&p, "total_size", 2 * MiB), str(&p, "blocks");
    list_begin(&p);
    dict_begin(&p), kv_num(&p, "size", 1024), kv_str(&p, "state", "active_allocated");
    str(&p, "history"), list_begin(&p), dict_begin(&p), kv_num(&p, "addr", 4096);
    kv_num(&p, "real_size", 1000);
    frames(&p, "/u/old.py", 7);
    dict_end(&p), list_end(&p);
    dict_end(&p);
    list_end(&p), dict_end(&p), list_end(&p), dict_end(&p), stop(&p);
    struct gpu_snapshot *s = snap_of(&p);
    assert_int_equal(gpu_snapshot_legacy_blocks(s), 1);
    assert_false(gpu_snapshot_settings(s)->present);
    assert_int_equal(gpu_snapshot_block(s, 0)->requested, 1000);
    assert_int_equal(gpu_snapshot_block(s, 0)->addr, 4096);
    struct gpu_snap_summary sum;
    char err[256];
    assert_int_equal(gpu_snapshot_summarize(s, 10, NULL, &sum, err, sizeof err), GPU_OK);
    assert_int_equal(sum.dev[0].events, 0);
    assert_int_equal(sum.dev[0].start_bytes, 1000);
    assert_int_equal(sum.dev[0].peak_event, -1); /* no trace: the peak is the state itself */
    assert_string_equal(sum.dev[0].top[0].where, "/u/old.py:7");
    gpu_snap_summary_free(&sum);
    gpu_snapshot_free(s);
}

/* The fragmentation case of docs/allocator.md, as PyTorch records it on a 100 MiB budget:
 * two 40 MiB tensors freed, two 30 MiB tensors reuse their segments (10 MiB left in each),
 * and the third 30 MiB request runs out of memory with 40 MiB free in all. */
static void frag_snapshot(struct pb *p, bool with_prefix)
{
    const int64_t S1 = 0x7f0000000000ll, S2 = S1 + 64 * (int64_t)MiB;
    begin(p), dict_begin(p), str(p, "segments"), list_begin(p);
    for (int i = 0; i < 2; i++) {
        dict_begin(p), kv_num(p, "address", i ? S2 : S1), kv_num(p, "total_size", 40 * MiB);
        kv_str(p, "segment_type", "large"), str(p, "blocks"), list_begin(p);
        block(p, 30 * MiB, 30 * MiB, "active_allocated", NULL);
        block(p, 10 * MiB, 0, "inactive", NULL);
        list_end(p), dict_end(p);
    }
    list_end(p);
    str(p, "device_traces"), list_begin(p), list_begin(p);
    if (with_prefix) {
        event(p, "segment_alloc", S1, 40 * MiB, 0, 1, NULL);
        event(p, "alloc", S1, 40 * MiB, 0, 2, NULL);
        event(p, "segment_alloc", S2, 40 * MiB, 0, 3, NULL);
        event(p, "alloc", S2, 40 * MiB, 0, 4, NULL);
    }
    /* without the prefix, the trace starts with two frees of blocks it never saw allocated */
    event(p, "free_requested", S1, 40 * MiB, 0, 5, NULL);
    event(p, "free_completed", S1, 40 * MiB, 0, 6, NULL);
    event(p, "free_requested", S2, 40 * MiB, 0, 7, NULL);
    event(p, "free_completed", S2, 40 * MiB, 0, 8, NULL);
    event(p, "alloc", S1, 30 * MiB, 0, 9, NULL);
    event(p, "alloc", S2, 30 * MiB, 0, 10, NULL);
    event(p, "oom", 20 * MiB, 30 * MiB, 0, 11, NULL);
    list_end(p), list_end(p);
    str(p, "allocator_settings"), dict_begin(p), kv_str(p, "PYTORCH_CUDA_ALLOC_CONF", "");
    kv_num(p, "max_split_size", -1), str(p, "expandable_segments"), op(p, 0x89), dict_end(p);
    dict_end(p), stop(p);
}

static void test_snapshot_replay(void **state)
{
    (void)state;
    struct pb p = {0};
    frag_snapshot(&p, true);
    struct gpu_snapshot *s = snap_of(&p);
    struct gpu_snap_replay *r = calloc(1, sizeof *r);
    struct gpu_caching_opts exp;
    gpu_caching_opts_default(&exp);
    exp.expandable_segments = true;
    char err[512];
    assert_int_equal(gpu_snapshot_replay(s, 0, 100 * MiB, &exp, NULL, NULL, r, err, sizeof err), GPU_OK);
    assert_false(r->recorded_opts.expandable_segments);
    assert_int_equal(r->recorded_opts.max_split_size, GPU_CACHE_NO_SPLIT_LIMIT);
    /* what PyTorch did */
    assert_int_equal(r->recorded.peak_reserved, 80 * MiB);
    assert_int_equal(r->recorded.device_allocs, 2);
    assert_int_equal(r->recorded.device_frees, 0);
    assert_int_equal(r->recorded.end_segments, 2);
    assert_int_equal(r->recorded.end_non_releasable, 20 * MiB);
    assert_int_equal(r->recorded.ooms, 1);
    assert_int_equal(r->recorded.peak_requested, 80 * MiB);
    /* the model under the recorded options does the same, and cannot serve the refused
     * request either */
    assert_int_equal(r->ndiffs, 0);
    assert_int_equal(r->model_recorded.peak_reserved, 80 * MiB);
    assert_int_equal(r->model_recorded.device_allocs, 2);
    assert_int_equal(r->model_recorded.end_segments, 2);
    assert_int_equal(r->model_recorded.end_non_releasable, 20 * MiB);
    assert_int_equal(r->model_recorded.recorded_ooms_fit, 0);
    assert_int_equal(r->model_recorded.ooms, 0);
    /* with expandable segments the free 10 MiB pieces are unmapped and mapped again at the
     * end, so the third 30 MiB request fits */
    assert_int_equal(r->model_whatif.recorded_ooms_fit, 1);
    assert_int_equal(r->model_whatif.ooms, 0);
    assert_int_equal(r->seeds, 0);
    /* without a capacity nothing is judged */
    assert_int_equal(gpu_snapshot_replay(s, 0, 0, NULL, NULL, NULL, r, err, sizeof err), GPU_OK);
    assert_int_equal(r->model_recorded.recorded_ooms_fit, 0);
    assert_false(r->have_whatif);
    bool noted = false;
    for (size_t i = 0; i < r->nnotes; i++) noted |= r->notes[i].kind == GPU_SNAP_NOTE_NO_CAPACITY;
    assert_true(noted);
    /* a capacity too small for what PyTorch held shows up as a difference */
    assert_int_equal(gpu_snapshot_replay(s, 0, 60 * MiB, NULL, NULL, NULL, r, err, sizeof err), GPU_OK);
    assert_true(r->model_recorded.ooms > 0);
    assert_true(r->ndiffs > 0);
    free(r);
    gpu_snapshot_free(s);
}

static void test_snapshot_replay_pre_trace(void **state)
{
    (void)state;
    struct pb p = {0};
    frag_snapshot(&p, false); /* the ring buffer dropped the first four entries */
    struct gpu_snapshot *s = snap_of(&p);
    struct gpu_snap_summary sum;
    char err[512];
    assert_int_equal(gpu_snapshot_summarize(s, 10, NULL, &sum, err, sizeof err), GPU_OK);
    assert_int_equal(sum.dev[0].pre_trace_blocks, 2);
    assert_int_equal(sum.dev[0].start_bytes, 80 * MiB);
    assert_int_equal(sum.dev[0].peak_event, -1); /* the most was live before the trace */
    assert_int_equal(sum.dev[0].reserved_start, 80 * MiB);
    gpu_snap_summary_free(&sum);
    struct gpu_snap_replay *r = calloc(1, sizeof *r);
    assert_int_equal(gpu_snapshot_replay(s, 0, 100 * MiB, NULL, NULL, NULL, r, err, sizeof err), GPU_OK);
    assert_int_equal(r->seeds, 2);
    assert_int_equal(r->seed_bytes, 80 * MiB);
    /* seeded first, freed at their free_completed entries: the same end state */
    assert_int_equal(r->model_recorded.end_segments, 2);
    assert_int_equal(r->model_recorded.end_reserved, 80 * MiB);
    assert_int_equal(r->model_recorded.peak_requested, 80 * MiB);
    assert_int_equal(r->model_recorded.device_allocs, 0); /* the seeds' segments came before */
    /* the cache before the trace: both segments, at PyTorch's addresses, with the two blocks */
    assert_int_equal(r->seed_segments, 2);
    assert_int_equal(r->seed_reserved, 80 * MiB);
    assert_int_equal(r->ndiffs, 0);
    bool noted = false;
    for (size_t i = 0; i < r->nnotes; i++)
        noted |= r->notes[i].kind == GPU_SNAP_NOTE_PRE_TRACE && r->notes[i].v[0] == 2 &&
                 r->notes[i].v[2] == 2;
    assert_true(noted);
    free(r);
    gpu_snapshot_free(s);
}

/* Best fit breaks ties by address, and real cudaMalloc addresses often go down: PyTorch put
 * D in the lower of two equal free blocks, Y's, so freeing A left X empty for empty_cache.
 * With addresses of its own the model would pick X's block and keep X instead. */
static void test_snapshot_replay_recorded_addresses(void **state)
{
    (void)state;
    const int64_t HX = 0x7f0d4e000000ll, LY = 0x7f0d06000000ll;
    struct pb p = {0};
    begin(&p), dict_begin(&p), str(&p, "segments"), list_begin(&p);
    dict_begin(&p), kv_num(&p, "address", LY), kv_num(&p, "total_size", 40 * MiB);
    kv_str(&p, "segment_type", "large"), str(&p, "blocks"), list_begin(&p);
    block(&p, 40 * MiB, 40 * MiB, "active_allocated", NULL);
    list_end(&p), dict_end(&p), list_end(&p);
    str(&p, "device_traces"), list_begin(&p), list_begin(&p);
    event(&p, "segment_alloc", HX, 60 * MiB, 0, 1, NULL);
    event(&p, "alloc", HX, 60 * MiB, 0, 2, NULL);                 /* P */
    event(&p, "free_completed", HX, 60 * MiB, 0, 3, NULL);
    event(&p, "alloc", HX, 20 * MiB, 0, 4, NULL);                 /* A */
    event(&p, "alloc", HX + 20 * (int64_t)MiB, 40 * MiB, 0, 5, NULL); /* B */
    event(&p, "segment_alloc", LY, 40 * MiB, 0, 6, NULL);
    event(&p, "alloc", LY, 40 * MiB, 0, 7, NULL);                 /* C */
    event(&p, "free_completed", HX + 20 * (int64_t)MiB, 40 * MiB, 0, 8, NULL);
    event(&p, "free_completed", LY, 40 * MiB, 0, 9, NULL);
    event(&p, "alloc", LY, 40 * MiB, 0, 10, NULL);                /* D: the lower address */
    event(&p, "free_completed", HX, 20 * MiB, 0, 11, NULL);
    event(&p, "segment_free", HX, 60 * MiB, 0, 12, NULL);         /* empty_cache() */
    list_end(&p), list_end(&p), dict_end(&p), stop(&p);
    struct gpu_snapshot *s = snap_of(&p);
    struct gpu_snap_replay *r = calloc(1, sizeof *r);
    char err[512];
    assert_int_equal(gpu_snapshot_replay(s, 0, 0, NULL, NULL, NULL, r, err, sizeof err), GPU_OK);
    assert_int_equal(r->empty_caches, 1);
    assert_int_equal(r->recorded.end_segments, 1);
    assert_int_equal(r->model_recorded.end_segments, 1);
    assert_int_equal(r->model_recorded.end_reserved, 40 * MiB);
    assert_int_equal(r->model_recorded.device_frees, 1);
    assert_int_equal(r->ndiffs, 0);
    free(r);
    gpu_snapshot_free(s);
}


/* A 100 KB pickle whose device_traces are 40 references to one list of 2500 references to one
 * entry: 100,000 entries from references alone. The model is budgeted by the file's bytes, so
 * it is refused instead of growing to what the references add up to. */
static void test_snapshot_budget(void **state)
{
    (void)state;
    size_t cap = 1 << 20, n = 0;
    unsigned char *b = malloc(cap);
    assert_non_null(b);
#define PUT(c) (b[n++] = (unsigned char)(c))
    PUT(0x80), PUT(4), PUT('}'), PUT('(');
    PUT(0x8c), PUT(8), memcpy(b + n, "segments", 8), n += 8, PUT(']');
    PUT(0x8c), PUT(13), memcpy(b + n, "device_traces", 13), n += 13;
    PUT(']'), PUT('(');
    /* the entry, memo 0 */
    PUT('}'), PUT('(');
    PUT(0x8c), PUT(6), memcpy(b + n, "action", 6), n += 6, PUT(0x8c), PUT(5), memcpy(b + n, "alloc", 5), n += 5;
    PUT(0x8c), PUT(4), memcpy(b + n, "addr", 4), n += 4, PUT('K'), PUT(1);
    PUT(0x8c), PUT(4), memcpy(b + n, "size", 4), n += 4, PUT('K'), PUT(2);
    PUT('u'), PUT(0x94);
    PUT('0'); /* off the stack again: the list below refers to it */
    PUT(']'), PUT('(');
    for (int i = 0; i < 2500; i++) PUT('h'), PUT(0);
    PUT('e'), PUT(0x94); /* the list, memo 1 */
    for (int i = 1; i < 40; i++) PUT('h'), PUT(1);
    PUT('e'), PUT('u'), PUT('.');
#undef PUT
    struct gpu_snapshot *s = (void *)1;
    char err[512] = "";
    gpu_status st = gpu_snapshot_parse(b, n, NULL, NULL, &s, err, sizeof err);
    if (!strstr(err, "more entries than a file of")) fprintf(stderr, "got '%s'\n", err);
    assert_int_not_equal(st, GPU_OK);
    assert_null(s);
    assert_non_null(strstr(err, "more entries than a file of"));
    free(b);
}

/* Entries that share one frames list share one stack: read once, looked at once. */
static void test_snapshot_shared_stacks(void **state)
{
    (void)state;
    struct pb p = {0};
    begin(&p), dict_begin(&p), str(&p, "segments"), list_begin(&p), list_end(&p);
    str(&p, "device_traces"), list_begin(&p), list_begin(&p);
    dict_begin(&p), kv_str(&p, "action", "alloc"), kv_num(&p, "addr", 4096), kv_num(&p, "size", 100);
    frames(&p, "/home/u/model.py", 3);
    op(&p, 0x94); /* the frames list, memo 0 (the dict's items are still open) */
    dict_end(&p);
    dict_begin(&p), kv_str(&p, "action", "alloc"), kv_num(&p, "addr", 8192), kv_num(&p, "size", 200);
    str(&p, "frames"), op(&p, 'h'), op(&p, 0);
    dict_end(&p);
    list_end(&p), list_end(&p), dict_end(&p), stop(&p);
    struct gpu_snapshot *s = snap_of(&p);
    size_t n;
    const struct gpu_snap_event *ev = gpu_snapshot_trace(s, 0, &n);
    assert_int_equal(n, 2);
    assert_int_not_equal(ev[0].stack, 0);
    assert_int_equal(ev[0].stack, ev[1].stack);
    const struct gpu_snap_stack *st = gpu_snapshot_stack(s, ev[0].stack);
    assert_int_equal(st->n, 4);
    assert_int_equal(st->user, 3); /* linear.py is torch's, ceval.c hidden, runpy.py Python's */
    assert_int_equal(gpu_snapshot_stack_frame(s, ev[0].stack, 1)->kind, GPU_SNAP_FRAME_HIDDEN);
    assert_string_equal(gpu_snap_user_frame(s, ev[1].stack)->file, "/home/u/model.py");
    gpu_snapshot_free(s);
}

/* Every long step looks at its cancel flag: the parse, the model, the summary, the timeline
 * and the replay each stop with GPU_ERR_CANCELLED. */
static void test_snapshot_cancel(void **state)
{
    (void)state;
    struct pb p = {0};
    begin(&p), dict_begin(&p), str(&p, "segments"), list_begin(&p), list_end(&p);
    str(&p, "device_traces"), list_begin(&p), list_begin(&p);
    for (int i = 0; i < 700; i++) event(&p, i % 2 ? "free_completed" : "alloc", 4096, 512, 0, i, NULL);
    list_end(&p), list_end(&p), dict_end(&p), stop(&p);
    gpu_cancel_flag stop_now;
    gpu_cancel_set(&stop_now, true);
    struct gpu_snapshot *s = NULL;
    char err[256];
    assert_int_equal(gpu_snapshot_parse(p.b, p.n, NULL, &stop_now, &s, err, sizeof err), GPU_ERR_CANCELLED);
    assert_null(s);
    assert_non_null(strstr(err, "cancelled"));
    s = snap_of(&p);
    struct gpu_snap_summary sum;
    assert_int_equal(gpu_snapshot_summarize(s, 5, &stop_now, &sum, err, sizeof err), GPU_ERR_CANCELLED);
    struct gpu_snap_column col[8];
    assert_int_equal(gpu_snap_timeline(s, 0, 0, 700, 8, col, &stop_now), GPU_ERR_CANCELLED);
    struct gpu_snap_replay *r = calloc(1, sizeof *r);
    assert_int_equal(gpu_snapshot_replay(s, 0, 0, NULL, NULL, &stop_now, r, err, sizeof err),
                     GPU_ERR_CANCELLED);
    gpu_cancel_set(&stop_now, false);
    assert_int_equal(gpu_snapshot_replay(s, 0, 0, NULL, NULL, &stop_now, r, err, sizeof err), GPU_OK);
    free(r);
    gpu_snapshot_free(s);
}

/* empty_cache() under expandable segments (release_blocks, ExpandableSegment::unmap): every
 * whole page inside a free block goes back, busy segment or not; a segment that is not
 * expandable goes back only when nothing in it is active. Private pools are reported apart. */
static void test_snapshot_releasable(void **state)
{
    (void)state;
    struct pb p = {0};
    begin(&p), dict_begin(&p), str(&p, "segments"), list_begin(&p);
    /* an expandable large range: 10 MiB live, 50 MiB free: pages [20, 40) and [40, 60) free */
    dict_begin(&p), kv_num(&p, "address", 0x7f0000000000ll), kv_num(&p, "total_size", 60 * MiB);
    kv_str(&p, "segment_type", "large"), str(&p, "is_expandable"), op(&p, 0x88);
    str(&p, "blocks"), list_begin(&p);
    block(&p, 10 * MiB, 10 * MiB, "active_allocated", NULL);
    block(&p, 50 * MiB, 0, "inactive", NULL);
    list_end(&p), dict_end(&p);
    /* a small expandable range: 1 MiB live, 3 MiB free: the page [2, 4) goes back */
    dict_begin(&p), kv_num(&p, "address", 0x7e0000000000ll), kv_num(&p, "total_size", 4 * MiB);
    kv_str(&p, "segment_type", "small"), str(&p, "is_expandable"), op(&p, 0x88);
    str(&p, "blocks"), list_begin(&p);
    block(&p, 1 * MiB, 1 * MiB, "active_allocated", NULL);
    block(&p, 3 * MiB, 0, "inactive", NULL);
    list_end(&p), dict_end(&p);
    /* a private pool's segment, busy */
    dict_begin(&p), kv_num(&p, "address", 0x7d0000000000ll), kv_num(&p, "total_size", 20 * MiB);
    kv_str(&p, "segment_type", "large"), str(&p, "segment_pool_id");
    num(&p, 1), num(&p, 7), op(&p, 0x86);
    str(&p, "blocks"), list_begin(&p);
    block(&p, 4 * MiB, 4 * MiB, "active_allocated", NULL);
    block(&p, 16 * MiB, 0, "inactive", NULL);
    list_end(&p), dict_end(&p);
    /* the same pool's segment, all free: empty_cache() keeps it while the graph lives */
    dict_begin(&p), kv_num(&p, "address", 0x7c0000000000ll), kv_num(&p, "total_size", 2 * MiB);
    kv_str(&p, "segment_type", "small"), str(&p, "segment_pool_id");
    num(&p, 1), num(&p, 7), op(&p, 0x86);
    str(&p, "blocks"), list_begin(&p);
    block(&p, 2 * MiB, 0, "inactive", NULL);
    list_end(&p), dict_end(&p);
    list_end(&p), dict_end(&p), stop(&p);
    struct gpu_snapshot *s = snap_of(&p);
    struct gpu_snap_summary sum;
    char err[256];
    assert_int_equal(gpu_snapshot_summarize(s, 5, NULL, &sum, err, sizeof err), GPU_OK);
    const struct gpu_snap_device *d = &sum.dev[0];
    assert_int_equal(d->nexpandable, 2);
    assert_int_equal(gpu_snap_seg_releasable(s, 0), 40 * MiB);
    assert_int_equal(gpu_snap_seg_releasable(s, 1), 2 * MiB);
    assert_int_equal(gpu_snap_seg_releasable(s, 2), 0);
    assert_int_equal(gpu_snap_seg_releasable(s, 3), 0);
    assert_int_equal(d->releasable, 42 * MiB);
    assert_int_equal(d->non_releasable, 10 * MiB + 1 * MiB + 16 * MiB + 2 * MiB);
    assert_int_equal(d->npools, 1);
    assert_int_equal(d->pools[0].id[0], 1);
    assert_int_equal(d->pools[0].id[1], 7);
    assert_int_equal(d->pools[0].reserved, 22 * MiB);
    assert_int_equal(d->pools[0].allocated, 4 * MiB);
    assert_int_equal(d->pools[0].cached, 18 * MiB);
    gpu_snap_summary_free(&sum);
    gpu_snapshot_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pickle_scalars),
        cmocka_unit_test(test_pickle_int_text),
        cmocka_unit_test(test_pickle_big_ints),
        cmocka_unit_test(test_pickle_strings),
        cmocka_unit_test(test_pickle_containers),
        cmocka_unit_test(test_pickle_memo),
        cmocka_unit_test(test_pickle_refused),
        cmocka_unit_test(test_pickle_truncated_everywhere),
        cmocka_unit_test(test_pickle_limits),
        cmocka_unit_test(test_snapshot_summary),
        cmocka_unit_test(test_snapshot_shape_errors),
        cmocka_unit_test(test_snapshot_legacy_history),
        cmocka_unit_test(test_snapshot_replay),
        cmocka_unit_test(test_snapshot_replay_pre_trace),
        cmocka_unit_test(test_snapshot_replay_recorded_addresses),
        cmocka_unit_test(test_snapshot_budget),
        cmocka_unit_test(test_snapshot_shared_stacks),
        cmocka_unit_test(test_snapshot_cancel),
        cmocka_unit_test(test_snapshot_releasable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
