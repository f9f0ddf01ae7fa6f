/* lt_event.h - the one typed event from a lesson (or the sandbox's plot, or the snapshot
 * screen) to whatever shows it: the panels on screen, the plain and JSON output of `vramlab
 * run`, recordings and results. One X-macro registry lists every kind of event, every panel
 * kind, every style and every map block state; the enums, their names (what lessons write, what
 * recordings and JSON keep) and the fields each kind carries are generated from it, so a name,
 * its enum and what reads it cannot drift apart (tig's REQ_INFO, vramlab's GPU_STATUS_LIST).
 *
 * Adding a panel kind (docs/architecture.md, "A panel kind"): a row in LT_PANEL_LIST and one in
 * LT_EVENT_LIST here, the ex: method in lua/lib/lesson.lua, its widget in tui/render/
 * (tui_w_KIND.c defining tui_widget_KIND) and its plain printer row in tui/cli/tui_plain.c.
 *
 * Pure declarations: no Lua state. Strings in an event are valid only during the call that
 * hands it over (a sink); a consumer that keeps one copies it (tui_evlog.c). */
#ifndef LT_EVENT_H
#define LT_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lt_limits.h"

/* The fields an event kind carries (its JSON and recording keys are these names). */
enum {
    LT_F_PANEL = 1 << 0,  /* "panel": the panel id */
    LT_F_SERIES = 1 << 1, /* "series": a curve's series, a bar's, gauge's, mark's, band's or
                             limit's label; a span's lane */
    LT_F_TEXT = 1 << 2,   /* "text": a print line, a note, the status line; a curve's x label;
                             a span's kind (its legend entry: "copy in", "kernel") */
    LT_F_UNIT = 1 << 3,   /* "unit": of value and max; a curve's y label */
    LT_F_X = 1 << 4,      /* "x", "y": a curve point or mark; a band's start on x; a span's
                             start and finish (seconds) */
    LT_F_Y = 1 << 5,
    LT_F_VALUE = 1 << 6,  /* "value": a bar, a gauge, a limit; a map's total bytes; a span's item
                             number (the chunk or batch it works on; -1: none) */
    LT_F_MAX = 1 << 7,    /* "max": a gauge's full scale; a bar's theoretical peak (0: none); a
                             band's end on x; a timeline's length in seconds (0: up to its
                             latest finish) */
    LT_F_STYLE = 1 << 8,  /* "style": how the value was obtained */
    LT_F_CELLS = 1 << 9,  /* "cells": a table row */
    LT_F_BLOCKS = 1 << 10 /* "blocks": a memory map's blocks */
};

/* Panel kinds: X(ENUM, name). The name is what a lesson's `panels = { { kind = ... } }` says
 * and what tui/render/ calls its widget: tui_widget_NAME. */
#define LT_PANEL_LIST(X) \
    X(BARS, bars)        \
    X(CURVE, curve)      \
    X(TABLE, table)      \
    X(GAUGE, gauge)      \
    X(MAP, map)          \
    X(TIMELINE, timeline)

enum lt_panel_kind {
#define LT_X_PANEL(e, name) LT_PANEL_##e,
    LT_PANEL_LIST(LT_X_PANEL)
#undef LT_X_PANEL
    LT_PANEL_COUNT,
    LT_PANEL_NONE = -1 /* an event that is not a panel's data (print, status, note, clear) */
};

/* Event kinds: X(ENUM, "name", panel kind it feeds, fields). The name is the `type` __lt_emit
 * takes, the "ev" of a recording and the "type" of `vramlab run --json`. */
