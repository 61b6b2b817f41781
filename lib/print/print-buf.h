/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-buf.h - numbers without printf, written into the one growable
 * buffer (util/buf.h) the printer and the compiled event formats append
 * to, or at a pointer (print-buf.c). Private to the library.
 */
#ifndef TM_PRINT_BUF_H
#define TM_PRINT_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

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
TM_HIDDEN int tm_buf_dec(struct tm_buf *b, uint64_t v, bool is_signed);

/*
 * Numbers written at o, which has room for TM_NUM_MAX bytes; each returns
 * the end. Decimal ("%llu", "%lld") and "0x" with lowercase hex ("0x%llx").
 */
#define TM_NUM_MAX	20
TM_HIDDEN char *tm_put_u64(char *o, uint64_t v);
TM_HIDDEN char *tm_put_s64(char *o, int64_t v);
TM_HIDDEN char *tm_put_hex(char *o, uint64_t v);
/* Lower-case hex digits of v, as a bare %llx prints them; -1 out of memory. */
TM_HIDDEN int tm_buf_hex(struct tm_buf *b, uint64_t v);

#endif /* TM_PRINT_BUF_H */
