// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracefs.c - locate tracefs (mounting it when we may) and check access; the
 * libtracefs file calls with our one-line messages (path and kernel errno).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tracefs.h>

#include "util/internal.h"
#include "tm-tracefs.h"
#include "tracefs-internal.h"

/*
 * tracefs_tracing_dir(): the mounted tracefs, or one it mounted now (as root).
 * NULL + message. Not tracefs_tracing_dir_is_mounted(): 1.6.4 leaks its answer.
 */
static const char *tfs_mount_point(void)
{
	const char *dir;

	errno = 0;
	dir = tracefs_tracing_dir();
	if (dir)
		return dir;
	if (geteuid() != 0)
		tm_failx(EPERM, "tracefs is not mounted and mounting it needs root: run as root, "
			 "or ask an admin to 'mount -t tracefs -o gid=GROUP,mode=0750 nodev %s'",
			 TM_TRACEFS_DEFAULT);
	else
		tm_fail(errno ? errno : ENOENT, "mount tracefs at %s", TM_TRACEFS_DEFAULT);
	return NULL;
}

const char *tm_tracefs_open(bool need_write)
{
	const char *dir = tfs_mount_point(), *path;
	char *copy;

	if (!dir)
		return NULL;
	if (access(dir, need_write ? R_OK | W_OK | X_OK : R_OK | X_OK)) {
		tm_fail(errno, "cannot %s tracefs at %s (run as root, or mount tracefs "
			"with gid=GROUP and join that group)",
			need_write ? "write to" : "read", dir);
		return NULL;
	}
	/* every later libtracefs call (instances, events, probes) works in this one */
	copy = strdup(dir);
	if (!copy || tracefs_set_tracing_dir(copy)) {
		free(copy);
		tm_fail(ENOMEM, "use tracefs at %s", dir);
		return NULL;
	}
	free(copy);
	path = tracefs_tracing_dir();
	if (!path)
		tm_fail(errno ? errno : ENOENT, "find tracefs at %s", dir);
	return path;
}

struct tracefs_instance *tm_tfs_open(const char *tracefs, const char *name)
{
	struct tracefs_instance *in;

	errno = 0;
	in = tracefs_instance_alloc(tracefs, name);
	if (!in)
		tm_fail(errno ? errno : ENOENT, "no instance %s (%s%s%s)", name ? name : "(top)",
			tracefs, name ? "/instances/" : "", name ? name : "");
	return in;
}

int tm_tfs_fail(struct tracefs_instance *in, const char *rel, int err, const char *what)
{
	char *path = tracefs_instance_get_file(in, rel);

	tm_fail(err ? err : EIO, "%s %s", what, path ? path : rel);
	tracefs_put_tracing_file(path);
	errno = err ? err : EIO;
	return -1;
}

/* tracefs_instance_file_write() or _append(): the bytes written, all of them or it failed. */
static int tfs_put(struct tracefs_instance *in, const char *rel, const char *text, bool append)
{
	char what[160];
	int n;

	errno = 0;
	n = append ? tracefs_instance_file_append(in, rel, text)
		   : tracefs_instance_file_write(in, rel, text);
	if (n >= 0 && (size_t)n == strlen(text))
		return 0;
	snprintf(what, sizeof(what), "write '%.120s' to", text);
	return tm_tfs_fail(in, rel, n < 0 ? errno : EIO, what);
}

int tm_tfs_write(struct tracefs_instance *in, const char *rel, const char *text)
{
	return tfs_put(in, rel, text, false);
}

int tm_tfs_append(struct tracefs_instance *in, const char *rel, const char *text)
{
	return tfs_put(in, rel, text, true);
}

char *tm_tfs_read(struct tracefs_instance *in, const char *rel, size_t *len)
{
	int size = 0, err;
	char *text;

	errno = 0;
	text = tracefs_instance_file_read(in, rel, &size);
	/* libtracefs gives NULL for an empty file too, and leaves errno alone then */
	if (!text && !errno) {
		text = calloc(1, 1);
		size = 0;
		if (!text)
			errno = ENOMEM;
	}
	if (!text) {
		err = errno;
		tm_tfs_fail(in, rel, err, err == ENOENT || err == EACCES || err == EPERM ?
			    "open" : "read");
		return NULL;
	}
	if (len)
		*len = (size_t)size;
	return text;
}

int tm_tfs_open_file(const char *dir, const char *rel, int flags)
{
	struct tracefs_instance *in;
	int fd, err;

	errno = 0;
	in = tracefs_instance_alloc(dir, NULL);
	if (!in)
		return -1;
	fd = tracefs_instance_file_open(in, rel, flags);
	err = errno;
	tracefs_instance_free(in);
	errno = err;
	return fd;
}
