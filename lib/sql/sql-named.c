// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-named.c - the named queries of `tracemap sql --top NAME`: the
 * everyday questions perf sched latency, perf sched timehist and trace-cmd
 * report --profile answer, as SQL over the derived tables (the man page
 * prints each); and the log2 histogram --hist draws of a latency column,
 * as bcc's runqlat and bpftrace's hist() draw one.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "sql-internal.h"
#include "tm-sql.h"

#define HIST_SLOTS	64
#define HIST_STARS	40

static const struct {
	const char	*name, *what, *sql, *hist;
} named[] = {
	{ "latency", "per task: run time, switches, average and maximum wakeup latency and when "
	  "(perf sched latency)",
	  "WITH run AS (SELECT utid, sum(dur) AS runtime, count(*) AS switches FROM sched_slice\n"
	  "             JOIN thread USING (utid) WHERE NOT is_idle GROUP BY utid),\n"
	  "     lat AS (SELECT utid, count(*) AS delays, avg(latency) AS avg_lat,\n"
	  "                    max(latency) AS max_lat FROM wakeup_latency WHERE lost = 0\n"
	  "                    GROUP BY utid),\n"
	  "     top AS (SELECT utid, ts, latency, row_number() OVER\n"
	  "                    (PARTITION BY utid ORDER BY latency DESC, ts) AS r FROM wakeup_latency\n"
	  "                    WHERE lost = 0)\n"
	  "SELECT thread.name || ':' || thread.tid AS task,\n"
	  "       round(run.runtime / 1e6, 3) AS runtime_ms, run.switches,\n"
	  "       round(lat.avg_lat / 1e6, 3) AS avg_delay_ms,\n"
	  "       round(lat.max_lat / 1e6, 3) AS max_delay_ms,\n"
	  "       round(top.ts / 1e9, 6) AS max_delay_start,\n"
	  "       round((top.ts + top.latency) / 1e9, 6) AS max_delay_end\n"
	  "FROM run JOIN thread USING (utid) LEFT JOIN lat USING (utid)\n"
	  "     LEFT JOIN top ON top.utid = run.utid AND top.r = 1\n"
	  "ORDER BY lat.max_lat DESC NULLS LAST, run.runtime DESC",
	  "SELECT latency FROM wakeup_latency WHERE lost = 0" },
	{ "runtime", "per task: time running, runnable (waiting for a CPU), sleeping, blocked; "
	  "switches (perf sched timehist -s, report --profile)",
	  "SELECT thread.name || ':' || thread.tid AS task,\n"
	  "       round(total(CASE WHEN state = 'Running' THEN dur END) / 1e6, 3) AS run_ms,\n"
	  "       round(total(CASE WHEN state IN ('R', 'R+') THEN dur END) / 1e6, 3)"
	  " AS wait_ms,\n"
	  "       round(total(CASE WHEN state = 'S' THEN dur END) / 1e6, 3) AS sleep_ms,\n"
	  "       round(total(CASE WHEN state LIKE 'D%' THEN dur END) / 1e6, 3)"
	  " AS blocked_ms,\n"
	  "       sum(state = 'Running') AS switches\n"
	  "FROM thread_state JOIN thread USING (utid)\n"
	  "GROUP BY utid ORDER BY total(CASE WHEN state = 'Running' THEN dur END) DESC",
	  "SELECT dur FROM thread_state WHERE state IN ('R', 'R+') AND dur IS NOT NULL" },
	{ "syscalls", "per task and system call: calls, total, average and maximum time",
	  "SELECT thread.name || ':' || thread.tid AS task, coalesce(syscalls.name, id) AS syscall,\n"
	  "       count(*) AS calls, round(total(dur) / 1e6, 3) AS total_ms,\n"
	  "       round(avg(dur) / 1e3, 3) AS avg_us, round(max(dur) / 1e3, 3) AS max_us,\n"
	  "       sum(ret < 0) AS errors\n"
	  "FROM syscalls JOIN thread USING (utid)\n"
	  "GROUP BY utid, id ORDER BY total(dur) DESC",
	  "SELECT dur FROM syscalls WHERE lost = 0" },
	{ "irq", "per CPU: time in each hard IRQ and softirq, count and maximum",
	  "SELECT cpu, 'irq' AS kind, irq || ' ' || coalesce(name, '') AS name, count(*) AS count,\n"
	  "       round(total(dur) / 1e6, 3) AS total_ms, round(max(dur) / 1e3, 3)"
	  " AS max_us\n"
	  "FROM irq GROUP BY cpu, irq\n"
	  "UNION ALL\n"
	  "SELECT cpu, 'softirq', coalesce(name, vec), count(*), round(total(dur) / 1e6, 3),\n"
	  "       round(max(dur) / 1e3, 3)\n"
	  "FROM softirq GROUP BY cpu, vec\n"
	  "ORDER BY cpu, kind, total_ms DESC",
	  "SELECT dur FROM irq WHERE dur IS NOT NULL UNION ALL "
	  "SELECT dur FROM softirq WHERE dur IS NOT NULL" },
	{ "cpu", "per CPU: busy time (not idle) and switches, from sched_slice",
	  "SELECT cpu, round(total(CASE WHEN NOT is_idle THEN dur END) / 1e6, 3) AS busy_ms,\n"
	  "       round(total(CASE WHEN is_idle THEN dur END) / 1e6, 3) AS idle_ms,\n"
	  "       count(*) AS switches\n"
	  "FROM sched_slice JOIN thread USING (utid) GROUP BY cpu ORDER BY cpu",
	  NULL },
};

