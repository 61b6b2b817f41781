// SPDX-License-Identifier: GPL-2.0-only
/*
 * capture.c - what record and stream share: the capture options (argp
 * child), the session, recorder threads feeding a sink, the optional
 * COMMAND, waiting for the stop, the final drain, the summary, cleanup.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "cmd.h"
#include "signals.h"

#define CAPTURE_BUSY_WAIT_MS	2000	/* how long a busy instance gets to become free */

/* ---- options ---- */

enum {
	OPT_SUBBUF = 0x200,
	OPT_WAKEUP,
	OPT_NO_MMAP,
	OPT_DURATION,
	OPT_UPROBE,
	OPT_REUSE,
};

static const struct argp_option capture_options[] = {
	{ NULL, 0, NULL, 0, "What to trace:", 1 },
	{ "event", 'e', "EVENT", 0, "enable EVENT: all, SYSTEM, SYSTEM:EVENT, EVENT; globs "
	  "like 'sched:sched_wak*' (repeatable)", 1 },
	{ "filter", 'f', "FILTER", 0, "filter for the preceding -e (kernel syntax)", 1 },
	{ "event-trigger", 'R', "TRIGGER", 0, "event trigger for the preceding -e, e.g. stacktrace, "
	  "'traceoff if pid == 1' (repeatable)", 1 },
	{ "uprobe", OPT_UPROBE, "PATH:SYMBOL[+OFF][%return]", 0, "probe a function of a "
	  "program or library: an event of group tracemap_PID (repeatable)", 1 },
	{ "pid", 'P', "PID", 0, "trace only events of PID (repeatable)", 1 },
	{ NULL, 'F', NULL, 0, "trace only the COMMAND", 1 },
	{ NULL, 'c', NULL, 0, "with -F or -P: also trace children forked later", 1 },
	{ "stacktrace", 'T', NULL, 0, "a kernel stack trace with every event (the instance's "
	  "stacktrace option)", 1 },
	{ "cpumask", 'M', "CPUMASK", 0, "trace only the CPUs of the hex mask (e.g. 3)", 1 },
	{ NULL, 0, NULL, 0, "Buffer:", 2 },
	{ "buffer-size", 'b', "KB", 0, "per-CPU ring buffer size in KiB", 2 },
	{ "subbuf-size", OPT_SUBBUF, "KB", 0, "sub-buffer (page) size in KiB", 2 },
	{ "clock", 'C', "CLOCK", 0, "trace clock (local, global, mono, ...)", 2 },
	{ "option", 'O', "OPTION", 0, "set a tracefs option in the instance, "
	  "'noOPTION' clears it (e.g. nooverwrite; repeatable)", 2 },
	{ "wakeup-percent", OPT_WAKEUP, "N", 0, "wake the readers when a CPU buffer is N% "
	  "full (buffer_percent, 0-100)", 2 },
	{ "no-mmap", OPT_NO_MMAP, NULL, 0, "read pages with read(2) instead of mapping the "
	  "ring buffer", 2 },
	{ "instance", 'B', "NAME", 0, "trace in instance NAME instead of tracemap-PID "
	  "(created and removed)", 2 },
	{ "reuse-instance", OPT_REUSE, NULL, 0, "with -B: NAME may exist already; record "
	  "through it and restore what tracemap changed", 2 },
	{ NULL, 0, NULL, 0, "Run:", 4 },
	{ "duration", OPT_DURATION, "SECONDS", 0, "stop after SECONDS", 4 },
	{ "quiet", 'q', NULL, 0, "no summary", 4 },
	{ "verbose", 'v', NULL, 0, "say what runs: instance, mmap or read() per CPU", 4 },
	{ 0 }
};

static void *grow(struct argp_state *state, void *p, size_t n, size_t size)
{
	void *q = realloc(p, (n + 1) * size);

	if (!q)
		argp_failure(state, 1, ENOMEM, "options");
	return q;
}

static double duration_arg(struct argp_state *state, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || !*s || *end || !isfinite(v) || v <= 0 || v > 1e7)
		argp_error(state, "bad duration '%s' (expected seconds > 0)", s);
	return v;
}

/* -M: a usage error unless it selects CPUs of this machine (checked again at open). */
static void cpumask_arg(struct argp_state *state, struct capture_opts *o, const char *s)
{
	int ncpus = get_nprocs_conf();
	bool *set = calloc(ncpus, sizeof(*set));

	if (!set)
		argp_failure(state, 1, ENOMEM, "options");
	if (tm_cpumask_parse(s, set, ncpus))
		argp_error(state, "%s", tm_last_error());
	free(set);
	o->cpumask = s;
}

