// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-schema.c - the tables: one per event type of the files' formats
 * (named after the event; "system_event" where two systems share a name or
 * the name is a derived table's), with ts, cpu, tid, the machine and buffer
 * where there are several, and the format's fields as columns (integers,
 * text, JSON arrays); the derived tables' and the generic table's
 * definitions; and the insert plan of each event type of a load.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/print-internal.h"
#include "sql-internal.h"

/* The derived and generic tables: name, columns, the bit of what fills them. */
static const struct {
	const char	*name;
	const char	*cols;
	unsigned int	bit;
} derived[] = {
	{ "sched_slice", "id INTEGER, ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER, "
	  "end_state TEXT, priority INTEGER, ucpu INTEGER, lost INTEGER", SQL_D_SLICE },
	{ "thread_state", "id INTEGER, ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER, "
	  "state TEXT, io_wait INTEGER, blocked_function TEXT, waker_utid INTEGER, "
	  "waker_id INTEGER, irq_context INTEGER, ucpu INTEGER, lost INTEGER", SQL_D_STATE },
	{ "thread", "utid INTEGER, tid INTEGER, name TEXT, start_ts INTEGER, end_ts INTEGER, "
	  "upid INTEGER, is_main_thread INTEGER, is_idle INTEGER, machine_id INTEGER",
	  SQL_D_TASKS },
	{ "process", "upid INTEGER, pid INTEGER, name TEXT, start_ts INTEGER, end_ts INTEGER, "
	  "parent_upid INTEGER, uid INTEGER, cmdline TEXT, machine_id INTEGER", SQL_D_TASKS },
	{ "wakeup_latency", "ts INTEGER, latency INTEGER, tid INTEGER, waker_tid INTEGER, "
	  "waker_cpu INTEGER, cpu INTEGER, target_cpu INTEGER, utid INTEGER, reason TEXT, "
	  "lost INTEGER",
	  SQL_D_WAKEUP },
	{ "syscalls", "ts INTEGER, dur INTEGER, tid INTEGER, id INTEGER, name TEXT, ret INTEGER, "
	  "cpu INTEGER, utid INTEGER, lost INTEGER", SQL_D_SYSCALL },
	{ "irq", "ts INTEGER, dur INTEGER, cpu INTEGER, irq INTEGER, name TEXT, ret INTEGER, "
	  "lost INTEGER", SQL_D_IRQ },
	{ "softirq", "ts INTEGER, dur INTEGER, cpu INTEGER, vec INTEGER, name TEXT, lost INTEGER",
	  SQL_D_IRQ },
	{ "lost_events", "cpu INTEGER, ts_start INTEGER, ts INTEGER, count INTEGER", SQL_D_LOST },
	{ "events", "ts INTEGER, cpu INTEGER, tid INTEGER, system TEXT, name TEXT, fields TEXT",
	  SQL_D_EVENTS },
	/* Perfetto's other name for sched_slice, with its ts_end */
	{ "sched", NULL, SQL_D_SLICE },
};

#define NDERIVED	(sizeof(derived) / sizeof(derived[0]))

unsigned int tm_sql_table_bit(const char *name)
{
	size_t i;

	for (i = 0; i < NDERIVED; i++)
		if (!strcmp(derived[i].name, name))
			return derived[i].bit;
	return 0;
}

/* The columns a table of an event type always has before its fields. */
static bool fixed_column(const char *name)
{
	return !strcmp(name, "ts") || !strcmp(name, "cpu") || !strcmp(name, "tid") ||
	       !strcmp(name, "machine") || !strcmp(name, "buffer");
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(struct tep_event *const *)a)->name, (*(struct tep_event *const *)b)->name);
}

/* Does another event of tep (sorted by name) have ev's name? */
static bool name_shared(struct tep_event **sorted, int n, int i)
{
	return (i > 0 && !strcmp(sorted[i - 1]->name, sorted[i]->name)) ||
	       (i + 1 < n && !strcmp(sorted[i + 1]->name, sorted[i]->name));
}

