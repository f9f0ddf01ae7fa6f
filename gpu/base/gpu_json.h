/* gpu_json.h - JSON string literals that are valid UTF-8 JSON whatever the bytes they are made
 * from (device and process names from the driver, lesson and recording text), for every layer
 * that writes JSON (gpu/ is the bottom one). */
#ifndef GPU_JSON_H
#define GPU_JSON_H

#include <stddef.h>

/* Emit s as a quoted JSON string through put: '"' and '\' escaped, control characters (C0, DEL,
 * C1), bidi controls and U+2028/U+2029 as \u escapes, bytes that are not UTF-8 as \ufffd. */
void gpu_json_str(const char *s, void (*put)(void *ud, const char *p, size_t n), void *ud);

#endif
