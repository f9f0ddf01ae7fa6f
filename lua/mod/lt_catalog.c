/* lt_catalog.c - the catalog: every lesson under colon-separated folders (the course's, then a
 * teacher's), sorted by chapter and id, a duplicate id reported. Each lesson is listed from its
 * header read without running the file (lt_header.c), so that `list`, the menu and completion
 * compile no lesson body; a lesson not in the plain form is loaded to be listed. Reading a
 * course is budgeted: course_seconds in all and course_lessons per folder (lt_limits,
 * VRAMLAB_LIMITS course= and lessons=); each lesson past the budget is listed with the error
 * "not loaded: the course took too long to load", and a load that would run past it is cut.
 * A teacher's course.lua (lt_course.h) makes the catalog that course: its sections, in its order. */
#include "lt.h"
#include "lt_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpu_err.h"
#include "gpu_esc.h"
#include "gpu_file.h"
#include "lt_course.h"
#include "lt_header.h"
#include "lt_lex.h"

#define MAX_FILES 100000 /* lesson files one folder's walk gathers, whatever the budget */

struct scan {
    struct lt_runtime *rt;
    struct lt_catalog_entry *e;
    int n, cap, folder;
    const char *only; /* lt_catalog_find: only files named ID-*.lua or ID.lua are read */
    bool budget;      /* false: `check`, every lesson read whatever it takes */
    double t0;
    char **files;     /* the lesson files of the folder being walked */
    int nfiles, capfiles;
};

/* A file named for the lesson id wanted: "4.3-checkpointing.lua" or "4.3.lua" for "4.3". */
static bool named_for(const char *name, const char *id)
{
    size_t k = strlen(id);
    return !strncmp(name, id, k) && (name[k] == '-' || !strcmp(name + k, ".lua"));
}

/* Folders already walked, by (device, inode): a symlink back up the tree (or two folders linked
 * to each other) is read once, never again and again until the depth runs out. */
struct seen {
    dev_t dev;
    ino_t ino;
};

static void add_file(struct scan *s, const char *path)
{
    if (s->nfiles == MAX_FILES) return;
    if (s->nfiles == s->capfiles) {
        int nc = s->capfiles ? 2 * s->capfiles : 64;
        char **nf = realloc(s->files, (size_t)nc * sizeof *nf);
        if (!nf) return;
        s->files = nf, s->capfiles = nc;
    }
    if ((s->files[s->nfiles] = strdup(path))) s->nfiles++;
}

static void walk(struct scan *s, const char *dir, int depth, struct seen *seen, int *nseen)
{
    struct stat ds;
    if (depth > 4 || *nseen == 256 || stat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode)) return;
    for (int i = 0; i < *nseen; i++)
        if (seen[i].dev == ds.st_dev && seen[i].ino == ds.st_ino) return;
    seen[(*nseen)++] = (struct seen){ds.st_dev, ds.st_ino};
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    char path[2048];
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue; /* a dangling link */
        size_t l = strlen(de->d_name);
        if (S_ISDIR(st.st_mode)) walk(s, path, depth + 1, seen, nseen);
        /* regular files only: a FIFO, socket or device named x.lua is not opened at all (and
         * the reader checks the opened file again, so a swap in between is refused too) */
        else if (S_ISREG(st.st_mode) && l > 4 && !strcmp(de->d_name + l - 4, ".lua") &&
                 !(l > 12 && !strcmp(de->d_name + l - 12, ".answers.lua")) && /* a lesson's answers */
                 !(l > 9 && !strcmp(de->d_name + l - 9, ".exam.lua")) &&      /* an exam */
                 !(depth == 0 && !strcmp(de->d_name, "course.lua")) &&          /* the course */
                 (!s->only || named_for(de->d_name, s->only)))
            add_file(s, path);
    }
    closedir(d);
}

