// SPDX-License-Identifier: GPL-2.0-only
/*
 * live-names.c - task names for live records (stream): a record that carries
 * a task's name (exec, rename, new task, sched_switch and every other
 * comm/pid field pair) names that task from the next record printed on; a
 * task no record named gets its name from saved_cmdlines or /proc. The quiet
 * events (enabled only to learn names) are learnt from and not printed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "dat/dat-format.h"
#include "events/tasks.h"
#include "util/internal.h"
#include "tm-live.h"
#include "events/events-internal.h"
#include "emit-internal.h"
#include "events/tm-events.h"

#define TM_NAMES_IDS	65536	/* common_type is 16 bits */
#define TM_NAMES_PAIRS	3

/* The comm/pid field pairs an event may carry. */
static const char *const tm_pair_names[][2] = {
	{ "comm", "pid" }, { "prev_comm", "prev_pid" }, { "next_comm", "next_pid" },
	{ "child_comm", "child_pid" }, { "parent_comm", "parent_pid" }, { "newcomm", "pid" },
};

struct name_pair {
	const struct tep_format_field	*comm, *pid;
};

struct name_event {
	bool				bound;		/* fields looked up */
	bool				quiet;		/* learnt from, not printed */
	int				npairs;
	struct name_pair		pairs[TM_NAMES_PAIRS];
	const struct tep_format_field	*filename, *exec_pid;	/* sched_process_exec */
};

struct tm_names {
	struct tm_events	*ev;
	struct tep_handle	*tep;
	struct name_event	*events;	/* TM_NAMES_IDS */
	/*
	 * The pids met: named (by a record, the name it gave; reloads leave
	 * them), or marked (no record named it, /proc was asked once).
	 */
	struct tm_tasks		*tasks;
	bool			swap;
};

/* ---- which events name tasks ---- */

static bool comm_field(const struct tep_format_field *f)
{
	return f && (f->flags & TEP_FIELD_IS_ARRAY) && !(f->flags & TEP_FIELD_IS_DYNAMIC) &&
	       f->size > 0;
}

static bool pid_field(const struct tep_format_field *f)
{
	return f && !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) &&
	       (f->size == 4 || f->size == 8);
}

static void bind_event(struct tm_names *n, int id)
{
	struct name_event *ne = &n->events[id];
	struct tep_event *ev = tep_find_event(n->tep, id);

	ne->bound = true;
	if (!ev)
		return;
	for (size_t i = 0; i < TM_ARRAY_SIZE(tm_pair_names) && ne->npairs < TM_NAMES_PAIRS; i++) {
		struct name_pair p = {
			tep_find_field(ev, tm_pair_names[i][0]),
			tep_find_field(ev, tm_pair_names[i][1]),
		};

		if (comm_field(p.comm) && pid_field(p.pid))
			ne->pairs[ne->npairs++] = p;
	}
	if (!strcmp(ev->name, "sched_process_exec") && ev->system &&
	    !strcmp(ev->system, "sched")) {
		ne->filename = tep_find_field(ev, "filename");
		ne->exec_pid = tep_find_field(ev, "pid");
		if (!ne->filename || !(ne->filename->flags & TEP_FIELD_IS_DYNAMIC) ||
		    !pid_field(ne->exec_pid))
			ne->filename = ne->exec_pid = NULL;
	}
}

/* ---- learning names ---- */

/*
 * Name pid comm (from a record) unless the table says it has that name
 * already. A name written to /proc/PID/comm keeps the writer's newline
 * (`echo x >/proc/self/comm`): the name is what comes before it, as
 * saved_cmdlines' one-line-per-task text gives it to report.
 */
static int learn(struct tm_names *n, int pid, const char *name)
{
	char comm[TM_COMM_LEN];
	struct tm_task *k;

	if (pid <= 0)	/* the idle tasks print as <idle> */
		return 0;
	snprintf(comm, sizeof(comm), "%.*s", (int)strcspn(name, "\n"), name);
	if (!comm[0])
		return 0;
	k = tm_tasks_add(n->tasks, pid, NULL);
	if (!k)
		return -1;
	if (k->named && !strcmp(k->comm, comm))
		return 0;
	k->named = true;
	if (tm_events_set_comm(n->ev, pid, comm) < 0)
		return -1;
	tm_task_set_comm(k, comm, sizeof(comm));
	return 0;
}

static int read_pid(const struct tm_names *n, const struct tep_format_field *f,
		    const struct tm_event_rec *rec)
{
	if ((uint32_t)(f->offset + f->size) > rec->size)
		return -1;
	return (int)tm_get_uint((const uint8_t *)rec->data + f->offset, (unsigned int)f->size,
				n->swap);
}

static int learn_pair(struct tm_names *n, const struct name_pair *p, const struct tm_event_rec *rec)
{
	const char *src = (const char *)rec->data + p->comm->offset;
	char comm[TM_COMM_LEN];
	int pid = read_pid(n, p->pid, rec);

	if (pid <= 0 || (uint32_t)(p->comm->offset + p->comm->size) > rec->size)
		return 0;
	snprintf(comm, sizeof(comm), "%.*s", (int)strnlen(src, (size_t)p->comm->size), src);
	return comm[0] ? learn(n, pid, comm) : 0;
}

