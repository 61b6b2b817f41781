// SPDX-License-Identifier: GPL-2.0-only
/*
 * load.c - one trace's tables into a ClickHouse server, all or nothing.
 *
 * A trace is loaded when, and only when, its row in tracemap_loads exists,
 * and that row is written last, in one INSERT of one row, after every table's
 * rows were sent and their count on the server checked. Every table is
 * partitioned by trace, so the rows of an unfinished load (a server that died,
 * a refused insert, a killed loader) are one partition per table, which the
 * next load of that trace drops before it sends anything. The named queries
 * read only traces tracemap_loads lists.
 */
#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "fleet-internal.h"

/* Run the ';'-terminated statements of b one by one. */
static int load_run_all(struct tm_ch *ch, struct tm_buf *b)
{
	char *p, *end;

	if (b->err)
		return tm_fail(b->err, "%s", tm_ch_name(ch));
	tm_buf_put(b, "", 1);
	for (p = (char *)b->data; *p; p = end + 2) {
		end = strstr(p, ";\n");
		if (!end)
			break;
		*end = '\0';
		if (tm_ch_run(ch, p, NULL) < 0)
			return -1;
	}
	return 0;
}

/* A statement of fmt with the (local or plain) table name for each %T-free %s. */
static char *load_sql(const char *fmt, const char *table, const char *cluster,
		      const char *trace)
{
	struct tm_buf t = { 0 }, q = { 0 };
	char *s = NULL;

	tm_ch_put_table(&t, table, cluster);
	tm_buf_put(&t, "", 1);
	tm_ch_put_string(&q, trace);
	tm_buf_put(&q, "", 1);
	if (!t.err && !q.err && asprintf(&s, fmt, (char *)t.data, (char *)q.data) < 0)
		s = NULL;
	tm_buf_free(&t);
	tm_buf_free(&q);
	if (!s)
		tm_fail(ENOMEM, "%s", table);
	return s;
}

static int load_run_fmt(struct tm_ch *ch, const char *fmt, const char *table,
			const char *cluster, const char *trace)
{
	char *sql = load_sql(fmt, table, cluster, trace);
	int ret = sql ? tm_ch_run(ch, sql, NULL) : -1;

	free(sql);
	return ret;
}

static int load_count(struct tm_ch *ch, const char *table, const char *cluster,
		      const char *trace, uint64_t *n)
{
	char *sql = load_sql("SELECT count() FROM %s WHERE trace = %s", table, cluster, trace);
	int ret = sql ? tm_ch_query_u64(ch, sql, n) : -1;

	free(sql);
	return ret;
}

/* The database, tracemap_loads and every table of s, where missing. */
static int load_create(struct tm_ch *ch, const struct tm_fleet_schema *s, const char *cluster)
{
	struct tm_buf b = { 0 };
	int ret;

	tm_fleet_ddl_loads(&b, tm_ch_db(ch), cluster);
	for (int i = 0; i < s->ntables; i++)
		tm_fleet_ddl_table(&b, &s->tables[i], tm_ch_db(ch), cluster);
	ret = load_run_all(ch, &b);
	tm_buf_free(&b);
	return ret;
}

/*
 * Refuse a trace that is loaded on this server unless replace; with replace
 * its row goes first, so that from then on it is not loaded until the new
 * row is written. (Not asked of the whole cluster: a Distributed query fails
 * while any server lacks the tables, as every server does before its first
 * load; a trace is loaded into the shard of its machine.)
 */
static int load_check_done(struct tm_ch *ch, const struct tm_fleet_load_opts *o)
{
	uint64_t here;

	if (load_count(ch, TM_FLEET_LOADS, o->cluster, o->trace, &here) < 0)
		return -1;
	if (here && !o->replace)
		return tm_failx(EEXIST, "%s: trace %s is already loaded (--replace loads it "
				"again)", tm_ch_name(ch), o->trace);
	if (here)
		return load_run_fmt(ch, "ALTER TABLE %s DROP PARTITION %s", TM_FLEET_LOADS,
				    o->cluster, o->trace);
	return 0;
}

