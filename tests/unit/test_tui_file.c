/* test_tui_file.c - file names made from lesson data: the one function that turns ids into names
 * refuses every id that could leave the folder (separators, "..", leading dots, controls, empty,
 * over-long); mkdir -p makes every level with the mode asked for; a colon-separated folder list
 * is walked part by part; the safe reader's refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_file.h"
#include "tui_file.h"

static char dir[64];

static int mkdir_tmp(void **s)
{
    strcpy(dir, "/tmp/vramlab-file-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int rm_tmp(void **s)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static void test_id_names(void **s)
{
    static const char *const good[] = {"1.4", "peak-code", "a_b", "A.b-c", "9", NULL};
    for (const char *const *g = good; *g; g++) assert_true(tui_file_id_ok(*g));
    char long_id[80];
    memset(long_id, 'x', sizeof long_id - 1);
    long_id[sizeof long_id - 1] = 0;
    static const char *const bad[] = {"", ".", "..", "a/b", "/x", ".x", "a..b", "../../x",
                                      "a b", "\xc3\xa9", "a\n", "x\\y", "~", "a:b", NULL};
    for (const char *const *b = bad; *b; b++)
        if (tui_file_id_ok(*b)) fail_msg("accepted id '%s'", *b);
    assert_false(tui_file_id_ok(long_id));
    long_id[LT_ID_MAX] = 0;
    assert_true(tui_file_id_ok(long_id));
    assert_false(tui_file_id_ok(NULL));

    char name[200];
    assert_true(tui_file_id_name(name, sizeof name, "1.4", "peak-code", ".lua"));
    assert_string_equal(name, "1.4-peak-code.lua");
    assert_false(tui_file_id_name(name, sizeof name, "../../../rt-pwn/planted", "x", ".lua"));
    assert_string_equal(name, "");
    assert_false(tui_file_id_name(name, sizeof name, "/../x", "x", ".lua"));
    assert_false(tui_file_id_name(name, sizeof name, "9.1", "../y", ".lua"));
    assert_false(tui_file_id_name(name, sizeof name, "9.1", "x", "/.lua"));
    assert_false(tui_file_id_name(name, 8, "9.1", "abcdef", ".lua")); /* does not fit */
}

static void test_mkdirs(void **state)
{
    (void)state;
    char path[128];
    struct stat st;
    umask(022); /* the usual one: the modes asked for come through whole */
    snprintf(path, sizeof path, "%s/a/b/c", dir);
    assert_true(tui_file_mkdirs(path, 0755));
    assert_true(tui_file_mkdirs(path, 0755)); /* there already: fine */
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0755);
    snprintf(path, sizeof path, "%s/a", dir);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0755); /* every level */
    snprintf(path, sizeof path, "%s/private/x", dir);
    assert_true(tui_file_mkdirs(path, 0700));
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    snprintf(path, sizeof path, "%s/a/b/c/file", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/a/b/c/file/under", dir); /* a file in the way */
    assert_false(tui_file_mkdirs(path, 0755));
}

static void test_path_list(void **state)
{
    (void)state;
    char one[8], got[128] = "";
    for (const char *p = "A:bb::c"; (p = gpu_path_next(p, one, sizeof one));)
        snprintf(got + strlen(got), sizeof got - strlen(got), "[%s]%s", one, *p ? "" : " last");
    assert_string_equal(got, "[A][bb][][c] last");
    assert_null(gpu_path_next("", one, sizeof one));
    assert_null(gpu_path_next(NULL, one, sizeof one));
    const char *p = gpu_path_next("toolongname:x", one, sizeof one); /* cut to fit, the rest kept */
    assert_string_equal(one, "toolong");
    assert_string_equal(p, "x");
}

/* the safe reader: what a refusal leaves in errno (only ENOENT means "no such file"), a link
 * refused under GPU_FILE_NOFOLLOW, a descriptor checked like a path, and gpu_file_ok saying
 * beforehand what the reader would accept */
static void test_safe_reader(void **state)
{
    (void)state;
    char path[128], fifo[128], link[128], err[256];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/ok.txt", dir);
    snprintf(fifo, sizeof fifo, "%s/f.txt", dir);
    snprintf(link, sizeof link, "%s/l.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("0123456789", f);
    fclose(f);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(symlink(path, link), 0);

    char *t = gpu_file_read(path, 10, 0, &len, err, sizeof err);
    assert_non_null(t);
    assert_int_equal(len, 10);
    free(t);
    errno = 0;
    assert_null(gpu_file_read(path, 9, 0, &len, err, sizeof err));
    assert_int_equal(errno, EFBIG);
    assert_non_null(strstr(err, "too large"));
    snprintf(err, sizeof err, "x");
    assert_null(gpu_file_read("/nonexistent-vramlab/x", 9, 0, &len, err, sizeof err));
    assert_int_equal(errno, ENOENT);
    assert_null(gpu_file_read(fifo, 100, 0, &len, err, sizeof err));
    assert_int_equal(errno, EINVAL);
    assert_non_null(strstr(err, "not a regular file (a FIFO)"));
    t = gpu_file_read(link, 100, 0, &len, err, sizeof err); /* followed by default */
    assert_non_null(t);
    free(t);
    assert_null(gpu_file_read(link, 100, GPU_FILE_NOFOLLOW, &len, err, sizeof err));
    assert_int_equal(errno, ELOOP);
    assert_non_null(strstr(err, "l.txt: not a regular file (a symbolic link)"));

    int fd = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_true(fd >= 0);
    assert_null(gpu_file_read_fd(fd, "named", 100, &len, err, sizeof err));
    assert_string_equal(err, "named: not a regular file (a FIFO)");
    fd = open(path, O_RDONLY);
    t = gpu_file_read_fd(fd, "named", 100, &len, err, sizeof err);
    assert_non_null(t);
    assert_string_equal(t, "0123456789");
    free(t);

    assert_true(gpu_file_ok(path, 10, 0));
    assert_false(gpu_file_ok(path, 9, 0));
    assert_false(gpu_file_ok(fifo, 100, 0));
    assert_false(gpu_file_ok(dir, 1 << 20, 0));
    assert_true(gpu_file_ok(link, 100, 0));
    assert_false(gpu_file_ok(link, 100, GPU_FILE_NOFOLLOW));
    assert_false(gpu_file_ok("/dev/zero", 1 << 20, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_id_names),
        cmocka_unit_test_setup_teardown(test_mkdirs, mkdir_tmp, rm_tmp),
        cmocka_unit_test(test_path_list),
        cmocka_unit_test_setup_teardown(test_safe_reader, mkdir_tmp, rm_tmp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
