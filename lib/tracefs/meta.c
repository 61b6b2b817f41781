// SPDX-License-Identifier: GPL-2.0-only
/* meta.c - a recording's metadata from tracefs (or a directory laid out like it). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "meta-internal.h"
#include "tracefs-internal.h"
#include "util/internal.h"

#define TM_KALLSYMS_DEFAULT	"/proc/kallsyms"

/* Read path into t; a missing file leaves t empty when optional. */
static int meta_read(struct tm_text *t, const char *path, bool optional)
{
	tm_text_free(t);
	t->data = tm_read_file(path, &t->len);
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

static int meta_read_stats(struct tm_meta *meta, const char *dir)
{
	char path[4096];
	int cpu;

	meta->stats = calloc(meta->ncpus ? meta->ncpus : 1, sizeof(*meta->stats));
	if (!meta->stats)
		return tm_fail(ENOMEM, "cpu stats");
	for (cpu = 0; cpu < meta->ncpus; cpu++) {
		if (tm_path(path, sizeof(path), "%s/per_cpu/cpu%d/stats", dir, cpu))
			return -1;
		if (meta_read(&meta->stats[cpu], path, true))
			return -1;
	}
	return 0;
}

static int meta_read_files(struct tm_meta *meta, const struct tm_meta_opts *o,
			      const char *dir)
{
	char path[4096];

	if (meta_read(&meta->kallsyms, o->kallsyms ? o->kallsyms : TM_KALLSYMS_DEFAULT,
			 false))
		return -1;
	tm_meta_check_kallsyms(meta);
	if (tm_path(path, sizeof(path), "%s/printk_formats", o->tracefs))
		return -1;
	if (meta_read(&meta->printk, path, true))
		return -1;
	if (tm_path(path, sizeof(path), "%s/saved_cmdlines", o->tracefs))
		return -1;
	if (meta_read(&meta->cmdlines, path, true))
		return -1;
	if (tm_path(path, sizeof(path), "%s/trace_clock", dir))
		return -1;
	if (meta_read(&meta->trace_clock, path, false))
		return -1;
	tm_meta_parse_clock(meta);
	return meta_read_stats(meta, dir);
}

struct tm_meta *tm_meta_collect_opts(const struct tm_meta_opts *o)
{
	struct tm_meta *meta;
	char dir[4096];

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
	if (tm_path(dir, sizeof(dir), "%s%s%s", o->tracefs,
		    o->instance && *o->instance ? "/instances/" : "",
		    o->instance ? o->instance : "") ||
	    tm_meta_read_events(meta, o->tracefs, o->instance) ||
	    (o->ids && tm_meta_add_ids(meta, o->tracefs, o->ids)) ||
	    meta_read_files(meta, o, dir) || meta_uname(meta)) {
		tm_meta_free(meta);
		return NULL;
	}
	return meta;
}

struct tm_meta *tm_meta_collect(const char *tracefs, const char *instance, int ncpus)
{
	struct tm_meta_opts o = { .tracefs = tracefs, .instance = instance, .ncpus = ncpus };

	return tm_meta_collect_opts(&o);
}
