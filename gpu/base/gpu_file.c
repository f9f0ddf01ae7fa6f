/* gpu_file.c - see gpu_file.h. */
#include "gpu_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_err.h"
#include "gpu_esc.h"
#include "gpu_fmt.h"

/* a path as messages show it: one field, escaped (gpu_esc.h) */
#define SHOWN(path) char shown[600]; gpu_esc_field(shown, sizeof shown, path)

void gpu_file_too_large(const char *path, size_t size, size_t max, char *err, size_t n)
{
    SHOWN(path);
    char got[32], lim[32];
    gpu_fmt_bytes((double)size, GPU_FMT_BIN, got, sizeof got); /* "300 MiB", "64 KiB" */
    gpu_fmt_bytes((double)max, GPU_FMT_BIN, lim, sizeof lim);
    gpu_errf(err, n, "%s: too large (%s%s; the limit is %s)", shown, size ? "" : "more than ",
             size ? got : lim, lim);
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
           : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link"
           : "not a plain file";
}

/* refused: close fd (if any), keep `e` in errno for the caller */
static void *refuse(int fd, int e)
{
    if (fd >= 0) close(fd);
    errno = e;
    return NULL;
}

FILE *gpu_file_fdopen(int fd, const char *path, size_t max, char *err, size_t n)
{
    SHOWN(path);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        gpu_errf(err, n, "%s: %s", shown, strerror(e));
        return refuse(fd, e);
    }
    if (!S_ISREG(st.st_mode)) {
        gpu_errf(err, n, "%s: not a regular file (%s)", shown, kind_of(st.st_mode));
        return refuse(fd, EINVAL);
    }
    if ((uintmax_t)st.st_size > max) {
        gpu_file_too_large(path, (size_t)st.st_size, max, err, n);
        return refuse(fd, EFBIG);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0 && (fl & O_NONBLOCK)) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        gpu_errf(err, n, "%s: %s", shown, strerror(e));
        return refuse(fd, e);
    }
    return f;
}

FILE *gpu_file_open(const char *path, size_t max, unsigned flags, char *err, size_t n)
{
    if ((flags & GPU_FILE_STDIN) && !strcmp(path, "-")) {
        int fd = dup(STDIN_FILENO); /* the caller's fclose must not close stdin itself */
        FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
        if (!f) {
            int e = errno;
            gpu_errf(err, n, "-: cannot read standard input: %s", strerror(e));
            return refuse(fd, e);
        }
        return f;
    }
    SHOWN(path);
    if (!gpu_esc_clean(path, false)) { /* it would write lines of its own in every message */
        gpu_errf(err, n, "%s: the file name holds a control character: not read", shown);
        return refuse(-1, EINVAL);
    }
    /* O_NONBLOCK: opening a FIFO with no writer would wait for ever; the type is then checked on
     * the opened file itself, so nothing can swap the path in between */
    bool nofollow = flags & GPU_FILE_NOFOLLOW;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
    if (fd < 0) {
        int e = errno;
        struct stat st;
        if (e == ELOOP && nofollow && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
            gpu_errf(err, n, "%s: not a regular file (a symbolic link)", shown);
        else gpu_errf(err, n, "%s: cannot open: %s", shown, strerror(e));
        return refuse(-1, e);
    }
    FILE *f = gpu_file_fdopen(fd, path, max, err, n);
    if (!f && errno == EINVAL && (flags & GPU_FILE_STDIN) && strlen(err) + 32 < n)
        strcat(err, "; use - for standard input");
    return f;
}

static char *read_all(FILE *f, const char *path, size_t max, size_t *len, char *err, size_t n)
{
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
        return refuse(-1, EFBIG);
    }
    if (!buf || bad) {
        int e = buf ? (saved ? saved : EIO) : ENOMEM;
        SHOWN(path);
        gpu_errf(err, n, "%s: %s", shown, buf ? strerror(e) : "out of memory");
        free(buf);
        return refuse(-1, e);
    }
    buf[used] = 0;
    if (len) *len = used;
    return buf;
}

char *gpu_file_read(const char *path, size_t max, unsigned flags, size_t *len, char *err, size_t n)
{
    return read_all(gpu_file_open(path, max, flags, err, n), path, max, len, err, n);
}

char *gpu_file_read_fd(int fd, const char *path, size_t max, size_t *len, char *err, size_t n)
{
    return read_all(gpu_file_fdopen(fd, path, max, err, n), path, max, len, err, n);
}

/* f checked by gpu_file_open/_fdopen: its bytes read into private anonymous pages. Not a
 * mapping of the file: a file cut short while it is mapped (a snapshot written again over the
 * one being read, as torch.cuda.memory._dump_snapshot does) makes every later read of the lost
 * pages a SIGBUS, which no check can prevent; pages of our own cannot go away. They are read
 * once, in order, and gpu_file_map_drop frees what the caller is past, so the peak is about the
 * file's size however far the caller got. A file that changes size while read is refused. */