static char *table_name(const struct tep_event *ev, bool shared)
{
	char *name = NULL;

	if (shared || tm_sql_table_bit(ev->name)) {
		if (asprintf(&name, "%s_%s", ev->system, ev->name) < 0)
			return NULL;
		return name;
	}
	return strdup(ev->name);
}

static char *column_name(const struct tep_format_field *f)
{
	char *name = NULL;

	if (fixed_column(f->name)) {
		if (asprintf(&name, "field_%s", f->name) < 0)
			return NULL;
		return name;
	}
	return strdup(f->name);
}

static int find_table(const struct tm_sql *s, const char *name)
{
	int i;

	for (i = 0; i < s->ntabs; i++)
		if (!strcmp(s->tabs[i].name, name))
			return i;
	return -1;
}

static int find_column(const struct sql_evtable *t, const char *name)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return i;
	return -1;
}

/* The SQL type of a field's column. */
static enum sql_kind field_kind(const struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_STRING)
		return SQL_K_STR;
	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC))
		return SQL_K_ARRAY;
	if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)
		return SQL_K_NUM;
	return SQL_K_ARRAY;
}

/* ev's fields into table t: the columns it does not have yet. */
static int add_columns(struct sql_evtable *t, const struct tep_event *ev)
{
	struct tep_format_field *f;
	unsigned char *isnum;
	char **cols;
	char *name;

	for (f = ev->format.fields; f; f = f->next) {
		name = column_name(f);
		if (!name)
			return tm_fail(ENOMEM, "sql schema");
		if (find_column(t, name) >= 0) {
			free(name);
			continue;
		}
		cols = realloc(t->cols, (size_t)(t->ncols + 1) * sizeof(*cols));
		if (!cols) {
			free(name);
			return tm_fail(ENOMEM, "sql schema");
		}
		t->cols = cols;
		isnum = realloc(t->isnum, (size_t)(t->ncols + 1));
		if (!isnum) {
			free(name);
			return tm_fail(ENOMEM, "sql schema");
		}
		t->isnum = isnum;
		t->isnum[t->ncols] = field_kind(f) == SQL_K_NUM;
		t->cols[t->ncols++] = name;
	}
	return 0;
}

static int add_table(struct tm_sql *s, const struct tep_event *ev, char *name)
{
	struct sql_evtable *tabs;
	int i = find_table(s, name);

	if (i < 0) {
		tabs = realloc(s->tabs, (size_t)(s->ntabs + 1) * sizeof(*tabs));
		if (!tabs) {
			free(name);
			return tm_fail(ENOMEM, "sql schema");
		}
		s->tabs = tabs;
		i = s->ntabs++;
		s->tabs[i] = (struct sql_evtable){ .name = name };
	} else {
		free(name);
	}
	return add_columns(&s->tabs[i], ev);
}

/* tep's events sorted by name (a copy the caller frees); NULL + message. */
static struct tep_event **sorted_events(struct tep_handle *tep, int *n)
{
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID), **copy;

	for (*n = 0; all && all[*n]; (*n)++)
		;
	copy = calloc((size_t)*n + 1, sizeof(*copy));
	if (!copy) {
		tm_fail(ENOMEM, "sql schema");
		return NULL;
	}
	if (*n)
		memcpy(copy, all, (size_t)*n * sizeof(*copy));
	qsort(copy, (size_t)*n, sizeof(*copy), by_name);
	return copy;
}

int tm_sql_schema_add(struct tm_sql *s, struct tep_handle *tep)
{
	struct tep_event **evs;
	char *name;
	int i, n;

	evs = sorted_events(tep, &n);
	if (!evs)
		return -1;
	for (i = 0; i < n; i++) {
		name = table_name(evs[i], name_shared(evs, n, i));
		if (!name || add_table(s, evs[i], name)) {
			free(evs);
			return name ? -1 : tm_fail(ENOMEM, "sql schema");
		}
	}
	free(evs);
	return 0;
}

