// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-learn.c - the texts a compiled format learnt for the values of one
 * field (print-fast-render.c finds each in libtraceevent's line): an open
 * hash table of at most TM_LEARN_MAX values, texts copied into one buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "print-learn.h"

#define SLOTS	(2 * TM_LEARN_MAX)	/* a power of two, half full at most */

struct entry {
	uint64_t	value;
	unsigned int	off;		/* in texts */
	unsigned int	len : 31;	/* the text's length + 1; 0: empty slot */
	unsigned int	confirmed : 1;	/* tm_learnt_confirm() */
};

struct tm_learnt {
	unsigned int	n;
	char		*texts;
	size_t		used, cap;
	struct entry	slot[SLOTS];
};

struct tm_learnt *tm_learnt_new(void)
{
	struct tm_learnt *l = calloc(1, sizeof(*l));

	/* allocated now so that an empty text is found too (not NULL) */
	if (l)
		l->texts = malloc(l->cap = 256);
	if (l && !l->texts) {
		free(l);
		return NULL;
	}
	return l;
}

void tm_learnt_free(struct tm_learnt *l)
{
	if (!l)
		return;
	free(l->texts);
	free(l);
}

static unsigned int hash(uint64_t v)
{
	return (unsigned int)((v * 0x9e3779b97f4a7c15ULL) >> 40) & (SLOTS - 1);
}

/* The slot holding v, or the empty one where it would go. */
static const struct entry *lookup(const struct tm_learnt *l, uint64_t v)
{
	unsigned int i = hash(v);

	while (l->slot[i].len && l->slot[i].value != v)
		i = (i + 1) & (SLOTS - 1);
	return &l->slot[i];
}

const char *tm_learnt_find(const struct tm_learnt *l, uint64_t v, unsigned int *len,
			   bool *confirmed)
{
	const struct entry *e = lookup(l, v);

	if (!e->len)
		return NULL;
	*len = e->len - 1;
	if (confirmed)
		*confirmed = e->confirmed;
	return l->texts + e->off;
}

void tm_learnt_confirm(struct tm_learnt *l, uint64_t v)
{
	struct entry *e = (struct entry *)lookup(l, v);

	if (e->len)
		e->confirmed = 1;
}

bool tm_learnt_full(const struct tm_learnt *l)
{
	return l->n >= TM_LEARN_MAX;
}

int tm_learnt_add(struct tm_learnt *l, uint64_t v, const char *text, size_t len)
{
	struct entry *e = (struct entry *)lookup(l, v);
	size_t cap;
	char *t;

	if (tm_learnt_full(l) || e->len || len > TM_LEARN_TEXT_MAX)
		return -1;
	if (l->used + len > l->cap) {
		cap = l->cap * 2;
		while (cap < l->used + len)
			cap *= 2;
		t = realloc(l->texts, cap);
		if (!t)
			return -1;
		l->texts = t;
		l->cap = cap;
	}
	if (len)
		memcpy(l->texts + l->used, text, len);
	e->value = v;
	e->off = (unsigned int)l->used;
	e->len = (unsigned int)len + 1;
	e->confirmed = 0;
	l->used += len;
	l->n++;
	return 0;
}
