// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - `tracemap report`: print a trace.dat file like `trace-cmd report`
 * 3.2-3.4 (the default) or 3.1.6 (--compat=3.1).
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "cmd.h"
#include "status.h"
#include "tracemap.h"
#include "events/tm-events.h"

#define REPORT_MAX_FILTERS	32
#define REPORT_MAX_CPUS		4096

enum report_mode {
	MODE_EVENTS,
	MODE_LIST_EVENTS,	/* -E */
	MODE_STAT,		/* --stat */
	MODE_FIRST_LAST,	/* --first-event / --last-event */
};

struct report_filter {
	const char	*expr;
	bool		invert;
};

struct report_opts {
	const char		*input;
	enum report_mode	mode;
	bool			first_event, last_event;
	bool			invert_next;	/* -v seen: later -F hide */
	bool			quiet;
	bool			no_plugins;
	struct tm_print_opts	print;
	uint64_t		cpu_mask[REPORT_MAX_CPUS / 64];
	bool			have_cpu_mask;
	struct report_filter	filters[REPORT_MAX_FILTERS];
	int			nfilters;
};

enum {
	OPT_CPU = 256,
	OPT_STAT,
	OPT_FIRST,
	OPT_LAST,
	OPT_JSON,
	OPT_COMPAT,
};

static const struct argp_option options[] = {
	{ "input", 'i', "FILE", 0, "Read FILE (default trace.dat; a bare FILE argument also works)", 0 },
	{ "full-time", 't', NULL, 0, "Print full nanosecond timestamps (9 decimals)", 0 },
	{ "no-plugins", 'N', NULL, 0, "Do not load libtraceevent plugins: plain print formats", 0 },
	{ "cpu", OPT_CPU, "LIST", 0, "Only events of these CPUs, e.g. 0,2-3", 0 },
	{ "filter", 'F', "FILTER", 0,
	  "Only events matching FILTER (libtraceevent syntax, e.g. 'sched_switch: prev_pid > 0'); "
	  "repeatable: an event passes if any matches", 0 },
	{ "invert", 'v', NULL, 0, "Every -F after this one hides the events it matches", 0 },
	{ "events", 'E', NULL, 0, "List the event formats stored in the file (SYSTEM:EVENT) and exit", 0 },
	{ "stat", OPT_STAT, NULL, 0,
	  "Print the per-CPU kernel buffer statistics and data sizes stored in the file", 0 },
	{ "raw", 'R', NULL, 0, "Raw format: every field as name=value, no print format", 0 },
	{ "latency", 'l', NULL, 0,
	  "Latency format: comm cut to 8 columns, CPU without brackets, then the flags "
	  "(irqs-off, need-resched, hard/softirq, preempt and migrate-disable depth)", 0 },
	{ "option", 'O', "[PLUGIN:]NAME[=VALUE]", 0,
	  "A plugin option as trace-cmd's -O: function's parent, indent, offset; "
	  "fgraph:tailprint, fgraph:depth (function_graph); repeatable", 0 },
	{ "quiet", 'q', NULL, 0, "No warnings, no progress line", 0 },
	{ "first-event", OPT_FIRST, NULL, 0, "Print the time of the first event of each CPU", 0 },
	{ "last-event", OPT_LAST, NULL, 0, "Print the time of the last event of each CPU", 0 },
	{ "json", OPT_JSON, NULL, 0,
	  "One JSON object per event: timestamp_ns (also as timestamp_sec and timestamp_nsec), "
	  "time (ISO 8601, files recorded with --date), "
	  "cpu, pid, comm, event, system, latency, fields", 0 },
	{ "compat", OPT_COMPAT, "VERSION", 0,
	  "Print the text of trace-cmd VERSION: 3.4 (default; also 3.2, 3.3) or 3.1 (3.1.6, no "
	  "latency column, its plugin's task-state letters)", 0 },
	{ 0 }
};

static const char doc[] =
	"Print the events of a trace.dat file exactly as `trace-cmd report` prints them: "
	"current trace-cmd (3.2-3.4) by default, Debian 12's 3.1.6 with --compat=3.1.\v"
	"Reads files written by tracemap and trace-cmd (versions 6 and 7, uncompressed or zstd).";