static int create_event_table(struct tm_sql *s, const struct sql_evtable *t, struct sql_buf *b)
{
	int c;

	b->len = 0;
	if (tm_sql_buf_printf(b, "CREATE TABLE \"%s\" (ts INTEGER, cpu INTEGER, tid INTEGER%s%s",
			      t->name, s->multi ? ", machine INTEGER" : "",
			      s->buffers ? ", buffer TEXT" : ""))
		return -1;
	for (c = 0; c < t->ncols; c++)
		if (tm_sql_buf_printf(b, ", \"%s\" %s", t->cols[c], t->isnum[c] ? "INTEGER" : "TEXT"))
			return -1;
	if (tm_sql_buf_printf(b, ")"))
		return -1;
	return tm_sql_exec(s, b->s);
}

/* derived[i]'s CREATE TABLE under the name as into b (emptied first). */
static int derived_sql(const struct tm_sql *s, size_t i, const char *as, struct sql_buf *b)
{
	b->len = 0;
	return tm_sql_buf_printf(b, "CREATE TABLE \"%s\" (%s%s%s)", as, derived[i].cols,
				 s->multi ? ", machine INTEGER" : "",
				 s->buffers && (derived[i].bit & (SQL_D_EVENTS | SQL_D_LOST)) ?
				 ", buffer TEXT" : "");
}

int tm_sql_table_sql(const struct tm_sql *s, const char *name, const char *as, struct sql_buf *b)
{
	size_t i;

	for (i = 0; i < NDERIVED; i++)
		if (derived[i].cols && !strcmp(derived[i].name, name))
			return derived_sql(s, i, as, b);
	return tm_failx(EINVAL, "sql schema: no table %s", name);
}

int tm_sql_schema_create(struct tm_sql *s)
{
	struct sql_buf b = { 0 };
	size_t i;
	int t, r = 0;

	for (t = 0; t < s->ntabs && !r; t++)
		r = create_event_table(s, &s->tabs[t], &b);
	for (i = 0; i < NDERIVED && !r; i++) {
		if (!derived[i].cols)
			continue;
		r = derived_sql(s, i, derived[i].name, &b) ?: tm_sql_exec(s, b.s);
	}
	if (!r)
		r = tm_sql_exec(s, "CREATE VIEW sched AS SELECT *, ts + dur AS ts_end FROM sched_slice");
	free(b.s);
	return r;
}

/* ---- the plan of a load ---- */

static const struct {
	const char	*system, *name;
	enum sql_role	role;
} roles[] = {
	{ "sched", "sched_switch", SQL_R_SWITCH },
	{ "sched", "sched_waking", SQL_R_WAKING },
	{ "sched", "sched_wakeup", SQL_R_WAKEUP },
	{ "sched", "sched_wakeup_new", SQL_R_WAKEUP_NEW },
	{ "sched", "sched_process_fork", SQL_R_FORK },
	{ "sched", "sched_process_exec", SQL_R_EXEC },
	{ "sched", "sched_process_free", SQL_R_FREE },
	{ "task", "task_newtask", SQL_R_NEWTASK },
	{ "task", "task_rename", SQL_R_RENAME },
	{ "raw_syscalls", "sys_enter", SQL_R_SYS_ENTER },
	{ "raw_syscalls", "sys_exit", SQL_R_SYS_EXIT },
	{ "irq", "irq_handler_entry", SQL_R_IRQ_ENTRY },
	{ "irq", "irq_handler_exit", SQL_R_IRQ_EXIT },
	{ "irq", "softirq_entry", SQL_R_SOFTIRQ_ENTRY },
	{ "irq", "softirq_exit", SQL_R_SOFTIRQ_EXIT },
};

static enum sql_role role_of(const struct tep_event *ev)
{
	size_t i;

	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if (!strcmp(ev->system, roles[i].system) && !strcmp(ev->name, roles[i].name))
			return roles[i].role;
	if (!strcmp(ev->system, "syscalls") && !strncmp(ev->name, "sys_enter_", 10))
		return SQL_R_SYSCALL_ENTER;
	if (!strcmp(ev->system, "syscalls") && !strncmp(ev->name, "sys_exit_", 9))
		return SQL_R_SYSCALL_EXIT;
	return SQL_R_NONE;
}

