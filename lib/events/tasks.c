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

static struct tm_task *slot_at(const struct tm_tasks *t, size_t i)
{
	return (struct tm_task *)(t->slots + i * t->size);
}

static int grow(struct tm_tasks *t, size_t cap)
{
	struct tm_tasks to = { .slots = calloc(cap, t->size), .size = t->size, .cap = cap };
	size_t i;

	if (!to.slots)
		return tm_fail(ENOMEM, "task names");
	for (i = 0; i < t->cap; i++) {
		struct tm_task *k = slot_at(t, i);

		if (k->used)
			memcpy(tm_tasks_slot(&to, k->pid), k, t->size);
	}
	free(t->slots);
	t->slots = to.slots;
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

struct tm_task *tm_tasks_insert(struct tm_tasks *t, int pid, bool *added)
{
	struct tm_task *k;

	if (t->n * 2 >= t->cap && grow(t, t->cap * 2))
		return NULL;
	k = tm_tasks_slot(t, pid);
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
		struct tm_task *k = slot_at(t, *i);

		if (k->used) {
			(*i)++;
			return k;
		}
	}
	return NULL;
}