static struct lt_catalog_entry *new_entry(struct scan *s, const char *path)
{
    if (s->n == s->cap) {
        int nc = s->cap ? s->cap * 2 : 16;
        struct lt_catalog_entry *ne = realloc(s->e, (size_t)nc * sizeof *ne);
        if (!ne) return NULL;
        s->e = ne, s->cap = nc;
    }
    struct lt_catalog_entry *e = &s->e[s->n++];
    memset(e, 0, sizeof *e);
    e->path = strdup(path);
    e->folder = s->folder;
    return e;
}

/* A lesson listed by its file name with why it is not there ("file:line: what"); a file name
 * is a title here: one field, escaped, and the error one record (gpu_esc.h). */
static void set_error(struct lt_catalog_entry *e, const char *path, const char *err)
{
    const char *base = strrchr(path, '/');
    char shown[512], why[2400];
    e->error = strdup(gpu_esc_field(why, sizeof why, err));
    e->id = strdup("");
    e->title[0] = strdup(gpu_esc_field(shown, sizeof shown, base ? base + 1 : path));
    e->title[1] = strdup(e->title[0] ? e->title[0] : "");
    e->chapter_title[0] = strdup("");
    e->chapter_title[1] = strdup("");
    e->chapter = 1 << 20; /* listed after every chapter */
}

/* The entry takes the header's strings. */
static void set_header(struct lt_catalog_entry *e, struct lt_header *h)
{
    e->id = strdup(h->id);
    e->chapter = h->chapter;
    for (int l = 0; l < 2; l++) {
        e->title[l] = h->title[l], e->chapter_title[l] = h->chapter_title[l];
        h->title[l] = h->chapter_title[l] = NULL;
    }
    e->nexercises = h->nexercises, e->exercises = h->exercises;
    h->nexercises = 0, h->exercises = NULL;
    lt_header_free(h);
}

static void not_loaded(struct scan *s, struct lt_catalog_entry *e, const char *path, bool count)
{
    char msg[2300];
    const struct lt_limits *lim = &s->rt->lim;
    if (count)
        snprintf(msg, sizeof msg, "%s: not loaded: the course took too long to load (a folder of "
                 "more than %d lessons; VRAMLAB_LIMITS=lessons=N)", path, lim->course_lessons);
    else
        snprintf(msg, sizeof msg, "%s: not loaded: the course took too long to load (%g s in "
                 "all; VRAMLAB_LIMITS=course=S)", path, lim->course_seconds);
    set_error(e, path, msg);
}

static void read_lesson(struct scan *s, const char *path, bool past_count)
{
    struct lt_catalog_entry *e = new_entry(s, path);
    if (!e) return;
    double left = s->rt->lim.course_seconds - (gpu_now() - s->t0);
    if (s->budget && (past_count || left <= 0)) {
        not_loaded(s, e, path, past_count);
        return;
    }
    char err[1024], why[256];
    size_t len;
    struct lt_header h;
    char *src = lt_read_file(path, &len, err, sizeof err);
    if (!src) { /* the loader would read it the same way and say the same */
        set_error(e, path, err);
        return;
    }
    bool plain = lt_header_scan(src, len, &h, why, sizeof why);
    free(src);
    if (plain) {
        set_header(e, &h);
        return;
    }
    /* Not in the plain form: run it to know, within what is left of the budget. */
    struct lt_limits keep = s->rt->lim;
    if (s->budget) {
        if (left < s->rt->lim.seconds) s->rt->lim.seconds = left;
        if (left < s->rt->lim.wall_seconds) s->rt->lim.wall_seconds = left;
    }
    struct lt_lesson *ls = lt_lesson_load(s->rt, path, err, sizeof err);
    s->rt->lim = keep;
    if (!ls) {
        if (s->budget && gpu_now() - s->t0 >= keep.course_seconds) not_loaded(s, e, path, false);
        else set_error(e, path, err);
        return;
    }
    if (lt_lesson_header(ls, &h)) set_header(e, &h);
    else set_error(e, path, "out of memory");
    lt_lesson_free(ls);
}

