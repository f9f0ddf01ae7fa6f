/* tui_term.c - terminal ownership (see tui_term.h). The restore path for fatal signals does not
 * call ncurses: it writes the saved termios back and sends the precomputed "leave the alternate
 * screen, show the cursor, reset attributes, stop mouse reports" bytes with write(2), both
 * async-signal-safe, then re-raises the signal with its default action so a core dump or the
 * parent's wait status still tells the truth. A quit signal only sets a flag the loop reads; a
 * second one restores and exits from the handler, so the tutor never needs a kill -9. */
#include "tui_term.h"

#include <curses.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "gpu_err.h"
#include "tui_grid.h"
#include "tui_out.h"
#include "tui_state.h"
#include "tui_theme.h"
#include "tui_wrap.h"

static struct {
    bool active, utf8, color, saved_ok, atexit_set;
    SCREEN *scr;
    struct termios saved;
    char reset[256]; /* bytes that put the screen back, computed while ncurses is up */
    size_t reset_len;
    int attr[TS_COUNT];
    int extra;
    struct tui_grid grid; /* the frame being drawn (tui_term_frame_begin .. _end) */
    bool framing;
} T;

/* Lock-free atomics: written in a signal handler, read by the loop and the watchdog thread. */
static atomic_int g_signal;
static atomic_llong g_signal_ns; /* when the first quit signal came, CLOCK_MONOTONIC */
static atomic_bool g_active;      /* T.active, for the handlers and the watchdog */
static atomic_bool g_external;    /* an editor owns the terminal (tui_term_run): quit signals wait */

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static const int fatal_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
static char altstack[1 << 16];

/* Async-signal-safe restore: termios and raw bytes only. */
static void raw_restore(void)
{
    if (T.reset_len) {
        ssize_t r = write(STDOUT_FILENO, T.reset, T.reset_len);
        (void)r;
    }
    if (T.saved_ok) tcsetattr(STDOUT_FILENO, TCSANOW, &T.saved);
}

static void on_quit(int sig)
{
    if (atomic_load(&g_signal)) { /* the second one: the loop did not get to the first */
        if (atomic_exchange(&g_active, false)) raw_restore();
        tui_state_reap();
        _exit(128 + sig);
    }
    atomic_store(&g_signal_ns, now_ns());
    atomic_store(&g_signal, sig);
}

bool tui_term_emergency_restore(void)
{
    if (!atomic_exchange(&g_active, false)) return false;
    raw_restore();
    return true;
}

static void on_fatal(int sig)
{
    if (atomic_exchange(&g_active, false)) raw_restore();
    tui_state_reap(); /* a --record in progress leaves no temporary file */
    T.active = false;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}

static void install_signals(bool on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    /* no SA_RESTART: a blocking read returns, so the loop sees the flag at once */
    sa.sa_handler = on ? on_quit : SIG_DFL;
    for (size_t i = 0; i < sizeof quit_signals / sizeof *quit_signals; i++)
        sigaction(quit_signals[i], &sa, NULL);
    if (on) {
        stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
        sigaltstack(&ss, NULL); /* a stack overflow still gets its terminal back */
        sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    }
    sa.sa_handler = on ? on_fatal : SIG_DFL;
    for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++)
        sigaction(fatal_signals[i], &sa, NULL);
}

/* Append a terminfo string without its $<..> padding. */
static void add_cap(const char *name)
{
    char *s = tigetstr((char *)(uintptr_t)name); /* X/Open declares char *, reads only */
    if (!s || s == (char *)-1) return;
    for (; *s && T.reset_len + 1 < sizeof T.reset; s++) {
        if (s[0] == '$' && s[1] == '<') {
            char *e = strchr(s, '>');
            if (e) {
                s = e;
                continue;
            }
        }
        T.reset[T.reset_len++] = *s;
    }
}

static void add_raw(const char *s)
{
    size_t l = strlen(s);
    if (T.reset_len + l < sizeof T.reset) {
        memcpy(T.reset + T.reset_len, s, l);
        T.reset_len += l;
    }
}

