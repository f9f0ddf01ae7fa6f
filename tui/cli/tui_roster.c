/* tui_roster.c - a class list read line by line (tui_roster.h). */
#include "tui_roster.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_esc.h"
#include "gpu_file.h"
#include "tui_file.h"

#define ROSTER_MAX_FILE (4u << 20)

bool tui_roster_read(const char *path, struct gpu_strtab *names, char *err, size_t n)
{
    memset(names, 0, sizeof *names);
    size_t len;
    char *text = gpu_file_read(path, ROSTER_MAX_FILE, 0, &len, err, n);
    if (!text) return false;
    bool ok = true;
    int line = 0;
    char *p = text;
    if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3)) p += 3; /* a spreadsheet's UTF-8 byte order mark */
    for (; ok && p < text + len; line++) {
        char *end = memchr(p, '\n', (size_t)(text + len - p));
        if (!end) end = text + len;
        char *a = p, *b = end;
        p = end + 1;
        while (a < b && (*a == ' ' || *a == '\t')) a++;
        /* a class list exported as CSV: the name is the first field */
        for (char *f = a; f < b; f++)
            if (*f == ',' || *f == ';' || *f == '\t') {
                b = f;
                break;
            }
        while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r')) b--;
        if (a == b || *a == '#') continue;
        *b = 0;
        char shown[200];
        gpu_esc_field(shown, sizeof shown, a);
        if (!tui_file_id_ok(a)) {
            gpu_errf(err, n, "%s:%d: '%s' is not a student name: letters, digits, '.', '_' and '-', "
                     "as vramlab exam --student takes it", path, line + 1, shown);
            ok = false;
        } else if (tui_roster_has(names, a)) {
            gpu_errf(err, n, "%s:%d: %s is listed twice", path, line + 1, shown);
            ok = false;
        } else if (names->count == TUI_ROSTER_MAX) {
            gpu_errf(err, n, "%s:%d: more than %d students", path, line + 1, TUI_ROSTER_MAX);
            ok = false;
        } else if (gpu_strtab_intern(names, a, strlen(a)) == GPU_STRTAB_NONE) {
            gpu_errf(err, n, "out of memory");
            ok = false;
        }
    }
    free(text);
    if (ok && !names->count) gpu_errf(err, n, "%s: no student names (one a line)", path), ok = false;
    if (!ok) gpu_strtab_free(names);
    return ok;
}

bool tui_roster_has(const struct gpu_strtab *names, const char *name)
{
    return gpu_strtab_find(names, name, strlen(name)) != GPU_STRTAB_NONE;
}
