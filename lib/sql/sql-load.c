// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-load.c - trace.dat files into the database: the schema of every
 * machine's formats, the tables the queries read (SQLite's authorizer sees
 * them while each statement is prepared against the empty schema), then
 * one machine after the other through tm_evout_run_dats() into an output
 * that inserts each record into its event's table and the generic table
 * and feeds the derived tables; all in one transaction.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat/dat-internal.h"
#include "dat/tm-dat.h"
#include "emit/tm-evout.h"
#include "events/field.h"
#include "print/print-internal.h"
#include "sql-internal.h"
#include "tm-sql.h"

#define SQL_MAX_FILES	4096

struct sql_load {
	struct tm_evout		base;
	struct tm_sql		*s;
	struct tep_handle	*tep;
	struct tm_common	common;
	int			machine;
	struct sql_event	**evs;
	int			nids;
	const char		**bufname;
	int			nbuffers, slots;
	uint64_t		*last_ts;	/* [buffer * slots + cpu]: 0 none yet */
	struct sql_loss		loss;
	uint64_t		last;		/* the derived buffer's latest record's time */
	int			dbuf;		/* the buffer the derived tables read */
	sqlite3_stmt		*ins_events, *ins_lost;
	struct tm_buf		json;
	struct sql_sched	*sched;
	struct sql_spans	*spans;
	const char		*uname;
};

static struct sql_load *to_load(struct tm_evout *out)
{
	return (struct sql_load *)out;
}

static int load_begin(struct tm_evout *out, const struct tm_evout_info *info)
{
	struct sql_load *l = to_load(out);
	struct tm_sql *s = l->s;
	int i;

	l->nbuffers = info->nbuffers > 0 ? info->nbuffers : 1;
	l->slots = info->cpu_slots > 0 ? info->cpu_slots : 1;
	l->bufname = calloc((size_t)l->nbuffers, sizeof(*l->bufname));
	l->last_ts = calloc((size_t)(l->nbuffers * l->slots), sizeof(*l->last_ts));
	l->loss.end = calloc((size_t)l->slots, sizeof(*l->loss.end));
	l->loss.cpus = l->slots;
	if (!l->bufname || !l->last_ts || !l->loss.end)
		return tm_fail(ENOMEM, "sql load");
	for (i = 0; i < info->nbuffers; i++)
		l->bufname[i] = info->buffers[i].name ?: "";
	if (!info->nbuffers)
		l->bufname[0] = "";
	l->uname = info->uname;
	tm_common_init(&l->common, l->tep);
	l->evs = tm_sql_events_plan(s, l->tep, &l->nids);
	if (!l->evs)
		return -1;
	if (s->derived & SQL_D_EVENTS &&
	    !(l->ins_events = tm_sql_insert(s, "events", 6 + s->buffers)))
		return -1;
	if (!(l->ins_lost = tm_sql_insert(s, "lost_events", 4 + s->buffers)))
		return -1;
	if (s->derived & (SQL_D_SLICE | SQL_D_STATE | SQL_D_WAKEUP) &&
	    !(l->sched = tm_sql_sched_new(s, &l->loss, l->machine, l->slots)))
		return -1;
	if (s->derived & (SQL_D_SYSCALL | SQL_D_IRQ) &&
	    !(l->spans = tm_sql_spans_new(s, &l->loss, l->machine, l->slots, info->uname)))
		return -1;
	return 0;
}

