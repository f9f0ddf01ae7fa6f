/* tui_progress.c - saved progress (see tui_progress.h). File format, one record a line:
 *   vramlab-progress 1
 *   visit <lesson> <unix time>
 *   ex <lesson> <exercise> <tries> <solved 0|1> <unix time> <last answer...>
 */
#include "tui_progress.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gpu_file.h"
#include "gpu_parse.h"
#include "tui_file.h"

struct rec {
    bool is_ex;
    char lesson[16], exercise[48];
    int tries;
    bool solved;
    long when;
    char answer[96];
};

struct tui_progress {
    char dir[1024], path[1100];
    struct rec *r;
    int n, cap;
};

void tui_progress_dir(char *buf, size_t n)
{
    const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (x && *x == '/') snprintf(buf, n, "%s/vramlab", x);
    else snprintf(buf, n, "%s/.local/state/vramlab", home && *home ? home : "/tmp");
}

static bool valid_id(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (!(*s == '.' || *s == '_' || *s == '-' || (*s >= '0' && *s <= '9') ||
              (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
            return false;
    return true;
}

static struct rec *add(struct tui_progress *p)
{
    if (p->n == p->cap) {
        int nc = p->cap ? p->cap * 2 : 32;
        struct rec *nr = realloc(p->r, (size_t)nc * sizeof *nr);
        if (!nr) return NULL;
        p->r = nr, p->cap = nc;
    }
    struct rec *r = &p->r[p->n++];
    memset(r, 0, sizeof *r);
    return r;
}

/* The next space-separated field of *p, cut out in place; NULL when there is none. */
static char *field(char **p)
{
    char *s = *p;
    if (!*s) return NULL;
    char *sp = strchr(s, ' ');
    if (sp) *sp = 0, *p = sp + 1;
    else *p = s + strlen(s);
    return s;
}

/* Unix times a progress record can carry: 1970 up to the end of year 9999 (localtime and
 * strftime handle those everywhere; a larger one made localtime fail). */
#define WHEN_MAX 253402300799ull

static bool parse_line(struct tui_progress *p, char *line)
{
    char *rest = line, *kind = field(&rest), *lesson = field(&rest), *exercise = NULL;
    char *tries_s = NULL, *solved_s = NULL, *when_s, why[128];
    uint64_t tries = 0, solved = 0, when;
    if (!kind || !lesson || !valid_id(lesson) || strlen(lesson) >= 16) return false;
    bool ex = !strcmp(kind, "ex");
    if (!ex && strcmp(kind, "visit")) return false;
    if (ex && (!(exercise = field(&rest)) || !valid_id(exercise) || strlen(exercise) >= 48 ||
               !(tries_s = field(&rest)) || !(solved_s = field(&rest)) ||
               !gpu_parse_u64(tries_s, 0, INT_MAX, &tries, why, sizeof why) ||
               !gpu_parse_u64(solved_s, 0, 1, &solved, why, sizeof why)))
        return false;
    if (!(when_s = field(&rest)) || !gpu_parse_u64(when_s, 0, WHEN_MAX, &when, why, sizeof why))
        return false;
    if (!ex && *rest) return false;
    struct rec *r = add(p);
    if (!r) return false;
    r->is_ex = ex;
    snprintf(r->lesson, sizeof r->lesson, "%s", lesson);
    if (ex) snprintf(r->exercise, sizeof r->exercise, "%s", exercise);
    r->tries = (int)tries, r->solved = solved, r->when = (long)when;
    if (ex) snprintf(r->answer, sizeof r->answer, "%s", rest);
    return true;
}

/* Move an unreadable file aside so the learner's data is never silently overwritten. */
static void keep_aside(struct tui_progress *p, const char *suffix, const char *why, char *note,
                       size_t n)
{
    char aside[1200];
    snprintf(aside, sizeof aside, "%s.%s", p->path, suffix);
    if (rename(p->path, aside) == 0)
        snprintf(note, n, "progress file %s; kept it as %s and started afresh", why, aside);
    else
        snprintf(note, n, "progress file %s and could not be kept aside (%s)", why,
                 strerror(errno));
}

struct tui_progress *tui_progress_load(const char *dir, char *note, size_t n)
{
    struct tui_progress *p = calloc(1, sizeof *p);
    char why[1200];
    if (n) note[0] = 0;
    if (!p) return NULL;
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    snprintf(p->path, sizeof p->path, "%s/progress", dir);
    struct stat st;
    if (lstat(p->path, &st) != 0 && errno == ENOENT) return p; /* nothing saved yet */
    size_t len;
    char *text = gpu_file_read(p->path, TUI_PROGRESS_MAX_FILE, 0, &len, why, sizeof why);
    if (!text) { /* too large, not a regular file, unreadable: kept aside like a damaged one */
        char suffix[48], what[1300];
        const char *colon = strstr(why, ": ");
        snprintf(suffix, sizeof suffix, "corrupt-%ld", (long)time(NULL));
        snprintf(what, sizeof what, "cannot be read (%s)", colon ? colon + 2 : why);
        keep_aside(p, suffix, what, note, n);
        return p;
    }
    char *line = text, *next;
    int version = 0, ln = 1;
    bool ok = strlen(text) == len; /* a NUL inside: not a file vramlab wrote */
    next = line + strcspn(line, "\n");
    if (*next) *next++ = 0;
    uint64_t v = 0;
    ok = ok && !strncmp(line, "vramlab-progress ", 17) &&
         gpu_parse_u64(line + 17, 1, INT_MAX, &v, why, sizeof why);
    version = (int)v;
    if (ok && version > TUI_PROGRESS_VERSION) {
        free(text);
        char suffix[32];
        snprintf(suffix, sizeof suffix, "v%d", version);
        keep_aside(p, suffix, "was written by a newer vramlab", note, n);
        return p;
    }
    for (line = next; ok && *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next) *next++ = 0;
        ln++;
        ok = parse_line(p, line);
    }
    free(text);
    if (!ok) {
        char suffix[48], what[64];
        snprintf(suffix, sizeof suffix, "corrupt-%ld", (long)time(NULL));
        snprintf(what, sizeof what, "is damaged at line %d", ln);
        p->n = 0;
        keep_aside(p, suffix, what, note, n);
    }
    return p;
}

void tui_progress_free(struct tui_progress *p)
{
    if (!p) return;
    free(p->r);
    free(p);
}

bool tui_progress_save(struct tui_progress *p, char *err, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bool ok = f && fprintf(f, "vramlab-progress %d\n", TUI_PROGRESS_VERSION) > 0;
    for (int i = 0; ok && i < p->n; i++) {
        const struct rec *r = &p->r[i];
        if (r->is_ex)
            ok = fprintf(f, "ex %s %s %d %d %ld %s\n", r->lesson, r->exercise, r->tries,
                         r->solved, r->when, r->answer) > 0;
        else ok = fprintf(f, "visit %s %ld\n", r->lesson, r->when) > 0;
    }
    if (f && fclose(f) != 0) ok = false;
    if (!ok) snprintf(err, n, "cannot write %s: out of memory", p->path);
    /* the old file or the new one after a crash, never half of either */
    else ok = tui_file_write_atomic(p->dir, "progress", text, len, err, n);
    free(text);
    return ok;
}

static struct rec *find(const struct tui_progress *p, bool is_ex, const char *lesson,
                        const char *exercise)
{
    for (int i = 0; i < p->n; i++)
        if (p->r[i].is_ex == is_ex && !strcmp(p->r[i].lesson, lesson) &&
            (!is_ex || !strcmp(p->r[i].exercise, exercise)))
            return &p->r[i];
    return NULL;
}

void tui_progress_visit(struct tui_progress *p, const char *lesson)
{
    if (!valid_id(lesson) || strlen(lesson) >= 16) return;
    struct rec *r = find(p, false, lesson, NULL);
    if (!r && (r = add(p))) snprintf(r->lesson, sizeof r->lesson, "%s", lesson);
    if (r) r->when = (long)time(NULL);
}

/* The last answer on one line of the file: line breaks and tabs as \n, \r, \t; when it does
 * not fit, cut at a character boundary and marked with "…" (a code answer is shown, not kept). */
static void keep_answer(char *out, size_t n, const char *a)
{
    static const char mark[] = "\xe2\x80\xa6";
    size_t full = 0, o = 0;
    for (const char *c = a; *c; c++) full += strchr("\n\r\t", *c) ? 2 : 1;
    size_t limit = full < n ? n - 1 : n - sizeof mark;
    const char *c = a;
    for (; *c; c++) {
        char esc = *c == '\n' ? 'n' : *c == '\r' ? 'r' : *c == '\t' ? 't' : 0;
        if (o + (esc ? 2 : 1) > limit) break;
        if (esc) out[o++] = '\\', out[o++] = esc;
        else out[o++] = *c;
    }
    if (*c) { /* cut: drop a character's first bytes, then mark the cut */
        while (o > 0 && ((unsigned char)*c & 0xc0) == 0x80) o--, c--;
        memcpy(out + o, mark, sizeof mark);
        return;
    }
    out[o] = 0;
}

void tui_progress_attempt(struct tui_progress *p, const char *lesson, const char *exercise,
                          bool solved, const char *answer)
{
    if (!valid_id(lesson) || !valid_id(exercise) || strlen(lesson) >= 16 || strlen(exercise) >= 48)
        return;
    struct rec *r = find(p, true, lesson, exercise);
    if (!r && (r = add(p))) {
        r->is_ex = true;
        snprintf(r->lesson, sizeof r->lesson, "%s", lesson);
        snprintf(r->exercise, sizeof r->exercise, "%s", exercise);
    }
    if (!r) return;
    r->tries++;
    r->solved |= solved;
    r->when = (long)time(NULL);
    keep_answer(r->answer, sizeof r->answer, answer ? answer : "");
}

bool tui_progress_visited(const struct tui_progress *p, const char *lesson)
{
    return find(p, false, lesson, NULL) != NULL;
}

int tui_progress_solved(const struct tui_progress *p, const char *lesson)
{
    int k = 0;
    for (int i = 0; i < p->n; i++) k += p->r[i].is_ex && p->r[i].solved && !strcmp(p->r[i].lesson, lesson);
    return k;
}

int tui_progress_attempted(const struct tui_progress *p, const char *lesson)
{
    int k = 0;
    for (int i = 0; i < p->n; i++) k += p->r[i].is_ex && !strcmp(p->r[i].lesson, lesson);
    return k;
}

bool tui_progress_exercise_solved(const struct tui_progress *p, const char *lesson,
                                  const char *exercise)
{
    const struct rec *r = find(p, true, lesson, exercise);
    return r && r->solved;
}

int tui_progress_reset(struct tui_progress *p, const char *lesson)
{
    int kept = 0, gone = 0;
    for (int i = 0; i < p->n; i++) {
        if (!lesson || !strcmp(p->r[i].lesson, lesson)) gone++;
        else p->r[kept++] = p->r[i];
    }
    p->n = kept;
    return gone;
}

int tui_progress_count(const struct tui_progress *p) { return p->n; }

bool tui_progress_get(const struct tui_progress *p, int i, struct tui_progress_rec *out)
{
    if (i < 0 || i >= p->n) return false;
    const struct rec *r = &p->r[i];
    *out = (struct tui_progress_rec){r->is_ex, r->lesson, r->exercise, r->tries, r->solved,
                                     r->when, r->answer};
    return true;
}

const char *tui_progress_path(const struct tui_progress *p) { return p->path; }
