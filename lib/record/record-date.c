// SPDX-License-Identifier: GPL-2.0-only
/*
 * record-date.c - record --date: the offset between the instance's trace
 * clock and the wall clock, measured with trace_marker writes bracketed by
 * CLOCK_REALTIME reads before recording starts (the DATE option, spec §5),
 * the markers read back from the CPU's ring.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <tracefs.h>

#include "dat/dat-format.h"
#include "util/internal.h"
#include "tracefs/tm-session.h"
#include "ring.h"
#include "tm-recfile.h"
#include "dat/page.h"
#include "tracefs/tracefs-internal.h"

#define TM_DATE_TRIES	16
#define TM_DATE_STAMP	"tracemap-date-"

struct tm_date_try {
	uint64_t	before, after;	/* CLOCK_REALTIME ns around the write */
	uint64_t	ts;		/* the marker's trace-clock time, 0: not seen */
};

static uint64_t realtime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* A CPU we may run on that the instance traces; -1 if none. */
static int date_cpu(const cpu_set_t *allowed, const bool *cpus, int ncpus)
{
	for (int cpu = 0; cpu < ncpus && cpu < CPU_SETSIZE; cpu++)
		if (cpus[cpu] && CPU_ISSET(cpu, allowed))
			return cpu;
	return -1;
}

/*
 * Write the numbered markers (tracefs_printf(), the marker opened before),
 * each between two wall-clock reads, with tracing on.
 */
static int date_write(struct tracefs_instance *in, struct tm_date_try *t)
{
	char line[64];
	int ret = 0;

	if (tracefs_print_init(in))
		return tm_tfs_fail(in, "trace_marker", errno, "--date: open");
	if (tracefs_trace_on(in)) {
		tracefs_print_close(in);
		return tm_tfs_fail(in, "tracing_on", errno, "write '1' to");
	}
	for (int i = 0; i < TM_DATE_TRIES && !ret; i++) {
		snprintf(line, sizeof(line), TM_DATE_STAMP "%d\n", i);
		t[i].before = realtime_ns();
		if (tracefs_printf(in, "%s", line))
			ret = tm_tfs_fail(in, "trace_marker", errno, "--date: write");
		t[i].after = realtime_ns();
	}
	tracefs_print_close(in);
	if (tracefs_trace_off(in))
		return tm_tfs_fail(in, "tracing_on", errno, "write '0' to");
	return ret;
}

/* The markers' times from one page of the CPU's buffer. */
static int date_scan_page(const void *page, size_t size, struct tm_date_try *t)
{
	struct tm_page pg;
	struct tm_rec rec;
	int r;

	if (tm_page_init(&pg, page, size, sizeof(unsigned long), tm_host_is_big_endian()))
		return -1;
	while ((r = tm_page_next(&pg, &rec)) > 0) {
		const char *hit = memmem(rec.data, rec.size, TM_DATE_STAMP, strlen(TM_DATE_STAMP));
		const char *end = (const char *)rec.data + rec.size;
		int i = 0;

		if (!hit)
			continue;
		for (hit += strlen(TM_DATE_STAMP); hit < end && *hit >= '0' && *hit <= '9'; hit++)
			i = i * 10 + (*hit - '0');
		if (i < TM_DATE_TRIES)
			t[i].ts = rec.ts;
	}
	return r;
}

/* One page read: the markers on it noted. */
static int date_page(void *ctx, const void *page, size_t size)
{
	return date_scan_page(page, size, ctx) < 0 ? -1 : 0;
}

/* Read the CPU's buffer empty (the ring's read() path, no mapping), noting the markers. */
static int date_read(const char *dir, int cpu, size_t page_size, struct tm_date_try *t)
{
	struct tm_ring *ring = tm_ring_open(dir, cpu, page_size, false);
	int ret;

	if (!ring)
		return tm_fail_prefix("--date");
	ret = tm_ring_drain(ring, true, date_page, t) < 0 ? -1 : 0;
	tm_ring_close(ring);
	return ret;
}

/* Wall clock minus trace clock in µs, from the try with the narrowest bracket. */
static int date_pick(const struct tm_date_try *t, char *out, size_t len)
{
	uint64_t best = UINT64_MAX, offset = 0;

	for (int i = 0; i < TM_DATE_TRIES; i++) {
		uint64_t width = t[i].after - t[i].before;

		if (!t[i].ts || width >= best)
			continue;
		best = width;
		offset = t[i].before + width / 2 - t[i].ts;
	}
	if (best == UINT64_MAX)
		return tm_failx(EIO, "--date: none of the trace_marker lines came back");
	snprintf(out, len, "0x%llx", (unsigned long long)(offset / 1000));
	return 0;
}

int tm_record_date_offset(struct tm_session *s, const bool *cpus, int ncpus, char *out,
			  size_t len)
{
	struct tm_date_try t[TM_DATE_TRIES] = { 0 };
	const char *dir = tm_session_dir(s);
	cpu_set_t saved, one;
	int cpu, ret;

	/* markers land in the writer's CPU buffer: stay on one the instance traces */
	if (sched_getaffinity(0, sizeof(saved), &saved))
		return tm_fail(errno, "--date: sched_getaffinity");
	cpu = date_cpu(&saved, cpus, ncpus);
	if (cpu < 0)
		return tm_failx(EINVAL, "--date: no traced CPU is in this process's affinity");
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return tm_fail(errno, "--date: sched_setaffinity to CPU %d", cpu);
	ret = date_write(tm_session_instance(s), t);
	if (sched_setaffinity(0, sizeof(saved), &saved) && !ret)
		ret = tm_fail(errno, "--date: restore the CPU affinity");
	if (!ret)
		ret = date_read(dir, cpu, tm_session_page_size(s), t);
	/* whatever else the instance saw meanwhile goes too: recording starts empty */
	if (tracefs_instance_file_clear(tm_session_instance(s), "trace") && !ret)
		ret = tm_tfs_fail(tm_session_instance(s), "trace", errno, "clear");
	return ret ? -1 : date_pick(t, out, len);
}