/* The machine and buffer columns from bind index c, where the tables have them; the insert. */
static int step_row(struct sql_load *l, sqlite3_stmt *st, int c, int buffer)
{
	int rc;

	if (l->s->multi)
		sqlite3_bind_int64(st, c++, l->machine);
	if (l->s->buffers)
		sqlite3_bind_text(st, c, l->bufname[buffer], -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : tm_sql_fail(l->s, "insert");
}

static int lost_row(struct sql_load *l, const struct tm_event_rec *rec)
{
	uint64_t *last = &l->last_ts[rec->buffer * l->slots + rec->cpu];
	sqlite3_stmt *st = l->ins_lost;
	int c = 1;

	sqlite3_bind_int64(st, c++, rec->cpu);
	if (*last)
		sqlite3_bind_int64(st, c++, (int64_t)*last);
	else
		sqlite3_bind_null(st, c++);
	sqlite3_bind_int64(st, c++, (int64_t)rec->ts);
	if (rec->missed > 0)
		sqlite3_bind_int64(st, c++, rec->missed);
	else
		sqlite3_bind_null(st, c++);
	if (step_row(l, st, c, rec->buffer))
		return -1;
	if (rec->buffer != l->dbuf)
		return 0;
	l->loss.end[rec->cpu] = rec->ts;
	l->loss.any = rec->ts;
	if (l->spans && tm_sql_spans_lost(l->spans, rec->cpu))
		return -1;
	return l->sched ? tm_sql_sched_lost(l->sched, rec->cpu, *last) : 0;
}

static int generic_row(struct sql_load *l, const struct sql_event *e,
		       const struct tm_event_rec *rec, int64_t tid)
{
	sqlite3_stmt *st = l->ins_events;
	int c = 1;

	l->json.len = 0;
	if (e && l->s->events_fields &&
	    tm_jsonfmt_put_fields(e->json, &l->json, rec->data, rec->size))
		return tm_fail(ENOMEM, "sql events");
	sqlite3_bind_int64(st, c++, (int64_t)rec->ts);
	sqlite3_bind_int64(st, c++, rec->cpu);
	sqlite3_bind_int64(st, c++, tid);
	sqlite3_bind_text(st, c++, e ? e->ev->system : NULL, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, c++, e ? e->ev->name : NULL, -1, SQLITE_STATIC);
	if (e && l->s->events_fields)
		sqlite3_bind_text(st, c++, l->json.text, (int)l->json.len, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, c++);
	return step_row(l, st, c, rec->buffer);
}

/* What the thread and process tables learn from a record of e. */
static int task_event(struct sql_load *l, const struct sql_event *e,
		      const struct tm_event_rec *rec, int64_t tid)
{
	bool swap = l->common.swap;
	const struct tep_event *ev = e->ev;
	char name[64], *base;
	int m = l->machine;

	switch (e->role) {
	case SQL_R_SWITCH:
		if (tm_sql_thread_name(l->s, m, tm_sql_num(ev, "prev_pid", swap, rec),
				       tm_sql_str(ev, "prev_comm", rec, name, sizeof(name)), rec->ts))
			return -1;
		return tm_sql_thread_name(l->s, m, tm_sql_num(ev, "next_pid", swap, rec),
					  tm_sql_str(ev, "next_comm", rec, name, sizeof(name)), rec->ts);
	case SQL_R_WAKING:
	case SQL_R_WAKEUP:
	case SQL_R_WAKEUP_NEW:
		return tm_sql_thread_name(l->s, m, tm_sql_num(ev, "pid", swap, rec),
					  tm_sql_str(ev, "comm", rec, name, sizeof(name)), rec->ts);
	case SQL_R_FORK:
		/* task_newtask, when recorded, tells thread from process: it comes first */
		if (tm_sql_thread_started(l->s, m, tm_sql_num(ev, "child_pid", swap, rec)))
			return 0;
		return tm_sql_thread_new(l->s, m, tm_sql_num(ev, "parent_pid", swap, rec),
					 tm_sql_num(ev, "child_pid", swap, rec),
					 tm_sql_str(ev, "child_comm", rec, name, sizeof(name)), false,
					 rec->ts);
	case SQL_R_NEWTASK:
		return tm_sql_thread_new(l->s, m, tid, tm_sql_num(ev, "pid", swap, rec),
					 tm_sql_str(ev, "comm", rec, name, sizeof(name)),
					 tm_sql_num(ev, "clone_flags", swap, rec) & 0x00010000,
					 rec->ts);
	case SQL_R_EXEC:
		tm_sql_str(ev, "filename", rec, name, sizeof(name));
		base = strrchr(name, '/');
		return tm_sql_thread_name(l->s, m, tid, base ? base + 1 : name, rec->ts);
	case SQL_R_RENAME:
		return tm_sql_thread_name(l->s, m, tm_sql_num(ev, "pid", swap, rec),
					  tm_sql_str(ev, "newcomm", rec, name, sizeof(name)), rec->ts);
	case SQL_R_FREE:
		tm_sql_thread_end(l->s, m, tm_sql_num(ev, "pid", swap, rec), rec->ts);
		return 0;
	default:
		return 0;
	}
}

static int load_event(struct tm_evout *out, const struct tm_event_rec *rec)
{
	struct sql_load *l = to_load(out);
	struct tm_sql *s = l->s;
	int type = tm_common_type(l->tep, &l->common, rec->data, rec->size);
	int64_t tid = tm_common_pid(l->tep, &l->common, rec->data, rec->size);
	const struct sql_event *e = type >= 0 && type < l->nids ? l->evs[type] : NULL;

	if (rec->missed && lost_row(l, rec))
		return -1;
	l->last_ts[rec->buffer * l->slots + rec->cpu] = rec->ts;
	if (rec->buffer == l->dbuf)
		l->last = rec->ts;
	if (tm_sql_utid(s, l->machine, tid, rec->ts) < 0)
		return -1;
	if (e && e->ins &&
	    tm_sql_event_row(s, e, l->common.swap, rec, tid, l->machine, l->bufname[rec->buffer]))
		return -1;
	if (l->ins_events && generic_row(l, e, rec, tid))
		return -1;
	if (!e || !e->role || rec->buffer != l->dbuf)
		return 0;
	if (task_event(l, e, rec, tid))
		return -1;
	if (l->sched && tm_sql_sched_event(l->sched, e, l->common.swap, rec, tid))
		return -1;
	return l->spans ? tm_sql_spans_event(l->spans, e, l->common.swap, rec, tid) : 0;
}

static int load_lost(struct tm_evout *out, int buf, int cpu, int64_t missed)
{
	(void)out, (void)buf, (void)cpu, (void)missed;
	return 0;	/* a live source's; a file's losses come with its records */
}

static int load_end(struct tm_evout *out)
{
	struct sql_load *l = to_load(out);

	tm_sql_tasks_cmdlines(l->s, l->machine, l->tep);
	return l->sched ? tm_sql_sched_end(l->sched, l->last) : 0;
}

static void load_free(struct tm_evout *out)
{
	struct sql_load *l = to_load(out);

	tm_sql_sched_free(l->sched);
	tm_sql_spans_free(l->spans);
	tm_sql_events_free(l->evs, l->nids);
	sqlite3_finalize(l->ins_events);
	sqlite3_finalize(l->ins_lost);
	tm_buf_free(&l->json);
	free(l->bufname);
	free(l->last_ts);
	free(l->loss.end);
	free(l);
}

static const struct tm_evout_ops load_ops = {
	.begin = load_begin,
	.event = load_event,
	.lost = load_lost,
	.end = load_end,
	.free = load_free,
};

/* ---- what the queries read ---- */

/* A query reads table name: it is filled. */
static void want_table(struct tm_sql *s, const char *name)
{
	int i;

	if (strcmp(name, "events"))
		s->load_needed = true;
	s->derived |= tm_sql_table_bit(name);
	for (i = 0; i < s->ntabs; i++)
		if (!strcmp(s->tabs[i].name, name))
			s->tabs[i].wanted = true;
}

static int note_read(void *ctx, int action, const char *a, const char *b, const char *db,
		     const char *view)
{
	struct tm_sql *s = ctx;

	(void)db, (void)view;
	/* a write, an index, a trigger or a pragma on events: a plain table */
	if (action != SQLITE_READ && ((a && !strcmp(a, "events")) || (b && !strcmp(b, "events"))))
		s->events_plain = true;
	if (action != SQLITE_READ || !a)
		return SQLITE_OK;
	want_table(s, a);
	if (!strcmp(a, "events") && b && !strcmp(b, "fields"))
		s->events_fields = true;
	return SQLITE_OK;
}

/*
 * The tables a statement (len bytes of text) opens, from its program: the
 * authorizer is not told of a table whose only columns read are a join's
 * USING columns (SELECT count(*) FROM a JOIN b USING(x)).
 */
static int note_opened(struct tm_sql *s, const char *text, int len)
{
	char *sql = sqlite3_mprintf("EXPLAIN %.*s", len, text);
	sqlite3_stmt *st = NULL, *name = NULL;
	const char *op;

	if (!sql)
		return tm_fail(ENOMEM, "sql");
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, "SELECT tbl_name FROM sqlite_schema WHERE rootpage = ?", -1,
			       &name, NULL) != SQLITE_OK) {
		sqlite3_free(sql);
		sqlite3_finalize(st);
		return 0;	/* the authorizer's tables it is */
	}
	sqlite3_free(sql);
	while (sqlite3_step(st) == SQLITE_ROW) {
		op = (const char *)sqlite3_column_text(st, 1) ?: "";
		/* p3 0: the main database, p2 the root page */
		if ((strcmp(op, "OpenRead") && strcmp(op, "OpenWrite")) || sqlite3_column_int(st, 4))
			continue;
		sqlite3_bind_int(name, 1, sqlite3_column_int(st, 3));
		if (sqlite3_step(name) == SQLITE_ROW && sqlite3_column_text(name, 0))
			want_table(s, (const char *)sqlite3_column_text(name, 0));
		sqlite3_reset(name);
	}
	sqlite3_finalize(st);
	sqlite3_finalize(name);
	return 0;
}

