/* lt_course.c - a teacher's course.lua read and checked (lt_course.h). */
#include "lt_course.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_err.h"
#include "gpu_file.h"
#include "gpu_parse.h"
#include "lt_data.h"

#define COURSE_MAX_FILE (1u << 20) /* a list of sections, not a library */

static bool section_id_ok(const char *s)
{
    size_t a = strspn(s, "0123456789");
    return a > 0 && s[a] == '.' && s[a + 1] && strspn(s + a + 1, "0123456789") == strlen(s + a + 1) &&
           strlen(s) <= LT_ID_MAX;
}

/* The manifest's fields into c; false with "path:line: what". */
static bool take(const struct lt_data *d, struct lt_course *c, char *err, size_t n)
{
    static const char *const fields[] = {"title", "sections", "cap", "results", NULL};
    const char *p = c->path;
    for (int i = 0; i < d->n; i++) {
        const struct lt_data *f = &d->items[i];
        int k = 0;
        while (f->key && fields[k] && strcmp(fields[k], f->key)) k++;
        if (!f->key || !fields[k]) {
            gpu_errf(err, n, "%s:%d: %s (a course file has title, sections, cap and results)", p,
                     f->line, f->key ? "an unknown field" : "a value without a name");
            if (f->key) gpu_errf(err, n, "%s:%d: unknown field '%s' (a course file has title, "
                                 "sections, cap and results)", p, f->line, f->key);
            return false;
        }
    }
    const struct lt_data *t = lt_data_field(d, "title");
    for (int l = 0; l < 2; l++) {
        const char *s = t ? lt_data_lang(t, l) : NULL;
        if (!s || !*s) {
            gpu_errf(err, n, "%s:%d: title must be { en = \"...\", zh = \"...\" }, both languages",
                     p, t ? t->line : d->line);
            return false;
        }
        if (!(c->title[l] = strdup(s))) return gpu_errf(err, n, "out of memory"), false;
    }
    const struct lt_data *s = lt_data_field(d, "sections");
    int k = s ? lt_data_nitems(s) : 0;
    if (!s || s->kind != LT_DATA_TABLE || k == 0 || k != s->n) {
        gpu_errf(err, n, "%s:%d: sections must list the sections the class sees, in order: "
                 "sections = { \"9.1\", \"1.3\" }", p, s ? s->line : d->line);
        return false;
    }
    if (!(c->sections = calloc((size_t)k, sizeof *c->sections))) return gpu_errf(err, n, "out of memory"), false;
    for (int i = 0; i < k; i++) {
        const struct lt_data *v = lt_data_item(s, i);
        if (v->kind != LT_DATA_STRING || !section_id_ok(v->str)) {
            gpu_errf(err, n, "%s:%d: section %d must be a section id such as \"1.3\"", p, v->line, i + 1);
            return false;
        }
        for (int j = 0; j < c->n; j++)
            if (!strcmp(c->sections[j].id, v->str)) {
                gpu_errf(err, n, "%s:%d: section %s is listed twice (first at line %d)", p, v->line,
                         v->str, c->sections[j].line);
                return false;
            }
        snprintf(c->sections[c->n].id, sizeof c->sections[c->n].id, "%s", v->str);
        c->sections[c->n++].line = v->line;
    }
    const struct lt_data *cap = lt_data_field(d, "cap");
    char perr[256];
    if (cap && cap->kind == LT_DATA_NUMBER) {
        if (!(cap->num >= 0.01 && cap->num <= 1)) {
            gpu_errf(err, n, "%s:%d: cap = %g: a share of the device memory is 0.01 to 1 (or a "
                     "size: cap = \"8GiB\")", p, cap->line, cap->num);
            return false;
        }
        c->cap_fraction = cap->num;
    } else if (cap && (cap->kind != LT_DATA_STRING ||
                       !gpu_parse_size(cap->str, 1u << 20, UINT64_C(1) << 50, &c->cap_bytes, perr, sizeof perr))) {
        gpu_errf(err, n, "%s:%d: cap must be a share of the device memory (0.5) or a size (\"8GiB\")%s%s",
                 p, cap->line, cap->kind == LT_DATA_STRING ? ": " : "", cap->kind == LT_DATA_STRING ? perr : "");
        return false;
    }
    const struct lt_data *r = lt_data_field(d, "results");
    if (r && (r->kind != LT_DATA_STRING || !*r->str)) {
        gpu_errf(err, n, "%s:%d: results must be a folder (results = \"/srv/class/results\")", p, r->line);
        return false;
    }
    if (r) { /* a relative folder is the course folder's, wherever a student starts vramlab */
        const char *slash = strrchr(p, '/');
        int dl = r->str[0] == '/' ? 0 : slash ? (int)(slash - p) : 1;
        size_t len = (size_t)dl + 1 + strlen(r->str) + 1;
        if (!(c->results = malloc(len))) return gpu_errf(err, n, "out of memory"), false;
        if (r->str[0] == '/') snprintf(c->results, len, "%s", r->str);
        else snprintf(c->results, len, "%.*s/%s", dl, slash ? p : ".", r->str);
    }
    return true;
}

int lt_course_read_file(const char *path, struct lt_course *c, char *err, size_t n)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    struct lt_data d;
    if (!lt_data_read_file(path, COURSE_MAX_FILE, &d, err, n)) return -1;
    bool ok = take(&d, c, err, n);
    lt_data_free(&d);
    if (ok) return 1;
    char keep[sizeof c->path];
    memcpy(keep, c->path, sizeof keep);
    lt_course_free(c);
    memcpy(c->path, keep, sizeof keep);
    return -1;
}

int lt_course_read(const char *folders, struct lt_course *c, char *err, size_t n)
{
    char one[4096], path[4200];
    int i = 0, r = 0;
    memset(c, 0, sizeof *c);
    for (const char *p = folders; (p = gpu_path_next(p, one, sizeof one)); i++) {
        if (i == 0 || !one[0]) continue; /* the built-in course has no manifest */
        snprintf(path, sizeof path, "%s/course.lua", one);
        if (access(path, F_OK) != 0) continue;
        if (r) { /* one course at a time */
            gpu_errf(err, n, "%s:1: a second course file: the course is %s's (one course.lua in "
                     "all the folders added)", path, c->path);
            lt_course_free(c);
            snprintf(c->path, sizeof c->path, "%s", path);
            return -1;
        }
        if ((r = lt_course_read_file(path, c, err, n)) < 0) return -1;
    }
    return r;
}

int lt_course_find(const struct lt_course *c, const char *id)
{
    for (int i = 0; c && i < c->n; i++)
        if (!strcmp(c->sections[i].id, id)) return i;
    return -1;
}

void lt_course_free(struct lt_course *c)
{
    if (!c) return;
    free(c->title[0]), free(c->title[1]), free(c->sections), free(c->results);
    memset(c, 0, sizeof *c);
}
