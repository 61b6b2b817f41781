// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-tasks.c - Perfetto's thread and process tables: a utid for each
 * thread of each machine (0: the first machine's idle task), a new one when
 * a fork reuses a tid; names from the events (the newest wins), else the
 * saved cmdlines. trace.dat keeps no tgids: a thread is its own process
 * unless task_newtask says it was cloned with CLONE_THREAD, as in convert's
 * Perfetto output; upid 0 is the first machine's idle process.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sql-internal.h"

#define CLONE_THREAD_FLAG	0x00010000
#define TASK_NAME_MAX		64

struct sql_thread {
	int64_t		tid, tgid;
	int		machine;
	char		name[TASK_NAME_MAX];
	int64_t		start_ts, end_ts;	/* SQL_NULL: unknown */
	int64_t		parent;			/* the utid of the forking thread, -1: unknown */
};

struct sql_tasks {
	struct sql_thread	*t;
	size_t			n, cap;
	struct sql_map		by_tid;		/* machine << 32 | tid -> newest utid */
};

static int64_t task_key(int machine, int64_t tid)
{
	return ((int64_t)machine << 32) | (tid & 0xffffffff);
}

struct sql_tasks *tm_sql_tasks_new(void)
{
	return calloc(1, sizeof(struct sql_tasks));
}

void tm_sql_tasks_free(struct sql_tasks *t)
{
	if (!t)
		return;
	tm_sql_map_free(&t->by_tid);
	free(t->t);
	free(t);
}

static int64_t thread_add(struct sql_tasks *t, int machine, int64_t tid)
{
	struct sql_thread *n;

	if (t->n == t->cap) {
		n = realloc(t->t, (t->cap ? t->cap * 2 : 1024) * sizeof(*n));
		if (!n)
			return tm_fail(ENOMEM, "sql threads");
		t->t = n;
		t->cap = t->cap ? t->cap * 2 : 1024;
	}
	t->t[t->n] = (struct sql_thread){ .tid = tid, .tgid = tid, .machine = machine,
					  .start_ts = SQL_NULL, .end_ts = SQL_NULL, .parent = -1 };
	if (tm_sql_map_put(&t->by_tid, task_key(machine, tid), (uint32_t)t->n))
		return -1;
	return (int64_t)t->n++;
}

int64_t tm_sql_utid(struct tm_sql *s, int machine, int64_t tid, uint64_t ts)
{
	uint32_t u;

	(void)ts;
	if (tm_sql_map_get(&s->tasks->by_tid, task_key(machine, tid), &u))
		return u;
	return thread_add(s->tasks, machine, tid);
}

bool tm_sql_thread_started(struct tm_sql *s, int machine, int64_t tid)
{
	uint32_t u;

	return tm_sql_map_get(&s->tasks->by_tid, task_key(machine, tid), &u) &&
	       s->tasks->t[u].start_ts != SQL_NULL && s->tasks->t[u].end_ts == SQL_NULL;
}

int tm_sql_thread_name(struct tm_sql *s, int machine, int64_t tid, const char *name, uint64_t ts)
{
	int64_t u = tm_sql_utid(s, machine, tid, ts);

	char *have;
	size_t n;

	if (u < 0)
		return -1;
	have = s->tasks->t[u].name;
	if (!name || !name[0] || !strncmp(have, name, TASK_NAME_MAX - 1))
		return 0;
	n = strnlen(name, TASK_NAME_MAX - 1);
	memcpy(have, name, n);
	have[n] = '\0';
	return 0;
}

int tm_sql_thread_new(struct tm_sql *s, int machine, int64_t parent, int64_t tid,
		      const char *name, bool thread, uint64_t ts)
{
	struct sql_tasks *t = s->tasks;
	int64_t pu = tm_sql_utid(s, machine, parent, ts), u;
	uint32_t old;

	if (pu < 0)
		return -1;
	/* a tid seen before this fork belongs to an earlier thread */
	if (tm_sql_map_get(&t->by_tid, task_key(machine, tid), &old) &&
	    (t->t[old].start_ts != SQL_NULL || t->t[old].end_ts != SQL_NULL || old == 0))
		u = thread_add(t, machine, tid);
	else
		u = tm_sql_utid(s, machine, tid, ts);
	if (u < 0)
		return -1;
	t->t[u].start_ts = (int64_t)ts;
	t->t[u].parent = pu;
	if (thread)
		t->t[u].tgid = t->t[pu].tgid;
	if (name && name[0])
		snprintf(t->t[u].name, TASK_NAME_MAX, "%s", name);
	return 0;
}

void tm_sql_thread_end(struct tm_sql *s, int machine, int64_t tid, uint64_t ts)
{
	int64_t u = tm_sql_utid(s, machine, tid, ts);

	if (u >= 0)
		s->tasks->t[u].end_ts = (int64_t)ts;
}

void tm_sql_tasks_cmdlines(struct tm_sql *s, int machine, struct tep_handle *tep)
{
	struct sql_tasks *t = s->tasks;
	const char *comm;
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (t->t[i].machine != machine || t->t[i].name[0])
			continue;
		if (!t->t[i].tid) {
			snprintf(t->t[i].name, TASK_NAME_MAX, "swapper");
			continue;
		}
		comm = tep_data_comm_from_pid(tep, (int)t->t[i].tid);
		if (comm && strcmp(comm, "<...>"))
			snprintf(t->t[i].name, TASK_NAME_MAX, "%s", comm);
	}
}

