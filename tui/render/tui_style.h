/* tui_style.h - the logical styles text is drawn in. Pure modules (render, panel) tag bytes with
 * these; tui_term.c maps them to colours and attributes, so meaning survives NO_COLOR and
 * monochrome terminals (bold/underline/reverse, and labels such as "SIM" beside the colour).
 * The colours of each style, per theme and colour depth, are in tui_theme.c. */
#ifndef TUI_STYLE_H
#define TUI_STYLE_H

enum tui_style {
    TS_PLAIN,
    TS_EM,         /* **emphasis** */
    TS_CODE,       /* `code` and code blocks */
    TS_H1,
    TS_H2,
    TS_H3,
    TS_RULE,       /* heading underlines, table borders, box lines */
    TS_MARK,       /* list bullets and numbers */
    TS_TABLE_HEAD,
    TS_CALLOUT,    /* callout label; the kind picks no colour of its own */
    TS_WARN_LABEL, /* pitfall / errata labels */
    TS_BUTTON,     /* "[ Enter ▶ Run: … ]" */
    TS_BUTTON_SEL, /* the selected action */
    TS_INPUT,      /* an exercise's answer field */
    TS_GOOD,       /* right answer, done marks */
    TS_BAD,        /* wrong answer, errors, broken lessons */
    TS_DIM,        /* secondary text */
    TS_MEASURED,   /* values with meaning: lt_style order */
    TS_SIMULATED,
    TS_THEORETICAL,
    TS_REFERENCE,
    TS_REPLAYED,   /* data recorded elsewhere ("REPLAY") */
    TS_NOTE,       /* neutral information under a panel: not a warning */
    TS_SERIES0,    /* the series palette: curves, map owners; never a role's colour */
    TS_SERIES1,
    TS_SERIES2,
    TS_SERIES3,
    TS_SERIES4,
    TS_SERIES5,
    TS_TITLE,      /* top bar */
    TS_STATUS,     /* bottom bar */
    TS_SELECTED,   /* menu selection */
    TS_PANEL_HEAD, /* a panel's title bar */
    TS_ITALIC,     /* *italic* in lesson text */
    TS_COUNT
};

#define TS_NSERIES 6

#endif
