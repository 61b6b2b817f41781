// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-latency.c - the latency flags of a record: irqs-off, need-resched,
 * hardirq/softirq, preempt depth and migrate-disable depth, as the five
 * characters libtraceevent prints for them ("d..2."; trace-cmd >= 3.2 shows
 * them on every line, all versions with report -l); print-json.c writes
 * them as JSON fields.
 * The text depends on common_flags and common_preempt_count only, so it is
 * asked of libtraceevent once per pair of values seen and kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "print-internal.h"

#define LAT_KEYS	65536	/* common_flags << 8 | common_preempt_count */
#define LAT_MAX		7	/* longer texts (old kernels' lock depth) are not cached */

/* 8 bytes: the printer copies the text as one word. */
struct lat_text {
	char	text[LAT_MAX];
	uint8_t	len;		/* 0: not asked yet */
};

struct tm_latency {
	struct tep_handle	*tep;
	struct trace_seq	seq;
	int			flags_off, pc_off;	/* -1: not one byte */
	struct lat_text		*cache;			/* LAT_KEYS; NULL: texts not cacheable */
};

/* Offset of a one-byte common field, or -1 (absent, or wider). */
static int byte_field(struct tep_event *ev, const char *name)
{
	const struct tep_format_field *f = ev ? tep_find_common_field(ev, name) : NULL;

	return f && f->size == 1 ? f->offset : -1;
}

struct tm_latency *tm_latency_new(struct tep_handle *tep)
{
	struct tm_latency *l = calloc(1, sizeof(*l));
	/* every event has the same common fields */
	struct tep_event *ev = tep_get_events_count(tep) > 0 ? tep_get_event(tep, 0) : NULL;

	if (!l) {
		tm_fail(ENOMEM, "latency flags");
		return NULL;
	}
	l->tep = tep;
	trace_seq_init(&l->seq);
	l->flags_off = byte_field(ev, "common_flags");
	l->pc_off = byte_field(ev, "common_preempt_count");
	/* kernels with these fields print more than the two bytes say: no cache */
	if (l->flags_off >= 0 && l->pc_off >= 0 &&
	    !tep_find_common_field(ev, "common_lock_depth") &&
	    !tep_find_common_field(ev, "common_migrate_disable")) {
		l->cache = tm_alloc_sparse(LAT_KEYS * sizeof(*l->cache));
		if (!l->cache) {
			tm_latency_free(l);
			tm_fail(ENOMEM, "latency flags");
			return NULL;
		}
	}
	return l;
}

void tm_latency_free(struct tm_latency *l)
{
	if (!l)
		return;
	trace_seq_destroy(&l->seq);
	tm_free_sparse(l->cache, LAT_KEYS * sizeof(*l->cache));
	free(l);
}

/* libtraceevent's text for this record, into l->seq. */
static void ask_tep(struct tm_latency *l, struct tep_record *r)
{
	trace_seq_reset(&l->seq);
	tep_print_event(l->tep, &l->seq, r, "%s", TEP_PRINT_LATENCY);
}

const char *tm_latency_text(struct tm_latency *l, struct tep_record *r, bool known,
			    size_t *len)
{
	const uint8_t *d = r->data;
	struct lat_text *e;
	unsigned int key;

	/* libtraceevent prints "[UNKNOWN EVENT]" for a record of no known event */
	if (!l->cache || !known || r->size <= l->flags_off || r->size <= l->pc_off)
		goto uncached;
	key = (unsigned int)d[l->flags_off] << 8 | d[l->pc_off];
	e = &l->cache[key];
	if (!e->len) {
		ask_tep(l, r);
		if (!l->seq.len || l->seq.len > LAT_MAX) {
			*len = l->seq.len;
			return l->seq.buffer;
		}
		memcpy(e->text, l->seq.buffer, l->seq.len);
		e->len = (uint8_t)l->seq.len;
	}
	*len = e->len;
	return e->text;
uncached:
	ask_tep(l, r);
	*len = l->seq.len;
	return l->seq.buffer;
}
