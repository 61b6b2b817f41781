/* SPDX-License-Identifier: GPL-2.0-only */
/* arena.h - a bump allocator for short-lived groups of objects, reset as a whole (arena.c). */
#ifndef TM_ARENA_H
#define TM_ARENA_H

#include <stddef.h>

#include "internal.h"

struct tm_arena_chunk;

struct tm_arena {
	struct tm_arena_chunk	*head;	/* chunks are kept across resets */
	struct tm_arena_chunk	*cur;
};

/* n bytes aligned for any scalar, zeroed; NULL when out of memory. */
TM_HIDDEN void *tm_arena_alloc(struct tm_arena *a, size_t n);
/* A NUL-terminated copy of the first n bytes of s. */
TM_HIDDEN char *tm_arena_strndup(struct tm_arena *a, const void *s, size_t n);
/* Forget every object; memory is reused by the next allocations. */
TM_HIDDEN void tm_arena_reset(struct tm_arena *a);
TM_HIDDEN void tm_arena_free(struct tm_arena *a);

#endif /* TM_ARENA_H */
