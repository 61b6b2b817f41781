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

#include "util/internal.h"

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

/* Appends n reserved bytes; short copies inline (most pieces are a few bytes). */
static inline void tm_fastbuf_put(struct tm_fastbuf *b, const char *s, size_t n)
{
	tm_copy_small(b->buf + b->len, s, n);
	b->len += n;
}

/* Appends n bytes: 0, or -1 out of memory. */
static inline int tm_fastbuf_add(struct tm_fastbuf *b, const char *s, size_t n)
{
	if (tm_fastbuf_reserve(b, n))
		return -1;
	tm_fastbuf_put(b, s, n);
	return 0;
}

/* Appends a string literal, its length known at compile time. */
#define tm_fastbuf_lit(b, s)	tm_fastbuf_add((b), "" s, sizeof(s) - 1)

/* The two digits of v < 100. */
static inline const char *tm_digit_pair(unsigned int v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";

	return pairs + 2 * v;
}

/* The decimal digits of v written backwards from end, two at a time; returns the first. */
static inline char *tm_utoa_end(uint64_t v, char *end)
{
	while (v >= 100) {
		end -= 2;
		__builtin_memcpy(end, tm_digit_pair((unsigned int)(v % 100)), 2);
		v /= 100;
	}
	if (v >= 10) {
		end -= 2;
		__builtin_memcpy(end, tm_digit_pair((unsigned int)v), 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
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
/* Lower-case hex digits of v, as a bare %llx prints them; -1 out of memory. */
TM_HIDDEN int tm_fastbuf_hex(struct tm_fastbuf *b, uint64_t v);

#endif /* TM_PRINT_BUF_H */
