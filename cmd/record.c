// SPDX-License-Identifier: GPL-2.0-only
/* record.c - `tracemap record`: argp options (capture's plus the file's), then record_run(). */
#include <argp.h>
#include <stdlib.h>

#include "cmd.h"
#include "record.h"

enum {
	OPT_FILE_VERSION = 0x100,
	OPT_COMPRESSION,
	OPT_LEVEL,
	OPT_FAIL_ON_LOSS,
	OPT_DATE,
	OPT_FIXED_LEVEL,
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
	{ "fail-on-loss", OPT_FAIL_ON_LOSS, NULL, 0, "exit 3 when events were lost", 4 },
	{ 0 }
};

static const char doc[] =
	"Record ftrace events of a private tracefs instance into a trace.dat file."
	"\vWithout COMMAND, records until SIGINT/SIGTERM/SIGHUP or --duration. "
	"With COMMAND, records until it exits.\n\n"
	"Examples:\n"
	"  tracemap record -e sched -- sleep 1\n"
	"  tracemap record -e sched:sched_switch -f 'prev_pid != 0' --duration 5\n"
	"  tracemap record -e irq -M 1 -b 8192 -o irq.dat\n"
	"  tracemap record -F -c -e syscalls -- make\n"
	"  tracemap record -T -e sched:sched_process_fork -- make\n"
	"  tracemap record -F --uprobe=/lib/x86_64-linux-gnu/libc.so.6:malloc -- ls\n\n"
	"Exit status: 0 ok, 1 failure, 2 usage error, 3 events lost with --fail-on-loss.\n"
	"See tracemap-record(1).";

static long version_arg(struct argp_state *state, const char *s)
{
	int oldest, newest;
	long v;

	tm_dat_version_range(&oldest, &newest);
	v = tm_arg_long(state, "file version", s, oldest, newest);
	if (!tm_dat_version_supported((int)v))
		argp_error(state, "unsupported file version %ld", v);
	return v;
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
	case OPT_FILE_VERSION: o->file_version = version_arg(state, arg); break;
	case OPT_COMPRESSION:
		if (tm_compression_parse(arg, &o->compression))
			argp_error(state, "%s", tm_last_error());
		o->compression_set = true;
		break;
	case OPT_LEVEL:
		o->level = tm_arg_long(state, "compression level", arg, -50, 19);
		if (!o->level)
			argp_error(state, "bad compression level '0' (expected -50..-1 or 1-19)");
		break;
	case OPT_FAIL_ON_LOSS: o->fail_on_loss = true; break;
	case OPT_DATE: o->date = true; break;
	case OPT_FIXED_LEVEL: o->fixed_level = true; break;
	case ARGP_KEY_END:
		if (!tm_dat_version_compressed((int)o->file_version) && o->compression_set &&
		    o->compression != TM_COMPRESS_NONE)
			argp_error(state, "--file-version %ld files are uncompressed",
				   o->file_version);
		if (!*o->output)
			argp_error(state, "empty output file name");
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
	};
	int ret;

	capture_opts_init(&o.cap);
	capture_parse_args(argc, argv, options, parse_opt, doc, &o);
	if (!tm_dat_version_compressed((int)o.file_version))
		o.compression = TM_COMPRESS_NONE;
	ret = record_run(&o);
	capture_opts_free(&o.cap);
	return ret;
}
