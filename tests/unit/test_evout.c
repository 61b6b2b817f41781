// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_evout.c - the output interface: what a file's run hands an output
 * (begin info, records in time order with their losses, one end).
 */
#include <stdlib.h>

#include "util/internal.h"
#include "emit/tm-evout.h"
#include "tm_test.h"
#include "dat/dat-internal.h"
#include "dat/tm-dat.h"
#include "trace/tm-trace.h"
#include "events/tm-events.h"

/* An output that only counts what it is handed. */
struct count_output {
	struct tm_evout		base;
	struct tm_evout_info	info;
	char			buffer1[32];
	bool			stats_overrun;	/* cpustat holds lost-v6's "overrun: 1238" */
	int			begins, ends;
	uint64_t		events, last_ts;
	int			lossy_records;
	bool			ordered;
};

static int count_begin(struct tm_evout *out, const struct tm_evout_info *info)
{
	struct count_output *c = (struct count_output *)out;

	c->info = *info;	/* its pointers are valid during the run only */
	c->stats_overrun = info->cpustat.len &&
			   memmem(info->cpustat.data, info->cpustat.len, "overrun: 1238", 13);
	if (info->nbuffers > 1)
		snprintf(c->buffer1, sizeof(c->buffer1), "%s", info->buffers[1].name);
	c->begins++;
	c->ordered = true;
	return 0;
}

static int count_event(struct tm_evout *out, const struct tm_event_rec *rec)
{
	struct count_output *c = (struct count_output *)out;

	if (rec->ts < c->last_ts)
		c->ordered = false;
	c->last_ts = rec->ts;
	c->events++;
	c->lossy_records += rec->missed != 0;
	return 0;
}

static int count_lost(struct tm_evout *out, int buf, int cpu, int64_t missed)
{
	(void)out, (void)buf, (void)cpu, (void)missed;
	return -1;	/* a file's run never calls it: losses ride on records */
}

static int count_end(struct tm_evout *out)
{
	((struct count_output *)out)->ends++;
	return 0;
}

static void count_free(struct tm_evout *out)
{
	(void)out;
}

static const struct tm_evout_ops count_ops = {
	.begin = count_begin, .event = count_event, .lost = count_lost,
	.end = count_end, .free = count_free,
};

static void run_metered(struct tm_test *t, const char *name, struct count_output *c,
			struct tm_meter *meter)
{
	struct tm_run_opts run = { .meter = meter };
	struct tm_events *ev;
	struct tm_dat *dat;

	memset(c, 0, sizeof(*c));
	c->base.ops = &count_ops;
	dat = tm_dat_open(tm_fixture(name));
	TM_REQUIRE(dat);
	ev = tm_events_from_dat(dat, true, NULL, NULL);
	TM_CHECK(ev);
	if (ev)
		TM_CHECK_INT(tm_evout_run_dat(&c->base, dat, tm_events_tep(ev), &run), 0);
	tm_events_free(ev);
	tm_dat_close(dat);
}

static void run_file(struct tm_test *t, const char *name, struct count_output *c)
{
	run_metered(t, name, c, NULL);
}

static void last_shown(void *ctx, const struct tm_progress *p)
{
	*(struct tm_progress *)ctx = *p;
}

TM_TEST(evout_run_meter_reads_every_page_of_every_buffer)
{
	struct tm_progress shown = { 0 };
	struct tm_meter meter = { .fn = last_shown, .ctx = &shown };
	struct count_output c;

	/* A (5 + 5 pages) in the top buffer, B (3 + 3) in an instance, zstd */
	run_metered(t, "multi-v7-zstd.dat", &c, &meter);
	TM_CHECK_INT(c.events, 430 + 391 + 208 + 273);
	TM_CHECK_INT(shown.events, c.events);
	TM_CHECK_INT(shown.total, 16 * 4096);
	TM_CHECK_INT(shown.done, shown.total);
}

TM_TEST(evout_run_hands_every_record_in_order_with_its_loss)
{
	struct count_output c;

	run_file(t, "lost-v6.dat", &c);
	TM_CHECK_INT(c.begins, 1);
	TM_CHECK_INT(c.ends, 1);
	TM_CHECK_INT(c.events, 208 + 273);	/* fixture README: data set B */
	TM_CHECK_INT(c.lossy_records, 2);	/* the first record of each CPU */
	TM_CHECK(c.ordered);
	TM_CHECK_INT(c.info.ncpus, 2);
	TM_CHECK_INT(c.info.cpu_slots, 2);
	TM_CHECK_INT(c.info.nbuffers, 1);
	TM_CHECK(c.info.cmdlines.len > 0);
	TM_CHECK(c.stats_overrun);
}

TM_TEST(evout_run_describes_instance_buffers)
{
	struct count_output c;

	run_file(t, "multi-v7-zstd.dat", &c);
	TM_CHECK_INT(c.info.nbuffers, 2);
	TM_CHECK_STR(c.buffer1, "fmtspec");
	TM_CHECK_INT(c.events, 430 + 391 + 208 + 273);	/* A on top, B in the instance */
	TM_CHECK(c.ordered);
}
