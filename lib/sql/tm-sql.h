/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-sql.h - SQL over trace.dat files: the records loaded into an SQLite
 * database, a table per event type, a generic table of every event, and
 * derived tables under Perfetto's trace_processor names (sched_slice,
 * thread_state, thread, process) and of their own (syscalls,
 * wakeup_latency, irq, softirq, lost_events); queries run on it with the
 * results printed as columns, CSV, TSV or JSON lines (sql-*.c, man
 * tracemap-sql(1) has the schema).
 */
#ifndef TM_SQL_H
#define TM_SQL_H

#include <stdbool.h>
#include <stdio.h>

#include "events/tm-events.h"
#include "util/tm-progress.h"

struct tm_dat;
struct tm_sql;

/*
 * A new database: path NULL is a private temporary one (gone at close);
 * else path is written as a hidden temporary beside it and renamed over it
 * by tm_sql_close(s, true). NULL + message.
 */
struct tm_sql *tm_sql_new(const char *path);
/*
 * Close the database. With a path: ok renames the finished temporary into
 * place (-1 + message when that fails, the temporary removed); !ok removes
 * it. NULL is fine.
 */
int tm_sql_close(struct tm_sql *s, bool ok);
/* The SQLite handle of s, for a reader of the tables (tm_fleet_load()). */
struct sqlite3 *tm_sql_db(struct tm_sql *s);

struct tm_sql_load_opts {
	/*
	 * The queries that will run (NULL-terminated; NULL: fill every table):
	 * only the tables they read are filled, the others exist empty.
	 */
	const char *const	*queries;
	bool			fill_all;	/* -o: every table, the queries only checked */
	bool			no_plugins;
	tm_warn_fn		warn;
	void			*warn_ctx;
	struct tm_meter		*meter;
	uint64_t		skipped;	/* set: records the checks skipped */
};

/*
 * Load n files (machine[i] of dats[i], machines of them, as from
 * tm_dat_machines()) into s in one transaction: the schema first, then
 * every record in time order. -1 + message (SQLite's, or the reader's).
 * With queries and no fill_all, events may be a virtual table that reads
 * dats while the queries run: they stay open until tm_sql_close(s).
 */
int tm_sql_load(struct tm_sql *s, struct tm_dat *const *dats, int n, const int *machine,
		int machines, struct tm_sql_load_opts *o);

/*
 * Records skipped as damaged by the queries' scans of the files (a query
 * of events alone loads nothing: its first scan warns instead of the
 * load, through the load's warn); 0 when the load read them (o->skipped).
 */
uint64_t tm_sql_skipped(const struct tm_sql *s);

enum tm_sql_format {
	TM_SQL_COLUMNS,		/* aligned columns with a header */
	TM_SQL_CSV,		/* RFC 4180, a header line */
	TM_SQL_TSV,		/* tab-separated, a header line */
	TM_SQL_JSON,		/* one JSON object per row */
};

/*
 * Run every statement of sql, printing the rows of those that return rows
 * to f. A syntax or run-time error: -1 + "query:LINE:COL: SQLite's message".
 */
int tm_sql_query(struct tm_sql *s, const char *sql, enum tm_sql_format fmt, FILE *f);

/*
 * The log2 histogram of the first column (an integer, in ns) of sql's
 * rows, drawn as bcc's runqlat draws one, in microseconds. -1 + message.
 */
int tm_sql_hist(struct tm_sql *s, const char *sql, const char *title, FILE *f);

/*
 * A named query (--top NAME): its SQL, or NULL when there is none of that
 * name; *hist_sql (may be NULL) the query of its --hist (NULL: none).
 */
const char *tm_sql_named(const char *name, const char **hist_sql);
/* The named queries, i from 0 until NULL: the name, *what a line of what it answers. */
const char *tm_sql_named_list(int i, const char **what);

#endif /* TM_SQL_H */
