// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dat_sizes.c - the two ways trace-cmd records the size of compressed
 * data (spec §4.6): 3.1.x leaves the chunk count out, 3.2 and later count
 * it. Both read, for CPU data and BUFFER_TEXT; anything else is refused.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/buf.h"
#include "dat/dat-format.h"
#include "dat/dat-internal.h"
#include "dat/dat-write-internal.h"
#include "util/internal.h"
#include "dat/tm-codec.h"
#include "tm_test.h"
#include "dat/codec.h"
#include "dat/page.h"
#include "util/tm-error.h"
#include "dat/tm-dat.h"

/*
 * sched-v7-zstd.dat (trace-cmd dump): options section 2 at 15763 holds the
 * BUFFER option, whose CPU entries' sizes lie at 15820 and 15840 (3898 and
 * 3471, 3.1.x style), and its DONE value at 15854.
 */
#define ZSTD_CPU0_SIZE	15820
#define ZSTD_CPU1_SIZE	15840
#define ZSTD_LAST_DONE	15854

struct memfile {
	int		fd;
	struct tm_dat	*dat;
};

static struct memfile open_mem(const void *buf, size_t len)
{
	struct memfile m = { .fd = memfd_create("sizes.dat", MFD_CLOEXEC) };

	if (m.fd >= 0 && !tm_write_all(m.fd, buf, len))
		m.dat = tm_dat_open_fd(m.fd, "sizes.dat");
	return m;
}

static void close_mem(struct memfile *m)
{
	tm_dat_close(m->dat);
	if (m->fd >= 0)
		close(m->fd);
}

static void add64(uint8_t *buf, size_t off, int64_t delta)
{
	uint64_t v;

	memcpy(&v, buf + off, 8);
	v += (uint64_t)delta;
	memcpy(buf + off, &v, 8);
}

/* Records of every CPU of every buffer; -1 when a cursor fails. */
static long count_records(struct tm_dat *dat)
{
	long n = 0;
	int buf, cpu;

	for (buf = 0; buf < tm_dat_buffer_count(dat); buf++) {
		for (cpu = 0; cpu < tm_dat_buffer_cpus(dat, buf); cpu++) {
			struct tm_cursor *cur = tm_cursor_open(dat, buf, cpu);
			const void *page;
			struct tm_page pg;
			struct tm_rec rec;

			if (!cur)
				continue;
			while ((page = tm_cursor_next_page(cur))) {
				if (tm_page_init(&pg, page, tm_dat_buffer_page_size(dat, buf),
						 tm_dat_commit_size(dat), tm_dat_big_endian(dat)))
					return -1;
				while (tm_page_next(&pg, &rec) > 0)
					n++;
			}
			tm_cursor_close(cur);
		}
	}
	return n;
}

/* sched-v7-zstd.dat with both CPU sizes changed by delta. */
static struct memfile open_resized(int64_t delta, uint8_t **buf)
{
	size_t len;

	*buf = (uint8_t *)tm_read_file(tm_fixture("sched-v7-zstd.dat"), &len);
	if (!*buf)
		return (struct memfile){ .fd = -1 };
	add64(*buf, ZSTD_CPU0_SIZE, delta);
	add64(*buf, ZSTD_CPU1_SIZE, delta);
	return open_mem(*buf, len);
}

TM_TEST(dat_size_with_the_count_reads_every_record)
{
	uint8_t *buf;
	struct memfile m = open_resized(4, &buf);

	TM_REQUIRE(m.dat);
	/* data set A: 430 + 391 records (fixtures README) */
	TM_CHECK_INT(count_records(m.dat), 821);
	close_mem(&m);
	free(buf);
}

TM_TEST(dat_size_neither_convention_is_refused)
{
	static const int64_t bad[] = { 2, 8, -1 };
	uint8_t *buf;
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(bad); i++) {
		struct memfile m = open_resized(bad[i], &buf);

		TM_CHECK(m.dat == NULL);
		TM_CHECK(!strncmp(tm_last_error(), "sizes.dat: top buffer CPU 0 data", 32));
		/* -1 ends the walk inside the chunk: a different one-line message */
		TM_CHECK(bad[i] < 0 ||
			 strstr(tm_last_error(), "at offset 8192: 1 chunks take 3898 bytes "
				"(3902 with their count), the size says 390"));
		close_mem(&m);
		free(buf);
	}
}

/* Event lines of a stored report: not the cpus= header, not the drop notices. */
static long report_events(const char *report)
{
	size_t len, i;
	char *text = tm_read_file(tm_fixture(report), &len);
	long n = 0;
	bool bol = true;

	if (!text)
		return -1;
	for (i = 0; i < len; i++) {
		if (bol && strncmp(text + i, "cpus=", 5) && !strstr(text + i, "EVENTS DROPPED]\n"))
			n++;
		bol = text[i] == '\n';
		if (bol)
			text[i] = '\0';
	}
	free(text);
	return n;
}

