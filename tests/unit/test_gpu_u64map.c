/* test_gpu_u64map.c - the two keyed tables of the base toolkit. The u64 map: every put, find and
 * delete agrees with a plain array over many random operations, through growth from a zeroed
 * map and deletions that shift runs back (keys that collide in their low bits, as device
 * addresses do). The string table: ids are dense and stable, equal bytes get equal ids (NULs
 * and all), pointers stay valid while the table grows, and a lookup adds nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_strtab.h"
#include "gpu_u64map.h"

#define KEYS 5000

static void test_against_array(void **state)
{
    (void)state;
    static uint64_t val[KEYS];
    static bool live[KEYS];
    struct gpu_u64map m = {0};
    assert_true(gpu_u64map_init(&m, 1));
    uint64_t r = 12345;
    size_t n = 0;
    for (int step = 0; step < 200000; step++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        size_t k = (size_t)(r >> 33) % KEYS;
        uint64_t key = 0x7f0000000000ull + ((uint64_t)k << 21); /* 2 MiB apart */
        size_t at = gpu_u64map_find(&m, key);
        assert_int_equal(at != SIZE_MAX, live[k]);
        if (live[k]) assert_int_equal(m.val[at], val[k]);
        if (live[k] && (r >> 20) % 3 == 0) {
            gpu_u64map_del_at(&m, at);
            live[k] = false, n--;
        } else {
            if (!live[k]) n++;
            live[k] = true, val[k] = r;
            assert_true(gpu_u64map_put(&m, key, r));
        }
        assert_int_equal(m.n, n);
        assert_true(m.n * 2 <= m.cap);
    }
    for (size_t k = 0; k < KEYS; k++)
        assert_int_equal(gpu_u64map_find(&m, 0x7f0000000000ull + ((uint64_t)k << 21)) != SIZE_MAX, live[k]);
    gpu_u64map_free(&m);
    assert_int_equal(gpu_u64map_find(&m, 1), SIZE_MAX); /* a freed map finds nothing */
}

static void test_zeroed_map_grows(void **state)
{
    (void)state;
    struct gpu_u64map m = {0};
    uint64_t v = 0;
    assert_false(gpu_u64map_get(&m, 0, &v));
    for (uint64_t k = 0; k < 1000; k++) assert_true(gpu_u64map_put(&m, k * 4096, k + 1));
    assert_int_equal(m.n, 1000);
    assert_true(gpu_u64map_get(&m, 0, &v));
    assert_int_equal(v, 1); /* key 0 is a key like any other */
    assert_true(gpu_u64map_get(&m, 999 * 4096, &v));
    assert_int_equal(v, 1000);
    assert_true(gpu_u64map_put(&m, 0, 7)); /* replaces */
    assert_int_equal(m.n, 1000);
    assert_true(gpu_u64map_get(&m, 0, &v));
    assert_int_equal(v, 7);
    gpu_u64map_free(&m);
}

static void test_strtab(void **state)
{
    (void)state;
    struct gpu_strtab t = {0};
    assert_int_equal(gpu_strtab_find(&t, "a", 1), GPU_STRTAB_NONE);
    enum { N = 20000 };
    static const char *first[N];
    char s[32];
    for (int i = 0; i < N; i++) {
        int n = snprintf(s, sizeof s, "key %d", i);
        uint32_t id = gpu_strtab_intern(&t, s, (size_t)n);
        assert_int_equal(id, (uint32_t)i); /* numbered in the order first seen */
        first[i] = gpu_strtab_str(&t, id, NULL);
    }
    for (int i = N - 1; i >= 0; i--) {
        int n = snprintf(s, sizeof s, "key %d", i);
        assert_int_equal(gpu_strtab_intern(&t, s, (size_t)n), (uint32_t)i); /* seen: same id */
        assert_int_equal(gpu_strtab_find(&t, s, (size_t)n), (uint32_t)i);
        size_t len;
        assert_ptr_equal(gpu_strtab_str(&t, (uint32_t)i, &len), first[i]); /* never moved */
        assert_int_equal(len, (size_t)n);
        assert_string_equal(first[i], s);
    }
    assert_int_equal(t.count, N);
    /* bytes, not C strings: an embedded NUL and a prefix are other keys; "" is a key */
    uint32_t a = gpu_strtab_intern(&t, "x\0y", 3), b = gpu_strtab_intern(&t, "x", 1);
    assert_int_not_equal(a, b);
    assert_int_equal(gpu_strtab_intern(&t, "x\0y", 3), a);
    uint32_t e = gpu_strtab_intern(&t, "", 0);
    assert_int_equal(gpu_strtab_find(&t, "", 0), e);
    /* a string longer than a block gets its own, and the block in use keeps filling */
    static char big[200000];
    memset(big, 'b', sizeof big);
    uint32_t g = gpu_strtab_intern(&t, big, sizeof big);
    uint32_t after = gpu_strtab_intern(&t, "after", 5);
    assert_int_equal(gpu_strtab_find(&t, big, sizeof big), g);
    assert_string_equal(gpu_strtab_str(&t, after, NULL), "after");
    assert_int_equal(gpu_strtab_find(&t, "absent", 6), GPU_STRTAB_NONE);
    gpu_strtab_free(&t);
    assert_int_equal(t.count, 0);
    assert_int_equal(gpu_strtab_find(&t, "after", 5), GPU_STRTAB_NONE);
    /* the hash continues: two parts hashed one after the other equal the whole */
    assert_int_equal(gpu_hash(gpu_hash(GPU_HASH_INIT, "ab", 2), "cd", 2), gpu_hash(GPU_HASH_INIT, "abcd", 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_against_array),
                                       cmocka_unit_test(test_zeroed_map_grows),
                                       cmocka_unit_test(test_strtab)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
