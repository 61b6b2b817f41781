// SPDX-License-Identifier: GPL-2.0-only
/*
 * rowbinary.c - ClickHouse's RowBinary format of SQLite rows: numbers little
 * endian, strings as an unsigned LEB128 length and the bytes, a Nullable
 * value as one byte (1: NULL, nothing follows; 0: the value follows).
 */
#include <endian.h>
#include <sqlite3.h>
#include <string.h>

#include "fleet-internal.h"

void tm_rb_put_string(struct tm_buf *b, const void *s, size_t len)
{
	uint8_t lenbytes[10];
	size_t n = 0, v = len;

	do {
		lenbytes[n] = v & 0x7f;
		v >>= 7;
		if (v)
			lenbytes[n] |= 0x80;
		n++;
	} while (v);
	tm_buf_reserve(b, n + len);
	if (b->err)
		return;
	memcpy(b->data + b->len, lenbytes, n);
	if (len)
		memcpy(b->data + b->len + n, s, len);
	b->len += n + len;
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

/* A text value as its bytes; SQLite turns a number stored in it into text. */
static void rb_put_text(struct tm_buf *b, sqlite3_stmt *st, int i)
{
	const void *p;
	int n;

	if (sqlite3_column_type(st, i) == SQLITE_BLOB)
		p = sqlite3_column_blob(st, i);
	else
		p = sqlite3_column_text(st, i);
	n = sqlite3_column_bytes(st, i);
	tm_rb_put_string(b, p, p ? (size_t)n : 0);
}

static void rb_put_value(struct tm_buf *b, const struct tm_fleet_col *c, sqlite3_stmt *st,
			 int i)
{
	if (c->nullable) {
		uint8_t null = sqlite3_column_type(st, i) == SQLITE_NULL;

		tm_buf_put(b, &null, 1);
		if (null)
			return;
	}
	switch (c->type) {
	case TM_CH_INT64:
		tm_rb_put_int64(b, sqlite3_column_int64(st, i));
		break;
	case TM_CH_FLOAT64:
		tm_rb_put_float64(b, sqlite3_column_double(st, i));
		break;
	case TM_CH_STRING:
		rb_put_text(b, st, i);
		break;
	}
}

void tm_rb_put_row(struct tm_buf *b, const struct tm_fleet_table *t, sqlite3_stmt *st)
{
	for (int i = 0; i < t->ncols; i++)
		if (i != t->machine_col)
			rb_put_value(b, &t->cols[i], st, i);
}
