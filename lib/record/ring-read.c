// SPDX-License-Identifier: GPL-2.0-only
/* ring-read.c - the read() path of a CPU buffer: one page per read(trace_pipe_raw). */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "ring.h"

ssize_t tm_ring_read_page(int fd, void *buf, size_t size)
{
	ssize_t n;

	do {
		n = read(fd, buf, size);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n < 0)
		return tm_fail(errno, "read trace_pipe_raw");
	/* the kernel fills whole pages; zero a short one so it is still a page */
	if (n > 0 && (size_t)n < size)
		memset((char *)buf + n, 0, size - n);
	return n;
}