/* "record --" or "record -q --": argp took the "--" and no COMMAND follows. */
static bool trailing_dashdash(const struct argp_state *state, const struct capture_opts *o)
{
	const char *last;

	if (o->command || state->next < 1 || state->next > state->argc)
		return false;
	last = state->argv[state->next - 1];
	return !strcmp(last, "--") && last != o->last_arg;
}

void capture_note_arg(struct capture_opts *o, const char *arg)
{
	o->last_arg = arg;
}

/* -P: a usage error unless the process exists now (as -M: checked before anything starts). */
static void add_pid(struct argp_state *state, struct capture_opts *o, const char *s)
{
	pid_t pid = (pid_t)arg_long(state, "pid", s, 1, 1L << 22);

	if (kill(pid, 0) && errno == ESRCH)
		argp_error(state, "-P %d: no such process", (int)pid);
	o->pids = grow(state, o->pids, o->nr_pids, sizeof(*o->pids));
	o->pids[o->nr_pids++] = pid;
}

static void add_event(struct argp_state *state, struct capture_opts *o, const char *ev)
{
	o->events = grow(state, o->events, o->nr_events, sizeof(*o->events));
	o->events[o->nr_events++] = (struct tm_event_spec){ .event = ev };
}

static void add_filter(struct argp_state *state, struct capture_opts *o, const char *f)
{
	if (!o->nr_events)
		argp_error(state, "-f '%s' needs an -e before it", f);
	if (o->events[o->nr_events - 1].filter)
		argp_error(state, "-e '%s' already has a filter", o->events[o->nr_events - 1].event);
	o->events[o->nr_events - 1].filter = f;
}

static void add_trigger(struct argp_state *state, struct capture_opts *o, const char *t)
{
	struct tm_event_spec *ev;

	if (!o->nr_events)
		argp_error(state, "-R '%s' needs an -e before it", t);
	if (!*t)
		argp_error(state, "empty trigger for -e '%s'", o->events[o->nr_events - 1].event);
	ev = &o->events[o->nr_events - 1];
	ev->triggers = grow(state, ev->triggers, ev->nr_triggers, sizeof(*ev->triggers));
	ev->triggers[ev->nr_triggers++] = t;
}

static void add_option(struct argp_state *state, struct capture_opts *o, const char *opt)
{
	o->options = grow(state, o->options, o->nr_options + 1, sizeof(*o->options));
	o->options[o->nr_options++] = opt;
	o->options[o->nr_options] = NULL;
}

