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

#endif
