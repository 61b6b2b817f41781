// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_print.c - the event printer and merge on the fixtures' raw pages and
 * tracefs snapshot, compared byte for byte with trace-cmd's reports.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "util/internal.h"
#include "print/print-internal.h"
#include "events/tm-events.h"
#include "tm_test.h"
#include "dat/dat-internal.h"
#include "merge/merge-internal.h"
#include "dat/page.h"
#include "trace/tm-trace.h"
#include "events/events-internal.h"
#include "merge/tm-merge.h"

struct raw_pages {
	char	*data;
	size_t	len, off;
};

static const void *raw_next(void *ctx)
{
	struct raw_pages *r = ctx;
	const void *page;

	if (r->off + 4096 > r->len)
		return NULL;
	page = r->data + r->off;
	r->off += 4096;
	return page;
}

static void raw_close(void *ctx)
{
	struct raw_pages *r = ctx;

	free(r->data);
	free(r);
}

static int add_raw(struct tm_merge *m, const char *name, int buf, int cpu)
{
	struct raw_pages *r = calloc(1, sizeof(*r));
	struct tm_page_source src = {
		.buffer = buf, .cpu = cpu, .page_size = 4096, .commit_size = 8,
		.next_page = raw_next, .close = raw_close, .ctx = r,
	};

	if (!r)
		return -1;
	r->data = tm_read_file(tm_fixture(name), &r->len);
	if (!r->data) {
		free(r);
		return -1;
	}
	return tm_merge_add(m, &src);
}

static struct tm_events *snapshot_events(bool no_plugins)
{
	char dir[4096], ksyms[4096];

	snprintf(dir, sizeof(dir), "%s", tm_fixture("raw/tracefs-snapshot"));
	snprintf(ksyms, sizeof(ksyms), "%s", tm_fixture("raw/kallsyms.subset"));
	return tm_events_from_tracefs(dir, NULL, ksyms, no_plugins);
}

/*
 * Print data sets (set B as instance "fmtspec" when given) as trace-cmd
 * 3.1.6 (TC31) or 3.4 (CURRENT) would and compare with its report.
 */
static void check_report(struct tm_test *t, const char *set, const char *inst_set,
			 bool no_plugins, enum tm_text_compat compat, const char *expected_file)
{
	struct tm_print_opts opts = { .compat = compat };
	struct tm_events *ev = snapshot_events(no_plugins);
	struct tm_merge *m = tm_merge_new();
	struct tm_printer *p = NULL;
	struct tm_event_rec rec;
	char path[64], *out = NULL, *exp = NULL;
	size_t out_len = 0, exp_len;
	FILE *f = open_memstream(&out, &out_len);
	int r, cpu;

	TM_REQUIRE(ev && m && f);
	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(path, sizeof(path), "raw/%s.cpu%d.raw", set, cpu);
		TM_CHECK(add_raw(m, path, 0, cpu) == 0);
		if (inst_set) {
			snprintf(path, sizeof(path), "raw/%s.cpu%d.raw", inst_set, cpu);
			TM_CHECK(add_raw(m, path, 1, cpu) == 0);
		}
	}
	p = tm_printer_new(ev, &opts, f);
	TM_REQUIRE(p);
	if (inst_set)
		TM_CHECK(tm_printer_set_buffer(p, 1, "fmtspec", "local") == 0);
	fputs("cpus=2\n", f);
	while ((r = tm_merge_next(m, &rec)) > 0)
		TM_CHECK(tm_printer_event(p, &rec) == 0);
	TM_CHECK_INT(r, 0);
	TM_CHECK(tm_printer_flush(p) == 0);
	fclose(f);
	exp = tm_read_file(tm_fixture(expected_file), &exp_len);
	TM_REQUIRE(exp && out);
	TM_CHECK_INT(out_len, exp_len);
	if (out_len != exp_len || memcmp(out, exp, exp_len)) {
		size_t i, line = 1;

		for (i = 0; i < out_len && i < exp_len && out[i] == exp[i]; i++)
			line += out[i] == '\n';
		fprintf(stderr, "  %s: first difference at line %zu\n", expected_file, line);
		t->failures++;
	}
	free(exp);
	free(out);
	tm_printer_free(p);
	tm_merge_free(m);
	tm_events_free(ev);
}

