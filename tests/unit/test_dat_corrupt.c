// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dat_corrupt.c - the trace.dat reader on damaged copies of the fixtures:
 * it must fail cleanly with one line naming the file and the byte offset,
 * and never hand out a silently shortened trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dat/dat-internal.h"
#include "util/internal.h"
#include "tm_test.h"
#include "dat/dat-format.h"
#include "dat/page.h"
#include "util/tm-error.h"
#include "dat/tm-dat.h"

static const char *const all_fixtures[] = {
	"sched-v6.dat", "sched-v7.dat", "sched-v7-zstd.dat", "sched-v6.convert.dat",
	"sched-v7-zstd.convert.dat", "sched-v7-zstd.onepass.dat",
	"sched-v7-zstd.onepass-single.dat", "sched-v6.onepass.dat", "lost-v6.dat",
	"lost-v7-zstd.dat", "multi-v6.dat", "multi-v7-zstd.dat",
};

#define NAME "damaged.dat"

struct memdat {
	int		fd;
	struct tm_dat	*dat;
};

static uint8_t *load(const char *fixture, size_t *len)
{
	return (uint8_t *)tm_read_file(tm_fixture(fixture), len);
}

static struct memdat open_mem(const void *buf, size_t len)
{
	struct memdat m = { .fd = memfd_create(NAME, MFD_CLOEXEC) };

	if (m.fd >= 0 && !tm_write_all(m.fd, buf, len))
		m.dat = tm_dat_open_fd(m.fd, NAME);
	return m;
}

static void close_mem(struct memdat *m)
{
	tm_dat_close(m->dat);
	if (m->fd >= 0)
		close(m->fd);
}

/* The reader's message: one line naming the file and a byte offset. */
static bool msg_ok(void)
{
	const char *m = tm_last_error();

	return !strncmp(m, NAME ": ", strlen(NAME) + 2) && strstr(m, "offset") &&
	       !strchr(m, '\n');
}

#define CHECK_MSG(what) do {						\
	if (!msg_ok()) {						\
		fprintf(stderr, "  %s: bad message: %s\n", what,	\
			tm_last_error());				\
		t->failures++;						\
	}								\
} while (0)

/* The last error is one good line and names want. */
static void check_error(struct tm_test *t, const char *fixture, const char *want)
{
	CHECK_MSG(want);
	if (!strstr(tm_last_error(), want)) {
		fprintf(stderr, "  %s: \"%s\" lacks \"%s\"\n", fixture, tm_last_error(), want);
		t->failures++;
	}
}

/*
 * Walk every page and record: 0 with *records set, or -1 when a cursor
 * failed (its message must then be a proper one: checked by the caller).
 * Corrupt records inside a page are page.c's business: they end the page.
 */
static int walk_all(struct tm_dat *dat, long *records)
{
	int buf, cpu;

	*records = 0;
	for (buf = 0; buf < tm_dat_buffer_count(dat); buf++) {
		for (cpu = 0; cpu < tm_dat_buffer_cpus(dat, buf); cpu++) {
			struct tm_cursor *cur = tm_cursor_open(dat, buf, cpu);
			const void *page;
			int err;

			if (!cur && errno)
				return -1;
			if (!cur)
				continue;
			while ((page = tm_cursor_next_page(cur))) {
				struct tm_page pg;
				struct tm_rec rec;

				if (tm_page_init(&pg, page, tm_dat_buffer_page_size(dat, buf),
						 tm_dat_commit_size(dat), tm_dat_big_endian(dat)))
					continue;
				while (tm_page_next(&pg, &rec) > 0)
					(*records)++;
			}
			err = errno;
			tm_cursor_close(cur);
			if (err)
				return -1;
		}
	}
	return 0;
}

/* Open and walk a damaged copy; a success must deliver every record. */
static void check_damaged(struct tm_test *t, const uint8_t *buf, size_t len, long full,
			  const char *what, size_t where)
{
	struct memdat m = open_mem(buf, len);
	char label[160];
	long n;

	snprintf(label, sizeof(label), "%s @%zu", what, where);
	if (!m.dat) {
		CHECK_MSG(label);
	} else if (walk_all(m.dat, &n)) {
		CHECK_MSG(label);
	} else if (full >= 0 && n != full) {
		fprintf(stderr, "  %s: opened and gave %ld of %ld records\n", label, n, full);
		t->failures++;
	}
	close_mem(&m);
}

