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
#include <tracefs.h>

#include "util/internal.h"
#include "tracefs/meta-internal.h"
#include "tm-salvage.h"
#include "dat/dat-internal.h"
#include "record/record-internal.h"
#include "tracefs/tracefs-internal.h"
#include "record/spool.h"
#include "salvage-internal.h"
#include "util/tm-outfile.h"
#include "tracefs/tm-tracefs.h"

#define TM_RECOVER_NOTE	"(recovered: metadata read from tracefs at recovery time)"

struct recover_run {
	const char		*output;
	const char		*tracefs;
	struct tm_spool_info	info;
	struct tm_cpu_data	*data;		/* the spools that hold data */
	int			n;
	uint8_t			*ids;		/* event ids met in them */
	uint64_t		*cut_ts;	/* per CPU, the last record of the files before */
	struct tm_meter		*meter;		/* NULL: no progress shown */
	char			inst_dir[PATH_MAX];	/* the recorder's instance, "" if gone */
};

static int spool_path(char *buf, size_t len, const char *output, int cpu)
{
	return tm_path(buf, len, "%s.cpu%d.spool", output, cpu);
}

/*
 * The meter's total: every spool's bytes twice, since the spools are read
 * twice, checked chunk by chunk then copied into the file.
 */
static int meter_total(struct recover_run *r)
{
	char path[PATH_MAX];
	struct stat sb;

	if (!r->meter)
		return 0;
	r->meter->p = (struct tm_progress){ 0 };
	for (int cpu = 0; cpu < r->info.ncpus; cpu++) {
		if (spool_path(path, sizeof(path), r->output, cpu))
			return -1;
		if (!stat(path, &sb))
			r->meter->p.total += 2 * (uint64_t)sb.st_size;
	}
	return 0;
}

/*
 * Per CPU, the last record the files before this one hold, when it is a
 * rotation's number after the first and the ring is read: the kernel keeps
 * a CPU's reader sub-buffer, handed out in part at the cut, until more
 * comes, and rereading it must not add those records again. The note has
 * them once the recorder noted its cut; before that, the number before is
 * still spools, finished at the cut, which say it themselves.
 */
static int cut_times(struct recover_run *r)
{
	struct tm_spool_opts so = {
		.compression = r->info.compression, .page_size = r->info.page_size,
		.chunk_pages = 1,
	};
	struct tm_spool_stats st;
	char path[PATH_MAX];
	int n;

	r->cut_ts = calloc(r->info.ncpus, sizeof(*r->cut_ts));
	if (!r->cut_ts)
		return tm_fail(ENOMEM, "recover %s", r->output);
	if (!r->inst_dir[0])
		return 0;
	n = tm_spool_info_cuts(r->output, r->cut_ts, r->info.ncpus);
	if (n || !r->info.previous[0])
		return n < 0 ? -1 : 0;
	for (int cpu = 0; cpu < r->info.ncpus; cpu++) {
		if (spool_path(path, sizeof(path), r->info.previous, cpu))
			return -1;
		if (access(path, F_OK))
			continue;
		if (tm_spool_check_file(path, &so, &st, NULL, NULL, NULL))
			return -1;
		r->cut_ts[cpu] = st.last_ts;
	}
	return 0;
}

/* Cut the spool's torn tail; then append what the instance's ring still holds. */
static int gather_cpu(struct recover_run *r, int cpu, const char *path,
		      struct tm_spool_stats *st, struct tm_recover_result *res)
{
	struct tm_spool_opts so = {
		.compression = r->info.compression, .page_size = r->info.page_size,
		.chunk_pages = 1,
	};
	struct tm_recover_ring rr = {
		.dir = r->inst_dir, .page_size = r->info.page_size,
		.compression = r->info.compression, .level = r->info.level, .ids = r->ids,
	};
	struct tm_ring_taken taken = { 0 };
	uint64_t dropped, after;

	memset(st, 0, sizeof(*st));
	if (!access(path, F_OK)) {
		if (tm_spool_check_file(path, &so, st, &dropped, r->ids, r->meter))
			return -1;
		res->dropped += dropped;
		/* a torn tail cut off is neither checked nor copied */
		if (r->meter)
			r->meter->p.total -= 2 * dropped;
	}
	after = st->last_ts > r->cut_ts[cpu] ? st->last_ts : r->cut_ts[cpu];
	if (r->inst_dir[0] && tm_recover_ring(&rr, cpu, path, after, &taken))
		return -1;
	st->pages += taken.pages;
	st->chunks += taken.chunks;
	st->file_bytes += taken.bytes;
	res->events += st->records + taken.records;
	if (cpu < TM_RECOVER_MAX_CPUS) {
		res->cpu[cpu].spooled = st->records;
		res->cpu[cpu].ring = taken.records;
		res->ncpus = cpu + 1;
	}
	return 0;
}