TM_TEST(print_set_a_matches_trace_cmd_report)
{
	check_report(t, "A", NULL, false, TM_TEXT_TC31, "sched-v7.report.txt");
	check_report(t, "A", NULL, false, TM_TEXT_CURRENT, "tc34/sched-v7.report.txt");
}

TM_TEST(print_set_a_without_plugins_matches_report_n)
{
	check_report(t, "A", NULL, true, TM_TEXT_TC31, "sched-v7.report-noplugins.txt");
	check_report(t, "A", NULL, true, TM_TEXT_CURRENT, "tc34/sched-v7.report-noplugins.txt");
}

TM_TEST(print_lost_events_lines_match_report)
{
	check_report(t, "B", NULL, false, TM_TEXT_TC31, "lost-v6.report.txt");
	check_report(t, "B", NULL, false, TM_TEXT_CURRENT, "tc34/lost-v6.report.txt");
}

TM_TEST(print_instance_prefixes_match_report)
{
	check_report(t, "A", "B", false, TM_TEXT_TC31, "multi-v6.report.txt");
	check_report(t, "A", "B", true, TM_TEXT_TC31, "multi-v6.report-noplugins.txt");
	check_report(t, "A", "B", false, TM_TEXT_CURRENT, "tc34/multi-v6.report.txt");
	check_report(t, "A", "B", true, TM_TEXT_CURRENT, "tc34/multi-v6.report-noplugins.txt");
}

/* Print n rounds of a data set's pages (timestamps repeat; the merge does not care). */
static char *print_rounds(struct tm_test *t, const char *set, int rounds, bool no_plugins,
			  bool tep_only, enum tm_text_compat compat, size_t *len)
{
	struct tm_print_opts opts = { .tep_only = tep_only, .compat = compat };
	struct tm_events *ev = snapshot_events(no_plugins);
	struct tm_printer *p = ev ? tm_printer_new(ev, &opts, NULL) : NULL;
	char path[64], *out = NULL, *raw[2] = { NULL, NULL };
	size_t rlen[2] = { 0, 0 }, off;
	FILE *f = open_memstream(&out, len);
	int cpu, i;

	if (!p || !f) {
		t->failures++;
		goto out;
	}
	tm_printer_free(p);
	p = tm_printer_new(ev, &opts, f);
	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(path, sizeof(path), "raw/%s.cpu%d.raw", set, cpu);
		raw[cpu] = tm_read_file(tm_fixture(path), &rlen[cpu]);
	}
	for (i = 0; raw[0] && raw[1] && i < rounds; i++)
		for (cpu = 0; cpu < 2; cpu++)
			for (off = 0; off + 4096 <= rlen[cpu]; off += 4096)
				TM_CHECK(tm_printer_page(p, 0, cpu, raw[cpu] + off, 4096, 8, false,
							 NULL) >= 0);
	TM_CHECK(tm_printer_flush(p) == 0);
out:
	tm_printer_free(p);
	if (f)
		fclose(f);
	free(raw[0]);
	free(raw[1]);
	tm_events_free(ev);
	return out;
}

/*
 * The compiled formats (trusted after 256 checks) print the reference text:
 * libtraceevent's, or current trace-cmd's sched_switch (print-states.c).
 */
static void check_fast_matches_tep(struct tm_test *t, const char *set, bool no_plugins,
				   enum tm_text_compat compat)
{
	size_t fast_len = 0, tep_len = 0;
	char *fast = print_rounds(t, set, 8, no_plugins, false, compat, &fast_len);
	char *tep = print_rounds(t, set, 8, no_plugins, true, compat, &tep_len);

	TM_REQUIRE(fast && tep);
	TM_CHECK(fast_len > 100000);
	TM_CHECK_INT(fast_len, tep_len);
	TM_CHECK(fast_len == tep_len && !memcmp(fast, tep, fast_len));
	free(fast);
	free(tep);
}

