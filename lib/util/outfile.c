// SPDX-License-Identifier: GPL-2.0-only
/*
 * outfile.c - the one place that decides how an output path is written: a
 * regular file may be truncated, replaced through a temporary beside it, or
 * removed after a failure; a device, FIFO or pipe is written straight
 * through (renaming a temporary over /dev/null would replace the machine's
 * /dev/null); a symbolic link is followed to the file it names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tm-outfile.h"

#define TM_OUTFILE_MAX_LINKS	40	/* as the kernel's limit on nested links */

bool tm_outfile_is_stream(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return true;
	return !stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* The last link of a chain (relative ones from the directory of the link). */
static int link_target(const char *path, char *buf, size_t len)
{
	char link[PATH_MAX], cur[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (tm_path(cur, sizeof(cur), "%s", path))
		return -1;
	for (int hops = 0; !lstat(cur, &st) && S_ISLNK(st.st_mode); hops++) {
		const char *slash = strrchr(cur, '/');

		if (hops == TM_OUTFILE_MAX_LINKS)
			return tm_failx(ELOOP, "cannot write output %s: too many symbolic links",
					path);
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return tm_fail(errno, "cannot write output %s", path);
		link[n] = '\0';
		if (link[0] == '/' || !slash) {
			if (tm_path(cur, sizeof(cur), "%s", link))
				return -1;
		} else if (tm_path(buf, len, "%.*s/%s", (int)(slash - cur), cur, link) ||
			   tm_path(cur, sizeof(cur), "%s", buf)) {
			return -1;
		}
	}
	return tm_path(buf, len, "%s", cur);
}

/* A hidden temporary beside out->path, with the mode the file has or would get. */
static int open_temporary(struct tm_outfile *out, const char *path)
{
	const char *slash = strrchr(out->path, '/');
	struct stat st;
	mode_t mode;

	if (slash ? tm_path(out->tmp, sizeof(out->tmp), "%.*s/.%s.XXXXXX",
			    (int)(slash - out->path), out->path, slash + 1)
		  : tm_path(out->tmp, sizeof(out->tmp), ".%s.XXXXXX", out->path))
		return -1;
	out->fd = mkostemp(out->tmp, O_CLOEXEC);
	if (out->fd < 0) {
		out->tmp[0] = '\0';
		return tm_fail(errno, "cannot write output %s", path);
	}
	tm_cleanup_add(out->tmp);
	if (!stat(out->path, &st)) {
		mode = st.st_mode & 07777;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	fchmod(out->fd, mode);
	return 0;
}

/*
 * Created with O_EXCL, else opened as it is: of two processes opening one
 * new path only one may believe it created the file (and remove it after a
 * failure), or a loser's cleanup unlinks the winner's output.
 */
static int open_regular(struct tm_outfile *out, const char *path, int flags)
{
	int mode = O_WRONLY | O_CLOEXEC | (flags & TM_OUTFILE_TRUNCATE ? O_TRUNC : 0);
	bool created = false;

	if (link_target(path, out->path, sizeof(out->path)))
		return -1;
	if (flags & TM_OUTFILE_REPLACE)
		return open_temporary(out, path);
	/* a file removed between the two opens is created after all */
	for (int tries = 0; tries < 3; tries++) {
		out->fd = open(out->path, mode | O_CREAT | O_EXCL, 0666);
		created = out->fd >= 0;
		if (created || errno != EEXIST)
			break;
		out->fd = open(out->path, mode);
		if (out->fd >= 0 || errno != ENOENT)
			break;
	}
	if (out->fd < 0)
		return tm_fail(errno, "cannot write output %s", path);
	out->owned = created || (flags & TM_OUTFILE_TRUNCATE);
	return 0;
}

/*
 * A FIFO without a reader is refused instead of waited for: record opens
 * its output with the stop signals blocked, so a wait could not be
 * interrupted.
 */
static int open_stream(struct tm_outfile *out, const char *path, bool fifo)
{
	out->fd = open(path, O_WRONLY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0));
	if (out->fd < 0 && errno == ENXIO && fifo)
		return tm_failx(ENXIO, "cannot write output %s: no process has the FIFO open for "
				"reading (start its reader first)", path);
	if (out->fd < 0)
		return tm_fail(errno, "cannot write output %s", path);
	if (fifo && fcntl(out->fd, F_SETFL, fcntl(out->fd, F_GETFL) & ~O_NONBLOCK))
		return tm_fail(errno, "cannot write output %s", path);
	return 0;
}

int tm_outfile_open(struct tm_outfile *out, const char *path, int flags)
{
	struct stat st;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (!strcmp(path, "-")) {
		out->fd = STDOUT_FILENO;
		out->is_stdout = out->stream = true;
		return tm_path(out->path, sizeof(out->path), "stdout");
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return tm_failx(EISDIR, "cannot write output %s: it is a directory", path);
	if (!tm_outfile_is_stream(path))
		return open_regular(out, path, flags);
	/* by the name given: /dev/stdout's link leads to "pipe:[N]", no path */
	out->stream = true;
	if (tm_path(out->path, sizeof(out->path), "%s", path))
		return -1;
	return open_stream(out, path, S_ISFIFO(st.st_mode));
}

int tm_outfile_truncate(struct tm_outfile *out)
{
	if (out->stream)
		return 0;
	if (ftruncate(out->fd, 0) || lseek(out->fd, 0, SEEK_SET) < 0)
		return tm_fail(errno, "truncate %s", out->path);
	return 0;
}

/* fsync and close a regular file, rename its temporary over it. */
static int finish(struct tm_outfile *out)
{
	int ret = 0;

	if (!out->stream && fsync(out->fd))
		ret = tm_fail(errno, "write %s", out->path);
	if (close(out->fd) && !ret)
		ret = tm_fail(errno, "write %s", out->path);
	out->fd = -1;
	if (!ret && out->tmp[0] && rename(out->tmp, out->path))
		ret = tm_fail(errno, "rename %s to %s", out->tmp, out->path);
	if (!ret && out->tmp[0]) {
		tm_cleanup_remove(out->tmp);
		out->tmp[0] = '\0';
	}
	return ret;
}

int tm_outfile_close(struct tm_outfile *out, bool ok)
{
	int ret = 0;

	if (out->is_stdout) {
		out->fd = -1;
		return 0;
	}
	if (out->fd >= 0 && ok)
		ret = finish(out);
	if (out->fd >= 0)
		close(out->fd);
	out->fd = -1;
	if (out->tmp[0]) {
		unlink(out->tmp);
		tm_cleanup_remove(out->tmp);
	} else if ((!ok || ret) && out->owned && !out->stream)
		unlink(out->path);
	out->tmp[0] = '\0';
	return ret;
}
