// SPDX-License-Identifier: GPL-2.0-only
/* recover.c - `tracemap recover`: the spools of a killed recording into a trace.dat. */
#include <argp.h>
#include <stdio.h>

#include "cmd.h"
#include "tracemap.h"

#define SUB	"recover"

struct recover_opts {
	const char	*output;
	bool		quiet;
};

static const struct argp_option options[] = {
	{ "quiet", 'q', NULL, 0, "no summary", 0 },
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

int cmd_recover(int argc, char **argv)
{
	const struct argp argp = {
		.options = options, .parser = parse_opt, .args_doc = "OUTPUT", .doc = doc,
	};
	struct recover_opts o = { 0 };
	struct tm_recover_result res;
	const char *tracefs;

	tm_cmd_parse(&argp, argc, argv, 0, &o, examples);
	tracefs = tm_tracefs_open(false);
	if (!tracefs || tm_recover(o.output, tracefs, &res))
		return cmd_fail(SUB);
	if (res.dropped)
		cmd_err(SUB, "cut %llu bytes of a torn or damaged last chunk",
			   (unsigned long long)res.dropped);
	if (!o.quiet)
		cmd_err(SUB, "%s: %llu pages from %d CPU%s; the metadata (event formats%s, "
			   "kallsyms, task names) is read from tracefs now, not at recording "
			   "time", o.output, (unsigned long long)res.pages, res.cpus,
			   res.cpus == 1 ? "" : "s",
			   res.from_instance ? " of the recording's instance" : "");
	return TM_EXIT_OK;
}
