/* tui_loop.c - the event loop (see tui_loop.h). */
#include "tui_loop.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "tui_render.h"
#include "tui_term.h"

static bool too_small(const struct tui_screen_ops *o)
{
    return LINES < o->min_rows || COLS < o->min_cols;
}

static void draw_small(const struct tui_screen_ops *o)
{
    bool zh = o->rt && !strcmp(lt_runtime_lang(o->rt), "zh"), ascii = !tui_term_utf8();
    char msg[200];
    snprintf(msg, sizeof msg,
             zh ? "终端太小（至少 %d%s%d）：请放大窗口，或按 q 退出"
                : "terminal too small (need %d%s%d) - make it larger, or q to quit",
             o->min_cols, ascii ? "x" : "×", o->min_rows);
    struct tui_lines L = {0};
    struct tui_render_opts ro = {COLS > 0 ? COLS : 1, zh ? "zh" : "en", ascii, -1};
    tui_render_para(&L, msg, strlen(msg), TS_BAD, false, "", TS_BAD, &ro);
    int y0 = L.n < LINES ? (LINES - L.n) / 2 : 0;
    for (int i = 0; i < L.n && y0 + i < LINES; i++) tui_term_line(y0 + i, 0, COLS, &L.v[i], TS_PLAIN);
    tui_lines_free(&L);
}

void tui_loop_paint(const struct tui_screen_ops *o)
{
    int y = 0, x = 0;
    bool cursor = false;
    tui_term_frame_begin();
    if (too_small(o)) {
        draw_small(o);
    } else {
        o->draw(o->ud);
        cursor = o->cursor && o->cursor(o->ud, &y, &x);
    }
    tui_term_frame_end();
    curs_set(cursor ? 1 : 0);
    if (cursor) move(y, x);
    wnoutrefresh(stdscr);
    doupdate();
}

/* One key, normalised: '\r' and KEY_ENTER are Enter, 8 / 127 / KEY_BACKSPACE one Backspace, a
 * mouse report a click or a wheel step at its cell. False when nothing (usable) came. */
static bool read_key(struct tui_key *k)
{
    wint_t wc;
    int r = get_wch(&wc);
    if (r == ERR) return false;
    memset(k, 0, sizeof *k);
    k->code = r == KEY_CODE_YES ? TUI_KEY_FN((int)wc) : (int)wc;
    if (k->code == '\r' || k->code == TUI_KEY_FN(KEY_ENTER)) k->code = TUI_KEY_ENTER;
    if (k->code == 8 || k->code == 127) k->code = TUI_KEY_FN(KEY_BACKSPACE);
    if (k->code == TUI_KEY_FN(KEY_MOUSE)) {
        MEVENT me;
        if (getmouse(&me) != OK) return false;
        k->y = me.y, k->x = me.x;
        if (me.bstate & BUTTON4_PRESSED) k->code = TUI_KEY_WHEEL_UP;
        else if (me.bstate & BUTTON5_PRESSED) k->code = TUI_KEY_WHEEL_DOWN;
        else if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) k->code = TUI_KEY_CLICK;
        else return false;
    }
    return true;
}

/* While the terminal is too small only q and Esc act: one level back, or out. */
static bool small_key(const struct tui_screen_ops *o, const struct tui_key *k)
{
    if (k->code != 'q' && k->code != TUI_KEY_ESC) return true;
    if (!o->back) return false;
    o->back(o->ud);
    return true;
}

int tui_loop_run(const struct tui_screen_ops *o)
{
    bool dirty = true;
    double spun = 0;
    for (;;) {
        int sig = tui_term_signal();
        if (sig) return 128 + sig;
        if (o->quit(o->ud)) return 0;
        if (o->tick && o->tick(o->ud)) dirty = true;
        bool busy = o->busy && o->busy(o->ud);
        if (busy && o->anim_ms > 0) {
            double t = gpu_now();
            if ((t - spun) * 1000 >= o->anim_ms) spun = t, dirty = true;
        }
        if (dirty) {
            tui_loop_paint(o);
            dirty = false;
        }
        /* idle: a long wait (a quit signal interrupts it; one that lands just before it is seen
         * within the wait); a measurement on the worker: check it every 50 ms; Lua computing
         * in slices on this thread: only look for a key between them */
        timeout(!busy ? (o->idle_ms > 0 ? o->idle_ms : 1000) : o->rt && lt_runtime_computing(o->rt) ? 0 : 50);
        struct tui_key k;
        if (!read_key(&k)) continue;
        dirty = true; /* a key almost always changes something; ncurses sends only the diff */
        if (k.code == TUI_KEY_FN(KEY_RESIZE)) continue;
        if (too_small(o)) {
            if (!small_key(o, &k)) return 0;
        } else {
            o->key(o->ud, &k);
        }
        if (!o->quit(o->ud)) { /* answer the key now, before the next slice of work */
            tui_loop_paint(o);
            dirty = false;
        }
    }
}

static void redraw(void *to, const struct tui_key *k) { clearok(curscr, TRUE); }

static const struct tui_binding rows[] = {
    {.keys = {TUI_CTRL('L')}, .run = redraw, .en = "redraw the whole screen", .zh = "重绘整个屏幕"},
};

const struct tui_keymap tui_loop_keys = TUI_KEYMAP("Anywhere", "任何时候", TUI_TO_SCREEN, rows);
