/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-buf.h - the growing text buffer the printer and the compiled event
 * formats append to, and numbers without printf (print-buf.c). Private to
 * the library.
 */
#ifndef TM_PRINT_BUF_H
#define TM_PRINT_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* A growing output buffer. */
struct tm_fastbuf {
	char	*buf;
	size_t	len, cap;
};

/* Room for more bytes after len: 0, or -1 when out of memory (no message). */
TM_HIDDEN int tm_fastbuf_grow(struct tm_fastbuf *b, size_t more);

static inline int tm_fastbuf_reserve(struct tm_fastbuf *b, size_t more)
{
	return b->len + more <= b->cap ? 0 : tm_fastbuf_grow(b, more);
}

/* Appends n reserved bytes; short copies inline (most pieces are a few bytes). */
static inline void tm_fastbuf_put(struct tm_fastbuf *b, const char *s, size_t n)
{
	char *d = b->buf + b->len;

	b->len += n;
	if (n > 16) {
		__builtin_memcpy(d, s, n);
		return;
	}
	while (n--)
		*d++ = *s++;
}

/* Decimal of v (signed when is_signed and v is negative as int64); -1 out of memory. */
TM_HIDDEN int tm_fastbuf_dec(struct tm_fastbuf *b, uint64_t v, bool is_signed);

/*
 * Numbers written at o, which has room for TM_NUM_MAX bytes; each returns
 * the end. Decimal ("%llu", "%lld") and "0x" with lowercase hex ("0x%llx").
 */
#define TM_NUM_MAX	20
TM_HIDDEN char *tm_put_u64(char *o, uint64_t v);
TM_HIDDEN char *tm_put_s64(char *o, int64_t v);
TM_HIDDEN char *tm_put_hex(char *o, uint64_t v);

#endif /* TM_PRINT_BUF_H */
