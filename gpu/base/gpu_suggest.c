/* gpu_suggest.c - see gpu_suggest.h. */
#include "gpu_suggest.h"

#include <string.h>

#define SUGGEST_MAX 63

static char fold(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

int gpu_edit_distance(const char *a, const char *b, int max)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > SUGGEST_MAX || m > SUGGEST_MAX) return max + 1;
    if ((int)(n > m ? n - m : m - n) > max) return max + 1;
    int d[SUGGEST_MAX + 1][SUGGEST_MAX + 1];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int cost = fold(a[i - 1]) != fold(b[j - 1]);
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]) &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m] > max ? max + 1 : d[n][m];
}

void gpu_suggest_init(struct gpu_suggest *s, const char *word)
{
    s->word = word ? word : "", s->best = NULL, s->dist = 0, s->lead = 0;
}

void gpu_suggest_add(struct gpu_suggest *s, const char *name)
{
    if (!name || !*name) return;
    int len = (int)strlen(s->word);
    int max = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    if (max >= len) max = len - 1;
    if (max < 1) return;
    int d = gpu_edit_distance(s->word, name, max);
    int lead = 0;
    while (s->word[lead] && fold(s->word[lead]) == fold(name[lead])) lead++;
    if (len >= 4 && !s->word[lead] && name[lead] && d > 1) d = 1; /* h100: the start of h100-sxm */
    if (d == 0 || d > max || (s->best && d > s->dist)) return; /* 0: the word itself */
    if (s->best && d == s->dist && lead <= s->lead) return;
    s->best = name, s->dist = d, s->lead = lead;
}
