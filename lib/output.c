// SPDX-License-Identifier: GPL-2.0-only
/*
 * output.c - record's page sink: per-CPU spools beside the output,
 * then the trace.dat written in one pass at stop; every path removes spools.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tm-write.h"

struct tm_output {
	struct tm_output_opts	opts;
	int			fd;
	bool			is_stdout;
	bool			created;	/* we made the file: unlink it on failure */
	struct tm_spool		**spools;
	char			warning[256];
	char			date[32];	/* DATE option text, "" = none */
};

static int tm_output_open_file(struct tm_output *out, const char *path)
{
	struct stat st;

	if (!strcmp(path, "-")) {
		out->fd = STDOUT_FILENO;
		out->is_stdout = true;
		if (isatty(out->fd))
			return tm_failx(EINVAL, "refusing to write a binary trace.dat to a terminal "
					"(redirect stdout or use -o FILE)");
		return 0;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return tm_failx(EISDIR, "cannot write output %s: it is a directory", path);
	out->created = stat(path, &st) != 0;
	out->fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (out->fd < 0) {
		out->created = false;
		return tm_fail(errno, "cannot write output %s", path);
	}
	return 0;
}

static int tm_output_spool_path(const struct tm_output *out, int cpu, char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	if (out->is_stdout)
		snprintf(buf, len, "%s/tracemap-%d.cpu%d.spool", tmp && *tmp ? tmp : "/tmp",
			 (int)getpid(), cpu);
	else if (snprintf(buf, len, "%s.cpu%d.spool", out->opts.path, cpu) >= (int)len)
		return tm_failx(ENAMETOOLONG, "output path too long: %s", out->opts.path);
	return 0;
}

struct tm_spool_opts tm_output_spool_opts(const struct tm_output_opts *o)
{
	return (struct tm_spool_opts){
		.compression = tm_dat_version_compressed(o->version) ? o->compression
								     : TM_COMPRESS_NONE,
		.level = o->level,
		.adaptive = o->adaptive,
		.page_size = o->page_size,
		.chunk_pages = o->page_size < TM_SPOOL_DEFAULT_CHUNK_BYTES ?
			       TM_SPOOL_DEFAULT_CHUNK_BYTES / o->page_size : 1,
	};
}

struct tm_write_opts tm_output_write_opts(const struct tm_output_opts *o)
{
	return (struct tm_write_opts){
		.version = o->version,
		.compression = tm_dat_version_compressed(o->version) ? o->compression
								     : TM_COMPRESS_NONE,
		.level = o->level,
		.page_size = o->page_size,
		.last_boot_instance = o->last_boot_instance,
		.last_boot_info = o->last_boot_info,
		.date = o->date,
	};
}

static int tm_output_make_spools(struct tm_output *out)
{
	const struct tm_output_opts *o = &out->opts;
	struct tm_spool_opts so = tm_output_spool_opts(o);
	char path[PATH_MAX];

	out->spools = calloc(o->ncpus, sizeof(*out->spools));
	if (!out->spools)
		return tm_fail(ENOMEM, "output");
	for (int cpu = 0; cpu < o->ncpus; cpu++) {
		if (!o->cpus[cpu])
			continue;
		if (tm_output_spool_path(out, cpu, path, sizeof(path)))
			return -1;
		out->spools[cpu] = tm_spool_create(path, &so);
		if (!out->spools[cpu])
			return -1;
	}
	return 0;
}

struct tm_output *tm_output_open(const struct tm_output_opts *opts)
{
	struct tm_output *out = calloc(1, sizeof(*out));

	if (!out) {
		tm_fail(ENOMEM, "output");
		return NULL;
	}
	out->opts = *opts;
	out->fd = -1;
	if (tm_output_open_file(out, opts->path) || tm_output_make_spools(out)) {
		tm_output_close(out, false);
		return NULL;
	}
	return out;
}

static int tm_output_page(void *ctx, int cpu, const void *page, size_t size)
{
	struct tm_output *out = ctx;

	(void)size;
	return tm_spool_add_page(out->spools[cpu], page);
}

static void tm_output_fill(void *ctx, int cpu, unsigned int permille)
{
	struct tm_output *out = ctx;

	tm_spool_set_fill(out->spools[cpu], permille);
}

struct tm_page_sink tm_output_sink(struct tm_output *out)
{
	return (struct tm_page_sink){
		.page = tm_output_page, .fill = tm_output_fill, .ctx = out,
	};
}

int tm_output_write_meta(struct tm_output *out, const struct tm_meta *meta)
{
	const struct tm_output_opts *o = &out->opts;
	struct tm_write_opts wo = tm_output_write_opts(o);

	for (int cpu = 0; cpu < o->ncpus; cpu++)
		if (out->spools[cpu] && tm_spool_finish(out->spools[cpu]))
			return -1;
	if (out->date[0])
		wo.date = out->date;
	if (tm_meta_warning(meta))
		snprintf(out->warning, sizeof(out->warning), "%s", tm_meta_warning(meta));
	if (!out->is_stdout && (ftruncate(out->fd, 0) || lseek(out->fd, 0, SEEK_SET) < 0))
		return tm_fail(errno, "truncate %s", o->path);
	if (tm_dat_write(out->fd, meta, out->spools, o->ncpus, &wo))
		return tm_fail_prefix("write %s", out->is_stdout ? "stdout" : o->path);
	if (!out->is_stdout && fsync(out->fd) && errno != EINVAL)
		return tm_fail(errno, "write %s", o->path);
	return 0;
}

int tm_output_set_date(struct tm_output *out, const char *date)
{
	if (strlen(date) >= sizeof(out->date))
		return tm_failx(EINVAL, "DATE option '%s' too long", date);
	snprintf(out->date, sizeof(out->date), "%s", date);
	return 0;
}

int tm_output_write(struct tm_output *out, const struct tm_session *s)
{
	struct tm_meta *meta;
	int ret;

	meta = tm_meta_collect(tm_session_tracefs(s), tm_session_name(s), out->opts.ncpus);
	if (!meta)
		return -1;
	ret = tm_output_write_meta(out, meta);
	tm_meta_free(meta);
	return ret;
}

const char *tm_output_warning(const struct tm_output *out)
{
	return out->warning[0] ? out->warning : NULL;
}

uint64_t tm_output_written(const struct tm_output *out)
{
	uint64_t sum = 0;

	for (int cpu = 0; cpu < out->opts.ncpus; cpu++)
		if (out->spools[cpu])
			sum += tm_spool_file_bytes(out->spools[cpu]);
	return sum;
}

void tm_output_spool_stats(const struct tm_output *out, int cpu, struct tm_spool_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (cpu >= 0 && cpu < out->opts.ncpus && out->spools[cpu])
		tm_spool_get_stats(out->spools[cpu], st);
}

void tm_output_close(struct tm_output *out, bool ok)
{
	if (!out)
		return;
	for (int cpu = 0; out->spools && cpu < out->opts.ncpus; cpu++)
		tm_spool_destroy(out->spools[cpu], true);
	free(out->spools);
	if (!out->is_stdout && out->fd >= 0) {
		close(out->fd);
		if (!ok && out->created)
			unlink(out->opts.path);
	}
	free(out);
}
