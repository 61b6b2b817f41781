// SPDX-License-Identifier: GPL-2.0-only
/*
 * recfile.c - record's page sink: per-CPU spools beside the output (and the
 * note that says how they are written), then the trace.dat written in one
 * pass at stop. A full disk stops the spools: what they hold goes into the
 * file, or stays for `tracemap recover` when the file does not fit; every
 * other path removes spools.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "dat/tm-write.h"
#include "record-internal.h"
#include "tracefs/tracefs-internal.h"
#include "ring.h"
#include "spool.h"
#include "util/tm-outfile.h"
#include "tm-recorder.h"
#include "tm-recfile.h"
#include "tracefs/tm-session.h"
#include "util/tm-error.h"

struct tm_recfile {
	struct tm_recfile_opts	opts;
	struct tm_outfile	file;		/* a stream (stdout, a device) is never truncated */
	struct tm_spool		**spools;
	char			prefix[PATH_MAX];	/* spools are prefix.cpuN.spool */
	bool			noted;		/* we wrote prefix.spool-info */
	int			full;		/* errno of the spool write that stopped us */
	int			full_cpu;
	bool			keep;		/* the file did not fit: spools stay */
	char			stopped[PATH_MAX + 160];
	char			warning[256];
};

/* Written in place (emptied only when the data is there): a failed start keeps a file. */
static int recfile_open_file(struct tm_recfile *out, const char *path)
{
	/* consumed data: the target stays as it was until the new file is whole */
	if (tm_outfile_open(&out->file, path, out->opts.consuming ? TM_OUTFILE_REPLACE : 0))
		return -1;
	if (out->file.stream && isatty(out->file.fd))
		return tm_failx(EINVAL, "refusing to write a binary trace.dat to a terminal "
				"(%s)", out->file.is_stdout ? "redirect stdout or use -o FILE" : path);
	return 0;
}

/* The name of the output in messages. */
static const char *recfile_name(const struct tm_recfile *out)
{
	return out->file.is_stdout ? "stdout" : out->opts.path;
}

/*
 * The output's path, or $TMPDIR/tracemap-<pid>.dat for a stream (stdout, a
 * device, a FIFO): nothing may be created beside /dev/null, and `tracemap
 * recover` of a killed recorder writes that name, which KernelShark opens.
 */
static int recfile_set_prefix(struct tm_recfile *out)
{
	const char *tmp = getenv("TMPDIR");

	if (out->file.stream)
		snprintf(out->prefix, sizeof(out->prefix), "%s/tracemap-%d.dat",
			 tmp && *tmp ? tmp : "/tmp", (int)getpid());
	else if (snprintf(out->prefix, sizeof(out->prefix), "%s", out->opts.path) >=
		 (int)sizeof(out->prefix))
		return tm_failx(ENAMETOOLONG, "output path too long: %s", out->opts.path);
	return 0;
}

/*
 * PREFIX has a note already: another recorder's. A live one (*live) owns the
 * output from now on (ours may have been the open that created it: it is not
 * ours to remove); what a killed one left waits for recover. The winner writes its note
 * right after opening it: an incomplete one is read again for a moment.
 */
static int noted_before(const struct tm_recfile_opts *o, const char *prefix, bool *live)
{
	struct tm_spool_info info;
	int ret = -1;

	for (int tries = 0; tries < 20 && ret; tries++) {
		ret = tm_spool_info_read(prefix, &info);
		if (ret)
			usleep(5000);
	}
	if (ret)
		return tm_failx(EEXIST, "create %s.spool-info: File exists (another recording's "
				"note; use another -o)", prefix);
	*live = tm_pid_runs_tracemap(info.pid);
	if (*live)
		return tm_failx(EEXIST, "output %s is being recorded by tracemap pid %d (see %s."
				"spool-info): wait for it to end, or use another -o",
				o->path, (int)info.pid, prefix);
	return tm_failx(EEXIST, "%s.spool-info: what a killed recording (tracemap pid %d) left "
			"is there: run 'tracemap recover %s' first, or use another -o",
			prefix, (int)info.pid, prefix);
}

int tm_recfile_note(const struct tm_recfile_opts *o, const char *prefix, const char *previous,
		    bool *live)
{
	struct tm_spool_opts so = tm_recfile_spool_opts(o);
	struct tm_spool_info info = {
		.pid = getpid(), .version = o->version, .compression = so.compression,
		.level = o->level, .page_size = o->page_size, .ncpus = o->ncpus,
	};

	*live = false;
	snprintf(info.instance, sizeof(info.instance), "%s", o->instance);
	snprintf(info.clock, sizeof(info.clock), "%s", o->clock ? o->clock : "");
	snprintf(info.previous, sizeof(info.previous), "%s", previous ? previous : "");
	if (tm_spool_info_write(prefix, &info))
		return errno == EEXIST ? noted_before(o, prefix, live) : -1;
	return 0;
}

