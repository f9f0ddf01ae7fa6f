/* test_gpu_file_map.c - gpu_file_map (the safe reader's whole-file mapping, for snapshots) and
 * gpu_file_ok (what a file list may show): a regular file is mapped with its bytes; an empty
 * one gives len 0; a FIFO, a directory and a device are refused at once with one line naming
 * the kind; a file over the limit says both sizes; a link is followed, a link to a FIFO refused;
 * dropping the pages already read leaves the rest readable; the bytes stay when the file is cut
 * short after it was read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gpu_file.h"

static char dir[64];

static void path(char *b, size_t n, const char *name) { snprintf(b, n, "%s/%s", dir, name); }

static void write_file(const char *name, const void *data, size_t len)
{
    char p[128];
    path(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void refused(const char *p, size_t max, const char *want)
{
    struct gpu_file_map m;
    char err[256] = "";
    assert_false(gpu_file_map(p, max, GPU_FILE_STDIN, &m, err, sizeof err));
    if (!strstr(err, want)) fprintf(stderr, "got '%s', want '%s'\n", err, want);
    assert_non_null(strstr(err, want));
    assert_null(strchr(err, '\n'));
    assert_false(gpu_file_ok(p, max, 0));
}

static void test_map_regular(void **state)
{
    (void)state;
    size_t n = 3 * 65536 + 17;
    unsigned char *b = malloc(n);
    assert_non_null(b);
    for (size_t i = 0; i < n; i++) b[i] = (unsigned char)(i * 7 + 3);
    write_file("big.bin", b, n);
    char p[128];
    path(p, sizeof p, "big.bin");
    struct gpu_file_map m;
    char err[256];
    assert_true(gpu_file_map(p, n, 0, &m, err, sizeof err));
    assert_true(m.mapped);
    assert_int_equal(m.len, n);
    assert_memory_equal(m.data, b, n);
    /* the file cut short or rewritten after it was read: the bytes stay (a mapping of the file
     * made every later read of a lost page a SIGBUS) */
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
    assert_memory_equal(m.data, b, n);
    gpu_file_map_drop(&m, 2 * 65536 + 5); /* what is past the drop stays */
    assert_memory_equal(m.data + 2 * 65536, b + 2 * 65536, n - 2 * 65536);
    gpu_file_unmap(&m);
    write_file("big.bin", b, n);
    assert_true(gpu_file_ok(p, n, 0));
    refused(p, n - 1, "too large");
    write_file("empty.bin", "", 0);
    path(p, sizeof p, "empty.bin");
    assert_true(gpu_file_map(p, 10, 0, &m, err, sizeof err));
    assert_non_null(m.data);
    assert_int_equal(m.len, 0);
    gpu_file_unmap(&m);
    free(b);
}

static void test_map_refuses_others(void **state)
{
    (void)state;
    char p[128], l[128];
    path(p, sizeof p, "fifo");
    assert_int_equal(mkfifo(p, 0600), 0);
    refused(p, 1 << 20, "not a regular file (a FIFO); use - for standard input");
    path(l, sizeof l, "link-to-fifo");
    assert_int_equal(symlink(p, l), 0);
    refused(l, 1 << 20, "not a regular file (a FIFO)");
    refused(dir, 1 << 20, "not a regular file (a directory)");
    refused("/dev/zero", 1 << 20, "not a regular file (a character device)");
    path(p, sizeof p, "missing");
    refused(p, 1 << 20, "cannot open");
    write_file("ok", "abc", 3);
    path(p, sizeof p, "ok");
    path(l, sizeof l, "link-to-ok");
    assert_int_equal(symlink(p, l), 0);
    assert_true(gpu_file_ok(l, 3, 0));
}

static void test_map_stdin(void **state)
{
    (void)state;
    write_file("in", "pickle bytes", 12);
    char p[128];
    path(p, sizeof p, "in");
    FILE *in = freopen(p, "rb", stdin);
    assert_non_null(in);
    struct gpu_file_map m;
    char err[256];
    assert_true(gpu_file_map("-", 100, GPU_FILE_STDIN, &m, err, sizeof err));
    assert_false(m.mapped);
    assert_int_equal(m.len, 12);
    assert_memory_equal(m.data, "pickle bytes", 12);
    gpu_file_unmap(&m);
    /* without the flag "-" is a file name like any other */
    assert_false(gpu_file_map("-", 100, 0, &m, err, sizeof err));
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/vramlab-map-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_regular),
        cmocka_unit_test(test_map_refuses_others),
        cmocka_unit_test(test_map_stdin),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
