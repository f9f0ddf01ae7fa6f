/* tui_plain.c - headless output (see tui_plain.h). */
#include "tui_plain.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_esc.h"
#include "gpu_fmt.h"
#include "lt_markup.h"
#include "tui_json.h"
#include "tui_wrap.h"

size_t tui_safe_filter(const char *s, size_t n, bool final,
                       void (*emit)(void *ud, const char *p, size_t n), void *ud)
{
    size_t i = 0, run = 0; /* s[run, i): text that passes as it is */
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t') {
            i++;
            continue;
        }
        unsigned cp = c;
        int k = 1;
        if (c >= 0x80) {
            if (!final && gpu_utf8_partial(s + i, n - i)) break; /* the rest comes next time */
            k = gpu_utf8_decode(s + i, n - i, &cp);
            if (!(cp == 0xfffd && k == 1) && !gpu_esc_control(cp)) {
                i += (size_t)k;
                continue;
            }
        }
        if (i > run) emit(ud, s + run, i - run);
        char esc[16];
        if (cp == 0xfffd && k == 1) emit(ud, "\xef\xbf\xbd", 3); /* invalid UTF-8: U+FFFD */
        else emit(ud, esc, (size_t)snprintf(esc, sizeof esc, cp < 0x80 ? "\\x%02x" : "\\u%04x", cp));
        i += (size_t)k;
        run = i;
    }
    if (i > run) emit(ud, s + run, i - run);
    return i;
}

static void emit_file(void *ud, const char *p, size_t n) { fwrite(p, 1, n, ud); }

void tui_safe_fputs(FILE *f, const char *s)
{
    if (s) tui_safe_filter(s, strlen(s), true, emit_file, f);
}

/* stdout and stderr through the filter: a cookie stream per descriptor that filters what the
 * stdio buffer hands it and writes it with write(2). */
struct guard {
    int fd;
    int err;         /* errno of the first failed write */
    char pend[4];    /* a UTF-8 sequence cut by the buffer's end */
    size_t npend;
};

static struct guard g_out = {STDOUT_FILENO, 0, {0}, 0}, g_err = {STDERR_FILENO, 0, {0}, 0};
static FILE *g_term, *g_term_err; /* the real streams */

static void emit_fd(void *ud, const char *p, size_t n)
{
    struct guard *g = ud;
    while (n && !g->err) {
        ssize_t k = write(g->fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            g->err = k < 0 ? errno : EIO;
            break;
        }
        p += k, n -= (size_t)k;
    }
}

static ssize_t guard_write(void *c, const char *buf, size_t size)
{
    struct guard *g = c;
    size_t left = size;
    if (g->npend) { /* finish the cut sequence with the first bytes of this buffer */
        char tmp[8];
        size_t t = g->npend, take = left < 4 ? left : 4;
        memcpy(tmp, g->pend, t);
        memcpy(tmp + t, buf, take);
        size_t used = tui_safe_filter(tmp, t + take, false, emit_fd, g);
        if (used < t) { /* still cut: all of it waits (at most 3 bytes) */
            memcpy(g->pend + t, buf, take);
            g->npend = t + take;
            return g->err ? -1 : (ssize_t)size;
        }
        g->npend = 0;
        buf += used - t, left -= used - t;
    }
    size_t used = tui_safe_filter(buf, left, false, emit_fd, g);
    memcpy(g->pend, buf + used, left - used);
    g->npend = left - used;
    if (g->err) {
        errno = g->err;
        return -1;
    }
    return (ssize_t)size;
}

static int guard_close(void *c)
{
    struct guard *g = c;
    if (g->npend) tui_safe_filter(g->pend, g->npend, true, emit_fd, g);
    g->npend = 0;
    return g->err ? -1 : 0;
}

