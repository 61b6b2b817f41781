// SPDX-License-Identifier: GPL-2.0-only
/*
 * rowbinary.c - the values of ClickHouse's binary formats (RowBinary, and
 * Native's columns): numbers little endian, strings as an unsigned LEB128
 * length and the bytes.
 */
#include <endian.h>
#include <string.h>

#include "fleet-internal.h"

void tm_rb_put_varint(struct tm_buf *b, uint64_t v)
{
	uint8_t bytes[10];
	size_t n = 0;

	do {
		bytes[n] = v & 0x7f;
		v >>= 7;
		if (v)
			bytes[n] |= 0x80;
		n++;
	} while (v);
	tm_buf_put(b, bytes, n);
}

void tm_rb_put_string(struct tm_buf *b, const void *s, size_t len)
{
	tm_rb_put_varint(b, len);
	tm_buf_put(b, s, len);
}

void tm_rb_put_int64(struct tm_buf *b, int64_t v)
{
	uint64_t le = htole64((uint64_t)v);

	tm_buf_put(b, &le, 8);
}

void tm_rb_put_float64(struct tm_buf *b, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, 8);
	bits = htole64(bits);
	tm_buf_put(b, &bits, 8);
}