/* The upid of each thread: one per (machine, tgid), numbered in order of first thread. */
static int processes(struct sql_tasks *t, struct sql_map *by_pid, uint32_t **upid, size_t *np)
{
	uint32_t p;
	size_t i;

	*upid = calloc(t->n + 1, sizeof(**upid));
	if (!*upid)
		return tm_fail(ENOMEM, "sql processes");
	*np = 0;
	for (i = 0; i < t->n; i++) {
		if (!tm_sql_map_get(by_pid, task_key(t->t[i].machine, t->t[i].tgid), &p)) {
			p = (uint32_t)(*np)++;
			if (tm_sql_map_put(by_pid, task_key(t->t[i].machine, t->t[i].tgid), p))
				return -1;
		}
		(*upid)[i] = p;
	}
	return 0;
}

static int write_threads(struct tm_sql *s, const uint32_t *upid)
{
	struct sql_tasks *t = s->tasks;
	sqlite3_stmt *st = tm_sql_insert(s, "thread", 9);
	size_t i;
	int r = st ? 0 : -1;

	for (i = 0; i < t->n && !r; i++) {
		const struct sql_thread *th = &t->t[i];

		r = tm_sql_row(s, st, th->machine, "iitIIiiiI", (int64_t)i, th->tid,
			       th->name[0] ? th->name : NULL, th->start_ts, th->end_ts,
			       (int64_t)upid[i], (int64_t)(th->tid == th->tgid), (int64_t)!th->tid,
			       th->machine ? (int64_t)th->machine : SQL_NULL);
	}
	sqlite3_finalize(st);
	return r;
}

static int write_processes(struct tm_sql *s, const uint32_t *upid, size_t np)
{
	struct sql_tasks *t = s->tasks;
	sqlite3_stmt *st = tm_sql_insert(s, "process", 9);
	bool *done = calloc(np + 1, sizeof(*done));
	size_t i;
	int r = st && done ? 0 : -1;

	if (!done)
		tm_fail(ENOMEM, "sql processes");
	/* in thread order, each process once, named by its main thread (or its first) */
	for (i = 0; i < t->n && !r; i++) {
		const struct sql_thread *th = &t->t[i];
		int64_t parent = SQL_NULL;
		size_t m;

		if (done[upid[i]])
			continue;
		done[upid[i]] = true;
		for (m = i; m < t->n; m++)
			if (upid[m] == upid[i] && t->t[m].tid == t->t[m].tgid)
				break;
		if (m < t->n)
			th = &t->t[m];
		if (th->parent >= 0)
			parent = upid[th->parent];
		r = tm_sql_row(s, st, th->machine, "iitIIInnI", (int64_t)upid[i], th->tgid,
			       th->name[0] ? th->name : NULL, th->start_ts, th->end_ts, parent,
			       th->machine ? (int64_t)th->machine : SQL_NULL);
	}
	free(done);
	sqlite3_finalize(st);
	return r;
}

int tm_sql_tasks_write(struct tm_sql *s)
{
	struct sql_map by_pid = { 0 };
	uint32_t *upid = NULL;
	size_t np = 0;
	int r;

	r = processes(s->tasks, &by_pid, &upid, &np);
	if (!r)
		r = write_threads(s, upid);
	if (!r)
		r = write_processes(s, upid, np);
	tm_sql_map_free(&by_pid);
	free(upid);
	return r;
}
