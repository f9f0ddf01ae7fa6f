/* test_gpu_file.c - the one safe reader (gpu_file_read/_open): a regular file is read whole,
 * NUL bytes and all; a FIFO is refused at once (never waited on: a reader on one would block
 * this test), as are a directory and a device, each named in one line; a missing file says so
 * with errno ENOENT; a file over the limit states both sizes (errno EFBIG); "-" is standard
 * input only with GPU_FILE_STDIN, under the same limit; GPU_FILE_NOFOLLOW refuses a link; and
 * gpu_path_next walks a colon-separated list, empty parts included. */
#include <errno.h>
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

/* p is refused with a one-line message holding want, and errno e */
static void refused(const char *p, size_t max, unsigned flags, const char *want, int e)
{
    char err[256] = "";
    size_t len = 7;
    errno = 0;
    assert_null(gpu_file_read(p, max, flags, &len, err, sizeof err));
    if (!strstr(err, want)) fprintf(stderr, "got '%s', want '%s'\n", err, want);
    assert_non_null(strstr(err, want));
    assert_null(strchr(err, '\n'));
    if (e) assert_int_equal(errno, e);
    errno = 0;
    assert_null(gpu_file_open(p, max, flags, err, sizeof err));
    if (e) assert_int_equal(errno, e);
}

static void test_read_regular(void **state)
{
    (void)state;
    write_file("nul", "a\0b\0c", 5);
    char p[128], err[256];
    size_t len = 0;
    path(p, sizeof p, "nul");
    char *s = gpu_file_read(p, 5, 0, &len, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(len, 5);
    assert_memory_equal(s, "a\0b\0c", 5);
    assert_int_equal(s[5], 0); /* terminated past its own NULs */
    free(s);
    write_file("empty", "", 0);
    path(p, sizeof p, "empty");
    s = gpu_file_read(p, 5, 0, &len, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(len, 0);
    free(s);
}

static void test_refusals(void **state)
{
    (void)state;
    char p[128], msg[256];
    path(p, sizeof p, "fifo");
    assert_int_equal(mkfifo(p, 0600), 0);
    snprintf(msg, sizeof msg, "%s: not a regular file (a FIFO)", p);
    refused(p, 100, 0, msg, EINVAL);
    refused(dir, 100, 0, "not a regular file (a directory)", EINVAL);
    refused("/dev/null", 100, 0, "not a regular file (a character device)", EINVAL);
    path(p, sizeof p, "absent");
    refused(p, 100, 0, p, ENOENT);
    /* over the limit: both sizes, as gpu_fmt_bytes writes them */
    static char big[3 << 20];
    write_file("big", big, sizeof big);
    path(p, sizeof p, "big");
    snprintf(msg, sizeof msg, "%s: too large (3 MiB; the limit is 2 MiB)", p);
    refused(p, 2 << 20, 0, msg, EFBIG);
    char err[256];
    size_t len;
    char *s = gpu_file_read(p, 3 << 20, 0, &len, err, sizeof err); /* at the limit: read */
    assert_non_null(s);
    assert_int_equal(len, 3 << 20);
    free(s);
    /* a link is followed, unless the caller refuses links */
    char l[128];
    path(l, sizeof l, "link");
    write_file("target", "x", 1);
    path(p, sizeof p, "target");
    assert_int_equal(symlink(p, l), 0);
    s = gpu_file_read(l, 10, 0, &len, err, sizeof err);
    assert_non_null(s);
    free(s);
    refused(l, 10, GPU_FILE_NOFOLLOW, "not a regular file (a symbolic link)", ELOOP);
}

static void test_stdin(void **state)
{
    (void)state;
    write_file("in", "from stdin", 10);
    char p[128], err[256];
    size_t len = 0;
    path(p, sizeof p, "in");
    assert_non_null(freopen(p, "rb", stdin));
    char *s = gpu_file_read("-", 100, GPU_FILE_STDIN, &len, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(len, 10);
    assert_string_equal(s, "from stdin");
    free(s);
    /* the same limit: standard input past it is refused, not read on and on */
    assert_non_null(freopen(p, "rb", stdin));
    assert_null(gpu_file_read("-", 4, GPU_FILE_STDIN, &len, err, sizeof err));
    assert_non_null(strstr(err, "too large"));
    /* without the flag "-" is a file name like any other: there is none here */
    assert_int_equal(chdir(dir), 0);
    refused("-", 100, 0, "-", ENOENT);
}

static void test_path_next(void **state)
{
    (void)state;
    char d[64];
    const char *want[] = {"a", "", "b/c", NULL};
    const char *p = "a::b/c";
    int i = 0;
    while ((p = gpu_path_next(p, d, sizeof d))) {
        assert_non_null(want[i]);
        assert_string_equal(d, want[i]);
        i++;
    }
    assert_null(want[i]);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/vramlab-file-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_regular),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_stdin),
        cmocka_unit_test(test_path_next),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
