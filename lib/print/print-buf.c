// SPDX-License-Identifier: GPL-2.0-only
/* print-buf.c - decimal and hex numbers without printf, into a struct tm_buf or at a pointer. */
#include "print-buf.h"

int tm_buf_dec(struct tm_buf *b, uint64_t v, bool is_signed)
{
	char tmp[24], *e = tmp + sizeof(tmp), *s;

	if (tm_buf_reserve(b, 21))
		return -1;
	if (is_signed && (int64_t)v < 0) {
		b->text[b->len++] = '-';
		v = (uint64_t)0 - v;
	}
	s = tm_utoa_end(v, e);
	tm_buf_put_reserved(b, s, (size_t)(e - s));
	return 0;
}

/* Lower-case hex digits needed for v. */
static unsigned int hex_len(uint64_t v)
{
	return v ? (unsigned int)(67 - __builtin_clzll(v)) / 4 : 1;
}

/* The hex digits of v written backwards from end, a byte at a time. */
static void hex_end(uint64_t v, char *e)
{
	static const char pairs[] =
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

	for (; v >= 256; v >>= 8) {
		e -= 2;
		__builtin_memcpy(e, pairs + 2 * (v & 255), 2);
	}
	if (v >= 16)
		__builtin_memcpy(e - 2, pairs + 2 * v, 2);
	else
		e[-1] = pairs[2 * v + 1];
}

int tm_buf_hex(struct tm_buf *b, uint64_t v)
{
	if (tm_buf_reserve(b, 16))
		return -1;
	b->len += hex_len(v);
	hex_end(v, b->text + b->len);
	return 0;
}

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

	tm_utoa_end(v, e);
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
	char *e = o + 2 + hex_len(v);

	o[0] = '0';
	o[1] = 'x';
	hex_end(v, e);
	return e;
}
