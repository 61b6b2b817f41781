// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_reader.c - libFuzzer target for the trace.dat reader: the input goes
 * into a memfd, is opened with tm_dat_open_fd, and every metadata accessor,
 * every buffer/CPU cursor and every record is walked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dat/dat-internal.h"
#include "util/internal.h"
#include "tracemap.h"
#include "dat/page.h"

/* Read every byte of a blob so the sanitizers see any bad length. */
static unsigned int touch(struct tm_blob b)
{
	unsigned int sum = 0;
	size_t i;

	for (i = 0; i < b.len; i++)
		sum += (unsigned char)b.data[i];
	return sum;
}

static unsigned int touch_str(const char *s)
{
	return s ? (unsigned int)strlen(s) : 0;
}

static unsigned int walk_meta(struct tm_dat *dat)
{
	unsigned int sum = 0;
	uint64_t id;
	size_t i, j;

	sum += tm_dat_version(dat) + tm_dat_long_size(dat) + tm_dat_page_size(dat);
	sum += tm_dat_big_endian(dat) + tm_dat_cpus(dat) + tm_dat_commit_size(dat);
	sum += touch_str(tm_dat_compression(dat)) + touch_str(tm_dat_compression_version(dat));
	sum += touch(tm_dat_header_page(dat)) + touch(tm_dat_header_event(dat));
	for (i = 0; i < tm_dat_ftrace_format_count(dat); i++)
		sum += touch(tm_dat_ftrace_format(dat, i));
	for (i = 0; i < tm_dat_system_count(dat); i++) {
		sum += touch_str(tm_dat_system_name(dat, i));
		for (j = 0; j < tm_dat_event_format_count(dat, i); j++)
			sum += touch(tm_dat_event_format(dat, i, j));
	}
	sum += touch(tm_dat_kallsyms(dat)) + touch(tm_dat_printk(dat));
	sum += touch(tm_dat_cmdlines(dat)) + touch(tm_dat_cpustat(dat));
	sum += touch_str(tm_dat_clock(dat)) + touch_str(tm_dat_uname(dat));
	sum += touch_str(tm_dat_tracer_version(dat));
	if (tm_dat_trace_id(dat, &id))
		sum += (unsigned int)id;
	sum += tm_dat_tsc2nsec(dat);
	return sum;
}

static unsigned int walk_cpu(struct tm_dat *dat, int buf, int cpu)
{
	struct tm_cursor *cur = tm_cursor_open(dat, buf, cpu);
	uint32_t page_size = tm_dat_buffer_page_size(dat, buf);
	unsigned int sum = 0;
	const void *page;

	if (!cur)
		return 0;
	while ((page = tm_cursor_next_page(cur))) {
		struct tm_page pg;
		struct tm_rec rec;

		sum += (unsigned int)tm_cursor_offset(cur);
		if (tm_page_init(&pg, page, page_size, tm_dat_commit_size(dat),
				 tm_dat_big_endian(dat)))
			continue;
		while (tm_page_next(&pg, &rec) > 0) {
			sum += (unsigned int)tm_dat_adjust_ts(dat, rec.ts);
			sum += (unsigned int)tm_dat_adjust_ts_nodate(dat, rec.ts);
			if (rec.size)
				sum += ((const uint8_t *)rec.data)[rec.size - 1];
		}
	}
	tm_cursor_close(cur);
	return sum;
}

static unsigned int walk_text(struct tm_dat *dat, int buf)
{
	struct tm_cursor *cur = tm_cursor_open_text(dat, buf);
	unsigned int sum = 0;
	const void *p;
	size_t len;

	if (!cur)
		return 0;
	while ((p = tm_cursor_next_block(cur, &len)))
		sum += touch((struct tm_blob){ .data = p, .len = len });
	tm_cursor_close(cur);
	return sum;
}

static unsigned int walk_buffers(struct tm_dat *dat)
{
	unsigned int sum = 0;
	int buf, cpu;

	for (buf = 0; buf < tm_dat_buffer_count(dat); buf++) {
		sum += touch_str(tm_dat_buffer_name(dat, buf));
		sum += touch_str(tm_dat_buffer_clock(dat, buf));
		if (tm_dat_buffer_is_text(dat, buf)) {
			sum += walk_text(dat, buf);
			continue;
		}
		for (cpu = 0; cpu < tm_dat_buffer_cpus(dat, buf); cpu++) {
			sum += (unsigned int)tm_dat_buffer_cpu_size(dat, buf, cpu);
			sum += walk_cpu(dat, buf, cpu);
		}
	}
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static volatile unsigned int sink;
	struct tm_dat *dat;
	int fd;

	fd = memfd_create("fuzz.dat", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	if (tm_write_all(fd, data, size))
		abort();
	dat = tm_dat_open_fd(fd, "fuzz.dat");
	if (dat) {
		sink += walk_meta(dat);
		sink += walk_buffers(dat);
		tm_dat_close(dat);
	} else if (!strstr(tm_last_error(), "fuzz.dat")) {
		/* every open failure names the file */
		abort();
	}
	close(fd);
	return 0;
}