int lt_catalog_id_line(const char *path)
{
    char err[256];
    size_t len;
    char *src = lt_read_file(path, &len, err, sizeof err);
    if (!src) return 1;
    int line = 0;
    struct lt_lex x; /* the first `lesson {` whose table holds a literal id */
    for (lt_lex_init(&x, src, len); !line && x.t != LT_TOK_EOF && x.t != LT_TOK_BAD; lt_lex_next(&x))
        if (lt_lex_is(&x, LT_TOK_NAME, "lesson") && lt_lex_next_is(&x, LT_TOK_PUNCT, "{"))
            line = lt_lex_field_line(src, len, x.tline, "lesson", "id");
    free(src);
    return line > 0 ? line : 1;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "1.10" sorts after "1.9": compare the parts as numbers. */
static int cmp_entry(const void *a, const void *b)
{
    const struct lt_catalog_entry *x = a, *y = b;
    if (x->chapter != y->chapter) return x->chapter < y->chapter ? -1 : 1;
    const char *dx = strchr(x->id, '.'), *dy = strchr(y->id, '.');
    long sx = dx ? strtol(dx + 1, NULL, 10) : 0, sy = dy ? strtol(dy + 1, NULL, 10) : 0;
    if (sx != sy) return sx < sy ? -1 : 1;
    if (x->folder != y->folder) return x->folder < y->folder ? -1 : 1; /* the course's first */
    return strcmp(x->path, y->path);
}

/* The course as a teacher's course.lua orders it (lt_course.h): its sections in its order, each
 * the lesson with that id (a section no lesson has is an error entry at its line), then the
 * teacher's files that did not load or whose id another lesson has (the teacher must see them). A course.lua
 * that is wrong is one error entry, the whole list: a class is never shown another course than
 * the teacher's. `only`: one id looked up (lt_catalog_find): the others are not there. */
static int apply_course(struct scan *s, const char *dir)
{
    struct lt_course c;
    char err[4600];
    int r = lt_course_read(dir, &c, err, sizeof err);
    if (r == 0) return s->n;
    if (r > 0 && s->budget && gpu_now() - s->t0 > s->rt->lim.course_seconds) { /* its budget too */
        snprintf(err, sizeof err, "%s: not loaded: the course took too long to load (%g s in all; "
                 "VRAMLAB_LIMITS=course=S)", c.path, s->rt->lim.course_seconds);
        r = -1;
    }
    struct lt_catalog_entry *e = s->e;
    int n = s->n;
    s->e = NULL, s->n = s->cap = 0;
    if (r < 0) {
        struct lt_catalog_entry *x = new_entry(s, c.path);
        if (x) set_error(x, c.path, err);
    }
    for (int i = 0; r > 0 && i < c.n; i++) {
        const char *id = c.sections[i].id;
        if (s->only && strcmp(id, s->only)) continue;
        int k = 0;
        while (k < n && (e[k].error || strcmp(e[k].id, id))) k++;
        if (k == n) { /* looked up by its file name (find) and not there: not an error yet */
            if (s->only) continue;
            struct lt_catalog_entry *x = new_entry(s, c.path);
            char msg[4800];
            snprintf(msg, sizeof msg, "%s:%d: section %s is not a lesson of the course (vramlab "
                     "list without course.lua lists them)", c.path, c.sections[i].line, id);
            if (x) set_error(x, c.path, msg);
            continue;
        }
        struct lt_catalog_entry *x = new_entry(s, e[k].path);
        if (!x) continue;
        free(x->path);
        *x = e[k]; /* moved: its strings now belong to x */
        memset(&e[k], 0, sizeof e[k]);
        e[k].error = strdup("moved"); /* not matched again */
    }
    for (int k = 0; r > 0 && k < n; k++) /* a teacher's file that did not load, or clashes */
        if (e[k].folder > 0 && e[k].error) {
            struct lt_catalog_entry *x = new_entry(s, e[k].path);
            if (!x) continue;
            free(x->path);
            *x = e[k];
            memset(&e[k], 0, sizeof e[k]);
        }
    lt_catalog_free(e, n);
    lt_course_free(&c);
    return s->n;
}

static int scan(struct lt_runtime *rt, const char *dir, const char *only, bool budget,
                bool course, struct lt_catalog_entry **out)
{
    struct scan s = {.rt = rt, .only = only, .budget = budget, .t0 = gpu_now()};
    struct seen seen[256];
    int nseen = 0;
    char one[4096];
    /* "A:B:C": each folder in turn (an empty part is none); in each, the files in name order,
     * so that a folder past its budget always lists the same ones */
    for (const char *p = dir; (p = gpu_path_next(p, one, sizeof one)); s.folder++) {
        if (!one[0]) continue;
        s.nfiles = 0;
        walk(&s, one, 0, seen, &nseen);
        if (s.nfiles > 1) qsort(s.files, (size_t)s.nfiles, sizeof *s.files, cmp_path);
        for (int i = 0; i < s.nfiles; i++) {
            read_lesson(&s, s.files[i], i >= rt->lim.course_lessons);
            free(s.files[i]);
        }
    }
    free(s.files);
    if (s.n) qsort(s.e, (size_t)s.n, sizeof *s.e, cmp_entry);
    /* duplicate ids: the later file (a teacher's folder after the course) is reported, not
     * silently hidden */
    for (int i = 1; i < s.n; i++)
        if (!s.e[i].error && !s.e[i - 1].error && !strcmp(s.e[i].id, s.e[i - 1].id)) {
            char msg[4200];
            snprintf(msg, sizeof msg, "%s:%d: lesson id %s is also used by %s", s.e[i].path,
                     lt_catalog_id_line(s.e[i].path), s.e[i].id, s.e[i - 1].path);
            s.e[i].error = strdup(msg);
        }
    if (course) apply_course(&s, dir);
    *out = s.e;
    return s.n;
}

int lt_catalog_scan(struct lt_runtime *rt, const char *dir, struct lt_catalog_entry **out)
{
    return scan(rt, dir, NULL, true, true, out);
}

int lt_catalog_scan_all(struct lt_runtime *rt, const char *dir, struct lt_catalog_entry **out)
{
    return scan(rt, dir, NULL, false, false, out);
}

int lt_catalog_find(struct lt_runtime *rt, const char *dir, const char *id,
                    struct lt_catalog_entry **out)
{
    return scan(rt, dir, id, true, true, out);
}

void lt_catalog_free(struct lt_catalog_entry *e, int n)
{
    for (int i = 0; i < n; i++) {
        free(e[i].path), free(e[i].id), free(e[i].error);
        for (int l = 0; l < 2; l++) free(e[i].title[l]), free(e[i].chapter_title[l]);
        for (int k = 0; k < e[i].nexercises; k++) free(e[i].exercises[k]);
        free(e[i].exercises);
    }
    free(e);
}

int lt_lesson_check_header(struct lt_lesson *ls, char *err, size_t n)
{
    const char *path = lt_lesson_path(ls);
    char why[256], what[1400];
    size_t len;
    struct lt_header plain, loaded;
    char *src = lt_read_file(path, &len, why, sizeof why);
    bool ok = src && lt_header_scan(src, len, &plain, why, sizeof why);
    free(src);
    if (!ok) { /* why: "line N: what" */
        int line = 1;
        const char *w = why;
        if (sscanf(why, "line %d:", &line) == 1 && strchr(why, ':')) w = strchr(why, ':') + 2;
        gpu_errf(err, n, "%s:%d: the header is not in the plain form (%s): the catalog runs the "
                 "whole file to list it (docs/lesson-format.md, \"How the catalog reads a lesson\")",
                 path, line, w);
        return 0;
    }
    if (!lt_lesson_header(ls, &loaded)) {
        lt_header_free(&plain);
        gpu_errf(err, n, "out of memory");
        return -1;
    }
    int r = lt_header_same(&plain, &loaded, what, sizeof what) ? 1 : -1;
    if (r < 0)
        gpu_errf(err, n, "%s:%d: the catalog reads this lesson's header without running the file "
                 "and finds another %s than the loaded lesson (first the header's, then the "
                 "lesson's): a name it relies on is redefined (docs/lesson-format.md)", path,
                 plain.line, what);
    lt_header_free(&plain), lt_header_free(&loaded);
    return r;
}