static void at_exit(void) { tui_term_done(); }

/* How the theme was chosen, for the help overlay's "Colours" line. */
enum theme_how { HOW_DEFAULT, HOW_SET, HOW_ENV, HOW_OSC11, HOW_COLORFGBG, HOW_NO_COLOR };
static struct {
    int set;           /* tui_term_set_theme; -1: none */
    const char *set_by; /* "--theme" or "VRAMLAB_THEME" */
    int theme;
    enum theme_how how;
    unsigned char rgb[3];
} TH = {-1, NULL, TUI_THEME_DARK, HOW_DEFAULT, {0, 0, 0}};

void tui_term_set_theme(int theme, const char *by) { TH.set = theme, TH.set_by = by; }

int tui_term_theme(void) { return TH.theme; }

/* Ask the terminal for its background (tui_theme.h: OSC 11, then DA1 as the end mark) on the
 * terminal's own descriptors, in the mode ncurses has set (no echo, no line buffering), for at
 * most `ms` milliseconds. Bytes after the replies were typed ahead: they go back to ncurses. */
static bool ask_background(int ms, unsigned char rgb[3])
{
    int in = STDIN_FILENO, out = fileno(tui_out_terminal());
    if (out < 0 || !isatty(in) || !isatty(out)) return false;
    fflush(tui_out_terminal());
    const char q[] = TUI_BG_QUERY;
    if (write(out, q, sizeof q - 1) != (ssize_t)(sizeof q - 1)) return false;
    char buf[512];
    size_t n = 0, end = 0;
    bool got = false;
    long long deadline = now_ns() + (long long)ms * 1000000LL;
    enum tui_bg_reply r = TUI_BG_MORE;
    while (r == TUI_BG_MORE && n < sizeof buf) {
        long long left = (deadline - now_ns()) / 1000000LL;
        if (left <= 0) break;
        struct pollfd p = {.fd = in, .events = POLLIN};
        int k = poll(&p, 1, (int)left);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        ssize_t got_n = read(in, buf + n, sizeof buf - n);
        if (got_n <= 0) break;
        n += (size_t)got_n;
        r = tui_theme_bg_reply(buf, n, rgb, &got, &end);
    }
    if (r == TUI_BG_MORE) end = n; /* a reply cut off by the deadline is not a key press */
    for (size_t i = n; i > end; i--) ungetch((unsigned char)buf[i - 1]);
    return got;
}

/* --theme, then VRAMLAB_THEME (main.c passes whichever was given), then the terminal's answer to
 * OSC 11, then COLORFGBG, then dark. NO_COLOR or a terminal without colours: no question asked. */
static void choose_theme(bool color_possible)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) { /* whatever the theme (no-color.org) */
        TH.theme = TUI_THEME_MONO, TH.how = HOW_NO_COLOR;
        return;
    }
    if (TH.set >= 0) {
        TH.theme = TH.set;
        TH.how = TH.set_by && !strcmp(TH.set_by, "VRAMLAB_THEME") ? HOW_ENV : HOW_SET;
        return;
    }
    if (color_possible && ask_background(TUI_BG_WAIT_MS, TH.rgb)) {
        TH.theme = tui_theme_for_rgb(TH.rgb), TH.how = HOW_OSC11;
        return;
    }
    const char *fgbg = getenv("COLORFGBG");
    TH.theme = tui_theme_detect(fgbg);
    TH.how = fgbg && *fgbg ? HOW_COLORFGBG : HOW_DEFAULT;
}