/* Each CPU's spool checked (and fed from the ring); the ones with data opened. */
static int open_spools(struct recover_run *r, struct tm_recover_result *res)
{
	char path[PATH_MAX];
	bool any = false;

	for (int cpu = 0; cpu < r->info.ncpus; cpu++) {
		struct tm_cpu_data *d = &r->data[r->n];
		struct tm_spool_stats st;

		if (spool_path(path, sizeof(path), r->output, cpu))
			return -1;
		any |= !access(path, F_OK);
		if (gather_cpu(r, cpu, path, &st, res))
			return -1;
		if (!st.file_bytes)
			continue;
		*d = (struct tm_cpu_data){
			.cpu = cpu, .size = st.file_bytes, .chunks = st.chunks,
			.compressed = r->info.compression != TM_COMPRESS_NONE,
			.page_size = r->info.page_size, .fd = -1,
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
	if (!any && !r->inst_dir[0])
		return tm_failx(ENOENT, "no spools of %s to recover (%s.cpuN.spool)", r->output,
				r->output);
	if (!res->events)
		return tm_failx(ENODATA, "%s: no events to recover: the spools%s hold none",
				r->output, r->inst_dir[0] ? " and the instance's ring" : "");
	return 0;
}

/* The formats of the events met (and of the instance's, if it is still there). */
static struct tm_meta *collect_meta(struct recover_run *r, struct tm_recover_result *res)
{
	struct tm_meta_opts mo = {
		.tracefs = r->tracefs, .ncpus = r->info.ncpus, .ids = r->ids,
	};
	struct tm_meta *meta;

	if (r->info.instance[0] && tracefs_instance_exists(r->info.instance)) {
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
		.meter = r->meter,
	};
	struct tm_outfile out;
	int ret;

	if (tm_outfile_open(&out, r->output, TM_OUTFILE_REPLACE))
		return -1;
	ret = tm_dat_write_data(out.fd, meta, r->data, r->n, r->info.ncpus, &wo);
	if (ret)
		tm_fail_prefix("write %s", r->output);
	else
		ret = tm_outfile_close(&out, true);
	tm_outfile_close(&out, !ret);
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

/*
 * The recorder's instance, if it is still there and this note owns its ring
 * (a rotation's older file does not): tracing off in it, so its rings hold
 * still while they are drained after the spools.
 */
static int stop_instance(struct recover_run *r)
{
	struct tracefs_instance *in;
	int ret;

	if (!r->info.instance[0] || !tm_spool_info_is_newest(r->output, r->info.instance) ||
	    tm_path(r->inst_dir, sizeof(r->inst_dir), "%s/instances/%s", r->tracefs,
		    r->info.instance) ||
	    !tracefs_instance_exists(r->info.instance)) {
		r->inst_dir[0] = '\0';
		return 0;
	}
	in = tm_tfs_open(r->tracefs, r->info.instance);
	if (!in)
		return -1;
	ret = tracefs_trace_off(in) ? tm_tfs_fail(in, "tracing_on", errno, "write '0' to") : 0;
	tracefs_instance_free(in);
	return ret;
}

/*
 * What the dead recorder added globally goes with its instance: its uprobes
 * and kprobes (best effort: one still busy stays for reset --stale).
 */
static void remove_probes(const struct recover_run *r, enum tm_probe_kind kind,
			  unsigned int *removed)
{
	char **stale = tm_probe_list_stale(r->tracefs, kind), inst[64];

	for (char **ev = stale; ev && *ev; ev++)
		if (tm_probe_instance(*ev, inst, sizeof(inst)) &&
		    !strcmp(inst, r->info.instance) &&
		    !tm_probe_remove_event(r->tracefs, kind, *ev))
			(*removed)++;
	tm_strv_free(stale);
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
	if (stop_instance(r))
		return -1;
	r->data = calloc(r->info.ncpus, sizeof(*r->data));
	r->ids = calloc(TM_META_MAX_IDS / 8, 1);
	if (!r->data || !r->ids)
		return tm_fail(ENOMEM, "recover %s", r->output);
	if (cut_times(r) || meter_total(r) || open_spools(r, res))
		return -1;
	meta = collect_meta(r, res);
	if (!meta)
		return -1;
	ret = write_file(r, meta);
	tm_meta_free(meta);
	if (ret)
		return ret;
	remove_spools(r);
	/* its ring is in the file now: the instance goes, as the recorder would have removed it */
	if (r->inst_dir[0] && !tm_instance_remove(r->tracefs, r->info.instance))
		res->ring_taken = true;
	if (res->ring_taken) {
		remove_probes(r, TM_PROBE_UPROBE, &res->uprobes);
		remove_probes(r, TM_PROBE_KPROBE, &res->kprobes);
	}
	return 0;
}

int tm_recover(const char *output, const char *tracefs, struct tm_recover_result *res,
	       struct tm_meter *meter)
{
	struct recover_run r = { .output = output, .tracefs = tracefs, .meter = meter };
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
	free(r.cut_ts);
	return ret;
}
