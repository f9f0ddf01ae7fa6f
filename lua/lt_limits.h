/* lt_limits.h - one definition of each limit that lesson data and learner files meet on their way
 * to the screen, the disk and back: the lesson validator (lesson.lua reads them from C, as
 * __lt_limits), the store (progress records, file names made from ids), the panels and the
 * commands use these names, never a literal of their own, so no layer accepts what another
 * cannot keep. Pure: no Lua, no ncurses. */
#ifndef LT_LIMITS_H
#define LT_LIMITS_H

/* Lesson, experiment and exercise ids, in bytes: what the validator accepts, a progress record
 * keeps and a file name (<lesson>-<exercise>.lua) holds. */
#define LT_ID_MAX 64
/* A Lua file read whole: a lesson, a script, an answer (typed, @FILE, the `e` editor's file, a
 * workspace file). */
#define LT_MAX_FILE (4u << 20)
/* Text an experiment sends to the screen, cut at the source (lt_vm_emit) whatever consumes it
 * (panels, the event log, recordings, plain output): a panel or series name, a label, a unit
 * or a table cell at LT_EV_LABEL_MAX bytes, a print line, note or status at LT_EV_TEXT_MAX;
 * and all of a run's text (an experiment, a grading, a REPL entry) at LT_RUN_TEXT_MAX, past
 * which the run stops with an error, as at its memory limit. */
#define LT_EV_LABEL_MAX 256
#define LT_EV_TEXT_MAX 4096
#define LT_RUN_TEXT_MAX (4u << 20)
/* What a run past LT_RUN_TEXT_MAX says (printf: the limit in MiB), live or played back. */
#define LT_RUN_TEXT_STOP \
    "stopped: the run sent more than %d MiB of text to the screen (labels, cells, notes, print); show less"
/* Text typed into a field on screen (the REPL's line, an exam's answer): what the line editor
 * holds, and so what an exam keeps of an answer however it came (typed, --answers FILE); a
 * longer one is refused in words, never cut, so a resumed exam shows every byte it saved. */
#define LT_TYPED_MAX 4095
/* An exam's answer graded (lt_lesson_answer: the learner's code and its measurements) in at most
 * this many seconds of wall time, and of Lua time, unless the exam file says answer_seconds
 * (1 to LT_EXAM_ANSWER_SECONDS_MAX); the process's own limits apply when they are lower. A code
 * answer that loops over measurements is then wrong in seconds, not after the 300 s a lesson's
 * run may take, so a class's grading ends. */
#define LT_EXAM_ANSWER_SECONDS 30
#define LT_EXAM_ANSWER_SECONDS_MAX 300
/* A byte count handed to Lua (lt_push_size): Lua numbers hold integers exactly up to 2^53. */
#define LT_SIZE_MAX (1ull << 53)

#endif