void tui_term_theme_line(char *out, size_t n, bool zh)
{
    static const char *const names_en[] = {"dark", "light", "no colours"};
    static const char *const names_zh[] = {"深色", "浅色", "无颜色"};
    const char *name = zh ? names_zh[TH.theme] : names_en[TH.theme];
    const char *fgbg = getenv("COLORFGBG");
    switch (TH.how) {
    case HOW_SET:
    case HOW_ENV:
        snprintf(out, n, zh ? "%s主题，由 %s 指定" : "%s theme, set by %s", name,
                 TH.how == HOW_ENV ? "VRAMLAB_THEME" : "--theme");
        break;
    case HOW_OSC11:
        snprintf(out, n, zh ? "%s主题：终端背景为 #%02x%02x%02x（OSC 11 查询）；--theme dark|light|mono 可改"
                            : "%s theme: the terminal's background is #%02x%02x%02x (asked with OSC 11); "
                              "--theme dark|light|mono overrides",
                 name, TH.rgb[0], TH.rgb[1], TH.rgb[2]);
        break;
    case HOW_COLORFGBG:
        snprintf(out, n, zh ? "%s主题：终端没有回答背景色，按 COLORFGBG=%s；--theme dark|light|mono 可改"
                            : "%s theme: the terminal did not say its background; COLORFGBG=%s; "
                              "--theme dark|light|mono overrides",
                 name, fgbg ? fgbg : "");
        break;
    case HOW_NO_COLOR:
        snprintf(out, n, zh ? "无颜色（NO_COLOR）：含义靠文字和粗体、下划线表达"
                            : "no colours (NO_COLOR): words, bold and underline carry the meaning");
        break;
    default:
        snprintf(out, n, zh ? "%s主题：终端没有回答背景色（默认）；--theme dark|light|mono 可改"
                            : "%s theme: the terminal did not say its background (the default); "
                              "--theme dark|light|mono overrides",
                 name);
    }
    if (!T.color && TH.how != HOW_NO_COLOR && TH.theme != TUI_THEME_MONO)
        snprintf(out + strlen(out), n - strlen(out), zh ? "（此终端无颜色）" : " (this terminal has no colours)");
}

static int curses_attrs(int a)
{
    return (a & TUI_A_BOLD ? A_BOLD : 0) | (a & TUI_A_UNDER ? A_UNDERLINE : 0) |
           (a & TUI_A_REV ? A_REVERSE : 0) | (a & TUI_A_DIM ? A_DIM : 0) |
           (a & TUI_A_ITALIC ? A_ITALIC : 0);
}

/* Colour says what a value is (tui_theme.c has the table); without colour (NO_COLOR, the mono
 * theme, a monochrome terminal) the panels say it in words and emphasis falls back to
 * bold/underline/reverse. */
static void setup_colors(void)
{
    choose_theme(has_colors());
    int theme = TH.theme;
    T.color = theme != TUI_THEME_MONO && has_colors() && start_color() == OK &&
              COLORS >= 8 && COLOR_PAIRS > TS_COUNT;
    if (T.color) use_default_colors();
    enum tui_depth depth = !T.color ? TUI_DEPTH_8 : COLORS >= 256 ? TUI_DEPTH_256
                           : COLORS >= 16 ? TUI_DEPTH_16 : TUI_DEPTH_8;
    for (int i = 0; i < TS_COUNT; i++) {
        if (!T.color) {
            T.attr[i] = curses_attrs(tui_theme_mono(i));
            continue;
        }
        struct tui_look lk = tui_theme_look((enum tui_theme)theme, depth, i);
        if (lk.fg < 0 && lk.bg < 0) {
            T.attr[i] = curses_attrs(lk.attr);
            continue;
        }
        init_pair((short)(i + 1), lk.fg, lk.bg);
        T.attr[i] = (int)COLOR_PAIR(i + 1) | curses_attrs(lk.attr);
    }
}

/* A build carried to another machine (make portable) has compiled terminfo entries beside it, in
 * terminfo/: when the machine's own database has no entry for TERM, they are searched after
 * whatever TERMINFO_DIRS already names. True when there is such a folder to try. */
