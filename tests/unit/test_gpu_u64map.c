/* test_gpu_u64map.c - the address map the snapshot reader and its replay share: every put, find
 * and delete agrees with a plain array over many random operations, through growth from the
 * smallest size and deletions that shift runs back (keys that collide in their low bits, as
 * device addresses do). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_against_array)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
