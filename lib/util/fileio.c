// SPDX-License-Identifier: GPL-2.0-only
/* fileio.c - small whole-file and all-bytes I/O helpers, text blobs. */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "util/internal.h"

char *tm_read_file(const char *path, size_t *len)
{
	size_t size = 0, cap = 4096;
	char *buf = NULL, *tmp;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		tm_fail(errno, "open %s", path);
		return NULL;
	}
	for (;;) {
		if (size + 1 >= cap || !buf) {
			cap = buf ? cap * 2 : cap;
			tmp = realloc(buf, cap);
			if (!tmp) {
				tm_fail(ENOMEM, "read %s", path);
				goto fail;
			}
			buf = tmp;
		}
		n = read(fd, buf + size, cap - size - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tm_fail(errno, "read %s", path);
			goto fail;
		}
		if (n == 0)
			break;
		size += n;
	}
	close(fd);
	buf[size] = '\0';
	if (len)
		*len = size;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

int tm_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int tm_pread_all(int fd, void *buf, size_t len, off_t off)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = pread(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= n;
		off += n;
	}
	return 0;
}

int tm_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		return tm_failx(ENAMETOOLONG, "path too long: %.80s...", buf);
	return 0;
}