static const char examples[] =
	"  tracemap report trace.dat\n"
	"  tracemap report -t --cpu 0 -F 'sched_switch: next_pid != 0' trace.dat\n"
	"  tracemap report --json trace.dat | jq -r .event | sort | uniq -c\n"
	"  tracemap report --stat trace.dat\n"
	"  tracemap report -O fgraph:tailprint graph.dat\n";

/* "0,2-3" into the mask; false on a malformed list. */
static bool parse_cpu_list(const char *s, uint64_t *mask)
{
	char *copy = strdup(s), *tok, *save = NULL, *dash;
	bool ok = copy != NULL;
	long lo, hi, c;

	for (tok = ok ? strtok_r(copy, ",", &save) : NULL; ok && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = '\0';
		ok = parse_long(tok, 0, REPORT_MAX_CPUS - 1, &lo);
		hi = lo;
		if (ok && dash)
			ok = parse_long(dash + 1, lo, REPORT_MAX_CPUS - 1, &hi);
		for (c = lo; ok && c <= hi; c++)
			mask[c / 64] |= 1ULL << (c % 64);
	}
	if (ok && (!copy || !*copy || s[strlen(s) - 1] == ','))
		ok = false;
	free(copy);
	return ok;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct report_opts *o = state->input;

	switch (key) {
	case 'i':
		if (o->input)
			argp_error(state, "only one input file");
		o->input = arg;
		return 0;
	case ARGP_KEY_ARG:
		if (o->input)
			argp_error(state, "only one input file");
		o->input = arg;
		return 0;
	case 't': o->print.nsec = true; return 0;
	case 'N': o->no_plugins = true; return 0;
	case 'R': o->print.raw = true; return 0;
	case 'l': o->print.latency = true; return 0;
	case 'q': o->quiet = true; return 0;
	case 'O':
		if (tm_print_plugin_option(&o->print, arg))
			argp_failure(state, TM_EXIT_FAIL, 0, "%s", tm_last_error());
		return 0;
	case 'v': o->invert_next = true; return 0;
	case 'E': o->mode = MODE_LIST_EVENTS; return 0;
	case OPT_STAT: o->mode = MODE_STAT; return 0;
	case OPT_JSON: o->print.json = true; return 0;
	case OPT_COMPAT: o->print.compat = arg_compat(state, arg); return 0;
	case OPT_FIRST: o->first_event = true; o->mode = MODE_FIRST_LAST; return 0;
	case OPT_LAST: o->last_event = true; o->mode = MODE_FIRST_LAST; return 0;
	case OPT_CPU:
		if (!parse_cpu_list(arg, o->cpu_mask))
			argp_error(state, "bad CPU list '%s' (expected e.g. 0,2-3)", arg);
		o->have_cpu_mask = true;
		return 0;
	case 'F':
		if (o->nfilters == REPORT_MAX_FILTERS)
			argp_error(state, "at most %d filters", REPORT_MAX_FILTERS);
		o->filters[o->nfilters].expr = arg;
		o->filters[o->nfilters++].invert = o->invert_next;
		return 0;
	case ARGP_KEY_END:
		if (!o->input)
			o->input = "trace.dat";
		if (o->print.json && o->print.raw)
			argp_error(state, "--json and -R exclude each other");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp report_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[FILE]",
	.doc = doc,
};

/* -E: every event the file describes, sorted by system then name. */
static int list_events(struct tep_handle *tep)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_SYSTEM);
	int i;

	if (!events) {
		cmd_err("report", "cannot list the events: out of memory");
		return TM_EXIT_FAIL;
	}
	for (i = 0; events[i]; i++)
		printf("%s:%s\n", events[i]->system, events[i]->name);
	return TM_EXIT_OK;
}

/*
 * Options of trace-cmd >= 3.4 (3.1.6 knows none of them and prints nothing):
 * LAST_BOOT_INFO and MODULES_FILE place a previous boot's addresses, the
 * others report skips.
 */