/* The note that lets `tracemap recover` read the spools of a killed recording. */
static int recfile_note(struct tm_recfile *out)
{
	bool live;

	if (!out->opts.instance)
		return 0;
	if (tm_recfile_note(&out->opts, out->prefix, NULL, &live)) {
		if (live)	/* the output is the live recorder's now */
			out->file.owned = false;
		return -1;
	}
	out->noted = true;
	return 0;
}

struct tm_spool_opts tm_recfile_spool_opts(const struct tm_recfile_opts *o)
{
	return (struct tm_spool_opts){
		.compression = tm_dat_version_compressed(o->version) ? o->compression
								     : TM_COMPRESS_NONE,
		.level = o->level,
		.adaptive = o->adaptive,
		.page_size = o->page_size,
		.chunk_pages = o->page_size < TM_SPOOL_DEFAULT_CHUNK_BYTES ?
			       TM_SPOOL_DEFAULT_CHUNK_BYTES / o->page_size : 1,
		.max_age_ns = (uint64_t)o->flush_ms * 1000000,
	};
}

struct tm_write_opts tm_recfile_write_opts(const struct tm_recfile_opts *o)
{
	return (struct tm_write_opts){
		.version = o->version,
		.compression = tm_dat_version_compressed(o->version) ? o->compression
								     : TM_COMPRESS_NONE,
		.level = o->level,
		.page_size = o->page_size,
		.last_boot_instance = o->last_boot_instance,
		.last_boot_info = o->last_boot_info,
		.modules = o->modules,
		.modules_len = o->modules ? strlen(o->modules) : 0,
		.date = o->date,
	};
}

static int recfile_make_spools(struct tm_recfile *out)
{
	const struct tm_recfile_opts *o = &out->opts;
	struct tm_spool_opts so = tm_recfile_spool_opts(o);
	char path[PATH_MAX];

	out->spools = calloc(o->ncpus, sizeof(*out->spools));
	if (!out->spools)
		return tm_fail(ENOMEM, "output");
	for (int cpu = 0; cpu < o->ncpus; cpu++) {
		if (!o->cpus[cpu])
			continue;
		if (tm_path(path, sizeof(path), "%s.cpu%d.spool", out->prefix, cpu))
			return -1;
		out->spools[cpu] = tm_spool_create(path, &so);
		if (!out->spools[cpu])
			return -1;
	}
	return 0;
}

struct tm_recfile *tm_recfile_open(const struct tm_recfile_opts *opts)
{
	struct tm_recfile *out = calloc(1, sizeof(*out));

	if (!out) {
		tm_fail(ENOMEM, "output");
		return NULL;
	}
	out->opts = *opts;
	out->file.fd = -1;
	/* the note first: of two recorders of one path, it says which goes on */
	if (recfile_open_file(out, opts->path) || recfile_set_prefix(out) || recfile_note(out) ||
	    recfile_make_spools(out)) {
		tm_recfile_close(out, false);
		return NULL;
	}
	return out;
}

/*
 * A spool whose file write failed (a full disk) takes no more pages: they
 * are dropped, and tm_recfile_full() tells the caller to stop recording.
 */
