// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sql.c - lib/sql without the CLI: the hash map through growth, a
 * fixture loaded and queried into a memory stream (the rows report's data
 * set A has), only what a query reads filled, an SQL error's position.
 */
#include <stdlib.h>

#include "util/tm-error.h"
#include "dat/tm-dat.h"
#include "sql/sql-internal.h"
#include "sql/tm-sql.h"
#include "tm_test.h"
#include "sql/tm-sql.h"
#include "dat/tm-dat.h"

TM_TEST(sql_map_keeps_every_key_through_growth)
{
	struct sql_map m = { 0 };
	uint32_t v = 0;
	int64_t k;

	for (k = 0; k < 5000; k++)
		TM_REQUIRE(!tm_sql_map_put(&m, k * 7919 - 100, (uint32_t)k));
	TM_CHECK_INT(m.n, 5000);
	for (k = 0; k < 5000; k++) {
		TM_CHECK(tm_sql_map_get(&m, k * 7919 - 100, &v));
		TM_CHECK_INT(v, k);
	}
	TM_CHECK(!tm_sql_map_get(&m, 3, &v));
	TM_CHECK(!tm_sql_map_put(&m, -100, 42));	/* a put replaces */
	TM_CHECK(tm_sql_map_get(&m, -100, &v) && v == 42);
	TM_CHECK_INT(m.n, 5000);
	tm_sql_map_free(&m);
}

/* The text of a query's CSV rows, or NULL. */
static char *query(struct tm_sql *s, const char *sql)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int r;

	if (!f)
		return NULL;
	r = tm_sql_query(s, sql, TM_SQL_CSV, f);
	fclose(f);
	if (r) {
		free(out);
		return NULL;
	}
	return out;
}

/* sched-v6.dat loaded for the queries given (NULL: every table). */
static struct tm_sql *load(struct tm_test *t, const char *const *queries)
{
	struct tm_dat *dat = tm_dat_open(tm_fixture("sched-v6.dat"));
	struct tm_sql_load_opts o = { .queries = queries, .no_plugins = true };
	struct tm_sql *s = tm_sql_new(NULL);
	int machine = 0;

	TM_CHECK(dat && s);
	if (dat && s && tm_sql_load(s, &dat, 1, &machine, 1, &o)) {
		fprintf(stderr, "  load: %s\n", tm_last_error());
		t->failures++;
	}
	tm_dat_close(dat);
	return s;
}

TM_TEST(sql_loads_a_fixture_and_fills_only_what_the_query_reads)
{
	const char *q = "SELECT count(*) FROM sched_switch";
	const char *queries[] = { q, NULL };
	struct tm_sql *s = load(t, queries);
	char *out;

	TM_REQUIRE(s);
	/* data set A: 167 switches, 430 + 391 records (the fixtures' README) */
	out = query(s, q);
	TM_CHECK_STR(out, "count(*)\n167\n");
	free(out);
	out = query(s, "SELECT count(*) FROM events; SELECT count(*) FROM sched_wakeup");
	TM_CHECK_STR(out, "count(*)\n0\ncount(*)\n0\n");
	free(out);
	tm_sql_close(s, true);
	s = load(t, NULL);
	TM_REQUIRE(s);
	out = query(s, "SELECT cpu, count(*) FROM events GROUP BY cpu");
	TM_CHECK_STR(out, "cpu,count(*)\n0,430\n1,391\n");
	free(out);
	/* every switch ends a slice but a CPU's first; a CPU's last one is open to the end */
	out = query(s, "SELECT count(*) FROM sched_slice WHERE end_state IS NOT NULL");
	TM_CHECK_STR(out, "count(*)\n165\n");
	free(out);
	TM_CHECK(!query(s, "SELECT 1;\n SELECT nope FROM thread"));
	TM_CHECK_STR(tm_last_error(), "query:2:9: no such column: nope");
	tm_sql_close(s, true);
}
