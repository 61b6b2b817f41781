/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * buf.h - the one growable buffer (buf.c): the sections the trace.dat writer
 * builds, Perfetto's messages, the printers' text, Chrome's JSON. The hot
 * paths append with the inline calls below: room reserved once, short
 * copies as word moves. A failed allocation sticks in err: reserving fails
 * from then on, and tm_buf_put*() do nothing.
 */
#ifndef TM_BUF_H
#define TM_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct tm_buf {
	union {
		uint8_t	*data;		/* the bytes */
		char	*text;		/* the same bytes, as text */
	};
	size_t	len;
	size_t	cap;
	int	err;
};

/* Room for more bytes after len: 0, or -1 with err ENOMEM (now or before). */
TM_HIDDEN int tm_buf_grow(struct tm_buf *b, size_t more);

static inline int tm_buf_reserve(struct tm_buf *b, size_t more)
{
	return b->len + more <= b->cap ? 0 : tm_buf_grow(b, more);
}

/* n bytes from s to d, short ones as two overlapping word copies (nothing read past s + n). */
static inline void tm_copy_small(char *d, const char *s, size_t n)
{
	if (n > 16) {
		__builtin_memcpy(d, s, n);
	} else if (n >= 8) {
		__builtin_memcpy(d, s, 8);
		__builtin_memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		__builtin_memcpy(d, s, 4);
		__builtin_memcpy(d + n - 4, s + n - 4, 4);
	} else if (n >= 2) {
		__builtin_memcpy(d, s, 2);
		__builtin_memcpy(d + n - 2, s + n - 2, 2);
	} else if (n) {
		*d = *s;
	}
}

/* Appends n bytes into room reserved before; short copies inline (most pieces are a few bytes). */
static inline void tm_buf_put_reserved(struct tm_buf *b, const char *s, size_t n)
{
	tm_copy_small(b->text + b->len, s, n);
	b->len += n;
}

/* Appends n bytes: 0, or -1 out of memory. */
static inline int tm_buf_add(struct tm_buf *b, const char *s, size_t n)
{
	if (tm_buf_reserve(b, n))
		return -1;
	tm_buf_put_reserved(b, s, n);
	return 0;
}

/* Appends a string literal, its length known at compile time. */
#define tm_buf_lit(b, s)	tm_buf_add((b), "" s, sizeof(s) - 1)

/* Append len bytes (host byte order for the numbers below); nothing once err is set. */
TM_HIDDEN void tm_buf_put(struct tm_buf *b, const void *p, size_t len);
TM_HIDDEN void tm_buf_put16(struct tm_buf *b, uint16_t v);
TM_HIDDEN void tm_buf_put32(struct tm_buf *b, uint32_t v);
TM_HIDDEN void tm_buf_put64(struct tm_buf *b, uint64_t v);
/* A string with its NUL. */
TM_HIDDEN void tm_buf_putstr(struct tm_buf *b, const char *s);
/* Free the bytes and zero the buffer (ready for reuse). */
TM_HIDDEN void tm_buf_free(struct tm_buf *b);

#endif /* TM_BUF_H */
