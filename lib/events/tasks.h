/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tasks.h - the one pid-keyed table of task names (tasks.c) that every
 * decoding output keeps: Perfetto's ProcessTree, Chrome JSON's threads,
 * stream's names of live records. An entry is a struct tm_task, or an
 * owner's struct that begins with one. Private to the library.
 */
#ifndef TM_TASKS_H
#define TM_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "util/internal.h"

#define TM_COMM_LEN	16	/* the kernel's TASK_COMM_LEN, NUL included */

struct tm_task {
	int	pid;
	bool	used;		/* the table's: a slot in use */
	bool	named;		/* comm is the name a record gave it */
	bool	mark;		/* the owner's own */
	char	comm[TM_COMM_LEN];	/* "" until named */
};

/* The table; its fields are the inline lookups' below, tasks.c's otherwise. */
struct tm_tasks {
	unsigned char	*slots;		/* cap entries of size bytes */
	size_t		size, cap, n;
};

/* A table of entries of entry_size bytes (>= sizeof(struct tm_task)); NULL + message. */
TM_HIDDEN struct tm_tasks *tm_tasks_new(size_t entry_size);
TM_HIDDEN void tm_tasks_free(struct tm_tasks *t);
/* tm_tasks_add() past its inline case: a table to grow or a pid to add. */
TM_HIDDEN struct tm_task *tm_tasks_insert(struct tm_tasks *t, int pid, bool *added);
/* The next entry from slot *i on (slot order: the order outputs list them); NULL at the end. */
TM_HIDDEN struct tm_task *tm_tasks_next(const struct tm_tasks *t, size_t *i);

/* The slot of pid: its entry, or the free slot it would take (every output's per-event lookup). */
static inline struct tm_task *tm_tasks_slot(const struct tm_tasks *t, int pid)
{
	size_t i = ((unsigned int)pid * 2654435761u) & (t->cap - 1);
	struct tm_task *k;

	while ((k = (struct tm_task *)(t->slots + i * t->size))->used && k->pid != pid)
		i = (i + 1) & (t->cap - 1);
	return k;
}

/* The entry of pid, NULL if the table has none. */
static inline struct tm_task *tm_tasks_find(const struct tm_tasks *t, int pid)
{
	struct tm_task *k = tm_tasks_slot(t, pid);

	return k->used ? k : NULL;
}

/*
 * The entry of pid, added (zeroed, pid set, *added true) when it had none;
 * NULL + message when out of memory. The table may grow at any add: an
 * entry pointer holds until the next call.
 */
static inline struct tm_task *tm_tasks_add(struct tm_tasks *t, int pid, bool *added)
{
	struct tm_task *k;

	if (t->n * 2 < t->cap && (k = tm_tasks_slot(t, pid))->used) {
		if (added)
			*added = false;
		return k;
	}
	return tm_tasks_insert(t, pid, added);
}

static inline size_t tm_tasks_count(const struct tm_tasks *t)
{
	return t->n;
}

/* Name k comm: up to its first NUL or len bytes, cut to TM_COMM_LEN - 1. */
static inline void tm_task_set_comm(struct tm_task *k, const char *comm, size_t len)
{
	size_t n = strnlen(comm, len < TM_COMM_LEN - 1 ? len : TM_COMM_LEN - 1);

	memcpy(k->comm, comm, n);
	k->comm[n] = '\0';
}

#endif /* TM_TASKS_H */
