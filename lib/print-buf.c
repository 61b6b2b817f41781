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
	unsigned int n = 1;
	uint64_t t;
	char *e;

	if (tm_fastbuf_reserve(b, 21))
		return -1;
	if (is_signed && (int64_t)v < 0) {
		b->buf[b->len++] = '-';
		v = (uint64_t)0 - v;
	}
	for (t = v; t >= 10; t /= 10)
		n++;
	b->len += n;
	e = b->buf + b->len;
	do {
		*--e = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return 0;
}
