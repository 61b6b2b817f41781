// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfetto-bundle.c - one CPU's open FtraceEventBundle: its events as
 * encoded bytes, and sched_switch / sched_waking in compact_sched form, the
 * encoding Perfetto itself writes by default (FtraceEventBundle.compact_sched
 * = 4): per-field packed arrays, timestamps as deltas from the previous one
 * of the same array (the first from 0), comms as indexes into the bundle's
 * intern_table. Field numbers from upstream ftrace_event_bundle.proto
 * (CompactSched: switch_timestamp 1, switch_prev_state 2, switch_next_pid 3,
 * switch_next_prio 4, intern_table 5, switch_next_comm_index 6,
 * waking_timestamp 7, waking_pid 8, waking_target_cpu 9, waking_prio 10,
 * waking_comm_index 11, waking_common_flags 12).
 *
 * trace_processor (ftrace_tokenizer.cc TokenizeFtraceCompactSched*,
 * ftrace_sched_event_tracker.cc PushSchedSwitchCompact/PushSchedWakingCompact)
 * takes a compact switch's prev_pid, prev_prio and prev_comm from the
 * previous switch of that CPU and a compact waking's waker from the task it
 * left running, and drops the first compact switch of a CPU. So a record
 * goes compact only when that inference gives back its own fields: the
 * CPU's previous switch is known (no loss since), its prev_* equal that
 * switch's next_*, a waking's common pid is the running task, and no switch
 * and waking share a timestamp (their order would be lost). Every other one
 * is a full typed event, which also sets the state trace_processor keeps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include "perfetto.h"
#include "pb-write.h"

enum { SW_TS, SW_STATE, SW_PID, SW_PRIO, SW_COMM, WK_TS, WK_PID, WK_CPU, WK_PRIO, WK_COMM,
       WK_FLAGS, CS_ARRAYS };
static const uint32_t cs_field[CS_ARRAYS] = { 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12 };
#define CS_INTERN_TABLE	5
#define INTERN_SLOTS	2048	/* > twice the events of a bundle */

struct tm_pf_bundle {
	struct tm_buf		events;		/* FtraceEventBundle.event fields */
	struct tm_buf		cs[CS_ARRAYS];	/* packed varints */
	struct tm_buf		comms;		/* intern_table: TM_COMM_LEN bytes per entry */
	uint16_t		intern[INTERN_SLOTS]; /* index + 1, 0: free */
	size_t			ncomm;
	size_t			n;		/* events and compact entries */
	uint64_t		first_ts;	/* the first record's time (packet, clock pair) */
	uint64_t		first_rel, last_rel; /* in the sequence's clock, as events are */
	/* previous_bundle_end_timestamp: the last event of the CPU's previous bundle */
	bool			written;	/* a bundle of the CPU went out */
	uint64_t		prev_end;
	uint64_t		sw_ts, wk_ts;	/* last compact timestamps (delta bases) */
	bool			lost;
	/* the task the CPU's last sched_switch left running */
	bool			known;
	int32_t			cur_pid, cur_prio;
	char			cur_comm[TM_COMM_LEN];
	uint64_t		last_switch_ts;
	struct tm_pf_desc	**desc;		/* descriptors its events need */
	size_t			ndesc, cap_desc;
	struct tm_pf_refs	refs;		/* kernel symbols its events use */
	struct tm_buf		head, tail;	/* scratch for writing */
	struct tm_buf		interned;	/* TracePacket.interned_data */
};

struct tm_pf_bundle *tm_pf_bundle_new(void)
{
	struct tm_pf_bundle *pb = calloc(1, sizeof(*pb));

	if (!pb) {
		tm_fail(ENOMEM, "Perfetto bundle");
		return NULL;
	}
	return pb;
}

