// SPDX-License-Identifier: GPL-2.0-only
/* extract.c - `tracemap extract`: an existing buffer's content into a trace.dat. */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "status.h"
#include "tracemap.h"

#define SUB	"extract"

enum {
	OPT_FILE_VERSION = 0x100,
	OPT_COMPRESSION,
	OPT_LEVEL,
	OPT_NO_MMAP,
};

struct extract_opts {
	const char		*instance;
	const char		*output;
	long			file_version;
	enum tm_compression	compression;
	bool			compression_set;
	long			level;
	bool			no_mmap;
	bool			quiet;
	bool			verbose;
};

static const struct argp_option options[] = {
	{ "instance", 'B', "NAME", 0, "the buffer of instance NAME (default: the top-level "
	  "buffer)", 1 },
	{ "no-mmap", OPT_NO_MMAP, NULL, 0, "read pages with read(2) instead of mapping the "
	  "buffer", 1 },
	{ "output", 'o', "FILE", 0, "output file (default trace.dat; '-' = stdout)", 2 },
	{ "file-version", OPT_FILE_VERSION, "6|7", 0, "trace.dat version (default 7)", 2 },
	{ "compression", OPT_COMPRESSION, "zstd|none", 0, "v7 compression (default zstd)", 2 },
	{ "compression-level", OPT_LEVEL, "N", 0, "zstd level (1-19, default 1)", 2 },
	{ "quiet", 'q', NULL, 0, "no summary, no progress line", 3 },
	{ "verbose", 'v', NULL, 0, "per CPU: mmap or read() path, pages, events", 3 },
	{ 0 }
};

static const char doc[] =
	"Write what an existing ftrace buffer holds now into a trace.dat file, like "
	"trace-cmd extract: an instance a script filled, a buffer a traceoff trigger froze, "
	"a persistent (boot-mapped) instance."
	"\vReading consumes the data from the buffer (as any reader of trace_pipe_raw "
	"does); no setting of the instance changes. Pages are read through the mapping, "
	"or read(2) where the kernel refuses it.\n\n"
	"Exit status: 0 ok, 1 failure, 2 usage error.\n"
	"See tracemap-extract(1).";

static const char examples[] =
	"  tracemap extract -B frozen -o frozen.dat\n"
	"  tracemap extract -B boot_mapped -o last-boot.dat\n";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct extract_opts *o = state->input;

	switch (key) {
	case 'B': o->instance = arg; break;
	case 'o': o->output = arg; break;
	case OPT_NO_MMAP: o->no_mmap = true; break;
	case OPT_FILE_VERSION: o->file_version = arg_file_version(state, arg); break;
	case OPT_COMPRESSION:
		o->compression = arg_compression(state, arg);
		o->compression_set = true;
		break;
	case OPT_LEVEL: o->level = arg_long(state, "compression level", arg, 1, 19); break;
	case 'q': o->quiet = true; break;
	case 'v': o->verbose = true; break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (!tm_dat_version_compressed((int)o->file_version) && o->compression_set &&
		    o->compression != TM_COMPRESS_NONE)
			argp_error(state, "--file-version %ld files are uncompressed",
				   o->file_version);
		if (!*o->output)
			argp_error(state, "empty output file name");
		if (o->instance && !*o->instance)
			argp_error(state, "empty instance name");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void summary(const struct extract_opts *o, const struct tm_extract_stats *st)
{
	unsigned long long pages = 0, events = 0;
	const char *where = st->backup[0] ? st->backup : o->instance ? o->instance :
			    "the top-level buffer";

	if (st->warning[0])
		cmd_err(SUB, "warning: %s", st->warning);
	for (int cpu = 0; cpu < st->ncpus; cpu++) {
		const struct tm_extract_cpu *c = &st->cpu[cpu];

		pages += c->pages;
		events += c->events;
		if (o->verbose && c->mapped)
			cmd_err(SUB, "cpu%d: mmap path, %llu pages, %llu events", cpu,
				   (unsigned long long)c->pages, (unsigned long long)c->events);
		else if (o->verbose)
			cmd_err(SUB, "cpu%d: read() path (%s), %llu pages, %llu events", cpu,
				   c->why, (unsigned long long)c->pages,
				   (unsigned long long)c->events);
		if (c->full)
			cmd_err(SUB, "cpu%d is still being written to: read one buffer's worth",
				   cpu);
	}
	if (o->quiet)
		return;
	cmd_err(SUB, "%s: %llu events, %llu pages of %zu bytes from %s (read, so no longer "
		   "in the buffer)%s", o->output, events, pages, st->page_size, where,
		   st->last_boot_info ? "; last_boot_info stored" : "");
}

/* Before the first page is read: the user learns that the read consumes the buffer. */
static void say_consumes(void *ctx, const char *instance, const char *path)
{
	const struct extract_opts *o = ctx;

	if (o->quiet)
		return;
	if (instance && o->instance && strcmp(instance, o->instance))
		cmd_err(SUB, "reading %s, the read-only copy of %s's previous boot the kernel made "
			"at boot: %s's own buffer is left as it is", instance, o->instance,
			o->instance);
	cmd_err(SUB, "reading consumes what %s holds: its events go to %s only (and stay in "
		"spools beside it if writing fails)", instance ? instance :
		"the top-level buffer", !strcmp(path, "-") ? "stdout" : path);
}

int cmd_extract(int argc, char **argv)
{
	const struct argp argp = { .options = options, .parser = parse_opt, .doc = doc };
	struct extract_opts o = {
		.output = "trace.dat", .file_version = 7, .compression = TM_COMPRESS_ZSTD,
		.level = 1,
	};
	struct tm_extract_opts xo = { 0 };
	struct tm_extract_stats st;
	struct status_line status;
	struct tm_meter meter;
	int ret;

	cmd_parse(&argp, argc, argv, 0, &o, examples);
	xo.tracefs = tm_tracefs_open(true);
	if (!xo.tracefs)
		return cmd_fail(SUB);
	xo.instance = o.instance;
	xo.use_mmap = !o.no_mmap;
	xo.before_read = say_consumes;
	xo.before_ctx = &o;
	xo.out = (struct tm_recfile_opts){
		.path = o.output,
		.version = (int)o.file_version,
		.compression = tm_dat_version_compressed((int)o.file_version) ? o.compression
									       : TM_COMPRESS_NONE,
		.level = (int)o.level,
	};
	/* the progress on stderr, unless the file goes to that terminal */
	xo.meter = status_meter(&status, &meter, SUB,
				status_wanted(o.quiet, !strcmp(o.output, "-")));
	ret = tm_extract(&xo, &st);
	status_clear(&status);
	ret = ret ? cmd_fail(SUB) : TM_EXIT_OK;
	if (!ret)
		summary(&o, &st);
	tm_extract_stats_free(&st);
	return ret;
}
