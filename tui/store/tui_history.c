/* tui_history.c - see tui_history.h. */
#include "tui_history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "tui_state.h"

struct tui_history {
    char dir[1024], name[64];
    char *e[TUI_HISTORY_MAX];
    int n, max;
    bool unique;
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

/* Drop entry i, the later ones moving down. */
static void drop(struct tui_history *h, int i)
{
    free(h->e[i]);
    memmove(h->e + i, h->e + i + 1, (size_t)(h->n - i - 1) * sizeof *h->e);
    h->n--;
}

static void push(struct tui_history *h, char *s)
{
    for (int i = h->n - 1; h->unique && i >= 0; i--)
        if (!strcmp(h->e[i], s)) drop(h, i);
    if (h->n == h->max) drop(h, 0);
    h->e[h->n++] = s;
}

static void clear(struct tui_history *h)
{
    for (int i = 0; i < h->n; i++) free(h->e[i]);
    h->n = 0;
}

/* The entries of a history file's text (NULL: none) into h, which is emptied first. */
static void parse(struct tui_history *h, const char *text)
{
    clear(h);
    char *buf = text ? strdup(text) : NULL;
    for (char *line = buf, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        else next = line + strlen(line);
        if (!*line) continue;
        char *e = tui_history_unescape(line);
        if (e) push(h, e);
    }
    free(buf);
}

struct tui_history *tui_history_load(const char *dir)
{
    return tui_history_open(dir, "history", TUI_HISTORY_MAX, false);
}

struct tui_history *tui_history_open(const char *dir, const char *name, int max, bool unique)
{
    struct tui_history *h = calloc(1, sizeof *h);
    char err[256];
    bool missing;
    if (!h) return NULL;
    snprintf(h->dir, sizeof h->dir, "%s", dir);
    snprintf(h->name, sizeof h->name, "%s", name);
    h->max = max > 0 && max <= TUI_HISTORY_MAX ? max : TUI_HISTORY_MAX;
    h->unique = unique;
    /* one that cannot be read is left alone here; the next entry keeps it aside */
    char *text = tui_state_read(dir, h->name, TUI_HISTORY_MAX_FILE, NULL, &missing, err, sizeof err);
    parse(h, text);
    free(text);
    return h;
}

void tui_history_free(struct tui_history *h)
{
    if (!h) return;
    clear(h);
    free(h);
}

/* The file's text: one escaped entry a line, the newest last, the oldest dropped past
 * TUI_HISTORY_MAX_FILE bytes so that it always reads back. */
static char *serialise(const struct tui_history *h, size_t *len)
{
    size_t cap = 1, used = 0;
    char **esc = calloc((size_t)h->n + 1, sizeof *esc);
    bool ok = esc != NULL;
    int first = 0;
    for (int i = 0; ok && i < h->n; i++) {
        ok = (esc[i] = tui_history_escape(h->e[i])) != NULL;
        if (ok) cap += strlen(esc[i]) + 1;
    }
    while (ok && first < h->n && cap > TUI_HISTORY_MAX_FILE) cap -= strlen(esc[first++]) + 1;
    char *buf = ok ? malloc(cap) : NULL;
    for (int i = first; buf && i < h->n; i++) {
        size_t l = strlen(esc[i]);
        memcpy(buf + used, esc[i], l);
        used += l;
        buf[used++] = '\n';
    }
    for (int i = 0; esc && i < h->n; i++) free(esc[i]);
    free(esc);
    if (buf) buf[used] = 0, *len = used;
    return buf;
}

struct adding {
    struct tui_history *h;
    const char *entry;
};

/* tui_state_update's function: the history on disk now, the entry added */
static enum tui_state_verdict add_fn(void *ud, const char *text, size_t len, char **out,
                                     size_t *olen, char *aside, size_t naside, char *why,
                                     size_t nwhy)
{
    struct adding *a = ud;
    struct tui_history *h = a->h;
    parse(h, text);
    if (h->n && !strcmp(h->e[h->n - 1], a->entry)) return TUI_STATE_SAME;
    char *c = strdup(a->entry);
    if (!c) return TUI_STATE_WRITE; /* *out NULL: out of memory */
    push(h, c);
    *out = serialise(h, olen);
    return TUI_STATE_WRITE;
}

bool tui_history_add(struct tui_history *h, const char *entry, char *err, size_t n)
{
    const char *s = entry + strspn(entry, " \t\n");
    if (n) err[0] = 0;
    if (!*s || (h->n && !strcmp(h->e[h->n - 1], entry))) return true;
    struct adding a = {h, entry};
    char note[1400];
    if (tui_state_update(h->dir, h->name, TUI_HISTORY_MAX_FILE, add_fn, &a, note, sizeof note, err, n)) {
        gpu_errf(err, n, "%s", note); /* a file kept aside on the way: said, though saved */
        return true;
    }
    /* not saved: kept for this session at least */
    char *c = strdup(entry);
    if (c) push(h, c);
    return false;
}

int tui_history_count(const struct tui_history *h) { return h->n; }

const char *tui_history_get(const struct tui_history *h, int i)
{
    return i >= 0 && i < h->n ? h->e[i] : "";
}
