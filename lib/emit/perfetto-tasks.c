// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfetto-tasks.c - the tasks a Perfetto trace names in its ProcessTree:
 * only the pids the events mention (the common pid, the pids sched_switch,
 * the wakeups, task_newtask, task_rename and fork carry), each named by the
 * last name an event gave it, else by the saved cmdlines (names at the end
 * of the recording, which may belong to a later task reusing the pid).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include "perfetto.h"

#define TASK_COMM	16	/* the kernel's TASK_COMM_LEN */

struct pf_task {
	int32_t	pid;		/* 0: free slot (the idle task is never listed) */
	bool	named;		/* an event named it */
	char	comm[TASK_COMM];
};

struct tm_pf_tasks {
	struct pf_task	*slot;
	size_t		cap, n;		/* cap: a power of two */
};

struct tm_pf_tasks *tm_pf_tasks_new(void)
{
	struct tm_pf_tasks *t = calloc(1, sizeof(*t));

	if (t) {
		t->cap = 1024;
		t->slot = calloc(t->cap, sizeof(*t->slot));
	}
	if (!t || !t->slot) {
		free(t);
		tm_fail(ENOMEM, "Perfetto task table");
		return NULL;
	}
	return t;
}

void tm_pf_tasks_free(struct tm_pf_tasks *t)
{
	if (t)
		free(t->slot);
	free(t);
}

static struct pf_task *find(struct pf_task *slot, size_t cap, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (cap - 1);

	while (slot[i].pid && slot[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static int grow(struct tm_pf_tasks *t)
{
	struct pf_task *old = t->slot, *s;
	size_t i, cap = t->cap * 2;

	s = calloc(cap, sizeof(*s));
	if (!s)
		return tm_fail(ENOMEM, "Perfetto task table");
	for (i = 0; i < t->cap; i++)
		if (old[i].pid)
			*find(s, cap, old[i].pid) = old[i];
	t->slot = s;
	t->cap = cap;
	free(old);
	return 0;
}

/* pid seen; comm (NULL: none) is the name an event gives it. */
int tm_pf_tasks_see(struct tm_pf_tasks *t, int32_t pid, const char *comm)
{
	struct pf_task *k;

	if (pid <= 0)
		return 0;
	if (t->n * 2 >= t->cap && grow(t))
		return -1;
	k = find(t->slot, t->cap, pid);
	if (!k->pid) {
		k->pid = pid;
		t->n++;
	}
	if (comm && *comm) {
		/* once per event naming a task: no printf */
		size_t n = strnlen(comm, sizeof(k->comm) - 1);

		memcpy(k->comm, comm, n);
		k->comm[n] = '\0';
		k->named = true;
	}
	return 0;
}

/* Names from saved_cmdlines ("pid comm" lines) for the pids seen that no event named. */
void tm_pf_tasks_cmdlines(struct tm_pf_tasks *t, const char *s, size_t len)
{
	const char *end = s + len, *nl, *sp;
	struct pf_task *k;
	char pid[16];

	for (; s && s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s)) ?: end;
		sp = memchr(s, ' ', (size_t)(nl - s));
		if (!sp || sp - s >= (long)sizeof(pid))
			continue;
		memcpy(pid, s, (size_t)(sp - s));
		pid[sp - s] = '\0';
		k = find(t->slot, t->cap, atoi(pid));
		if (k->pid <= 0 || k->named)
			continue;
		snprintf(k->comm, sizeof(k->comm), "%.*s", (int)(nl - sp - 1), sp + 1);
	}
}

/* The i-th task of the table (any order); false past the end. */
bool tm_pf_tasks_at(const struct tm_pf_tasks *t, size_t *i, int32_t *pid, const char **comm)
{
	for (; *i < t->cap; (*i)++) {
		if (!t->slot[*i].pid)
			continue;
		*pid = t->slot[*i].pid;
		*comm = t->slot[*i].comm;
		(*i)++;
		return true;
	}
	return false;
}

size_t tm_pf_tasks_count(const struct tm_pf_tasks *t)
{
	return t->n;
}
