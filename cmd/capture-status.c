// SPDX-License-Identifier: GPL-2.0-only
/*
 * capture-status.c - what the status line (status.c) of record and stream
 * shows: the events the kernel stored in the buffers, the raw bytes the
 * readers took from them and the bytes written, the fullest CPU buffer and
 * the events lost, from the instance's per-CPU statistics.
 */
#include <string.h>

#include "capture.h"

static uint64_t since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;	/* a reset in between: counted from zero */
}

int capture_cpu_kstats(const struct capture *c, int cpu, struct tm_cpu_kstats *k)
{
	const struct tm_cpu_kstats *k0 = &c->kstats0[cpu];

	if (tm_session_cpu_stats(c->sess, cpu, k))
		return -1;
	k->read = since(k->read, k0->read);
	k->overrun = since(k->overrun, k0->overrun);
	k->dropped = since(k->dropped, k0->dropped);
	k->commit_overrun = since(k->commit_overrun, k0->commit_overrun);
	return 0;
}

void capture_status_init(struct capture_status *st, const struct capture *c, bool on)
{
	status_start(&st->line, c->sub, on);
	st->buffer_kb = 0;
	if (on && tm_session_buffer_kb(c->sess, &st->buffer_kb))
		st->buffer_kb = 0;	/* no fill level then */
}

/*
 * The events count those still in the buffers: until a reader takes its
 * first page (a quiet system fills one in seconds) the line shows them and
 * the fill level rather than "0.0 MB read".
 */
static void capture_values(const struct capture_status *st, const struct capture *c,
			   struct status_values *v)
{
	uint64_t fullest = 0;

	*v = (struct status_values){ .written = -1, .ratio = true, .fill = -1 };
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		struct tm_cpu_kstats k;

		if (!c->cpus[cpu])
			continue;
		v->read += tm_recorder_raw_bytes(c->rec, cpu);
		if (capture_cpu_kstats(c, cpu, &k))
			continue;
		v->events += k.read + k.entries;
		v->lost += k.overrun + k.dropped + k.commit_overrun;
		if (k.bytes > fullest)
			fullest = k.bytes;
	}
	if (st->buffer_kb)
		v->fill = (int)(fullest * 100 / (st->buffer_kb * 1024));
	if (st->line.written)
		v->written = st->line.written(st->line.ctx);
}

void capture_status_tick(struct capture_status *st, const struct capture *c)
{
	struct status_values v;

	if (!status_due(&st->line))
		return;
	capture_values(st, c, &v);
	status_draw(&st->line, &v);
}
