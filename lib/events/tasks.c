// SPDX-License-Identifier: GPL-2.0-only
/*
 * tasks.c - the pid-keyed task table of tasks.h: open addressing on the pid
 * (Fibonacci hash, linear probing), a power-of-two number of slots from 1024
 * on, doubled once it is half full. The outputs list their tasks in slot
 * order, so the growth rule is part of their bytes: the table doubles at an
 * add that finds it half full, whether or not the pid is new.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tasks.h"

#define TASKS_FIRST_CAP	1024

struct tm_tasks {
	unsigned char	*slots;		/* cap entries of size bytes */
	size_t		size, cap, n;
};

static struct tm_task *slot_at(const struct tm_tasks *t, unsigned char *slots, size_t i)
{
	return (struct tm_task *)(slots + i * t->size);
}

/* The slot of pid in slots of cap entries: its entry, or the free slot it would take. */
static struct tm_task *probe(const struct tm_tasks *t, unsigned char *slots, size_t cap, int pid)
{
	size_t i = ((unsigned int)pid * 2654435761u) & (cap - 1);
	struct tm_task *k;

	while ((k = slot_at(t, slots, i))->used && k->pid != pid)
		i = (i + 1) & (cap - 1);
	return k;
}

static int grow(struct tm_tasks *t, size_t cap)
{
	unsigned char *slots = calloc(cap, t->size);
	size_t i;

	if (!slots)
		return tm_fail(ENOMEM, "task names");
	for (i = 0; i < t->cap; i++) {
		struct tm_task *k = slot_at(t, t->slots, i);

		if (k->used)
			memcpy(probe(t, slots, cap, k->pid), k, t->size);
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

struct tm_tasks *tm_tasks_new(size_t entry_size)
{
	struct tm_tasks *t = calloc(1, sizeof(*t));
	const size_t align = _Alignof(max_align_t);

	if (!t) {
		tm_fail(ENOMEM, "task names");
		return NULL;
	}
	t->size = (entry_size + align - 1) / align * align;
	if (grow(t, TASKS_FIRST_CAP)) {
		free(t);
		return NULL;
	}
	return t;
}

void tm_tasks_free(struct tm_tasks *t)
{
	if (t)
		free(t->slots);
	free(t);
}

struct tm_task *tm_tasks_find(const struct tm_tasks *t, int pid)
{
	struct tm_task *k = probe(t, t->slots, t->cap, pid);

	return k->used ? k : NULL;
}

struct tm_task *tm_tasks_add(struct tm_tasks *t, int pid, bool *added)
{
	struct tm_task *k;

	if (t->n * 2 >= t->cap && grow(t, t->cap * 2))
		return NULL;
	k = probe(t, t->slots, t->cap, pid);
	if (added)
		*added = !k->used;
	if (!k->used) {
		memset(k, 0, t->size);
		k->pid = pid;
		k->used = true;
		t->n++;
	}
	return k;
}

struct tm_task *tm_tasks_next(const struct tm_tasks *t, size_t *i)
{
	for (; *i < t->cap; (*i)++) {
		struct tm_task *k = slot_at(t, t->slots, *i);

		if (k->used) {
			(*i)++;
			return k;
		}
	}
	return NULL;
}

size_t tm_tasks_count(const struct tm_tasks *t)
{
	return t->n;
}

void tm_task_set_comm(struct tm_task *k, const char *comm, size_t len)
{
	size_t n = strnlen(comm, len < TM_COMM_LEN - 1 ? len : TM_COMM_LEN - 1);

	memcpy(k->comm, comm, n);
	k->comm[n] = '\0';
}
