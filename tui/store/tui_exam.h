/* tui_exam.h - an exam's sheet, kept in the state folder as the student types (the state module,
 * tui_state.h: lock, read again, merge, atomic rename), and its results written for the teacher.
 *
 * The sheet is the file `exams` in the state folder, one record a line:
 *   vramlab-exams 1
 *   start EXAM STUDENT STARTED SECONDS      the clock: Unix time it started, the time limit
 *   ans EXAM STUDENT QID WHEN TEXT          the answer as last typed (\\, \n, \r escaped)
 *   submit EXAM STUDENT WHEN                submitted: nothing changes after it
 * Several students (or one student's two terminals) writing at once keep each other's records:
 * every change is applied to the file as it is on disk then. The clock is the first start's: a
 * resumed exam keeps it, and an answer after the time limit or the submission is refused.
 *
 * The results are one student's graded exam, JSON lines and CSV (docs/classroom.md, "Exams"),
 * written whole or not at all (tui_state_out_*) into the class's folder. No ncurses:
 * test_tui_exam.c, tests/cli/exam.sh (two students at once), tests/tui/exam.sh. */
#ifndef TUI_EXAM_H
#define TUI_EXAM_H

#include <stdbool.h>
#include <stddef.h>

#include "lt_limits.h"

#define TUI_EXAM_VERSION 1
#define TUI_EXAM_MAX_FILE (16u << 20)
#define TUI_EXAM_MAX_ANSWER LT_TYPED_MAX /* what the answer field holds (a code answer fits) */

struct tui_exam_ans {
    char qid[2 * LT_ID_MAX + 2];
    long when;
    char *text;
};

struct tui_exam_sheet {
    char dir[1024];
    char exam[LT_ID_MAX + 1], student[LT_ID_MAX + 1];
    long started;   /* Unix time; 0: not started */
    long seconds;   /* the time limit */
    long submitted; /* Unix time; 0: not yet */
    int n;
    struct tui_exam_ans *a;
};

/* The sheet of (exam, student), from the state folder. False with err: no private state folder
 * (an exam needs one: its answers must survive a crash), a file that cannot be read now. note: a
 * damaged file kept aside. Ids are file-name words (tui_file_id_ok). */
bool tui_exam_open(struct tui_exam_sheet *s, const char *exam, const char *student, char *note,
                   size_t nn, char *err, size_t n);
/* Start the clock now with this limit, unless it started already (the first start holds). */
bool tui_exam_start(struct tui_exam_sheet *s, long seconds, char *err, size_t n);
/* Save an answer as typed ("" clears it). Refused after the submission or past the time. */
bool tui_exam_answer(struct tui_exam_sheet *s, const char *qid, const char *text, char *err,
                     size_t n);
bool tui_exam_submit(struct tui_exam_sheet *s, char *err, size_t n);
/* A question's id: LESSON:EXERCISE, two ids (tui_file_id_ok), as the sheet and the results
 * files hold it ("9.1:weights-gib"). */
bool tui_exam_qid_ok(const char *q);
/* The answer saved for qid, or NULL. */
const char *tui_exam_get(const struct tui_exam_sheet *s, const char *qid);
/* Seconds left at `now` (0 or less: time is up; the limit when not started). */
long tui_exam_left(const struct tui_exam_sheet *s, long now);
void tui_exam_close(struct tui_exam_sheet *s);

/* ---- results -------------------------------------------------------------------------------- */

struct tui_exam_qres {
    const char *qid, *lesson, *exercise, *kind, *unit;
    const char *answer;    /* NULL: left blank */
    const char *status;    /* "right", "wrong", "blank", "unreadable", "broken" */
    const char *mistake;   /* a wrong answer's kind (lt_answer_info), or NULL */
    const char *detail[2]; /* the mistake in words (en, zh), or NULL */
    double figure;         /* a predict's figure on the machine that graded it (NaN: none) */
    const char *how;       /* "measured", "simulated", "model" */
};

struct tui_exam_result {
    const char *exam, *title[2], *student, *version, *backend, *lang;
    bool simulated, timed_out;
    long started, submitted, seconds;
    int n;
    const struct tui_exam_qres *q;
};

/* Whether DIR/EXAM-STUDENT.jsonl is there (its path in path): the student handed the exam in
 * already, maybe from another machine or account sharing the class's results folder. */
bool tui_exam_handed_in(const char *dir, const char *exam, const char *student, char *path, size_t n);
/* DIR/EXAM-STUDENT.jsonl and .csv, each written whole or not at all; the two paths in jsonl and
 * csv. False with err (the folder missing, not writable, a name there that is a link). */
bool tui_exam_write_results(const char *dir, const struct tui_exam_result *r, char *jsonl,
                            size_t nj, char *csv, size_t nc, char *err, size_t n);

#endif
