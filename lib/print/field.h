/* SPDX-License-Identifier: GPL-2.0-only */
/* field.h - reading one field of a raw record by its libtraceevent format (field.c). */
#ifndef TM_FIELD_H
#define TM_FIELD_H

#include <stdbool.h>
#include <stdint.h>

#include <traceevent/event-parse.h>

#include "util/internal.h"

/*
 * The bytes of field f in a record of size bytes: fixed-size, __data_loc /
 * __rel_loc, or a flexible array at the end ("char buf[]", size 0: the rest
 * of the record). False when they lie outside the record.
 */
TM_HIDDEN bool tm_field_bytes(struct tep_handle *tep, const struct tep_format_field *f,
			      const void *data, uint32_t size, const uint8_t **p, uint32_t *len);
/* A 1, 2, 4 or 8 byte scalar, sign-extended when the field is signed. */
TM_HIDDEN bool tm_field_num(struct tep_handle *tep, const struct tep_format_field *f,
			    const void *data, uint32_t size, uint64_t *v);

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

#endif /* TM_FIELD_H */
