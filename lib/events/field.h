/* SPDX-License-Identifier: GPL-2.0-only */
/* field.h - reading one field of a raw record by its libtraceevent format (field.c). */
#ifndef TM_FIELD_H
#define TM_FIELD_H

#include <stdbool.h>
#include <stdint.h>

#include <traceevent/event-parse.h>

#include "dat/dat-format.h"
#include "util/internal.h"

/*
 * The bytes of field f in a record of size bytes: fixed-size, __data_loc /
 * __rel_loc, or a flexible array at the end ("char buf[]", size 0: the rest
 * of the record). False when they lie outside the record.
 */
TM_HIDDEN bool tm_field_bytes(struct tep_handle *tep, const struct tep_format_field *f,
			      const void *data, uint32_t size, const uint8_t **p, uint32_t *len);

static inline bool tm_field_is_string(const struct tep_format_field *f)
{
	return f->flags & TEP_FIELD_IS_STRING;
}

static inline bool tm_field_is_signed(const struct tep_format_field *f)
{
	return f->flags & TEP_FIELD_IS_SIGNED;
}

/* Length of a C string stored in len bytes (it may lack its NUL). */
static inline uint32_t tm_field_strlen(const uint8_t *p, uint32_t len)
{
	uint32_t n = 0;

	while (n < len && p[n])
		n++;
	return n;
}

/*
 * A 1, 2, 4 or 8 byte scalar, sign-extended when the field is signed, read
 * inline in the file's byte order (swap: it differs from ours).
 */
static inline bool tm_field_get(const struct tep_format_field *f, const void *data,
				uint32_t size, bool swap, uint64_t *v)
{
	uint32_t off = (uint32_t)f->offset, n = (uint32_t)f->size;
	const uint8_t *p = (const uint8_t *)data + off;
	uint64_t raw;

	if (off > size || n > size - off)
		return false;
	switch (n) {
	case 1:
		raw = *p;
		break;
	case 2:
		raw = tm_get_uint(p, 2, swap);
		break;
	case 4:
		raw = tm_get_uint(p, 4, swap);
		break;
	case 8:
		raw = tm_get_uint(p, 8, swap);
		break;
	default:
		return false;
	}
	if (tm_field_is_signed(f) && n < 8 && (raw >> (n * 8 - 1)) & 1)
		raw |= ~0ULL << (n * 8);
	*v = raw;
	return true;
}

/*
 * Where common_type and common_pid lie (the first event's, where
 * tep_data_type() and tep_data_pid() read them), so an output reads them
 * inline instead of through libtraceevent's lookups (field.c).
 */
struct tm_common {
	unsigned int	type_off, type_size;	/* size 0: ask libtraceevent */
	unsigned int	pid_off, pid_size;
	bool		swap;			/* the file's byte order is not ours */
};

TM_HIDDEN void tm_common_init(struct tm_common *c, struct tep_handle *tep);

/* tep_data_type() of a record of size bytes, read the same way. */
static inline int tm_common_type(struct tep_handle *tep, const struct tm_common *c,
				 const void *data, uint32_t size)
{
	struct tep_record r = { .data = (void *)data, .size = (int)size };

	if (!c->type_size || c->type_off + c->type_size > size)
		return tep_data_type(tep, &r);
	return (int)tm_get_uint((const uint8_t *)data + c->type_off, c->type_size, c->swap);
}

/* tep_data_pid() of a record of size bytes, read the same way. */
static inline int tm_common_pid(struct tep_handle *tep, const struct tm_common *c,
				const void *data, uint32_t size)
{
	struct tep_record r = { .data = (void *)data, .size = (int)size };

	if (!c->pid_size || c->pid_off + c->pid_size > size)
		return tep_data_pid(tep, &r);
	return (int)tm_get_uint((const uint8_t *)data + c->pid_off, c->pid_size, c->swap);
}

#endif /* TM_FIELD_H */
