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

#include "util/internal.h"

#define TM_COMM_LEN	16	/* the kernel's TASK_COMM_LEN, NUL included */

struct tm_task {
	int	pid;
	bool	used;		/* the table's: a slot in use */
	bool	named;		/* comm is the name a record gave it */
	bool	mark;		/* the owner's own */
	char	comm[TM_COMM_LEN];	/* "" until named */
};

struct tm_tasks;

/* A table of entries of entry_size bytes (>= sizeof(struct tm_task)); NULL + message. */
TM_HIDDEN struct tm_tasks *tm_tasks_new(size_t entry_size);
TM_HIDDEN void tm_tasks_free(struct tm_tasks *t);
/* The entry of pid, NULL if the table has none. */
TM_HIDDEN struct tm_task *tm_tasks_find(const struct tm_tasks *t, int pid);
/*
 * The entry of pid, added (zeroed, pid set, *added true) when it had none;
 * NULL + message when out of memory. The table may grow at any add: an
 * entry pointer holds until the next call.
 */
TM_HIDDEN struct tm_task *tm_tasks_add(struct tm_tasks *t, int pid, bool *added);
/* The next entry from slot *i on (slot order: the order outputs list them); NULL at the end. */
TM_HIDDEN struct tm_task *tm_tasks_next(const struct tm_tasks *t, size_t *i);
TM_HIDDEN size_t tm_tasks_count(const struct tm_tasks *t);
/* Name k comm: up to its first NUL or len bytes, cut to TM_COMM_LEN - 1. */
TM_HIDDEN void tm_task_set_comm(struct tm_task *k, const char *comm, size_t len);

#endif /* TM_TASKS_H */
