// SPDX-License-Identifier: GPL-2.0-only
/* record.c - `tracemap record`: argp options (capture's plus the file's), then record_run(). */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "record.h"

enum {
	OPT_FILE_VERSION = 0x100,
	OPT_COMPRESSION,
	OPT_LEVEL,
	OPT_FAIL_ON_LOSS,
	OPT_DATE,
	OPT_FIXED_LEVEL,
	OPT_FLIGHT,
	OPT_SWITCH_OUTPUT,
	OPT_MAX_FILES,
	OPT_TRIGGER,
	OPT_POST,
	OPT_MAX_DUMPS,
	OPT_FLUSH_INTERVAL,
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Output:", 3 },
	{ "output", 'o', "FILE", 0, "output file (default trace.dat; '-' = stdout)", 3 },
	{ "file-version", OPT_FILE_VERSION, "6|7", 0, "trace.dat version (default 7)", 3 },
	{ "compression", OPT_COMPRESSION, "zstd|none", 0, "v7 compression (default zstd)", 3 },
	{ "compression-level", OPT_LEVEL, "N", 0, "zstd level (1-19; -50..-1: zstd's fast levels; default 1)", 3 },
	{ "fixed-level", OPT_FIXED_LEVEL, NULL, 0, "keep the zstd level even when a CPU's "
	  "buffer fills faster than it compresses (default: fall back to faster levels)", 3 },
	{ "date", OPT_DATE, NULL, 0, "store the wall-clock offset: report prints wall-clock "
	  "times (as trace-cmd record --date)", 3 },
	{ "flush-interval", OPT_FLUSH_INTERVAL, "SECONDS", 0, "write each CPU's compressed "
	  "pages to its spool at least this often, so a killed recording loses at most that "
	  "much (default 1; 0: only whole 1 MiB chunks)", 3 },
	{ "fail-on-loss", OPT_FAIL_ON_LOSS, NULL, 0, "exit 3 when events were lost", 4 },
	{ NULL, 0, NULL, 0, "Long recordings (-o trace.dat: files trace.0001.dat, trace.0002.dat, ...):", 5 },
	{ "flight", OPT_FLIGHT, "SIZE", 0, "flight recorder: keep the newest SIZE (e.g. 256M, "
	  "1G) of compressed data in memory; SIGUSR2 and the stop write it to a file", 5 },
	{ "switch-output", OPT_SWITCH_OUTPUT, "SIZE|TIME|signal", 0, "start a new file at SIZE "
	  "of event data (100M; metadata not counted), after TIME (30s, 10m, 1h) or on "
	  "SIGUSR2", 5 },
	{ "max-files", OPT_MAX_FILES, "N", 0, "keep only the newest N files", 5 },
	{ "trigger", OPT_TRIGGER, "SYSTEM:EVENT[:FILTER]", 0, "write a file when an event "
	  "matching the kernel FILTER happens (the window up to it with --flight, else all "
	  "since the last file)", 5 },
	{ "post", OPT_POST, "SECONDS", 0, "with --trigger: keep recording this long after the "
	  "event before writing (default 0.1)", 5 },
	{ "max-dumps", OPT_MAX_DUMPS, "N", 0, "stop after N files written on a trigger or "
	  "SIGUSR2 (no final file then)", 5 },
	{ 0 }
};

static const char doc[] =
	"Record ftrace events of a private tracefs instance into a trace.dat file."
	"\vWithout COMMAND, records until SIGINT/SIGTERM/SIGHUP or --duration. "
	"With COMMAND, records until it exits.\n\n"
	"Exit status: 0 ok, 1 failure, 2 usage error, 3 events lost with --fail-on-loss; "
	"else COMMAND's status (128+N: killed by signal N, 127: it could not be run).\n"
	"See tracemap-record(1).";

static const char examples[] =
	"  tracemap record -e sched -- sleep 1\n"
	"  tracemap record -e sched:sched_switch -f 'prev_pid != 0' --duration 5\n"
	"  tracemap record -e irq -M 1 -b 8192 -o irq.dat\n"
	"  tracemap record -F -c -e syscalls -- make\n"
	"  tracemap record -T -e sched:sched_process_fork -- make\n"
	"  tracemap record -F --uprobe=/lib/x86_64-linux-gnu/libc.so.6:malloc -- ls\n"
	"  tracemap record --kprobe='do_sys_openat2 dfd=%di:s32' --kprobe=do_sys_openat2%return "
	"-- ls\n"
	"  tracemap record -e sched --flight 256M            # SIGUSR2 writes trace.0001.dat\n"
	"  tracemap record -e sched --switch-output 1h --max-files 24\n"
	"  tracemap record -e sched --flight 64M --trigger 'ftrace:print:buf ~ \"*STALL*\"'\n";

