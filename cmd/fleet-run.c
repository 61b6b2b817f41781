// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet-run.c - the steps of `tracemap fleet` and `tracemap sql --clickhouse`:
 * a database's DDL, its load as one trace, the queries asked of the server.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "fleet.h"
#include "tracemap.h"

const char *fleet_machine_of_path(const char *path, char *buf, size_t cap)
{
	char tmp[4096];
	char *base, *dot;

	snprintf(tmp, sizeof(tmp), "%s", path);
	base = basename(tmp);
	dot = strrchr(base, '.');
	if (dot && dot != base)
		*dot = '\0';
	snprintf(buf, cap, "%s", base);
	return buf;
}

int fleet_schema(const struct fleet_args *a, struct sqlite3 *db)
{
	struct tm_fleet_schema *s = tm_fleet_schema_read(db);
	struct tm_ch *ch = NULL;
	const char *dbname = "default";
	int ret;

	if (s && a->url) {
		ch = tm_ch_open(a->url);
		dbname = ch ? strchr(tm_ch_name(ch), '/') + 1 : NULL;
	}
	ret = s && dbname ? tm_fleet_ddl_print(s, dbname, a->cluster, stdout) : -1;
	if (!ret && fflush(stdout))
		ret = -1, errno = EIO;
	if (ret < 0)
		cmd_fail(a->sub);
	tm_ch_close(ch);
	tm_fleet_schema_free(s);
	return ret < 0 ? TM_EXIT_FAIL : TM_EXIT_OK;
}

int fleet_load(const struct fleet_args *a, struct sqlite3 *db, const char *what,
	       const char *id, const char *const *machines, int n)
{
	struct tm_fleet_load_opts lo = {
		.trace = id, .machines = machines, .nmachines = n,
		.cluster = a->cluster, .replace = a->replace,
	};
	struct tm_fleet_schema *s = NULL;
	struct tm_ch *ch = tm_ch_open(a->url);
	uint64_t rows = 0;
	int ret = -1;

	if (ch)
		s = tm_fleet_schema_read(db);
	if (s)
		ret = tm_fleet_load(ch, db, s, &lo, &rows);
	if (!ret && !a->quiet)
		cmd_err(a->sub, "%s: trace %s (%s) loaded into %s: %llu rows", what, id,
			n ? machines[0] : "", tm_ch_name(ch), (unsigned long long)rows);
	if (ret < 0)
		cmd_err(a->sub, "%s: %s", what, tm_last_error());
	tm_fleet_schema_free(s);
	tm_ch_close(ch);
	return ret < 0 ? TM_EXIT_FAIL : TM_EXIT_OK;
}

/* The statement asked: a named query's, --traces', or QUERY; malloc'ed. */
static char *fleet_statement(struct tm_ch *ch, const struct fleet_args *a)
{
	char *sql = NULL, *full = NULL;

	if (a->query)
		return strdup(a->query);
	if (a->top)
		sql = tm_fleet_query_sql(ch, a->top, a->machine, a->across, a->limit);
	else
		sql = strdup("SELECT trace, machine, tables, rows, loaded FROM " TM_FLEET_LOADS
			     " ORDER BY machine, trace");
	/* named queries and --traces answer with a header line */
	if (sql && asprintf(&full, "%s FORMAT TSVWithNames", sql) < 0)
		full = NULL;
	free(sql);
	return full;
}

int fleet_ask(const struct fleet_args *a)
{
	struct tm_ch *ch = tm_ch_open(a->url);
	char *sql = ch ? fleet_statement(ch, a) : NULL;
	int ret = sql ? tm_ch_run(ch, sql, stdout) : -1;

	free(sql);
	tm_ch_close(ch);
	if (!ret && fflush(stdout))
		return cmd_err(a->sub, "writing the answer: %s", strerror(errno)), TM_EXIT_FAIL;
	return ret < 0 ? cmd_fail(a->sub) : TM_EXIT_OK;
}
