// SPDX-License-Identifier: GPL-2.0-only
/*
 * spool-info.c - PREFIX.spool-info, the note beside a recording's spools that
 * says how they are written (pid, instance, version, compression, page size,
 * CPUs, clock), so that the spools of a killed recorder can be made a
 * trace.dat later (long/orphans.c finds the sets whose recorder is gone).
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
#include "record-internal.h"
#include "dat/codec.h"
#include "dat/tm-write.h"

#define TM_INFO_SUFFIX	".spool-info"
#define TM_INFO_MAGIC	"tracemap-spools 1"

static int info_path(char *buf, size_t len, const char *prefix)
{
	if (snprintf(buf, len, "%s" TM_INFO_SUFFIX, prefix) >= (int)len)
		return tm_failx(ENAMETOOLONG, "path too long: %s" TM_INFO_SUFFIX, prefix);
	return 0;
}

bool tm_spool_registry_link(char *buf, size_t len, const char *instance)
{
	return *instance && !strchr(instance, '/') &&
	       snprintf(buf, len, TM_SPOOL_REGISTRY "/%s", instance) < (int)len;
}

/*
 * Link the note at path from the registry; false when it cannot (best
 * effort, see record-internal.h: reset then looks in the directories only).
 */
static bool registry_add(const char *path, const char *instance)
{
	char link[PATH_MAX], *abs = realpath(path, NULL);
	bool linked = false;

	if (abs && tm_spool_registry_link(link, sizeof(link), instance) &&
	    (!mkdir(TM_SPOOL_REGISTRY, 0755) || errno == EEXIST)) {
		unlink(link);		/* an earlier recorder's of the same pid */
		linked = !symlink(abs, link);
	}
	free(abs);
	return linked;
}

/* Remove the registry link of instance if it points at the note at path. */
static void registry_remove(const char *path, const char *instance)
{
	char link[PATH_MAX], target[PATH_MAX], *abs = realpath(path, NULL);
	ssize_t n;

	if (abs && tm_spool_registry_link(link, sizeof(link), instance) &&
	    (n = readlink(link, target, sizeof(target) - 1)) > 0) {
		target[n] = '\0';
		if (!strcmp(target, abs))
			unlink(link);
	}
	free(abs);
}

bool tm_spool_info_is_newest(const char *prefix, const char *instance)
{
	char path[PATH_MAX], link[PATH_MAX], target[PATH_MAX], *abs;
	ssize_t n;
	bool newest;

	if (info_path(path, sizeof(path), prefix) ||
	    !tm_spool_registry_link(link, sizeof(link), instance) ||
	    (n = readlink(link, target, sizeof(target) - 1)) <= 0)
		return true;
	target[n] = '\0';
	abs = realpath(path, NULL);
	newest = !abs || !strcmp(target, abs);
	free(abs);
	return newest;
}

int tm_spool_info_write(const char *prefix, const struct tm_spool_info *in)
{
	char path[PATH_MAX], text[512 + PATH_MAX];
	int fd, n, ret = 0;

	if (info_path(path, sizeof(path), prefix))
		return -1;
	n = snprintf(text, sizeof(text), TM_INFO_MAGIC "\npid %d\ninstance %s\nversion %d\n"
		     "compression %s\nlevel %d\npage_size %zu\nncpus %d\nclock %s\n",
		     (int)in->pid, in->instance, in->version,
		     tm_compression_name(in->compression), in->level, in->page_size, in->ncpus,
		     in->clock[0] ? in->clock : "local");
	if (in->previous[0])
		n += snprintf(text + n, sizeof(text) - n, "previous %s\n", in->previous);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return tm_fail(errno, "create %s", path);
	/* synced: it must outlive a crash together with the spools */
	if (tm_write_all(fd, text, (size_t)n) || fsync(fd))
		ret = tm_fail(errno, "write %s", path);
	close(fd);
	if (ret)
		unlink(path);
	else
		registry_add(path, in->instance);
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
	else if (!strcmp(key, "previous"))
		snprintf(in->previous, sizeof(in->previous), "%s", val);
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
	struct tm_spool_info info;

	if (info_path(path, sizeof(path), prefix))
		return;
	if (!tm_spool_info_read(prefix, &info))
		registry_remove(path, info.instance);
	unlink(path);
}

/*
 * Appended, one "cut CPU TIME" line a CPU, in one write: a recorder killed
 * there leaves all of them or none (recover then reads the number before).
 * A note is never written over.
 */
int tm_spool_info_add_cuts(const char *prefix, const uint64_t *ts, int ncpus)
{
	size_t cap = (size_t)ncpus * 40 + 1, len = 0;	/* a line: 36 bytes at most */
	char path[PATH_MAX], *text;
	int fd, ret = 0;

	if (info_path(path, sizeof(path), prefix))
		return -1;
	text = malloc(cap);
	if (!text)
		return tm_fail(ENOMEM, "write %s", path);
	for (int cpu = 0; cpu < ncpus; cpu++)
		len += snprintf(text + len, cap - len, "cut %d %llu\n", cpu,
				(unsigned long long)ts[cpu]);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		ret = tm_fail(errno, "open %s", path);
	else if (tm_write_all(fd, text, len) || fsync(fd))
		ret = tm_fail(errno, "write %s", path);
	if (fd >= 0)
		close(fd);
	free(text);
	return ret;
}

int tm_spool_info_cuts(const char *prefix, uint64_t *ts, int ncpus)
{
	char path[PATH_MAX], *text, *line, *save = NULL;
	unsigned long long t;
	int cpu, found = 0;

	memset(ts, 0, sizeof(*ts) * (size_t)ncpus);
	if (info_path(path, sizeof(path), prefix))
		return -1;
	text = tm_read_file(path, NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "cut %d %llu", &cpu, &t) != 2)
			continue;
		found = 1;
		if (cpu >= 0 && cpu < ncpus)
			ts[cpu] = t;
	}
	free(text);
	return found;
}
