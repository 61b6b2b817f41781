// SPDX-License-Identifier: GPL-2.0-only
/*
 * capture-args.c - the options record and stream share (an argp child):
 * events, filters, triggers, probes, pids, CPUs, buffer, instance, run
 * length, and the COMMAND after "--".
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "capture.h"
#include "cmd.h"

/* ---- options ---- */

enum {
	OPT_SUBBUF = 0x200,
	OPT_WAKEUP,
	OPT_NO_MMAP,
	OPT_NO_PIN,
	OPT_KEEP_MAPPED,
	OPT_READER_NICE,
	OPT_DURATION,
	OPT_UPROBE,
	OPT_KPROBE,
	OPT_REUSE,
	OPT_MAX_GRAPH_DEPTH,
	OPT_FUNC_STACK,
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
	{ "kprobe", OPT_KPROBE, "SPEC", 0, "probe a kernel function: SPEC is "
	  "SYMBOL[+OFF][%return], then fetch arguments as kprobe_events takes them "
	  "('do_sys_openat2 dfd=%di'): an event of group tracemap_PID (repeatable)", 1 },
	{ "pid", 'P', "PID", 0, "trace only events of PID (repeatable)", 1 },
	{ NULL, 'F', NULL, 0, "trace only the COMMAND", 1 },
	{ NULL, 'c', NULL, 0, "with -F or -P: also trace children forked later", 1 },
	{ "stacktrace", 'T', NULL, 0, "a kernel stack trace with every event (the instance's "
	  "stacktrace option)", 1 },
	{ "cpumask", 'M', "CPUMASK", 0, "trace only the CPUs of the hex mask (e.g. 3)", 1 },
	{ "tracer", 'p', "TRACER", 0, "run TRACER: function, function_graph, nop (see "
	  "tracemap list -t; top level where the kernel allows it only there)", 1 },
	{ "ftrace-filter", 'l', "FUNC", 0, "with -p: trace only FUNC (set_ftrace_filter; globs "
	  "like 'vfs_*'; repeatable)", 1 },
	{ "ftrace-notrace", 'n', "FUNC", 0, "with -p: do not trace FUNC (set_ftrace_notrace; "
	  "repeatable)", 1 },
	{ "graph-function", 'g', "FUNC", 0, "with -p function_graph: graph only FUNC and what "
	  "it calls (set_graph_function; repeatable)", 1 },
	{ "max-graph-depth", OPT_MAX_GRAPH_DEPTH, "N", 0, "with -p function_graph: graph "
	  "calls only N deep (max_graph_depth)", 1 },
	{ "func-stack", OPT_FUNC_STACK, NULL, 0, "with -p function: a kernel stack trace with "
	  "every function traced (func_stack_trace; use -l)", 1 },
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
	{ "keep-mapped", OPT_KEEP_MAPPED, NULL, 0, "keep each CPU's buffer mapped when busy "
	  "too (default: a CPU that drains 8 sub-buffers in 250 ms reads with read(2) until "
	  "quiet: the kernel walks each event of a mapped one)", 2 },
	{ "no-pin", OPT_NO_PIN, NULL, 0, "let the scheduler place each CPU's reader thread "
	  "(default: on the CPU it reads, where its data is in cache)", 2 },
	{ "reader-nice", OPT_READER_NICE, "N", 0, "nice value of the reader threads where "
	  "tracemap may set it (default -10: a CPU crowded with busy tasks still lets its "
	  "reader drain in time)", 2 },
	{ "instance", 'B', "NAME", 0, "trace in instance NAME instead of tracemap-PID "
	  "(created and removed)", 2 },
	{ "reuse-instance", OPT_REUSE, NULL, 0, "with -B: NAME may exist already; record "
	  "through it and restore what tracemap changed", 2 },
	{ NULL, 0, NULL, 0, "Run:", 4 },
	{ "duration", OPT_DURATION, "SECONDS", 0, "stop after SECONDS", 4 },
	{ "quiet", 'q', NULL, 0, "no summary", 4 },
	{ "verbose", 'v', NULL, 0, "say what runs: the instance; per CPU, mmap or read() and "
	  "where and at which nice value its reader runs", 4 },
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

/* Append str to the NULL-terminated list *v of *n strings. */
static void add_str(struct argp_state *state, const char ***v, size_t *n, const char *str)
{
	*v = grow(state, *v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = str;
	(*v)[*n] = NULL;
}

/* A --uprobe or --kprobe spec, its syntax checked (a usage error) before anything starts. */
static void add_probe(struct argp_state *state, const char ***v, size_t *n, const char *spec,
		      int (*check)(const char *spec))
{
	if (check(spec))
		argp_error(state, "%s", tm_last_error());
	add_str(state, v, n, spec);
}

static void add_option(struct argp_state *state, struct capture_opts *o, const char *opt)
{
	add_str(state, &o->options, &o->nr_options, opt);
}

/* The function filters need a tracer, -g and the depth function_graph, --func-stack function. */
static void check_tracer(struct argp_state *state, struct capture_opts *o)
{
	const char *t = o->tracer ? o->tracer : "";
	bool graph = !strcmp(t, "function_graph");

	if (o->nr_filter_funcs && !*t)
		argp_error(state, "-l needs -p TRACER (function or function_graph)");
	if (o->nr_notrace_funcs && !*t)
		argp_error(state, "-n needs -p TRACER (function or function_graph)");
	if (o->nr_graph_funcs && !graph)
		argp_error(state, "-g needs -p function_graph");
	if (o->max_graph_depth >= 0 && !graph)
		argp_error(state, "--max-graph-depth needs -p function_graph");
	if (o->func_stack && strcmp(t, "function"))
		argp_error(state, "--func-stack needs -p function");
	if (o->func_stack)
		add_option(state, o, "func_stack_trace");
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
	case 'p': o->tracer = arg; break;
	case 'l': add_str(state, &o->filter_funcs, &o->nr_filter_funcs, arg); break;
	case 'n': add_str(state, &o->notrace_funcs, &o->nr_notrace_funcs, arg); break;
	case 'g': add_str(state, &o->graph_funcs, &o->nr_graph_funcs, arg); break;
	case OPT_MAX_GRAPH_DEPTH:
		o->max_graph_depth = arg_long(state, "max graph depth", arg, 0, 1L << 20);
		break;
	case OPT_FUNC_STACK: o->func_stack = true; break;
	case OPT_UPROBE:
		add_probe(state, &o->uprobes, &o->nr_uprobes, arg, tm_uprobe_spec_check);
		break;
	case OPT_KPROBE:
		add_probe(state, &o->kprobes, &o->nr_kprobes, arg, tm_kprobe_spec_check);
		break;
	case OPT_WAKEUP:
		o->wakeup_percent = arg_long(state, "wakeup percent", arg, 0, 100);
		break;
	case 'q': o->quiet = true; break;
	case 'v': o->verbose = true; break;
	case OPT_NO_MMAP: o->no_mmap = true; break;
	case OPT_NO_PIN: o->no_pin = true; break;
	case OPT_KEEP_MAPPED: o->keep_mapped = true; break;
	case OPT_READER_NICE:
		o->reader_nice = (int)arg_long(state, "reader nice value", arg, -20, 19);
		o->reader_nice_set = true;
		break;
	case 'B':
		/* trace-cmd records a buffer per -B; we record one instance */
		if (o->instance)
			argp_error(state, "-B given twice ('%s', then '%s'): one recording traces "
				   "one instance", o->instance, arg);
		o->instance = arg;
		break;
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
		check_tracer(state, o);
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

void capture_check_events(struct argp_state *state, const struct capture_opts *o)
{
	/* a reused instance records the events it has enabled */
	if (!o->nr_events && !o->tracer && !o->nr_uprobes && !o->nr_kprobes &&
	    !o->reuse_instance)
		argp_error(state, "nothing to record: give -e EVENT (-e all: every event; "
			   "-e ftrace:print: trace_marker lines), -p TRACER, --uprobe or --kprobe");
}

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
	o->max_graph_depth = -1;
}

void capture_opts_free(struct capture_opts *o)
{
	for (size_t i = 0; i < o->nr_events; i++)
		free(o->events[i].triggers);
	free(o->events);
	free(o->pids);
	free(o->options);
	free(o->uprobes);
	free(o->kprobes);
	free(o->filter_funcs);
	free(o->notrace_funcs);
	free(o->graph_funcs);
}