#define LT_EVENT_LIST(X)                                                                          \
    X(PRINT, "print", NONE, LT_F_TEXT)                                                            \
    X(POINT, "point", CURVE, LT_F_PANEL | LT_F_SERIES | LT_F_TEXT | LT_F_UNIT | LT_F_X | LT_F_Y | \
                                 LT_F_STYLE)                                                      \
    X(BAR, "bar", BARS, LT_F_PANEL | LT_F_SERIES | LT_F_UNIT | LT_F_VALUE | LT_F_MAX | LT_F_STYLE) \
    X(ROW, "row", TABLE, LT_F_PANEL | LT_F_CELLS)                                                 \
    X(GAUGE, "gauge", GAUGE, LT_F_PANEL | LT_F_SERIES | LT_F_UNIT | LT_F_VALUE | LT_F_MAX |       \
                                 LT_F_STYLE)                                                      \
    X(NOTE, "note", NONE, LT_F_PANEL | LT_F_TEXT)                                                 \
    X(MAP, "map", MAP, LT_F_PANEL | LT_F_VALUE | LT_F_BLOCKS)                                     \
    X(CLEAR, "clear", NONE, LT_F_PANEL)                                                           \
    X(MARK, "mark", CURVE, LT_F_PANEL | LT_F_SERIES | LT_F_X | LT_F_Y | LT_F_STYLE)               \
    X(BAND, "band", CURVE, LT_F_PANEL | LT_F_SERIES | LT_F_X | LT_F_MAX)                          \
    X(LIMIT, "limit", BARS, LT_F_PANEL | LT_F_SERIES | LT_F_UNIT | LT_F_VALUE | LT_F_STYLE)       \
    X(SPAN, "span", TIMELINE, LT_F_PANEL | LT_F_SERIES | LT_F_TEXT | LT_F_X | LT_F_Y | LT_F_VALUE | \
                                  LT_F_MAX | LT_F_STYLE)                                          \
    X(STATUS, "status", NONE, LT_F_TEXT)

enum lt_event_type {
#define LT_X_EV(e, name, panel, fields) LT_EV_##e,
    LT_EVENT_LIST(LT_X_EV)
#undef LT_X_EV
    LT_EV_COUNT
};

/* How a value was obtained: the colour and the label on screen say so. X(ENUM, "name"). */
#define LT_STYLE_LIST(X)            \
    X(MEASURED, "measured")         \
    X(SIMULATED, "simulated")       \
    X(THEORETICAL, "theoretical")   \
    X(REFERENCE, "reference")

enum lt_style {
#define LT_X_STYLE(e, name) LT_##e,
    LT_STYLE_LIST(LT_X_STYLE)
#undef LT_X_STYLE
    LT_STYLE_COUNT
};

/* What a memory map's block holds (PyTorch's states; "pending": freed on a stream, not yet
 * reusable (the async pool); "used" for memory the map does not split; "mixed" for a run of
 * blocks of several states merged to fit the width). X(ENUM, "name"). */
#define LT_MAP_STATE_LIST(X)  \
    X(ALLOCATED, "allocated") \
    X(CACHED, "cached")       \
    X(PENDING, "pending")     \
    X(FREE, "free")           \
    X(USED, "used")           \
    X(MIXED, "mixed")

enum lt_map_state {
#define LT_X_MAP(e, name) LT_MAP_##e,
    LT_MAP_STATE_LIST(LT_X_MAP)
#undef LT_X_MAP
    LT_MAP_COUNT
};

/* The most cells a row and blocks a map may carry: more is an error where the lesson calls
 * ("ex:map: 80 blocks; at most 64"), never a silent cut in the consumers. */
#define LT_EVENT_MAX_ITEMS 64

/* A timeline's lanes, kinds (legend entries) and spans between two clears: more is an error at
 * the lesson's ex:span ("ex:span: 17 lanes in panel 'tl'; at most 16"); a recording that says
 * more is cut by the widget. */
#define LT_TIMELINE_MAX_LANES 16
#define LT_TIMELINE_MAX_KINDS 16
#define LT_TIMELINE_MAX_SPANS 4096

/* A text in both languages: the pair ex:t picked it from (s[0] English, s[1] Chinese), or the
 * same string twice when it has no other language (a number, a name, print() output). A NULL
 * one (a zeroed event) reads as "" through lt_tx. */
