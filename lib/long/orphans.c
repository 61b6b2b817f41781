// SPDX-License-Identifier: GPL-2.0-only
/*
 * orphans.c - the spool sets a directory holds whose recorder is gone (their
 * PREFIX.spool-info notes), for reset to name and keep and recover to save.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "tm-recover.h"
#include "record/record-internal.h"
#include "tracefs/tracefs-internal.h"

#define TM_INFO_SUFFIX	".spool-info"

/* The spool files of an orphan: how many, and the first. */
static int count_spools(struct tm_orphan *o, int ncpus)
{
	char path[PATH_MAX];

	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (snprintf(path, sizeof(path), "%s.cpu%d.spool", o->prefix, cpu) >=
		    (int)sizeof(path) || access(path, F_OK))
			continue;
		if (!o->files++ && !(o->first = strdup(path)))
			return -1;
	}
	return 0;
}

/* dir/name without the suffix, dir made absolute, if it is an orphan's note. */
static int orphan_at(const char *dir, const char *name, struct tm_orphan *o)
{
	size_t len = strlen(name), slen = strlen(TM_INFO_SUFFIX);
	char abs[PATH_MAX], prefix[PATH_MAX];
	struct tm_spool_info info;

	if (len <= slen || strcmp(name + len - slen, TM_INFO_SUFFIX) || !realpath(dir, abs) ||
	    snprintf(prefix, sizeof(prefix), "%s/%.*s", abs, (int)(len - slen), name) >=
	    (int)sizeof(prefix) ||
	    tm_spool_info_read(prefix, &info) || tm_pid_runs_tracemap(info.pid))
		return 0;
	o->pid = info.pid;
	snprintf(o->instance, sizeof(o->instance), "%s", info.instance);
	o->prefix = strdup(prefix);
	if (!o->prefix || count_spools(o, info.ncpus))
		return -1;
	return 1;
}

void tm_orphans_free(struct tm_orphan *list)
{
	for (struct tm_orphan *o = list; o && o->prefix; o++) {
		free(o->prefix);
		free(o->first);
	}
	free(list);
}

struct tm_orphan *tm_spools_orphaned(const char *dir)
{
	struct tm_orphan *v = calloc(1, sizeof(*v)), *tmp;
	struct dirent *d;
	size_t n = 0;
	DIR *dd;
	int r;

	if (!v) {
		tm_fail(ENOMEM, "spools in %s", dir);
		return NULL;
	}
	dd = opendir(dir);
	if (!dd) {
		tm_fail(errno, "open %s", dir);
		free(v);
		return NULL;
	}
	while ((d = readdir(dd))) {
		tmp = realloc(v, (n + 2) * sizeof(*v));
		if (!tmp)
			goto nomem;
		v = tmp;
		memset(&v[n + 1], 0, sizeof(*v));
		r = orphan_at(dir, d->d_name, &v[n]);
		if (r < 0)
			goto nomem;
		n += r;
	}
	closedir(dd);
	return v;
nomem:
	closedir(dd);
	tm_orphans_free(v);
	tm_fail(ENOMEM, "spools in %s", dir);
	return NULL;
}
