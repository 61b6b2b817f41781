/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * merge-internal.h - what lib/ uses of the merge (merge.c, merge-dedup.c)
 * beyond its public tm-merge.h: page sources, the record check, several
 * files' buffers, the dedup of overlapping files.
 */
#ifndef TM_MERGE_INTERNAL_H
#define TM_MERGE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"
#include "events/tm-events.h"

struct tep_handle;

/*
 * merge.c: bytes of the pages the merge has taken from its sources so far,
 * and of all their pages (the trace.dat sources' sizes; 0 for others).
 */
struct tm_merge;
TM_HIDDEN void tm_merge_bytes(const struct tm_merge *m, uint64_t *read, uint64_t *total);

/*
 * Check every record against its event's format in tep before handing it
 * out (libtraceevent reads fields where the format puts them, unchecked):
 * one whose fields do not fit inside it is skipped, and warn (may be NULL)
 * gets a line naming the file, buffer, CPU, page and record offsets and the
 * field. Call before the first tm_merge_next(); -1 with ENOMEM or EBUSY.
 */
TM_HIDDEN int tm_merge_check_records(struct tm_merge *m, struct tep_handle *tep, tm_warn_fn warn,
				     void *warn_ctx);
/* Records the check skipped so far. */
TM_HIDDEN uint64_t tm_merge_skipped(const struct tm_merge *m);

/* merge.c: any per-CPU page source; tm_merge_add_dat() adds a file's. */

/* Next page of a source, or NULL: end (errno 0) or error (errno, message set). */
typedef const void *(*tm_page_next_fn)(void *ctx);
typedef void (*tm_page_close_fn)(void *ctx);

struct tm_page_source {
	int		buffer;		/* ties: lower buffer first, then lower cpu, then file */
	int		cpu;
	int		file;		/* which of several files merged (0 for one) */
	size_t		page_size;
	unsigned int	commit_size;	/* 4 or 8 */
	bool		big_endian;
	tm_page_next_fn	next_page;
	tm_page_close_fn close;		/* may be NULL; called by tm_merge_free() */
	/* May be NULL: where the current page is, for messages ("FILE: ...: page at offset N"). */
	int		(*where)(void *ctx, char *buf, size_t len);
	void		*ctx;
	/* File-wide, monotonic timestamp adjustment (DATE, OFFSET, TSC2NSEC); may be NULL. */
	uint64_t	(*adjust_ts)(const struct tm_dat *dat, uint64_t ts);
	const struct tm_dat *adjust_ctx;
};

/* Add a source before the first tm_merge_next(); -1 + message (EBUSY after it, ENOMEM). */
TM_HIDDEN int tm_merge_add(struct tm_merge *m, const struct tm_page_source *src);
/*
 * tm_merge_add_dat() for one of several files merged: buffer buf of dat goes
 * out as buffer as_buf (the buffer of that name in the merged stream), its
 * records marked as file's.
 */
TM_HIDDEN int tm_merge_add_dat_as(struct tm_merge *m, struct tm_dat *dat, int buf, int as_buf,
				  int file, const uint64_t *cpu_mask, int nbits);

/*
 * merge-dedup.c: records of overlapping files (flight dumps) once. An
 * identity is buffer, CPU, time and payload; a file's own repeats are kept.
 */
struct tm_dedup;
struct tm_event_rec;

TM_HIDDEN struct tm_dedup *tm_dedup_new(int nbuffers, int cpu_slots);
TM_HIDDEN void tm_dedup_free(struct tm_dedup *d);
/* Fed every merged record in order: 1 when rec repeats one handed out, 0 if not, -1 ENOMEM. */
TM_HIDDEN int tm_dedup_seen(struct tm_dedup *d, const struct tm_event_rec *rec);

#endif /* TM_MERGE_INTERNAL_H */
