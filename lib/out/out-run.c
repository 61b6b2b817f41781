// SPDX-License-Identifier: GPL-2.0-only
/* out-run.c - a trace.dat file's records, merged by time and filtered, into one output. */
#include <errno.h>
#include <stdlib.h>

#include "dat/dat-internal.h"
#include "util/internal.h"
#include "tm-evout.h"
#include "out-internal.h"
#include "print/print-internal.h"

void tm_evout_free(struct tm_evout *out)
{
	if (out)
		out->ops->free(out);
}

const char *tm_evout_warning(const struct tm_evout *out)
{
	return out && out->warning[0] ? out->warning : NULL;
}

static struct tm_evout_buffer *dat_buffers(struct tm_dat *dat)
{
	int i, n = tm_dat_buffer_count(dat);
	struct tm_evout_buffer *b = calloc((size_t)n, sizeof(*b));

	if (!b) {
		tm_fail(ENOMEM, "buffer list");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		b[i].name = tm_dat_buffer_name(dat, i);
		b[i].clock = tm_dat_buffer_clock(dat, i) ?: tm_dat_clock(dat);
	}
	return b;
}

static struct tm_merge *dat_merge(struct tm_dat *dat, struct tep_handle *tep,
				  const struct tm_run_opts *o)
{
	struct tm_merge *m = tm_merge_new();
	int buf;

	if (!m)
		return NULL;
	if (tm_merge_check_records(m, tep, o->warn, o->warn_ctx)) {
		tm_merge_free(m);
		return NULL;
	}
	for (buf = 0; buf < tm_dat_buffer_count(dat); buf++) {
		/* trace-cmd 3.1.6 quirk: with --cpu, instances print nothing */
		if (buf && o->cpu_mask)
			continue;
		if (tm_merge_add_dat(m, dat, buf, o->cpu_mask, o->cpu_bits)) {
			tm_merge_free(m);
			return NULL;
		}
	}
	return m;
}

static __attribute__((noinline)) void run_meter(struct tm_meter *meter,
						const struct tm_merge *m)
{
	tm_merge_bytes(m, &meter->p.done, &meter->p.total);
	tm_meter_show(meter);
}

int tm_evout_run_dat(struct tm_evout *out, struct tm_dat *dat, struct tep_handle *tep,
		      const struct tm_run_opts *o)
{
	struct tm_evout_info info = {
		.tep = tep,
		.ncpus = tm_dat_cpus(dat),
		.nbuffers = tm_dat_buffer_count(dat),
		.cmdlines = tm_dat_cmdlines(dat),
		.cpustat = tm_dat_cpustat(dat),
		.ts_in_ns = tm_dat_tsc2nsec(dat),
		.uname = tm_dat_uname(dat),
	};
	struct tm_evout_buffer *bufs = dat_buffers(dat);
	struct tm_merge *m = NULL;
	struct tm_event_rec rec;
	int r = -1, buf;

	if (!bufs)
		return -1;
	info.buffers = bufs;
	info.cpu_slots = info.ncpus;
	for (buf = 0; buf < info.nbuffers; buf++)
		if (tm_dat_buffer_cpus(dat, buf) > info.cpu_slots)
			info.cpu_slots = tm_dat_buffer_cpus(dat, buf);
	if (o->meter)
		o->meter->p = (struct tm_progress){ 0 };
	m = dat_merge(dat, tep, o);
	if (!m || tm_evout_begin(out, &info))
		goto out;
	while ((r = tm_merge_next(m, &rec)) > 0) {
		if (o->meter && !(++o->meter->p.events % TM_RUN_METER_EVENTS))
			run_meter(o->meter, m);
		if (!tm_filter_pass(o->filter, &rec))
			continue;
		if (tm_evout_event(out, &rec)) {
			r = -1;
			break;
		}
	}
	if (r == 0 && o->meter)
		run_meter(o->meter, m);	/* the end: every page read */
	if (r == 0)
		r = tm_evout_end(out);
	if (o->skipped)
		*o->skipped = tm_merge_skipped(m);
out:
	tm_merge_free(m);
	free(bufs);
	return r < 0 ? -1 : 0;
}
