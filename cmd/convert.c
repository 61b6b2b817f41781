// SPDX-License-Identifier: GPL-2.0-only
/* convert.c - `tracemap convert`: a trace.dat file as a Perfetto trace or Chrome trace-event JSON. */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

/* How OUT's bytes are stored: as written, or compressed by its last suffix. */
enum out_codec {
	OUT_PLAIN,
	OUT_GZIP,	/* .gz */
	OUT_ZSTD,	/* .zst */
};

/*
 * zstd's level for .zst: on this project's benchmark Perfetto outputs, 6 is
 * where the size levels off (9 and 12 gain under 1%, 16 and up cost 10-40x the
 * time), 12-26% smaller than gzip -6 in about two thirds of its time
 * (docs/PERFORMANCE.md).
 */
#define CONVERT_ZSTD_LEVEL	6

#define CONVERT_MAX_INPUTS	4096

struct convert_opts {
	const char		*inputs[CONVERT_MAX_INPUTS];
	int			ninputs;
	const char		*output;
	enum convert_target	to;
	enum out_codec		codec;		/* OUT ends in .gz or .zst */
	bool			no_plugins;
	bool			quiet;
};

enum {
	OPT_TO = 256,
};

static const struct argp_option options[] = {
	{ "input", 'i', "FILE", 0, "Read FILE (bare FILE arguments also work; several files "
	  "go on one timeline)", 0 },
	{ "output", 'o', "OUT", 0, "Write OUT ('-': standard output, needs --to)", 0 },
	{ "to", OPT_TO, "FORMAT", 0,
	  "perfetto (Perfetto protobuf trace) or json (Chrome trace-event JSON); "
	  "default from OUT's suffix: .pftrace/.perfetto-trace or .json (each also with .gz: "
	  "gzip-compressed, or .zst: zstd-compressed)", 0 },
	{ "no-plugins", 'N', NULL, 0, "Do not load libtraceevent plugins", 0 },
	{ "quiet", 'q', NULL, 0, "No warnings about damaged input, no progress line", 0 },
	{ 0 }
};

static const char doc[] =
	"Convert trace.dat files (tracemap's or trace-cmd's, v6 or v7) for trace viewers.\v"
	"Perfetto output keeps every event: sched_switch and sched_waking in Perfetto's "
	"compact_sched form; sched, task, irq, power, print, syscall, signal, workqueue and "
	"function_graph events as Perfetto's typed messages (kernel functions as interned "
	"symbols); all others as described generic events with every field; plus "
	"thread names from the saved cmdlines, the trace clock, lost-event flags and the "
	"kernel's per-CPU buffer statistics. Chrome JSON has one slice per stretch a task "
	"ran on a CPU (from sched_switch), on its task's row and on a row per CPU, "
	"function_graph calls as slices on their task's row named by the kernel function, "
	"and an instant event for every other event.\n"
	"Several FILEs go on one timeline: the numbered files of a --switch-output recording "
	"in time order, overlapping --flight dumps with each event once (same buffer, CPU, "
	"time and payload: one event), and files of other machines (another UNAME or CPU "
	"count) as a machine each, aligned by their wall-clock DATE options (record --date; "
	"refused without). OUT ending in .gz is written gzip-compressed, in .zst "
	"zstd-compressed (Perfetto opens gzip as it is, zstd from v58 on).\n"
	"A regular OUT is written under a temporary name and renamed when complete; a device, "
	"FIFO or pipe is written straight through.";

static const char examples[] =
	"  tracemap convert trace.dat -o trace.pftrace      # open in ui.perfetto.dev\n"
	"  tracemap convert -i trace.dat -o trace.json      # chrome://tracing, Perfetto\n"
	"  tracemap convert trace.dat --to json -o - | jq '.traceEvents | length'\n"
	"  tracemap convert trace.dat -o trace.pftrace.gz     # gzip, opened as is\n"
	"  tracemap convert trace.dat -o trace.pftrace.zst    # smaller; Perfetto >= v58\n"
	"  tracemap convert run.0001.dat run.0002.dat -o run.pftrace\n"
	"  tracemap convert host.dat guest.dat -o both.pftrace   # both: record --date\n";

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The target OUT's suffix names (before a .gz or .zst, which asks for compression). */
static enum convert_target target_of(const char *out, enum out_codec *codec)
{
	char name[PATH_MAX];
	size_t n = strlen(out);

	*codec = OUT_PLAIN;
	if (has_suffix(out, ".gz")) {
		*codec = OUT_GZIP;
		n -= 3;
	} else if (has_suffix(out, ".zst")) {
		*codec = OUT_ZSTD;
		n -= 4;
	}
	snprintf(name, sizeof(name), "%.*s", (int)n, out);
	if (has_suffix(name, ".pftrace") || has_suffix(name, ".perfetto-trace"))
		return TO_PERFETTO;
	return has_suffix(name, ".json") ? TO_JSON : TO_GUESS;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct convert_opts *o = state->input;
	enum convert_target guess;

