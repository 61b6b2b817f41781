// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-json-fields.c - the "fields" object of a record for report --json,
 * from its event type's pieces: integers as numbers, char arrays and
 * strings as strings, other arrays as arrays of numbers, stack traces as
 * arrays of {addr, sym}; a field outside the record is null.
 */
#include <string.h>

#include <traceevent/event-parse.h>

#include "dat/dat-format.h"
#include "util/json-str.h"
#include "print-json.h"
#include "print-buf.h"

/* The bytes of field d in a record of size bytes: tm_field_bytes() on the precomputed field. */
static bool field_bytes(const struct tm_jsonfmt *f, const struct json_field *d,
			const uint8_t *data, uint32_t size, const uint8_t **p, uint32_t *len)
{
	uint32_t off = d->offset, n = d->size, loc;

	if (off > size || n > size - off)
		return false;
	if (d->dynamic) {
		loc = (uint32_t)tm_get_uint(data + off, 4, f->swap);
		n = loc >> 16;
		off = (loc & 0xffff) + (d->relative ? off + d->size : 0);
		if (off > size || n > size - off)
			return false;
	} else if (d->flexible) {
		n = size - off;
	}
	*p = data + off;
	*len = n;
	return true;
}

/* An integer of 1, 2, 4 or 8 bytes: constant sizes, so the reads are inlined. */
static inline uint64_t get_num(const uint8_t *p, unsigned int size, bool swap)
{
	switch (size) {
	case 1:
		return *p;
	case 2:
		return tm_get_uint(p, 2, swap);
	case 4:
		return tm_get_uint(p, 4, swap);
	}
	return tm_get_uint(p, 8, swap);
}

static char *put_num(char *o, const uint8_t *p, unsigned int size, bool is_signed, bool swap)
{
	uint64_t v = get_num(p, size, swap);

	if (!is_signed)
		return tm_put_u64(o, v);
	switch (size) {
	case 1:
		return tm_put_s64(o, (int8_t)v);
	case 2:
		return tm_put_s64(o, (int16_t)v);
	case 4:
		return tm_put_s64(o, (int32_t)v);
	}
	return tm_put_s64(o, (int64_t)v);
}

static char *put_array(char *o, const uint8_t *p, uint32_t len, unsigned int esize,
		       bool is_signed, bool swap)
{
	uint32_t i;

	*o++ = '[';
	for (i = 0; i + esize <= len; i += esize) {
		if (i)
			*o++ = ',';
		o = put_num(o, p + i, esize, is_signed, swap);
	}
	*o++ = ']';
	return o;
}

/*
 * ftrace's kernel_stack/user_stack "caller": the format declares 8 entries
 * but the record holds as many as the stack had, up to the record's end or
 * a -1 entry (where trace-cmd's text stops too). Each frame as
 * {"addr":"0x...","sym":NAME or null}: hex strings keep all 64 bits.
 */
static int put_stack(const struct tm_jsonfmt *f, struct tm_buf *b,
		     const struct json_field *d, const uint8_t *data, uint32_t size)
{
	uint32_t off = d->offset, ls = f->long_size;
	const char *sym;
	bool first = true;
	size_t slen;
	char *o;

	if (tm_buf_reserve(b, d->key_len + 16))
		return -1;
	o = put_piece(b->text + b->len, d->key, d->key_len);
	*o++ = '[';
	b->len = (size_t)(o - b->text);
	for (; off <= size && size - off >= ls; off += ls) {
		uint64_t addr = tm_get_uint(data + off, ls, f->swap);

		if (ls == 8 ? addr == ~0ULL : addr == 0xffffffffULL)
			break;
		sym = tep_find_function(f->tep, addr);
		slen = sym ? strlen(sym) : 0;
		if (tm_buf_reserve(b, 32 + TM_NUM_MAX + TM_JSON_STR_MAX(slen)))
			return -1;
		o = b->text + b->len;
		if (!first)
			*o++ = ',';
		memcpy(o, "{\"addr\":\"", 9);
		o = tm_put_hex(o + 9, addr);
		memcpy(o, "\",\"sym\":", 8);
		o += 8;
		if (sym) {
			o = tm_json_put_str(o, sym, slen);
		} else {
			memcpy(o, "null", 4);
			o += 4;
		}
		*o++ = '}';
		b->len = (size_t)(o - b->text);
		first = false;
	}
	if (tm_buf_reserve(b, 1))
		return -1;
	b->text[b->len++] = ']';
	return 0;
}

static int put_field(const struct tm_jsonfmt *f, struct tm_buf *b,
		     const struct json_field *d, const uint8_t *data, uint32_t size)
{
	const uint8_t *p;
	uint32_t len;
	char *o;

	bool ok;

	if (d->kind == JSON_STACK)
		return put_stack(f, b, d, data, size);
	ok = field_bytes(f, d, data, size, &p, &len);
	/* every kind takes at most 6 bytes per input byte and 2 more: see TM_JSON_STR_MAX */
	if (tm_buf_reserve(b, d->key_len + TM_JSON_STR_MAX(ok ? len : 0) + TM_NUM_MAX + 8))
		return -1;
	o = put_piece(b->text + b->len, d->key, d->key_len);
	if (!ok) {
		memcpy(o, "null", 4);
		o += 4;
	} else if (d->kind == JSON_STR) {
		o = tm_json_put_str(o, (const char *)p, len);
	} else if (d->kind == JSON_NUM) {
		o = put_num(o, p, d->esize, d->is_signed, f->swap);
	} else {
		o = put_array(o, p, len, d->esize, d->is_signed, f->swap);
	}
	b->len = (size_t)(o - b->text);
	return 0;
}

int tm_jsonfmt_put_fields(const struct tm_jsonfmt *f, struct tm_buf *b, const uint8_t *data,
		      uint32_t size)
{
	int i;

	if (tm_buf_reserve(b, 1))
		return -1;
	b->text[b->len++] = '{';
	for (i = 0; i < f->nfields; i++)
		if (put_field(f, b, &f->f[i], data, size))
			return -1;
	if (tm_buf_reserve(b, 1))
		return -1;
	b->text[b->len++] = '}';
	return 0;
}
