// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-rows.c - one record into the table of its event type: ts, cpu, tid,
 * the machine and buffer where there are several, then each field as its
 * column's type (integers, text, arrays as JSON); and the fields the
 * derived tables read by name.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "events/field.h"
#include "sql-internal.h"
#include "trace/tm-trace.h"
#include "events/field.h"
#include "dat/dat-format.h"

/* An array field as JSON: "[1,2,3]" of its elements (bytes when the size is odd). */
static const char *json_array(struct tm_sql *s, const struct tep_format_field *f, bool swap,
			      const uint8_t *p, uint32_t len)
{
	unsigned int es = (unsigned int)f->elementsize;
	bool sig = tm_field_is_signed(f);
	uint64_t v;
	uint32_t i;

	if (es != 1 && es != 2 && es != 4 && es != 8)
		es = 1;
	s->scratch.len = 0;
	if (tm_sql_buf_printf(&s->scratch, "["))
		return NULL;
	for (i = 0; i + es <= len; i += es) {
		v = es == 1 ? p[i] : tm_get_uint(p + i, es, swap);
		if (sig && es < 8 && (v >> (es * 8 - 1)) & 1)
			v |= ~0ULL << (es * 8);
		if (tm_sql_buf_printf(&s->scratch, sig ? "%s%" PRId64 : "%s%" PRIu64, i ? "," : "",
				      sig ? (uint64_t)(int64_t)v : v))
			return NULL;
	}
	if (tm_sql_buf_printf(&s->scratch, "]"))
		return NULL;
	return s->scratch.s;
}

static int bind_field(struct tm_sql *s, const struct sql_event *e, const struct sql_field *fd,
		      bool swap, const struct tm_event_rec *rec)
{
	struct tep_handle *tep = e->ev->tep;
	const uint8_t *p;
	const char *json;
	uint32_t len;
	uint64_t v;

	if (fd->kind == SQL_K_NUM) {
		if (!tm_field_get(fd->f, rec->data, rec->size, swap, &v))
			return sqlite3_bind_null(e->ins, fd->col);
		return sqlite3_bind_int64(e->ins, fd->col, (int64_t)v);
	}
	if (!tm_field_bytes(tep, fd->f, rec->data, rec->size, &p, &len))
		return sqlite3_bind_null(e->ins, fd->col);
	if (fd->kind == SQL_K_STR)
		return sqlite3_bind_text(e->ins, fd->col, (const char *)p,
					 (int)tm_field_strlen(p, len), SQLITE_STATIC);
	json = json_array(s, fd->f, swap, p, len);
	if (!json)
		return SQLITE_NOMEM;
	return sqlite3_bind_text(e->ins, fd->col, json, (int)s->scratch.len, SQLITE_TRANSIENT);
}

int tm_sql_event_row(struct tm_sql *s, const struct sql_event *e, bool swap,
		     const struct tm_event_rec *rec, int64_t tid, int machine, const char *buffer)
{
	sqlite3_stmt *st = e->ins;
	int i, col = 4, rc;

	sqlite3_bind_int64(st, 1, (int64_t)rec->ts);
	sqlite3_bind_int64(st, 2, rec->cpu);
	sqlite3_bind_int64(st, 3, tid);
	if (s->multi)
		sqlite3_bind_int64(st, col++, machine);
	if (s->buffers)
		sqlite3_bind_text(st, col++, buffer, -1, SQLITE_STATIC);
	for (i = 0; i < e->nfields; i++) {
		if (bind_field(s, e, &e->fields[i], swap, rec) != SQLITE_OK) {
			sqlite3_reset(st);
			return tm_sql_fail(s, "insert");
		}
	}
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : tm_sql_fail(s, "insert");
}

/*
 * tep_find_field() of the derived tables' fields, remembered: they ask by
 * string constants, so (event, name pointer) is the key of a small
 * direct-mapped table (a miss asks libtraceevent again).
 */
#define FIELD_CACHE	256

static const struct tep_format_field *find_field(const struct tep_event *ev, const char *name)
{
	static struct {
		const struct tep_event		*ev;
		const char			*name;
		const struct tep_format_field	*f;
	} cache[FIELD_CACHE];
	uintptr_t h = ((uintptr_t)ev >> 4) ^ ((uintptr_t)name >> 2);
	unsigned int i = (unsigned int)(h ^ (h >> 8)) % FIELD_CACHE;

	if (cache[i].ev != ev || cache[i].name != name) {
		cache[i].ev = ev;
		cache[i].name = name;
		cache[i].f = tep_find_field((struct tep_event *)ev, name);
	}
	return cache[i].f;
}

int64_t tm_sql_num(const struct tep_event *ev, const char *name, bool swap,
		   const struct tm_event_rec *rec)
{
	const struct tep_format_field *f = find_field(ev, name);
	uint64_t v;

	if (!f || !tm_field_get(f, rec->data, rec->size, swap, &v))
		return 0;
	return (int64_t)v;
}

const char *tm_sql_str(const struct tep_event *ev, const char *name,
		       const struct tm_event_rec *rec, char *buf, size_t len)
{
	const struct tep_format_field *f = find_field(ev, name);
	const uint8_t *p;
	uint32_t n;

	buf[0] = '\0';
	if (!f || !len || !tm_field_bytes(ev->tep, f, rec->data, rec->size, &p, &n))
		return buf;
	n = tm_field_strlen(p, n);
	if (n >= len)
		n = (uint32_t)len - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}