static void print_newer_options(struct tm_dat *dat)
{
	uint64_t ids = tm_dat_newer_options(dat);
	const char *name;
	unsigned int id;

	if (!ids)
		return;
	printf("\nOptions of newer trace-cmd versions:\n");
	for (id = 0; id < 64; id++) {
		if (!(ids & (1ULL << id)))
			continue;
		name = tm_dat_option_name(id);
		if (name)
			printf("  %s (option %u)%s\n", name, id,
			       !strcmp(name, "LAST_BOOT_INFO") || !strcmp(name, "MODULES_FILE") ?
			       ": the previous boot's addresses" : ", not used by report");
		else
			printf("  option %u\n", id);
	}
}

static int print_stat(struct tm_dat *dat, const struct report_opts *o)
{
	struct tm_blob stats = tm_dat_cpustat(dat);
	int cpu, ncpu = tm_dat_buffer_cpus(dat, 0);

	printf("cpus=%d\n", tm_dat_cpus(dat));
	printf("\nKernel buffer statistics:\n"
	       "  Note: \"entries\" are the entries left in the kernel ring buffer and are not\n"
	       "        recorded in the trace data. They should all be zero.\n\n");
	if (stats.len)
		printf("%.*s\n", (int)stats.len, stats.data);
	else
		printf(" No stats in this file\n");
	/* the top buffer's CPUs: none when a file holds instances only */
	for (cpu = 0; cpu < ncpu; cpu++) {
		printf("CPU%d data recorded at offset=0x%llx\n", cpu,
		       (unsigned long long)tm_dat_stat_offset(dat, cpu));
		printf("    %llu bytes in size\n",
		       (unsigned long long)tm_dat_buffer_cpu_size(dat, 0, cpu));
	}
	if (o->print.compat != TM_TEXT_TC31)
		print_newer_options(dat);
	return TM_EXIT_OK;
}

/* First and last record time of one CPU of the top buffer; false if it has none. */
static int cpu_first_last(struct tm_dat *dat, int cpu, uint64_t *first, uint64_t *last)
{
	uint64_t mask[REPORT_MAX_CPUS / 64] = { 0 };
	struct tm_merge *m = tm_merge_new();
	struct tm_event_rec rec;
	int r, n = 0;

	if (!m || cpu >= REPORT_MAX_CPUS)
		return -1;
	mask[cpu / 64] = 1ULL << (cpu % 64);
	if (tm_merge_add_dat(m, dat, 0, mask, REPORT_MAX_CPUS)) {
		tm_merge_free(m);
		return -1;
	}
	while ((r = tm_merge_next(m, &rec)) > 0) {
		if (!n++)
			*first = rec.ts;
		*last = rec.ts;
	}
	tm_merge_free(m);
	return r < 0 ? -1 : n > 0;
}

/* trace-cmd prints these as plain seconds.micro (or nano with -t) seconds. */
static void print_seconds(const char *label, uint64_t ts, bool nsec)
{
	if (nsec)
		printf("%s%llu.%09llu", label, (unsigned long long)(ts / 1000000000),
		       (unsigned long long)(ts % 1000000000));
	else
		printf("%s%llu.%06llu", label, (unsigned long long)((ts + 500) / 1000 / 1000000),
		       (unsigned long long)((ts + 500) / 1000 % 1000000));
}

static int print_first_last(struct tm_dat *dat, const struct report_opts *o)
{
	int cpu, ncpu = tm_dat_buffer_cpus(dat, 0), r;
	uint64_t first = 0, last = 0;

	printf("List of CPUs in %s with data:\n", o->input);
	for (cpu = 0; cpu < ncpu; cpu++) {
		r = cpu_first_last(dat, cpu, &first, &last);
		if (r < 0)
			return cmd_fail("report");
		if (!r)
			continue;
		printf("  %d", cpu);
		if (o->first_event)
			print_seconds("\tFirst event: ", first, o->print.nsec);
		if (o->last_event)
			print_seconds("\tLast event: ", last, o->print.nsec);
		printf("\n");
	}
	return TM_EXIT_OK;
}

static int setup_filter(struct tep_handle *tep, const struct report_opts *o, struct tm_filter **f)
{
	int i;

	*f = NULL;
	if (!o->nfilters)
		return 0;
	*f = tm_filter_new(tep);
	if (!*f)
		return -1;
	for (i = 0; i < o->nfilters; i++)
		if (tm_filter_add(*f, o->filters[i].expr, o->filters[i].invert))
			return -1;
	return 0;
}

