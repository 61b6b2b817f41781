/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record-internal.h - what the files of lib/record/ share with the rest of lib/
 * (never with cmd/): the functions of its public headers that only lib calls.
 */
#ifndef TM_RECORD_INTERNAL_H
#define TM_RECORD_INTERNAL_H

#include "util/internal.h"

/* ---- lib-only part of tm-recover.h ---- */

/* Read PREFIX.spool-info; -1 + message (ENOENT: there is none). */
int tm_spool_info_read(const char *prefix, struct tm_spool_info *info);
/* Remove PREFIX.spool-info (a missing one is fine). Cannot fail. */
void tm_spool_info_remove(const char *prefix);
/* Write PREFIX.spool-info (replacing one) and sync it; -1 + message. */
int tm_spool_info_write(const char *prefix, const struct tm_spool_info *info);

/* ---- lib-only part of tm-recorder.h ---- */

/*
 * Count one page a CPU's ring handed out into st (pages, bytes, losses):
 * true when it goes on to the sink; false when its commit word or a record
 * length is impossible: then only corrupt_pages counts it, and nothing past
 * the page's end (or its commit) was read.
 */
bool tm_record_stats_add_page(struct tm_cpu_record_stats *st, const void *page, size_t size);
/*
 * A cut through the running recording, for a flight dump or an output
 * switch: every thread hands its ring's records so far to the sink, the
 * page being filled included (later pages carry only what follows), then
 * calls the sink's cut(). Returns once every thread did; the readers never
 * stop. -1: a thread failed (its message).
 */
int tm_recorder_cut(struct tm_recorder *rec);

#endif /* TM_RECORD_INTERNAL_H */