bool tui_plain_guard(void)
{
    if (g_term) return true;
    cookie_io_functions_t io = {.write = guard_write, .close = guard_close};
    FILE *o = fopencookie(&g_out, "w", io), *e = fopencookie(&g_err, "w", io);
    if (!o || !e) {
        if (o) fclose(o);
        if (e) fclose(e);
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    setvbuf(o, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
    setvbuf(e, NULL, _IONBF, 0);
    g_term = stdout, g_term_err = stderr;
    stdout = o, stderr = e;
    return true;
}

FILE *tui_plain_terminal(void) { return g_term ? g_term : stdout; }

int tui_plain_close(void)
{
    if (!g_term) return fflush(stdout) == 0 && !ferror(stdout) ? 0 : errno ? errno : EIO;
    bool bad = fclose(stdout) != 0;
    int err = g_out.err ? g_out.err : bad ? EIO : 0;
    fclose(stderr);
    stdout = g_term, stderr = g_term_err;
    g_term = g_term_err = NULL;
    /* the real stream: whatever ncurses left, and a close that fails (a file system that only
     * reports errors then); a stdout that was closed to begin with already failed above */
    errno = 0;
    if (fclose(stdout) != 0 && !err && errno != EBADF) err = errno ? errno : EIO;
    return err;
}

static void plain_spans(void *ud, int s, const char *p, size_t len)
{
    fwrite(p, 1, len, ud); /* plain output drops the emphasis markers */
}

static void print_inline(FILE *f, const char *text)
{
    lt_markup_spans(text, plain_spans, f);
}

struct strip {
    char *out;
    size_t used, cap;
};

static void strip_span(void *ud, int s, const char *p, size_t len)
{
    struct strip *st = ud;
    if (st->used + len >= st->cap) len = st->cap - st->used - 1;
    memcpy(st->out + st->used, p, len);
    st->used += len;
    st->out[st->used] = 0;
}

/* A table cell without its **emphasis** / *italic* / `code` markers, so widths line up. */
static const char *plain_cell(const char *cell, char *buf, size_t n)
{
    struct strip st = {buf, 0, n};
    buf[0] = 0;
    lt_markup_spans(cell, strip_span, &st);
    return buf;
}

static void print_table(FILE *f, const struct lt_mk_block *b)
{
    int w[64] = {0}, cols = b->cols < 64 ? b->cols : 64;
    char buf[1024];
    for (int r = 0; r < b->rows; r++)
        for (int c = 0; c < cols; c++) {
            const char *cell = plain_cell(b->cells[r * b->cols + c], buf, sizeof buf);
            int cw = tui_width(cell, strlen(cell));
            if (cw > w[c]) w[c] = cw;
        }
    for (int r = 0; r < b->rows; r++) {
        fputs("  ", f);
        for (int c = 0; c < cols; c++) {
            const char *cell = plain_cell(b->cells[r * b->cols + c], buf, sizeof buf);
            fprintf(f, "%s%s", c ? " | " : "", cell);
            if (c + 1 < cols)
                for (int k = tui_width(cell, strlen(cell)); k < w[c]; k++) fputc(' ', f);
        }
        fputc('\n', f);
        if (r == 0) {
            fputs("  ", f);
            for (int c = 0; c < cols; c++) {
                if (c) fputs("-+-", f);
                for (int k = 0; k < w[c]; k++) fputc('-', f);
            }
            fputc('\n', f);
        }
    }
}

void tui_plain_markup(struct tui_plain *p, const char *src)
{
    struct lt_mk_doc doc;
    char err[256];
    FILE *f = p->out;
    if (!src) return;
    if (p->json) {
        struct tui_json j;
        tui_json_init(&j, f);
        tui_json_obj(&j);
        tui_json_kstr(&j, "type", "text");
        tui_json_kstr(&j, "markup", src);
        tui_json_end(&j);
        return;
    }
    if (lt_markup_parse(src, strlen(src), &doc, err, sizeof err) != 0) {
        fprintf(f, "(markup error: %s)\n%s\n", err, src);
        return;
    }
    for (int i = 0; i < doc.n; i++) {
        const struct lt_mk_block *b = &doc.b[i];
        switch (b->kind) {
        case LT_MK_HEADING: {
            fputc('\n', f);
            print_inline(f, b->text);
            fputc('\n', f);
            int w = tui_width(b->text, strlen(b->text));
            for (int k = 0; k < w; k++) fputc(b->level == 1 ? '=' : '-', f);
            fputc('\n', f);
            break;
        }
        case LT_MK_PARA:
            print_inline(f, b->text);
            fputs("\n\n", f);
            break;
        case LT_MK_ITEM:
            for (int k = 0; k < b->level; k++) fputs("  ", f);
            if (b->number) fprintf(f, "  %d. ", b->number);
            else fputs("  - ", f);
            print_inline(f, b->text);
            fputc('\n', f);
            if (i + 1 == doc.n || doc.b[i + 1].kind != LT_MK_ITEM) fputc('\n', f);
            break;
        case LT_MK_TABLE:
            print_table(f, b);
            fputc('\n', f);
            break;
        case LT_MK_CODE:
            for (const char *l = b->text; l && *l;) {
                const char *nl = strchr(l, '\n');
                fprintf(f, "    %.*s\n", (int)(nl ? nl - l : (long)strlen(l)), l);
                l = nl ? nl + 1 : l + strlen(l);
            }
            fputc('\n', f);
            break;
        case LT_MK_CALLOUT:
            fprintf(f, "[%s] ", lt_callout_label(b->callout, p->lang));
            print_inline(f, b->text);
            fputs("\n\n", f);
            break;
        }
    }
    lt_markup_free(&doc);
}

/* The style beside a value, in the reader's language; SIMULATED stays one word everywhere so
 * it is recognised (JSON keeps these English words). */
static const char *style_label(bool zh, enum lt_style s)
{
    static const char *const en[LT_STYLE_COUNT] = {"measured", "SIMULATED", "theoretical", "reference"};
    static const char *const zhs[LT_STYLE_COUNT] = {"实测", "SIMULATED", "理论值", "参考值"};
    return (zh ? zhs : en)[(unsigned)s < LT_STYLE_COUNT ? s : 0];
}

/* A memory map's state in words ("free 2 GiB", not "free 2 GiB (free)"). */
static const char *state_label(bool zh, enum lt_map_state s)
{
    static const char *const zhs[LT_MAP_COUNT] = {"已分配", "已缓存", "待回收", "空闲", "已用", "混合"};
    return zh ? zhs[(unsigned)s < LT_MAP_COUNT ? s : LT_MAP_USED] : lt_map_state_name(s);
}

/* ---- the printers: one row per event kind -------------------------------------------------- */

struct pctx {
    FILE *f;
    bool zh;
    const char *rp; /* ", REPLAY" when the events come from a recording */
};

#define TX(t) lt_tx(t, c->zh)

static void pr_print(const struct pctx *c, const struct lt_event *ev) { fprintf(c->f, "%s\n", TX(ev->text)); }

static void pr_point(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96], n2[96];
    gpu_fmt_num(ev->x, n1, sizeof n1), gpu_fmt_num(ev->y, n2, sizeof n2);
    fprintf(c->f, "  [%s] %s: x=%s y=%s (%s%s)\n", ev->panel, TX(ev->series), n1, n2,
            style_label(c->zh, ev->style), c->rp);
}

static void pr_bar(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96], n2[96];
    gpu_fmt_qty(ev->value, TX(ev->unit), n1, sizeof n1);
    fprintf(c->f, "  [%s] %s: %s (%s%s)", ev->panel, TX(ev->series), n1, style_label(c->zh, ev->style), c->rp);
    if (ev->max > 0) { /* the theoretical peak the lesson pairs with it */
        gpu_fmt_qty(ev->max, TX(ev->unit), n2, sizeof n2);
        fprintf(c->f, c->zh ? "，理论峰值 %s" : ", theoretical peak %s", n2);
    }
    fputc('\n', c->f);
}

