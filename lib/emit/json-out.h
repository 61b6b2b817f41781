/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json-out.h - JSON text written without printf into a held buffer (numbers
 * two digits at a time, strings escaped by tm_json_put_str()), for the
 * Chrome output, which hands it to its FILE in large blocks: a
 * trace_seq_printf() and an fwrite() per element made Chrome JSON 5-10x
 * slower than report. The buffer is the one of util/buf.h; a failed
 * allocation sticks in its err, and later puts do nothing. Private to
 * lib/emit.
 */
#ifndef TM_JSON_OUT_H
#define TM_JSON_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "print/print-buf.h"
#include "util/json-str.h"

/* Room for n more bytes; false (and err set) when out of memory. */
static inline bool jo_room(struct tm_buf *j, size_t n)
{
	return !tm_buf_reserve(j, n);
}

static inline void jo_raw(struct tm_buf *j, const char *s, size_t n)
{
	if (jo_room(j, n))
		tm_buf_put_reserved(j, s, n);
}

#define jo_lit(j, s)	jo_raw((j), "" s, sizeof(s) - 1)

/* "%lld" */
static inline void jo_int(struct tm_buf *j, int64_t v)
{
	if (jo_room(j, TM_NUM_MAX))
		j->len = (size_t)(tm_put_s64(j->text + j->len, v) - j->text);
}

/* "0x%llx" */
static inline void jo_hex(struct tm_buf *j, uint64_t v)
{
	if (jo_room(j, TM_NUM_MAX))
		j->len = (size_t)(tm_put_hex(j->text + j->len, v) - j->text);
}

/* A JSON string of the bytes up to the first NUL or n. */
static inline void jo_str(struct tm_buf *j, const char *s, size_t n)
{
	if (jo_room(j, TM_JSON_STR_MAX(strnlen(s, n))))
		j->len = (size_t)(tm_json_put_str(j->text + j->len, s, n) - j->text);
}

/* key (with its comma and colon), then ns as microseconds with three decimals. */
static inline void jo_ts(struct tm_buf *j, const char *key, size_t key_len, uint64_t ns)
{
	unsigned int frac = (unsigned int)(ns % 1000);
	char *o;

	if (!jo_room(j, key_len + TM_NUM_MAX + 4))
		return;
	o = j->text + j->len;
	memcpy(o, key, key_len);
	o = tm_put_u64(o + key_len, ns / 1000);
	*o++ = '.';
	*o++ = (char)('0' + frac / 100);
	memcpy(o, tm_digit_pair(frac % 100), 2);
	j->len = (size_t)(o + 2 - j->text);
}

#define jo_ts_lit(j, key, ns)	jo_ts((j), "" key, sizeof(key) - 1, (ns))

#endif /* TM_JSON_OUT_H */