static bool map_file(FILE *f, const char *path, struct gpu_file_map *m, char *err, size_t n)
{
    static const unsigned char empty[1];
    memset(m, 0, sizeof *m);
    if (!f) return false;
    int fd = fileno(f);
    struct stat st;
    bool ok = fstat(fd, &st) == 0, changed = false;
    int e = errno;
    size_t len = ok ? (size_t)st.st_size : 0, got = 0;
    unsigned char *p = NULL;
    if (ok && len == 0) {
        m->data = empty;
        m->mapped = true; /* nothing to free */
    } else if (ok) {
        void *v = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        ok = v != MAP_FAILED;
        e = errno;
        p = ok ? v : NULL;
        while (ok && got < len) {
            ssize_t k = read(fd, p + got, len - got > (64u << 20) ? 64u << 20 : len - got);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                ok = false, e = k < 0 ? errno : 0, changed = k == 0;
                break;
            }
            got += (size_t)k;
        }
        char one;
        if (ok && read(fd, &one, 1) > 0) ok = false, e = 0, changed = true; /* it grew */
        if (ok) mprotect(p, len, PROT_READ);
        if (ok) {
            m->data = p;
            m->len = len;
            m->mapped = true;
        } else if (p) {
            munmap(p, len);
        }
    }
    fclose(f);
    if (!ok) {
        SHOWN(path);
        if (changed)
            gpu_errf(err, n, "%s: changed while it was read (%zu bytes when opened): read it again once "
                             "it is written", shown, len);
        else gpu_errf(err, n, "%s: cannot read: %s", shown, strerror(e ? e : EIO));
        errno = changed ? EAGAIN : e ? e : EIO;
    }
    return ok;
}

bool gpu_file_map(const char *path, size_t max, unsigned flags, struct gpu_file_map *m, char *err,
                  size_t n)
{
    memset(m, 0, sizeof *m);
    if ((flags & GPU_FILE_STDIN) && !strcmp(path, "-")) {
        size_t len = 0;
        char *b = gpu_file_read(path, max, flags, &len, err, n);
        if (!b) return false;
        m->data = (const unsigned char *)b;
        m->len = len;
        return true;
    }
    return map_file(gpu_file_open(path, max, flags, err, n), path, m, err, n);
}

bool gpu_file_map_fd(int fd, const char *path, size_t max, struct gpu_file_map *m, char *err,
                     size_t n)
{
    return map_file(gpu_file_fdopen(fd, path, max, err, n), path, m, err, n);
}

void gpu_file_map_drop(struct gpu_file_map *m, size_t upto)
{
    if (!m->mapped || !m->len) return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (upto > m->len) upto = m->len;
    upto -= upto % page;
    if (upto) madvise((void *)(uintptr_t)m->data, upto, MADV_DONTNEED);
}

void gpu_file_unmap(struct gpu_file_map *m)
{
    if (m->mapped && m->len) munmap((void *)(uintptr_t)m->data, m->len);
    else if (!m->mapped) free((void *)(uintptr_t)m->data);
    memset(m, 0, sizeof *m);
}

bool gpu_file_ok(const char *path, size_t max, unsigned flags)
{
    if (!gpu_esc_clean(path, false)) return false;
    struct stat st;
    int r = flags & GPU_FILE_NOFOLLOW ? lstat(path, &st) : stat(path, &st);
    return r == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size <= max;
}

int gpu_path_clashes(const char *folders, const char *sub, const char *ext,
                     void (*fn)(const char *unused, const char *used, void *ud), void *ud)
{
    char dir[1024], earlier[1024], path[2300], first[2300];
    size_t el = strlen(ext);
    int n = 0, k = 0;
    struct stat st;
    for (const char *p = folders; (p = gpu_path_next(p, dir, sizeof dir)); k++) {
        snprintf(path, sizeof path, "%s/%s", dir, sub);
        DIR *d = k && dir[0] ? opendir(path) : NULL;
        for (struct dirent *e; d && (e = readdir(d));) {
            size_t l = strlen(e->d_name);
            if (l <= el || strcmp(e->d_name + l - el, ext)) continue;
            int j = 0;
            for (const char *q = folders; j < k && (q = gpu_path_next(q, earlier, sizeof earlier)); j++) {
                snprintf(first, sizeof first, "%s/%s/%s", earlier, sub, e->d_name);
                if (!earlier[0] || lstat(first, &st) != 0) continue;
                snprintf(path, sizeof path, "%s/%s/%s", dir, sub, e->d_name);
                if (fn) fn(path, first, ud);
                n++;
                break;
            }
        }
        if (d) closedir(d);
    }
    return n;
}

const char *gpu_path_next(const char *list, char *out, size_t n)
{
    if (!list || !*list) return NULL;
    size_t l = strcspn(list, ":");
    snprintf(out, n, "%.*s", (int)l, list);
    return list + l + (list[l] == ':');
}