void tm_pf_bundle_free(struct tm_pf_bundle *pb)
{
	int i;

	if (!pb)
		return;
	tm_buf_free(&pb->events);
	for (i = 0; i < CS_ARRAYS; i++)
		tm_buf_free(&pb->cs[i]);
	tm_buf_free(&pb->comms);
	tm_buf_free(&pb->head);
	tm_buf_free(&pb->tail);
	tm_buf_free(&pb->refs.addrs);
	tm_buf_free(&pb->interned);
	free(pb->desc);
	free(pb);
}

size_t tm_pf_bundle_count(const struct tm_pf_bundle *pb)
{
	return pb->n;
}

uint64_t tm_pf_bundle_first_ts(const struct tm_pf_bundle *pb)
{
	return pb->first_ts;
}

void tm_pf_bundle_lost(struct tm_pf_bundle *pb)
{
	pb->lost = true;
	pb->known = false;
}

bool tm_pf_bundle_has_lost(const struct tm_pf_bundle *pb)
{
	return pb->lost;
}

/* The comm's index in the bundle's intern_table, added when new. */
static uint32_t intern(struct tm_pf_bundle *pb, const char comm[TM_COMM_LEN])
{
	uint32_t h = 2166136261u, i;
	size_t k;

	for (k = 0; k < TM_COMM_LEN && comm[k]; k++)
		h = (h ^ (uint8_t)comm[k]) * 16777619u;
	for (i = h & (INTERN_SLOTS - 1); pb->intern[i]; i = (i + 1) & (INTERN_SLOTS - 1))
		if (!strncmp((const char *)pb->comms.data + (pb->intern[i] - 1) * TM_COMM_LEN, comm, TM_COMM_LEN))
			return pb->intern[i] - 1u;
	tm_buf_put(&pb->comms, comm, TM_COMM_LEN);
	pb->intern[i] = (uint16_t)++pb->ncomm;
	return (uint32_t)pb->ncomm - 1;
}

static void set_running(struct tm_pf_bundle *pb, const struct tm_pf_sched *s, uint64_t ts)
{
	pb->known = true;
	pb->cur_pid = s->pid;
	pb->cur_prio = s->prio;
	memcpy(pb->cur_comm, s->comm, sizeof(pb->cur_comm));
	pb->last_switch_ts = ts;
}

static bool compact_switch(struct tm_pf_bundle *pb, const struct tm_pf_sched *s, uint64_t ts)
{
	if (!pb->known || s->prev_pid != pb->cur_pid || s->prev_prio != pb->cur_prio ||
	    strncmp(s->prev_comm, pb->cur_comm, TM_COMM_LEN) || (pb->wk_ts == ts && pb->cs[WK_TS].len))
		return false;
	pb_varint(&pb->cs[SW_TS], ts - pb->sw_ts);
	pb_varint(&pb->cs[SW_STATE], (uint64_t)s->prev_state);
	pb_varint(&pb->cs[SW_PID], (uint64_t)(int64_t)s->pid);
	pb_varint(&pb->cs[SW_PRIO], (uint64_t)(int64_t)s->prio);
	pb_varint(&pb->cs[SW_COMM], intern(pb, s->comm));
	pb->sw_ts = ts;
	return true;
}

static bool compact_waking(struct tm_pf_bundle *pb, const struct tm_pf_sched *s, uint64_t ts)
{
	if (!pb->known || s->common_pid != pb->cur_pid || ts == pb->last_switch_ts)
		return false;
	pb_varint(&pb->cs[WK_TS], ts - pb->wk_ts);
	pb_varint(&pb->cs[WK_PID], (uint64_t)(int64_t)s->pid);
	pb_varint(&pb->cs[WK_CPU], (uint64_t)(int64_t)s->target_cpu);
	pb_varint(&pb->cs[WK_PRIO], (uint64_t)(int64_t)s->prio);
	pb_varint(&pb->cs[WK_COMM], intern(pb, s->comm));
	pb_varint(&pb->cs[WK_FLAGS], s->common_flags);
	pb->wk_ts = ts;
	return true;
}

