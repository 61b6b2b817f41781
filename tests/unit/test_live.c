// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_live.c - stream's live merge (lib/out/out-live.c) on the fixtures' raw pages:
 * pages fed through the sink as two recorder threads would, printed output
 * compared with trace-cmd's report, and the flush rule that holds records
 * back until every other CPU finished a later drain round.
 */
#include <stdlib.h>

#include "util/internal.h"
#include "print/print-internal.h"
#include "emit/tm-live.h"
#include "emit/emit-internal.h"
#include "tm_test.h"
#include "dat/page.h"
#include "events/tm-events.h"
#include "events/events-internal.h"

#define PAGE	4096

/* The text output, counting the records it is handed (what stream prints). */
struct counting_out {
	struct tm_evout		base;
	struct tm_evout		*text;
	unsigned long		events;
};

static int count_begin(struct tm_evout *out, const struct tm_evout_info *info)
{
	return tm_evout_begin(((struct counting_out *)out)->text, info);
}

static int count_event(struct tm_evout *out, const struct tm_event_rec *rec)
{
	struct counting_out *c = (struct counting_out *)out;

	c->events++;
	return tm_evout_event(c->text, rec);
}

static int count_lost(struct tm_evout *out, int buf, int cpu, int64_t missed)
{
	return tm_evout_lost(((struct counting_out *)out)->text, buf, cpu, missed);
}

static int count_flush(struct tm_evout *out)
{
	return tm_evout_flush(((struct counting_out *)out)->text);
}

static const struct tm_evout_ops count_ops = {
	.begin = count_begin, .event = count_event, .lost = count_lost, .flush = count_flush,
};

struct live_fixture {
	struct tm_events	*ev;
	struct counting_out	p;
	struct tm_live		*lv;
	struct tm_page_sink	sink;
	FILE			*f;
	char			*out;
	size_t			out_len;
	char			*raw[2];
	size_t			raw_len[2];
	bool			cpus[2];
};

static int live_setup(struct live_fixture *x, const char *set, bool json,
		      enum tm_text_compat compat)
{
	struct tm_print_opts po = { .json = json, .compat = compat };
	char dir[4096], ksyms[4096], path[64];

	snprintf(dir, sizeof(dir), "%s", tm_fixture("raw/tracefs-snapshot"));
	snprintf(ksyms, sizeof(ksyms), "%s", tm_fixture("raw/kallsyms.subset"));
	x->ev = tm_events_from_tracefs(dir, NULL, ksyms, false);
	if (!x->ev || tm_events_reload_cmdlines(x->ev, dir))
		return -1;
	x->f = open_memstream(&x->out, &x->out_len);
	if (!x->f)
		return -1;
	struct tm_evout_info info = { .tep = tm_events_tep(x->ev), .ncpus = 2, .live = true };

	x->p.base.ops = &count_ops;
	x->p.text = tm_evout_text_new(x->ev, &po, x->f);
	if (!x->p.text || tm_evout_begin(&x->p.base, &info))
		return -1;
	for (int cpu = 0; cpu < 2; cpu++) {
		snprintf(path, sizeof(path), "raw/%s.cpu%d.raw", set, cpu);
		x->raw[cpu] = tm_read_file(tm_fixture(path), &x->raw_len[cpu]);
		if (!x->raw[cpu])
			return -1;
		x->cpus[cpu] = true;
	}
	struct tm_live_opts lo = {
		.ncpus = 2, .cpus = x->cpus, .page_size = PAGE, .output = &x->p.base, .out = x->f,
	};
	x->lv = tm_live_new(&lo);
	if (!x->lv)
		return -1;
	x->sink = tm_live_sink(x->lv);
	return 0;
}

static void live_teardown(struct live_fixture *x)
{
	tm_live_free(x->lv);
	tm_evout_free(x->p.text);
	if (x->f)
		fclose(x->f);
	free(x->out);
	free(x->raw[0]);
	free(x->raw[1]);
	tm_events_free(x->ev);
}

/* Feed page i of a CPU (if it has one) followed by a flush, as one drain round. */
static int feed_round(struct live_fixture *x, int cpu, size_t i)
{
	if ((i + 1) * PAGE <= x->raw_len[cpu] &&
	    x->sink.page(x->sink.ctx, cpu, x->raw[cpu] + i * PAGE, PAGE))
		return -1;
	return x->sink.flush(x->sink.ctx, cpu);
}

static bool same_as_file(struct tm_test *t, const char *got, size_t len, const char *file,
			 size_t skip_lines)
{
	size_t exp_len;
	char *exp = tm_read_file(tm_fixture(file), &exp_len), *e = exp;
	bool same;

	if (!exp)
		return false;
	while (skip_lines-- && (e = strchr(e, '\n')))
		e++;
	same = e && (size_t)(exp + exp_len - e) == len && !memcmp(e, got, len);
	if (!same) {
		size_t i, line = 1;

		for (i = 0; i < len && e && e[i] && got[i] == e[i]; i++)
			line += got[i] == '\n';
		fprintf(stderr, "  %s: first difference at line %zu\n", file, line);
		t->failures++;
	}
	free(exp);
	return same;
}

