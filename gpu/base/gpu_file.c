/* gpu_file.c - see gpu_file.h. */
#include "gpu_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "300 MiB", "1.5 MiB", "64 KiB": sizes as the limits are stated */
static void human(size_t b, char *buf, size_t n)
{
    if (b >= (1u << 20)) snprintf(buf, n, "%.*f MiB", b % (1u << 20) ? 1 : 0, b / 1048576.0);
    else snprintf(buf, n, "%.*f KiB", b % 1024 ? 1 : 0, b / 1024.0);
}

void gpu_file_too_large(const char *path, size_t size, size_t max, char *err, size_t n)
{
    char got[32], lim[32];
    human(size, got, sizeof got);
    human(max, lim, sizeof lim);
    snprintf(err, n, "%s: too large (%s%s; the limit is %s)", path, size ? "" : "more than ",
             size ? got : lim, lim);
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
           : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a plain file";
}

FILE *gpu_file_open(const char *path, size_t max, unsigned flags, char *err, size_t n)
{
    if ((flags & GPU_FILE_STDIN) && !strcmp(path, "-")) {
        int fd = dup(STDIN_FILENO); /* the caller's fclose must not close stdin itself */
        FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
        if (!f) {
            snprintf(err, n, "-: cannot read standard input: %s", strerror(errno));
            if (fd >= 0) close(fd);
        }
        return f;
    }
    /* O_NONBLOCK: opening a FIFO with no writer would wait for ever; the type is then checked on
     * the opened file itself, so nothing can swap the path in between */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, n, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, n, "%s: not a regular file (%s)%s", path, kind_of(st.st_mode),
                 flags & GPU_FILE_STDIN ? "; use - for standard input" : "");
        close(fd);
        return NULL;
    }
    if ((uintmax_t)st.st_size > max) {
        gpu_file_too_large(path, (size_t)st.st_size, max, err, n);
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

char *gpu_file_read(const char *path, size_t max, unsigned flags, size_t *len, char *err, size_t n)
{
    FILE *f = gpu_file_open(path, max, flags, err, n);
    if (!f) return NULL;
    size_t cap = 4096, used = 0;
    char *buf = malloc(cap);
    bool too_big = false;
    while (buf) {
        if (cap - used < 2) {
            /* one byte past the limit is enough to know it is passed */
            size_t nc = cap > max / 2 + 1 ? max + 2 : cap * 2;
            char *nb = nc > cap ? realloc(buf, nc) : NULL;
            if (!nb) {
                too_big = nc <= cap;
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb, cap = nc;
        }
        size_t got = fread(buf + used, 1, cap - used - 1, f);
        used += got;
        if (used > max) {
            too_big = true;
            free(buf);
            buf = NULL;
            break;
        }
        if (got == 0) break; /* end of file or an error (checked below) */
    }
    bool bad = ferror(f);
    int saved = errno;
    fclose(f);
    if (too_big) {
        gpu_file_too_large(path, 0, max, err, n);
        return NULL;
    }
    if (!buf || bad) {
        snprintf(err, n, "%s: %s", path, buf ? strerror(saved ? saved : EIO) : "out of memory");
        free(buf);
        return NULL;
    }
    buf[used] = 0;
    if (len) *len = used;
    return buf;
}

const char *gpu_path_next(const char *list, char *out, size_t n)
{
    if (!list || !*list) return NULL;
    size_t l = strcspn(list, ":");
    snprintf(out, n, "%.*s", (int)l, list);
    return list + l + (list[l] == ':');
}
