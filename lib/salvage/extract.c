// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract.c - `tracemap extract`: what an existing instance's buffer (or the
 * top-level one) holds now, into a trace.dat, through the mapping or read().
 * No setting is changed; reading consumes the data, as any reader does, so
 * the spools are synced before anything else can fail, a failure keeps them
 * and says how many events they hold, and the file replaces its target only
 * once it is whole.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <tracefs.h>

#include "util/internal.h"
#include "util/meter.h"
#include "util/tm-error.h"
#include "tracefs/meta-internal.h"
#include "dat/dat-format.h"
#include "tm-salvage.h"
#include "tracefs/tracefs-internal.h"
#include "record/ring.h"
#include "record/record-internal.h"
#include "dat/page.h"


struct tm_extract_run {
	struct tm_page_sink	sink;
	int			cpu;
	uint64_t		max_pages;	/* one buffer's worth: a live writer cannot keep us */
	uint8_t			*ids;		/* event ids met (TM_META_MAX_IDS bits) */
	struct tm_extract_cpu	*st;
	bool			full;		/* stopped at max_pages */
	struct tm_meter		*meter;		/* NULL: no progress shown */
	struct tm_recfile	*out;
	const char		*prefix;	/* of the spools */
};

/* A page read: its data bytes and events shown to the meter with the bytes written. */
static void extract_meter(struct tm_extract_run *x, const void *page, size_t size, int events)
{
	struct tm_page pg;

	if (tm_page_init(&pg, page, size, TM_COMMIT_SIZE, tm_host_is_big_endian()))
		return;
	x->meter->p.done += pg.len;
	x->meter->p.events += events;
	x->meter->p.written = tm_recfile_written(x->out);
	tm_meter_show(x->meter);
}

/* Each page: its record ids noted, counted, then into the CPU's spool. */
static int extract_emit(void *ctx, const void *page, size_t size)
{
	struct tm_extract_run *x = ctx;
	int r;

	r = tm_page_note_ids(page, size, TM_COMMIT_SIZE, tm_host_is_big_endian(), x->ids);
	if (r < 0)
		return tm_fail_prefix("cpu%d: corrupt page", x->cpu);
	x->st->events += r;
	x->st->pages++;
	if (x->sink.page(x->sink.ctx, x->cpu, page, size))
		return -1;
	/* a spool that cannot be written (a full disk): stop consuming */
	if (tm_recfile_full(x->out))
		return tm_failx(tm_recfile_full(x->out), "cpu%d: write spool %s.cpu%d.spool: %s",
				x->cpu, x->prefix, x->cpu, strerror(tm_recfile_full(x->out)));
	if (x->meter)
		extract_meter(x, page, size, r);
	/* the kernel handed this page over (consumed): it is written before we stop */
	if (x->st->pages >= x->max_pages) {
		x->full = true;
		return tm_failx(ECANCELED, "cpu%d: one buffer's worth read", x->cpu);
	}
	return 0;
}

/*
 * The bytes of CPU cpu's buffer, from per_cpu/cpuN/buffer_size_kb: "1408" or
 * "7 (expanded: 1408)", the second of which tracefs_instance_get_buffer_size()
 * reads as 7. Per CPU: the instance's own file reads "X" once the CPUs differ.
 */
static uint64_t extract_buffer_bytes(struct tracefs_instance *in, int cpu)
{
	char rel[64], *text, *exp;
	unsigned long kb;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/buffer_size_kb", cpu);
	text = tracefs_instance_file_read(in, rel, NULL);
	if (!text)
		return 0;
	exp = strstr(text, "expanded: ");
	kb = strtoul(exp ? exp + strlen("expanded: ") : text, NULL, 10);
	free(text);
	return (uint64_t)kb * 1024;
}

/* The bytes of CPU cpu's buffer not read yet: "bytes:" of its per_cpu stats; 0 if unknown. */
static uint64_t extract_unread_bytes(struct tracefs_instance *in, int cpu)
{
	char rel[64], *text, *line;
	uint64_t bytes = 0;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
	text = tracefs_instance_file_read(in, rel, NULL);
	line = text ? strstr(text, "\nbytes: ") : NULL;
	if (line)
		bytes = strtoull(line + strlen("\nbytes: "), NULL, 10);
	free(text);
	return bytes;
}