static long full_records(struct tm_test *t, const uint8_t *buf, size_t len)
{
	struct memdat m = open_mem(buf, len);
	long n = -1;

	if (!m.dat || walk_all(m.dat, &n)) {
		fprintf(stderr, "  intact copy failed: %s\n", tm_last_error());
		t->failures++;
	}
	close_mem(&m);
	return n;
}

TM_TEST(dat_corrupt_truncated_at_many_offsets)
{
	size_t i, len, cut, step;

	for (i = 0; i < TM_ARRAY_SIZE(all_fixtures); i++) {
		uint8_t *buf = load(all_fixtures[i], &len);
		long full;

		TM_REQUIRE(buf);
		full = full_records(t, buf, len);
		step = len / 300 ? len / 300 : 1;
		for (cut = 0; cut < len; cut += cut < 700 ? 1 : step)
			check_damaged(t, buf, cut, full, all_fixtures[i], cut);
		free(buf);
	}
}

TM_TEST(dat_corrupt_flipped_bytes_fail_cleanly)
{
	static const uint8_t masks[] = { 0xff, 0x01, 0x80 };
	size_t i, k, len, off, step;

	for (i = 0; i < TM_ARRAY_SIZE(all_fixtures); i++) {
		uint8_t *buf = load(all_fixtures[i], &len);

		TM_REQUIRE(buf);
		step = len / 400 ? len / 400 : 1;
		for (off = 0; off < len; off += off < 128 ? 1 : step) {
			for (k = 0; k < TM_ARRAY_SIZE(masks); k++) {
				buf[off] ^= masks[k];
				check_damaged(t, buf, len, -1, "flip", off);
				buf[off] ^= masks[k];
			}
		}
		free(buf);
	}
}

/* Patch a copy of a fixture, open it, expect failure with a message holding want. */
static void expect_open_fail(struct tm_test *t, const char *fixture, size_t off,
			     const void *bytes, size_t n, const char *want)
{
	size_t len;
	uint8_t *buf = load(fixture, &len);
	struct memdat m;

	TM_REQUIRE(buf && off + n <= len);
	memcpy(buf + off, bytes, n);
	m = open_mem(buf, len);
	if (m.dat) {
		fprintf(stderr, "  %s patched at %zu: opened, expected \"%s\"\n", fixture, off,
			want);
		t->failures++;
	} else {
		check_error(t, fixture, want);
	}
	close_mem(&m);
	free(buf);
}

static void expect_open_fail64(struct tm_test *t, const char *fixture, size_t off,
			       uint64_t v, const char *want)
{
	expect_open_fail(t, fixture, off, &v, sizeof(v), want);
}

static void expect_open_fail32(struct tm_test *t, const char *fixture, size_t off,
			       uint32_t v, const char *want)
{
	expect_open_fail(t, fixture, off, &v, sizeof(v), want);
}

TM_TEST(dat_corrupt_prologue_messages)
{
	expect_open_fail(t, "sched-v7.dat", 0, "X", 1, "bad magic at offset 0");
	expect_open_fail(t, "sched-v6.dat", 10, "8", 1, "version 8 at offset 10");
	expect_open_fail(t, "sched-v7.dat", 10, "9", 1, "version 9 at offset 10");
	expect_open_fail(t, "sched-v7.dat", 12, "\x02", 1, "endian");
	expect_open_fail(t, "sched-v7.dat", 13, "\x05", 1, "long size");
	expect_open_fail32(t, "sched-v7.dat", 14, 3, "page size 3");
	expect_open_fail(t, "sched-v7-zstd.dat", 18, "zsta", 4, "unknown compression 'zsta'");
	expect_open_fail(t, "sched-v7-zstd.dat", 18, "zlib", 4, "'zlib' is not supported");
	expect_open_fail64(t, "sched-v7.dat", 24, 0, "first options offset is 0");
	expect_open_fail64(t, "sched-v7.dat", 24, 1ull << 40, "past the end");
}