/* The name /proc gives a task now; false when it is gone. */
static bool proc_comm(int pid, char *comm, size_t len)
{
	char path[64];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(comm, (int)len, f) != NULL;
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return ok && comm[0];
}

/*
 * exec names the task after the file's base name (the kernel's rule), cut
 * to TASK_COMM_LEN - 1; a descriptor exec (/dev/fd/N) is named by the
 * file behind it, which only /proc still knows.
 */
static int learn_exec(struct tm_names *n, const struct name_event *ne,
		      const struct tm_event_rec *rec)
{
	const struct tep_format_field *f = ne->filename;
	const char *data = rec->data, *name, *base;
	char comm[TM_COMM_LEN];
	uint32_t loc, off, len;
	int pid = read_pid(n, ne->exec_pid, rec);

	if (pid <= 0 || (uint32_t)(f->offset + 4) > rec->size)
		return 0;
	loc = (uint32_t)tm_get_uint(data + f->offset, 4, n->swap);
	off = loc & 0xffff;
	len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += (uint32_t)(f->offset + f->size);
	if (!len || off + len > rec->size)
		return 0;
	name = data + off;
	len = (uint32_t)strnlen(name, len);
	if (len >= 8 && !strncmp(name, "/dev/fd/", 8))
		return proc_comm(pid, comm, sizeof(comm)) ? learn(n, pid, comm) : 0;
	base = memrchr(name, '/', len);
	base = base ? base + 1 : name;
	snprintf(comm, sizeof(comm), "%.*s", (int)(name + len - base), base);
	return comm[0] ? learn(n, pid, comm) : 0;
}

/* A task no record named and saved_cmdlines does not know: its name in /proc, once. */
static int name_unknown(struct tm_names *n, int pid)
{
	char comm[TM_COMM_LEN];
	struct tm_task *k;

	if (pid <= 0)
		return 0;
	k = tm_tasks_find(n->tasks, pid);
	if ((k && (k->named || k->mark)) || tep_is_pid_registered(n->tep, pid))
		return 0;
	k = tm_tasks_add(n->tasks, pid, NULL);
	if (!k)
		return -1;
	k->mark = true;
	if (!proc_comm(pid, comm, sizeof(comm)))
		return 0;
	return tm_events_set_comm(n->ev, pid, comm) < 0 ? -1 : 0;
}

int tm_names_learn(struct tm_names *n, int pid, const char *comm)
{
	return learn(n, pid, comm);
}

int tm_names_see(struct tm_names *n, const struct tm_event_rec *rec)
{
	struct tep_record r = { .data = (void *)rec->data, .size = (int)rec->size };
	struct name_event *ne;
	int id;

	if (rec->size < 8)
		return 0;
	id = tep_data_type(n->tep, &r);
	if (id < 0 || id >= TM_NAMES_IDS)
		return 0;
	ne = &n->events[id];
	if (!ne->bound)
		bind_event(n, id);
	for (int i = 0; i < ne->npairs; i++)
		if (learn_pair(n, &ne->pairs[i], rec))
			return -1;
	if (ne->filename && learn_exec(n, ne, rec))
		return -1;
	if (name_unknown(n, tep_data_pid(n->tep, &r)))
		return -1;
	return ne->quiet;
}

/* ---- lifetime ---- */

static bool named_by_record(void *ctx, int pid)
{
	const struct tm_task *k = tm_tasks_find(((struct tm_names *)ctx)->tasks, pid);

	return k && k->named;
}

int tm_names_reload(struct tm_names *n, const char *tracefs_dir)
{
	return tm_events_reload_cmdlines_skip(n->ev, tracefs_dir, named_by_record, n);
}

/* Mark the quiet events ("system:event"); ones the handle does not know are skipped. */
static void mark_quiet(struct tm_names *n, const char *const *quiet)
{
	for (; quiet && *quiet; quiet++) {
		const char *colon = strchr(*quiet, ':');
		char sys[128];
		struct tep_event *ev;

		if (!colon)
			continue;
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - *quiet), *quiet);
		ev = tep_find_event_by_name(n->tep, sys, colon + 1);
		if (ev && ev->id >= 0 && ev->id < TM_NAMES_IDS)
			n->events[ev->id].quiet = true;
	}
}

struct tm_names *tm_names_new(struct tm_events *ev, const char *const *quiet)
{
	struct tm_names *n = calloc(1, sizeof(*n));

	if (!n) {
		tm_fail(ENOMEM, "task names");
		return NULL;
	}
	n->ev = ev;
	n->tep = tm_events_tep(ev);
	n->swap = tep_is_file_bigendian(n->tep) != tep_is_local_bigendian(n->tep);
	n->events = calloc(TM_NAMES_IDS, sizeof(*n->events));
	n->tasks = tm_tasks_new(sizeof(struct tm_task));
	if (!n->events || !n->tasks) {
		tm_names_free(n);
		tm_fail(ENOMEM, "task names");
		return NULL;
	}
	mark_quiet(n, quiet);
	return n;
}

void tm_names_free(struct tm_names *n)
{
	if (!n)
		return;
	free(n->events);
	tm_tasks_free(n->tasks);
	free(n);
}
