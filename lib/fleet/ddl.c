// SPDX-License-Identifier: GPL-2.0-only
/*
 * ddl.c - the CREATE TABLE statements of a trace database's tables in
 * ClickHouse: MergeTree tables partitioned by trace (one partition a trace,
 * so that an unfinished load is dropped whole), sorted by trace and ts; on a
 * cluster the MergeTree tables are NAME_local on every server and NAME a
 * Distributed table over them. Only DDL that 18.16 and current versions
 * both accept: ENGINE = MergeTree() with PARTITION BY / ORDER BY (since
 * 1.1.54310), Distributed(cluster, db, table, key), CREATE ... AS.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fleet-internal.h"

static void ddl_puts(struct tm_buf *b, const char *s)
{
	tm_buf_put(b, s, strlen(s));
}

const char *tm_ch_type_name(enum tm_ch_type type, bool nullable)
{
	static const char *const names[2][3] = {
		{ "Int64", "Float64", "String" },
		{ "Nullable(Int64)", "Nullable(Float64)", "Nullable(String)" },
	};

	return names[nullable][type];
}

/* s between two q, with q and backslashes escaped by a backslash */
static void ddl_quoted(struct tm_buf *b, const char *s, char q)
{
	tm_buf_put(b, &q, 1);
	for (const char *p = s; *p; p++) {
		if (*p == q || *p == '\\')
			tm_buf_put(b, "\\", 1);
		tm_buf_put(b, p, 1);
	}
	tm_buf_put(b, &q, 1);
}

void tm_ch_put_ident(struct tm_buf *b, const char *name)
{
	ddl_quoted(b, name, '`');
}

void tm_ch_put_string(struct tm_buf *b, const char *s)
{
	ddl_quoted(b, s, '\'');
}

void tm_ch_put_table(struct tm_buf *b, const char *name, const char *cluster)
{
	char local[256];

	snprintf(local, sizeof(local), "%s%s", name, cluster ? "_local" : "");
	tm_ch_put_ident(b, local);
}

/* `db`.`name` or `db`.`name_local` */
static void ddl_qualified(struct tm_buf *b, const char *dbname, const char *name,
			  const char *cluster)
{
	tm_ch_put_ident(b, dbname);
	tm_buf_put(b, ".", 1);
	tm_ch_put_table(b, name, cluster);
}

static void ddl_column(struct tm_buf *b, const char *name, const char *type, bool first)
{
	if (!first)
		ddl_puts(b, ", ");
	tm_ch_put_ident(b, name);
	tm_buf_put(b, " ", 1);
	ddl_puts(b, type);
}

/* The Distributed table over the local ones, a trace's rows on one shard. */
static void ddl_distributed(struct tm_buf *b, const char *name, const char *dbname,
			    const char *cluster)
{
	char local[256];

	snprintf(local, sizeof(local), "%s_local", name);
	ddl_puts(b, "CREATE TABLE IF NOT EXISTS ");
	ddl_qualified(b, dbname, name, NULL);
	ddl_puts(b, " AS ");
	ddl_qualified(b, dbname, name, cluster);
	ddl_puts(b, " ENGINE = Distributed(");
	tm_ch_put_string(b, cluster);
	ddl_puts(b, ", ");
	tm_ch_put_string(b, dbname);
	ddl_puts(b, ", ");
	tm_ch_put_string(b, local);
	ddl_puts(b, ", cityHash64(trace));\n");
}

static void ddl_engine(struct tm_buf *b, const char *order)
{
	ddl_puts(b, ") ENGINE = MergeTree() PARTITION BY trace ORDER BY ");
	ddl_puts(b, order);
	ddl_puts(b, ";\n");
}

void tm_fleet_ddl_table(struct tm_buf *b, const struct tm_fleet_table *t, const char *dbname,
			const char *cluster)
{
	ddl_puts(b, "CREATE TABLE IF NOT EXISTS ");
	ddl_qualified(b, dbname, t->name, cluster);
	ddl_puts(b, " (");
	ddl_column(b, "trace", "String", true);
	ddl_column(b, "machine", "String", false);
	for (int i = 0; i < t->ncols; i++)
		if (i != t->machine_col)
			ddl_column(b, t->cols[i].name,
				   tm_ch_type_name(t->cols[i].type, t->cols[i].nullable), false);
	/* a sorting key is never Nullable: a NULL ts sorts as 0 */
	if (t->ts_col < 0)
		ddl_engine(b, "trace");
	else
		ddl_engine(b, t->cols[t->ts_col].nullable ? "(trace, assumeNotNull(ts))"
							  : "(trace, ts)");
	if (cluster)
		ddl_distributed(b, t->name, dbname, cluster);
}

void tm_fleet_ddl_loads(struct tm_buf *b, const char *dbname, const char *cluster)
{
	ddl_puts(b, "CREATE TABLE IF NOT EXISTS ");
	ddl_qualified(b, dbname, TM_FLEET_LOADS, cluster);
	ddl_puts(b, " (`trace` String, `machine` String, `tables` Int64, `rows` Int64, "
		    "`loaded` DateTime, `tracemap` String");
	ddl_engine(b, "trace");
	if (cluster)
		ddl_distributed(b, TM_FLEET_LOADS, dbname, cluster);
}

int tm_fleet_ddl_print(const struct tm_fleet_schema *s, const char *dbname,
		       const char *cluster, FILE *out)
{
	struct tm_buf b = { 0 };
	int ret = 0;

	ddl_puts(&b, "CREATE DATABASE IF NOT EXISTS ");
	tm_ch_put_ident(&b, dbname);
	ddl_puts(&b, ";\n");
	tm_fleet_ddl_loads(&b, dbname, cluster);
	for (int i = 0; i < s->ntables; i++)
		tm_fleet_ddl_table(&b, &s->tables[i], dbname, cluster);
	if (b.err)
		ret = tm_fail(b.err, "the DDL");
	else if (fwrite(b.data, 1, b.len, out) != b.len)
		ret = tm_fail(errno, "writing the DDL");
	tm_buf_free(&b);
	return ret;
}