static int need_desc(struct tm_pf_bundle *pb, struct tm_pf_desc *d)
{
	size_t i;

	if (d->written)
		return 0;
	for (i = 0; i < pb->ndesc; i++)
		if (pb->desc[i] == d)
			return 0;
	if (pb->ndesc == pb->cap_desc) {
		size_t cap = pb->cap_desc ? pb->cap_desc * 2 : 8;
		void *p = realloc(pb->desc, cap * sizeof(*pb->desc));

		if (!p)
			return tm_fail(ENOMEM, "Perfetto bundle");
		pb->desc = p;
		pb->cap_desc = cap;
	}
	pb->desc[pb->ndesc++] = d;
	return 0;
}

/* compact_sched's names for the task table (a full event reports its own). */
static int see_compact(struct tm_pf_tasks *tasks, const struct tm_pf_sched *s)
{
	if (tm_pf_tasks_see(tasks, s->common_pid, NULL) || tm_pf_tasks_see(tasks, s->pid, s->comm))
		return -1;
	return s->waking ? 0 : tm_pf_tasks_see(tasks, s->prev_pid, s->prev_comm);
}

int tm_pf_bundle_add(struct tm_pf_bundle *pb, struct tm_pf_events *m, struct tm_pf_tasks *tasks,
		     const struct tm_event_rec *rec, bool compact, uint64_t base)
{
	uint64_t ts = rec->ts - base;
	struct tm_pf_desc *d = NULL;
	struct tm_pf_sched s = { 0 };
	bool is_sched = compact && tm_pf_sched_get(m, rec, &s), done = false;
	int i;

	if (!pb->n) {
		pb->first_ts = rec->ts;
		pb->first_rel = ts;
	}
	pb->last_rel = ts;
	pb->n++;
	if (is_sched) {
		done = s.waking ? compact_waking(pb, &s, ts) : compact_switch(pb, &s, ts);
		if (!s.waking)
			set_running(pb, &s, ts);
	}
	if (done) {
		for (i = 0; i < CS_ARRAYS; i++)
			if (pb->cs[i].err)
				return tm_fail(ENOMEM, "Perfetto bundle");
		if (pb->comms.err)
			return tm_fail(ENOMEM, "Perfetto bundle");
		return see_compact(tasks, &s) ? -1 : 1;
	}
	if (!pb->refs.serial)
		pb->refs.serial = tm_pf_ksyms_serial(tm_pf_events_ksyms(m));
	if (tm_pf_event_put(m, rec, ts, &pb->events, &d, &pb->refs) || (d && need_desc(pb, d)))
		return -1;
	return is_sched;
}

/* The CompactSched message (without tag and length) into b. */
static void put_compact(struct tm_pf_bundle *pb, struct tm_buf *b)
{
	size_t i;

	for (i = 0; i < pb->ncomm; i++) {
		const char *c = (const char *)pb->comms.data + i * TM_COMM_LEN;

		pb_bytes(b, CS_INTERN_TABLE, c, strnlen(c, TM_COMM_LEN));
	}
	for (i = 0; i < CS_ARRAYS; i++)
		if (pb->cs[i].len)
			pb_bytes(b, cs_field[i], pb->cs[i].data, pb->cs[i].len);
}

static void reset(struct tm_pf_bundle *pb)
{
	int i;

	if (pb->n)
		pb->prev_end = pb->last_rel;
	pb->written = true;
	pb->events.len = 0;
	for (i = 0; i < CS_ARRAYS; i++)
		pb->cs[i].len = 0;
	pb->comms.len = 0;
	if (pb->ncomm)
		memset(pb->intern, 0, sizeof(pb->intern));
	pb->ncomm = 0;
	pb->n = 0;
	pb->sw_ts = pb->wk_ts = 0;
	pb->lost = false;
	pb->ndesc = 0;
	pb->refs.addrs.len = 0;
	pb->refs.serial = 0;
}

/*
 * The bundle's own fields, compact_sched and the descriptors not yet in the
 * file go into tail; the events are written from their buffer as they are.
 */
