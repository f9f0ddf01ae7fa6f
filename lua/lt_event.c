/* lt_event.c - the registry's names and kinds, generated from lt_event.h's lists. */
#include "lt_event.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_esc.h"
#include "gpu_utf8.h"

static const struct {
    const char *name;
    int panel;
    unsigned fields;
} events[LT_EV_COUNT] = {
#define LT_X_EV(e, name, panel, fields) {name, LT_PANEL_##panel, fields},
    LT_EVENT_LIST(LT_X_EV)
#undef LT_X_EV
};

static const char *const panels[LT_PANEL_COUNT] = {
#define LT_X_PANEL(e, name) #name,
    LT_PANEL_LIST(LT_X_PANEL)
#undef LT_X_PANEL
};

static const char *const styles[LT_STYLE_COUNT] = {
#define LT_X_STYLE(e, name) name,
    LT_STYLE_LIST(LT_X_STYLE)
#undef LT_X_STYLE
};

static const char *const blocks[LT_MAP_COUNT] = {
#define LT_X_MAP(e, name) name,
    LT_MAP_STATE_LIST(LT_X_MAP)
#undef LT_X_MAP
};

static int find(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (!strcmp(names[i], s)) return i;
    return -1;
}

const char *lt_event_name(enum lt_event_type t)
{
    return (unsigned)t < LT_EV_COUNT ? events[t].name : "";
}

int lt_event_parse(const char *name)
{
    for (int i = 0; name && i < LT_EV_COUNT; i++)
        if (!strcmp(events[i].name, name)) return i;
    return -1;
}

unsigned lt_event_fields(enum lt_event_type t) { return (unsigned)t < LT_EV_COUNT ? events[t].fields : 0; }

enum lt_panel_kind lt_event_panel_kind(enum lt_event_type t)
{
    return (unsigned)t < LT_EV_COUNT ? (enum lt_panel_kind)events[t].panel : LT_PANEL_NONE;
}

const char *lt_panel_name(enum lt_panel_kind k) { return (unsigned)k < LT_PANEL_COUNT ? panels[k] : ""; }
int lt_panel_parse(const char *name) { return find(panels, LT_PANEL_COUNT, name); }
const char *lt_style_name(enum lt_style s) { return styles[(unsigned)s < LT_STYLE_COUNT ? s : 0]; }
int lt_style_parse(const char *name) { return find(styles, LT_STYLE_COUNT, name); }
const char *lt_map_state_name(enum lt_map_state s)
{
    return blocks[(unsigned)s < LT_MAP_COUNT ? s : LT_MAP_USED];
}
int lt_map_state_parse(const char *name) { return find(blocks, LT_MAP_COUNT, name); }

char *lt_event_text(const struct lt_event *ev, bool zh, const char *nul)
{
    const char *s = lt_tx(ev->text, zh);
    size_t len = ev->text_len && ev->type == LT_EV_PRINT ? ev->text_len : strlen(s), nl = strlen(nul), extra = 0;
    for (size_t i = 0; i < len; i++) extra += s[i] ? 0 : nl - 1;
    char *out = malloc(len + extra + 1), *o = out;
    if (!out) return NULL;
    for (size_t i = 0; i < len; i++) {
        if (s[i]) *o++ = s[i];
        else memcpy(o, nul, nl), o += nl;
    }
    *o = 0;
    return out;
}

const struct lt_event *lt_event_visible(const struct lt_event *ev, const char *nul,
                                        struct lt_event *copy, char **to_free)
{
    *to_free = NULL;
    const char *t = lt_tx(ev->text, false);
    if (ev->type != LT_EV_PRINT || !ev->text_len || !memchr(t, 0, ev->text_len)) return ev;
    *copy = *ev;
    if (!(*to_free = lt_event_text(ev, false, nul))) return ev;
    copy->text = lt_text1(*to_free); /* print() text is the same in both languages */
    copy->text_len = 0;
    return copy;
}

const char *lt_event_cut(const char *s, size_t len, unsigned f, char *buf, size_t *out)
{
    static const char ell[] = "\xe2\x80\xa6"; /* … */
    size_t max = f == LT_F_TEXT ? LT_EV_TEXT_MAX : LT_EV_LABEL_MAX;
    *out = s ? len : 0;
    if (!s) return s;
    if (f != LT_F_TEXT && !gpu_esc_clean(s, false)) { /* one line: a label holds no line break */
        gpu_esc_field(buf, max + 1, s);
        *out = strlen(buf);
        return buf;
    }
    if (len <= max) return s;
    size_t k = gpu_utf8_cut(s, max - (sizeof ell - 1));
    memcpy(buf, s, k);
    memcpy(buf + k, ell, sizeof ell); /* with its NUL */
    *out = k + sizeof ell - 1;
    return buf;
}
