// SPDX-License-Identifier: GPL-2.0-only
/*
 * capture.c - what record and stream share: the session, recorder threads
 * feeding a sink, waiting for the stop, the final drain, the summary,
 * cleanup. The options are capture-args.c's, the COMMAND capture-child.c's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "cmd.h"
#include "signals.h"

#define CAPTURE_BUSY_WAIT_MS	2000	/* how long a busy instance gets to become free */
#define CAPTURE_CHILD_GRACE_MS	2000	/* COMMAND's time to exit after a stop signal */

/* ---- waiting ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reap COMMAND for up to ms or until a stop signal past stops (-1: none), still recording. */
static void reap_for(struct capture *r, int (*idle)(void *ctx, int ms), void *ctx, int ms,
		     int stops)
{
	double end = now_s() + ms / 1000.0;

	for (;;) {
		capture_child_reap(r, false);
		if (r->child_done || now_s() >= end || (stops >= 0 && signals_stop_count() != stops))
			return;
		if (idle)
			idle(ctx, 50);
		else
			signals_wait(50);
	}
}

/*
 * The stop signal goes on to COMMAND; one that ignores it (or takes longer
 * than CAPTURE_CHILD_GRACE_MS, or a second stop signal) gets SIGKILL, said
 * in one line. Tracing goes on meanwhile: COMMAND's end is in the trace.
 */
