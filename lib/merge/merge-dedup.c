// SPDX-License-Identifier: GPL-2.0-only
/*
 * merge-dedup.c - one copy of each record when files overlap: flight dumps
 * of one recording hold the same stretch of the ring buffer, so a merge of
 * them meets every record of the overlap once per dump.
 *
 * A record is identified by its buffer (by name, through the merged buffer
 * index), its CPU, its time and its payload bytes (the common fields, pid,
 * flags and preempt count included). Within one file two records may be
 * identical (the same event twice in one clock tick): those are kept. So
 * the copies of one identity are counted per file, and the merge hands out
 * as many as the file with the most has: a record goes out when its file has
 * now given more of its identity than went out so far. The merge gives all
 * of one file's records of a tick before the next file's (ties go to the
 * lower file), so counting within the current tick of each CPU suffices.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "merge-internal.h"
#include "trace/tm-trace.h"

struct dd_entry {
	uint32_t	off, size, hash;
	int		file;
	bool		out;		/* handed out, not dropped */
};

/* The records of one buffer and CPU at its current time. */
struct dd_slot {
	uint64_t	ts;
	bool		used;
	struct dd_entry	*e;
	size_t		n, cap;
	uint8_t		*bytes;
	size_t		len, bcap;
};

struct tm_dedup {
	struct dd_slot	*slots;
	int		nbuffers, ncpus;
};

struct tm_dedup *tm_dedup_new(int nbuffers, int cpu_slots)
{
	struct tm_dedup *d = calloc(1, sizeof(*d));

	if (d && nbuffers > 0 && cpu_slots > 0)
		d->slots = calloc((size_t)nbuffers * cpu_slots, sizeof(*d->slots));
	if (!d || !d->slots) {
		free(d);
		tm_fail(ENOMEM, "merge of overlapping files");
		return NULL;
	}
	d->nbuffers = nbuffers;
	d->ncpus = cpu_slots;
	return d;
}

void tm_dedup_free(struct tm_dedup *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < (size_t)d->nbuffers * d->ncpus; i++) {
		free(d->slots[i].e);
		free(d->slots[i].bytes);
	}
	free(d->slots);
	free(d);
}

/* FNV-1a: cheap, and only a pre-check before memcmp. */
static uint32_t hash_bytes(const uint8_t *p, uint32_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

static int slot_add(struct dd_slot *s, const struct tm_event_rec *rec, uint32_t h, bool out)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct dd_entry *e = realloc(s->e, cap * sizeof(*e));

		if (!e)
			return tm_fail(ENOMEM, "merge of overlapping files");
		s->e = e;
		s->cap = cap;
	}
	if (s->len + rec->size > s->bcap) {
		size_t cap = (s->len + rec->size) * 2;
		uint8_t *b = realloc(s->bytes, cap);

		if (!b)
			return tm_fail(ENOMEM, "merge of overlapping files");
		s->bytes = b;
		s->bcap = cap;
	}
	memcpy(s->bytes + s->len, rec->data, rec->size);
	s->e[s->n++] = (struct dd_entry){ .off = (uint32_t)s->len, .size = rec->size, .hash = h,
					  .file = rec->file, .out = out };
	s->len += rec->size;
	return 0;
}

int tm_dedup_seen(struct tm_dedup *d, const struct tm_event_rec *rec)
{
	struct dd_slot *s;
	size_t i, mine = 0, out = 0;
	uint32_t h;

	if (rec->buffer < 0 || rec->buffer >= d->nbuffers || rec->cpu < 0 || rec->cpu >= d->ncpus)
		return 0;
	s = &d->slots[(size_t)rec->buffer * d->ncpus + rec->cpu];
	if (!s->used || s->ts != rec->ts) {
		s->used = true;
		s->ts = rec->ts;
		s->n = s->len = 0;
	}
	h = hash_bytes(rec->data, rec->size);
	for (i = 0; i < s->n; i++) {
		const struct dd_entry *e = &s->e[i];

		if (e->hash != h || e->size != rec->size ||
		    memcmp(s->bytes + e->off, rec->data, rec->size))
			continue;
		mine += e->file == rec->file;
		out += e->out;
	}
	if (slot_add(s, rec, h, mine + 1 > out))
		return -1;
	return mine + 1 > out ? 0 : 1;
}