static int extract_cpu(const struct tm_extract_opts *o, const char *dir,
			  struct tm_extract_run *x, size_t page_size)
{
	struct tm_ring *ring = tm_ring_open(dir, x->cpu, page_size, o->use_mmap);
	int ret;

	if (!ring)
		return -1;
	x->st->mapped = tm_ring_mapped(ring);
	if (!x->st->mapped)
		snprintf(x->st->why, sizeof(x->st->why), "%s", tm_ring_fallback_reason(ring));
	/* final: the page being filled too, as it is now */
	ret = tm_ring_drain(ring, true, extract_emit, x);
	if (ret < 0 && x->full)
		ret = 0;
	tm_ring_close(ring);
	return ret < 0 ? -1 : 0;
}

static int extract_meta(const char *tracefs, const char *instance, struct tm_recfile *out,
			const uint8_t *ids, int ncpus)
{
	struct tm_meta_opts mo = {
		.tracefs = tracefs, .instance = instance, .ncpus = ncpus, .ids = ids,
	};
	struct tm_meta *meta = tm_meta_collect_opts(&mo);
	int ret;

	if (!meta)
		return -1;
	ret = tm_recfile_write_meta(out, meta);
	tm_meta_free(meta);
	return ret;
}

/* Open the output with every CPU; NULL + message. */
static struct tm_recfile *extract_output(const struct tm_extract_opts *o,
					   struct tracefs_instance *in,
					   struct tm_extract_stats *st, bool *cpus,
					   char **last_boot, char **modules)
{
	struct tm_recfile_opts oo = o->out;

	if (tm_instance_page_size(in, &oo.page_size))
		return NULL;
	for (int cpu = 0; cpu < st->ncpus; cpu++)
		cpus[cpu] = true;
	oo.ncpus = st->ncpus;
	oo.cpus = cpus;
	oo.consuming = true;
	/*
	 * The note that lets recover read the spools a failure leaves, naming
	 * no instance: recover would stop and remove a recorder's instance.
	 */
	oo.instance = "";
	if (tm_instance_last_boot(in, last_boot) < 0)
		return NULL;
	if (*last_boot) {
		oo.last_boot_instance = o->instance ? o->instance : "";
		oo.last_boot_info = *last_boot;
		st->last_boot_info = true;
		/* this boot's modules, to place the previous boot's (trace-cmd 3.4 stores both) */
		*modules = tm_read_file("/proc/modules", NULL);
		oo.modules = *modules;
	}
	st->page_size = oo.page_size;
	return tm_recfile_open(&oo);
}

static uint64_t extract_events(const struct tm_extract_stats *st)
{
	uint64_t n = 0;

	for (int cpu = 0; st->cpu && cpu < st->ncpus; cpu++)
		n += st->cpu[cpu].events;
	return n;
}

/* After a failure: the consumed events stay in the spools, and the message says so. */
static void extract_keep(const struct tm_extract_opts *o, struct tm_extract_stats *st,
			 struct tm_recfile *out)
{
	uint64_t n = extract_events(st);
	const char *prefix;
	char why[512];
	int err = errno;

	if (!out || !n)
		return;
	prefix = tm_recfile_keep(out);
	snprintf(why, sizeof(why), "%s", tm_last_error());
	if (strstr(why, "tracemap recover"))	/* the message names the spools already */
		tm_failx(err, "%s (%llu events consumed from %s)", why, (unsigned long long)n,
			 o->instance ? o->instance : "the top-level buffer");
	else
		tm_failx(err, "%s; %llu events consumed from %s: what the spools hold stays in "
			 "%s.cpu*.spool: run 'tracemap recover %s'", why, (unsigned long long)n,
			 o->instance ? o->instance : "the top-level buffer", prefix, prefix);
}

