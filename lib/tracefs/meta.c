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

/* True when the text has symbol lines and every address in it is zero. */
static bool kallsyms_all_zero(const char *p, size_t len)
{
	const char *end = p + len;
	bool lines = false;

	while (p < end) {
		for (; p < end && *p != ' ' && *p != '\n'; p++)
			if (*p != '0')
				return false;
		lines = true;
		p = memchr(p, '\n', end - p);
		if (!p)
			break;
		p++;
	}
	return lines;
}

static void meta_check_kallsyms(struct tm_meta *meta)
{
	meta->warning[0] = '\0';
	if (kallsyms_all_zero(meta->kallsyms.data, meta->kallsyms.len))
		snprintf(meta->warning, sizeof(meta->warning), "kallsyms addresses read as zero "
			 "(kptr_restrict?): symbols will not resolve");
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

/* The selected clock is the bracketed word: "[local] global counter ...". */
static void meta_parse_clock(struct tm_meta *meta)
{
	const char *open, *close;
	size_t n;

	meta->clock[0] = '\0';
	open = meta->trace_clock.data ? strchr(meta->trace_clock.data, '[') : NULL;
	close = open ? strchr(open, ']') : NULL;
	if (!close)
		return;
	n = close - open - 1;
	if (n >= sizeof(meta->clock))
		n = sizeof(meta->clock) - 1;
	memcpy(meta->clock, open + 1, n);
	meta->clock[n] = '\0';
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
	meta_check_kallsyms(meta);
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
	const char *name;
	struct tm_meta *meta;

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

const char *tm_meta_warning(const struct tm_meta *meta)
{
	return meta->warning[0] ? meta->warning : NULL;
}

const char *tm_meta_clock(const struct tm_meta *meta)
{
	return meta->clock[0] ? meta->clock : NULL;
}

int tm_meta_cpus(const struct tm_meta *meta)
{
	return meta->ncpus;
}

size_t tm_meta_event_count(const struct tm_meta *meta)
{
	size_t i, n = 0;

	for (i = 0; i < meta->nsystems; i++)
		n += meta->systems[i].nformats;
	return n;
}

static int text_set(struct tm_text *t, const char *text, size_t len)
{
	char *copy = malloc(len + 1);

	if (!copy)
		return tm_fail(ENOMEM, "metadata");
	memcpy(copy, text, len);
	copy[len] = '\0';
	tm_text_free(t);
	t->data = copy;
	t->len = len;
	return 0;
}

int tm_meta_set_kallsyms(struct tm_meta *meta, const char *text, size_t len)
{
	if (text_set(&meta->kallsyms, text, len))
		return -1;
	meta_check_kallsyms(meta);
	return 0;
}

int tm_meta_set_stats(struct tm_meta *meta, int cpu, const char *text, size_t len)
{
	if (cpu < 0 || cpu >= meta->ncpus)
		return tm_failx(EINVAL, "metadata: no CPU %d (file has %d)", cpu, meta->ncpus);
	return text_set(&meta->stats[cpu], text, len);
}

int tm_meta_set_trace_clock(struct tm_meta *meta, const char *text, size_t len)
{
	if (text_set(&meta->trace_clock, text, len))
		return -1;
	meta_parse_clock(meta);
	return 0;
}

void tm_meta_free(struct tm_meta *meta)
{
	if (!meta)
		return;
	tm_text_free(&meta->header_page);
	tm_text_free(&meta->header_event);
	tm_texts_free(meta->ftrace, meta->nftrace);
	tm_systems_free(meta->systems, meta->nsystems);
	tm_text_free(&meta->kallsyms);
	tm_text_free(&meta->printk);
	tm_text_free(&meta->cmdlines);
	tm_text_free(&meta->trace_clock);
	tm_texts_free(meta->stats, (size_t)meta->ncpus);
	free(meta->uname);
	free(meta);
}
