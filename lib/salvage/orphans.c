// SPDX-License-Identifier: GPL-2.0-only
/*
 * orphans.c - the spool sets whose recorder is gone (their PREFIX.spool-info
 * notes), in a directory or linked from the registry (/run/tracemap), for
 * reset to name and keep and recover to save.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "tm-salvage.h"
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

/*
 * dir/name without the suffix, dir made absolute, if it is an orphan's note
 * (and, with instance, that instance's).
 */
static int orphan_at(const char *dir, const char *name, const char *instance,
		     struct tm_orphan *o)
{
	size_t len = strlen(name), slen = strlen(TM_INFO_SUFFIX);
	char abs[PATH_MAX], prefix[PATH_MAX];
	struct tm_spool_info info;

	if (len <= slen || strcmp(name + len - slen, TM_INFO_SUFFIX) || !realpath(dir, abs) ||
	    snprintf(prefix, sizeof(prefix), "%s/%.*s", abs, (int)(len - slen), name) >=
	    (int)sizeof(prefix) ||
	    tm_spool_info_read(prefix, &info) || tm_pid_runs_tracemap(info.pid) ||
	    (instance && strcmp(info.instance, instance)))
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

/*
 * Append dir/name to the list *v of *n when it is an orphan's note (of
 * instance, unless NULL); -1 on ENOMEM.
 */
static int orphans_add(struct tm_orphan **v, size_t *n, const char *dir, const char *name,
		       const char *instance)
{
	struct tm_orphan *tmp = realloc(*v, (*n + 2) * sizeof(**v));
	int r;

	if (!tmp)
		return -1;
	*v = tmp;
	memset(&tmp[*n + 1], 0, sizeof(*tmp));
	r = orphan_at(dir, name, instance, &tmp[*n]);
	if (r < 0)
		return -1;
	*n += r;
	return 0;
}

struct tm_orphan *tm_spools_orphaned(const char *dir)
{
	struct tm_orphan *v = calloc(1, sizeof(*v));
	struct dirent *d;
	size_t n = 0;
	DIR *dd;

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
	while ((d = readdir(dd)))
		if (orphans_add(&v, &n, dir, d->d_name, NULL))
			goto nomem;
	closedir(dd);
	return v;
nomem:
	closedir(dd);
	tm_orphans_free(v);
	tm_fail(ENOMEM, "spools in %s", dir);
	return NULL;
}

/*
 * One registry entry: the note its link points at, when that note is an
 * orphan's and names this instance; -1 on ENOMEM.
 */
static int registered_add(struct tm_orphan **v, size_t *n, const char *instance)
{
	char link[PATH_MAX], target[PATH_MAX], *slash;
	ssize_t len;

	if (!tm_spool_registry_link(link, sizeof(link), instance))
		return 0;
	len = readlink(link, target, sizeof(target) - 1);
	if (len <= 0)
		return 0;
	target[len] = '\0';
	slash = strrchr(target, '/');
	if (!slash || slash == target)
		return 0;
	*slash = '\0';
	/* a note now of another recording is not this link's */
	return orphans_add(v, n, target, slash + 1, instance);
}

void tm_spools_registry_prune(void)
{
	char link[PATH_MAX];
	struct dirent *d;
	DIR *dd = opendir(TM_SPOOL_REGISTRY);

	if (!dd)
		return;
	while ((d = readdir(dd)))
		/* access() follows the link: ENOENT when its note is gone */
		if (d->d_name[0] != '.' && tm_spool_registry_link(link, sizeof(link), d->d_name) &&
		    access(link, F_OK) && errno == ENOENT)
			unlink(link);
	closedir(dd);
}

struct tm_orphan *tm_spools_registered(void)
{
	struct tm_orphan *v = calloc(1, sizeof(*v));
	struct dirent *d;
	size_t n = 0;
	DIR *dd;

	if (!v) {
		tm_fail(ENOMEM, "spools in " TM_SPOOL_REGISTRY);
		return NULL;
	}
	dd = opendir(TM_SPOOL_REGISTRY);
	if (!dd)
		return v;	/* none registered (or not ours to read) */
	while ((d = readdir(dd)))
		if (d->d_name[0] != '.' && registered_add(&v, &n, d->d_name)) {
			closedir(dd);
			tm_orphans_free(v);
			tm_fail(ENOMEM, "spools in " TM_SPOOL_REGISTRY);
			return NULL;
		}
	closedir(dd);
	return v;
}
