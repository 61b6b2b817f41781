/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-fleet.h - a fleet's trace tables in ClickHouse: the tables of a SQLite
 * trace database (lib/sql's) loaded into a server over its HTTP interface,
 * all or nothing per trace, their DDL for one server or a sharded cluster,
 * and the named queries asked of the whole fleet.
 */
#ifndef TM_FLEET_H
#define TM_FLEET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct sqlite3;
struct tm_ch;
struct tm_fleet_schema;

/* The table that says which traces are loaded (its local table: NAME_local). */
#define TM_FLEET_LOADS	"tracemap_loads"

/*
 * A ClickHouse server from http://HOST[:PORT][/DB] or clickhouse://... (the
 * HTTP interface; port 8123, database "default" when left out). Nothing is
 * sent yet. NULL and errno EINVAL on a URL of another form.
 */
struct tm_ch *tm_ch_open(const char *url);
/* Forget the server; NULL is ignored. */
void tm_ch_close(struct tm_ch *ch);
/* "HOST:PORT/DB", for messages. */
const char *tm_ch_name(const struct tm_ch *ch);
/*
 * Run one statement; its answer (TabSeparated unless the statement says
 * FORMAT) is written to out, or dropped when out is NULL. -1 with the server's
 * own error text as one line in tm_last_error() when it refuses.
 */
int tm_ch_run(struct tm_ch *ch, const char *sql, FILE *out);

/* A SQLite trace database opened read-only; NULL with tm_last_error(). */
struct sqlite3 *tm_fleet_db_open(const char *path);
/* Close a database tm_fleet_db_open() returned; NULL is ignored. */
void tm_fleet_db_close(struct sqlite3 *db);

/*
 * The tables and views of db as ClickHouse will hold them: each column typed
 * from its declared SQLite type (INTEGER -> Int64, REAL -> Float64, TEXT,
 * BLOB, JSON -> String; Nullable unless NOT NULL), plus a trace column and a
 * machine column where the table has none. NULL with tm_last_error().
 */
struct tm_fleet_schema *tm_fleet_schema_read(struct sqlite3 *db);
/* Free a schema; NULL is ignored. */
void tm_fleet_schema_free(struct tm_fleet_schema *s);

/*
 * The DDL of schema on database dbname: MergeTree tables partitioned by
 * trace; with cluster, the local tables NAME_local plus Distributed tables
 * NAME over them (run on every server of the cluster). Written to out.
 */
int tm_fleet_ddl_print(const struct tm_fleet_schema *s, const char *dbname,
		       const char *cluster, FILE *out);

struct tm_fleet_load_opts {
	const char	*trace;		/* the trace id (tm_fleet_trace_id()) */
	/*
	 * The machines' names: machines[i] for rows whose SQLite machine column
	 * is i (the number itself when there is no name), machines[0] for a
	 * table without one ("" when nmachines is 0).
	 */
	const char *const *machines;
	int		nmachines;
	const char	*cluster;	/* NULL: plain tables, else sharded (see above) */
	bool		replace;	/* load again a trace already loaded */
	/* called after each table, may be NULL */
	void		(*progress)(void *ctx, const char *table, uint64_t rows);
	void		*progress_ctx;
};

/*
 * Load every table of db into ch as one trace, all or nothing: tables created
 * when missing, rows of an earlier unfinished load of the trace dropped, the
 * rows streamed in Native blocks, their counts checked on the server, and only
 * then the trace's row in tracemap_loads written: a trace is loaded when, and
 * only when, that row exists. A trace already there is refused (EEXIST)
 * unless opts->replace. *rows gets the number of rows loaded.
 */
int tm_fleet_load(struct tm_ch *ch, struct sqlite3 *db, const struct tm_fleet_schema *s,
		  const struct tm_fleet_load_opts *opts, uint64_t *rows);

/*
 * A trace id for the files at paths (the trace.dat files, or a SQLite
 * database): 16 hex digits of a 64-bit hash of their bytes, in out (17
 * bytes). -1 with tm_last_error() when a file cannot be read.
 */
int tm_fleet_trace_id(const char *const *paths, int n, char out[17]);

/* The named queries both engines run, NULL-terminated ("counts", "latency", ...). */
const char *const *tm_fleet_query_names(void);
/*
 * The text of named query name for ClickHouse over ch's tables (asking ch
 * whether they are a cluster's): only traces tracemap_loads lists, only
 * machine's rows if not NULL, per machine (a machine column) or across
 * machines, at most limit rows (<= 0: 20). Malloc'ed; NULL (EINVAL) for an
 * unknown name, or with the server's error.
 */
char *tm_fleet_query_sql(struct tm_ch *ch, const char *name, const char *machine, bool across,
			 long limit);

#endif /* TM_FLEET_H */