static void want_all(struct tm_sql *s)
{
	int i;

	s->derived = ~0u;
	s->events_fields = true;
	s->events_plain = true;
	s->load_needed = true;
	for (i = 0; i < s->ntabs; i++)
		s->tabs[i].wanted = true;
}

/*
 * A query that only reads events, each statement in one pass, reads it as
 * a virtual table over the files (sql-vevents.c) instead of the load
 * inserting every record: the table is swapped, each statement's plan
 * checked, and swapped back when one reads it otherwise.
 */
static int want_virtual(struct tm_sql *s, const char *const *queries)
{
	int i, r = 1;

	if (!s->vev || !(s->derived & SQL_D_EVENTS) || s->events_plain)
		return 0;
	if (tm_sql_vevents_swap(s, true))
		return -1;
	for (i = 0; queries[i] && r > 0; i++)
		r = tm_sql_vevents_once(s, queries[i]);
	if (r < 0)
		return -1;
	if (r > 0) {
		s->derived &= ~SQL_D_EVENTS;
		s->events_virtual = true;
		return 0;
	}
	return tm_sql_vevents_swap(s, false);
}

/*
 * Prepare each statement of each query against the empty schema: the
 * authorizer notes the tables it reads. A statement that reads a table
 * the schema lacks may read one an earlier statement creates: it asks for
 * every table. Any other error is the query's, reported before the load.
 */
