// SPDX-License-Identifier: GPL-2.0-only
/* ring-read.c - the read() path of a CPU buffer: one page per tracefs_cpu_read() of trace_pipe_raw. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <tracefs.h>

#include "util/internal.h"
#include "ring.h"

/* A read() of n bytes: 0 when empty (EAGAIN), -1 + message; a short page zeroed to size. */
static ssize_t read_done(ssize_t n, void *buf, size_t size)
{
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n < 0)
		return tm_fail(errno, "read trace_pipe_raw");
	/* the kernel fills whole pages; zero a short one so it is still a page */
	if (n > 0 && (size_t)n < size)
		memset((char *)buf + n, 0, size - n);
	return n;
}

ssize_t tm_ring_read_cpu(struct tracefs_cpu *tcpu, void *buf, size_t size)
{
	ssize_t n;

	do {
		errno = 0;
		n = tracefs_cpu_read(tcpu, buf, true);
	} while (n < 0 && errno == EINTR);
	return read_done(n, buf, size);
}
