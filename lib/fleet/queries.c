// SPDX-License-Identifier: GPL-2.0-only
/*
 * queries.c - the named queries asked of a fleet, in the SQL ClickHouse 18.16
 * and current versions both run (no window functions; a JOIN written with its
 * strictness, ANY LEFT). Each reads only the traces tracemap_loads lists, per
 * machine (machine a column of the answer) or across machines (without one).
 *
 * A template's words: $M "machine," per machine, nothing across machines;
 * $W the condition on loaded traces (and the machine asked for); $N the row
 * limit; $T(name) the table a query reads (the Distributed one on a
 * cluster); $L(name) a table read inside a subquery, which each shard runs
 * on its own rows (the local table on a cluster: a trace's rows and its
 * tracemap_loads row are on one shard).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fleet-internal.h"

static const struct {
	const char *name;
	const char *sql;
} queries[] = {
	/* events per type */
	{ "counts",
	  "SELECT $M system, name, count(*) AS events FROM $T(events) WHERE $W "
	  "GROUP BY $M system, name ORDER BY $M system, name" },
	/* per CPU: busy and idle time, switches (tracemap sql --top cpu, in ns) */
	{ "cpu",
	  "SELECT $M cpu, sum(CASE WHEN utid != 0 THEN dur ELSE 0 END) AS busy_ns, "
	  "sum(CASE WHEN utid = 0 THEN dur ELSE 0 END) AS idle_ns, count(*) AS switches "
	  "FROM $T(sched_slice) WHERE $W GROUP BY $M cpu ORDER BY $M cpu" },
	/*
	 * per task: run time, switches, wakeups and the longest wakeup latency
	 * (tracemap sql --top latency, in ns); the joins of aggregates done where
	 * the query was asked, each side read through its Distributed table
	 */
	{ "latency",
	  "SELECT $M name AS task, sum(runtime_ns) AS runtime_ns, sum(switches) AS switches, "
	  "sum(delays) AS delays, max(max_delay_ns) AS max_delay_ns FROM "
	  "(SELECT machine, trace, utid, runtime_ns, switches, delays, max_delay_ns FROM "
	  "(SELECT machine, trace, utid, sum(dur) AS runtime_ns, count(*) AS switches "
	  "FROM $T(sched_slice) WHERE $W AND utid != 0 GROUP BY machine, trace, utid) "
	  "ANY LEFT JOIN (SELECT trace, utid, count(*) AS delays, max(latency) AS max_delay_ns "
	  "FROM $T(wakeup_latency) WHERE $W AND lost = 0 GROUP BY trace, utid) USING (trace, utid)) "
	  "ANY LEFT JOIN (SELECT trace, utid, name FROM $T(thread) WHERE $W) USING (trace, utid) "
	  "GROUP BY $M name ORDER BY max_delay_ns DESC, runtime_ns DESC, $M task LIMIT $N" },
	/* the longest wakeup latencies, one row each */
	{ "wakeups",
	  "SELECT machine, ts, latency, tid, cpu FROM $T(wakeup_latency) WHERE $W "
	  "AND lost = 0 AND latency IS NOT NULL ORDER BY latency DESC, machine, ts, tid LIMIT $N" },
	/* per task name: time on a CPU and slices, from sched_slice */
	{ "runtime",
	  "SELECT $M name, count(*) AS slices, sum(dur) AS run_ns FROM $T(sched_slice) "
	  "ANY LEFT JOIN (SELECT trace, utid, name FROM $L(thread)) USING (trace, utid) "
	  "WHERE $W GROUP BY $M name ORDER BY run_ns DESC, $M name LIMIT $N" },
	/* per system call: calls, total and longest time */
	{ "syscalls",
	  "SELECT $M name, count(*) AS calls, sum(dur) AS total_ns, max(dur) AS max_ns "
	  "FROM $T(syscalls) WHERE $W GROUP BY $M name "
	  "ORDER BY total_ns DESC, $M name LIMIT $N" },
};

static const char *const query_names[] = {
	"counts", "cpu", "latency", "wakeups", "runtime", "syscalls", NULL,
};

