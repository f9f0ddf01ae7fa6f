/* tui_workspace.h - the exercise workspace (like rustlings, for VRAM): `vramlab exercises`
 * copies every `code` exercise of the lessons into a folder as a Lua file (its prompt as a
 * comment header, then its starter), once, never overwriting the learner's files; `vramlab
 * watch` re-checks the current exercise whenever its file is saved, with the lesson's own check
 * run inside the sandbox, and records the attempts in the saved progress. */
#ifndef TUI_WORKSPACE_H
#define TUI_WORKSPACE_H

#include <stdbool.h>
#include <stdio.h>

#include "lt.h"

/* One exercise of the workspace, in lesson order. */
struct tui_ws_item {
    char *lesson, *exercise; /* ids */
    char *lesson_path;       /* the lesson file */
    char *file;              /* DIR/<lesson>-<exercise>.lua, e.g. 3.2-scale-fn.lua */
    char *title;             /* the lesson's title, in the runtime's language */
    int block;               /* the exercise's block in its lesson */
};

/* The code exercises of every lesson under lessons_dir, with their files in ws_dir. Returns the
 * count (items in *out, free with tui_ws_free), or -1 when out of memory. */
int tui_ws_scan(struct lt_runtime *rt, const char *lessons_dir, const char *ws_dir,
                struct tui_ws_item **out);
void tui_ws_free(struct tui_ws_item *items, int n);
/* The starting text of an exercise file: a comment header (ids, the prompt as text, how to check)
 * then the starter. malloc'ed. */
char *tui_ws_template(struct lt_lesson *ls, int block, const char *lang);

/* text as Lua comment lines in f (generated code: a workspace file, the `e` editor's header):
 * each line of text wrapped to width columns, the first begun with `first`, the others with
 * `rest` ("-- "); every control character escaped (gpu_esc_field), so no text from a lesson
 * ends the comment (Lua ends one at a CR too) and runs as code. An empty line is "--". */
void tui_ws_comment(FILE *f, const char *text, int width, const char *first, const char *rest);

/* `vramlab exercises [DIR]`: create the missing files, each named on out (NULL: none); exit code. */
int tui_ws_create(struct lt_runtime *rt, const char *lessons_dir, const char *ws_dir, FILE *out);
/* `vramlab watch [DIR]` (tui_watch.c): the interactive checker; exit code. */
int tui_watch(struct lt_runtime *rt, const char *lessons_dir, const char *ws_dir);

#endif