static bool terminfo_fallback(void)
{
    char exe[4096], dirs[8192];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 16);
    if (k <= 0) return false;
    exe[k] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    snprintf(slash, sizeof exe - (size_t)(slash - exe), "/terminfo");
    if (access(exe, R_OK | X_OK) != 0) return false;
    const char *old = getenv("TERMINFO_DIRS");
    if (old && strstr(old, exe)) return false; /* tried already */
    /* an empty entry stands for the compiled-in system folders, which stay first */
    snprintf(dirs, sizeof dirs, "%s%s%s", old && *old ? old : "", old && *old ? ":" : ":", exe);
    return setenv("TERMINFO_DIRS", dirs, 1) == 0;
}

bool tui_term_init(char *err, size_t n)
{
    if (T.active) return true;
    const char *cs = nl_langinfo(CODESET);
    T.utf8 = cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "UTF8"));
    T.saved_ok = tcgetattr(STDOUT_FILENO, &T.saved) == 0;
    const char *term = getenv("TERM");
    /* the terminal's own stream: stdout itself goes through the plain-output filter, which
     * would show ncurses' escape codes instead of sending them */
    T.scr = newterm(NULL, tui_out_terminal(), stdin);
    if (!T.scr && terminfo_fallback()) T.scr = newterm(NULL, tui_out_terminal(), stdin);
    if (!T.scr) {
        gpu_errf(err, n, "cannot open the terminal (TERM=%s)", term ? term : "unset");
        return false;
    }
    if (!cursor_address) { /* a hard-copy or dumb terminal cannot draw a screen */
        endwin();
        delscreen(T.scr);
        T.scr = NULL;
        if (T.saved_ok) tcsetattr(STDOUT_FILENO, TCSANOW, &T.saved);
        gpu_errf(err, n, "this terminal (TERM=%s) cannot move the cursor", term ? term : "unset");
        return false;
    }
    T.active = true;
    T.reset_len = 0;
    add_raw("\033[?1000l\033[?1002l\033[?1006l"); /* mouse reports off (harmless elsewhere) */
    add_cap("sgr0");
    add_cap("cnorm");
    add_cap("rmkx");
    add_cap("rmcup");
    if (!T.atexit_set) {
        atexit(at_exit);
        T.atexit_set = true;
    }
    atomic_store(&g_active, true); /* the reset bytes are complete: handlers may use them */
    install_signals(true);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    meta(stdscr, TRUE);
    intrflush(stdscr, FALSE);
    set_escdelay(25);
    curs_set(0);
    mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    setup_colors();
    return true;
}

void tui_term_done(void)
{
    if (!T.active) return;
    T.active = false;
    atomic_store(&g_active, false);
    mousemask(0, NULL);
    curs_set(1);
    endwin();
    install_signals(false);
    if (T.scr) delscreen(T.scr);
    T.scr = NULL;
    T.framing = false;
    tui_grid_free(&T.grid);
    if (T.saved_ok) tcsetattr(STDOUT_FILENO, TCSANOW, &T.saved);
    fflush(tui_out_terminal());
    fflush(stdout);
}

