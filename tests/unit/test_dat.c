// SPDX-License-Identifier: GPL-2.0-only
/* test_dat.c - the trace.dat reader on every fixture: metadata, buffers, records, timestamps. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat/dat-internal.h"
#include "util/internal.h"
#include "tm_test.h"
#include "dat/dat-format.h"
#include "dat/page.h"
#include "util/tm-error.h"
#include "trace/tm-trace.h"
#include "dat/tm-dat.h"

enum { SET_A, SET_B };

/* fixtures/README.md: records per CPU of each data set */
static const int set_records[2][2] = { { 430, 391 }, { 208, 273 } };
static const int set_pages[2] = { 5, 3 };

struct fixture {
	const char	*name;
	int		version;
	const char	*comp;
	int		nbuf;
	int		set[2];		/* data set of buffer 0 and 1 */
};

static const struct fixture fixtures[] = {
	{ "sched-v6.dat", 6, "none", 1, { SET_A } },
	{ "sched-v7.dat", 7, "none", 1, { SET_A } },
	{ "sched-v7-zstd.dat", 7, "zstd", 1, { SET_A } },
	{ "sched-v6.convert.dat", 6, "none", 1, { SET_A } },
	{ "sched-v7-zstd.convert.dat", 7, "zstd", 1, { SET_A } },
	{ "sched-v7-zstd.onepass.dat", 7, "zstd", 1, { SET_A } },
	{ "sched-v7-zstd.onepass-single.dat", 7, "zstd", 1, { SET_A } },
	{ "sched-v6.onepass.dat", 6, "none", 1, { SET_A } },
	{ "lost-v6.dat", 6, "none", 1, { SET_B } },
	{ "lost-v7-zstd.dat", 7, "zstd", 1, { SET_B } },
	{ "multi-v6.dat", 6, "none", 2, { SET_A, SET_B } },
	{ "multi-v7-zstd.dat", 7, "zstd", 2, { SET_A, SET_B } },
};

/* Times of one buffer/CPU as `trace-cmd report` prints them ("1415.676476"). */
struct times {
	char	(*ts)[32];
	int	n, cap;
};

static void times_add(struct times *t, const char *s, size_t len)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->ts = realloc(t->ts, t->cap * sizeof(*t->ts));
	}
	if (len >= sizeof(t->ts[0]))
		len = sizeof(t->ts[0]) - 1;
	memcpy(t->ts[t->n], s, len);
	t->ts[t->n++][len] = '\0';
}

/*
 * Split X.report.txt by buffer and CPU. Instance lines start with "<name>: ";
 * 3.1.6 puts that prefix on a "CPU:n [... DROPPED]" line instead of the
 * record after it, so such a line marks the next one as the instance's.
 */
static int parse_report(const char *dat_name, struct times t[2][2])
{
	char path[512], *txt, *line, *save = NULL;
	const char *inst = "fmtspec: ";
	bool pending = false;

	snprintf(path, sizeof(path), "%s", tm_fixture(dat_name));
	strcpy(strstr(path, ".dat"), ".report.txt");
	txt = tm_read_file(path, NULL);
	if (!txt)
		return -1;
	for (line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		bool is_inst = !strncmp(line, inst, strlen(inst));
		char *p = is_inst ? line + strlen(inst) : line, *b, *colon;
		int buf, cpu;

		if (!strncmp(p, "CPU:", 4)) {
			pending = is_inst;
			continue;
		}
		b = strstr(p, "] ");
		if (!b || b - p < 4 || b[-4] != '[')
			continue;
		buf = is_inst || pending;
		pending = false;
		cpu = atoi(b - 3);
		b += 2;
		while (*b == ' ')
			b++;
		colon = strchr(b, ':');
		if (cpu < 2 && colon)
			times_add(&t[buf][cpu], b, colon - b);
	}
	free(txt);
	return 0;
}