static int want_tables(struct tm_sql *s, const char *const *queries, bool all)
{
	const char *sql, *tail;
	sqlite3_stmt *st;
	int i, r = 0;

	if (!queries) {
		want_all(s);
		return 0;
	}
	s->derived = SQL_D_TASKS | SQL_D_LOST;
	sqlite3_set_authorizer(s->db, note_read, s);
	for (i = 0; queries[i] && !r; i++) {
		for (sql = queries[i]; sql && *sql; sql = tail) {
			st = NULL;
			if (sqlite3_prepare_v2(s->db, sql, -1, &st, &tail) != SQLITE_OK) {
				if (strncmp(sqlite3_errmsg(s->db), "no such table", 13))
					r = tm_sql_query_fail(s, queries[i], sql,
							      sqlite3_error_offset(s->db));
				else
					want_all(s);
				break;
			}
			sqlite3_finalize(st);
			if (!st && tail == sql)
				break;
			if (st) {
				sqlite3_set_authorizer(s->db, NULL, NULL);
				r = note_opened(s, sql, (int)(tail - sql));
				sqlite3_set_authorizer(s->db, note_read, s);
			}
		}
	}
	sqlite3_set_authorizer(s->db, NULL, NULL);
	if (all)
		want_all(s);
	return r ?: want_virtual(s, queries);
}

/* ---- the whole load ---- */

static int machine_files(struct tm_dat *const *dats, int n, const int *machine, int m,
			 struct tm_dat **out)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (machine[i] == m)
			out[k++] = dats[i];
	return k;
}

/* The top-level buffer, or when it holds nothing the first instance that holds data. */
static int derived_buffer(struct tm_dat *dat)
{
	int buf, cpu;

	for (buf = 0; buf < tm_dat_buffer_count(dat); buf++)
		for (cpu = 0; cpu < tm_dat_buffer_cpus(dat, buf); cpu++)
			if (tm_dat_buffer_cpu_size(dat, buf, cpu))
				return buf;
	return 0;
}

