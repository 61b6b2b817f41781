/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sql-internal.h - what the files of lib/sql/ share: the database and its
 * tables (sql-db.c, sql-schema.c), one machine's load (sql-load.c) and the
 * derived tables it feeds (sql-tasks.c, sql-sched.c, sql-spans.c).
 */
#ifndef TM_SQL_INTERNAL_H
#define TM_SQL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>
#include <traceevent/event-parse.h>

#include "events/tm-events.h"
#include "trace/tm-trace.h"
#include "util/internal.h"

#define SQL_NULL	INT64_MIN	/* an integer bound as NULL (sql_row()'s 'I') */

/* The derived tables, as bits of what a query reads. */
enum sql_derived {
	SQL_D_SLICE	= 1 << 0,	/* sched_slice, sched */
	SQL_D_STATE	= 1 << 1,	/* thread_state */
	SQL_D_TASKS	= 1 << 2,	/* thread, process */
	SQL_D_WAKEUP	= 1 << 3,	/* wakeup_latency */
	SQL_D_SYSCALL	= 1 << 4,	/* syscalls */
	SQL_D_IRQ	= 1 << 5,	/* irq, softirq */
	SQL_D_LOST	= 1 << 6,	/* lost_events */
	SQL_D_EVENTS	= 1 << 7,	/* events: the generic table */
};

/* One table of an event type: its name and field columns (the first machine's). */
struct sql_evtable {
	char		*name;
	char		**cols;
	unsigned char	*isnum;		/* per column: INTEGER, else TEXT */
	int		ncols;
	bool		wanted;
};

/* A growing NUL-terminated string. */
struct sql_buf {
	char	*s;
	size_t	len, cap;
};

