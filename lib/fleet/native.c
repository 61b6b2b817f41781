// SPDX-License-Identifier: GPL-2.0-only
/*
 * native.c - ClickHouse's Native format of SQLite rows, the body of a load's
 * inserts: blocks of columns, which the server takes without parsing rows
 * (RowBinary, row by row, costs its one insert thread about a fifth more).
 * A block: the number of columns and of rows (LEB128), then per column its
 * name, its type name and its values: Int64 and Float64 little endian, a
 * String as RowBinary's (length, bytes), a Nullable column as a byte per row
 * (1: NULL) before the values of every row (a zero in a NULL's place).
 * Without the block info the native TCP protocol adds: the HTTP interface's
 * Native input reads none (18.16 and current versions alike).
 */
#include <endian.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "fleet-internal.h"

struct tm_native_col {
	struct tm_buf	nulls;		/* Nullable: a byte a row */
	struct tm_buf	data;
};

void tm_native_init(struct tm_native *nb, const struct tm_fleet_table *t)
{
	memset(nb, 0, sizeof(*nb));
	nb->t = t;
	nb->cols = calloc(t->ncols, sizeof(*nb->cols));
	if (!nb->cols)
		nb->err = ENOMEM;
}

void tm_native_free(struct tm_native *nb)
{
	if (nb->cols)
		for (int i = 0; i < nb->t->ncols; i++) {
			tm_buf_free(&nb->cols[i].nulls);
			tm_buf_free(&nb->cols[i].data);
		}
	free(nb->cols);
	tm_buf_free(&nb->machine);
	memset(nb, 0, sizeof(*nb));
}

/*
 * The values of one row, as cheaply as the SQLite API allows: one call for a
 * column's value (sqlite3_column_*() each enter the statement's VM again),
 * then its type and content from the value; appends with the room checked
 * inline and fixed sizes copied as words.
 */
static inline void native_u64(struct tm_buf *b, uint64_t v)
{
	if (tm_buf_reserve(b, 8))
		return;
	v = htole64(v);
	memcpy(b->data + b->len, &v, 8);
	b->len += 8;
}

/* A String value: its LEB128 length and its bytes. */
static inline void native_string(struct tm_buf *b, const void *p, size_t n)
{
	size_t v = n;

	if (tm_buf_reserve(b, n + 10))
		return;
	while (v >= 0x80) {
		b->data[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->data[b->len++] = (uint8_t)v;
	if (n)
		tm_copy_small(b->text + b->len, p, n);
	b->len += n;
}

static inline void native_value(struct tm_native_col *c, const struct tm_fleet_col *fc,
				sqlite3_value *v)
{
	int type = sqlite3_value_type(v);
	double d;
	uint64_t bits;
	const void *p;

	if (fc->nullable && !tm_buf_reserve(&c->nulls, 1))
		c->nulls.data[c->nulls.len++] = type == SQLITE_NULL;
	switch (fc->type) {
	case TM_CH_INT64:
		native_u64(&c->data, type == SQLITE_NULL ? 0 : (uint64_t)sqlite3_value_int64(v));
		break;
	case TM_CH_FLOAT64:
		d = type == SQLITE_NULL ? 0 : sqlite3_value_double(v);
		memcpy(&bits, &d, 8);
		native_u64(&c->data, bits);
		break;
	case TM_CH_STRING:
		/* a blob's bytes as they are; a number stored in a text column as text */
		if (type == SQLITE_NULL) {
			native_string(&c->data, "", 0);
			break;
		}
		p = type == SQLITE_BLOB ? sqlite3_value_blob(v) : sqlite3_value_text(v);
		native_string(&c->data, p, p ? (size_t)sqlite3_value_bytes(v) : 0);
		break;
	}
}

void tm_native_add(struct tm_native *nb, sqlite3_stmt *st, const char *machine)
{
	const struct tm_fleet_table *t = nb->t;

	if (nb->err)
		return;
	native_string(&nb->machine, machine, strlen(machine));
	for (int i = 0; i < t->ncols; i++)
		if (i != t->machine_col)
			native_value(&nb->cols[i], &t->cols[i], sqlite3_column_value(st, i));
	nb->rows++;
}

size_t tm_native_bytes(const struct tm_native *nb)
{
	size_t n = nb->machine.len;

	for (int i = 0; nb->cols && i < nb->t->ncols; i++)
		n += nb->cols[i].data.len + nb->cols[i].nulls.len;
	return n;
}

static void native_header(struct tm_buf *out, const char *name, const char *type)
{
	tm_rb_put_string(out, name, strlen(name));
	tm_rb_put_string(out, type, strlen(type));
}

int tm_native_flush(struct tm_native *nb, struct tm_buf *out, const char *trace)
{
	const struct tm_fleet_table *t = nb->t;
	size_t tlen = strlen(trace);

	if (!nb->rows)
		return 0;
	tm_rb_put_varint(out, 2 + t->ncols - (t->machine_col >= 0));
	tm_rb_put_varint(out, nb->rows);
	/* the trace column: the one value on every row */
	native_header(out, "trace", "String");
	if (!tm_buf_reserve(out, nb->rows * (tlen + 10)))
		for (uint64_t r = 0; r < nb->rows; r++)
			native_string(out, trace, tlen);
	native_header(out, "machine", "String");
	tm_buf_put(out, nb->machine.data, nb->machine.len);
	nb->err = nb->err ? nb->err : nb->machine.err;
	nb->machine.len = 0;
	for (int i = 0; i < t->ncols; i++) {
		struct tm_native_col *c = &nb->cols[i];

		if (i == t->machine_col)
			continue;
		native_header(out, t->cols[i].name,
			      tm_ch_type_name(t->cols[i].type, t->cols[i].nullable));
		tm_buf_put(out, c->nulls.data, c->nulls.len);
		tm_buf_put(out, c->data.data, c->data.len);
		nb->err = nb->err ? nb->err : c->nulls.err ? c->nulls.err : c->data.err;
		c->nulls.len = 0;
		c->data.len = 0;
	}
	nb->rows = 0;
	if (nb->err || out->err)
		return tm_fail(nb->err ? nb->err : out->err, "table %s", t->name);
	return 0;
}
