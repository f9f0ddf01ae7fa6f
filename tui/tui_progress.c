/* tui_progress.c - saved progress (see tui_progress.h). File format, one record a line:
 *   vramlab-progress 1
 *   visit <lesson> <unix time>
 *   ex <lesson> <exercise> <tries> <solved 0|1> <unix time> <last answer...>
 */
#include "tui_progress.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

static bool parse_line(struct tui_progress *p, char *line)
{
    char kind[8], lesson[32], exercise[64];
    int tries, solved, used = 0;
    long when;
    line[strcspn(line, "\n")] = 0;
    if (sscanf(line, "%7s", kind) != 1) return false;
    if (!strcmp(kind, "visit")) {
        if (sscanf(line, "visit %31s %ld%n", lesson, &when, &used) != 2 || line[used] ||
            !valid_id(lesson) || strlen(lesson) >= 16)
            return false;
        struct rec *r = add(p);
        if (!r) return false;
        snprintf(r->lesson, sizeof r->lesson, "%s", lesson);
        r->when = when;
        return true;
    }
    if (!strcmp(kind, "ex")) {
        if (sscanf(line, "ex %31s %63s %d %d %ld%n", lesson, exercise, &tries, &solved, &when,
                   &used) != 5 || !valid_id(lesson) || !valid_id(exercise) ||
            strlen(lesson) >= 16 || strlen(exercise) >= 48 || tries < 0 || solved < 0 ||
            solved > 1 || (line[used] && line[used] != ' '))
            return false;
        struct rec *r = add(p);
        if (!r) return false;
        r->is_ex = true;
        snprintf(r->lesson, sizeof r->lesson, "%s", lesson);
        snprintf(r->exercise, sizeof r->exercise, "%s", exercise);
        r->tries = tries, r->solved = solved, r->when = when;
        snprintf(r->answer, sizeof r->answer, "%s", line[used] ? line + used + 1 : "");
        return true;
    }
    return false;
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
    char line[512];
    if (n) note[0] = 0;
    if (!p) return NULL;
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    snprintf(p->path, sizeof p->path, "%s/progress", dir);
    FILE *f = fopen(p->path, "r");
    if (!f) return p; /* nothing saved yet */
    int version = 0;
    bool ok = fgets(line, sizeof line, f) && sscanf(line, "vramlab-progress %d", &version) == 1 &&
              version >= 1;
    if (ok && version > TUI_PROGRESS_VERSION) {
        fclose(f);
        char suffix[32];
        snprintf(suffix, sizeof suffix, "v%d", version);
        keep_aside(p, suffix, "was written by a newer vramlab", note, n);
        return p;
    }
    int ln = 1;
    while (ok && fgets(line, sizeof line, f)) {
        ln++;
        ok = parse_line(p, line);
    }
    fclose(f);
    if (!ok) {
        char suffix[48], why[64];
        snprintf(suffix, sizeof suffix, "corrupt-%ld", (long)time(NULL));
        snprintf(why, sizeof why, "is damaged at line %d", ln);
        p->n = 0;
        keep_aside(p, suffix, why, note, n);
    }
    return p;
}

void tui_progress_free(struct tui_progress *p)
{
    if (!p) return;
    free(p->r);
    free(p);
}

static bool mkdirs(const char *dir)
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

bool tui_progress_save(struct tui_progress *p, char *err, size_t n)
{
    char tmp[1200];
    if (!mkdirs(p->dir)) {
        snprintf(err, n, "cannot create %s: %s", p->dir, strerror(errno));
        return false;
    }
    snprintf(tmp, sizeof tmp, "%s/.progress-XXXXXX", p->dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, n, "cannot write in %s: %s", p->dir, strerror(errno));
        return false;
    }
    FILE *f = fdopen(fd, "w");
    bool ok = f && fprintf(f, "vramlab-progress %d\n", TUI_PROGRESS_VERSION) > 0;
    for (int i = 0; ok && i < p->n; i++) {
        const struct rec *r = &p->r[i];
        if (r->is_ex)
            ok = fprintf(f, "ex %s %s %d %d %ld %s\n", r->lesson, r->exercise, r->tries,
                         r->solved, r->when, r->answer) > 0;
        else ok = fprintf(f, "visit %s %ld\n", r->lesson, r->when) > 0;
    }
    /* data on disk before the rename makes it visible; the rename on disk before we say done */
    ok = ok && fflush(f) == 0 && fsync(fd) == 0;
    int saved = errno;
    if (f) fclose(f);
    else close(fd);
    if (!ok) {
        snprintf(err, n, "cannot write %s: %s", tmp, strerror(saved ? saved : EIO));
        unlink(tmp);
        return false;
    }
    if (rename(tmp, p->path) != 0) {
        snprintf(err, n, "cannot replace %s: %s", p->path, strerror(errno));
        unlink(tmp);
        return false;
    }
    int dfd = open(p->dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return true;
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
    /* one line per record: the answer loses its line breaks */
    snprintf(r->answer, sizeof r->answer, "%s", answer ? answer : "");
    for (char *c = r->answer; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
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

void tui_progress_print(const struct tui_progress *p, FILE *f)
{
    fprintf(f, "Progress (%s)\n", p->path);
    if (!p->n) fprintf(f, "  nothing yet: open a lesson with `vramlab`\n");
    for (int i = 0; i < p->n; i++) {
        const struct rec *r = &p->r[i];
        char when[32];
        time_t t = (time_t)r->when;
        strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime(&t));
        if (!r->is_ex) fprintf(f, "  %-5s visited                       %s\n", r->lesson, when);
        else
            fprintf(f, "  %-5s %-20s %-8s %d tr%s  %s  last answer: %s\n", r->lesson, r->exercise,
                    r->solved ? "solved" : "open", r->tries, r->tries == 1 ? "y " : "ies", when,
                    r->answer);
    }
}

const char *tui_progress_path(const struct tui_progress *p) { return p->path; }
