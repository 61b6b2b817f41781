// SPDX-License-Identifier: GPL-2.0-only
/*
 * out-run.c - the records of a trace.dat file, or of several files of one
 * machine, merged by time (overlaps once) and filtered, into one output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat/dat-internal.h"
#include "merge/merge-internal.h"
#include "util/internal.h"
#include "util/meter.h"
#include "tm-evout.h"
#include "emit-internal.h"
#include "events/events-internal.h"
#include "dat/tm-dat.h"
#include "merge/tm-merge.h"

void tm_evout_free(struct tm_evout *out)
{
	if (out)
		out->ops->free(out);
}

const char *tm_evout_warning(const struct tm_evout *out)
{
	return out && out->warning[0] ? out->warning : NULL;
}

/* The buffers of several files, by name: the first file's in order, then new names. */
struct run_bufs {
	struct tm_evout_buffer	*b;
	int			n;
	int			**map;		/* [file][buf]: index in b */
};

static void run_bufs_free(struct run_bufs *rb, int nfiles)
{
	int f;

	for (f = 0; rb->map && f < nfiles; f++)
		free(rb->map[f]);
	free(rb->map);
	free(rb->b);
}

static int buf_index(struct run_bufs *rb, struct tm_dat *dat, int buf)
{
	const char *name = tm_dat_buffer_name(dat, buf) ?: "";
	int i;

	for (i = 0; i < rb->n; i++)
		if (!strcmp(rb->b[i].name ?: "", name))
			return i;
	rb->b[rb->n].name = name;
	rb->b[rb->n].clock = tm_dat_buffer_clock(dat, buf) ?: tm_dat_clock(dat);
	return rb->n++;
}

static int run_bufs_init(struct run_bufs *rb, struct tm_dat *const *dats, int n)
{
	int f, buf, total = 0;

	for (f = 0; f < n; f++)
		total += tm_dat_buffer_count(dats[f]);
	rb->b = calloc((size_t)total + 1, sizeof(*rb->b));
	rb->map = calloc((size_t)n, sizeof(*rb->map));
	if (!rb->b || !rb->map)
		return tm_fail(ENOMEM, "buffer list");
	for (f = 0; f < n; f++) {
		rb->map[f] = calloc((size_t)tm_dat_buffer_count(dats[f]) + 1, sizeof(int));
		if (!rb->map[f])
			return tm_fail(ENOMEM, "buffer list");
		for (buf = 0; buf < tm_dat_buffer_count(dats[f]); buf++)
			rb->map[f][buf] = buf_index(rb, dats[f], buf);
	}
	return 0;
}

static struct tm_merge *dat_merge(struct tm_dat *const *dats, int n, const struct run_bufs *rb,
				  struct tep_handle *tep, const struct tm_run_opts *o)
{
	struct tm_merge *m = tm_merge_new();
	int f, buf;

