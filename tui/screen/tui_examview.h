/* tui_examview.h - the exam screen (`vramlab exam` on a terminal): a start page (the time limit,
 * the number of questions, what happens to the answers and the clock), then one question at a
 * time with its answer field, a timer always in view, the list of questions (Tab) to move
 * between them, a confirmation before submitting, and the submission when the time is up. No
 * hints, no feedback: every answer is saved as it is typed (tui_exam.h), and graded after the
 * submission by the command. Runs in the shared event loop; tests/tui/exam.sh. */
#ifndef TUI_EXAMVIEW_H
#define TUI_EXAMVIEW_H

#include <stdbool.h>

#include "lt.h"
#include "tui_exam.h"

/* A question as the screen shows it (strings owned by the caller, valid while it runs). */
struct tui_exam_item {
    const char *qid, *lesson, *title, *kind, *unit, *prompt;
    int nchoices;
    const char *choices[10];
};

struct tui_exam_view_in {
    const char *title, *student, *backend;
    int n;
    const struct tui_exam_item *items; /* in the order this student sees them */
    struct tui_exam_sheet *sheet;      /* started by the screen when the student begins */
    long seconds;                      /* the time limit */
};

enum tui_exam_end { TUI_EXAM_LEFT, TUI_EXAM_SUBMITTED, TUI_EXAM_TIMED_OUT };

/* Its key contexts (the start page, a question, the list, a confirmation), for the test that
 * help lists exactly what the keys do. */
struct tui_keymap;
extern const struct tui_keymap *const tui_exam_start_keys[], *const tui_exam_question_keys[],
    *const tui_exam_list_keys[], *const tui_exam_confirm_keys[];

/* Run the exam screen; the end (left: the sheet kept, the clock running), or 128 + N after a
 * quit signal (the answers saved so far are kept). */
int tui_examview(struct lt_runtime *rt, const struct tui_exam_view_in *in, enum tui_exam_end *end);

#endif
