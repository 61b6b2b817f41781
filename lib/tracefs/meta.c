// SPDX-License-Identifier: GPL-2.0-only
/* meta.c - a recording's metadata from tracefs (or a directory laid out like it). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <tracefs.h>

#include "meta-internal.h"
#include "tracefs-internal.h"
#include "util/internal.h"

#define TM_KALLSYMS_DEFAULT	"/proc/kallsyms"

/* Read <instance>/<rel> into t; a missing file leaves t empty when optional. */
static int meta_read(struct tm_text *t, struct tracefs_instance *in, const char *rel,
		     bool optional)
{
	tm_text_free(t);
	t->data = tm_tfs_read(in, rel, &t->len);
	if (t->data)
		return 0;
	if (optional && errno == ENOENT)
		return 0;
	return -1;
}

static int meta_uname(struct tm_meta *meta)
{
	struct utsname u;

	if (uname(&u))
		return tm_fail(errno, "uname");
	if (asprintf(&meta->uname, "%s %s %s %s", u.sysname, u.nodename, u.release,
		     u.machine) < 0) {
		meta->uname = NULL;
		return tm_fail(ENOMEM, "uname");
	}
	return 0;
}

static int meta_read_stats(struct tm_meta *meta, struct tracefs_instance *in)
{
	char rel[64];
	int cpu;

	meta->stats = calloc(meta->ncpus ? meta->ncpus : 1, sizeof(*meta->stats));
	if (!meta->stats)
		return tm_fail(ENOMEM, "cpu stats");
	for (cpu = 0; cpu < meta->ncpus; cpu++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		if (meta_read(&meta->stats[cpu], in, rel, true))
			return -1;
	}
	return 0;
}

/* kallsyms: /proc's, not a tracefs file. */
static int meta_read_kallsyms(struct tm_meta *meta, const char *path)
{
	tm_text_free(&meta->kallsyms);
	meta->kallsyms.data = tm_read_file(path, &meta->kallsyms.len);
	if (!meta->kallsyms.data)
		return -1;
	tm_meta_check_kallsyms(meta);
	return 0;
}

/* The selected clock, as tracefs_get_clock() reads it. */
static void meta_clock(struct tm_meta *meta, struct tracefs_instance *in)
{
	char *clock = tracefs_get_clock(in);

	snprintf(meta->clock, sizeof(meta->clock), "%s", clock ? clock : "");
	free(clock);
}

static int meta_read_files(struct tm_meta *meta, const struct tm_meta_opts *o,
			   struct tracefs_instance *top, struct tracefs_instance *in)
{
	if (meta_read_kallsyms(meta, o->kallsyms ? o->kallsyms : TM_KALLSYMS_DEFAULT) ||
	    meta_read(&meta->printk, top, "printk_formats", true) ||
	    meta_read(&meta->cmdlines, top, "saved_cmdlines", true) ||
	    meta_read(&meta->trace_clock, in, "trace_clock", false))
		return -1;
	meta_clock(meta, in);
	return meta_read_stats(meta, in);
}

struct tm_meta *tm_meta_collect_opts(const struct tm_meta_opts *o)
{
	struct tracefs_instance *top = NULL, *in = NULL;
	struct tm_meta *meta;
	const char *name;

	if (!o->tracefs || o->ncpus < 0) {
		tm_failx(EINVAL, "metadata: no tracefs directory or bad CPU count");
		return NULL;
	}
	meta = calloc(1, sizeof(*meta));
	if (!meta) {
		tm_fail(ENOMEM, "metadata");
		return NULL;
	}
	meta->ncpus = o->ncpus;
	name = o->instance && *o->instance ? o->instance : NULL;
	if (!(top = tm_tfs_open(o->tracefs, NULL)) || !(in = tm_tfs_open(o->tracefs, name)) ||
	    tm_meta_read_events(meta, o->tracefs, o->instance) ||
	    (o->ids && tm_meta_add_ids(meta, o->tracefs, o->ids)) ||
	    meta_read_files(meta, o, top, in) || meta_uname(meta)) {
		tm_meta_free(meta);
		meta = NULL;
	}
	tracefs_instance_free(top);
	tracefs_instance_free(in);
	return meta;
}

struct tm_meta *tm_meta_collect(const char *tracefs, const char *instance, int ncpus)
{
	struct tm_meta_opts o = { .tracefs = tracefs, .instance = instance, .ncpus = ncpus };

	return tm_meta_collect_opts(&o);
}