/* Read o's instance; the metadata from instance meta_from's files. */
static int extract_from(const struct tm_extract_opts *o, const char *meta_from,
			struct tm_extract_stats *st);

int tm_extract(const struct tm_extract_opts *o, struct tm_extract_stats *st)
{
	struct tm_extract_opts from = *o;
	char *backup = o->instance ? tm_instance_backup(o->tracefs, o->instance) : NULL;
	char *source = NULL;
	int ret;

	/*
	 * 6.19+: the kernel's read-only copy of a persistent instance's
	 * previous boot, when it holds events: reading it leaves the
	 * instance's own buffer as it is. The kernel removes the copy once it
	 * is read out, its files failing with ENODEV (an open one too): the
	 * metadata comes from the instance it copies (the same events, clock).
	 */
	if (backup)
		from.instance = backup;
	else if (o->instance)
		source = tm_instance_backup_source(o->instance);	/* -B BACKUP */
	ret = extract_from(&from, source ? source : o->instance, st);
	if (backup)
		snprintf(st->backup, sizeof(st->backup), "%s", backup);
	free(backup);
	free(source);
	return ret;
}

static int extract_from(const struct tm_extract_opts *o, const char *meta_from,
			struct tm_extract_stats *st)
{
	struct tm_extract_run x = { 0 };
	struct tm_recfile *out = NULL;
	struct tracefs_instance *in;
	char dir[PATH_MAX], *last_boot = NULL, *modules = NULL;
	bool *cpus = NULL;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	if (tm_path(dir, sizeof(dir), "%s%s%s", o->tracefs, o->instance ? "/instances/" : "",
		    o->instance ? o->instance : ""))
		return -1;
	in = tm_tfs_open(o->tracefs, o->instance);
	if (!in)
		return -1;
	st->ncpus = get_nprocs_conf();
	st->cpu = calloc(st->ncpus, sizeof(*st->cpu));
	cpus = calloc(st->ncpus, sizeof(*cpus));
	x.ids = calloc(TM_META_MAX_IDS / 8, 1);
	if (!st->cpu || !cpus || !x.ids) {
		tm_fail(ENOMEM, "extract");
		goto out;
	}
	out = extract_output(o, in, st, cpus, &last_boot, &modules);
	if (!out)
		goto out;
	x.sink = tm_recfile_sink(out);
	x.meter = o->meter;
	x.out = out;
	x.prefix = tm_recfile_prefix(out);
	if (x.meter) {
		x.meter->p = (struct tm_progress){ 0 };
		for (int cpu = 0; cpu < st->ncpus; cpu++)
			x.meter->p.total += extract_unread_bytes(in, cpu);
	}
	if (o->before_read)
		o->before_read(o->before_ctx, o->instance, o->out.path);
	for (int cpu = 0; cpu < st->ncpus; cpu++) {
		x.cpu = cpu;
		x.st = &st->cpu[cpu];
		x.full = false;
		/*
		 * buffer_size_kb counts the data bytes of the sub-buffers (without
		 * their 8-byte time stamp and commit field); add the reader
		 * sub-buffer, the rounding and the page being filled.
		 */
		x.max_pages = extract_buffer_bytes(in, cpu) /
			      (st->page_size - 8 - TM_COMMIT_SIZE) + 3;
		if (extract_cpu(o, dir, &x, st->page_size))
			goto out;
		st->cpu[cpu].full = x.full;
	}
	/* what was consumed is on disk before anything else can fail */
	ret = tm_recfile_secure(out) ?: extract_meta(o->tracefs, meta_from, out, x.ids, st->ncpus);
	if (!ret && tm_recfile_warning(out))
		snprintf(st->warning, sizeof(st->warning), "%s", tm_recfile_warning(out));
out:
	if (ret)
		extract_keep(o, st, out);
	tm_recfile_close(out, !ret);
	tracefs_instance_free(in);
	free(last_boot);
	free(modules);
	free(x.ids);
	free(cpus);
	return ret;
}

void tm_extract_stats_free(struct tm_extract_stats *st)
{
	free(st->cpu);
	st->cpu = NULL;
}