static void end_command(struct capture *r, int (*idle)(void *ctx, int ms), void *ctx)
{
	int sig = signals_last(), stops = signals_stop_count();

	kill(r->child, sig);
	reap_for(r, idle, ctx, CAPTURE_CHILD_GRACE_MS, stops);
	if (r->child_done)
		return;
	cmd_err(r->sub, "%s (pid %d) did not exit within %d s of SIG%s: sending SIGKILL",
		r->o->command[0], (int)r->child, CAPTURE_CHILD_GRACE_MS / 1000,
		sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
	kill(r->child, SIGKILL);
	reap_for(r, NULL, NULL, CAPTURE_CHILD_GRACE_MS, -1);
}

void capture_wait(struct capture *r, int (*idle)(void *ctx, int ms), void *ctx)
{
	double end = r->o->duration > 0 ? now_s() + r->o->duration : 0;

	for (;;) {
		int timeout = 200;

		if (signals_stop_count())
			break;
		if (signals_child_event()) {
			signals_clear_child();
			capture_child_reap(r, false);
		}
		if (r->child > 0 && r->child_done)
			break;
		if (tm_recorder_failed(r->rec))
			break;
		if (end) {
			double left = end - now_s();

			if (left <= 0)
				break;
			if (left * 1000 < timeout)
				timeout = (int)(left * 1000) + 1;
		}
		if (r->status) {
			int due = status_due_ms(&r->status->line);

			if (due >= 0 && due < timeout)
				timeout = due;
		}
		if (!idle)
			signals_wait(timeout);
		else if (idle(ctx, timeout))
			break;
		if (r->status)
			capture_status_tick(r->status, r);
	}
	if (r->status)
		status_clear(&r->status->line);
	/* a stop signal goes on to COMMAND, which would have got it from the terminal */
	if (r->child > 0 && !r->child_done && signals_stop_count())
		end_command(r, idle, ctx);
}

/* ---- setup ---- */

static int select_cpus(struct capture *r)
{
	r->ncpus = get_nprocs_conf();
	r->cpus = calloc(r->ncpus, sizeof(*r->cpus));
	r->kstats = calloc(r->ncpus, sizeof(*r->kstats));
	r->kstats0 = calloc(r->ncpus, sizeof(*r->kstats0));
	if (!r->cpus || !r->kstats || !r->kstats0) {
		cmd_err(r->sub, "out of memory");
		return -1;
	}
	if (r->o->cpumask) {
		if (!tm_cpumask_parse(r->o->cpumask, r->cpus, r->ncpus))
			return 0;
		cmd_fail(r->sub);
		return -1;
	}
	for (int cpu = 0; cpu < r->ncpus; cpu++)
		r->cpus[cpu] = true;
	return 0;
}

int capture_open(struct capture *r, const struct capture_opts *o, const char *sub)
{
	struct tm_session_opts so = {
		.buffer_kb = o->buffer_kb,
		.subbuf_kb = o->subbuf_kb,
		.default_subbuf_kb = TM_DEFAULT_SUBBUF_KB,
		.clock = o->clock,
		.options = o->options,
		.events = o->events,
		.nr_events = o->nr_events,
		.pids = o->pids,
		.nr_pids = o->nr_pids,
		.follow_children = o->children,
		.wakeup_percent = (int)o->wakeup_percent,
		.cpumask = o->cpumask,
		.uprobes = o->uprobes,
		.nr_uprobes = o->nr_uprobes,
		.kprobes = o->kprobes,
		.nr_kprobes = o->nr_kprobes,
		.name = o->instance,
		.reuse = o->reuse_instance,
		.name_events = o->name_events,
		.tracer = {
			.name = o->tracer,
			.filter = o->filter_funcs,
			.notrace = o->notrace_funcs,
			.graph = o->graph_funcs,
			.max_graph_depth = (int)o->max_graph_depth,
		},
	};
	const char *tracefs;

	memset(r, 0, sizeof(*r));
	r->o = o;
	r->sub = sub;
	r->go_fd = -1;
	signals_init(sub);
	if (select_cpus(r))
		return -1;
	tracefs = tm_tracefs_open(true);
	if (tracefs)
		r->sess = tm_session_create(tracefs, &so);
	if (!r->sess) {
		cmd_fail(sub);
		return -1;
	}
	return 0;
}

static int open_recorder(struct capture *r, const struct capture_sink *s)
{
	struct tm_recorder_opts ro = {
		.cpus = r->cpus,
		.ncpus = r->ncpus,
		.use_mmap = !r->o->no_mmap,
		.pin = !r->o->no_pin,
		.read_when_busy = !r->o->keep_mapped,
		.reader_nice = r->o->reader_nice_set ? r->o->reader_nice : TM_READER_NICE_DEFAULT,
		.timeout_ms = s->timeout_ms,
		.emit_partial = s->emit_partial,
		.partial_ms = s->partial_ms,
	};

	r->rec = tm_recorder_create(tm_session_dir(r->sess), tm_session_page_size(r->sess),
				    &ro, &s->sink);
	if (!r->rec) {
		cmd_fail(r->sub);
		return -1;
	}
	if (r->o->verbose && tm_session_top_level(r->sess))
		cmd_err(r->sub, "tracer %s runs only at the top level on this kernel: recording "
			"there (every top-level file tracemap changes is restored at exit), "
			"sub-buffer %zu bytes", r->o->tracer, tm_session_page_size(r->sess));
	else if (r->o->verbose)
		cmd_err(r->sub, "instance %s, sub-buffer %zu bytes", tm_session_name(r->sess),
			   tm_session_page_size(r->sess));
	return 0;
}

/*
 * -v, at the end: how often a busy CPU went over to read(), and back; why
 * is the CPU's read() reason, said when mapping it again was refused.
 */
static void say_read_spells(int cpu, const struct tm_cpu_record_stats *st, const char *why)
{
	const char *refused = st->remap_refused ? why : NULL;

	fprintf(stderr, "    cpu%d busy: read() instead of the mapping %llu time%s, mapped again "
		"%llu%s%s\n", cpu, (unsigned long long)st->read_spells,
		st->read_spells == 1 ? "" : "s", (unsigned long long)st->remaps,
		refused ? "; " : "", refused ? refused : "");
}

/* -v: each CPU's path, and where its reader runs (known once the threads run). */
static void say_readers(const struct capture *r)
{
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		const char *why = tm_recorder_fallback_reason(r->rec, cpu);
		struct tm_cpu_record_stats st;
		char where[64];

		if (!r->cpus[cpu])
			continue;
		tm_recorder_get_stats(r->rec, cpu, &st);
		snprintf(where, sizeof(where), "its reader on %s CPU at nice %d",
			 st.pinned ? "that" : "any", st.nice);
		if (why)
			cmd_err(r->sub, "cpu%d: read() path (%s), %s", cpu, why, where);
		else
			cmd_err(r->sub, "cpu%d: mmap path, %s", cpu, where);
	}
}

/*
 * COMMAND forked (blocked), threads up, our own threads filtered out,
 * COMMAND's pid in, then tracing on.
 */