/* The tables the named queries read: created even when a database has them empty. */
static const char *const query_tables[] = {
	"events", "sched_slice", "thread", "wakeup_latency", "syscalls", NULL,
};

bool tm_fleet_query_reads(const char *table)
{
	for (int i = 0; query_tables[i]; i++)
		if (!strcmp(query_tables[i], table))
			return true;
	return false;
}

const char *const *tm_fleet_query_names(void)
{
	return query_names;
}

struct query_ctx {
	const char	*db;		/* the tables' database, named in each reference */
	const char	*cluster;	/* non-NULL: the server has local tables */
	const char	*machine;
	bool		across;
	long		limit;
};

/*
 * `db`.`name`, or its local table: the shards run a Distributed query's
 * subqueries in their own default database unless it is named.
 */
static void query_put_table(struct tm_buf *b, const struct query_ctx *q, const char *name,
			    bool local)
{
	tm_ch_put_ident(b, q->db);
	tm_buf_put(b, ".", 1);
	tm_ch_put_table(b, name, local ? q->cluster : NULL);
}

static void query_where(struct tm_buf *b, const struct query_ctx *q)
{
	tm_buf_put(b, "trace IN (SELECT trace FROM ", 28);
	query_put_table(b, q, TM_FLEET_LOADS, true);
	tm_buf_put(b, ")", 1);
	if (q->machine) {
		tm_buf_put(b, " AND machine = ", 15);
		tm_ch_put_string(b, q->machine);
	}
}

/* $T(name) or $L(name) at p: the table, and the length of the word. */
static size_t query_table(struct tm_buf *b, const char *p, const struct query_ctx *q)
{
	const char *end = strchr(p, ')');
	char name[64];
	size_t n;

	if (!end || p[2] != '(' || (size_t)(end - p - 3) >= sizeof(name))
		return 0;
	n = end - p - 3;
	memcpy(name, p + 3, n);
	name[n] = '\0';
	query_put_table(b, q, name, p[1] == 'L');
	return end + 1 - p;
}

static void query_expand(struct tm_buf *b, const char *t, const struct query_ctx *q)
{
	char num[24];

	for (const char *p = t; *p; ) {
		size_t n = 0;

		if (*p != '$') {
			tm_buf_put(b, p++, 1);
			continue;
		}
		if (p[1] == 'M') {
			if (!q->across)
				tm_buf_put(b, "machine,", 8);
			n = 2;
		} else if (p[1] == 'W') {
			query_where(b, q);
			n = 2;
		} else if (p[1] == 'N') {
			snprintf(num, sizeof(num), "%ld", q->limit);
			tm_buf_put(b, num, strlen(num));
			n = 2;
		} else if (p[1] == 'T' || p[1] == 'L') {
			n = query_table(b, p, q);
		}
		if (!n) {
			tm_buf_put(b, p, 1);
			n = 1;
		}
		p += n;
	}
}

char *tm_fleet_query_sql(struct tm_ch *ch, const char *name, const char *machine, bool across,
			 long limit)
{
	struct query_ctx q = { .db = tm_ch_db(ch), .machine = machine, .across = across,
			       .limit = limit > 0 ? limit : 20 };
	struct tm_buf b = { 0 };
	uint64_t local;
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(queries); i++)
		if (!strcmp(queries[i].name, name))
			break;
	if (i == TM_ARRAY_SIZE(queries))
		return tm_failx(EINVAL, "no named query '%s'", name), NULL;
	/* a cluster's servers have tracemap_loads_local beside the Distributed table */
	if (tm_ch_query_u64(ch, "EXISTS TABLE " TM_FLEET_LOADS "_local", &local) < 0)
		return NULL;
	q.cluster = local ? "" : NULL;
	query_expand(&b, queries[i].sql, &q);
	tm_buf_put(&b, "", 1);
	if (b.err) {
		tm_buf_free(&b);
		return tm_fail(ENOMEM, "query %s", name), NULL;
	}
	return (char *)b.data;
}
