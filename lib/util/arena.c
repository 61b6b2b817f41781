// SPDX-License-Identifier: GPL-2.0-only
/* arena.c - bump allocation in 64 KiB chunks (larger objects get a chunk of their own). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define TM_ARENA_CHUNK	(64 * 1024)

struct tm_arena_chunk {
	struct tm_arena_chunk	*next;
	size_t			size;
	size_t			used;
	max_align_t		data[];
};

static struct tm_arena_chunk *chunk_new(size_t size)
{
	struct tm_arena_chunk *c = malloc(sizeof(*c) + size);

	if (!c)
		return NULL;
	c->next = NULL;
	c->size = size;
	c->used = 0;
	return c;
}

void *tm_arena_alloc(struct tm_arena *a, size_t n)
{
	size_t need = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	struct tm_arena_chunk *c = a->cur, *nc;
	void *p;

	/* move on through kept chunks; add one at the end when none has room */
	while (c && c->size - c->used < need) {
		if (!c->next)
			break;
		c = c->next;
		c->used = 0;
	}
	if (!c || c->size - c->used < need) {
		nc = chunk_new(need > TM_ARENA_CHUNK ? need : TM_ARENA_CHUNK);
		if (!nc)
			return NULL;
		if (c)
			c->next = nc;
		else
			a->head = nc;
		c = nc;
	}
	a->cur = c;
	p = (char *)c->data + c->used;
	c->used += need;
	memset(p, 0, n);
	return p;
}

char *tm_arena_strndup(struct tm_arena *a, const void *s, size_t n)
{
	char *d = tm_arena_alloc(a, n + 1);

	if (d)
		memcpy(d, s, n);
	return d;
}

void tm_arena_reset(struct tm_arena *a)
{
	a->cur = a->head;
	if (a->head)
		a->head->used = 0;
}

void tm_arena_free(struct tm_arena *a)
{
	struct tm_arena_chunk *c = a->head, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = a->cur = NULL;
}
