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

bool tui_file_mkdirs(const char *dir)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *s = tmp + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(tmp, 0700) && errno != EEXIST) return false;
            *s = '/';
        }
    return !mkdir(tmp, 0700) || errno == EEXIST;
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
    if (!tui_file_mkdirs(dir)) {
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
