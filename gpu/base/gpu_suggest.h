/* gpu_suggest.h - "did you mean": of some names (commands, lesson ids, exercise ids, functions),
 * the one a mistyped word was most likely meant to be. Distance is the optimal string alignment
 * distance (an insertion, a deletion, a substitution or two neighbours swapped count one each;
 * ASCII letters compared without case), and a name counts only when it is close enough to be a
 * typo of the word: at most 1 for words of up to 4 characters, 2 up to 8, else 3, and less than
 * the word's own length; a word of 4 or more characters that a name starts with counts as 1 (h100:
 * h100-sxm). Of two names as close, the one that shares more of the word's start wins (1.31: 1.3
 * before 1.1; h100: h100-sxm before h200), then the first offered. Pure;
 * tests/unit/test_gpu_suggest.c. */
#ifndef GPU_SUGGEST_H
#define GPU_SUGGEST_H

#include <stddef.h>

struct gpu_suggest {
    const char *word, *best; /* best: NULL until a name is close enough */
    int dist, lead; /* lead: leading characters best shares with word */
};

void gpu_suggest_init(struct gpu_suggest *s, const char *word);
/* Offer one name (kept by pointer: it must outlive the struct's use). */
void gpu_suggest_add(struct gpu_suggest *s, const char *name);
/* The distance between a and b, or max + 1 when it is larger than max (bytes; both at most 63). */
int gpu_edit_distance(const char *a, const char *b, int max);

#endif