TM_TEST(print_compiled_formats_match_libtraceevent)
{
	enum tm_text_compat c;

	for (c = TM_TEXT_CURRENT; c <= TM_TEXT_TC31; c++) {
		check_fast_matches_tep(t, "A", false, c);
		check_fast_matches_tep(t, "B", false, c);
		check_fast_matches_tep(t, "A", true, c);
	}
}

TM_TEST(print_nsec_timestamps_have_nine_decimals)
{
	struct tm_print_opts opts = { .nsec = true };
	struct tm_events *ev = snapshot_events(false);
	struct tm_printer *p = ev ? tm_printer_new(ev, &opts, NULL) : NULL;
	char ts[64];

	TM_REQUIRE(p);
	tm_printer_format_ts(p, 0, 1415676475868ULL, ts, sizeof(ts));
	TM_CHECK_STR(ts, "  1415.676475868");
	tm_printer_free(p);
	opts.nsec = false;
	p = tm_printer_new(ev, &opts, NULL);
	TM_REQUIRE(p);
	tm_printer_format_ts(p, 0, 1415676475868ULL, ts, sizeof(ts));
	TM_CHECK_STR(ts, "  1415.676476");
	/* below one second: libtraceevent prints the bare count */
	tm_printer_format_ts(p, 0, 999999ULL, ts, sizeof(ts));
	TM_CHECK_STR(ts, "         1000");
	TM_CHECK(tm_printer_set_buffer(p, 1, "inst", "counter") == 0);
	tm_printer_format_ts(p, 1, 123456789ULL, ts, sizeof(ts));
	TM_CHECK_STR(ts, "   123456789");
	tm_printer_free(p);
	tm_events_free(ev);
}

/* The first sched_switch record of a task (pid > 0; idle: of pid 0) in a raw page file. */
static bool first_switch(struct tep_handle *tep, const char *raw, size_t len,
			 struct tm_event_rec *rec, bool idle)
{
	struct tep_record r = { 0 };
	struct tep_event *e;
	struct tm_page pg;
	struct tm_rec pr;
	int32_t pid;
	size_t off;

	for (off = 0; off + 4096 <= len; off += 4096) {
		if (tm_page_init(&pg, raw + off, 4096, 8, false))
			return false;
		while (tm_page_next(&pg, &pr) > 0) {
			r.data = (void *)pr.data;
			r.size = (int)pr.size;
			e = tep_find_event(tep, tep_data_type(tep, &r));
			/* common_pid */
			memcpy(&pid, (const uint8_t *)pr.data + 4, sizeof(pid));
			if (!e || strcmp(e->name, "sched_switch") || (idle ? pid != 0 : pid <= 0))
				continue;
			*rec = (struct tm_event_rec){ .ts = pr.ts, .data = pr.data,
						      .size = pr.size };
			return true;
		}
	}
	return false;
}

/* The last line of a NUL-terminated text. */
static const char *last_line(const char *s, size_t len)
{
	const char *p = s + len - 1;

	while (p > s && p[-1] != '\n')
		p--;
	return p;
}

/*
 * A task renamed after saved_cmdlines was first read prints under its new
 * name once the cmdlines are reloaded, even from a trusted compiled format
 * whose task column the printer had cached.
 */
