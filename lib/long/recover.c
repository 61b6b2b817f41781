// SPDX-License-Identifier: GPL-2.0-only
/*
 * recover.c - `tracemap recover`: the spools a killed recorder left, checked
 * chunk by chunk, into a trace.dat with metadata read from tracefs now.
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
#include "tracefs/meta-internal.h"
#include "tm-recover.h"

#define TM_RECOVER_NOTE	"(recovered: metadata read from tracefs at recovery time)"

struct recover_run {
	const char		*output;
	const char		*tracefs;
	struct tm_spool_info	info;
	struct tm_cpu_data	*data;		/* the spools that hold data */
	int			n;
	uint8_t			*ids;		/* event ids met in them */
};

static int spool_path(char *buf, size_t len, const char *output, int cpu)
{
	return tm_path(buf, len, "%s.cpu%d.spool", output, cpu);
}

/* Check each CPU's spool, cut torn tails, and open the ones with data. */
static int open_spools(struct recover_run *r, struct tm_recover_result *res)
{
	struct tm_spool_opts so = {
		.compression = r->info.compression, .page_size = r->info.page_size,
		.chunk_pages = 1,
	};
	char path[PATH_MAX];
	bool any = false;

	for (int cpu = 0; cpu < r->info.ncpus; cpu++) {
		struct tm_cpu_data *d = &r->data[r->n];
		struct tm_spool_stats st;
		uint64_t dropped;

		if (spool_path(path, sizeof(path), r->output, cpu))
			return -1;
		if (access(path, F_OK))
			continue;
		any = true;
		if (tm_spool_check_file(path, &so, &st, &dropped, r->ids))
			return -1;
		res->dropped += dropped;
		if (!st.file_bytes)
			continue;
		*d = (struct tm_cpu_data){
			.cpu = cpu, .size = st.file_bytes, .chunks = st.chunks, .fd = -1,
		};
		d->name = strdup(path);
		if (!d->name)
			return tm_fail(ENOMEM, "recover %s", r->output);
		d->fd = open(path, O_RDONLY | O_CLOEXEC);
		r->n++;
		if (d->fd < 0)
			return tm_fail(errno, "open spool %s", path);
		res->pages += st.pages;
	}
	res->cpus = r->n;
	if (!any)
		return tm_failx(ENOENT, "no spools of %s to recover (%s.cpuN.spool)", r->output,
				r->output);
	return 0;
}

/* The formats of the events met (and of the instance's, if it is still there). */
static struct tm_meta *collect_meta(struct recover_run *r, struct tm_recover_result *res)
{
	struct tm_meta_opts mo = {
		.tracefs = r->tracefs, .ncpus = r->info.ncpus, .ids = r->ids,
	};
	char dir[PATH_MAX];
	struct tm_meta *meta;
	struct stat sb;

	if (r->info.instance[0] &&
	    !tm_path(dir, sizeof(dir), "%s/instances/%s", r->tracefs, r->info.instance) &&
	    !stat(dir, &sb) && S_ISDIR(sb.st_mode)) {
		mo.instance = r->info.instance;
		res->from_instance = true;
	}
	meta = tm_meta_collect_opts(&mo);
	if (!meta)
		return NULL;
	/* the stats of now say nothing about the recording */
	for (int cpu = 0; cpu < r->info.ncpus; cpu++)
		if (tm_meta_set_stats(meta, cpu, "", 0)) {
			tm_meta_free(meta);
			return NULL;
		}
	return meta;
}

/*
 * Write the file under a temporary beside the output (beside a link's
 * target), then rename it over it; a device or FIFO is written straight.
 */
static int write_file(struct recover_run *r, const struct tm_meta *meta)
{
	struct tm_write_opts wo = {
		.version = r->info.version, .compression = r->info.compression,
		.level = r->info.level, .clock = r->info.clock[0] ? r->info.clock : NULL,
		.page_size = (uint32_t)r->info.page_size, .note = TM_RECOVER_NOTE,
	};
	struct tm_output out;
	int ret;

	if (tm_output_open(&out, r->output, TM_OUTPUT_REPLACE))
		return -1;
	ret = tm_dat_write_data(out.fd, meta, r->data, r->n, r->info.ncpus, &wo);
	if (ret)
		tm_fail_prefix("write %s", r->output);
	else
		ret = tm_output_close(&out, true);
	tm_output_close(&out, !ret);
	return ret;
}

/* The spools and their note go once the file is there. */
static void remove_spools(const struct recover_run *r)
{
	char path[PATH_MAX];

	for (int cpu = 0; cpu < r->info.ncpus; cpu++)
		if (!spool_path(path, sizeof(path), r->output, cpu))
			unlink(path);
	tm_spool_info_remove(r->output);
}

static int recover(struct recover_run *r, struct tm_recover_result *res)
{
	struct tm_meta *meta;
	int ret;

	if (tm_spool_info_read(r->output, &r->info)) {
		if (errno == ENOENT)
			return tm_failx(ENOENT, "no spools of %s to recover (no %s.spool-info)",
					r->output, r->output);
		return -1;
	}
	if (tm_pid_runs_tracemap(r->info.pid))
		return tm_failx(EBUSY, "%s: the recording is still running (tracemap pid %d)",
				r->output, (int)r->info.pid);
	snprintf(res->instance, sizeof(res->instance), "%s", r->info.instance);
	r->data = calloc(r->info.ncpus, sizeof(*r->data));
	r->ids = calloc(TM_META_MAX_IDS / 8, 1);
	if (!r->data || !r->ids)
		return tm_fail(ENOMEM, "recover %s", r->output);
	if (open_spools(r, res))
		return -1;
	meta = collect_meta(r, res);
	if (!meta)
		return -1;
	ret = write_file(r, meta);
	tm_meta_free(meta);
	if (!ret)
		remove_spools(r);
	return ret;
}

int tm_recover(const char *output, const char *tracefs, struct tm_recover_result *res)
{
	struct recover_run r = { .output = output, .tracefs = tracefs };
	int ret;

	memset(res, 0, sizeof(*res));
	ret = recover(&r, res);
	for (int i = 0; i < r.n; i++) {
		if (r.data[i].fd >= 0)
			close(r.data[i].fd);
		free((char *)r.data[i].name);
	}
	free(r.data);
	free(r.ids);
	return ret;
}
