/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json-str.h - JSON strings of raw record bytes, written without printf
 * (json-str.c). Private to the library.
 */
#ifndef TM_JSON_STR_H
#define TM_JSON_STR_H

#include <stddef.h>

#include "internal.h"

/* Room the JSON string of n bytes may take: quotes and "\u00XX" for each byte. */
#define TM_JSON_STR_MAX(n)	(6 * (size_t)(n) + 2)

/*
 * The JSON string of the bytes at s up to the first NUL or n, quotes
 * included, at o (room for TM_JSON_STR_MAX(n)); returns the end. Valid
 * UTF-8 is kept, '"', '\\', "\n" and "\t" get a backslash, other control
 * bytes, DEL and bytes of no valid UTF-8 sequence become "\u00xx".
 */
TM_HIDDEN char *tm_json_put_str(char *o, const char *s, size_t n);

#endif /* TM_JSON_STR_H */
