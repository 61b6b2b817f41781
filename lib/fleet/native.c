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

/* n bytes appended to b, the room checked inline (a value is a few bytes) */
static inline void native_put(struct tm_buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		tm_buf_reserve(b, n);
		if (b->err)
			return;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void native_value(struct tm_native_col *c, const struct tm_fleet_col *fc,
			 sqlite3_stmt *st, int i)
{
	bool null = sqlite3_column_type(st, i) == SQLITE_NULL;
	uint64_t le;
	double d;

	if (fc->nullable) {
		uint8_t b = null;

		native_put(&c->nulls, &b, 1);
	}
	switch (fc->type) {
	case TM_CH_INT64:
		le = htole64(null ? 0 : (uint64_t)sqlite3_column_int64(st, i));
		native_put(&c->data, &le, 8);
		break;
	case TM_CH_FLOAT64:
		d = null ? 0 : sqlite3_column_double(st, i);
		memcpy(&le, &d, 8);
		le = htole64(le);
		native_put(&c->data, &le, 8);
		break;
	case TM_CH_STRING:
		if (null)
			native_put(&c->data, "", 1);	/* length 0 */
		else
			tm_rb_put_text(&c->data, st, i);
		break;
	}
}

void tm_native_add(struct tm_native *nb, sqlite3_stmt *st, const char *machine)
{
	const struct tm_fleet_table *t = nb->t;

	if (nb->err)
		return;
	tm_rb_put_string(&nb->machine, machine, strlen(machine));
	for (int i = 0; i < t->ncols; i++)
		if (i != t->machine_col)
			native_value(&nb->cols[i], &t->cols[i], st, i);
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
	for (uint64_t r = 0; r < nb->rows; r++)
		tm_rb_put_string(out, trace, tlen);
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