static int recfile_spool_failed(struct tm_recfile *out, int cpu)
{
	int err = tm_spool_error(out->spools[cpu]);

	if (!err)
		return -1;
	/* the first CPU whose write failed is named; read once the threads are joined */
	if (__atomic_compare_exchange_n(&out->full, &(int){ 0 }, err, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		out->full_cpu = cpu;
	return 0;
}

static int recfile_page(void *ctx, int cpu, const void *page, size_t size)
{
	struct tm_recfile *out = ctx;

	(void)size;
	if (!tm_spool_add_page(out->spools[cpu], page))
		return 0;
	return recfile_spool_failed(out, cpu);
}

int tm_recfile_full(const struct tm_recfile *out)
{
	return __atomic_load_n(&out->full, __ATOMIC_ACQUIRE);
}

static void recfile_fill(void *ctx, int cpu, const struct tm_ring_fill *fill)
{
	struct tm_recfile *out = ctx;

	tm_spool_set_fill(out->spools[cpu], fill);
}

/* After each drain round: a chunk that waited long enough goes to its file. */
static int recfile_flush(void *ctx, int cpu)
{
	struct tm_recfile *out = ctx;

	if (!tm_spool_tick(out->spools[cpu]))
		return 0;
	return recfile_spool_failed(out, cpu);
}

/* The read() path reads straight into the spool's chunk. */
static void *recfile_slot(void *ctx, int cpu)
{
	struct tm_recfile *out = ctx;

	return tm_spool_slot(out->spools[cpu]);
}

struct tm_page_sink tm_recfile_sink(struct tm_recfile *out)
{
	return (struct tm_page_sink){
		.page = recfile_page, .flush = recfile_flush, .fill = recfile_fill,
		.slot = recfile_slot, .ctx = out,
	};
}

/* Finish the spools; a failed write (now or before) keeps what was written. */
static int recfile_finish_spools(struct tm_recfile *out)
{
	for (int cpu = 0; cpu < out->opts.ncpus; cpu++) {
		struct tm_spool *s = out->spools[cpu];

		if (!s)
			continue;
		if (tm_spool_salvage(s))
			return -1;
		if (tm_spool_error(s) && !out->full) {
			out->full = tm_spool_error(s);
			out->full_cpu = cpu;
		}
	}
	if (out->full)
		snprintf(out->stopped, sizeof(out->stopped), "write spool %s: %s: recording "
			 "stopped there", tm_spool_path(out->spools[out->full_cpu]),
			 strerror(out->full));
	return 0;
}

/*
 * The file did not fit (or its disk filled up): it goes back to empty, and
 * the spools and their note stay for `tracemap recover`.
 */
static int recfile_keep_spools(struct tm_recfile *out)
{
	int err = errno;
	char what[PATH_MAX + 160];

	if (!out->noted || out->file.stream || (err != ENOSPC && err != EDQUOT && !out->full))
		return -1;
	snprintf(what, sizeof(what), "%s", out->full ? out->stopped : tm_last_error());
	/* its space back (close unlinks it if we created it) */
	tm_outfile_truncate(&out->file);
	out->keep = true;
	return tm_failx(err, "%s; the recorded data is kept in %s.cpu*.spool: "
			"free space, then run 'tracemap recover %s'", what, out->prefix,
			out->prefix);
}

int tm_recfile_write_meta(struct tm_recfile *out, const struct tm_meta *meta)
{
	const struct tm_recfile_opts *o = &out->opts;
	struct tm_write_opts wo = tm_recfile_write_opts(o);

	if (recfile_finish_spools(out))
		return -1;
	if (tm_meta_warning(meta))
		snprintf(out->warning, sizeof(out->warning), "%s", tm_meta_warning(meta));
	if (tm_outfile_truncate(&out->file))
		return -1;
	if (tm_spools_write_dat(out->file.fd, meta, out->spools, o->ncpus, &wo)) {
		tm_fail_prefix("write %s", recfile_name(out));
		return recfile_keep_spools(out);
	}
	if (!out->file.stream && fsync(out->file.fd)) {
		tm_fail(errno, "write %s", o->path);
		return recfile_keep_spools(out);
	}
	if (out->full)
		snprintf(out->stopped + strlen(out->stopped), sizeof(out->stopped) -
			 strlen(out->stopped), "; %s holds the events recorded until then",
			 recfile_name(out));
	return 0;
}

const char *tm_recfile_stopped(const struct tm_recfile *out)
{
	return out->full && !out->keep ? out->stopped : NULL;
}

int tm_recfile_write(struct tm_recfile *out, const struct tm_session *s)
{
	struct tm_meta *meta;
	int ret;

	meta = tm_meta_collect(tm_session_tracefs(s), tm_session_name(s), out->opts.ncpus);
	if (!meta)
		return -1;
	ret = tm_recfile_write_meta(out, meta);
	tm_meta_free(meta);
	return ret;
}

int tm_recfile_secure(struct tm_recfile *out)
{
	if (recfile_finish_spools(out))
		return -1;
	if (out->full)
		return tm_failx(out->full, "%s", out->stopped);
	for (int cpu = 0; cpu < out->opts.ncpus; cpu++) {
		const char *path;
		int fd, ret;

		if (!out->spools[cpu])
			continue;
		path = tm_spool_path(out->spools[cpu]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return tm_fail(errno, "open %s", path);
		ret = fsync(fd);
		close(fd);
		if (ret)
			return tm_fail(errno, "fsync %s", path);
	}
	return 0;
}

const char *tm_recfile_keep(struct tm_recfile *out)
{
	int err = errno;
	char msg[1024];

	/* best effort: chunks still in memory go to their files; the first error stands */
	snprintf(msg, sizeof(msg), "%s", tm_last_error());
	tm_recfile_secure(out);
	tm_failx(err, "%s", msg);
	out->keep = true;
	return out->prefix;
}

const char *tm_recfile_prefix(const struct tm_recfile *out)
{
	return out->prefix;
}

const char *tm_recfile_warning(const struct tm_recfile *out)
{
	return out->warning[0] ? out->warning : NULL;
}

uint64_t tm_recfile_written(const struct tm_recfile *out)
{
	uint64_t sum = 0;

	for (int cpu = 0; cpu < out->opts.ncpus; cpu++)
		if (out->spools[cpu])
			sum += tm_spool_file_bytes(out->spools[cpu]);
	return sum;
}

void tm_recfile_spool_stats(const struct tm_recfile *out, int cpu, struct tm_spool_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (cpu >= 0 && cpu < out->opts.ncpus && out->spools[cpu])
		tm_spool_get_stats(out->spools[cpu], st);
}

void tm_recfile_close(struct tm_recfile *out, bool ok)
{
	if (!out)
		return;
	for (int cpu = 0; out->spools && cpu < out->opts.ncpus; cpu++)
		tm_spool_destroy(out->spools[cpu], !out->keep);
	free(out->spools);
	if (out->noted && !out->keep)
		tm_spool_info_remove(out->prefix);
	tm_outfile_close(&out->file, ok);
	free(out);
}