int tui_term_run(const char *cmd, const char *arg)
{
    if (!T.active) return -1;
    mmask_t mouse = 0;
    mousemask(0, &mouse);
    def_prog_mode();
    endwin();
    fflush(tui_out_terminal());
    fflush(stdout);
    /* as system(3) does: the terminal's ^C and ^\ are for the program, not for us */
    struct sigaction ign, old_int, old_quit;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    char line[1024];
    snprintf(line, sizeof line, "%s \"$1\"", cmd); /* EDITOR may carry options: "code -w" */
    int status = -1;
    atomic_store(&g_external, true);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL), signal(SIGQUIT, SIG_DFL), signal(SIGTERM, SIG_DFL), signal(SIGHUP, SIG_DFL);
        execl("/bin/sh", "sh", "-c", line, "sh", arg, (char *)NULL);
        _exit(127);
    }
    if (pid > 0) {
        int ws;
        while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {}
        status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + (WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    /* a quit signal that came while the editor ran: the loop's 2 s start now */
    if (atomic_load(&g_signal)) atomic_store(&g_signal_ns, now_ns());
    atomic_store(&g_external, false);
    reset_prog_mode();
    clearok(curscr, TRUE);
    mousemask(mouse, NULL);
    refresh();
    return status;
}

bool tui_term_active(void) { return T.active; }
bool tui_term_utf8(void) { return T.utf8; }
bool tui_term_color(void) { return T.color; }

int tui_term_signal(void) { return atomic_load(&g_signal); }

int tui_term_signal_since(double *at)
{
    if (atomic_load(&g_external)) return 0; /* the editor has the terminal: it is not stuck */
    int s = atomic_load(&g_signal);
    if (s && at) *at = (double)atomic_load(&g_signal_ns) * 1e-9;
    return s;
}

int tui_term_attr(int style)
{
    return (style >= 0 && style < TS_COUNT ? T.attr[style] : 0) | T.extra;
}

void tui_term_extra(int attrs) { T.extra = attrs; }

static void flush_run(int y, int x, const wchar_t *buf, int k, int attr)
{
    if (!k) return;
    attr_set((attr_t)attr & ~A_COLOR, (short)PAIR_NUMBER(attr), NULL);
    mvaddnwstr(y, x, buf, k);
}

void tui_term_frame_begin(void)
{
    erase();
    T.framing = T.active && tui_grid_reset(&T.grid, LINES, COLS);
}

/* Each row once, left to right, in runs of one look: ncurses never sees half a wide glyph
 * overwritten (tui_grid.h says why that matters). */
void tui_term_frame_end(void)
{
    if (!T.framing) return;
    T.framing = false;
    wchar_t buf[256];
    for (int y = 0; y < T.grid.rows && y < LINES; y++) {
        const struct tui_cell *row = T.grid.c + (size_t)y * (size_t)T.grid.cols;
        int k = 0, run_x = 0, run_attr = 0;
        for (int x = 0; x < T.grid.cols && x < COLS; x++) {
            if (row[x].cp == 0) continue; /* drawn with its left half */
            if (row[x].attr != run_attr || k + 2 >= (int)(sizeof buf / sizeof *buf)) {
                flush_run(y, run_x, buf, k, run_attr);
                run_x = x, k = 0, run_attr = row[x].attr;
            }
            buf[k++] = (wchar_t)row[x].cp;
        }
        flush_run(y, run_x, buf, k, run_attr);
    }
    attr_set(A_NORMAL, 0, NULL);
}

int tui_term_put(int y, int x, int w, const char *s, size_t n, const unsigned char *st, int style)
{
    wchar_t buf[256];
    int k = 0, used = 0, run_x = x, run_attr = -1;
    if (w <= 0 || y < 0 || y >= LINES || x < 0 || x >= COLS) return 0;
    if (x + w > COLS) w = COLS - x;
    for (size_t i = 0; i < n;) {
        unsigned cp;
        int l = gpu_utf8_decode(s + i, n - i, &cp);
        int attr = tui_term_attr(st ? st[i] : style);
        i += (size_t)l;
        int cw = tui_cp_width(cp);
        if (cw == 0) continue; /* combining marks: dropped rather than risk a misplaced cell */
        if (cp == '\t') cp = ' ';
        else if (!tui_cp_printable(cp) || (!T.utf8 && cp >= 0x80)) cp = '?', cw = 1;
        if (used + cw > w) break;
        if (T.framing) {
            tui_grid_put(&T.grid, y, x + used, cp, cw, attr);
            used += cw;
            continue;
        }
        if (attr != run_attr || k + 2 >= (int)(sizeof buf / sizeof *buf)) {
            flush_run(y, run_x, buf, k, run_attr);
            run_x = x + used, k = 0, run_attr = attr;
        }
        buf[k++] = (wchar_t)cp;
        used += cw;
    }
    flush_run(y, run_x, buf, k, run_attr);
    attr_set(A_NORMAL, 0, NULL);
    return used;
}

void tui_term_line(int y, int x, int w, const struct tui_line *l, int fill)
{
    int used = l ? tui_term_put(y, x, w, l->s, (size_t)l->len, l->st, TS_PLAIN) : 0;
    if (used < w) tui_term_fill(y, x + used, 1, w - used, fill);
}

void tui_term_text(int y, int x, int w, const char *s, int style)
{
    /* without UTF-8, "↑/↓" as "^/v" and "…" as "...", not "?/?" (the screens' own words too) */
    char *folded = !T.utf8 ? tui_ascii_fold(s, strlen(s), NULL, NULL) : NULL;
    if (folded) s = folded;
    size_t n = strlen(s);
    char *fit = NULL;
    /* too wide: cut with an ellipsis, never silently; at a word ("6.26 Gi" is no cut), or at
     * a glyph in CJK text (a line may break beside any wide glyph) */
    if (w > 1 && tui_width(s, n) > w && (fit = malloc(n + (size_t)w + 8))) {
        bool cjk = false;
        for (const unsigned char *c = (const unsigned char *)s; *c && !cjk; c++) cjk = *c >= 0xe3;
        n = cjk ? tui_fit(s, n, w, TUI_LEFT, !T.utf8, fit, n + (size_t)w + 8)
                : tui_fit_words(s, w, !T.utf8, fit, n + (size_t)w + 8);
    }
    int used = tui_term_put(y, x, w, fit ? fit : s, n, NULL, style);
    free(fit);
    free(folded);
    if (used < w) tui_term_fill(y, x + used, 1, w - used, style);
}

void tui_term_fill(int y, int x, int h, int w, int style)
{
    if (w <= 0 || h <= 0) return;
    if (x < 0) w += x, x = 0;
    if (x + w > COLS) w = COLS - x;
    int attr = tui_term_attr(style);
    chtype blank = (chtype)' ' | (chtype)attr;
    for (int r = y; r < y + h && r < LINES; r++) {
        if (r < 0) continue;
        if (T.framing) tui_grid_fill(&T.grid, r, x, w, attr);
        else mvhline(r, x, blank, w);
    }
}

void tui_term_bar(int y, int w, const char *left, const char *right, int style)
{
    /* without UTF-8 the widths are the folded text's ("←→" takes 4 columns as "<-->") */
    char *fl = !T.utf8 ? tui_ascii_fold(left, strlen(left), NULL, NULL) : NULL;
    char *fr = !T.utf8 ? tui_ascii_fold(right, strlen(right), NULL, NULL) : NULL;
    if (fl) left = fl;
    if (fr) right = fr;
    int rw = tui_width(right, strlen(right));
    if (rw + 12 > w) rw = 0;
    tui_term_fill(y, 0, 1, w, style);
    /* cut at a word, with an ellipsis: never "…RTX 3090 profi" */
    int lw = w - 1 - (rw ? rw + 2 : 0);
    size_t cap = strlen(left) + (size_t)(lw > 0 ? lw : 0) + 8;
    char *fit = malloc(cap);
    if (fit && lw > 0) tui_fit_words(left, lw, !T.utf8, fit, cap);
    tui_term_text(y, 1, lw, fit && lw > 0 ? fit : left, style);
    free(fit);
    if (rw) tui_term_text(y, w - rw - 1, rw, right, style);
    free(fl);
    free(fr);
}

void tui_term_title_bar(int y, int w, const char *left, const char *right, bool sim, bool zh,
                        int style)
{
    const char *badge = !sim ? "" : !T.utf8 || !zh ? " SIMULATED " : " SIMULATED \xe6\xa8\xa1\xe6\x8b\x9f ";
    char r[512];
    snprintf(r, sizeof r, "%s%s%s", badge, sim && *right ? "  " : "", right);
    tui_term_bar(y, w, left, r, style);
    int rw = tui_width(r, strlen(r)), bw = tui_width(badge, strlen(badge));
    if (sim && rw + 12 <= w) { /* tui_term_bar showed the right side: the badge stands out */
        tui_term_extra(A_REVERSE | A_BOLD);
        tui_term_text(y, w - rw - 1, bw, badge, TS_SIMULATED);
        tui_term_extra(0);
    }
}
