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

static void common_at(struct tep_handle *tep, const char *name, unsigned int *off,
		      unsigned int *size)
{
	struct tep_event *first = tep_get_events_count(tep) > 0 ? tep_get_event(tep, 0) : NULL;
	struct tep_format_field *f = first ? tep_find_common_field(first, name) : NULL;

	*size = 0;
	if (f && f->offset >= 0 && (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)) {
		*off = (unsigned int)f->offset;
		*size = (unsigned int)f->size;
	}
}

void tm_common_init(struct tm_common *c, struct tep_handle *tep)
{
	common_at(tep, "common_type", &c->type_off, &c->type_size);
	common_at(tep, "common_pid", &c->pid_off, &c->pid_size);
	c->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
}