static void fmt_us(char *out, size_t size, uint64_t ns)
{
	uint64_t us = (ns + 500) / 1000;

	snprintf(out, size, "%llu.%06llu", (unsigned long long)(us / 1000000),
		 (unsigned long long)(us % 1000000));
}

/* Walk every page of one CPU: count records, compare each time with the report. */
static int walk_cpu(struct tm_test *t, struct tm_dat *dat, int buf, int cpu,
		    const struct times *want, int64_t *first_lost)
{
	struct tm_cursor *cur = tm_cursor_open(dat, buf, cpu);
	const void *page;
	int n = 0, pages = 0;
	char got[32];

	if (!cur) {
		fprintf(stderr, "  cursor %d/%d: %s\n", buf, cpu, tm_last_error());
		t->failures++;
		return -1;
	}
	while ((page = tm_cursor_next_page(cur))) {
		struct tm_page pg;
		struct tm_rec rec;
		int r;

		TM_CHECK_INT(tm_page_init(&pg, page, tm_dat_buffer_page_size(dat, buf),
					  tm_dat_commit_size(dat), tm_dat_big_endian(dat)), 0);
		if (!pages++)
			*first_lost = pg.lost;
		while ((r = tm_page_next(&pg, &rec)) > 0) {
			fmt_us(got, sizeof(got), tm_dat_adjust_ts(dat, rec.ts));
			if (n < want->n && strcmp(got, want->ts[n])) {
				fprintf(stderr, "  %s buf %d cpu %d record %d: %s, report says %s\n",
					tm_dat_path(dat), buf, cpu, n, got, want->ts[n]);
				t->failures++;
			}
			n++;
		}
		TM_CHECK_INT(r, 0);
	}
	TM_CHECK_INT(errno, 0);
	tm_cursor_close(cur);
	return n;
}

static void check_fixture(struct tm_test *t, const struct fixture *f)
{
	struct tm_dat *dat = tm_dat_open(tm_fixture(f->name));
	struct times want[2][2] = { 0 };
	int buf, cpu, set;
	int64_t lost = 0;
	uint64_t id;

	fprintf(stderr, "# %s\n", f->name);
	if (!dat) {
		fprintf(stderr, "  %s\n", tm_last_error());
		t->failures++;
		return;
	}
	TM_CHECK_INT(parse_report(f->name, want), 0);
	TM_CHECK_INT(tm_dat_version(dat), f->version);
	TM_CHECK_STR(tm_dat_compression(dat), f->comp);
	TM_CHECK_INT(tm_dat_cpus(dat), 2);
	TM_CHECK_INT(tm_dat_page_size(dat), 4096);
	TM_CHECK_INT(tm_dat_long_size(dat), 8);
	TM_CHECK_INT(tm_dat_commit_size(dat), 8);
	TM_CHECK(!tm_dat_big_endian(dat));
	TM_CHECK_STR(tm_dat_clock(dat), "local");
	TM_CHECK_INT(tm_dat_buffer_count(dat), f->nbuf);
	TM_CHECK_STR(tm_dat_buffer_name(dat, 0), "");
	if (f->nbuf > 1)
		TM_CHECK_STR(tm_dat_buffer_name(dat, 1), "fmtspec");
	TM_CHECK(tm_dat_header_page(dat).len == 205);
	TM_CHECK(strstr(tm_dat_header_event(dat).data, "type_len") != NULL);
	TM_CHECK_INT(tm_dat_ftrace_format_count(dat), 18);
	TM_CHECK_INT(tm_dat_system_count(dat), 1);
	TM_CHECK_STR(tm_dat_system_name(dat, 0), "sched");
	TM_CHECK_INT(tm_dat_event_format_count(dat, 0), 26);
	TM_CHECK(!strncmp(tm_dat_event_format(dat, 0, 0).data, "name: ", 6));
	TM_CHECK_INT(tm_dat_printk(dat).len, 4316);
	TM_CHECK_INT(tm_dat_cmdlines(dat).len, 13255);
	TM_CHECK(tm_dat_kallsyms(dat).len > 0);
	TM_CHECK(tm_dat_uname(dat) && !strncmp(tm_dat_uname(dat), "Linux ", 6));
	TM_CHECK(tm_dat_tracer_version(dat) &&
		 strstr(tm_dat_tracer_version(dat), "fixture generator"));
	TM_CHECK(tm_dat_cpustat(dat).len > 0 && !strncmp(tm_dat_cpustat(dat).data, "CPU: 0\n", 7));
	if (tm_dat_trace_id(dat, &id))
		TM_CHECK(id == 0x7472616365706d61ull);
	for (buf = 0; buf < f->nbuf; buf++) {
		set = f->set[buf];
		TM_CHECK_INT(tm_dat_buffer_cpus(dat, buf), 2);
		TM_CHECK_INT(tm_dat_buffer_page_size(dat, buf), 4096);
		TM_CHECK(!tm_dat_buffer_is_text(dat, buf));
		TM_CHECK_STR(tm_dat_buffer_clock(dat, buf), "local");
		for (cpu = 0; cpu < 2; cpu++) {
			TM_CHECK_INT(tm_dat_buffer_cpu_size(dat, buf, cpu), set_pages[set] * 4096);
			TM_CHECK_INT(walk_cpu(t, dat, buf, cpu, &want[buf][cpu], &lost),
				     set_records[set][cpu]);
			TM_CHECK_INT(want[buf][cpu].n, set_records[set][cpu]);
			if (set == SET_B)
				TM_CHECK_INT(lost, cpu ? 1235 : -1);
			else
				TM_CHECK_INT(lost, 0);
		}
	}
	TM_CHECK(tm_cursor_open(dat, 0, 2) == NULL && errno == 0);
	TM_CHECK(tm_cursor_open(dat, f->nbuf, 0) == NULL && errno == 0);
	for (buf = 0; buf < 2; buf++)
		for (cpu = 0; cpu < 2; cpu++)
			free(want[buf][cpu].ts);
	tm_dat_close(dat);
}

