// SPDX-License-Identifier: GPL-2.0-only
/*
 * rec-check.c - records checked against their event format before
 * libtraceevent reads them. libtraceevent takes a format's field offsets
 * and a record's __data_loc words as they are: a record shorter than its
 * format (or a format with fields far outside any record) makes it read
 * out of bounds; a zero-size trailing field (ftrace print's "char buf[]")
 * past a short record becomes a negative length for a memcpy in
 * tep_print_event (libtraceevent 1.7.1, print_str_arg). Per event type the
 * bounds are computed once; a record then costs a few compares.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "rec-check.h"
#include "dat/dat-format.h"

#define RC_IDS		65536	/* event ids above are looked up each time (never seen) */
#define RC_BLOCK	256	/* the id table is allocated in blocks of this many ids */
#define RC_COLD		__attribute__((noinline, cold))

struct rc_dyn {
	const struct tep_format_field	*f;
	uint32_t			off;	/* of the __data_loc word */
	uint32_t			size;	/* 2: offset only, 4: length << 16 | offset */
	uint32_t			base;	/* __rel_loc: offsets count from the field's end */
};

struct rc_event {
	struct rc_event			*next;		/* every event built, for freeing */
	const char			*name;
	bool				unusable;	/* a field outside any record */
	uint32_t			min;		/* every fixed field ends by here */
	uint32_t			need;		/* min, or UINT32_MAX when unusable */
	const struct tep_format_field	*min_field;	/* the one ending last */
	int				ndyn;
	struct rc_dyn			*dyn;
};

struct tm_reccheck {
	struct tep_handle	*tep;
	/* tep reads common fields of every record where its first event has them */
	struct rc_event		common;
	struct rc_event		unknown;	/* ids without a format */
	struct rc_event		**blocks[RC_IDS / RC_BLOCK];	/* by id, built on first use */
	struct rc_event		*built;		/* list of them */
	struct rc_event		*other;		/* scratch for ids >= RC_IDS */
	/* where tep reads the event id (its first event's common_type), 0: ask tep */
	uint32_t		type_off, type_size;
	bool			swap;		/* file byte order differs from ours */
	char			why[256];
};

static void rc_event_free(struct rc_event *e)
{
	if (e)
		free(e->dyn);
}

/*
 * The ftrace system's kernel_stack and user_stack declare "caller[8]" but
 * the kernel writes only the frames it has (struct stack_entry ends in a
 * flexible array): a trailing fixed array of an ftrace event counts from
 * its start, as long as a reader running to its declared end stays inside
 * the reader's slack.
 */
static bool rc_flexible_tail(const struct tep_format_field *f, bool ftrace)
{
	return ftrace && !f->next && (f->flags & TEP_FIELD_IS_ARRAY) &&
	       !(f->flags & TEP_FIELD_IS_DYNAMIC) && f->size > 0 &&
	       (uint32_t)f->size <= TM_RECORD_SLACK;
}

/*
 * Extend e's bounds with the fields of list (ftrace: the event is of the
 * ftrace system): 0, or 1 when one cannot be inside any record (a record is
 * at most 64 KiB), -1 when out of memory.
 */
static int rc_add_fields(struct rc_event *e, const struct tep_format_field *list, bool ftrace)
{
	const struct tep_format_field *f;

	for (f = list; f; f = f->next) {
		uint64_t end = (uint64_t)f->offset + (uint64_t)f->size;

		if (f->offset >= 0 && rc_flexible_tail(f, ftrace))
			end = (uint64_t)f->offset;

		if (f->offset < 0 || f->size < 0 || end > UINT16_MAX + 1ULL) {
			e->min_field = f;
			e->unusable = true;
			return 1;
		}
		if (end > e->min || !e->min_field) {
			e->min = (uint32_t)end;
			e->min_field = f;
		}
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			struct rc_dyn *d = realloc(e->dyn, (e->ndyn + 1) * sizeof(*d));

			if (!d)
				return -1;
			e->dyn = d;
			d[e->ndyn++] = (struct rc_dyn){
				.f = f, .off = (uint32_t)f->offset, .size = (uint32_t)f->size,
				.base = f->flags & TEP_FIELD_IS_RELATIVE ? (uint32_t)end : 0,
			};
		}
	}
	return 0;
}

