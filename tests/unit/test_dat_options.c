// SPDX-License-Identifier: GPL-2.0-only
/* test_dat_options.c - options of patched fixture copies: DATE, OFFSET, TSC2NSEC, CPUSTAT, unknown ids. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dat/dat-internal.h"
#include "util/internal.h"
#include "tm_test.h"
#include "util/tm-error.h"
#include "dat/tm-dat.h"

/* sched-v6.dat options (§10.1): UNAME id @0xba02 (payload @0xba08, 32 B), VERSION id @0xba28 */
#define V6_UNAME_ID	0xba02
#define V6_UNAME_DATA	0xba08
#define V6_VERSION_ID	0xba28

struct patched {
	int		fd;
	struct tm_dat	*dat;
};

/* A copy of sched-v6.dat with n bytes replaced at off, opened from a memfd. */
static struct patched open_patched(size_t off, const void *bytes, size_t n)
{
	struct patched p = { .fd = -1 };
	size_t len;
	char *buf = tm_read_file(tm_fixture("sched-v6.dat"), &len);

	if (!buf || off + n > len)
		goto out;
	memcpy(buf + off, bytes, n);
	p.fd = memfd_create("patched.dat", MFD_CLOEXEC);
	if (p.fd >= 0 && !tm_write_all(p.fd, buf, len))
		p.dat = tm_dat_open_fd(p.fd, "patched.dat");
	if (!p.dat)
		fprintf(stderr, "  %s\n", tm_last_error());
out:
	free(buf);
	return p;
}

static void close_patched(struct patched *p)
{
	tm_dat_close(p->dat);
	if (p->fd >= 0)
		close(p->fd);
}

static void patch_id(struct tm_test *t, uint16_t id, uint64_t in, uint64_t want,
		     uint64_t want_nodate)
{
	struct patched p = open_patched(V6_VERSION_ID, &id, sizeof(id));

	TM_REQUIRE(p.dat);
	/* the VERSION payload "3.1.6 (...)" now reads as the number 3 */
	TM_CHECK_INT(tm_dat_adjust_ts(p.dat, in), want);
	TM_CHECK_INT(tm_dat_adjust_ts_nodate(p.dat, in), want_nodate);
	TM_CHECK(tm_dat_tracer_version(p.dat) == NULL);
	TM_CHECK(!tm_dat_tsc2nsec(p.dat));
	close_patched(&p);
}

TM_TEST(dat_option_date_adds_microseconds)
{
	patch_id(t, 1, 1000, 1000 + 3000, 1000);
}

TM_TEST(dat_option_offset_adds_nanoseconds)
{
	patch_id(t, 7, 1000, 1003, 1003);
}

TM_TEST(dat_option_unknown_id_is_skipped)
{
	uint16_t id = 200;
	struct patched p = open_patched(V6_VERSION_ID, &id, sizeof(id));

	TM_REQUIRE(p.dat);
	TM_CHECK(tm_dat_tracer_version(p.dat) == NULL);
	TM_CHECK_STR(tm_dat_uname(p.dat), "Linux vm 6.18.44-fc-v657 x86_64");
	TM_CHECK_INT(tm_dat_adjust_ts(p.dat, 77), 77);
	TM_CHECK_INT(tm_dat_buffer_cpu_size(p.dat, 0, 1), 5 * 4096);
	close_patched(&p);
}

TM_TEST(dat_option_tsc2nsec_scales_before_offsets)
{
	uint8_t opt[2 + 4 + 16] = { 14, 0, 32, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0 };
	struct patched p = open_patched(V6_UNAME_ID, opt, sizeof(opt));

	TM_REQUIRE(p.dat);
	TM_CHECK(tm_dat_tsc2nsec(p.dat));
	TM_CHECK_INT(tm_dat_adjust_ts(p.dat, 1000), 1500);
	TM_CHECK_INT(tm_dat_adjust_ts(p.dat, 1ull << 62), 3ull << 61);
	TM_CHECK(tm_dat_uname(p.dat) == NULL);
	close_patched(&p);
}

TM_TEST(dat_option_cpustat_concatenated_like_report_stat)
{
	struct tm_dat *dat = tm_dat_open(tm_fixture("sched-v6.dat"));
	struct tm_blob s;

	TM_REQUIRE(dat);
	s = tm_dat_cpustat(dat);
	/* two CPUSTAT options of 147 bytes, each NUL turned into a newline */
	TM_CHECK_INT(s.len, 2 * 147);
	TM_CHECK(memchr(s.data, '\0', s.len) == NULL);
	TM_CHECK(s.data[146] == '\n' && s.data[s.len - 1] == '\n');
	TM_CHECK(!strncmp(s.data + 147, "CPU: 1\n", 7));
	TM_CHECK(strstr(s.data, "entries:") != NULL);
	tm_dat_close(dat);
}

/* v6 with the "latency" tag: the rest of the file is text, read through a text cursor. */
TM_TEST(dat_v6_latency_text_buffer)
{
	static const char text[] = "# tracer: wakeup\n#\n  <idle>-0  0d..2  1us : foo\n";
	size_t len, tag = 0xbba6;	/* the flyrecord tag of sched-v6.dat (§10.1) */
	char *buf = tm_read_file(tm_fixture("sched-v6.dat"), &len);
	struct tm_dat *dat = NULL;
	struct tm_cursor *cur;
	const char *p;
	size_t n;
	int fd = memfd_create("latency.dat", MFD_CLOEXEC);

	TM_REQUIRE(buf && fd >= 0);
	memcpy(buf + tag, "latency  ", 10);
	TM_REQUIRE(!tm_write_all(fd, buf, tag + 10) && !tm_write_all(fd, text, strlen(text)));
	dat = tm_dat_open_fd(fd, "latency.dat");
	TM_REQUIRE(dat);
	TM_CHECK(tm_dat_buffer_is_text(dat, 0));
	TM_CHECK(tm_cursor_open(dat, 0, 0) == NULL);
	cur = tm_cursor_open_text(dat, 0);
	TM_REQUIRE(cur);
	p = tm_cursor_next_block(cur, &n);
	TM_CHECK(p && n == strlen(text) && !memcmp(p, text, n));
	TM_CHECK(tm_cursor_next_block(cur, &n) == NULL);
	tm_cursor_close(cur);
	tm_dat_close(dat);
	close(fd);
	free(buf);
}
