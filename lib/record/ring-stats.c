// SPDX-License-Identifier: GPL-2.0-only
/*
 * ring-stats.c - the counters of a CPU's ring on the read() path, which has
 * no meta page: per_cpu/cpuN/stats (events written, overrun, read), read
 * at most once per TM_RING_STATS_NS; the level policy asks before each page.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "ring.h"
#include "tracefs/tm-session.h"
#include "tracefs/tracefs-internal.h"

#define TM_RING_STATS_NS	(1000 * 1000)

void tm_ring_stats_open(struct tm_ring_stats *s, const char *dir, int cpu)
{
	char rel[64];

	*s = (struct tm_ring_stats){ .fd = -1 };
	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
	/* kept open and pread: libtracefs's read opens the file each time */
	s->fd = tm_tfs_open_file(dir, rel, O_RDONLY | O_CLOEXEC);	/* without it: no fill */
}

unsigned int tm_ring_stats_subbufs(const char *dir, int cpu, size_t data_size)
{
	char rel[64], text[64];
	unsigned long kb;
	ssize_t n;
	int fd;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/buffer_size_kb", cpu);
	fd = tm_tfs_open_file(dir, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0 || !data_size)
		return 0;
	text[n] = '\0';
	/* the kernel's size counts the data of each sub-buffer, not its header */
	if (sscanf(text, "%lu", &kb) != 1 || !kb)
		return 0;
	return (unsigned int)(kb * 1024 / data_size) + 1;
}

void tm_ring_stats_close(struct tm_ring_stats *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

static uint64_t stats_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The counters as of now, kept for tm_ring_stats_get() too (a read each
 * round costs no second one for the fill); false when the file cannot be read.
 */
static bool stats_read(struct tm_ring_stats *s, struct tm_cpu_kstats *st)
{
	char text[512];
	ssize_t n;

	if (s->fd < 0)
		return false;
	n = pread(s->fd, text, sizeof(text) - 1, 0);
	if (n <= 0)
		return false;
	text[n] = '\0';
	tm_cpu_kstats_parse(text, st);
	/* "entries" are the unread ones; the meta page counts all ever written */
	s->written = st->entries + st->overrun + st->read;
	s->overrun = st->overrun;
	s->read = st->read;
	s->at_ns = stats_now_ns();
	return true;
}

bool tm_ring_stats_unread(struct tm_ring_stats *s, uint64_t *bytes)
{
	struct tm_cpu_kstats st;

	if (!stats_read(s, &st))
		return false;
	*bytes = st.bytes;
	return true;
}

bool tm_ring_stats_get(struct tm_ring_stats *s, uint64_t *written, uint64_t *overrun,
		       uint64_t *read)
{
	struct tm_cpu_kstats st;

	if (s->fd < 0)
		return false;
	if ((!s->at_ns || stats_now_ns() - s->at_ns >= TM_RING_STATS_NS) &&
	    !stats_read(s, &st) && !s->at_ns)
		return false;
	*written = s->written;
	*overrun = s->overrun;
	*read = s->read;
	return true;
}
