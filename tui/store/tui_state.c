/* tui_state.c - see tui_state.h. Every name below is relative to a folder opened once and
 * checked (openat and friends), so a folder swapped for a link half-way changes nothing. */
#include "tui_state.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpu_err.h"
#include "gpu_esc.h"
#include "gpu_file.h"
#include "gpu_fmt.h"
#include "gpu_parse.h"
#include "tui_file.h"

#define LOCK_NAME ".lock"
#define LOCK_WAIT_S 10 /* a save holds the lock for milliseconds; past this something is stuck */

bool tui_state_dir(char *buf, size_t n, char *err, size_t en)
{
    const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    int k;
    if (x && *x == '/') {
        k = snprintf(buf, n, "%s/vramlab", x);
    } else {
        if (!home || *home != '/') { /* the account's own home, never a shared folder */
            const struct passwd *pw = getpwuid(getuid());
            home = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
        }
        if (!home) {
            gpu_errf(err, en, "no private folder for learner state (set XDG_STATE_HOME or HOME): "
                              "progress and history are not kept");
            if (n) buf[0] = 0;
            return false;
        }
        k = snprintf(buf, n, "%s/.local/state/vramlab", home);
    }
    if (k < 0 || (size_t)k >= n || !gpu_esc_clean(buf, false)) {
        gpu_errf(err, en, "the state folder's path %s: progress and history are not kept",
                 k < 0 || (size_t)k >= n ? "is too long" : "holds a control character");
        if (n) buf[0] = 0;
        return false;
    }
    return true;
}

/* fd, a folder just opened as `path`: one this user owns and no one else may write to */
static bool private_dir(int fd, const char *path, char *err, size_t n)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        gpu_errf(err, n, "%s: %s", path, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        gpu_errf(err, n, "%s: not a folder", path);
        return false;
    }
    if (st.st_uid != geteuid()) {
        gpu_errf(err, n, "%s: owned by another user (uid %ld): not used for learner state", path,
                 (long)st.st_uid);
        return false;
    }
    if (st.st_mode & 022) {
        gpu_errf(err, n, "%s: other users may write to it (mode %03o): not used for learner state; "
                         "chmod 700 it", path, (unsigned)(st.st_mode & 0777));
        return false;
    }
    return true;
}

