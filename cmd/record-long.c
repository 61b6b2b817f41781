// SPDX-License-Identifier: GPL-2.0-only
/*
 * record-long.c - a recording into numbered files (--flight, --switch-output,
 * --trigger): the capture feeds the long-recording output; while it runs,
 * SIGUSR2, a fired trigger (after --post) or a size/time limit write the
 * next file; the stop writes the last one. One summary line per file.
 */
#include <stdio.h>
#include <time.h>

#include "cmd.h"
#include "record.h"
#include "signals.h"

#define SUB	"record"
#define TRIGGER_POLL_MS	20	/* how often the trigger's count is looked at */

struct longrun {
	const struct record_opts	*o;
	struct capture			*c;
	struct tm_longrec		*lr;
	struct tm_latch		*trig;
	int				usr2_seen;
	double				post_until;	/* a trigger fired: write then; 0 = none */
	long				dumps;		/* files written on a trigger or SIGUSR2 */
	bool				max_reached;	/* --max-dumps: stop, no final file */
	bool				failed;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Events the kernel lost in the instance so far, all CPUs. */
static unsigned long long kernel_lost(const struct capture *c)
{
	unsigned long long n = 0;
	struct tm_cpu_kstats k;

	for (int cpu = 0; cpu < c->ncpus; cpu++)
		if (c->cpus[cpu] && !capture_cpu_kstats(c, cpu, &k))
			n += k.overrun + k.dropped + k.commit_overrun;
	return n;
}

/* The summary line of one file: its name, size, and for a dump its window. */
static void print_file(const struct longrun *r, const struct tm_longrec_file *f)
{
	const struct tm_flight_dump_info *d = &f->dump;
	char drops[80] = ",";

	/* files removed that this recording did not write: said even with -q */
	if (f->nstale == 1)
		cmd_err(SUB, "removed %s: an earlier recording's numbered file after this one's "
			"last", f->stale);
	else if (f->nstale)
		cmd_err(SUB, "removed %s and the %u after it: an earlier recording's numbered "
			"files after this one's last", f->stale, f->nstale - 1);
	if (r->o->cap.quiet)
		return;
	if (f->warning[0])
		cmd_err(SUB, "warning: %s", f->warning);
	if (!f->flight) {
		cmd_err(SUB, "%s: %.2f MB", f->path, f->bytes / 1048576.0);
	} else if (!d->events) {
		cmd_err(SUB, "%s: %.2f MB, no events in the window", f->path,
			   f->bytes / 1048576.0);
	} else {
		/* drops only once the window was full: the trim to the CPUs' common start is none */
		if (d->dropped)
			snprintf(drops, sizeof(drops), "; %llu older events dropped from the window,",
				 (unsigned long long)d->dropped);
		cmd_err(SUB, "%s: %.2f MB, %llu.%06llu-%llu.%06llu (%.3f s), %llu events%s "
			   "%llu lost by the kernel", f->path, f->bytes / 1048576.0,
			   (unsigned long long)(d->start / 1000000000),
			   (unsigned long long)(d->start % 1000000000 / 1000),
			   (unsigned long long)(d->end / 1000000000),
			   (unsigned long long)(d->end % 1000000000 / 1000),
			   (d->end - d->start) / 1e9, (unsigned long long)d->events,
			   drops, kernel_lost(r->c));
	}
	if (f->removed[0])
		cmd_err(SUB, "removed %s (--max-files %ld)", f->removed, r->o->max_files);
}

/* The next numbered file while recording goes on; counted when asked for (trigger, signal). */
static int write_next(struct longrun *r, bool counted)
{
	struct tm_longrec_file f;

	if (tm_longrec_write(r->lr, r->c->rec, &f)) {
		cmd_fail(SUB);
		r->failed = true;
		return -1;
	}
	print_file(r, &f);
	if (counted && r->o->max_dumps && ++r->dumps >= r->o->max_dumps) {
		r->max_reached = true;
		if (!r->o->cap.quiet)
			cmd_err(SUB, "--max-dumps %ld reached: stopping", r->o->max_dumps);
	}
	return 0;
}

/* A trigger that fired: note when to write; then arm it again and write. */
static int check_trigger(struct longrun *r, double now)
{
	int fired;

	if (!r->post_until) {
		fired = tm_latch_fired(r->trig);
		if (fired < 0)
			goto fail;
		if (fired) {
			r->post_until = now + r->o->post;
			if (!r->o->cap.quiet)
				cmd_err(SUB, "trigger %s fired", r->o->trigger);
		}
		return 0;
	}
	if (now < r->post_until)
		return 0;
	r->post_until = 0;
	/*
	 * Armed again before the file is written and named: an event that follows
	 * the summary line (a script waiting for it) must find the trigger armed.
	 */
	if (tm_latch_rearm(r->trig))
		goto fail;
	return write_next(r, true);
fail:
	cmd_fail(SUB);
	r->failed = true;
	return -1;
}

/* capture_wait()'s idle step: signals, the trigger, the rotation limits. 1 = stop. */
static int idle(void *ctx, int ms)
{
	struct longrun *r = ctx;
	int usr2;

	signals_wait(r->trig && ms > TRIGGER_POLL_MS ? TRIGGER_POLL_MS : ms);
	if (signals_stop_count())
		return 0;	/* capture_wait() sees it */
	usr2 = signals_usr2_count();
	if (usr2 != r->usr2_seen) {
		r->usr2_seen = usr2;
		if ((r->o->flight_bytes || r->o->switch_signal) && write_next(r, true))
			return 1;
	}
	if (!r->max_reached && r->trig && check_trigger(r, now_s()))
		return 1;
	if (!r->max_reached && tm_longrec_due(r->lr) && write_next(r, false))
		return 1;
	return r->max_reached;
}

static int open_long(struct capture *c, const struct record_opts *o, const char *date,
		     struct tm_longrec **lr)
{
	struct tm_longrec_opts lo = {
		.out = record_file_opts(c, o, date),
		.flight_size = o->flight_bytes,
		.switch_bytes = o->switch_bytes,
		.switch_secs = o->switch_secs,
		.max_files = (unsigned int)o->max_files,
	};

