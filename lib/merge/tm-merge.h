/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-merge.h - a file's records in timestamp order across CPUs and buffers
 * (merge.c), each checked against its event format before it is handed out
 * (rec-check.c): what report, convert and the printers read.
 */
#ifndef TM_MERGE_H
#define TM_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/tm-trace.h"

struct tm_dat;
struct tm_merge;

/* An empty merge; NULL with ENOMEM. */
struct tm_merge *tm_merge_new(void);
/*
 * Add every CPU with data of buffer buf of a file; cpu_mask (bit n = CPU n,
 * NULL = all, nbits long) selects CPUs. Ties: lower buffer, then lower CPU
 * first. -1 + message (a cursor could not be opened; ENOMEM).
 */
int tm_merge_add_dat(struct tm_merge *m, struct tm_dat *dat, int buf,
		     const uint64_t *cpu_mask, int nbits);
/*
 * The next record, its time adjusted as tm_dat_adjust_ts(): 1 with *rec
 * filled (valid until the next call), 0 at the end, -1 on a bad page (message set).
 */
int tm_merge_next(struct tm_merge *m, struct tm_event_rec *rec);
/* Free the merge and close its cursors (NULL is fine). */
void tm_merge_free(struct tm_merge *m);

#endif /* TM_MERGE_H */
