// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfetto-tasks.c - the tasks a Perfetto trace names in its ProcessTree:
 * only the pids the events mention (the common pid, the pids sched_switch,
 * the wakeups, task_newtask, task_rename and fork carry), each named by the
 * last name an event gave it, else by the saved cmdlines (names at the end
 * of the recording, which may belong to a later task reusing the pid).
 * The table is events/tasks.c's, as every output's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include "events/tasks.h"
#include "perfetto.h"

struct tm_pf_tasks {
	struct tm_tasks	*tab;		/* plain struct tm_task entries */
};

void tm_pf_tasks_free(struct tm_pf_tasks *t)
{
	if (t)
		tm_tasks_free(t->tab);
	free(t);
}

struct tm_pf_tasks *tm_pf_tasks_new(void)
{
	struct tm_pf_tasks *t = calloc(1, sizeof(*t));

	if (t)
		t->tab = tm_tasks_new(sizeof(struct tm_task));
	if (t && t->tab)
		return t;
	if (!t)
		tm_fail(ENOMEM, "Perfetto task table");
	free(t);
	return NULL;
}

/* pid seen; comm (NULL: none) is the name an event gives it. */
int tm_pf_tasks_see(struct tm_pf_tasks *t, int32_t pid, const char *comm)
{
	struct tm_task *k;

	if (pid <= 0)
		return 0;
	k = tm_tasks_add(t->tab, pid, NULL);
	if (!k)
		return -1;
	if (comm && *comm) {
		tm_task_set_comm(k, comm, TM_COMM_LEN);
		k->named = true;
	}
	return 0;
}

/* Names from saved_cmdlines ("pid comm" lines) for the pids seen that no event named. */
void tm_pf_tasks_cmdlines(struct tm_pf_tasks *t, const char *s, size_t len)
{
	const char *end = s + len, *nl, *sp;
	struct tm_task *k;
	char pid[16];

	for (; s && s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s)) ?: end;
		sp = memchr(s, ' ', (size_t)(nl - s));
		if (!sp || sp - s >= (long)sizeof(pid))
			continue;
		memcpy(pid, s, (size_t)(sp - s));
		pid[sp - s] = '\0';
		k = tm_tasks_find(t->tab, atoi(pid));
		if (!k || k->named)
			continue;
		tm_task_set_comm(k, sp + 1, (size_t)(nl - sp - 1));
	}
}

/* The i-th task of the table (any order); false past the end. */
bool tm_pf_tasks_at(const struct tm_pf_tasks *t, size_t *i, int32_t *pid, const char **comm)
{
	const struct tm_task *k = tm_tasks_next(t->tab, i);

	if (!k)
		return false;
	*pid = k->pid;
	*comm = k->comm;
	return true;
}

size_t tm_pf_tasks_count(const struct tm_pf_tasks *t)
{
	return tm_tasks_count(t->tab);
}