	/* pieces on disk are flushed as one file is; --flight keeps memory */
	if (o->flight_bytes)
		lo.out.flush_ms = 0;
	*lr = tm_longrec_open(&lo, c->sess);
	if (!*lr)
		return cmd_fail(SUB);
	return 0;
}

/* After the stop: the last file, unless --max-dumps ended the recording. */
static int finish(struct longrun *r)
{
	struct tm_longrec_file f;

	if (capture_stop(r->c))
		return -1;
	if (r->max_reached || r->failed)
		return r->failed ? -1 : 0;
	if (tm_longrec_finish(r->lr, &f)) {
		cmd_fail(SUB);
		return -1;
	}
	print_file(r, &f);
	return 0;
}

int record_long_run(const struct record_opts *o)
{
	struct capture c;
	struct longrun r = { .o = o, .c = &c };
	struct capture_sink cs = { 0 };
	int ret = TM_EXIT_FAIL;
	char date[32];
	bool lost;

	if (capture_open(&c, &o->cap, SUB))
		goto out;
	/* SIGUSR2 dumps or switches files here instead of stopping the run */
	signals_catch_usr2();
	if (record_date(&c, o, date, sizeof(date)) || open_long(&c, o, date, &r.lr))
		goto out;
	if (o->trigger) {
		r.trig = tm_latch_arm(c.sess, o->trigger);
		if (!r.trig) {
			cmd_fail(SUB);
			goto out;
		}
	}
	cs.sink = tm_longrec_sink(r.lr);
	if (!o->flight_bytes)
		cs.partial_ms = record_flush_half_ms(o);
	if (capture_start(&c, &cs))
		goto out;
	capture_wait(&c, idle, &r);
	if (finish(&r))
		goto out;
	lost = capture_summary(&c, NULL);
	ret = lost && o->fail_on_loss ? TM_EXIT_LOST : TM_EXIT_OK;
out:
	tm_latch_free(r.trig);
	ret = capture_close(&c, ret);
	tm_longrec_close(r.lr);
	return capture_exit_status(&c, ret);
}
