/* test_tui_state.c - the state module: the state folder (XDG_STATE_HOME, HOME, the account's
 * home; private, refused when others may write to it), read-modify-write that keeps what other
 * processes wrote (children racing through real progress saves: every try counted), a file that
 * cannot be read never replaced, a damaged one kept aside, the exclusive create that never
 * overwrites or follows a link, and a user-named file put in place only when committed (never
 * through a link, a FIFO refused). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tui_progress.h"
#include "tui_state.h"

static char dir[64];

static int mkdir_tmp(void **s)
{
    strcpy(dir, "/tmp/vramlab-state-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int rm_tmp(void **s)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s'; rm -rf '%s'", dir, dir);
    return system(cmd);
}

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *get(const char *name)
{
    static char buf[4096];
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t k = fread(buf, 1, sizeof buf - 1, f);
    buf[k] = 0;
    fclose(f);
    return buf;
}

static int entries(const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !strncmp(e->d_name, prefix, strlen(prefix));
    closedir(d);
    return n;
}

static void test_dir(void **s)
{
    char buf[1024], err[256];
    char *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");
    char *keep_x = x ? strdup(x) : NULL, *keep_h = h ? strdup(h) : NULL;
    setenv("XDG_STATE_HOME", "/srv/st", 1);
    assert_true(tui_state_dir(buf, sizeof buf, err, sizeof err));
    assert_string_equal(buf, "/srv/st/vramlab");
    setenv("XDG_STATE_HOME", "relative", 1); /* the XDG spec: a relative path is ignored */
    setenv("HOME", "/home/learner", 1);
    assert_true(tui_state_dir(buf, sizeof buf, err, sizeof err));
    assert_string_equal(buf, "/home/learner/.local/state/vramlab");
    unsetenv("XDG_STATE_HOME");
    unsetenv("HOME"); /* the account's home, never /tmp */
    const struct passwd *pw = getpwuid(getuid());
    if (pw && pw->pw_dir && pw->pw_dir[0] == '/') {
        char want[1024];
        snprintf(want, sizeof want, "%s/.local/state/vramlab", pw->pw_dir);
        assert_true(tui_state_dir(buf, sizeof buf, err, sizeof err));
        assert_string_equal(buf, want);
    }
    assert_null(strstr(buf, "/tmp/"));
    if (keep_x) setenv("XDG_STATE_HOME", keep_x, 1);
    if (keep_h) setenv("HOME", keep_h, 1);
    free(keep_x), free(keep_h);
}

