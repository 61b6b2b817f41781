// SPDX-License-Identifier: GPL-2.0-only
/* convert.c - `tracemap convert`: a trace.dat file as a Perfetto trace or Chrome trace-event JSON. */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "status.h"
#include "tracemap.h"

enum convert_target {
	TO_GUESS,
	TO_PERFETTO,
	TO_JSON,
};

struct convert_opts {
	const char		*input;
	const char		*output;
	enum convert_target	to;
	bool			no_plugins;
	bool			quiet;
};

enum {
	OPT_TO = 256,
};

static const struct argp_option options[] = {
	{ "input", 'i', "FILE", 0, "Read FILE (a bare FILE argument also works)", 0 },
	{ "output", 'o', "OUT", 0, "Write OUT ('-': standard output, needs --to)", 0 },
	{ "to", OPT_TO, "FORMAT", 0,
	  "perfetto (Perfetto protobuf trace) or json (Chrome trace-event JSON); "
	  "default from OUT's suffix: .pftrace/.perfetto-trace or .json", 0 },
	{ "no-plugins", 'N', NULL, 0, "Do not load libtraceevent plugins", 0 },
	{ "quiet", 'q', NULL, 0, "No warnings about damaged input, no progress line", 0 },
	{ 0 }
};

static const char doc[] =
	"Convert a trace.dat file (tracemap's or trace-cmd's, v6 or v7) for trace viewers.\v"
	"Perfetto output keeps every event: sched_switch and sched_waking in Perfetto's "
	"compact_sched form, other sched, task, irq, power and print events as Perfetto's "
	"typed messages, all others as described generic events with every field; plus "
	"thread names from the saved cmdlines, the trace clock, lost-event flags and the "
	"kernel's per-CPU buffer statistics. Chrome JSON has one slice per stretch a task "
	"ran on a CPU (from sched_switch) and an instant event for every other event.\n"
	"A regular OUT is written under a temporary name and renamed when complete; a device, "
	"FIFO or pipe is written straight through.";

static const char examples[] =
	"  tracemap convert trace.dat -o trace.pftrace      # open in ui.perfetto.dev\n"
	"  tracemap convert -i trace.dat -o trace.json      # chrome://tracing, Perfetto\n"
	"  tracemap convert trace.dat --to json -o - | jq '.traceEvents | length'\n";

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct convert_opts *o = state->input;

	switch (key) {
	case 'i':
	case ARGP_KEY_ARG:
		if (o->input)
			argp_error(state, "only one input file");
		o->input = arg;
		return 0;
	case 'o': o->output = arg; return 0;
	case 'N': o->no_plugins = true; return 0;
	case 'q': o->quiet = true; return 0;
	case OPT_TO:
		if (!strcmp(arg, "perfetto"))
			o->to = TO_PERFETTO;
		else if (!strcmp(arg, "json"))
			o->to = TO_JSON;
		else
			argp_error(state, "unknown target '%s' (perfetto or json)", arg);
		return 0;
	case ARGP_KEY_END:
		if (!o->input)
			argp_error(state, "no input file");
		if (!o->output)
			argp_error(state, "no output file (-o OUT)");
		if (o->to == TO_GUESS && (has_suffix(o->output, ".pftrace") ||
					  has_suffix(o->output, ".perfetto-trace")))
			o->to = TO_PERFETTO;
		else if (o->to == TO_GUESS && has_suffix(o->output, ".json"))
			o->to = TO_JSON;
		if (o->to == TO_GUESS)
			argp_error(state, "cannot tell the format from '%s': give --to perfetto or --to json",
				   o->output);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp convert_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[FILE]",
	.doc = doc,
};

/*
 * OUT as a FILE: a regular file is written as a hidden temporary beside it
 * (beside a link's target) and renamed into place at the end; a device, a
 * FIFO or standard output is written straight through (tm_outfile_open()).
 */
struct out_file {
	struct tm_outfile	out;
	FILE			*f;
};

