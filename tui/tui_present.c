#include "tui.h"
int tui_present(struct lt_runtime *rt, const struct tui_opts *opts) { (void)rt; (void)opts; return 0; }
