/* tui_history.c - see tui_history.h. */
#include "tui_history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_file.h"

struct tui_history {
    char dir[1024];
    char *e[TUI_HISTORY_MAX];
    int n;
};

char *tui_history_escape(const char *s)
{
    char *out = malloc(2 * strlen(s) + 1), *o = out;
    if (!out) return NULL;
    for (; *s; s++) {
        if (*s == '\\') *o++ = '\\', *o++ = '\\';
        else if (*s == '\n') *o++ = '\\', *o++ = 'n';
        else if (*s == '\r') continue;
        else *o++ = *s;
    }
    *o = 0;
    return out;
}

char *tui_history_unescape(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    if (!out) return NULL;
    for (; *s; s++) {
        if (*s == '\\' && s[1] == 'n') *o++ = '\n', s++;
        else if (*s == '\\' && s[1] == '\\') *o++ = '\\', s++;
        else *o++ = *s;
    }
    *o = 0;
    return out;
}

static void push(struct tui_history *h, char *s)
{
    if (h->n == TUI_HISTORY_MAX) {
        free(h->e[0]);
        memmove(h->e, h->e + 1, (TUI_HISTORY_MAX - 1) * sizeof *h->e);
        h->n--;
    }
    h->e[h->n++] = s;
}

struct tui_history *tui_history_load(const char *dir)
{
    struct tui_history *h = calloc(1, sizeof *h);
    char path[1100], err[256];
    if (!h) return NULL;
    snprintf(h->dir, sizeof h->dir, "%s", dir);
    snprintf(path, sizeof path, "%s/history", dir);
    char *buf = tui_file_read(path, 4u << 20, NULL, err, sizeof err);
    for (char *line = buf, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        else next = line + strlen(line);
        if (!*line) continue;
        char *e = tui_history_unescape(line);
        if (e) push(h, e);
    }
    free(buf);
    return h;
}

void tui_history_free(struct tui_history *h)
{
    if (!h) return;
    for (int i = 0; i < h->n; i++) free(h->e[i]);
    free(h);
}

static bool save(struct tui_history *h, char *err, size_t n)
{
    size_t cap = 1, len = 0;
    char **esc = calloc((size_t)h->n + 1, sizeof *esc);
    bool ok = esc != NULL;
    for (int i = 0; ok && i < h->n; i++) {
        ok = (esc[i] = tui_history_escape(h->e[i])) != NULL;
        if (ok) cap += strlen(esc[i]) + 1;
    }
    char *buf = ok ? malloc(cap) : NULL;
    if (buf) {
        for (int i = 0; i < h->n; i++) {
            size_t l = strlen(esc[i]);
            memcpy(buf + len, esc[i], l);
            len += l;
            buf[len++] = '\n';
        }
        ok = tui_file_write_atomic(h->dir, "history", buf, len, err, n);
    } else {
        snprintf(err, n, "out of memory");
        ok = false;
    }
    for (int i = 0; esc && i < h->n; i++) free(esc[i]);
    free(esc);
    free(buf);
    return ok;
}

bool tui_history_add(struct tui_history *h, const char *entry, char *err, size_t n)
{
    const char *s = entry + strspn(entry, " \t\n");
    if (!*s || (h->n && !strcmp(h->e[h->n - 1], entry))) return true;
    char *c = strdup(entry);
    if (!c) {
        snprintf(err, n, "out of memory");
        return false;
    }
    push(h, c);
    return save(h, err, n);
}

int tui_history_count(const struct tui_history *h) { return h->n; }

const char *tui_history_get(const struct tui_history *h, int i)
{
    return i >= 0 && i < h->n ? h->e[i] : "";
}