static int rc_build(struct rc_event *e, struct tep_event *ev, const struct rc_event *common)
{
	int ret;

	e->min = common->min;
	e->min_field = common->min_field;
	e->name = ev ? ev->name : "unknown event";
	e->unusable = common->unusable;
	e->need = e->unusable ? UINT32_MAX : e->min;
	if (!ev || e->unusable)
		return 0;
	ret = rc_add_fields(e, ev->format.common_fields, false);
	if (!ret)
		ret = rc_add_fields(e, ev->format.fields,
				    ev->system && !strcmp(ev->system, "ftrace"));
	e->need = e->unusable ? UINT32_MAX : e->min;
	return ret < 0 ? -1 : 0;
}

struct tm_reccheck *tm_reccheck_new(struct tep_handle *tep)
{
	struct tm_reccheck *c = calloc(1, sizeof(*c));
	struct tep_format_field *type;
	struct tep_event *first;

	if (!c)
		goto nomem;
	c->tep = tep;
	first = tep_get_events_count(tep) ? tep_get_first_event(tep) : NULL;
	c->common.name = first ? first->name : "unknown event";
	c->swap = tep_is_file_bigendian(tep) != tm_host_is_big_endian();
	type = first ? tep_find_common_field(first, "common_type") : NULL;
	if (type && type->offset >= 0 && (type->size == 2 || type->size == 4)) {
		c->type_off = (uint32_t)type->offset;
		c->type_size = (uint32_t)type->size;
	}
	if (first && rc_add_fields(&c->common, first->format.common_fields, false) < 0)
		goto nomem;
	c->common.need = c->common.unusable ? UINT32_MAX : c->common.min;
	if (rc_build(&c->unknown, NULL, &c->common))
		goto nomem;
	return c;
nomem:
	tm_reccheck_free(c);
	tm_fail(ENOMEM, "record check");
	return NULL;
}

void tm_reccheck_free(struct tm_reccheck *c)
{
	struct rc_event *e;
	size_t i;

	if (!c)
		return;
	while ((e = c->built)) {
		c->built = e->next;
		rc_event_free(e);
		free(e);
	}
	for (i = 0; i < TM_ARRAY_SIZE(c->blocks); i++)
		free(c->blocks[i]);
	rc_event_free(c->other);
	free(c->other);
	rc_event_free(&c->common);
	rc_event_free(&c->unknown);
	free(c);
}

/* A new rc_event for ev (other: the scratch one, rebuilt each time); NULL without memory. */
static struct rc_event *rc_new(struct tm_reccheck *c, struct tep_event *ev, bool other)
{
	struct rc_event *e = other ? c->other : NULL;

	if (!e)
		e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	rc_event_free(e);
	memset(e, 0, sizeof(*e));
	if (rc_build(e, ev, &c->common)) {
		rc_event_free(e);
		free(e);
		e = NULL;
	} else if (!other) {
		e->next = c->built;
		c->built = e;
	}
	if (other)
		c->other = e;
	return e;
}

/* The bounds of an id not seen before (or >= RC_IDS); NULL when out of memory. */
static RC_COLD struct rc_event *rc_lookup_new(struct tm_reccheck *c, int id)
{
	struct rc_event ***block, **slot;
	struct tep_event *ev = tep_find_event(c->tep, id);

	if (!ev)
		return &c->unknown;
	if (id < 0 || id >= RC_IDS)
		return rc_new(c, ev, true);
	block = &c->blocks[id / RC_BLOCK];
	if (!*block && !(*block = calloc(RC_BLOCK, sizeof(**block))))
		return NULL;
	slot = &(*block)[id % RC_BLOCK];
	*slot = rc_new(c, ev, false);
	return *slot;
}