static int load_machine(struct tm_sql *s, struct tm_dat *const *dats, int n, int m,
			int machines, struct tep_handle *tep, struct tm_sql_load_opts *o)
{
	struct sql_load *l = calloc(1, sizeof(*l));
	uint64_t skipped = 0;
	struct tm_run_opts run = {
		.warn = o->warn, .warn_ctx = o->warn_ctx, .skipped = &skipped,
		.meter = o->meter, .machine = m, .machines = machines,
	};
	int r;

	if (!l)
		return tm_fail(ENOMEM, "sql load");
	l->base.ops = &load_ops;
	l->s = s;
	l->tep = tep;
	l->machine = m;
	l->dbuf = derived_buffer(dats[0]);
	r = tm_evout_run_dats(&l->base, dats, n, l->tep, &run);
	o->skipped += skipped;
	s->ucpu_base += l->slots;
	tm_evout_free(&l->base);
	return r;
}

/* Machine m's decoding: ours, or the virtual events' once it holds them. */
static struct tep_handle *machine_tep(struct tm_sql *s, struct tm_events **ev, int m)
{
	return ev ? tm_events_tep(ev[m]) : tm_sql_vevents_tep(s->vev, m);
}

static bool several_buffers(struct tm_dat *const *dats, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (tm_dat_buffer_count(dats[i]) > 1)
			return true;
	return false;
}

int tm_sql_load(struct tm_sql *s, struct tm_dat *const *dats, int n, const int *machine,
		int machines, struct tm_sql_load_opts *o)
{
	static struct tm_dat *files[SQL_MAX_FILES];
	struct tm_events **ev = calloc((size_t)machines + 1, sizeof(*ev));
	int m, k, r = -1;

	if (!ev || n > SQL_MAX_FILES) {
		free(ev);
		return tm_fail(n > SQL_MAX_FILES ? EINVAL : ENOMEM, "sql load");
	}
	s->tasks = tm_sql_tasks_new();
	if (!s->tasks) {
		free(ev);
		return tm_fail(ENOMEM, "sql load");
	}
	s->multi = machines > 1;
	s->buffers = several_buffers(dats, n);
	for (m = 0; m < machines; m++) {
		k = machine_files(dats, n, machine, m, files);
		ev[m] = tm_events_from_dat(files[0], o->no_plugins, o->warn, o->warn_ctx);
		for (int i = 1; ev[m] && i < k; i++)
			tm_events_add_formats(ev[m], files[i], o->warn, o->warn_ctx);
		if (!ev[m] || tm_sql_schema_add(s, tm_events_tep(ev[m])))
			goto out;
	}
	if (tm_sql_exec(s, "BEGIN") || tm_sql_schema_create(s))
		goto out;
	if (o->queries && !o->fill_all) {
		/* the virtual events' files and decoding, kept until tm_sql_close() */
		s->vev = tm_sql_vevents_new(s, dats, n, machine, machines, ev);
		ev = NULL;
		if (!s->vev)
			goto out;
	}
	if (want_tables(s, o->queries, o->fill_all))
		goto out;
	o->skipped = 0;
	/* utid 0 and upid 0: the first machine's idle task, as in Perfetto */
	if (tm_sql_utid(s, 0, 0, 0) < 0)
		goto out;
	/* only events is read: its scans read the files, the first one warns */
	if (s->events_virtual && !s->load_needed)
		tm_sql_vevents_warn(s->vev, o->warn, o->warn_ctx);
	for (m = 0; m < machines && (s->load_needed || !s->events_virtual); m++) {
		k = machine_files(dats, n, machine, m, files);
		if (load_machine(s, files, k, m, machines, machine_tep(s, ev, m), o))
			goto out;
	}
	r = tm_sql_tasks_write(s);
	if (!r)
		r = tm_sql_exec(s, "COMMIT");
out:
	tm_sql_tasks_free(s->tasks);
	s->tasks = NULL;
	for (m = 0; ev && m < machines; m++)
		tm_events_free(ev[m]);
	free(ev);
	return r;
}