/* --switch-output: "signal", a time (30s, 10m, 1h, 1d) or a size (100M, 1G). */
static void switch_arg(struct argp_state *state, struct record_opts *o, const char *s)
{
	bool is_time = false;

	if (!strcmp(s, "signal"))
		o->switch_signal = true;
	else if (!(is_time = parse_seconds(s, true, &o->switch_secs)) &&
		 !parse_size(s, true, &o->switch_bytes))
		argp_error(state, "bad --switch-output '%s' (expected SIZE like 100M or 1G, TIME "
			   "like 30s, 10m or 1h, or signal)", s);
	/* 0s too: a zero time would otherwise turn rotation off without a word */
	if (is_time && o->switch_secs < 0.1)
		argp_error(state, "--switch-output '%s' is too short (at least 0.1s)", s);
}

static uint64_t flight_arg(struct argp_state *state, const char *s)
{
	uint64_t v;

	if (!parse_size(s, false, &v) || v < (64u << 10))
		argp_error(state, "bad --flight size '%s' (expected 64K or more, like 256M or 1G)",
			   s);
	return v;
}

static double post_arg(struct argp_state *state, const char *s)
{
	double v;

	if (!parse_seconds(s, false, &v))
		argp_error(state, "bad --post '%s' (expected seconds, like 0.1 or 2s)", s);
	return v;
}

static double flush_arg(struct argp_state *state, const char *s)
{
	double v;

	if (!parse_seconds(s, false, &v) || v > 3600)
		argp_error(state, "bad --flush-interval '%s' (expected seconds from 0 to 3600, "
			   "like 0.5 or 2s)", s);
	return v;
}

/* The long-recording options only make sense together like this. */
static void check_long(struct argp_state *state, const struct record_opts *o)
{
	bool rotate = o->switch_bytes || o->switch_secs > 0 || o->switch_signal;

	if (o->flight_bytes && rotate)
		argp_error(state, "--flight and --switch-output exclude each other");
	if (o->max_files && !record_is_long(o))
		argp_error(state, "--max-files needs --flight, --switch-output or --trigger");
	if (o->post_set && !o->trigger)
		argp_error(state, "--post needs --trigger");
	if (o->max_dumps && !o->trigger && !o->flight_bytes)
		argp_error(state, "--max-dumps needs --trigger or --flight");
	if (record_is_long(o) && !strcmp(o->output, "-"))
		argp_error(state, "numbered output files cannot go to stdout: use -o FILE");
	/* OUTPUT.0001 beside /dev/null is nothing anyone wants */
	if (record_is_long(o) && tm_outfile_is_stream(o->output))
		argp_error(state, "numbered output files need -o to name a regular file: %s is "
			   "not one", o->output);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct record_opts *o = state->input;

	if (arg && key != ARGP_KEY_ARG)
		capture_note_arg(&o->cap, arg);
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->cap;
		break;
	case 'o': o->output = arg; break;
	case OPT_FILE_VERSION: o->file_version = arg_file_version(state, arg); break;
	case OPT_COMPRESSION:
		o->compression = arg_compression(state, arg);
		o->compression_set = true;
		break;
	case OPT_LEVEL:
		o->level = arg_long(state, "compression level", arg, -50, 19);
		if (!o->level)
			argp_error(state, "bad compression level '0' (expected -50..-1 or 1-19)");
		break;
	case OPT_FAIL_ON_LOSS: o->fail_on_loss = true; break;
	case OPT_DATE: o->date = true; break;
	case OPT_FIXED_LEVEL: o->fixed_level = true; break;
	case OPT_FLIGHT: o->flight_bytes = flight_arg(state, arg); break;
	case OPT_SWITCH_OUTPUT: switch_arg(state, o, arg); break;
	case OPT_MAX_FILES: o->max_files = arg_long(state, "--max-files", arg, 1, 1000000); break;
	case OPT_TRIGGER:
		if (o->trigger)
			argp_error(state, "only one --trigger");
		o->trigger = arg;
		break;
	case OPT_POST: o->post = post_arg(state, arg); o->post_set = true; break;
	case OPT_FLUSH_INTERVAL: o->flush_secs = flush_arg(state, arg); break;
	case OPT_MAX_DUMPS: o->max_dumps = arg_long(state, "--max-dumps", arg, 1, 1000000); break;
	case ARGP_KEY_END:
		check_long(state, o);
		if (!tm_dat_version_compressed((int)o->file_version) && o->compression_set &&
		    o->compression != TM_COMPRESS_NONE)
			argp_error(state, "--file-version %ld files are uncompressed",
				   o->file_version);
		if (!*o->output)
			argp_error(state, "empty output file name");
		capture_check_events(state, &o->cap);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = {
		.output = "trace.dat",
		.file_version = 7,
		.compression = TM_COMPRESS_ZSTD,
		.level = 1,
		.post = 0.1,
		.flush_secs = 1,
	};
	int ret;

	capture_opts_init(&o.cap);
	capture_parse_args(argc, argv, options, parse_opt, doc, examples, &o);
	if (!tm_dat_version_compressed((int)o.file_version))
		o.compression = TM_COMPRESS_NONE;
	ret = record_is_long(&o) ? record_long_run(&o) : record_run(&o);
	capture_opts_free(&o.cap);
	return ret;
}