/* Rounds interleaved across the CPUs, steps in between, then the final step. */
static void check_stream(struct tm_test *t, const char *set, enum tm_text_compat compat,
			 const char *expected)
{
	struct live_fixture x = { 0 };

	TM_REQUIRE(live_setup(&x, set, false, compat) == 0);
	for (size_t i = 0; i < 6; i++) {
		TM_CHECK(feed_round(&x, 0, i) == 0);
		TM_CHECK(tm_live_step(x.lv, false) >= 0);
		TM_CHECK(feed_round(&x, 1, i) == 0);
		TM_CHECK(tm_live_step(x.lv, false) >= 0);
	}
	TM_CHECK_INT(tm_live_step(x.lv, true), 0);
	fflush(x.f);
	same_as_file(t, x.out, x.out_len, expected, 1);
	live_teardown(&x);
}

TM_TEST(live_merge_of_set_a_matches_trace_cmd_report)
{
	check_stream(t, "A", TM_TEXT_TC31, "sched-v7.report.txt");
	check_stream(t, "A", TM_TEXT_CURRENT, "tc34/sched-v7.report.txt");
}

TM_TEST(live_lost_pages_print_dropped_lines_like_report)
{
	struct live_fixture x = { 0 };
	struct tm_live_cpu_stats st;

	check_stream(t, "B", TM_TEXT_TC31, "lost-v6.report.txt");
	check_stream(t, "B", TM_TEXT_CURRENT, "tc34/lost-v6.report.txt");
	TM_REQUIRE(live_setup(&x, "B", false, TM_TEXT_CURRENT) == 0);
	for (size_t i = 0; i < 3; i++) {
		TM_CHECK(feed_round(&x, 0, i) == 0);
		TM_CHECK(feed_round(&x, 1, i) == 0);
	}
	TM_CHECK_INT(tm_live_step(x.lv, true), 0);
	tm_live_get_stats(x.lv, 1, &st);
	TM_CHECK_INT(st.pages, 3);
	TM_CHECK_INT(st.records, 273);
	TM_CHECK_INT(st.lost_pages, 1);
	TM_CHECK_INT(st.lost_stored, 1235);
	live_teardown(&x);
}

/*
 * A record waits until every other CPU finished a round that began after
 * its page arrived: one flush of CPU 1 is not enough, the second is.
 */
TM_TEST(live_holds_records_until_other_cpus_flushed_twice)
{
	struct live_fixture x = { 0 };

	TM_REQUIRE(live_setup(&x, "A", false, TM_TEXT_CURRENT) == 0);
	TM_CHECK(feed_round(&x, 0, 0) == 0);
	TM_CHECK_INT(tm_live_step(x.lv, false), 0);
	TM_CHECK_INT(x.p.events, 0);
	TM_CHECK(x.sink.flush(x.sink.ctx, 1) == 0);
	TM_CHECK_INT(tm_live_step(x.lv, false), 0);
	TM_CHECK_INT(x.p.events, 0);
	TM_CHECK(x.sink.flush(x.sink.ctx, 1) == 0);
	TM_CHECK_INT(tm_live_step(x.lv, false), 0);
	TM_CHECK_INT(x.p.events, tm_page_count(x.raw[0], PAGE, 8, false));
	TM_CHECK(x.p.events > 0);
	live_teardown(&x);
}

/* A CPU alone needs nobody else: its own records are in order already. */
TM_TEST(live_single_cpu_prints_without_waiting)
{
	struct live_fixture x = { 0 };

	TM_REQUIRE(live_setup(&x, "A", false, TM_TEXT_CURRENT) == 0);
	x.cpus[1] = false;
	TM_CHECK(feed_round(&x, 0, 0) == 0);
	TM_CHECK_INT(tm_live_step(x.lv, false), 0);
	TM_CHECK_INT(x.p.events, tm_page_count(x.raw[0], PAGE, 8, false));
	live_teardown(&x);
}

TM_TEST(live_json_lines_one_per_record)
{
	struct live_fixture x = { 0 };
	size_t lines = 0;

	TM_REQUIRE(live_setup(&x, "A", true, TM_TEXT_CURRENT) == 0);
	for (size_t i = 0; i < 5; i++) {
		TM_CHECK(feed_round(&x, 0, i) == 0);
		TM_CHECK(feed_round(&x, 1, i) == 0);
	}
	TM_CHECK_INT(tm_live_step(x.lv, true), 0);
	fflush(x.f);
	for (size_t i = 0; i < x.out_len; i++)
		lines += x.out[i] == '\n';
	TM_CHECK_INT(lines, 430 + 391);
	TM_CHECK(x.out_len && x.out[0] == '{');
	live_teardown(&x);
}

TM_TEST(live_rejects_pages_of_the_wrong_size)
{
	struct live_fixture x = { 0 };

	TM_REQUIRE(live_setup(&x, "A", false, TM_TEXT_CURRENT) == 0);
	TM_CHECK(x.sink.page(x.sink.ctx, 0, x.raw[0], 100) == -1);
	TM_CHECK(x.sink.page(x.sink.ctx, 5, x.raw[0], PAGE) == -1);
	live_teardown(&x);
}