static int start_tracing(struct capture *r)
{
	pid_t *tids = calloc(r->ncpus + 1, sizeof(*tids));
	size_t n = 0;
	int ret = -1;

	if (!tids) {
		cmd_err(r->sub, "out of memory");
		return -1;
	}
	if (r->o->command && capture_child_spawn(r))
		goto out;
	if (tm_recorder_start(r->rec, tids + 1, &n))
		goto fail;
	if (r->o->verbose)
		say_readers(r);
	tids[0] = getpid();
	if (tm_session_add_notrace_pids(r->sess, tids, n + 1))
		goto fail;
	if (r->o->trace_command && tm_session_add_pids(r->sess, &r->child, 1))
		goto fail;
	if (tm_session_start(r->sess))
		goto fail;
	capture_child_release(r);
	ret = 0;
	goto out;
fail:
	cmd_fail(r->sub);
out:
	free(tids);
	return ret;
}

/* The counters this capture starts from (not zero in a reused instance). */
static int read_kstats0(struct capture *r)
{
	for (int cpu = 0; cpu < r->ncpus; cpu++)
		if (r->cpus[cpu] && tm_session_cpu_stats(r->sess, cpu, &r->kstats0[cpu])) {
			cmd_fail(r->sub);
			return -1;
		}
	return 0;
}

int capture_start(struct capture *r, const struct capture_sink *s)
{
	if (read_kstats0(r) || open_recorder(r, s))
		return -1;
	if (start_tracing(r)) {
		capture_child_abandon(r);
		return -1;
	}
	return 0;
}

/* ---- the end ---- */

static bool has_hist_trigger(const struct capture_opts *o)
{
	for (size_t i = 0; i < o->nr_events; i++)
		for (size_t j = 0; j < o->events[i].nr_triggers; j++)
			if (!strncmp(o->events[i].triggers[j], "hist", 4))
				return true;
	return false;
}

/*
 * The histograms of -R 'hist:...' go with the instance: print them at stop, on
 * stderr beside the summary (stdout may be the trace or stream's events).
 */
static int print_hists(struct capture *r)
{
	char *text;

	if (!has_hist_trigger(r->o))
		return 0;
	text = tm_session_hists(r->sess);
	if (!text)
		return cmd_fail(r->sub);
	fputs(text, stderr);
	free(text);
	return 0;
}

int capture_stop(struct capture *r)
{
	int ret = 0;

	signals_unblock();
	if (tm_session_stop(r->sess))
		ret = cmd_fail(r->sub);
	if (print_hists(r))
		ret = -1;
	if (tm_recorder_stop(r->rec))
		ret = cmd_fail(r->sub);
	for (int cpu = 0; cpu < r->ncpus; cpu++)
		if (r->cpus[cpu] && capture_cpu_kstats(r, cpu, &r->kstats[cpu]))
			ret = cmd_fail(r->sub);
	return ret ? -1 : 0;
}

static bool cpu_lost(const struct tm_cpu_kstats *k, const struct tm_cpu_record_stats *st)
{
	return k->overrun || k->dropped || k->commit_overrun || st->lost_pages ||
	       st->corrupt_pages || st->subbufs_lost;
}

/* Where the kernel counts them (the meta page's pages_lost, 7.x), the sub-buffers lost. */
static void say_subbufs_lost(const struct tm_cpu_record_stats *st)
{
	if (st->subbufs_lost_known)
		fprintf(stderr, "; %llu sub-buffer%s overwritten unread (the kernel's pages_lost)",
			(unsigned long long)st->subbufs_lost, st->subbufs_lost == 1 ? "" : "s");
	fputc('\n', stderr);
}