/* INSERT INTO `t` (`trace`, `machine`, `c1`, ...) FORMAT Native */
static char *load_insert_sql(const struct tm_fleet_table *t, const char *cluster)
{
	struct tm_buf b = { 0 };

	tm_buf_put(&b, "INSERT INTO ", 12);
	tm_ch_put_table(&b, t->name, cluster);
	tm_buf_put(&b, " (`trace`, `machine`", 20);
	for (int i = 0; i < t->ncols; i++) {
		if (i == t->machine_col)
			continue;
		tm_buf_put(&b, ", ", 2);
		tm_ch_put_ident(&b, t->cols[i].name);
	}
	tm_buf_putstr(&b, ") FORMAT Native");
	if (b.err) {
		tm_buf_free(&b);
		tm_fail(ENOMEM, "%s", t->name);
		return NULL;
	}
	return (char *)b.data;
}

/* One table's rows sent and their count on the server checked. */
static int load_table(struct tm_ch *ch, sqlite3 *db, const struct tm_fleet_table *t,
		      const struct tm_fleet_load_opts *o, uint64_t *rows)
{
	struct tm_fleet_stream fs = { 0 };
	char *sql = load_insert_sql(t, o->cluster);
	uint64_t there;
	int ret = -1;

	if (!sql || tm_fleet_stream_start(&fs, db, t, o) < 0)
		goto out;
	ret = tm_ch_insert(ch, sql, tm_fleet_stream_fill, &fs);
	tm_fleet_stream_stop(&fs);
	if (ret < 0 || load_count(ch, t->name, o->cluster, o->trace, &there) < 0) {
		ret = -1;
		goto out;
	}
	if (there != fs.rows) {
		ret = tm_failx(EIO, "%s: table %s holds %" PRIu64 " rows of trace %s, %" PRIu64
			       " were sent", tm_ch_name(ch), t->name, there, o->trace, fs.rows);
		goto out;
	}
	*rows = fs.rows;
out:
	tm_fleet_stream_stop(&fs);
	free(sql);
	return ret;
}

/* The row that says the trace is loaded: the one commit of a load. */
static int load_commit(struct tm_ch *ch, const struct tm_fleet_load_opts *o, int ntables,
		       uint64_t rows)
{
	struct tm_buf b = { 0 };
	char tail[128];
	int ret;

	tm_buf_put(&b, "INSERT INTO ", 12);
	tm_ch_put_table(&b, TM_FLEET_LOADS, o->cluster);
	tm_buf_put(&b, " VALUES (", 9);
	tm_ch_put_string(&b, o->trace);
	tm_buf_put(&b, ", ", 2);
	{
		/* the machines' names, comma-separated */
		struct tm_buf m = { 0 };

		for (int i = 0; i < o->nmachines; i++) {
			if (i)
				tm_buf_put(&m, ",", 1);
			tm_buf_put(&m, o->machines[i], strlen(o->machines[i]));
		}
		tm_buf_put(&m, "", 1);
		tm_ch_put_string(&b, m.err ? "" : (char *)m.data);
		tm_buf_free(&m);
	}
	snprintf(tail, sizeof(tail), ", %d, %" PRIu64 ", now(), 'tracemap %s')", ntables, rows,
		 TM_VERSION);
	tm_buf_putstr(&b, tail);
	ret = b.err ? tm_fail(b.err, "%s", tm_ch_name(ch)) : tm_ch_run(ch, (char *)b.data, NULL);
	tm_buf_free(&b);
	return ret;
}

int tm_fleet_load(struct tm_ch *ch, struct sqlite3 *db, const struct tm_fleet_schema *s,
		  const struct tm_fleet_load_opts *o, uint64_t *rows)
{
	uint64_t n;

	*rows = 0;
	if (tm_ch_create_db(ch) < 0 || load_create(ch, s, o->cluster) < 0 || load_check_done(ch, o) < 0)
		return -1;
	/* what an unfinished load of this trace left */
	for (int i = 0; i < s->ntables; i++)
		if (load_run_fmt(ch, "ALTER TABLE %s DROP PARTITION %s", s->tables[i].name,
				 o->cluster, o->trace) < 0)
			return -1;
	for (int i = 0; i < s->ntables; i++) {
		if (load_table(ch, db, &s->tables[i], o, &n) < 0)
			return -1;
		*rows += n;
		if (o->progress)
			o->progress(o->progress_ctx, s->tables[i].name, n);
	}
	return load_commit(ch, o, s->ntables, *rows);
}