/* The INSERT of e's fields into its table. */
static int plan_insert(struct tm_sql *s, struct sql_event *e, struct sql_buf *b)
{
	const struct sql_evtable *t = &s->tabs[e->tab];
	int i, n = 3 + s->multi + s->buffers;

	b->len = 0;
	if (tm_sql_buf_printf(b, "INSERT INTO \"%s\" (ts, cpu, tid%s%s", t->name,
			      s->multi ? ", machine" : "", s->buffers ? ", buffer" : ""))
		return -1;
	for (i = 0; i < e->nfields; i++) {
		char *name = column_name(e->fields[i].f);

		if (!name || tm_sql_buf_printf(b, ", \"%s\"", name)) {
			free(name);
			return tm_fail(ENOMEM, "sql plan");
		}
		free(name);
		e->fields[i].col = ++n;
	}
	if (tm_sql_buf_printf(b, ") VALUES (?"))
		return -1;
	for (i = 1; i < n; i++)
		if (tm_sql_buf_printf(b, ",?"))
			return -1;
	if (tm_sql_buf_printf(b, ")"))
		return -1;
	e->ins = tm_sql_prepare(s, b->s);
	return e->ins ? 0 : -1;
}

static struct sql_event *plan_event(struct tm_sql *s, struct tep_handle *tep,
				    struct tep_event **sorted, int n, int i, struct sql_buf *b)
{
	const struct tep_event *ev = sorted[i];
	struct sql_event *e = calloc(1, sizeof(*e));
	struct tep_format_field *f;
	char *name = table_name(ev, name_shared(sorted, n, i));

	if (!e || !name)
		goto nomem;
	e->ev = ev;
	e->role = role_of(ev);
	e->tab = find_table(s, name);
	free(name);
	name = NULL;
	for (f = ev->format.fields; f; f = f->next)
		e->nfields++;
	e->fields = calloc((size_t)e->nfields + 1, sizeof(*e->fields));
	if (!e->fields)
		goto nomem;
	e->nfields = 0;
	for (f = ev->format.fields; f; f = f->next)
		e->fields[e->nfields++] = (struct sql_field){ .f = f, .kind = field_kind(f) };
	if (s->derived & SQL_D_EVENTS && s->events_fields) {
		e->json = tm_jsonfmt_new(tep, ev);
		if (!e->json)
			goto nomem;
	}
	if (e->tab >= 0 && s->tabs[e->tab].wanted && plan_insert(s, e, b)) {
		tm_sql_event_free(e);
		return NULL;
	}
	return e;
nomem:
	free(name);
	tm_sql_event_free(e);
	tm_fail(ENOMEM, "sql plan");
	return NULL;
}

void tm_sql_event_free(struct sql_event *e)
{
	if (!e)
		return;
	sqlite3_finalize(e->ins);
	tm_jsonfmt_free(e->json);
	free(e->fields);
	free(e);
}

void tm_sql_events_free(struct sql_event **evs, int nids)
{
	int i;

	for (i = 0; evs && i < nids; i++)
		tm_sql_event_free(evs[i]);
	free(evs);
}

struct sql_event **tm_sql_events_plan(struct tm_sql *s, struct tep_handle *tep, int *nids)
{
	struct tep_event **sorted;
	struct sql_event **evs = NULL;
	struct sql_buf b = { 0 };
	int i, n, max = 0;

	sorted = sorted_events(tep, &n);
	if (!sorted)
		return NULL;
	for (i = 0; i < n; i++)
		if (sorted[i]->id > max)
			max = sorted[i]->id;
	*nids = max + 1;
	evs = calloc((size_t)*nids, sizeof(*evs));
	if (!evs) {
		tm_fail(ENOMEM, "sql plan");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (sorted[i]->id < 0)
			continue;
		evs[sorted[i]->id] = plan_event(s, tep, sorted, n, i, &b);
		if (!evs[sorted[i]->id]) {
			tm_sql_events_free(evs, *nids);
			evs = NULL;
			break;
		}
	}
out:
	free(b.s);
	free(sorted);
	return evs;
}
