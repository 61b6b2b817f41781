// SPDX-License-Identifier: GPL-2.0-only
/* buf.c - the growable buffer of buf.h: growth, and appends that remember a failed allocation. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

int tm_buf_grow(struct tm_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 256;
	uint8_t *p;

	if (b->err)
		return -1;
	if (b->len + more <= b->cap)
		return 0;
	while (cap < b->len + more)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->err = ENOMEM;
		return -1;
	}
	b->data = p;
	b->cap = cap;
	return 0;
}

void tm_buf_put(struct tm_buf *b, const void *p, size_t len)
{
	if (b->err || tm_buf_reserve(b, len) || !len)
		return;
	memcpy(b->data + b->len, p, len);
	b->len += len;
}

void tm_buf_put16(struct tm_buf *b, uint16_t v) { tm_buf_put(b, &v, sizeof(v)); }
void tm_buf_put32(struct tm_buf *b, uint32_t v) { tm_buf_put(b, &v, sizeof(v)); }
void tm_buf_put64(struct tm_buf *b, uint64_t v) { tm_buf_put(b, &v, sizeof(v)); }

void tm_buf_putstr(struct tm_buf *b, const char *s)
{
	tm_buf_put(b, s, strlen(s) + 1);
}

void tm_buf_free(struct tm_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}