static void pr_row(const struct pctx *c, const struct lt_event *ev)
{
    fprintf(c->f, "  [%s] ", ev->panel);
    for (int i = 0; i < (ev->cells ? ev->ncells : 0); i++) fprintf(c->f, "%s%s", i ? " | " : "", TX(ev->cells[i]));
    fputc('\n', c->f);
}

static void pr_gauge(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96], n2[96];
    gpu_fmt_num(ev->value, n1, sizeof n1), gpu_fmt_num(ev->max, n2, sizeof n2);
    fprintf(c->f, "  [%s] %s: %s %s %s %s (%s%s)\n", ev->panel, TX(ev->series), n1, c->zh ? "/" : "of",
            n2, TX(ev->unit), style_label(c->zh, ev->style), c->rp);
}

static void pr_note(const struct pctx *c, const struct lt_event *ev)
{
    fprintf(c->f, "  [%s] %s%s\n", ev->panel, c->zh ? "注：" : "note: ", TX(ev->text));
}

/* "owner 1.50 GiB (state)" per block */
static void pr_map(const struct pctx *c, const struct lt_event *ev)
{
    char n1[96];
    gpu_fmt_bytes(ev->value, GPU_FMT_BIN, n1, sizeof n1);
    fprintf(c->f, c->zh ? "  [%s] 显存布局（共 %s）：" : "  [%s] memory map (%s in all):", ev->panel, n1);
    for (int i = 0; i < (ev->blocks ? ev->nblocks : 0); i++) {
        const struct lt_map_block *b = &ev->blocks[i];
        const char *owner = TX(b->owner), *k = state_label(c->zh, b->state);
        const char *sep = c->zh ? (i ? "；" : "") : i ? "; " : " ";
        char size[64];
        gpu_fmt_bytes((double)b->bytes, GPU_FMT_BIN, size, sizeof size);
        fprintf(c->f, "%s%s%s%s", sep, owner, *owner ? " " : "", size);
        if (strcmp(owner, k)) fprintf(c->f, c->zh ? "（%s）" : " (%s)", k);
    }
    fputc('\n', c->f);
}