static error_t capture_parse(int key, char *arg, struct argp_state *state)
{
	struct capture_opts *o = state->input;

	if (arg && key != ARGP_KEY_ARG)
		capture_note_arg(o, arg);
	switch (key) {
	case 'e': add_event(state, o, arg); break;
	case 'f': add_filter(state, o, arg); break;
	case 'R': add_trigger(state, o, arg); break;
	case 'b': o->buffer_kb = arg_long(state, "buffer size", arg, 1, 1L << 30); break;
	case OPT_SUBBUF: o->subbuf_kb = arg_long(state, "sub-buffer size", arg, 1, 1024); break;
	case 'C': o->clock = arg; break;
	case 'M': cpumask_arg(state, o, arg); break;
	case 'P': add_pid(state, o, arg); break;
	case 'F': o->trace_command = true; break;
	case 'c': o->children = true; break;
	case 'O': add_option(state, o, arg); break;
	case 'T': add_option(state, o, "stacktrace"); break;
	case OPT_UPROBE:
		if (tm_uprobe_spec_check(arg))
			argp_error(state, "%s", tm_last_error());
		o->uprobes = grow(state, o->uprobes, o->nr_uprobes, sizeof(*o->uprobes));
		o->uprobes[o->nr_uprobes++] = arg;
		break;
	case OPT_WAKEUP:
		o->wakeup_percent = arg_long(state, "wakeup percent", arg, 0, 100);
		break;
	case 'q': o->quiet = true; break;
	case 'v': o->verbose = true; break;
	case OPT_NO_MMAP: o->no_mmap = true; break;
	case 'B': o->instance = arg; break;
	case OPT_REUSE: o->reuse_instance = true; break;
	case OPT_DURATION: o->duration = duration_arg(state, arg); break;
	case ARGP_KEY_ARG:
		/* the first non-option starts COMMAND: the rest are its arguments */
		o->command = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (trailing_dashdash(state, o))
			argp_error(state, "'--' needs a COMMAND after it");
		if (o->trace_command && !o->command)
			argp_error(state, "-F needs a COMMAND");
		if (o->children && !o->trace_command && !o->nr_pids)
			argp_error(state, "-c needs -F or -P");
		if (o->reuse_instance && !o->instance)
			argp_error(state, "--reuse-instance needs -B NAME");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp capture_argp = {
	.options = capture_options,
	.parser = capture_parse,
};

static const struct argp_child capture_children[] = {
	{ &capture_argp, 0, NULL, 0 },
	{ 0 }
};

void capture_parse_args(int argc, char **argv, const struct argp_option *options,
			argp_parser_t parser, const char *doc, const char *examples, void *input)
{
	const struct argp argp = {
		.options = options,
		.parser = parser,
		.args_doc = "[-- COMMAND [ARG...]]",
		.doc = doc,
		.children = capture_children,
	};

	cmd_parse(&argp, argc, argv, ARGP_IN_ORDER, input, examples);
}

void capture_opts_init(struct capture_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->wakeup_percent = -1;
}

void capture_opts_free(struct capture_opts *o)
{
	for (size_t i = 0; i < o->nr_events; i++)
		free(o->events[i].triggers);
	free(o->events);
	free(o->pids);
	free(o->options);
	free(o->uprobes);
}

/* ---- COMMAND ---- */

/* Fork COMMAND, blocked on a pipe until release_child(): the instance is ready first. */
static int spawn_child(struct capture *r)
{
	int fds[2];
	char c;

	if (pipe2(fds, O_CLOEXEC)) {
		cmd_err(r->sub, "pipe: %s", strerror(errno));
		return -1;
	}
	r->child = fork();
	if (r->child < 0) {
		cmd_err(r->sub, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (r->child == 0) {
		signals_reset_child();
		close(fds[1]);
		/* EOF without a byte means the parent gave up: do not run */
		if (read(fds[0], &c, 1) != 1)
			_exit(127);
		execvp(r->o->command[0], r->o->command);
		fprintf(stderr, "tracemap %s: cannot run %s: %s\n", r->sub, r->o->command[0],
			strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	r->go_fd = fds[1];
	return 0;
}

static void release_child(struct capture *r)
{
	if (r->go_fd < 0)
		return;
	if (write(r->go_fd, "g", 1) != 1)
		cmd_err(r->sub, "start %s: %s", r->o->command[0], strerror(errno));
	close(r->go_fd);
	r->go_fd = -1;
}

static void reap_child(struct capture *r, bool block)
{
	pid_t p;

	if (r->child <= 0 || r->child_done)
		return;
	do {
		p = waitpid(r->child, &r->child_status, block ? 0 : WNOHANG);
	} while (p < 0 && errno == EINTR);
	if (p == r->child)
		r->child_done = true;
}

/* On a failure before the child ran: it never execs (closing go_fd gives it EOF). */
static void abandon_child(struct capture *r)
{
	if (r->go_fd >= 0) {
		close(r->go_fd);
		r->go_fd = -1;
	}
	reap_child(r, true);
}

void capture_wait_command(struct capture *r)
{
	int stops = signals_stop_count();

	if (r->child <= 0 || r->go_fd >= 0)
		return;
	reap_child(r, false);
	if (r->child_done)
		return;
	cmd_err(r->sub, "waiting for %s (pid %d) to exit; Ctrl-C stops it", r->o->command[0],
		   (int)r->child);
	while (!r->child_done) {
		signals_wait(200);
		/* as while recording: a stop signal goes on to COMMAND */
		if (signals_stop_count() != stops) {
			stops = signals_stop_count();
			kill(r->child, signals_last());
		}
		reap_child(r, false);
	}
}

/* ---- waiting ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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
			reap_child(r, false);
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
		kill(r->child, signals_last());
}

/* ---- setup ---- */

static int select_cpus(struct capture *r)
{
	r->ncpus = get_nprocs_conf();
	r->cpus = calloc(r->ncpus, sizeof(*r->cpus));
	r->kstats = calloc(r->ncpus, sizeof(*r->kstats));
	if (!r->cpus || !r->kstats) {
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
		.name = o->instance,
		.reuse = o->reuse_instance,
		.name_events = o->name_events,
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
	if (r->o->verbose) {
		cmd_err(r->sub, "instance %s, sub-buffer %zu bytes", tm_session_name(r->sess),
			   tm_session_page_size(r->sess));
		for (int cpu = 0; cpu < r->ncpus; cpu++) {
			const char *why = tm_recorder_fallback_reason(r->rec, cpu);

			if (!r->cpus[cpu])
				continue;
			if (why)
				cmd_err(r->sub, "cpu%d: read() path (%s)", cpu, why);
			else
				cmd_err(r->sub, "cpu%d: mmap path", cpu);
		}
	}
	return 0;
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
	if (r->o->command && spawn_child(r))
		goto out;
	if (tm_recorder_start(r->rec, tids + 1, &n))
		goto fail;
	tids[0] = getpid();
	if (tm_session_add_notrace_pids(r->sess, tids, n + 1))
		goto fail;
	if (r->o->trace_command && tm_session_add_pids(r->sess, &r->child, 1))
		goto fail;
	if (tm_session_start(r->sess))
		goto fail;
	release_child(r);
	ret = 0;
	goto out;
fail:
	cmd_fail(r->sub);
out:
	free(tids);
	return ret;
}

int capture_start(struct capture *r, const struct capture_sink *s)
{
	if (open_recorder(r, s))
		return -1;
	if (start_tracing(r)) {
		abandon_child(r);
		return -1;
	}
	return 0;
}

/* ---- the end ---- */

int capture_stop(struct capture *r)
{
	int ret = 0;

	signals_unblock();
	if (tm_session_stop(r->sess))
		ret = cmd_fail(r->sub);
	if (tm_recorder_stop(r->rec))
		ret = cmd_fail(r->sub);
	for (int cpu = 0; cpu < r->ncpus; cpu++)
		if (r->cpus[cpu] && tm_session_cpu_stats(r->sess, cpu, &r->kstats[cpu]))
			ret = cmd_fail(r->sub);
	return ret ? -1 : 0;
}

static bool cpu_lost(const struct tm_cpu_kstats *k, const struct tm_cpu_record_stats *st)
{
	return k->overrun || k->dropped || k->commit_overrun || st->lost_pages || st->corrupt_pages;
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
		/* events: the kernel's count of what this CPU's reader was handed */
		fprintf(stderr, "%3d %12llu %10llu %10.2f", cpu,
			(unsigned long long)(r->count ? r->count->events(r->count->ctx, cpu) :
						 k->read),
			(unsigned long long)st.pages, st.raw_bytes / 1048576.0);
		if (col)
			fprintf(stderr, " %10.2f", col->value(col->ctx, cpu));
		fprintf(stderr, " %12llu\n",
			(unsigned long long)(klost > st.lost_stored ? klost : st.lost_stored));
		if (cpu_lost(k, &st))
			fprintf(stderr, "    cpu%d lost: overrun %llu, dropped %llu, commit overrun %llu; "
				"%llu pages flagged (%llu events counted on them%s)\n", cpu,
				(unsigned long long)k->overrun, (unsigned long long)k->dropped,
				(unsigned long long)k->commit_overrun,
				(unsigned long long)st.lost_pages,
				(unsigned long long)st.lost_stored,
				st.lost_unknown ? ", some without a count" : "");
		if (st.corrupt_pages)
			fprintf(stderr, "    cpu%d corrupt: %llu pages dropped (commit word or record "
				"lengths impossible)\n", cpu, (unsigned long long)st.corrupt_pages);
		if (r->o->verbose)
			fprintf(stderr, "    cpu%d kernel: entries %llu, read events %llu\n", cpu,
				(unsigned long long)k->entries, (unsigned long long)k->read);
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

static void report_child(struct capture *r)
{
	int st = r->child_status;

	if (r->child <= 0 || r->o->quiet || !r->child_done)
		return;
	if (WIFEXITED(st))
		cmd_err(r->sub, "%s exited with status %d", r->o->command[0], WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		cmd_err(r->sub, "%s killed by signal %d (%s)", r->o->command[0], WTERMSIG(st),
			   strsignal(WTERMSIG(st)));
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
		abandon_child(r);
	tm_recorder_destroy(r->rec);
	r->rec = NULL;
	if (r->sess)
		ret = remove_instance(r, ret);
	tm_session_destroy(r->sess);
	r->sess = NULL;
	if (r->child > 0) {
		reap_child(r, false);
		report_child(r);
	}
	free(r->cpus);
	free(r->kstats);
	r->cpus = NULL;
	r->kstats = NULL;
	return ret;
}

int capture_exit_status(const struct capture *r, int ret)
{
	int st = r->child_status;

	if (ret != TM_EXIT_OK || r->child <= 0 || !r->child_done)
		return ret;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return ret;
}