static void put_tail(struct tm_pf_bundle *pb, const struct tm_pf_bundle_head *h)
{
	struct tm_buf *t = &pb->tail;
	size_t i, at;

	t->len = 0;
	pb_uint(t, 1, h->cpu);
	if (pb->lost)
		pb_uint(t, 3, 1);
	if (h->named_clock)
		pb_uint(t, 5, h->clock);
	if (h->pair) {
		pb_uint(t, 6, (uint64_t)h->pair_ftrace);
		pb_uint(t, 7, (uint64_t)h->pair_boot);
	}
	/*
	 * previous_bundle_end_timestamp (10). trace_processor reads it from a
	 * CPU's first bundle only (ftrace_tokenizer.cc TokenizeFtraceBundle):
	 * the latest of those is where every CPU's data is valid, and
	 * FtraceParser::MaybeOnFirstFtraceEvent keeps what came before in the
	 * ftrace_event table only. A first bundle that starts after a loss
	 * (an overwritten buffer) gives its first event; one with the CPU's
	 * data from the start gives none (valid from the start). Later bundles
	 * carry the previous one's last event, as traced_probes writes it.
	 */
	if (pb->written)
		pb_uint(t, 10, pb->prev_end);
	else if (pb->lost && pb->n)
		pb_uint(t, 10, pb->first_rel);
	if (pb->ncomm) {
		at = pb_open(t, 4);
		put_compact(pb, t);
		pb_close(t, at);
	}
	for (i = 0; i < pb->ndesc; i++) {
		if (pb->desc[i]->written)
			continue;
		pb_bytes(t, 11, pb->desc[i]->bytes.data, pb->desc[i]->bytes.len);
		pb->desc[i]->written = true;
	}
}

int tm_pf_bundle_write(struct tm_pf_bundle *pb, const struct tm_pf_bundle_head *h, FILE *f)
{
	struct tm_buf *hd = &pb->head;
	size_t bundle, packet;
	uint8_t trailer[32];
	size_t tn = 0;

	put_tail(pb, h);
	pb->interned.len = 0;
	if (h->ksyms && pb->refs.addrs.len)
		tm_pf_ksyms_put(h->ksyms, h->seq, &pb->refs.addrs, &pb->interned);
	bundle = pb->tail.len + pb->events.len;
	if (pb->n) {
		trailer[tn++] = 8 << 3;		/* TracePacket.timestamp */
		tn += pb_put_varint_at(trailer + tn, pb->first_ts);
	}
	trailer[tn++] = 10 << 3;		/* trusted_packet_sequence_id */
	tn += pb_put_varint_at(trailer + tn, h->seq);
	if (h->machine) {			/* TracePacket.machine_id = 98 */
		tn += pb_put_varint_at(trailer + tn, 98 << 3);
		tn += pb_put_varint_at(trailer + tn, h->machine);
	}
	packet = 1 + pb_varint_size(bundle) + bundle + pb->interned.len + tn;
	hd->len = 0;
	pb_tag(hd, 1, PB_LEN);			/* Trace.packet */
	pb_varint(hd, packet);
	pb_tag(hd, 1, PB_LEN);			/* TracePacket.ftrace_events */
	pb_varint(hd, bundle);
	if (hd->err || pb->tail.err || pb->interned.err)
		return tm_fail(ENOMEM, "Perfetto bundle");
	if (fwrite_unlocked(hd->data, 1, hd->len, f) != hd->len ||
	    fwrite_unlocked(pb->tail.data, 1, pb->tail.len, f) != pb->tail.len ||
	    (pb->events.len &&
	     fwrite_unlocked(pb->events.data, 1, pb->events.len, f) != pb->events.len) ||
	    (pb->interned.len &&
	     fwrite_unlocked(pb->interned.data, 1, pb->interned.len, f) != pb->interned.len) ||
	    fwrite_unlocked(trailer, 1, tn, f) != tn)
		return tm_fail(errno, "write output");
	reset(pb);
	return 0;
}
