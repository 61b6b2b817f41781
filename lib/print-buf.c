// SPDX-License-Identifier: GPL-2.0-only
/* print-buf.c - the printers' growing text buffer: growth and decimal numbers without printf. */
#include <stdlib.h>

#include "print-buf.h"

int tm_fastbuf_grow(struct tm_fastbuf *b, size_t more)
{
	size_t cap;
	char *n;

	cap = b->cap ? b->cap : 256;
	while (cap < b->len + more)
		cap *= 2;
	n = realloc(b->buf, cap);
	if (!n)
		return -1;
	b->buf = n;
	b->cap = cap;
	return 0;
}

int tm_fastbuf_dec(struct tm_fastbuf *b, uint64_t v, bool is_signed)
{
	char tmp[24], *e = tmp + sizeof(tmp), *s;

	if (tm_fastbuf_reserve(b, 21))
		return -1;
	if (is_signed && (int64_t)v < 0) {
		b->buf[b->len++] = '-';
		v = (uint64_t)0 - v;
	}
	s = tm_utoa_end(v, e);
	tm_fastbuf_put(b, s, (size_t)(e - s));
	return 0;
}
