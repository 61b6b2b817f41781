// SPDX-License-Identifier: GPL-2.0-only
/* recover.c - `tracemap recover`: the spools of a killed recording into a trace.dat. */
#include <argp.h>
#include <stdio.h>

#include "cmd.h"
#include "status.h"
#include "tracemap.h"

#define SUB	"recover"

struct recover_opts {
	const char	*output;
	bool		quiet;
};

static const struct argp_option options[] = {
	{ "quiet", 'q', NULL, 0, "no summary, no progress line", 0 },
	{ 0 }
};

static const char doc[] =
	"Make a trace.dat file OUTPUT from the spools OUTPUT.cpuN.spool that a recording "
	"which did not end normally left (tracemap killed by SIGKILL or the OOM killer, a "
	"full disk), like trace-cmd restore."
	"\vEvery compressed chunk is checked; a torn last chunk is cut off. The metadata "
	"(event formats, kallsyms, printk formats, task names) is read from tracefs now, "
	"not at recording time: the file's VERSION option says so. The spools and their "
	"note OUTPUT.spool-info are removed once the file is written. 'tracemap reset' "
	"names the spools it finds in the current directory and $TMPDIR.\n\n"
	"Exit status: 0 ok, 1 failure (no spools, the recording still runs), 2 usage error.\n"
	"See tracemap-recover(1).";

static const char examples[] = "  tracemap recover trace.dat\n";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct recover_opts *o = state->input;

	switch (key) {
	case 'q': o->quiet = true; break;
	case ARGP_KEY_ARG:
		if (o->output)
			argp_error(state, "unexpected argument '%s'", arg);
		if (!*arg)
			argp_error(state, "empty output file name");
		o->output = arg;
		break;
	case ARGP_KEY_END:
		if (!o->output)
			argp_error(state, "missing OUTPUT (the -o file of the recording)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* What came back, CPU by CPU, and from where. */
static void print_result(const char *output, const struct tm_recover_result *res)
{
	cmd_err(SUB, "%s: %llu events, %llu pages from %d CPU%s; the metadata (event formats%s, "
		"kallsyms, task names) is read from tracefs now, not at recording time", output,
		(unsigned long long)res->events, (unsigned long long)res->pages, res->cpus,
		res->cpus == 1 ? "" : "s", res->from_instance ? " of the recording's instance" : "");
	for (int cpu = 0; cpu < res->ncpus; cpu++) {
		const struct tm_recover_cpu *c = &res->cpu[cpu];

		if (c->spooled || c->ring)
			fprintf(stderr, "  cpu%d: %llu events from its spool, %llu from the ring\n",
				cpu, (unsigned long long)c->spooled, (unsigned long long)c->ring);
	}
	if (res->ring_taken)
		cmd_err(SUB, "instance %s: its ring is in %s; the instance is removed%s%s%s",
			res->instance, output, res->uprobes || res->kprobes ? ", with its " : "",
			res->uprobes ? (res->kprobes ? "uprobes and " : "uprobes") : "",
			res->kprobes ? "kprobes" : "");
}

int cmd_recover(int argc, char **argv)
{
	const struct argp argp = {
		.options = options, .parser = parse_opt, .args_doc = "OUTPUT", .doc = doc,
	};
	struct recover_opts o = { 0 };
	struct tm_recover_result res;
	struct status_line status;
	struct tm_meter meter, *m;
	const char *tracefs;
	int r;

	cmd_parse(&argp, argc, argv, 0, &o, examples);
	tracefs = tm_tracefs_open(false);
	if (!tracefs)
		return cmd_fail(SUB);
	m = status_meter(&status, &meter, SUB, status_wanted(o.quiet, false));
	r = tm_recover(o.output, tracefs, &res, m);
	status_clear(&status);
	if (r)
		return cmd_fail(SUB);
	if (res.dropped)
		cmd_err(SUB, "cut %llu bytes of a torn or damaged last chunk",
			   (unsigned long long)res.dropped);
	if (!o.quiet)
		print_result(o.output, &res);
	return TM_EXIT_OK;
}
