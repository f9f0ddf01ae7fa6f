/* lt_exam.h - what an exam asks: a teacher's exam file, NAME.exam.lua anywhere in a lessons
 * folder (the catalog skips it), data read as tokens and never run (lt_data.h):
 *
 *   return {
 *     title = { en = "Quiz 1: bytes and bandwidth", zh = "测验一：字节与带宽" },
 *     minutes = 20,
 *     questions = { "9.1:weights-gib", "1.1:fp16-gib", "9.2" },  -- "9.2": each of its exercises
 *     shuffle = true,     -- optional: each student gets the questions in an order of their own
 *     show = "score",     -- optional: after submitting, "score" (default), "answers" or "nothing"
 *     answer_seconds = 30, -- optional: each answer's grading, measurements included, at most
 *   }
 *
 * or a list on the command line ("9.1:weights-gib,9.2"), or every exercise of the course
 * ("course"). Each question is resolved against the course as the class sees it (the catalog,
 * with a teacher's course.lua): the section must be in it and the exercise in the section, each
 * question once; every mistake is `file:line: what`. Questions are graded with the lesson's own
 * grader (lt_lesson_answer) when the exam is submitted. Pure data here: the exam's sheet (the
 * answers as typed) is tui/store/tui_exam.h's. Tested by test_lt_course.c and tests/cli/exam.sh. */
#ifndef LT_EXAM_H
#define LT_EXAM_H

#include <stdbool.h>
#include <stddef.h>

#include "lt.h"

enum lt_exam_show { LT_EXAM_SHOW_SCORE, LT_EXAM_SHOW_ANSWERS, LT_EXAM_SHOW_NOTHING };

struct lt_exam_q {
    char lesson[LT_ID_MAX + 1], exercise[LT_ID_MAX + 1];
    char qid[2 * LT_ID_MAX + 2]; /* "9.1:weights-gib": what the sheet and the results call it */
    int line;                    /* its line in the exam file (0: a list or the course) */
    char *path;                  /* the lesson's file, once resolved */
    int block;                   /* the exercise's block in the lesson, once resolved (-1 before) */
};

struct lt_exam {
    char path[4200];        /* the exam file; "" for a list or the course */
    char id[LT_ID_MAX + 1]; /* "quiz1" for quiz1.exam.lua, "list", "course" */
    char *title[2];
    double minutes;         /* the time limit */
    double answer_seconds;  /* each answer's grading at most (LT_EXAM_ANSWER_SECONDS) */
    bool shuffle;
    enum lt_exam_show show;
    int n;
    struct lt_exam_q *q;
};

/* An exam file; -1 with "file:line: what" (its questions are resolved later). */
int lt_exam_read_file(const char *path, struct lt_exam *e, char *err, size_t n);
/* The questions of a comma-separated list ("9.1:weights-gib,9.2"), or "course": every exercise
 * of the course. False with what is wrong. */
bool lt_exam_from_list(const char *list, struct lt_exam *e, char *err, size_t n);
/* Each question against the course (`folders`, as the catalog reads it): a section is expanded to
 * its exercises, each "LESSON:EXERCISE" must be one, and none comes twice; the lesson's path and
 * the exercise's block filled in. report(ud, "file:line: what") per mistake; returns how many. */
int lt_exam_resolve(struct lt_runtime *rt, const char *folders, struct lt_exam *e,
                    void (*report)(void *ud, const char *msg), void *ud);
/* The order a student sees the questions in: 0..n-1, shuffled when the exam says so, the same
 * for the same student every time (a hash of the exam and the student seeds it). */
void lt_exam_order(const struct lt_exam *e, const char *student, int *order);
void lt_exam_free(struct lt_exam *e);

#endif