/* What standard output is, for a message: the file it writes, or "standard output". */
static const char *stdout_name(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/fd/1", buf, len - 1);

	if (n <= 0 || buf[0] != '/')	/* pipe:[N], socket:[N] */
		return "standard output";
	buf[n] = '\0';
	return buf;
}

/* The events, merged across CPUs and buffers, checked and filtered, as text or JSON lines. */
static int print_events(struct tm_dat *dat, const struct report_opts *o, struct tm_events *ev,
			struct cmd_warn *warn)
{
	struct tep_handle *tep = tm_events_tep(ev);
	struct status_line status;
	struct tm_meter meter;
	uint64_t skipped = 0;
	struct tm_run_opts run = {
		.cpu_mask = o->have_cpu_mask ? o->cpu_mask : NULL,
		.cpu_bits = REPORT_MAX_CPUS,
		.warn = cmd_warning,
		.warn_ctx = warn,
		.skipped = &skipped,
		/* the progress on stderr only while the events go elsewhere */
		.meter = status_meter(&status, &meter, "report", status_wanted(o->quiet, true)),
	};
	struct tm_print_opts print = o->print;
	struct tm_evout *out = NULL;
	int ret = TM_EXIT_FAIL, err = 0;
	char name[PATH_MAX];

	/* the printer filters: function_graph looks at the next record first */
	if (setup_filter(tep, o, &print.filter))
		goto out;
	print.wall_clock = tm_dat_has_date(dat);
	status.written = status_file_written;
	status.ctx = stdout;
	warn->status = &status;
	out = tm_evout_text_new(ev, &print, stdout);
	if (out && !tm_evout_run_dat(out, dat, tep, &run))
		ret = TM_EXIT_OK;
	else
		err = errno;
	status_clear(&status);
	warn->status = NULL;
	if (ret == TM_EXIT_OK)
		cmd_warn_summary(warn, o->input, skipped);
out:
	if (ret != TM_EXIT_OK)
		cmd_fail_output("report", stdout_name(name, sizeof(name)), err);
	tm_evout_free(out);
	tm_filter_free(print.filter);
	return ret;
}

static int run_report(const struct report_opts *o)
{
	struct cmd_warn warn = { .sub = "report", .quiet = o->quiet };
	struct tm_events *ev = NULL;
	struct tm_dat *dat;
	int ret = TM_EXIT_FAIL;

	dat = tm_dat_open(o->input);
	if (!dat)
		return cmd_fail("report");
	if (o->mode == MODE_STAT) {
		ret = print_stat(dat, o);
		goto out;
	}
	if (o->mode == MODE_FIRST_LAST) {
		ret = print_first_last(dat, o);
		goto out;
	}
	ev = tm_events_from_dat(dat, o->no_plugins, cmd_warning, &warn);
	if (!ev) {
		ret = cmd_fail("report");
		goto out;
	}
	if (o->mode == MODE_LIST_EVENTS)
		ret = list_events(tm_events_tep(ev));
	else
		ret = print_events(dat, o, ev, &warn);
out:
	tm_events_free(ev);
	tm_dat_close(dat);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	/*
	 * The printer writes its 256 KiB blocks to stdout's descriptor itself
	 * (print.c, write_obuf()); stdio carries only the other lines, so a
	 * small buffer is enough (a 1 MiB one cost 256 page faults).
	 */
	static char outbuf[64 << 10];
	struct report_opts o = { 0 };
	int ret;

	if (cmd_parse(&report_argp, argc, argv, 0, &o, examples))
		return TM_EXIT_USAGE;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	ret = run_report(&o);
	if (fflush(stdout) || ferror(stdout)) {
		char name[PATH_MAX];

		/* a failed write said so already: one line */
		if (ret != TM_EXIT_FAIL)
			cmd_err("report", "write %s: %s", stdout_name(name, sizeof(name)),
				strerror(errno));
		return TM_EXIT_FAIL;
	}
	return ret;
}
