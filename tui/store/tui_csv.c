/* tui_csv.c - CSV cells (tui_csv.h). */
#include "tui_csv.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

void tui_csv_field(FILE *f, const char *s)
{
    if (!s) return;
    bool formula = *s && strchr("=+-@\t\r", *s);
    if (!strpbrk(s, ",\"\n\r")) {
        fprintf(f, "%s%s", formula ? "'" : "", s);
        return;
    }
    fprintf(f, "\"%s", formula ? "'" : "");
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void tui_csv_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.17g", v);
}
