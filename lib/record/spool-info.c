// SPDX-License-Identifier: GPL-2.0-only
/*
 * spool-info.c - PREFIX.spool-info, the note beside a recording's spools that
 * says how they are written (pid, instance, version, compression, page size,
 * CPUs, clock), so that the spools of a killed recorder can be made a
 * trace.dat later; and finding spool sets whose recorder is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "long/tm-recover.h"
#include "record-internal.h"
#include "codec.h"

#define TM_INFO_SUFFIX	".spool-info"
#define TM_INFO_MAGIC	"tracemap-spools 1"

static int info_path(char *buf, size_t len, const char *prefix)
{
	if (snprintf(buf, len, "%s" TM_INFO_SUFFIX, prefix) >= (int)len)
		return tm_failx(ENAMETOOLONG, "path too long: %s" TM_INFO_SUFFIX, prefix);
	return 0;
}

int tm_spool_info_write(const char *prefix, const struct tm_spool_info *in)
{
	char path[PATH_MAX], text[512];
	int fd, n, ret = 0;

	if (info_path(path, sizeof(path), prefix))
		return -1;
	n = snprintf(text, sizeof(text), TM_INFO_MAGIC "\npid %d\ninstance %s\nversion %d\n"
		     "compression %s\nlevel %d\npage_size %zu\nncpus %d\nclock %s\n",
		     (int)in->pid, in->instance, in->version,
		     tm_compression_name(in->compression), in->level, in->page_size, in->ncpus,
		     in->clock[0] ? in->clock : "local");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return tm_fail(errno, "create %s", path);
	/* synced: it must outlive a crash together with the spools */
	if (tm_write_all(fd, text, (size_t)n) || fsync(fd))
		ret = tm_fail(errno, "write %s", path);
	close(fd);
	if (ret)
		unlink(path);
	return ret;
}

static int parse_line(struct tm_spool_info *in, const char *key, const char *val)
{
	if (!strcmp(key, "pid"))
		in->pid = (pid_t)atoi(val);
	else if (!strcmp(key, "instance"))
		snprintf(in->instance, sizeof(in->instance), "%s", val);
	else if (!strcmp(key, "version"))
		in->version = atoi(val);
	else if (!strcmp(key, "compression"))
		return tm_compression_parse(val, &in->compression);
	else if (!strcmp(key, "level"))
		in->level = atoi(val);
	else if (!strcmp(key, "page_size"))
		in->page_size = strtoul(val, NULL, 10);
	else if (!strcmp(key, "ncpus"))
		in->ncpus = atoi(val);
	else if (!strcmp(key, "clock"))
		snprintf(in->clock, sizeof(in->clock), "%s", val);
	return 0;
}

int tm_spool_info_read(const char *prefix, struct tm_spool_info *in)
{
	char path[PATH_MAX], *text, *line, *save = NULL;
	int ret = 0;

	memset(in, 0, sizeof(*in));
	if (info_path(path, sizeof(path), prefix))
		return -1;
	text = tm_read_file(path, NULL);
	if (!text)
		return -1;
	line = strtok_r(text, "\n", &save);
	if (!line || strcmp(line, TM_INFO_MAGIC))
		ret = tm_failx(EINVAL, "%s: not a tracemap spool note", path);
	while (!ret && (line = strtok_r(NULL, "\n", &save))) {
		char *sp = strchr(line, ' ');

		if (sp) {
			*sp = '\0';
			ret = parse_line(in, line, sp + 1);
		}
	}
	free(text);
	if (!ret && (in->pid <= 0 || !in->page_size || in->ncpus <= 0 || in->ncpus > 65536 ||
		     !tm_dat_version_supported(in->version)))
		ret = tm_failx(EINVAL, "%s: incomplete spool note", path);
	return ret;
}

void tm_spool_info_remove(const char *prefix)
{
	char path[PATH_MAX];

	if (!info_path(path, sizeof(path), prefix))
		unlink(path);
}

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
