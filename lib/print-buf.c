// SPDX-License-Identifier: GPL-2.0-only
/* print-buf.c - the printers' growing text buffer; decimal and hex numbers without printf. */
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

/* Two decimal digits per step: "00" to "99". */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal digits of v: from its bit length (log10(2) ~ 1233 / 4096), then one compare. */
static unsigned int dec_len(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
		1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
		1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL,
	};
	unsigned int t;

	if (!v)
		return 1;
	t = (unsigned int)(64 - __builtin_clzll(v)) * 1233 >> 12;
	return t + (v >= pow10[t]);
}

char *tm_put_u64(char *o, uint64_t v)
{
	char *e = o + dec_len(v);
	uint32_t w;

	/* 32-bit steps once the value fits: cheaper divisions */
	for (o = e; v > UINT32_MAX; v /= 100) {
		o -= 2;
		__builtin_memcpy(o, digit_pairs + v % 100 * 2, 2);
	}
	for (w = (uint32_t)v; w >= 100; w /= 100) {
		o -= 2;
		__builtin_memcpy(o, digit_pairs + w % 100 * 2, 2);
	}
	if (w >= 10)
		__builtin_memcpy(o - 2, digit_pairs + w * 2, 2);
	else
		o[-1] = (char)('0' + w);
	return e;
}

char *tm_put_s64(char *o, int64_t v)
{
	if (v >= 0)
		return tm_put_u64(o, (uint64_t)v);
	*o++ = '-';
	return tm_put_u64(o, (uint64_t)0 - (uint64_t)v);
}

char *tm_put_hex(char *o, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int n = 1;
	uint64_t t;
	char *e;

	for (t = v; t >= 16; t >>= 4)
		n++;
	*o++ = '0';
	*o++ = 'x';
	e = o + n;
	for (o = e; n; n--, v >>= 4)
		*--o = hex[v & 15];
	return e;
}
