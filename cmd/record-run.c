// SPDX-License-Identifier: GPL-2.0-only
/*
 * record-run.c - one recording: the capture (capture.c) with per-CPU spools
 * as its sink, then the trace.dat file and the summary. A full disk stops
 * the recording; COMMAND is then waited for, never left behind.
 */
#include <stdio.h>

#include "cmd.h"
#include "record.h"
#include "signals.h"

#define SUB	"record"

struct tm_recfile_opts record_file_opts(const struct capture *c, const struct record_opts *o,
				       const char *date)
{
	return (struct tm_recfile_opts){
		.path = o->output,
		.version = (int)o->file_version,
		.compression = o->compression,
		.level = (int)o->level,
		.adaptive = !o->fixed_level,
		.date = o->date ? date : NULL,
		.page_size = tm_session_page_size(c->sess),
		.ncpus = c->ncpus,
		.cpus = c->cpus,
		.instance = tm_session_name(c->sess),
		.clock = o->cap.clock,
		.flush_ms = record_flush_half_ms(o),
	};
}

int record_date(struct capture *c, const struct record_opts *o, char *date, size_t len)
{
	if (!o->date)
		return 0;
	if (tm_record_date_offset(c->sess, c->cpus, c->ncpus, date, len))
		return cmd_fail(SUB);
	return 0;
}

static int open_output(struct capture *c, const struct record_opts *o, const char *date,
		       struct tm_recfile **out)
{
	struct tm_recfile_opts oo = record_file_opts(c, o, date);

	*out = tm_recfile_open(&oo);
	if (!*out) {
		cmd_fail(SUB);
		return -1;
	}
	return 0;
}

static int64_t written(void *ctx)
{
	return (int64_t)tm_recfile_written(ctx);
}

static double file_mb(void *ctx, int cpu)
{
	struct tm_spool_stats sp;

	tm_recfile_spool_stats(ctx, cpu, &sp);
	return sp.file_bytes / 1048576.0;
}

/* Say which CPUs' chunks were compressed at a faster level to keep up. */
static void report_fast_chunks(const struct capture *c, const struct tm_recfile *out)
{
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		struct tm_spool_stats sp;

		if (!c->cpus[cpu])
			continue;
		tm_recfile_spool_stats(out, cpu, &sp);
		if (sp.fast_chunks)
			fprintf(stderr, "    cpu%d: %u of %u chunks at a faster zstd level (down to %d; "
				"%u of them chosen ahead from the projected fill, %u stopped part "
				"way): the compressor fell behind the buffer\n", cpu,
				sp.fast_chunks, sp.chunks, sp.lowest_level, sp.vetoed_chunks,
				sp.stopped_chunks);
	}
}

/* capture_wait()'s idle: the signals, and a stop once a spool's disk is full. */
static int stop_when_full(void *ctx, int ms)
{
	signals_wait(ms);
	return tm_recfile_full(ctx) != 0;
}

/* Tracing off, final drain, kernel stats, the file. */
static int finish(struct capture *c, struct tm_recfile *out, bool quiet)
{
	if (capture_stop(c))
		return -1;
	if (tm_recfile_write(out, c->sess)) {
		cmd_fail(SUB);
		return -1;
	}
	if (tm_recfile_warning(out) && !quiet)
		cmd_err(SUB, "warning: %s", tm_recfile_warning(out));
	return 0;
}

int record_run(const struct record_opts *o)
{
	struct capture c;
	struct tm_recfile *out = NULL;
	struct capture_sink cs = { .partial_ms = record_flush_half_ms(o) };
	struct capture_column col = { .title = "file MB", .value = file_mb };
	struct capture_status st;
	int ret = TM_EXIT_FAIL;
	bool lost, cut_short = false;
	char date[32];

	if (capture_open(&c, &o->cap, SUB) || record_date(&c, o, date, sizeof(date)) ||
	    open_output(&c, o, date, &out))
		goto out;
	cs.sink = tm_recfile_sink(out);
	if (capture_start(&c, &cs))
		goto out;
	capture_status_init(&st, &c, status_wanted(o->cap.quiet, false));
	st.line.written = written;
	st.line.ctx = out;
	c.status = &st;
	capture_wait(&c, stop_when_full, out);
	if (finish(&c, out, o->cap.quiet))
		goto out;
	col.ctx = out;
	lost = capture_summary(&c, &col);
	if (!o->cap.quiet)
		report_fast_chunks(&c, out);
	ret = lost && o->fail_on_loss ? TM_EXIT_LOST : TM_EXIT_OK;
	/* the file holds what fitted: still a failure, the recording is cut short */
	cut_short = tm_recfile_stopped(out) != NULL;
	if (cut_short) {
		cmd_err(SUB, "%s", tm_recfile_stopped(out));
		ret = TM_EXIT_FAIL;
	}
out:
	if (out && tm_recfile_full(out))
		capture_wait_command(&c);
	ret = capture_close(&c, ret);
	tm_recfile_close(out, ret != TM_EXIT_FAIL || cut_short);
	return capture_exit_status(&c, ret);
}
