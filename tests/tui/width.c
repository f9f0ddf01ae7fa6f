/* width.c - checks captured tmux screens (tests/tui): every line's display width (wcwidth, the
 * way the tutor measures, in C.UTF-8) must be at most W; with a divider column D, every line
 * from 2 to the last but one must have a box-drawing vertical line at display column D (a CJK
 * line that overflowed its pane would push it away). Also rejects broken UTF-8.
 * usage: width W [D] < capture.txt; prints the offending lines, exit 1 on any. */
#define _GNU_SOURCE
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: width W [DIVIDER-COLUMN] < capture\n");
        return 2;
    }
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8")) {
        fprintf(stderr, "width: no UTF-8 locale\n");
        return 2;
    }
    int W = atoi(argv[1]), D = argc > 2 ? atoi(argv[2]) : -1, bad = 0, lineno = 0;
    char line[65536];
    int nlines = 0;
    char **all = NULL;
    while (fgets(line, sizeof line, stdin)) {
        char **na = realloc(all, (size_t)(nlines + 1) * sizeof *na);
        if (!na) return 2;
        all = na;
        all[nlines++] = strdup(line);
    }
    for (lineno = 1; lineno <= nlines; lineno++) {
        char *s = all[lineno - 1];
        size_t n = strcspn(s, "\n");
        mbstate_t st;
        memset(&st, 0, sizeof st);
        int col = 0, divider_at = -1;
        for (size_t i = 0; i < n;) {
            wchar_t wc;
            size_t k = mbrtowc(&wc, s + i, n - i, &st);
            if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
                printf("line %d: broken UTF-8 at byte %zu\n", lineno, i);
                bad = 1;
                break;
            }
            int w = wcwidth(wc);
            if (w < 0) w = 1;
            if (wc == 0x2502 && col == D) divider_at = col;
            col += w;
            i += k;
        }
        if (col > W) {
            printf("line %d is %d columns wide (pane %d): %.*s\n", lineno, col, W, (int)n, s);
            bad = 1;
        }
        if (D >= 0 && lineno >= 2 && lineno < nlines && divider_at != D) {
            printf("line %d: no divider at column %d: %.*s\n", lineno, D, (int)n, s);
            bad = 1;
        }
    }
    return bad;
}
