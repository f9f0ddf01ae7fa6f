/* lt_course.h - a course of one's own: `course.lua` at the top of a teacher's lessons folder
 * names the sections a class sees, in their order, built-in or the teacher's:
 *
 *   return {
 *     title = { en = "GPU memory for ML engineers", zh = "面向机器学习工程师的 GPU 显存" },
 *     sections = { "9.1", "1.3", "2.2" },
 *     cap = "8GiB",                  -- optional: what a lesson may hold on the device, in all
 *     results = "/srv/class/results", -- optional: the folder exam results go to (a relative
 *                                      -- one: in the course folder)
 *   }
 *
 * It is a data-only file (lt_data.h: read as tokens, never run). The catalog applies it
 * (lt_catalog.c): the menu, `list`, completion, progress, `watch` and the presenter show exactly
 * those sections; without one, a teacher's folder adds to the built-in course. Exams are files of
 * their own (`NAME.exam.lua`, lt_exam.h). Pure: no Lua state; test_lt_course.c. */
#ifndef LT_COURSE_H
#define LT_COURSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lt_limits.h"

struct lt_course_section {
    char id[LT_ID_MAX + 1]; /* "9.1" */
    int line;               /* its line in course.lua */
};

struct lt_course {
    char path[4200];        /* FOLDER/course.lua; "" when the course has none */
    char *title[2];         /* [0] en, [1] zh */
    int n;
    struct lt_course_section *sections;
    double cap_fraction;    /* cap = 0.5: a share of the device memory free to a lesson (0: none) */
    uint64_t cap_bytes;     /* cap = "8GiB": bytes a lesson may hold in all (0: none) */
    char *results;          /* results = "DIR": where `vramlab exam` writes results (NULL: none) */
};

/* The manifest of a course: `folders` is the catalog's colon-separated list, the built-in
 * course's folder first (never read for a manifest), then the teachers'. The first teacher's
 * folder with a course.lua gives the course. 0: none (c->path ""); 1: read; -1: it is wrong,
 * "file:line: what" in err (a second course.lua is wrong too: one course at a time). */
int lt_course_read(const char *folders, struct lt_course *c, char *err, size_t n);
/* The same for one course.lua file. */
int lt_course_read_file(const char *path, struct lt_course *c, char *err, size_t n);
/* Is id one of its sections? Its index, or -1. */
int lt_course_find(const struct lt_course *c, const char *id);
void lt_course_free(struct lt_course *c);

#endif
