/* tui_out.c - the one filter between the program's text and the terminal (see tui_out.h). */
#include "tui_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_esc.h"
#include "gpu_utf8.h"

size_t tui_out_filter(const char *s, size_t n, bool final,
                       void (*emit)(void *ud, const char *p, size_t n), void *ud)
{
    size_t i = 0, run = 0; /* s[run, i): text that passes as it is */
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t') {
            i++;
            continue;
        }
        unsigned cp = c;
        int k = 1;
        if (c >= 0x80) {
            if (!final && gpu_utf8_partial(s + i, n - i)) break; /* the rest comes next time */
            k = gpu_utf8_decode(s + i, n - i, &cp);
            if (!(cp == 0xfffd && k == 1) && !gpu_esc_control(cp)) {
                i += (size_t)k;
                continue;
            }
        }
        if (i > run) emit(ud, s + run, i - run);
        char esc[16];
        if (cp == 0xfffd && k == 1) emit(ud, "\xef\xbf\xbd", 3); /* invalid UTF-8: U+FFFD */
        else emit(ud, esc, (size_t)snprintf(esc, sizeof esc, cp < 0x80 ? "\\x%02x" : "\\u%04x", cp));
        i += (size_t)k;
        run = i;
    }
    if (i > run) emit(ud, s + run, i - run);
    return i;
}

static void emit_file(void *ud, const char *p, size_t n) { fwrite(p, 1, n, ud); }

void tui_out_fputs(FILE *f, const char *s)
{
    if (s) tui_out_filter(s, strlen(s), true, emit_file, f);
}

/* stdout and stderr through the filter: a cookie stream per descriptor that filters what the
 * stdio buffer hands it and writes it with write(2). */
struct guard {
    int fd;
    int err;         /* errno of the first failed write */
    char pend[4];    /* a UTF-8 sequence cut by the buffer's end */
    size_t npend;
};

static struct guard g_out = {STDOUT_FILENO, 0, {0}, 0}, g_err = {STDERR_FILENO, 0, {0}, 0};
static FILE *g_term, *g_term_err; /* the real streams */

static void emit_fd(void *ud, const char *p, size_t n)
{
    struct guard *g = ud;
    while (n && !g->err) {
        ssize_t k = write(g->fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            g->err = k < 0 ? errno : EIO;
            break;
        }
        p += k, n -= (size_t)k;
    }
}

static ssize_t guard_write(void *c, const char *buf, size_t size)
{
    struct guard *g = c;
    size_t left = size;
    if (g->npend) { /* finish the cut sequence with the first bytes of this buffer */
        char tmp[8];
        size_t t = g->npend, take = left < 4 ? left : 4;
        memcpy(tmp, g->pend, t);
        memcpy(tmp + t, buf, take);
        size_t used = tui_out_filter(tmp, t + take, false, emit_fd, g);
        if (used < t) { /* still cut: all of it waits (at most 3 bytes) */
            memcpy(g->pend + t, buf, take);
            g->npend = t + take;
            return g->err ? -1 : (ssize_t)size;
        }
        g->npend = 0;
        buf += used - t, left -= used - t;
    }
    size_t used = tui_out_filter(buf, left, false, emit_fd, g);
    memcpy(g->pend, buf + used, left - used);
    g->npend = left - used;
    if (g->err) {
        errno = g->err;
        return -1;
    }
    return (ssize_t)size;
}

static int guard_close(void *c)
{
    struct guard *g = c;
    if (g->npend) tui_out_filter(g->pend, g->npend, true, emit_fd, g);
    g->npend = 0;
    return g->err ? -1 : 0;
}

bool tui_out_guard(void)
{
    if (g_term) return true;
    cookie_io_functions_t io = {.write = guard_write, .close = guard_close};
    FILE *o = fopencookie(&g_out, "w", io), *e = fopencookie(&g_err, "w", io);
    if (!o || !e) {
        if (o) fclose(o);
        if (e) fclose(e);
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    setvbuf(o, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
    setvbuf(e, NULL, _IONBF, 0);
    g_term = stdout, g_term_err = stderr;
    stdout = o, stderr = e;
    return true;
}

FILE *tui_out_terminal(void) { return g_term ? g_term : stdout; }

int tui_out_close(void)
{
    if (!g_term) return fflush(stdout) == 0 && !ferror(stdout) ? 0 : errno ? errno : EIO;
    bool bad = fclose(stdout) != 0;
    int err = g_out.err ? g_out.err : bad ? EIO : 0;
    fclose(stderr);
    stdout = g_term, stderr = g_term_err;
    g_term = g_term_err = NULL;
    /* the real stream: whatever ncurses left, and a close that fails (a file system that only
     * reports errors then); a stdout that was closed to begin with already failed above */
    errno = 0;
    if (fclose(stdout) != 0 && !err && errno != EBADF) err = errno ? errno : EIO;
    return err;
}