TM_TEST(dat_corrupt_v7_section_messages)
{
	/* the options pointer aimed at the header info section (§10.2) */
	expect_open_fail64(t, "sched-v7.dat", 24, 32,
			   NAME ": options section at offset 32: id 16, expected 0");
	/* header info section size far past the end */
	expect_open_fail64(t, "sched-v7.dat", 32 + 8, 1ull << 50, "runs past the end");
	/* DONE of the second options section pointing back to itself */
	expect_open_fail64(t, "sched-v7.dat", 0x1605b, 0x16000, "loops");
	/* CPU 1's entry of the BUFFER option says CPU 0 again */
	expect_open_fail32(t, "sched-v7.dat", 0x16041, 0, "CPU 0 listed twice");
	/* CPU 1's data size one page past its section */
	expect_open_fail64(t, "sched-v7.dat", 0x16041 + 12, 0x6000, "outside its section");
	/* chunk 0 of CPU 0: 0x5001 bytes are not whole pages */
	expect_open_fail32(t, "sched-v7-zstd.dat", 8192 + 8, 0x5001, "not whole 4096-byte pages");
	/* chunk 0 compressed size past the blob */
	expect_open_fail32(t, "sched-v7-zstd.dat", 8192 + 4, 0xfffff, "past the data's end");
	/* chunk count too large for the blob */
	expect_open_fail32(t, "sched-v7-zstd.dat", 8192, 1000, "cannot fit");
	/* compressed header info block claims 256 MiB */
	expect_open_fail32(t, "sched-v7-zstd.dat", 37 + 16 + 4, 0x10000000, "cannot come from");
}

TM_TEST(dat_corrupt_v6_messages)
{
	/* header_page length (§10.1 @0x1e) */
	expect_open_fail64(t, "sched-v6.dat", 0x1e, 1ull << 40, "header info at offset");
	/* ftrace format count */
	expect_open_fail32(t, "sched-v6.dat", 0x1d5, 0xffffffffu, "cannot fit");
	/* CPU count */
	expect_open_fail32(t, "sched-v6.dat", 0xb9ab, 100000, "more than");
	/* CPU 0 data size */
	expect_open_fail64(t, "sched-v6.dat", 0xbbb8, 1ull << 40, "run past the end");
	/* CPU 1 data not a page multiple */
	expect_open_fail64(t, "sched-v6.dat", 0xbbc8, 0x4ff0, "not whole 4096-byte pages");
	/* flyrecord tag */
	expect_open_fail(t, "sched-v6.dat", 0xbba6, "flyrecorX", 9, "section tag at offset");
}

/* Open fine, then the cursor must fail with a message naming file and offset. */
static void expect_cursor_fail(struct tm_test *t, const char *fixture, size_t off,
			       const void *bytes, size_t n, const char *want)
{
	size_t len;
	uint8_t *buf = load(fixture, &len);
	struct memdat m;
	long records;

	TM_REQUIRE(buf && off + n <= len);
	memcpy(buf + off, bytes, n);
	m = open_mem(buf, len);
	TM_CHECK(m.dat != NULL);
	if (m.dat) {
		TM_CHECK_INT(walk_all(m.dat, &records), -1);
		check_error(t, fixture, want);
	}
	close_mem(&m);
	free(buf);
}

TM_TEST(dat_corrupt_data_messages)
{
	uint64_t commit = 0x2000;

	/* the zstd frame magic of CPU 0's first chunk */
	expect_cursor_fail(t, "sched-v7-zstd.dat", 8192 + 12, "\0\0\0\0", 4,
			   "chunk 0 at offset 8196");
	/* a commit longer than the page (first page of CPU 0, §10.4) */
	expect_cursor_fail(t, "sched-v6.dat", 0xc008, &commit, 8,
			   "page at offset 49152: page commit 8192 exceeds");
}

TM_TEST(dat_corrupt_not_a_file)
{
	int p[2];

	TM_CHECK(tm_dat_open("/nonexistent/x.dat") == NULL);
	TM_CHECK(strstr(tm_last_error(), "/nonexistent/x.dat") != NULL);
	TM_CHECK(tm_dat_open("/tmp") == NULL);
	TM_CHECK(strstr(tm_last_error(), "/tmp: is a directory") != NULL);
	/* a pipe is read whole into a temporary file, after its magic is checked */
	TM_REQUIRE(pipe(p) == 0);
	TM_REQUIRE(write(p[1], "not a trace.dat file", 20) == 20);
	close(p[1]);
	TM_CHECK(tm_dat_open_fd(p[0], "pipe.dat") == NULL);
	TM_CHECK(strstr(tm_last_error(), "pipe.dat: not a trace.dat file (a pipe)") != NULL);
	close(p[0]);
	{
		struct memdat m = open_mem("", 0);

		TM_CHECK(m.dat == NULL);
		CHECK_MSG("empty file");
		close_mem(&m);
	}
}