static void pr_status(const struct pctx *c, const struct lt_event *ev) { fprintf(c->f, "  -- %s\n", TX(ev->text)); }

#undef TX

static void (*const printers[LT_EV_COUNT])(const struct pctx *, const struct lt_event *) = {
    [LT_EV_PRINT] = pr_print, [LT_EV_POINT] = pr_point, [LT_EV_BAR] = pr_bar,
    [LT_EV_ROW] = pr_row,     [LT_EV_GAUGE] = pr_gauge, [LT_EV_NOTE] = pr_note,
    [LT_EV_MAP] = pr_map,     [LT_EV_CLEAR] = NULL,     [LT_EV_STATUS] = pr_status,
};

/* JSON: the fields the registry gives the kind, under their names ("series" is "label"), in
 * the reader's language; NaN and inf are null, as JSON has neither. */
static void json_event(const struct tui_plain *p, FILE *f, const struct lt_event *ev, bool zh)
{
    unsigned fl = lt_event_fields(ev->type);
    struct tui_json j;
    tui_json_init(&j, f);
    tui_json_obj(&j);
    tui_json_kstr(&j, "type", lt_event_name(ev->type));
    if ((fl & LT_F_PANEL) && *ev->panel) tui_json_kstr(&j, "panel", ev->panel);
    if ((fl & LT_F_SERIES) && *lt_tx(ev->series, zh)) tui_json_kstr(&j, "label", lt_tx(ev->series, zh));
    if ((fl & LT_F_TEXT) && *lt_tx(ev->text, zh)) tui_json_kstr(&j, "text", lt_tx(ev->text, zh));
    if ((fl & LT_F_UNIT) && *lt_tx(ev->unit, zh)) tui_json_kstr(&j, "unit", lt_tx(ev->unit, zh));
    if (fl & LT_F_X) tui_json_knum(&j, "x", ev->x);
    if (fl & LT_F_Y) tui_json_knum(&j, "y", ev->y);
    if (fl & LT_F_VALUE) tui_json_knum(&j, "value", ev->value);
    if ((fl & LT_F_MAX) && ev->type == LT_EV_BAR) { /* a bar's max is its theoretical peak */
        if (ev->max > 0) tui_json_knum(&j, "peak", ev->max);
    } else if (fl & LT_F_MAX) {
        tui_json_knum(&j, "max", ev->max);
    }
    if (fl & LT_F_STYLE) {
        tui_json_kstr(&j, "style", style_label(false, ev->style)); /* "SIMULATED" is one word everywhere */
        tui_json_kbool(&j, "simulated", ev->style == LT_SIMULATED);
    }
    if (p->replay) tui_json_kbool(&j, "replay", true);
    if ((fl & LT_F_CELLS) && ev->cells && ev->ncells > 0) {
        tui_json_key(&j, "cells");
        tui_json_arr(&j);
        for (int i = 0; i < (ev->cells ? ev->ncells : 0); i++) tui_json_str(&j, lt_tx(ev->cells[i], zh));
        tui_json_end(&j);
    }
    if (fl & LT_F_BLOCKS) {
        tui_json_key(&j, "blocks");
        tui_json_arr(&j);
        for (int i = 0; i < (ev->blocks ? ev->nblocks : 0); i++) {
            const struct lt_map_block *b = &ev->blocks[i];
            tui_json_obj(&j);
            tui_json_kstr(&j, "owner", lt_tx(b->owner, zh));
            tui_json_kstr(&j, "state", lt_map_state_name(b->state));
            tui_json_kuint(&j, "bytes", b->bytes);
            if (b->seg) tui_json_kint(&j, "seg", b->seg);
            tui_json_end(&j);
        }
        tui_json_end(&j);
    }
    tui_json_end(&j);
}

void tui_plain_sink(void *ud, const struct lt_event *in)
{
    struct tui_plain *p = ud;
    struct lt_event copy;
    char *text;
    const struct lt_event *ev = lt_event_visible(in, "\\0", &copy, &text);
    bool zh = p->lang && !strcmp(p->lang, "zh");
    if ((unsigned)ev->type >= LT_EV_COUNT) {
        free(text);
        return; /* an index from elsewhere: checked first */
    }
    if (p->json) json_event(p, p->out, ev, zh);
    else if (printers[ev->type]) printers[ev->type](&(struct pctx){p->out, zh, p->replay ? ", REPLAY" : ""}, ev);
    fflush(p->out);
    free(text);
}
