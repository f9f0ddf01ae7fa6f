/* tui_file.c - see tui_file.h. */
#include "tui_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_file.h"

bool tui_file_mkdirs(const char *dir, unsigned mode)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *s = tmp + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(tmp, (mode_t)mode) && errno != EEXIST) return false;
            *s = '/';
        }
    return !mkdir(tmp, (mode_t)mode) || errno == EEXIST;
}

static bool write_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t k = write(fd, p, len);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k, len -= (size_t)k;
    }
    return true;
}

bool tui_file_write_atomic(const char *dir, const char *name, const char *data, size_t len,
                           char *err, size_t n)
{
    char tmp[1200], path[1200];
    if (!tui_file_mkdirs(dir, 0700)) {
        snprintf(err, n, "cannot create %s: %s", dir, strerror(errno));
        return false;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s/.%s-XXXXXX", dir, name);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, n, "cannot write in %s: %s", dir, strerror(errno));
        return false;
    }
    /* data on disk before the rename makes it visible; the rename on disk before we say done */
    bool ok = write_all(fd, data, len) && fsync(fd) == 0;
    int saved = errno;
    close(fd);
    if (!ok) {
        snprintf(err, n, "cannot write %s: %s", tmp, strerror(saved ? saved : EIO));
        unlink(tmp);
        return false;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, n, "cannot replace %s: %s", path, strerror(errno));
        unlink(tmp);
        return false;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return true;
}

char *tui_file_read(const char *path, size_t max, size_t *len, char *err, size_t n)
{
    return gpu_file_read(path, max, 0, len, err, n);
}

bool tui_file_id_ok(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    if (n == 0 || n > TUI_ID_MAX || id[0] == '.' || strstr(id, "..")) return false;
    return strspn(id, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ._-") == n;
}

bool tui_file_id_name(char *out, size_t n, const char *lesson_id, const char *ex_id,
                      const char *suffix)
{
    if (n) out[0] = 0;
    if (!tui_file_id_ok(lesson_id) || !tui_file_id_ok(ex_id) || strchr(suffix, '/')) return false;
    int k = snprintf(out, n, "%s-%s%s", lesson_id, ex_id, suffix);
    if (k < 0 || (size_t)k >= n) {
        if (n) out[0] = 0;
        return false;
    }
    return true;
}

int tui_file_create_excl(const char *dir, const char *name, const char *data, size_t len,
                         char *err, size_t n)
{
    if (!*name || strchr(name, '/') || name[0] == '.') {
        snprintf(err, n, "'%s' is not a plain file name", name);
        return -1;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        snprintf(err, n, "%s: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        close(dfd);
        return 0;
    }
    char tmp[300];
    int fd = -1;
    for (int i = 0; fd < 0 && i < 100; i++) {
        snprintf(tmp, sizeof tmp, ".%.200s.%ld.%d.tmp", name, (long)getpid(), i);
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        snprintf(err, n, "cannot write in %s: %s", dir, strerror(errno));
        close(dfd);
        return -1;
    }
    bool ok = write_all(fd, data, len) && fsync(fd) == 0;
    int saved = errno;
    close(fd);
    int r = -1;
    if (!ok) {
        snprintf(err, n, "cannot write %s/%s: %s", dir, name, strerror(saved ? saved : EIO));
    } else if (linkat(dfd, tmp, dfd, name, 0) == 0) {
        fsync(dfd);
        r = 1;
    } else if (errno == EEXIST) {
        r = 0; /* made meanwhile (another run): theirs stays */
    } else {
        snprintf(err, n, "cannot create %s/%s: %s", dir, name, strerror(errno));
    }
    unlinkat(dfd, tmp, 0);
    close(dfd);
    return r;
}