struct lt_text {
    const char *s[2];
};

struct lt_map_block {
    struct lt_text owner;        /* whose it is: a tensor, a segment ("seg 3"), "free" */
    enum lt_map_state state;
    uint64_t bytes;
    int seg;                     /* the allocator segment it lies in (1..); 0: not said */
};

struct lt_event {
    enum lt_event_type type;
    const char *panel;           /* panel id ("" for print/status) */
    struct lt_text series, text, unit;
    size_t text_len;             /* print: the bytes of text, NULs included (0: up to the NUL) */
    double x, y, value, max;
    enum lt_style style;
    int ncells;                  /* a row: ncells texts */
    const struct lt_text *cells;
    int nblocks;                 /* a map: nblocks blocks */
    const struct lt_map_block *blocks;
};

/* What every route applies to a string that comes into an event (lt_vm_emit for a run, the
 * replay loader for a recording), by its field f (one LT_F_*): a text (LT_F_TEXT: a print line,
 * a note, the status) is cut at LT_EV_TEXT_MAX bytes and keeps its line breaks; any other string
 * (panel, series, unit, cell, block owner), and a text with LT_EV_ONE_LINE (a curve's x label,
 * a span's kind) is one line of at most LT_EV_LABEL_MAX bytes, its control characters escaped (gpu_esc_field),
 * so it stays one field wherever it is printed (lt_limits.h). s (len bytes) itself when it
 * needs neither, else the result in buf (LT_EV_CUT_BUF bytes), NUL-ended and cut with "…".
 * Its length in *out. */
#define LT_EV_CUT_BUF (LT_EV_TEXT_MAX + 1)
#define LT_EV_ONE_LINE (1u << 30)
/* The field a text is cut as: LT_F_TEXT, one line (LT_EV_ONE_LINE) for a curve point's x label
 * and a span's kind. */
static inline unsigned lt_event_text_field(enum lt_event_type t)
{
    return LT_F_TEXT | (t == LT_EV_POINT || t == LT_EV_SPAN ? LT_EV_ONE_LINE : 0);
}
const char *lt_event_cut(const char *s, size_t len, unsigned f, char *buf, size_t *out);

/* The names and kinds of the registry; "" or NONE/-1 for a value out of range. */
const char *lt_event_name(enum lt_event_type t);
int lt_event_parse(const char *name);              /* -1 when not a kind */
unsigned lt_event_fields(enum lt_event_type t);    /* LT_F_* */
enum lt_panel_kind lt_event_panel_kind(enum lt_event_type t);
const char *lt_panel_name(enum lt_panel_kind k);
int lt_panel_parse(const char *name);              /* -1 when not a kind */
const char *lt_style_name(enum lt_style s);        /* out of range: "measured" */
int lt_style_parse(const char *name);              /* -1 when not a style */
const char *lt_map_state_name(enum lt_map_state s);  /* out of range: "used" */
int lt_map_state_parse(const char *name);              /* -1 when not a state */

/* An event's text in one language with each NUL byte (print("c\0d") keeps what follows it)
 * written as `nul`: "\\0" in plain output and recordings, a visible placeholder on screen.
 * malloc'd, or NULL. */
char *lt_event_text(const struct lt_event *ev, bool zh, const char *nul);
/* ev itself when its text has no NUL byte; else *copy with the text made visible (free
 * *to_free after use). Every consumer starts with it, so none sees a cut text. */
const struct lt_event *lt_event_visible(const struct lt_event *ev, const char *nul,
                                        struct lt_event *copy, char **to_free);

/* One language of a text: s[zh]. */
static inline const char *lt_tx(struct lt_text t, bool zh)
{
    return t.s[zh ? 1 : 0] ? t.s[zh ? 1 : 0] : "";
}
/* A text that is the same in both languages. */
static inline struct lt_text lt_text1(const char *s) { return (struct lt_text){{s ? s : "", s ? s : ""}}; }

#endif