/* Append to b; -1 + message out of memory. */
TM_HIDDEN int tm_sql_buf_printf(struct sql_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* int64 keys (not INT64_MIN) to uint32 values. */
struct sql_map {
	int64_t		*keys;
	uint32_t	*vals;
	size_t		cap, n;
};

TM_HIDDEN bool tm_sql_map_get(const struct sql_map *m, int64_t key, uint32_t *val);
/* -1 + message out of memory. */
TM_HIDDEN int tm_sql_map_put(struct sql_map *m, int64_t key, uint32_t val);
TM_HIDDEN void tm_sql_map_free(struct sql_map *m);
/*
 * The per-thread state arrays indexed by utid: arr (of *n elements of size
 * bytes) grown to hold index u, the new part zeroed; the new array with *n
 * updated, or NULL + message ("<what>: ...", arr kept) on ENOMEM.
 */
TM_HIDDEN void *tm_sql_grow(void *arr, size_t *n, size_t size, size_t u, const char *what);

struct tm_sql {
	sqlite3			*db;
	char			*path;		/* -o: the file, else NULL */
	char			*tmp;		/* -o: the temporary it is written as */
	struct sql_evtable	*tabs;
	int			ntabs;
	unsigned int		derived;	/* enum sql_derived: the tables to fill */
	bool			multi;		/* several machines: a machine column */
	bool			buffers;	/* several buffers: a buffer column */
	bool			events_fields;	/* the query reads events.fields: build its JSON */
	int			ucpu_base;	/* the first ucpu of the machine being loaded */
	struct sql_tasks	*tasks;		/* threads and processes of every machine */
	struct sql_buf		scratch;	/* a JSON array being built */
	bool			events_plain;	/* the queries write events, or read it twice */
	bool			events_virtual;	/* ... else it is the virtual table of vev */
	bool			load_needed;	/* they read tables other than events */
	struct sql_vevents	*vev;		/* the module of a virtual events, or NULL */
};

/* ---- sql-db.c ---- */

/* Run one statement without results; -1 + SQLite's message. */
TM_HIDDEN int tm_sql_exec(struct tm_sql *s, const char *sql);
/* A prepared statement, NULL + message. */
TM_HIDDEN sqlite3_stmt *tm_sql_prepare(struct tm_sql *s, const char *sql);
/* SQLite's failure as the library's message: -1. */
TM_HIDDEN int tm_sql_fail(struct tm_sql *s, const char *what);
/*
 * One row into stmt, a value per letter of types: 'i' int64_t, 'I' int64_t
 * or SQL_NULL, 't' const char * (NULL: NULL), 'n' NULL. The machine
 * column, if the table has one, is bound after them. -1 + message.
 */
TM_HIDDEN int tm_sql_row(struct tm_sql *s, sqlite3_stmt *stmt, int machine, const char *types,
			 ...);
/* The INSERT of n values (and the machine's) into a derived table. NULL + message. */
TM_HIDDEN sqlite3_stmt *tm_sql_insert(struct tm_sql *s, const char *name, int n);

/* ---- sql-vevents.c: the generic table read from the files on demand ---- */

struct tm_dat;
struct tm_events;
struct sql_vevents;

/*
 * The module behind a virtual events table over n files (machine[i] of
 * dats[i]), decoded with ev[m] per machine (the array and each ev now the
 * module's, freed even on failure), registered on s's database, which frees
 * it when it closes. The files must stay open until tm_sql_close(s). NULL +
 * message.
 */
TM_HIDDEN struct sql_vevents *tm_sql_vevents_new(struct tm_sql *s, struct tm_dat *const *dats,
						 int n, const int *machine, int machines,
						 struct tm_events **ev);
/*
 * The first scan of each machine's files warns through warn (damaged
 * records), the load having read nothing; later ones are silent.
 */
TM_HIDDEN void tm_sql_vevents_warn(struct sql_vevents *v, tm_warn_fn warn, void *ctx);
/* Machine m's decoding (its ev). */
TM_HIDDEN struct tep_handle *tm_sql_vevents_tep(const struct sql_vevents *v, int m);
/* Replace the plain table events with the virtual one (virt), or back. */
TM_HIDDEN int tm_sql_vevents_swap(struct tm_sql *s, bool virt);
/*
 * Does every statement of sql read the virtual events at most once, as the
 * outermost loop of its plan (one pass over the files)? 1 yes, 0 no, -1 error.
 */
TM_HIDDEN int tm_sql_vevents_once(struct tm_sql *s, const char *sql);

/* ---- sql-vgroup.c: the generic table's rows counted, handed out grouped ---- */

/*
 * A grouped scan's order: up to TM_VG_TERMS terms of TM_VG_ORDER_BITS, the
 * first in the lowest bits, each a column and TM_VG_DESC; 0 ends it.
 */
enum {
	TM_VG_MACHINE	= 1,
	TM_VG_CPU	= 2,
	TM_VG_SYSTEM	= 3,
	TM_VG_NAME	= 4,
	TM_VG_COLUMN	= 7,		/* a term's column */
	TM_VG_DESC	= 8,
	TM_VG_ORDER_BITS = 4,
	TM_VG_TERMS	= 7,		/* 28 bits: idxNum stays positive */
};

/* The records of one (machine, cpu, event type); system and name the caller's. */
struct tm_vgroup_row {
	int		machine, cpu, type;
	const char	*system, *name;		/* NULL: an unknown type */
	uint64_t	count;
};

struct tm_vgroup {
	struct tm_vgroup_row	*rows, *last;
	size_t			n, cap;
	struct sql_map		index;		/* (machine, cpu, type) -> row */
	size_t			at;		/* handing out rows[at] ... */
	uint64_t		left;		/* ... this many times more */
};

/*
 * Count one record: its row, *created when new (the caller sets its names),
 * or NULL + message.
 */
TM_HIDDEN struct tm_vgroup_row *tm_vgroup_count(struct tm_vgroup *g, int machine, int cpu,
						int type, bool *created);
/* Counting done: sort the rows in that order (TM_VG_*); false when there are none. */
TM_HIDDEN bool tm_vgroup_start(struct tm_vgroup *g, unsigned int order);
/* The next row handed out (a row counted n times comes n times); false at the end. */
TM_HIDDEN bool tm_vgroup_next(struct tm_vgroup *g);
TM_HIDDEN const struct tm_vgroup_row *tm_vgroup_row(const struct tm_vgroup *g);
TM_HIDDEN void tm_vgroup_free(struct tm_vgroup *g);
/*
 * xBestIndex's question: the order (TM_VG_*) of the plan's ORDER BY, whether
 * SQLite asks for it to group or to sort, the table's columns mapped by
 * col[] (ncol of them, 0: a column of many values); 0 when the query needs
 * the plain scan (no order, or it reads a column of many values).
 */
TM_HIDDEN unsigned int tm_vgroup_plan(sqlite3_index_info *info, const unsigned int *col,
				      int ncol);
/* Does sql name a rowid? The grouped scan's rowids are not the scan's. */
TM_HIDDEN bool tm_vgroup_rowid_named(const char *sql);

/* ---- sql-query.c ---- */

/*
 * SQLite's message as "query:LINE:COL: message", for the byte at off of the
 * statement stmt of sql (the statement's start when off < 0): -1.
 */
TM_HIDDEN int tm_sql_query_fail(struct tm_sql *s, const char *sql, const char *stmt, int off);

/* ---- sql-schema.c: a table per event type ---- */

/* How one field of an event goes into its column. */
enum sql_kind {
	SQL_K_NUM,	/* integer: signed, or unsigned kept as its 64-bit pattern */
	SQL_K_STR,	/* char array or __data_loc char[]: text */
	SQL_K_ARRAY,	/* other arrays: a JSON array of numbers */
};

struct sql_field {
	const struct tep_format_field	*f;
	enum sql_kind			kind;
	int				col;	/* bind index */
};

/* One event type of one machine: where its records go. */
struct sql_event {
	const struct tep_event	*ev;
	int			tab;		/* index in tm_sql.tabs, -1: none */
	sqlite3_stmt		*ins;		/* NULL: its table is not wanted */
	struct sql_field	*fields;
	int			nfields;
	struct tm_jsonfmt	*json;		/* the generic table's fields */
	unsigned int		role;		/* enum sql_role */
};

/* The event types the derived tables read. */
enum sql_role {
	SQL_R_NONE,
	SQL_R_SWITCH,
	SQL_R_WAKING,
	SQL_R_WAKEUP,
	SQL_R_WAKEUP_NEW,
	SQL_R_SYS_ENTER,	/* raw_syscalls:sys_enter */
	SQL_R_SYS_EXIT,
	SQL_R_SYSCALL_ENTER,	/* syscalls:sys_enter_NAME */
	SQL_R_SYSCALL_EXIT,
	SQL_R_IRQ_ENTRY,
	SQL_R_IRQ_EXIT,
	SQL_R_SOFTIRQ_ENTRY,
	SQL_R_SOFTIRQ_EXIT,
	SQL_R_FORK,
	SQL_R_NEWTASK,
	SQL_R_EXEC,
	SQL_R_RENAME,
	SQL_R_FREE,
};

/*
 * The tables of tep's event types into s (new names added, known ones
 * matched by name): called once per machine before anything is loaded.
 */
TM_HIDDEN int tm_sql_schema_add(struct tm_sql *s, struct tep_handle *tep);
/* Create every table of s (event types, derived, generic). */
TM_HIDDEN int tm_sql_schema_create(struct tm_sql *s);
/*
 * The CREATE TABLE of the derived or generic table name, under the name as,
 * into b (emptied first); -1 + message.
 */
TM_HIDDEN int tm_sql_table_sql(const struct tm_sql *s, const char *name, const char *as,
			       struct sql_buf *b);
/* The enum sql_derived bit of a derived table's name, 0 for any other. */
TM_HIDDEN unsigned int tm_sql_table_bit(const char *name);
TM_HIDDEN void tm_sql_event_free(struct sql_event *e);
/* The plans of tep's events for a load, by event id; NULL + message. */
TM_HIDDEN struct sql_event **tm_sql_events_plan(struct tm_sql *s, struct tep_handle *tep,
					       int *nids);
TM_HIDDEN void tm_sql_events_free(struct sql_event **evs, int nids);
/* A record of plan e into its table. */
TM_HIDDEN int tm_sql_event_row(struct tm_sql *s, const struct sql_event *e, bool swap,
			       const struct tm_event_rec *rec, int64_t tid, int machine,
			       const char *buffer);
/* The numeric field name of ev in a record (0 when missing or outside it). */
TM_HIDDEN int64_t tm_sql_num(const struct tep_event *ev, const char *name, bool swap,
			     const struct tm_event_rec *rec);
/* The text field name of ev into buf (len bytes, NUL-terminated); "" when missing. */
TM_HIDDEN const char *tm_sql_str(const struct tep_event *ev, const char *name,
				 const struct tm_event_rec *rec, char *buf, size_t len);

/* ---- sql-tasks.c: thread and process ---- */

struct sql_tasks;

TM_HIDDEN struct sql_tasks *tm_sql_tasks_new(void);
TM_HIDDEN void tm_sql_tasks_free(struct sql_tasks *t);
/* The utid of tid on machine (a thread row made when first seen at ts); -1 ENOMEM. */
TM_HIDDEN int64_t tm_sql_utid(struct tm_sql *s, int machine, int64_t tid, uint64_t ts);
/* Name a thread (the newest name wins). */
TM_HIDDEN int tm_sql_thread_name(struct tm_sql *s, int machine, int64_t tid, const char *name,
				 uint64_t ts);
/* A new thread tid made by parent at ts: thread of parent's process, or a process of its own. */
TM_HIDDEN int tm_sql_thread_new(struct tm_sql *s, int machine, int64_t parent, int64_t tid,
				const char *name, bool thread, uint64_t ts);
/* Does tid's newest thread have a start (a fork or task_newtask) and no end? */
TM_HIDDEN bool tm_sql_thread_started(struct tm_sql *s, int machine, int64_t tid);
/* The thread ended at ts. */
TM_HIDDEN void tm_sql_thread_end(struct tm_sql *s, int machine, int64_t tid, uint64_t ts);
/* The names the trace has no event for, from tep (saved cmdlines). */
TM_HIDDEN void tm_sql_tasks_cmdlines(struct tm_sql *s, int machine, struct tep_handle *tep);
/* Write thread and process. */
TM_HIDDEN int tm_sql_tasks_write(struct tm_sql *s);

/* ---- sql-load.c: one machine's records ---- */

/* Where the derived tables' buffer lost events: a row that spans a loss is marked. */
struct sql_loss {
	uint64_t	*end;		/* [cpu]: the end of its latest loss, 0: none */
	int		cpus;
	uint64_t	any;		/* the end of the machine's latest loss */
};

/* Did a loss on cpu (-1: on any CPU) end after start? */
static inline bool tm_sql_spans_loss(const struct sql_loss *l, int cpu, uint64_t start)
{
	if (cpu >= 0 && cpu < l->cpus && l->end[cpu] > start)
		return true;
	return l->any > start;
}

/* ---- sql-sched.c: sched_slice, thread_state, wakeup_latency ---- */

struct sql_sched;

TM_HIDDEN struct sql_sched *tm_sql_sched_new(struct tm_sql *s, const struct sql_loss *l,
					     int machine, int cpus);
TM_HIDDEN void tm_sql_sched_free(struct sql_sched *sc);
TM_HIDDEN int tm_sql_sched_event(struct sql_sched *sc, const struct sql_event *e, bool swap,
				 const struct tm_event_rec *rec, int64_t tid);
/* A loss on cpu between start (0: unknown) and rec's time. */
TM_HIDDEN int tm_sql_sched_lost(struct sql_sched *sc, int cpu, uint64_t start);
/* The rows still open at the end of the trace (ts: its last record). */
TM_HIDDEN int tm_sql_sched_end(struct sql_sched *sc, uint64_t ts);

/* ---- sql-spans.c: syscalls, irq, softirq ---- */

struct sql_spans;

TM_HIDDEN struct sql_spans *tm_sql_spans_new(struct tm_sql *s, const struct sql_loss *l,
					     int machine, int cpus, const char *uname);
TM_HIDDEN void tm_sql_spans_free(struct sql_spans *sp);
TM_HIDDEN int tm_sql_spans_event(struct sql_spans *sp, const struct sql_event *e, bool swap,
				 const struct tm_event_rec *rec, int64_t tid);
/* A loss on cpu: its open irq and softirq are written cut (dur NULL, lost 1). */
TM_HIDDEN int tm_sql_spans_lost(struct sql_spans *sp, int cpu);

#endif /* TM_SQL_INTERNAL_H */
