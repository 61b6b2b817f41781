// SPDX-License-Identifier: GPL-2.0-only
/* field.c - one field of a raw record: its bytes, or its value as a number. */
#include "field.h"

bool tm_field_bytes(struct tep_handle *tep, const struct tep_format_field *f,
		    const void *data, uint32_t size, const uint8_t **p, uint32_t *len)
{
	uint32_t off = (uint32_t)f->offset, n = (uint32_t)f->size, loc;

	if (off > size || n > size - off)
		return false;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		loc = (uint32_t)tep_read_number(tep, (const uint8_t *)data + off, 4);
		n = loc >> 16;
		off = (loc & 0xffff) + (f->flags & TEP_FIELD_IS_RELATIVE ? off + f->size : 0);
		if (off > size || n > size - off)
			return false;
	} else if ((f->flags & TEP_FIELD_IS_ARRAY) && !n) {
		n = size - off;
	}
	*p = (const uint8_t *)data + off;
	*len = n;
	return true;
}

bool tm_field_num(struct tep_handle *tep, const struct tep_format_field *f,
		  const void *data, uint32_t size, uint64_t *v)
{
	uint32_t off = (uint32_t)f->offset, n = (uint32_t)f->size;
	unsigned long long raw;

	if ((n != 1 && n != 2 && n != 4 && n != 8) || off > size || n > size - off)
		return false;
	raw = tep_read_number(tep, (const uint8_t *)data + off, (int)n);
	if (tm_field_is_signed(f) && n < 8 && (raw >> (n * 8 - 1)) & 1)
		raw |= ~0ULL << (n * 8);
	*v = raw;
	return true;
}
