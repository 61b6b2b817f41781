// SPDX-License-Identifier: GPL-2.0-only
/* convert.c - `tracemap convert`: a trace.dat file as a Perfetto trace or Chrome trace-event JSON. */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "inputs.h"
#include "status.h"
#include "tracemap.h"

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

#define CONVERT_MAX_INPUTS	CMD_MAX_INPUTS

/*
 * The output formats, the one list of them: --to's names, the suffixes of
 * OUT that choose one, --help's words, the output each writes. The
 * completions and the man page are checked against it
 * (tests/formats-check.sh reads `convert --list-formats`).
 */
struct convert_format {
	const char	*name;			/* --to NAME */
	const char	*suffixes[3];		/* OUT's, NULL-ended */
	const char	*what;
	struct tm_evout	*(*open)(FILE *f);
};

static const struct convert_format formats[] = {
	{ "perfetto", { ".pftrace", ".perfetto-trace" }, "Perfetto protobuf trace",
	  tm_evout_perfetto_new },
	{ "json", { ".json" }, "Chrome trace-event JSON", tm_evout_chrome_new },
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* The suffixes after a format's that compress OUT. */
static const struct {
	const char	*suffix;
	enum out_codec	codec;
	const char	*what;
} codecs[] = {
	{ ".gz", OUT_GZIP, "gzip-compressed" },
	{ ".zst", OUT_ZSTD, "zstd-compressed" },
};

struct convert_opts {
	const char		*inputs[CONVERT_MAX_INPUTS];
	int			ninputs;
	const char		*output;
	const struct convert_format *to;	/* NULL: from OUT's suffix */
	enum out_codec		codec;		/* OUT ends in .gz or .zst */
	bool			no_plugins;
	bool			quiet;
};

enum {
	OPT_TO = 256,
	OPT_LIST_FORMATS,
};

static struct argp_option options[] = {
	{ "input", 'i', "FILE", 0, "Read FILE (bare FILE arguments also work; several files "
	  "go on one timeline)", 0 },
	{ "output", 'o', "OUT", 0, "Write OUT ('-': standard output, needs --to)", 0 },
	{ "to", OPT_TO, "FORMAT", 0, NULL, 0 },	/* its text: to_doc() */
	{ "list-formats", OPT_LIST_FORMATS, NULL, OPTION_HIDDEN,
	  "Print the formats, one a line: name, suffixes, description (tab-separated)", 0 },
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

static bool has_suffix(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);

	return n >= m && !strncmp(s + n - m, suffix, m);
}

/* The format OUT's suffix names (before a .gz or .zst, which asks for compression). */
static const struct convert_format *format_of(const char *out, enum out_codec *codec)
{
	size_t n = strlen(out), i, j;

	*codec = OUT_PLAIN;
	for (i = 0; i < ARRAY_LEN(codecs); i++) {
		if (has_suffix(out, n, codecs[i].suffix)) {
			*codec = codecs[i].codec;
			n -= strlen(codecs[i].suffix);
			break;
		}
	}
	for (i = 0; i < ARRAY_LEN(formats); i++)
		for (j = 0; formats[i].suffixes[j]; j++)
			if (has_suffix(out, n, formats[i].suffixes[j]))
				return &formats[i];
	return NULL;
}

static const struct convert_format *format_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(formats); i++)
		if (!strcmp(name, formats[i].name))
			return &formats[i];
	return NULL;
}

/* The format names, each after prefix, joined by " or ": "perfetto or json". */
static const char *format_names(char *buf, size_t len, const char *prefix)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_LEN(formats) && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s%s", i ? " or " : "", prefix,
				       formats[i].name);
	return buf;
}

/* The table as --list-formats prints it: name, suffixes, what it is. */
static void list_formats(void)
{
	for (size_t i = 0; i < ARRAY_LEN(formats); i++) {
		printf("%s\t", formats[i].name);
		for (size_t j = 0; formats[i].suffixes[j]; j++)
			printf("%s%s", j ? " " : "", formats[i].suffixes[j]);
		printf("\t%s\n", formats[i].what);
	}
}

/*
 * --to's --help text from the tables: "perfetto (Perfetto protobuf trace) or
 * json (...); default from OUT's suffix: .pftrace/.perfetto-trace or .json
 * (each also with .gz: gzip-compressed, or .zst: zstd-compressed)".
 */
static const char *to_doc(void)
{
	static char doc[512];
	size_t at = 0, i, j;

#define DOC(...)	(at += at < sizeof(doc) ? (size_t)snprintf(doc + at, sizeof(doc) - at, \
								  __VA_ARGS__) : 0)
	for (i = 0; i < ARRAY_LEN(formats); i++)
		DOC("%s%s (%s)", i ? " or " : "", formats[i].name, formats[i].what);
	DOC("; default from OUT's suffix: ");
	for (i = 0; i < ARRAY_LEN(formats); i++)
		for (j = 0; formats[i].suffixes[j]; j++)
			DOC("%s%s", j ? "/" : i ? " or " : "", formats[i].suffixes[j]);
	DOC(" (each also with ");
	for (i = 0; i < ARRAY_LEN(codecs); i++)
		DOC("%s%s: %s", i ? ", or " : "", codecs[i].suffix, codecs[i].what);
	DOC(")");
#undef DOC
	return doc;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct convert_opts *o = state->input;
	const struct convert_format *guess;
	char names[128];

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
		o->to = format_named(arg);
		if (!o->to)
			argp_error(state, "unknown target '%s' (%s)", arg,
				   format_names(names, sizeof(names), ""));
		return 0;
	case OPT_LIST_FORMATS:
		list_formats();
		exit(fflush(stdout) ? TM_EXIT_FAIL : TM_EXIT_OK);
	case ARGP_KEY_END:
		if (!o->ninputs)
			argp_error(state, "no input file");
		if (!o->output)
			argp_error(state, "no output file (-o OUT)");
		guess = format_of(o->output, &o->codec);
		if (!o->to)
			o->to = guess;
		if (!o->to)
			argp_error(state, "cannot tell the format from '%s': give %s", o->output,
				   format_names(names, sizeof(names), "--to "));
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
	/* the FILE has a descriptor of its own: fclose() leaves tm_outfile's to close */
	fd = fcntl(of->out.fd, F_DUPFD_CLOEXEC, 0);
	of->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!of->f) {
		cmd_err("convert", "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
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
	return ok ? 0 : -1;
}

/*
 * One machine's files into out (a new output each time, on the same FILE):
 * decoded with the first file's formats and the events only later files have.
 * Its warning line, if any, in *warning.
 */
static int run_machine(const struct convert_opts *o, struct cmd_inputs *in, int mach, FILE *f,
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
	for (i = 1; ev && i < n; i++)
		tm_events_add_formats(ev, dats[i], run->warn, run->warn_ctx);
	if (ev)
		out = o->to->open(f);
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
	static struct cmd_inputs in;
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
	int ret = TM_EXIT_FAIL, mach, err;
	bool ok = true;

	if (cmd_inputs_open(&in, o->inputs, o->ninputs, "convert"))
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
	err = errno;
	status_clear(&status);
	if (!ok) {
		cmd_fail_output("convert", of.out.is_stdout ? "standard output" : o->output, err);
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
	cmd_inputs_close(&in);
	return ret;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts o = { 0 };

	for (struct argp_option *opt = options; opt->name; opt++)
		if (opt->key == OPT_TO)
			opt->doc = to_doc();
	if (cmd_parse(&convert_argp, argc, argv, 0, &o, examples))
		return TM_EXIT_USAGE;
	return run_convert(&o);
}