#define NNAMED	(sizeof(named) / sizeof(named[0]))

const char *tm_sql_named(const char *name, const char **hist_sql)
{
	size_t i;

	for (i = 0; i < NNAMED; i++) {
		if (!strcmp(named[i].name, name)) {
			if (hist_sql)
				*hist_sql = named[i].hist;
			return named[i].sql;
		}
	}
	return NULL;
}

const char *tm_sql_named_list(int i, const char **what)
{
	if (i < 0 || (size_t)i >= NNAMED)
		return NULL;
	if (what)
		*what = named[i].what;
	return named[i].name;
}

/* bcc's slot of a value: 0 and 1 in slot 1, then floor(log2(v)) + 1. */
static int slot_of(uint64_t v)
{
	return v < 2 ? 1 : 64 - __builtin_clzll(v);
}

static void draw(const uint64_t *count, int max_slot, const char *title, FILE *f)
{
	uint64_t most = 0, low, high;
	char stars[HIST_STARS + 1];
	int i, n;

	for (i = 1; i <= max_slot; i++)
		if (count[i] > most)
			most = count[i];
	if (title)
		fprintf(f, "%s\n", title);
	fprintf(f, "%10s%-14s : count     distribution\n", "usecs", "");
	for (i = 1; i <= max_slot; i++) {
		low = (1ULL << i) >> 1;
		high = (1ULL << i) - 1;
		if (low == high)
			low--;
		n = most ? (int)(count[i] * HIST_STARS / most) : 0;
		memset(stars, '*', (size_t)n);
		stars[n] = '\0';
		fprintf(f, "%10" PRIu64 " -> %-10" PRIu64 " : %-9" PRIu64 " |%-*s|\n", low, high,
			count[i], HIST_STARS, stars);
	}
}

int tm_sql_hist(struct tm_sql *s, const char *sql, const char *title, FILE *f)
{
	uint64_t count[HIST_SLOTS + 1] = { 0 };
	sqlite3_stmt *st = NULL;
	int rc, slot, max_slot = 1;
	int64_t v;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return tm_sql_fail(s, "histogram");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) == SQLITE_NULL)
			continue;
		v = sqlite3_column_int64(st, 0);
		slot = slot_of(v > 0 ? (uint64_t)v / 1000 : 0);
		count[slot]++;
		if (slot > max_slot)
			max_slot = slot;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return tm_sql_fail(s, "histogram");
	draw(count, max_slot, title, f);
	if (fflush(f) || ferror(f))
		return tm_fail(errno ?: EIO, "write output");
	return 0;
}