TM_TEST(print_reloaded_cmdlines_rename_a_task)
{
	struct tm_print_opts opts = { 0 };
	struct tm_events *ev = snapshot_events(false);
	char *raw = NULL, *out = NULL, dir[] = "/tmp/tm-cmdlines-XXXXXX", path[64];
	char line[64], want[64];
	struct tm_event_rec rec;
	struct tm_printer *p = NULL;
	size_t rlen = 0, olen = 0;
	FILE *f = open_memstream(&out, &olen);
	int32_t pid;
	int i, fd;

	TM_REQUIRE(ev && f && mkdtemp(dir));
	raw = tm_read_file(tm_fixture("raw/A.cpu0.raw"), &rlen);
	TM_REQUIRE(raw && first_switch(tm_events_tep(ev), raw, rlen, &rec, false));
	memcpy(&pid, (const uint8_t *)rec.data + 4, sizeof(pid));	/* common_pid */
	p = tm_printer_new(ev, &opts, f);
	TM_REQUIRE(p);
	/* past the checks: the compiled format is trusted and task columns are cached */
	for (i = 0; i < 300; i++)
		TM_CHECK_INT(tm_printer_event(p, &rec), 0);
	TM_CHECK_INT(tm_printer_flush(p), 0);
	fflush(f);
	snprintf(want, sizeof(want), "tm-renamed-%d ", (int)pid);
	TM_CHECK(!strstr(last_line(out, olen), want));
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	TM_REQUIRE(fd >= 0);
	snprintf(line, sizeof(line), "%d tm-renamed\n", (int)pid);
	TM_CHECK_INT(tm_write_all(fd, line, strlen(line)), 0);
	close(fd);
	TM_CHECK_INT(tm_events_reload_cmdlines(ev, dir), 0);
	TM_CHECK_INT(tm_printer_event(p, &rec), 0);
	TM_CHECK_INT(tm_printer_flush(p), 0);
	fflush(f);
	TM_CHECK(strstr(last_line(out, olen), want) != NULL);
	unlink(path);
	rmdir(dir);
	tm_printer_free(p);
	fclose(f);
	free(out);
	free(raw);
	tm_events_free(ev);
}

/* The names registered for comm so far: libtraceevent keeps each before its first lookup. */
static int comm_entries(struct tep_handle *tep, const char *comm)
{
	struct tep_cmdline *c = NULL;
	int n = 0;

	while ((c = tep_data_pid_from_comm(tep, comm, c)))
		n++;
	return n;
}

/*
 * Before the first name lookup (the idle task's column looks none up)
 * libtraceevent keeps every registration of a name, and which of a pid's
 * names a later lookup finds depends on them all: each printed sched_switch
 * registers its comms exactly once, as trace-cmd's plugin call does, whether
 * the compiled format or libtraceevent printed it.
 */
TM_TEST(print_sched_registers_each_comm_once_per_record)
{
	struct tm_print_opts opts = { .compat = TM_TEXT_TC31 };
	struct tm_events *ev = snapshot_events(false);
	struct tep_handle *tep = ev ? tm_events_tep(ev) : NULL;
	struct tm_event_rec rec;
	struct tm_printer *p = NULL;
	struct tep_record r = { 0 };
	char *raw = NULL, *out = NULL, comm[17];
	size_t rlen = 0, olen = 0;
	FILE *f = open_memstream(&out, &olen);
	int i, before;

	TM_REQUIRE(tep && f);
	raw = tm_read_file(tm_fixture("raw/A.cpu0.raw"), &rlen);
	TM_REQUIRE(raw && first_switch(tep, raw, rlen, &rec, true));
	r.data = (void *)rec.data;
	r.size = (int)rec.size;
	{
		struct tep_event *e = tep_find_event(tep, tep_data_type(tep, &r));
		struct tep_format_field *f = e ? tep_find_field(e, "next_comm") : NULL;

		TM_REQUIRE(f && f->size < (int)sizeof(comm));
		memcpy(comm, (const char *)rec.data + f->offset, (size_t)f->size);
		comm[f->size] = '\0';
	}
	before = comm_entries(tep, comm);
	p = tm_printer_new(ev, &opts, f);
	TM_REQUIRE(p);
	/* through the checks (libtraceevent and the compiled format) and after them */
	for (i = 0; i < 200; i++)
		TM_CHECK_INT(tm_printer_event(p, &rec), 0);
	TM_CHECK_INT(comm_entries(tep, comm) - before, 200);
	TM_CHECK_INT(tm_printer_flush(p), 0);
	tm_printer_free(p);
	fclose(f);
	free(out);
	free(raw);
	tm_events_free(ev);
}