/* The checked folder dir (and dir/sub), made where missing; its descriptor, or -1 with err. */
static int open_ready(const char *dir, const char *sub, char *err, size_t n)
{
    if (!tui_file_mkdirs(dir, 0700)) {
        gpu_errf(err, n, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        gpu_errf(err, n, "%s: %s", dir, strerror(errno));
        return -1;
    }
    if (!private_dir(fd, dir, err, n)) {
        close(fd);
        return -1;
    }
    if (!sub) return fd;
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    if (mkdirat(fd, sub, 0700) != 0 && errno != EEXIST) {
        gpu_errf(err, n, "cannot create %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    int sfd = openat(fd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    close(fd);
    if (sfd < 0) {
        gpu_errf(err, n, "%s: %s", path, errno == ELOOP || errno == ENOTDIR ? "not a folder" : strerror(errno));
        return -1;
    }
    if (!private_dir(sfd, path, err, n)) {
        close(sfd);
        return -1;
    }
    return sfd;
}

bool tui_state_ready(const char *dir, const char *sub, char *err, size_t n)
{
    int fd = open_ready(dir, sub, err, n);
    if (fd < 0) return false;
    close(fd);
    return true;
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

/* A new temporary file in dfd for `name` (O_EXCL, no link followed): its descriptor, or -1. */
static int tmp_create(int dfd, const char *name, char *tmp, size_t n, mode_t mode)
{
    static unsigned seq;
    for (int i = 0; i < 100; i++) {
        snprintf(tmp, n, ".%.200s.%ld.%u.tmp", name, (long)getpid(), seq++);
        int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

/* dfd/name replaced by data: temporary file, fsync, rename, fsync of the folder. */
static bool replace(int dfd, const char *dir, const char *name, const char *data, size_t len,
                    char *err, size_t n)
{
    char tmp[300];
    int fd = tmp_create(dfd, name, tmp, sizeof tmp, 0600);
    if (fd < 0) {
        gpu_errf(err, n, "cannot write in %s: %s", dir, strerror(errno));
        return false;
    }
    /* data on disk before the rename makes it visible; the rename on disk before we say done */
    bool ok = write_all(fd, data, len) && fsync(fd) == 0;
    int saved = errno;
    close(fd);
    if (!ok) {
        gpu_errf(err, n, "cannot write %s/%s: %s", dir, tmp, strerror(saved ? saved : EIO));
    } else if (renameat(dfd, tmp, dfd, name) != 0) {
        gpu_errf(err, n, "cannot replace %s/%s: %s", dir, name, strerror(errno));
        ok = false;
    }
    if (!ok) unlinkat(dfd, tmp, 0);
    else fsync(dfd);
    return ok;
}

/* The folder's lock, held until the descriptor is closed; -1 with err. */
static int lock(int dfd, const char *dir, char *err, size_t n)
{
    int fd = openat(dfd, LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        gpu_errf(err, n, "%s/%s: %s", dir, LOCK_NAME, fd < 0 ? strerror(errno) : "not a regular file");
        if (fd >= 0) close(fd);
        return -1;
    }
    /* polled, not blocking: a process stopped while it holds the lock cannot hang this one */
    for (int i = 0; i < LOCK_WAIT_S * 200; i++) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
        if (errno != EWOULDBLOCK && errno != EINTR) break;
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    gpu_errf(err, n, "%s/%s: %s", dir, LOCK_NAME,
             errno == EWOULDBLOCK ? "held by another vramlab for more than 10 s" : strerror(errno));
    close(fd);
    return -1;
}

/* Rename dfd/name aside as name.suffix (name.suffix-2, ... when taken); note says so. */
static void keep_aside(int dfd, const char *dir, const char *name, const char *suffix,
                       const char *why, char *note, size_t nn)
{
    char aside[300];
    struct stat st;
    snprintf(aside, sizeof aside, "%s.%s", name, suffix);
    for (int i = 2; i < 100 && fstatat(dfd, aside, &st, AT_SYMLINK_NOFOLLOW) == 0; i++)
        snprintf(aside, sizeof aside, "%s.%s-%d", name, suffix, i);
    if (renameat(dfd, name, dfd, aside) == 0)
        snprintf(note, nn, "%s file %s; kept it as %s/%s and started afresh", name, why, dir, aside);
    else
        snprintf(note, nn, "%s file %s and could not be kept aside (%s)", name, why, strerror(errno));
}

/* "PATH: what" -> "what" */
static const char *after_path(const char *msg, const char *path)
{
    size_t l = strlen(path);
    return !strncmp(msg, path, l) && !strncmp(msg + l, ": ", 2) ? msg + l + 2 : msg;
}

enum tui_state_verdict tui_state_records(const char *text, size_t len, const char *magic,
                                         int version, bool (*line_fn)(void *ud, char *line),
                                         void *ud, char *aside, size_t naside, char *why,
                                         size_t nwhy)
{
    char *copy = malloc(len + 1);
    if (!copy) {
        gpu_errf(why, nwhy, "could not be read (out of memory)");
        return TUI_STATE_DAMAGED;
    }
    memcpy(copy, text, len + 1);
    char *line = copy, *next = line + strcspn(line, "\n");
    if (*next) *next++ = 0;
    size_t ml = strlen(magic);
    uint64_t v = 0;
    char e[128];
    bool ok = strlen(text) == len && !strncmp(line, magic, ml) && line[ml] == ' ' &&
              gpu_parse_u64(line + ml + 1, 1, INT_MAX, &v, e, sizeof e);
    int ln = 1;
    if (ok && v > (uint64_t)version) {
        free(copy);
        snprintf(aside, naside, "v%d", (int)v);
        gpu_errf(why, nwhy, "was written by a newer vramlab");
        return TUI_STATE_DAMAGED;
    }
    for (line = next; ok && *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next) *next++ = 0;
        ln++;
        ok = line_fn(ud, line);
    }
    free(copy);
    if (ok) return TUI_STATE_SAME;
    gpu_errf(why, nwhy, "is damaged at line %d", ln);
    return TUI_STATE_DAMAGED;
}

bool tui_state_update(const char *dir, const char *name, size_t max, tui_state_fn fn, void *ud,
                      char *note, size_t nn, char *err, size_t n)
{
    if (nn) note[0] = 0;
    int dfd = open_ready(dir, NULL, err, n);
    if (dfd < 0) return false;
    int lk = lock(dfd, dir, err, n);
    if (lk < 0) {
        close(dfd);
        return false;
    }
    char path[1200], why[1400], suffix[48];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(suffix, sizeof suffix, "corrupt-%ld", (long)time(NULL));
    size_t len = 0;
    char *text = NULL;
    bool ok = true;
    int fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && errno == ELOOP) {
        keep_aside(dfd, dir, name, suffix, "is a symbolic link", note, nn);
    } else if (fd < 0 && errno != ENOENT) {
        gpu_errf(err, n, "cannot read %s: %s; left as it is", path, strerror(errno));
        ok = false;
    } else if (fd >= 0 && !(text = gpu_file_read_fd(fd, path, max, &len, why, sizeof why))) {
        if (errno == EFBIG || errno == EINVAL) { /* there, but never one this version wrote */
            char what[1500];
            snprintf(what, sizeof what, "cannot be used (%s)", after_path(why, path));
            keep_aside(dfd, dir, name, suffix, what, note, nn);
        } else {
            gpu_errf(err, n, "cannot read %s; left as it is", why);
            ok = false;
        }
    }
    for (int round = 0; ok; round++) {
        char *out = NULL;
        size_t olen = 0;
        enum tui_state_verdict v = fn(ud, text, len, &out, &olen, suffix, sizeof suffix, why, sizeof why);
        if (v == TUI_STATE_DAMAGED && !round && text) {
            keep_aside(dfd, dir, name, suffix, why, note, nn);
            free(text), free(out);
            text = NULL, len = 0;
            continue;
        }
        if (v == TUI_STATE_WRITE && out && olen > max) { /* the reader would refuse it: never written */
            char has[32], lim[32];
            gpu_fmt_bytes((double)olen, GPU_FMT_BIN, has, sizeof has);
            gpu_fmt_bytes((double)max, GPU_FMT_BIN, lim, sizeof lim);
            gpu_errf(err, n, "not saved: %s would be %s, over its limit of %s (left as it is)", path, has, lim);
            free(out);
            ok = false;
            break;
        }
        if (v == TUI_STATE_DAMAGED) gpu_errf(err, n, "%s: %s", path, why);
        else if (v == TUI_STATE_WRITE && !out) gpu_errf(err, n, "cannot write %s: out of memory", path);
        ok = v == TUI_STATE_SAME || (v == TUI_STATE_WRITE && out && replace(dfd, dir, name, out, olen, err, n));
        free(out);
        break;
    }
    free(text);
    close(lk); /* the lock goes with its descriptor */
    close(dfd);
    return ok;
}

char *tui_state_read(const char *dir, const char *name, size_t max, size_t *len, bool *missing,
                     char *err, size_t n)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *missing = false;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 && errno == ENOENT) {
        *missing = true;
        return NULL;
    }
    if (dfd < 0) {
        gpu_errf(err, n, "%s: %s", dir, strerror(errno));
        return NULL;
    }
    if (!private_dir(dfd, dir, err, n)) { /* another user could have put anything there */
        close(dfd);
        errno = EACCES;
        return NULL;
    }
    int fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    int e = errno;
    close(dfd);
    if (fd < 0) {
        *missing = e == ENOENT;
        if (e == ELOOP) gpu_errf(err, n, "%s: not a regular file (a symbolic link)", path);
        else gpu_errf(err, n, "%s: %s", path, strerror(e));
        errno = e;
        return NULL;
    }
    return gpu_file_read_fd(fd, path, max, len, err, n);
}

int tui_state_create(const char *dir, const char *name, const char *data, size_t len,
                     char *err, size_t n)
{
    if (!*name || strchr(name, '/') || name[0] == '.') {
        gpu_errf(err, n, "'%s' is not a plain file name", name);
        return -1;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        gpu_errf(err, n, "%s: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        close(dfd);
        return 0;
    }
    char tmp[300];
    int fd = tmp_create(dfd, name, tmp, sizeof tmp, 0644);
    if (fd < 0) {
        gpu_errf(err, n, "cannot write in %s: %s", dir, strerror(errno));
        close(dfd);
        return -1;
    }
    bool ok = write_all(fd, data, len) && fsync(fd) == 0;
    int saved = errno;
    close(fd);
    int r = -1;
    if (!ok) {
        gpu_errf(err, n, "cannot write %s/%s: %s", dir, name, strerror(saved ? saved : EIO));
    } else if (linkat(dfd, tmp, dfd, name, 0) == 0) {
        fsync(dfd);
        r = 1;
    } else if (errno == EEXIST) {
        r = 0; /* made meanwhile (another run): theirs stays */
    } else {
        gpu_errf(err, n, "cannot create %s/%s: %s", dir, name, strerror(errno));
    }
    unlinkat(dfd, tmp, 0);
    close(dfd);
    return r;
}

/* ---- a file the user names ------------------------------------------------------------------ */

/* The temporary files of the outputs open now, for tui_state_reap: a slot is taken (busy) while
 * its name is written, then published (ready); the handler reads ready slots only. */
#define REAP_SLOTS 8
static struct {
    atomic_int state; /* 0 free, 1 busy, 2 ready */
    int dfd;
    char tmp[300];
} reap[REAP_SLOTS];

void tui_state_reap(void)
{
    for (int i = 0; i < REAP_SLOTS; i++)
        if (atomic_load(&reap[i].state) == 2) unlinkat(reap[i].dfd, reap[i].tmp, 0);
}

/* A quit signal at its default action (it would end the process): the temporary files go, then
 * the signal ends the process as it would have. */
static void reap_and_die(int sig)
{
    tui_state_reap();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int reap_add(int dfd, const char *tmp)
{
    static atomic_bool handlers;
    if (!atomic_exchange(&handlers, true)) {
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
        for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
            struct sigaction old, sa = {.sa_handler = reap_and_die};
            sigemptyset(&sa.sa_mask);
            /* only where the signal would end the process: one ignored or handled stays so */
            if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
                sigaction(sigs[i], &sa, NULL);
        }
    }
    for (int i = 0; i < REAP_SLOTS; i++) {
        int want = 0;
        if (atomic_compare_exchange_strong(&reap[i].state, &want, 1)) {
            reap[i].dfd = dfd;
            snprintf(reap[i].tmp, sizeof reap[i].tmp, "%s", tmp);
            atomic_store(&reap[i].state, 2);
            return i;
        }
    }
    return -1; /* more outputs open than slots: this one is not reaped */
}

/* After the temporary file was renamed or removed: a late reap finds no such name. */
static void reap_drop(int slot)
{
    if (slot >= 0) atomic_store(&reap[slot].state, 0);
}

struct tui_state_out {
    FILE *f;
    int dfd, slot;
    bool had;    /* a file of that name was there: its permissions are kept */
    mode_t mode;
    char path[1024], name[256], tmp[300];
};

static const char *kind_of(mode_t m)
{
    return S_ISLNK(m) ? "a symbolic link" : S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m) || S_ISBLK(m) ? "a device" : S_ISSOCK(m) ? "a socket" : "not a plain file";
}

struct tui_state_out *tui_state_out_open(const char *path, char *err, size_t n)
{
    struct tui_state_out *o = calloc(1, sizeof *o);
    if (!o) {
        gpu_errf(err, n, "out of memory");
        return NULL;
    }
    o->dfd = -1, o->slot = -1;
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    char dir[1024];
    snprintf(o->path, sizeof o->path, "%s", path);
    snprintf(o->name, sizeof o->name, "%s", base);
    if (slash == path) snprintf(dir, sizeof dir, "/");
    else if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else snprintf(dir, sizeof dir, ".");
    struct stat st;
    int there = -1;
    char shown[600];
    if (!gpu_esc_clean(path, false)) {
        gpu_errf(err, n, "%s: the file name holds a control character: not written",
                 gpu_esc_field(shown, sizeof shown, path));
    } else if (!*base || !strcmp(base, ".") || !strcmp(base, "..") || strlen(base) >= sizeof o->name) {
        gpu_errf(err, n, "%s: not a file name", path);
    } else if ((o->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        gpu_errf(err, n, "%s: %s", dir, strerror(errno));
    } else if ((there = fstatat(o->dfd, base, &st, AT_SYMLINK_NOFOLLOW)) != 0 && errno != ENOENT) {
        gpu_errf(err, n, "%s: %s", path, strerror(errno));
    } else if (there == 0 && !S_ISREG(st.st_mode)) {
        gpu_errf(err, n, "%s: not a regular file (%s): not written", path, kind_of(st.st_mode));
    } else {
        o->had = there == 0;
        o->mode = o->had ? st.st_mode & 07777 : 0;
        int fd = tmp_create(o->dfd, base, o->tmp, sizeof o->tmp, 0600);
        if (fd < 0) gpu_errf(err, n, "cannot write in %s: %s", dir, strerror(errno));
        else if (!(o->f = fdopen(fd, "w"))) {
            gpu_errf(err, n, "%s: %s", path, strerror(errno));
            close(fd);
            unlinkat(o->dfd, o->tmp, 0);
        } else {
            o->slot = reap_add(o->dfd, o->tmp);
            return o;
        }
    }
    if (o->dfd >= 0) close(o->dfd);
    free(o);
    return NULL;
}

FILE *tui_state_out_file(struct tui_state_out *o) { return o->f; }

bool tui_state_out_commit(struct tui_state_out *o, char *err, size_t n)
{
    mode_t mode = o->mode;
    if (!o->had) { /* a new file gets what the user's umask gives one (nothing else runs now) */
        mode_t um = umask(077);
        umask(um);
        mode = 0666 & ~um;
    }
    bool ok = fflush(o->f) == 0 && !ferror(o->f) && fchmod(fileno(o->f), mode) == 0 &&
              fsync(fileno(o->f)) == 0;
    int saved = errno;
    if (fclose(o->f) != 0 && ok) ok = false, saved = errno;
    o->f = NULL;
    if (!ok) gpu_errf(err, n, "cannot write %s: %s", o->path, strerror(saved ? saved : EIO));
    else if (renameat(o->dfd, o->tmp, o->dfd, o->name) != 0) {
        gpu_errf(err, n, "cannot replace %s: %s", o->path, strerror(errno));
        ok = false;
    }
    if (ok) fsync(o->dfd);
    else unlinkat(o->dfd, o->tmp, 0);
    reap_drop(o->slot);
    close(o->dfd);
    free(o);
    return ok;
}

void tui_state_out_abort(struct tui_state_out *o)
{
    if (!o) return;
    if (o->f) fclose(o->f);
    unlinkat(o->dfd, o->tmp, 0);
    reap_drop(o->slot);
    close(o->dfd);
    free(o);
}