TM_TEST(dat_every_fixture_reads_like_trace_cmd)
{
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(fixtures); i++)
		check_fixture(t, &fixtures[i]);
}

/* The first record of CPU 0 in full nanoseconds (spec §10.4, `report -t`). */
TM_TEST(dat_first_record_ns_v7_zstd)
{
	struct tm_dat *dat = tm_dat_open(tm_fixture("sched-v7-zstd.dat"));
	struct tm_cursor *cur;
	const void *page;
	struct tm_page pg;
	struct tm_rec rec;

	TM_REQUIRE(dat);
	cur = tm_cursor_open(dat, 0, 0);
	TM_REQUIRE(cur);
	page = tm_cursor_next_page(cur);
	TM_REQUIRE(page);
	TM_CHECK_INT(tm_cursor_offset(cur), 8192 + 4);	/* the first chunk */
	TM_CHECK_INT(tm_page_init(&pg, page, 4096, tm_dat_commit_size(dat), false), 0);
	TM_CHECK_INT(tm_page_next(&pg, &rec), 1);
	TM_CHECK_INT(tm_dat_adjust_ts(dat, rec.ts), 1415676475868ull);
	TM_CHECK_INT(tm_get16(rec.data, false), 372);
	tm_cursor_close(cur);
	tm_dat_close(dat);
}

TM_TEST(dat_v6_page_offsets)
{
	struct tm_dat *dat = tm_dat_open(tm_fixture("sched-v6.dat"));
	struct tm_cursor *cur;

	TM_REQUIRE(dat);
	cur = tm_cursor_open(dat, 0, 1);
	TM_REQUIRE(cur);
	TM_REQUIRE(tm_cursor_next_page(cur));
	TM_CHECK_INT(tm_cursor_offset(cur), 0x11000);
	TM_REQUIRE(tm_cursor_next_page(cur));
	TM_CHECK_INT(tm_cursor_offset(cur), 0x12000);
	tm_cursor_close(cur);
	tm_dat_close(dat);
}
