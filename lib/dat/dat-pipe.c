// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-pipe.c - a trace.dat from a pipe (report -i -, /dev/stdin, a FIFO):
 * the reader seeks (each CPU's data is read beside the others'), so the
 * stream is first copied into an unlinked temporary file in $TMPDIR. Its
 * first bytes are checked before that, so a stream that is no trace.dat
 * fails at once instead of filling the disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat-internal.h"
#include "dat-format.h"

#define TM_PIPE_COPY	(1 << 20)

/* What the input is, for messages. */
static const char *kind_of(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a pipe";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* Read up to len bytes, fewer only at the end of the stream. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static const char *tmp_dir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

/* The temporary copy could not be made or written: errno's message, -1. */
static int no_room(const char *name)
{
	return tm_fail(errno, "%s: cannot keep the piped trace in %s (set TMPDIR to a "
		       "directory with room)", name, tmp_dir());
}

/* An unlinked read-write file in $TMPDIR; -1 + message. */
static int open_tmp(const char *name)
{
	char path[PATH_MAX];
	int fd = open(tmp_dir(), O_TMPFILE | O_RDWR | O_CLOEXEC | O_EXCL, 0600);

	if (fd >= 0)
		return fd;
	/* file systems without O_TMPFILE */
	snprintf(path, sizeof(path), "%s/tracemap-report.XXXXXX", tmp_dir());
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return no_room(name);
	unlink(path);
	return fd;
}

static int copy_rest(int in, int out, const char *name)
{
	char *buf = malloc(TM_PIPE_COPY);
	ssize_t n;
	int ret = 0;

	if (!buf)
		return tm_fail(ENOMEM, "%s", name);
	while ((n = read_full(in, buf, TM_PIPE_COPY)) > 0) {
		if (tm_write_all(out, buf, (size_t)n)) {
			ret = no_room(name);
			break;
		}
	}
	if (n < 0 && !ret)
		ret = tm_fail(errno, "%s: read", name);
	free(buf);
	return ret;
}

int tm_dat_unpipe(int *fd, const char *name, mode_t mode)
{
	char head[TM_DAT_MAGIC_LEN];
	ssize_t n;
	int flags, tmp;

	if (isatty(*fd))
		return tm_failx(EINVAL, "%s is a terminal: redirect or pipe a trace.dat into it",
				name);
	/* a FIFO was opened O_NONBLOCK (no wait for a writer): read it blocking */
	flags = fcntl(*fd, F_GETFL);
	if (flags >= 0 && (flags & O_NONBLOCK))
		fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK);
	n = read_full(*fd, head, sizeof(head));
	if (n < 0)
		return tm_fail(errno, "%s: read", name);
	if (!n)
		return tm_failx(EINVAL, "%s: empty input (%s), not a trace.dat file", name,
				kind_of(mode));
	if ((size_t)n < sizeof(head) || memcmp(head, TM_DAT_MAGIC, sizeof(head)))
		return tm_failx(EINVAL, "%s: not a trace.dat file (%s): bad magic at offset 0",
				name, kind_of(mode));
	tmp = open_tmp(name);
	if (tmp < 0)
		return -1;
	if (tm_write_all(tmp, head, sizeof(head))) {
		no_room(name);
		close(tmp);
		return -1;
	}
	if (copy_rest(*fd, tmp, name) || lseek(tmp, 0, SEEK_SET) < 0) {
		if (!errno)
			errno = EIO;
		close(tmp);
		return -1;
	}
	*fd = tmp;
	return 0;
}