TM_TEST(dat_size_upstream_files_read_every_record)
{
	static const char *const files[] = {
		"upstream/tc34-v7-zstd", "upstream/tc34-two-buffers", "upstream/tc334-sched",
	};
	char path[128];
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(files); i++) {
		struct tm_dat *dat;

		snprintf(path, sizeof(path), "%s.dat", files[i]);
		dat = tm_dat_open(tm_fixture(path));
		TM_REQUIRE(dat);
		snprintf(path, sizeof(path), "%s.report.txt", files[i]);
		TM_CHECK_INT(count_records(dat), report_events(path));
		tm_dat_close(dat);
	}
}

/*
 * sched-v7-zstd.dat plus a compressed BUFFER_TEXT section holding text (one
 * chunk) whose section size counts the chunk count or not, chained after the
 * last options section by a new one.
 */
static uint8_t *with_latency_text(const char *text, bool count_in_size, size_t *len)
{
	struct tm_codec *codec = tm_codec_new(TM_COMPRESS_ZSTD, 1);
	struct tm_buf b = { 0 }, opt = { 0 };
	uint8_t *file = (uint8_t *)tm_read_file(tm_fixture("sched-v7-zstd.dat"), len);
	size_t n = strlen(text), cap;
	uint8_t frame[256];
	uint64_t sec_off, opt_off;
	ssize_t c;

	cap = codec ? tm_codec_bound(codec, n) : 0;
	c = cap <= sizeof(frame) ? tm_codec_compress(codec, frame, sizeof(frame), text, n) : -1;
	tm_codec_free(codec);
	if (!file || c < 0) {
		free(file);
		return NULL;
	}
	sec_off = *len;
	tm_buf_put(&b, file, *len);
	tm_buf_put16(&b, TM_OPT_BUFFER_TEXT);
	tm_buf_put16(&b, TM_DAT_SEC_COMPRESSED);
	tm_buf_put32(&b, 0);
	tm_buf_put64(&b, (uint64_t)c + 8 + (count_in_size ? 4 : 0));
	tm_buf_put32(&b, 1);
	tm_buf_put32(&b, (uint32_t)c);
	tm_buf_put32(&b, (uint32_t)n);
	tm_buf_put(&b, frame, (size_t)c);
	opt_off = b.len;
	tm_buf_put64(&opt, sec_off);
	tm_buf_putstr(&opt, "lat");
	tm_buf_putstr(&opt, "local");
	tm_buf_put16(&b, TM_OPT_DONE);
	tm_buf_put16(&b, 0);
	tm_buf_put32(&b, 0);
	tm_buf_put64(&b, 6 + opt.len + 6 + 8);
	tm_buf_option(&b, TM_OPT_BUFFER_TEXT, opt.data, (uint32_t)opt.len);
	tm_buf_put16(&b, TM_OPT_DONE);
	tm_buf_put32(&b, 8);
	tm_buf_put64(&b, 0);
	free(file);
	tm_buf_free(&opt);
	if (b.err) {
		tm_buf_free(&b);
		return NULL;
	}
	tm_put64(b.data + ZSTD_LAST_DONE, opt_off);
	*len = b.len;
	return b.data;
}

static void check_latency_text(struct tm_test *t, bool count_in_size)
{
	static const char text[] = "# tracer: wakeup\n#\n  <idle>-0  0d..2  0us : sched\n";
	size_t len, got;
	uint8_t *file = with_latency_text(text, count_in_size, &len);
	struct tm_cursor *cur;
	struct memfile m;
	const void *block;
	int buf;

	TM_REQUIRE(file);
	m = open_mem(file, len);
	TM_REQUIRE(m.dat);
	for (buf = 0; buf < tm_dat_buffer_count(m.dat) && !tm_dat_buffer_is_text(m.dat, buf);
	     buf++)
		;
	TM_REQUIRE(buf < tm_dat_buffer_count(m.dat));
	cur = tm_cursor_open_text(m.dat, buf);
	TM_REQUIRE(cur);
	block = tm_cursor_next_block(cur, &got);
	TM_CHECK_INT(got, strlen(text));
	TM_CHECK(block && !memcmp(block, text, strlen(text)));
	TM_CHECK(tm_cursor_next_block(cur, &got) == NULL);
	tm_cursor_close(cur);
	close_mem(&m);
	free(file);
}

TM_TEST(dat_size_latency_text_without_the_count)
{
	check_latency_text(t, false);
}

TM_TEST(dat_size_latency_text_with_the_count)
{
	check_latency_text(t, true);
}