/* The temporary a stop signal removes (the one process-wide state of convert). */
static char *volatile signal_unlink;

static void on_stop_signal(int sig)
{
	if (signal_unlink)
		unlink(signal_unlink);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_stop_signals(char *tmp)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_stop_signal };
	size_t i;

	signal_unlink = tmp;
	for (i = 0; tmp && i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static int out_open(struct out_file *of, const char *path)
{
	int fd;

	if (tm_outfile_open(&of->out, path, TM_OUTFILE_REPLACE)) {
		cmd_fail("convert");
		tm_outfile_close(&of->out, false);
		return -1;
	}
	if (of->out.is_stdout) {
		of->f = stdout;
		return 0;
	}
	catch_stop_signals(of->out.tmp[0] ? of->out.tmp : NULL);
	/* the FILE has a descriptor of its own: fclose() leaves tm_outfile's to close */
	fd = fcntl(of->out.fd, F_DUPFD_CLOEXEC, 0);
	of->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!of->f) {
		cmd_err("convert", "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		signal_unlink = NULL;
		tm_outfile_close(&of->out, false);
		return -1;
	}
	return 0;
}

/* ok: flush and move into place; else remove the temporary. */
static int out_close(struct out_file *of, const char *path, bool ok)
{
	if (ok && (fflush(of->f) || ferror(of->f))) {
		cmd_err("convert", "write %s: %s", path, strerror(errno));
		ok = false;
	}
	if (of->f != stdout && fclose(of->f) && ok) {
		cmd_err("convert", "write %s: %s", path, strerror(errno));
		ok = false;
	}
	if (tm_outfile_close(&of->out, ok) && ok) {
		cmd_fail("convert");
		ok = false;
	}
	signal_unlink = NULL;
	return ok ? 0 : -1;
}

static int run_convert(const struct convert_opts *o)
{
	static char iobuf[1 << 20];
	struct status_line status;
	struct tm_meter meter;
	struct cmd_warn warn = { .sub = "convert", .quiet = o->quiet, .status = &status };
	uint64_t skipped = 0;
	struct tm_run_opts run = {
		.warn = cmd_warning,
		.warn_ctx = &warn,
		.skipped = &skipped,
		/* the progress on stderr, unless the output goes to that terminal */
		.meter = status_meter(&status, &meter, "convert",
				      status_wanted(o->quiet, !strcmp(o->output, "-"))),
	};
	struct tm_evout *out = NULL;
	struct tm_events *ev = NULL;
	struct out_file of;
	struct tm_dat *dat;
	int ret = TM_EXIT_FAIL;
	bool ok;

	dat = tm_dat_open(o->input);
	if (!dat)
		return cmd_fail("convert");
	ev = tm_events_from_dat(dat, o->no_plugins, cmd_warning, &warn);
	if (!ev) {
		ret = cmd_fail("convert");
		goto out;
	}
	if (out_open(&of, o->output))
		goto out;
	setvbuf(of.f, iobuf, _IOFBF, sizeof(iobuf));
	status.written = status_file_written;
	status.ctx = of.f;
	out = o->to == TO_PERFETTO ? tm_evout_perfetto_new(of.f) : tm_evout_chrome_new(of.f);
	ok = out && !tm_evout_run_dat(out, dat, tm_events_tep(ev), &run);
	status_clear(&status);
	if (!ok) {
		cmd_fail("convert");
		out_close(&of, o->output, false);
		goto out;
	}
	if (!out_close(&of, o->output, true)) {
		cmd_warn_summary(&warn, o->input, skipped);
		ret = TM_EXIT_OK;
	}
	if (ret == TM_EXIT_OK && tm_evout_warning(out))
		cmd_err("convert", "warning: %s", tm_evout_warning(out));
out:
	tm_evout_free(out);
	tm_events_free(ev);
	tm_dat_close(dat);
	return ret;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts o = { 0 };

	if (cmd_parse(&convert_argp, argc, argv, 0, &o, examples))
		return TM_EXIT_USAGE;
	return run_convert(&o);
}
