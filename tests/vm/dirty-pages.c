// SPDX-License-Identifier: GPL-2.0-only
/*
 * dirty-pages.c - drive one CPU's ring buffer of a tracefs instance into the state
 * where ring_buffer_nr_dirty_pages() sees pages_read > pages_touched - pages_lost + 1
 * and warns (docs/kernel-ring-buffer-warning.md). tests/vm/guest-dirty-pages.sh
 * builds and runs it in a guest. Usage:
 *   dirty-pages INSTANCE_DIR CYCLES read|mmap [reset]
 * On CPU 0, with only trace_marker writes in the instance: CYCLES times, one marker,
 * then read the ring empty (read() of trace_pipe_raw, or a mapping's GET_READER),
 * which swaps the writer's sub-buffer in as the reader page, then change
 * buffer_subbuf_size_kb (4 <-> 8 KiB; with "reset", truncate the trace after it).
 * Then one marker, the ring read empty once more, enough markers for the writer to
 * leave that sub-buffer, and a poll() of trace_pipe_raw with buffer_percent 50:
 * rb_watermark_hit() -> full_hit() -> ring_buffer_nr_dirty_pages().
 * A test helper: prints what it did, exits 1 on a failed step.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define GET_READER	_IO('R', 0x20)	/* TRACE_MMAP_IOCTL_GET_READER */

static const char *dir;

static int put(const char *rel, const char *text, int flags)
{
	char path[4096];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fd = open(path, O_WRONLY | flags);
	if (fd < 0) {
		printf("open %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	if (!ok)
		printf("write '%s' to %s: %s\n", text, path, strerror(errno));
	close(fd);
	return ok ? 0 : -1;
}

static int marker(size_t len)
{
	char text[1024];

	if (len >= sizeof(text))
		len = sizeof(text) - 1;
	memset(text, 'm', len);
	text[len] = '\0';
	return put("trace_marker", text, 0);
}

static int open_raw(void)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu0/trace_pipe_raw", dir);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		printf("open %s: %s\n", path, strerror(errno));
	return fd;
}

/* read() until EAGAIN: the last page read is the one the writer is on. */
static int drain_read(void)
{
	static char page[128 * 1024];
	int fd = open_raw(), n = 0;
	ssize_t got;

	if (fd < 0)
		return -1;
	while ((got = read(fd, page, sizeof(page))) > 0)
		n++;
	if (got < 0 && errno != EAGAIN) {
		printf("read trace_pipe_raw: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return n;
}

/* Map the meta page, GET_READER twice (the second finds nothing new), unmap. */
static int drain_mmap(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	int fd = open_raw(), ret = 0;
	void *meta;

	if (fd < 0)
		return -1;
	meta = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		printf("mmap trace_pipe_raw: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	for (int i = 0; i < 2; i++)
		if (ioctl(fd, GET_READER) < 0) {
			printf("GET_READER: %s\n", strerror(errno));
			ret = -1;
		}
	munmap(meta, pg);
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	bool use_mmap, reset;
	struct pollfd p;
	cpu_set_t cpus;
	int cycles, kb = 4, fd, n;

	if (argc < 4) {
		fprintf(stderr, "usage: dirty-pages INSTANCE_DIR CYCLES read|mmap [reset]\n");
		return 2;
	}
	dir = argv[1];
	cycles = atoi(argv[2]);
	use_mmap = !strcmp(argv[3], "mmap");
	reset = argc > 4 && !strcmp(argv[4], "reset");
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		printf("sched_setaffinity: %s\n", strerror(errno));
		return 1;
	}
	if (put("buffer_subbuf_size_kb", "4", 0) || put("buffer_percent", "50", 0) ||
	    put("tracing_on", "1", 0))
		return 1;
	for (int c = 0; c < cycles; c++) {
		if (marker(16))
			return 1;
		n = use_mmap ? drain_mmap() : drain_read();
		if (n < 0)
			return 1;
		kb = kb == 4 ? 8 : 4;
		if (put("buffer_subbuf_size_kb", kb == 4 ? "4" : "8", 0))
			return 1;
		if (reset && put("trace", "", O_TRUNC))
			return 1;
		printf("cycle %d: marker, ring read empty (%s), sub-buffers now %d KiB%s\n",
		       c + 1, use_mmap ? "GET_READER" : "read()", kb, reset ? ", trace reset" : "");
	}
	if (marker(16) || (use_mmap ? drain_mmap() : drain_read()) < 0)
		return 1;
	/* a little more than one sub-buffer: the writer leaves the reader page once */
	for (int i = 0; i < kb + 1; i++)
		if (marker(1000))
			return 1;
	fd = open_raw();
	if (fd < 0)
		return 1;
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	n = poll(&p, 1, 200);
	printf("poll with buffer_percent 50: %d (revents %#x)\n", n, n > 0 ? p.revents : 0);
	close(fd);
	return 0;
}