static void test_private(void **s)
{
    char sub[128], err[512];
    struct stat st;
    snprintf(sub, sizeof sub, "%s/a/b/vramlab", dir);
    assert_true(tui_state_ready(sub, "answers", err, sizeof err));
    assert_int_equal(stat(sub, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    strcat(sub, "/answers");
    assert_int_equal(stat(sub, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(chmod(sub, 0777), 0); /* others may write there: refused */
    snprintf(sub, sizeof sub, "%s/a/b/vramlab", dir);
    assert_false(tui_state_ready(sub, "answers", err, sizeof err));
    assert_non_null(strstr(err, "other users may write to it"));
    assert_int_equal(chmod(sub, 0757), 0);
    assert_false(tui_state_ready(sub, NULL, err, sizeof err));
    bool missing;
    size_t len;
    assert_null(tui_state_read(sub, "progress", 100, &len, &missing, err, sizeof err));
    assert_false(missing); /* not "nothing saved": a folder others can feed is not read */
}

/* Children racing: each loads the progress once, then records 30 tries of its own exercise and
 * saves after each; at the end every try of every child is in the file. */
static void test_no_lost_update(void **s)
{
    enum { KIDS = 4, TRIES = 30 };
    for (int k = 0; k < KIDS; k++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            char note[256], err[256], ex[16];
            struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
            snprintf(ex, sizeof ex, "e%d", k);
            for (int i = 0; i < TRIES; i++) {
                tui_progress_attempt(p, "1.3", ex, i == TRIES - 1, "42");
                tui_progress_visit(p, "1.3");
                if (!tui_progress_save(p, err, sizeof err)) _exit(1);
            }
            tui_progress_free(p);
            _exit(0);
        }
    }
    for (int k = 0; k < KIDS; k++) {
        int st;
        wait(&st);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    char note[256];
    struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
    assert_string_equal(note, "");
    assert_int_equal(tui_progress_count(p), KIDS + 1);
    assert_int_equal(tui_progress_solved(p, "1.3"), KIDS);
    for (int i = 0; i < tui_progress_count(p); i++) {
        struct tui_progress_rec r;
        assert_true(tui_progress_get(p, i, &r));
        if (r.is_ex) assert_int_equal(r.tries, TRIES);
    }
    tui_progress_free(p);
}

/* A reset by another process is not undone by a tutor that loaded before it. */
static void test_reset_not_undone(void **s)
{
    char note[256], err[256];
    struct tui_progress *tutor = tui_progress_load(dir, note, sizeof note);
    tui_progress_visit(tutor, "9.1");
    tui_progress_visit(tutor, "9.2");
    assert_true(tui_progress_save(tutor, err, sizeof err));
    struct tui_progress *reset = tui_progress_load(dir, note, sizeof note);
    assert_int_equal(tui_progress_reset(reset, NULL), 2);
    assert_true(tui_progress_save(reset, err, sizeof err));
    tui_progress_free(reset);
    tui_progress_visit(tutor, "9.1");
    assert_true(tui_progress_save(tutor, err, sizeof err));
    assert_true(tui_progress_visited(tutor, "9.1"));
    assert_false(tui_progress_visited(tutor, "9.2")); /* what the tutor shows is the file now */
    tui_progress_free(tutor);
    assert_null(strstr(get("progress"), "9.2"));
}

static enum tui_state_verdict append_x(void *ud, const char *text, size_t len, char **out,
                                       size_t *olen, char *aside, size_t naside, char *why,
                                       size_t nwhy)
{
    if (text && !strncmp(text, "BAD", 3)) {
        snprintf(why, nwhy, "is bad");
        return TUI_STATE_DAMAGED;
    }
    if (asprintf(out, "%sx", text ? text : "") < 0) *out = NULL;
    *olen = *out ? strlen(*out) : 0;
    return TUI_STATE_WRITE;
}

static void test_never_replace_unreadable(void **s)
{
    char note[512], err[512], path[128];
    assert_true(tui_state_update(dir, "f", 100, append_x, NULL, note, sizeof note, err, sizeof err));
    assert_true(tui_state_update(dir, "f", 100, append_x, NULL, note, sizeof note, err, sizeof err));
    assert_string_equal(get("f"), "xx");
    snprintf(path, sizeof path, "%s/f", dir);
    if (geteuid() != 0) { /* root reads anything: the permission case cannot be staged */
        assert_int_equal(chmod(path, 0), 0);
        assert_false(tui_state_update(dir, "f", 100, append_x, NULL, note, sizeof note, err, sizeof err));
        assert_non_null(strstr(err, "left as it is"));
        assert_int_equal(chmod(path, 0600), 0);
        assert_string_equal(get("f"), "xx");
    }
    /* damaged, too large, a link, a FIFO: kept aside, then started afresh */
    put("f", "BAD");
    assert_true(tui_state_update(dir, "f", 100, append_x, NULL, note, sizeof note, err, sizeof err));
    assert_non_null(strstr(note, "f file is bad; kept it as "));
    assert_string_equal(get("f"), "x");
    put("f", "0123456789");
    assert_true(tui_state_update(dir, "f", 5, append_x, NULL, note, sizeof note, err, sizeof err));
    assert_non_null(strstr(note, "too large"));
    assert_string_equal(get("f"), "x");
    /* a change that would make it larger than its reader takes: not written, the file as it was
     * (written, it was the next reader's "too large", kept aside with every record in it) */
    put("f", "xxxx");
    assert_true(tui_state_update(dir, "f", 5, append_x, NULL, note, sizeof note, err, sizeof err));
    assert_string_equal(get("f"), "xxxxx");
    assert_false(tui_state_update(dir, "f", 5, append_x, NULL, note, sizeof note, err, sizeof err));
    assert_non_null(strstr(err, "over its limit"));
    assert_string_equal(note, "");
    assert_string_equal(get("f"), "xxxxx");
    put("target", "theirs");
    unlink(path);
    char target[128];
    snprintf(target, sizeof target, "%s/target", dir);
    assert_int_equal(symlink(target, path), 0);
    assert_true(tui_state_update(dir, "f", 100, append_x, NULL, note, sizeof note, err, sizeof err));
    assert_non_null(strstr(note, "symbolic link"));
    assert_string_equal(get("target"), "theirs"); /* never written through */
    unlink(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_true(tui_state_update(dir, "f", 100, append_x, NULL, note, sizeof note, err, sizeof err));
    assert_non_null(strstr(note, "a FIFO"));
    assert_int_equal(entries("f.corrupt-"), 4);
    assert_int_equal(entries(".f."), 0); /* no temporary file left */
}

static void test_create(void **s)
{
    char err[512], target[128], link[128];
    assert_int_equal(tui_state_create(dir, "9.1-e.lua", "first\n", 6, err, sizeof err), 1);
    assert_int_equal(tui_state_create(dir, "9.1-e.lua", "second\n", 7, err, sizeof err), 0);
    assert_string_equal(get("9.1-e.lua"), "first\n"); /* kept, never overwritten */
    snprintf(target, sizeof target, "%s/target", dir);
    snprintf(link, sizeof link, "%s/9.1-l.lua", dir);
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(tui_state_create(dir, "9.1-l.lua", "planted\n", 8, err, sizeof err), 0);
    struct stat st;
    assert_int_not_equal(lstat(target, &st), 0); /* nothing made through the link */
    assert_int_equal(tui_state_create(dir, "../escaped.lua", "x", 1, err, sizeof err), -1);
    assert_int_equal(tui_state_create(dir, ".hidden", "x", 1, err, sizeof err), -1);
    assert_int_equal(tui_state_create(dir, "", "x", 1, err, sizeof err), -1);
    assert_int_equal(entries(""), 2); /* the file and the link: no temporary left behind */
    assert_int_equal(tui_state_create("/nonexistent-vramlab-dir", "a.lua", "x", 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent-vramlab-dir"));
}

static void test_out(void **s)
{
    char err[512], path[128], link[128], fifo[128];
    snprintf(path, sizeof path, "%s/rec.jsonl", dir);
    put("rec.jsonl", "old\n");
    assert_int_equal(chmod(path, 0640), 0);
    struct tui_state_out *o = tui_state_out_open(path, err, sizeof err);
    assert_non_null(o);
    fputs("new\n", tui_state_out_file(o));
    assert_string_equal(get("rec.jsonl"), "old\n"); /* untouched until committed */
    tui_state_out_abort(o);
    assert_string_equal(get("rec.jsonl"), "old\n");
    o = tui_state_out_open(path, err, sizeof err);
    fputs("new\n", tui_state_out_file(o));
    assert_true(tui_state_out_commit(o, err, sizeof err));
    assert_string_equal(get("rec.jsonl"), "new\n");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640); /* the old file's permissions */
    assert_int_equal(entries(".rec"), 0);
    /* a link or a FIFO in its place: refused, the target untouched */
    snprintf(link, sizeof link, "%s/l.jsonl", dir);
    assert_int_equal(symlink(path, link), 0);
    assert_null(tui_state_out_open(link, err, sizeof err));
    assert_non_null(strstr(err, "not a regular file (a symbolic link)"));
    snprintf(fifo, sizeof fifo, "%s/f.jsonl", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_null(tui_state_out_open(fifo, err, sizeof err));
    assert_non_null(strstr(err, "not a regular file (a FIFO)"));
    assert_null(tui_state_out_open(dir, err, sizeof err));
    assert_string_equal(get("rec.jsonl"), "new\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dir),
        cmocka_unit_test_setup_teardown(test_private, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_no_lost_update, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_reset_not_undone, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_never_replace_unreadable, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_create, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_out, mkdir_tmp, rm_tmp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
