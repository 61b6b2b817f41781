// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-map.c - an open-addressing map of 64-bit keys (tids, machine and tid)
 * to 32-bit values (indexes of the derived tables' per-thread state), and
 * the growth of those per-thread state arrays.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sql-internal.h"

#define MAP_EMPTY	INT64_MIN

static size_t slot_of(int64_t key, size_t cap)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 20) & (cap - 1);
}

bool tm_sql_map_get(const struct sql_map *m, int64_t key, uint32_t *val)
{
	size_t i;

	if (!m->cap)
		return false;
	for (i = slot_of(key, m->cap); m->keys[i] != MAP_EMPTY; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			*val = m->vals[i];
			return true;
		}
	}
	return false;
}

static void put_slot(struct sql_map *m, int64_t key, uint32_t val)
{
	size_t i;

	for (i = slot_of(key, m->cap); m->keys[i] != MAP_EMPTY && m->keys[i] != key;
	     i = (i + 1) & (m->cap - 1))
		;
	if (m->keys[i] == MAP_EMPTY)
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
}

static int grow(struct sql_map *m)
{
	struct sql_map bigger = { .cap = m->cap ? m->cap * 2 : 1024 };
	size_t i;

	bigger.keys = malloc(bigger.cap * sizeof(*bigger.keys));
	bigger.vals = malloc(bigger.cap * sizeof(*bigger.vals));
	if (!bigger.keys || !bigger.vals) {
		free(bigger.keys);
		free(bigger.vals);
		return tm_fail(ENOMEM, "sql map");
	}
	for (i = 0; i < bigger.cap; i++)
		bigger.keys[i] = MAP_EMPTY;
	for (i = 0; i < m->cap; i++)
		if (m->keys[i] != MAP_EMPTY)
			put_slot(&bigger, m->keys[i], m->vals[i]);
	tm_sql_map_free(m);
	*m = bigger;
	return 0;
}

int tm_sql_map_put(struct sql_map *m, int64_t key, uint32_t val)
{
	if ((m->n + 1) * 2 > m->cap && grow(m))
		return -1;
	put_slot(m, key, val);
	return 0;
}

void tm_sql_map_free(struct sql_map *m)
{
	free(m->keys);
	free(m->vals);
	*m = (struct sql_map){ 0 };
}

void *tm_sql_grow(void *arr, size_t *n, size_t size, size_t u, const char *what)
{
	size_t cap = u * 2 + 64;
	char *p;

	if (u < *n)
		return arr;
	p = realloc(arr, cap * size);
	if (!p) {
		tm_fail(ENOMEM, "%s", what);
		return NULL;
	}
	memset(p + *n * size, 0, (cap - *n) * size);
	*n = cap;
	return p;
}
