// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-json-event.c - what report --json takes from an event type, worked
 * out once when its first record is printed: its name and system and every
 * field's key, escaped, and how each field's value is read (the choices
 * tm_field_bytes() and the field's flags make, the ftrace stack fields).
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "events/field.h"
#include "util/json-str.h"
#include "print-json.h"
#include "print-internal.h"

static bool is_stack_field(const struct tep_event *ev, const struct tep_format_field *f)
{
	return !strcmp(ev->system, "ftrace") && !strcmp(f->name, "caller") &&
	       (!strcmp(ev->name, "kernel_stack") || !strcmp(ev->name, "user_stack"));
}

/* How field f's value is printed: the choices tm_field_bytes() and the flags make. */
static void describe(const struct tep_event *ev, const struct tep_format_field *f,
		     struct json_field *d)
{
	unsigned int esize = (unsigned int)f->elementsize;

	d->offset = (uint32_t)f->offset;
	d->size = (uint32_t)f->size;
	d->is_signed = tm_field_is_signed(f);
	d->dynamic = f->flags & TEP_FIELD_IS_DYNAMIC;
	d->relative = f->flags & TEP_FIELD_IS_RELATIVE;
	d->flexible = !d->dynamic && (f->flags & TEP_FIELD_IS_ARRAY) && !d->size;
	if (is_stack_field(ev, f)) {
		d->kind = JSON_STACK;
	} else if (tm_field_is_string(f)) {
		d->kind = JSON_STR;
	} else if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		d->kind = JSON_ARRAY;
		d->esize = esize == 2 || esize == 4 || esize == 8 ? esize : 1;
	} else if (d->size == 1 || d->size == 2 || d->size == 4 || d->size == 8) {
		d->kind = JSON_NUM;
		d->esize = d->size;
	} else {
		/* a scalar of odd size: its bytes */
		d->kind = JSON_ARRAY;
		d->esize = 1;
		d->is_signed = false;
	}
}

/* ",\"event\":\"name\",\"system\":\"sys\"", padded. */
static int build_head(struct tm_jsonfmt *f, const struct tep_event *ev)
{
	const char *name = ev ? ev->name : "[UNKNOWN EVENT]";
	const char *sys = ev ? ev->system : "";
	size_t nlen = strlen(name), slen = strlen(sys);
	char *o;

	f->head = calloc(1, 19 + TM_JSON_STR_MAX(nlen) + TM_JSON_STR_MAX(slen) + 8);
	if (!f->head)
		return -1;
	memcpy(f->head, ",\"event\":", 9);
	o = tm_json_put_str(f->head + 9, name, nlen);
	memcpy(o, ",\"system\":", 10);
	o = tm_json_put_str(o + 10, sys, slen);
	f->head_len = (size_t)(o - f->head);
	return 0;
}

/* Every field's key, escaped once, in one block: each padded to whole words. */
static int build_keys(struct tm_jsonfmt *f, const struct tep_event *ev)
{
	const struct tep_format_field *fl;
	size_t total = 8, at = 0, n;
	int i;

	for (fl = ev ? ev->format.fields : NULL; fl; fl = fl->next)
		total += 2 + TM_JSON_STR_MAX(strlen(fl->name)) + 8;
	f->keys = calloc(1, total);
	if (!f->keys)
		return -1;
	for (fl = ev ? ev->format.fields : NULL, i = 0; fl; fl = fl->next, i++) {
		char *k = f->keys + at, *o = k;

		if (i)
			*o++ = ',';
		n = strlen(fl->name);
		o = tm_json_put_str(o, fl->name, n);
		*o++ = ':';
		f->f[i].key = k;
		f->f[i].key_len = (unsigned int)(o - k);
		describe(ev, fl, &f->f[i]);
		at += (f->f[i].key_len + 8) & ~(size_t)7;
	}
	return 0;
}

/*
 * The offset of a one-byte common field where libtraceevent's tep_data_flags()
 * and tep_data_preempt_count() read it (the first event's), or -1: ask them.
 */
static int byte_field(struct tep_handle *tep, const char *name)
{
	struct tep_event *ev0 = tep_get_events_count(tep) > 0 ? tep_get_event(tep, 0) : NULL;
	const struct tep_format_field *f = ev0 ? tep_find_common_field(ev0, name) : NULL;

	return f && f->size == 1 && f->offset >= 0 ? f->offset : -1;
}

struct tm_jsonfmt *tm_jsonfmt_new(struct tep_handle *tep, const struct tep_event *ev)
{
	const struct tep_format_field *fl;
	struct tm_jsonfmt *f;
	int n = 0;

	for (fl = ev ? ev->format.fields : NULL; fl; fl = fl->next)
		n++;
	f = calloc(1, sizeof(*f) + (size_t)n * sizeof(f->f[0]));
	if (!f)
		return NULL;
	f->tep = tep;
	f->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
	f->long_size = tep_get_long_size(tep) == 4 ? 4 : 8;
	f->nfields = n;
	f->latency = ev && tep_find_common_field((struct tep_event *)ev, "common_flags") &&
		     tep_find_common_field((struct tep_event *)ev, "common_preempt_count");
	f->flags_off = byte_field(tep, "common_flags");
	f->pc_off = byte_field(tep, "common_preempt_count");
	if (build_head(f, ev) || build_keys(f, ev)) {
		tm_jsonfmt_free(f);
		return NULL;
	}
	return f;
}

void tm_jsonfmt_free(struct tm_jsonfmt *f)
{
	if (!f)
		return;
	free(f->head);
	free(f->keys);
	free(f);
}