	switch (key) {
	case 'i':
	case ARGP_KEY_ARG:
		if (o->ninputs == CONVERT_MAX_INPUTS)
			argp_error(state, "more than %d input files", CONVERT_MAX_INPUTS);
		o->inputs[o->ninputs++] = arg;
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
		if (!o->ninputs)
			argp_error(state, "no input file");
		if (!o->output)
			argp_error(state, "no output file (-o OUT)");
		guess = target_of(o->output, &o->codec);
		if (o->to == TO_GUESS)
			o->to = guess;
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
	.args_doc = "[FILE...]",
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
	FILE			*gz;		/* NULL, or gzip/zstd into f: what the output writes */
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

static int out_close(struct out_file *of, const char *path, bool ok);

/* OUT.gz, OUT.zst: the outputs write into a compressed stream on the file. */
static int out_compress(struct out_file *of, const char *path, enum out_codec codec)
{
	if (codec == OUT_PLAIN)
		return 0;
	of->gz = codec == OUT_GZIP ? tm_gzip_open(of->f) : tm_zstd_open(of->f, CONVERT_ZSTD_LEVEL);
	if (of->gz)
		return 0;
	cmd_err("convert", "%s: %s", path, tm_last_error());
	out_close(of, path, false);
	return -1;
}

static int out_open(struct out_file *of, const char *path, enum out_codec codec)
{
	int fd;

	of->gz = NULL;
	if (tm_outfile_open(&of->out, path, TM_OUTFILE_REPLACE)) {
		cmd_fail("convert");
		tm_outfile_close(&of->out, false);
		return -1;
	}
	if (of->out.is_stdout) {
		of->f = stdout;
		return out_compress(of, path, codec);
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
	return out_compress(of, path, codec);
}

/* ok: flush and move into place; else remove the temporary. */
static int out_close(struct out_file *of, const char *path, bool ok)
{
	if (of->gz && fclose(of->gz) && ok) {
		cmd_err("convert", "write %s: %s", path, strerror(errno));
		ok = false;
	}
	of->gz = NULL;
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

/* The files to convert, open, and the machine of each. */
struct inputs {
	struct tm_dat	*dat[CONVERT_MAX_INPUTS];
	int		machine[CONVERT_MAX_INPUTS];
	int		n, machines;
};

static void inputs_close(struct inputs *in)
{
	while (in->n)
		tm_dat_close(in->dat[--in->n]);
}

static int inputs_open(struct inputs *in, const struct convert_opts *o)
{
	for (in->n = 0; in->n < o->ninputs; in->n++) {
		in->dat[in->n] = tm_dat_open(o->inputs[in->n]);
		if (!in->dat[in->n])
			return cmd_fail("convert");
	}
	in->machines = tm_dat_machines(in->dat, in->n, in->machine);
	return in->machines < 0 ? cmd_fail("convert") : 0;
}

static struct tm_evout *new_output(const struct convert_opts *o, FILE *f)
{
	return o->to == TO_PERFETTO ? tm_evout_perfetto_new(f) : tm_evout_chrome_new(f);
}

/*
 * One machine's files into out (a new output each time, on the same FILE):
 * decoded with the first file's formats. Its warning line, if any, in *warning.
 */
static int run_machine(const struct convert_opts *o, struct inputs *in, int mach, FILE *f,
		       struct tm_run_opts *run, char *warning, size_t wlen)
{
	struct tm_dat *dats[CONVERT_MAX_INPUTS];
	struct tm_evout *out = NULL;
	struct tm_events *ev;
	int i, n = 0, ret = -1;

	for (i = 0; i < in->n; i++)
		if (in->machine[i] == mach)
			dats[n++] = in->dat[i];
	ev = tm_events_from_dat(dats[0], o->no_plugins, run->warn, run->warn_ctx);
	if (ev)
		out = new_output(o, f);
	run->machine = mach;
	run->machines = in->machines;
	if (out && !tm_evout_run_dats(out, dats, n, tm_events_tep(ev), run))
		ret = 0;
	if (!ret && tm_evout_warning(out) && !*warning)
		snprintf(warning, wlen, "%s", tm_evout_warning(out));
	tm_evout_free(out);
	tm_events_free(ev);
	return ret;
}

static int run_convert(const struct convert_opts *o)
{
	static char iobuf[1 << 20];
	static struct inputs in;
	struct status_line status;
	struct tm_meter meter;
	struct cmd_warn warn = { .sub = "convert", .quiet = o->quiet, .status = &status };
	uint64_t skipped = 0, all_skipped = 0;
	struct tm_run_opts run = {
		.warn = cmd_warning,
		.warn_ctx = &warn,
		.skipped = &skipped,
		/* the progress on stderr, unless the output goes to that terminal */
		.meter = status_meter(&status, &meter, "convert",
				      status_wanted(o->quiet, !strcmp(o->output, "-"))),
	};
	char warning[256] = "";
	struct out_file of;
	int ret = TM_EXIT_FAIL, mach;
	bool ok = true;

	if (inputs_open(&in, o))
		goto out;
	if (out_open(&of, o->output, o->codec))
		goto out;
	setvbuf(of.gz ?: of.f, iobuf, _IOFBF, sizeof(iobuf));
	status.written = status_file_written;
	status.ctx = of.f;
	for (mach = 0; ok && mach < in.machines; mach++) {
		ok = !run_machine(o, &in, mach, of.gz ?: of.f, &run, warning, sizeof(warning));
		all_skipped += skipped;
	}
	status_clear(&status);
	if (!ok) {
		cmd_fail("convert");
		out_close(&of, o->output, false);
		goto out;
	}
	if (!out_close(&of, o->output, true)) {
		cmd_warn_summary(&warn, in.n > 1 ? "the input files" : o->inputs[0], all_skipped);
		ret = TM_EXIT_OK;
	}
	if (ret == TM_EXIT_OK && *warning)
		cmd_err("convert", "warning: %s", warning);
out:
	inputs_close(&in);
	return ret;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts o = { 0 };

	if (cmd_parse(&convert_argp, argc, argv, 0, &o, examples))
		return TM_EXIT_USAGE;
	return run_convert(&o);
}