static inline struct rc_event *rc_lookup(struct tm_reccheck *c, int id)
{
	struct rc_event **block = id >= 0 && id < RC_IDS ? c->blocks[id / RC_BLOCK] : NULL;

	if (block && block[id % RC_BLOCK])
		return block[id % RC_BLOCK];
	return rc_lookup_new(c, id);
}

static RC_COLD const char *rc_field_why(struct tm_reccheck *c, const struct rc_event *e,
					uint32_t size)
{
	const struct tep_format_field *f = e->min_field;

	if (!e->name)
		snprintf(c->why, sizeof(c->why), "out of memory");
	else if (e->unusable)
		snprintf(c->why, sizeof(c->why), "%s: field %s at offset %d, size %d, cannot be "
			 "inside a record", e->name, f ? f->name : "?", f ? f->offset : 0,
			 f ? f->size : 0);
	else
		snprintf(c->why, sizeof(c->why), "%s: field %s (offset %d, size %d) runs past "
			 "the record's %u bytes", e->name, f ? f->name : "?", f ? f->offset : 0,
			 f ? f->size : 0, size);
	return c->why;
}

/* [offset, length] of a __data_loc / __rel_loc field's data in the record. */
static inline void rc_dyn_loc(const struct tm_reccheck *c, const struct rc_dyn *d,
			      const uint8_t *data, uint64_t *off, uint64_t *len)
{
	uint64_t v = d->size == 4 ? tm_get32(data + d->off, c->swap) :
		     d->size == 2 ? tm_get16(data + d->off, c->swap) :
		     tep_read_number(c->tep, data + d->off, (int)d->size);

	*off = (v & 0xffff) + d->base;
	*len = d->size == 2 ? 0 : (v >> 16) & 0xffff;
}

/* Each __data_loc / __rel_loc field's data inside the record (out of line: most events have none). */
static __attribute__((noinline)) const char *rc_check_dyn(struct tm_reccheck *c,
							  const struct rc_event *e,
							  const uint8_t *data, uint32_t size)
{
	uint64_t off, len;
	int i;

	for (i = 0; i < e->ndyn; i++) {
		rc_dyn_loc(c, &e->dyn[i], data, &off, &len);
		if (off + len > size) {
			snprintf(c->why, sizeof(c->why), "%s: field %s (__data_loc offset %llu, "
				 "length %llu) runs past the record's %u bytes", e->name,
				 e->dyn[i].f->name, (unsigned long long)off,
				 (unsigned long long)len, size);
			return c->why;
		}
	}
	return NULL;
}

/* The event id as tep_data_type() reads it, when it is not a 2 or 4 byte field. */
static RC_COLD int rc_type_tep(const struct tm_reccheck *c, const void *data, uint32_t size)
{
	struct tep_record r = { .data = (void *)data, .size = (int)size };

	return tep_data_type(c->tep, &r);
}

/* The hot path: a few compares per record; every message is built out of line. */
const char *tm_reccheck(struct tm_reccheck *c, const void *data, uint32_t size)
{
	static const struct rc_event nomem;
	const uint8_t *p = data;
	const struct rc_event *e;
	int id;

	if (size < c->common.need)
		return rc_field_why(c, &c->common, size);
	id = c->type_size == 2 ? tm_get16(p + c->type_off, c->swap) :
	     c->type_size == 4 ? (int)tm_get32(p + c->type_off, c->swap) :
	     rc_type_tep(c, data, size);
	e = rc_lookup(c, id);
	if (!e || size < e->need)
		return rc_field_why(c, e ? e : &nomem, size);
	return e->ndyn ? rc_check_dyn(c, e, p, size) : NULL;
}