	if (!m)
		return NULL;
	if (tm_merge_check_records(m, tep, o->warn, o->warn_ctx)) {
		tm_merge_free(m);
		return NULL;
	}
	for (f = 0; f < n; f++) {
		for (buf = 0; buf < tm_dat_buffer_count(dats[f]); buf++) {
			/* trace-cmd 3.1.6 quirk: with --cpu, instances print nothing */
			if (buf && o->cpu_mask)
				continue;
			if (tm_merge_add_dat_as(m, dats[f], buf, rb->map[f][buf], f, o->cpu_mask,
						o->cpu_bits)) {
				tm_merge_free(m);
				return NULL;
			}
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

/* What the files are: the first one's, with the newest names and statistics (the last's). */
static void run_info(struct tm_evout_info *info, struct tm_dat *const *dats, int n,
		     const struct run_bufs *rb, const struct tm_run_opts *o)
{
	int f, buf;

	info->ncpus = tm_dat_cpus(dats[0]);
	info->nbuffers = rb->n;
	info->buffers = rb->b;
	info->cmdlines = tm_dat_cmdlines(dats[n - 1]);
	info->cpustat = tm_dat_cpustat(dats[n - 1]);
	info->ts_in_ns = tm_dat_tsc2nsec(dats[0]);
	info->uname = tm_dat_uname(dats[0]);
	info->printk = tm_dat_printk(dats[0]);
	info->machine = o->machine;
	info->machines = o->machines > 0 ? o->machines : 1;
	info->cpu_slots = info->ncpus;
	for (f = 0; f < n; f++)
		for (buf = 0; buf < tm_dat_buffer_count(dats[f]); buf++)
			if (tm_dat_buffer_cpus(dats[f], buf) > info->cpu_slots)
				info->cpu_slots = tm_dat_buffer_cpus(dats[f], buf);
}

/* The next record to hand on: 1, 0 at the end, -1; overlapping files' repeats skipped. */
static int run_next(struct tm_merge *m, struct tm_dedup *dd, struct tm_event_rec *rec)
{
	int r, dup;

	do {
		r = tm_merge_next(m, rec);
		dup = r > 0 && dd ? tm_dedup_seen(dd, rec) : 0;
		if (dup < 0)
			return -1;
	} while (dup);
	return r;
}

struct tm_evrun {
	struct tm_run_opts	o;
	struct tm_evout_info	info;
	struct run_bufs		rb;
	struct tm_dedup		*dd;
	struct tm_merge		*m;
	int			nfiles;
	bool			done;
};

void tm_evrun_free(struct tm_evrun *r)
{
	if (!r)
		return;
	tm_merge_free(r->m);
	tm_dedup_free(r->dd);
	run_bufs_free(&r->rb, r->nfiles);
	free(r);
}

struct tm_evrun *tm_evrun_open(struct tm_dat *const *dats, int n, struct tep_handle *tep,
			       const struct tm_run_opts *o)
{
	struct tm_evrun *r;

	if (n < 1) {
		tm_failx(EINVAL, "no input file");
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		tm_fail(ENOMEM, "run");
		return NULL;
	}
	r->o = *o;
	r->nfiles = n;
	r->info.tep = tep;
	if (run_bufs_init(&r->rb, dats, n))
		goto fail;
	run_info(&r->info, dats, n, &r->rb, o);
	if (n > 1 && !(r->dd = tm_dedup_new(r->info.nbuffers, r->info.cpu_slots)))
		goto fail;
	if (o->meter)
		o->meter->p = (struct tm_progress){ 0 };
	r->m = dat_merge(dats, n, &r->rb, tep, o);
	if (!r->m)
		goto fail;
	return r;
fail:
	tm_evrun_free(r);
	return NULL;
}

const struct tm_evout_info *tm_evrun_info(const struct tm_evrun *r)
{
	return &r->info;
}

int tm_evrun_next(struct tm_evrun *r, struct tm_event_rec *rec)
{
	struct tm_meter *meter = r->o.meter;
	int got;

	if (r->done)
		return 0;
	while ((got = run_next(r->m, r->dd, rec)) > 0) {
		if (meter && !(++meter->p.events % TM_RUN_METER_EVENTS))
			run_meter(meter, r->m);
		if (tm_filter_pass(r->o.filter, rec))
			return 1;
	}
	r->done = true;
	if (got == 0 && meter)
		run_meter(meter, r->m);	/* the end: every page read */
	if (r->o.skipped)
		*r->o.skipped = tm_merge_skipped(r->m);
	return got < 0 ? -1 : 0;
}

int tm_evout_run_dats(struct tm_evout *out, struct tm_dat *const *dats, int n,
		      struct tep_handle *tep, const struct tm_run_opts *o)
{
	struct tm_evrun *run = tm_evrun_open(dats, n, tep, o);
	struct tm_event_rec rec;
	int r = -1;

	if (!run || tm_evout_begin(out, &run->info))
		goto out;
	while ((r = tm_evrun_next(run, &rec)) > 0) {
		if (tm_evout_event(out, &rec)) {
			r = -1;
			break;
		}
	}
	if (r == 0)
		r = tm_evout_end(out);
out:
	if (run && r && o->skipped)
		*o->skipped = tm_merge_skipped(run->m);
	tm_evrun_free(run);
	return r < 0 ? -1 : 0;
}

int tm_evout_run_dat(struct tm_evout *out, struct tm_dat *dat, struct tep_handle *tep,
		      const struct tm_run_opts *o)
{
	return tm_evout_run_dats(out, &dat, 1, tep, o);
}