bool capture_summary(struct capture *r, const struct capture_column *col)
{
	bool lost = false, quiet = r->o->quiet;
	uint64_t total_lost = 0;

	if (!quiet) {
		fprintf(stderr, "CPU %12s %10s %10s", "events", "pages", "raw MB");
		if (col)
			fprintf(stderr, " %10s", col->title);
		fprintf(stderr, " %12s\n", "lost");
	}
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		struct tm_cpu_record_stats st;
		const struct tm_cpu_kstats *k = &r->kstats[cpu];
		uint64_t klost = k->overrun + k->dropped + k->commit_overrun;

		if (!r->cpus[cpu])
			continue;
		tm_recorder_get_stats(r->rec, cpu, &st);
		lost |= cpu_lost(k, &st);
		total_lost += klost > st.lost_stored ? klost : st.lost_stored;
		if (quiet)
			continue;
		/* events: the kernel's count of what this CPU's reader was handed since the start */
		fprintf(stderr, "%3d %12llu %10llu %10.2f", cpu,
			(unsigned long long)(r->count ? r->count->events(r->count->ctx, cpu) :
						 k->read),
			(unsigned long long)st.pages, st.raw_bytes / 1048576.0);
		if (col)
			fprintf(stderr, " %10.2f", col->value(col->ctx, cpu));
		fprintf(stderr, " %12llu\n",
			(unsigned long long)(klost > st.lost_stored ? klost : st.lost_stored));
		if (cpu_lost(k, &st)) {
			fprintf(stderr, "    cpu%d lost: overrun %llu, dropped %llu, commit overrun %llu; "
				"%llu pages flagged (%llu events counted on them%s)", cpu,
				(unsigned long long)k->overrun, (unsigned long long)k->dropped,
				(unsigned long long)k->commit_overrun,
				(unsigned long long)st.lost_pages,
				(unsigned long long)st.lost_stored,
				st.lost_unknown ? ", some without a count" : "");
			say_subbufs_lost(&st);
		}
		if (st.corrupt_pages)
			fprintf(stderr, "    cpu%d corrupt: %llu pages dropped (commit word or record "
				"lengths impossible)\n", cpu, (unsigned long long)st.corrupt_pages);
		if (r->o->verbose)
			fprintf(stderr, "    cpu%d kernel: entries %llu, read events %llu\n", cpu,
				(unsigned long long)k->entries, (unsigned long long)k->read);
		if (r->o->verbose && st.read_spells)
			say_read_spells(cpu, &st, tm_recorder_fallback_reason(r->rec, cpu));
	}
	/* loss is never quiet: with -q this one line is all that says so */
	if (lost && total_lost)
		cmd_err(r->sub, "WARNING: events were lost (%llu counted); use a bigger buffer "
			   "(-b), a lower --wakeup-percent, or fewer events",
			   (unsigned long long)total_lost);
	else if (lost)
		cmd_err(r->sub, "WARNING: events were lost (pages flagged, count unknown); use a "
			   "bigger buffer (-b), a lower --wakeup-percent, or fewer events");
	return lost;
}

/*
 * The instance, last: busy when another process holds a file of it open.
 * Retry a while; if it stays busy, a complete trace still succeeds, with a
 * warning naming the holder (reset --stale removes the instance later).
 */
static int remove_instance(struct capture *r, int ret)
{
	if (!tm_session_remove(r->sess, 0))
		return ret;
	if (errno == EBUSY) {
		if (r->o->verbose)
			cmd_err(r->sub, "%s; retrying for up to %d s", tm_last_error(),
				   CAPTURE_BUSY_WAIT_MS / 1000);
		if (!tm_session_remove(r->sess, CAPTURE_BUSY_WAIT_MS))
			return ret;
	}
	if (errno == EBUSY && ret != TM_EXIT_FAIL) {
		cmd_err(r->sub, "warning: %s; the trace is complete, 'tracemap reset --stale' "
			   "removes the instance once it is free", tm_last_error());
		return ret;
	}
	cmd_err(r->sub, "%s (tracemap reset --stale removes it later)", tm_last_error());
	return TM_EXIT_FAIL;
}

int capture_close(struct capture *r, int ret)
{
	if (r->go_fd >= 0)
		capture_child_abandon(r);
	tm_recorder_destroy(r->rec);
	r->rec = NULL;
	if (r->sess)
		ret = remove_instance(r, ret);
	tm_session_destroy(r->sess);
	r->sess = NULL;
	if (r->child > 0) {
		capture_child_reap(r, false);
		capture_child_report(r);
	}
	free(r->cpus);
	free(r->kstats);
	free(r->kstats0);
	r->cpus = NULL;
	r->kstats = r->kstats0 = NULL;
	return ret;
}

