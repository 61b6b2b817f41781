/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record-internal.h - what the files of lib/record/ share with the rest of lib/
 * (never with cmd/): the functions of its public headers that only lib calls.
 */
#ifndef TM_RECORD_INTERNAL_H
#define TM_RECORD_INTERNAL_H

#include <limits.h>
#include <stdint.h>

#include "util/internal.h"
#include "dat/tm-codec.h"
#include "tm-recorder.h"
#include "trace/trace-internal.h"
#include "tm-recfile.h"

/* ---- the note beside a recording's spools (spool-info.c) ---- */

/*
 * How a recording's spools PREFIX.cpuN.spool are written, kept in
 * PREFIX.spool-info from the start of the recording to its normal end.
 */
struct tm_spool_info {
	pid_t			pid;		/* the recorder */
	char			instance[64];	/* its tracefs instance name */
	int			version;	/* trace.dat version it writes */
	enum tm_compression	compression;	/* of the chunks */
	int			level;
	size_t			page_size;	/* sub-buffer size */
	int			ncpus;		/* spools are numbered below this */
	char			clock[64];	/* trace clock of the instance */
	char			previous[PATH_MAX];	/* a rotation's number before, "" */
};


/*
 * Where a running recording links its spool note from, by instance name
 * (TM_SPOOL_REGISTRY/tracemap-PID -> /abs/PREFIX.spool-info), so that reset
 * and recover find a killed recording's spools wherever -o put them. Best
 * effort: a recorder that may not write there (not root) leaves no link.
 */
#define TM_SPOOL_REGISTRY	"/run/tracemap"
/* TM_SPOOL_REGISTRY/instance into buf; false when it does not fit or names no file. */
TM_HIDDEN bool tm_spool_registry_link(char *buf, size_t len, const char *instance);

/*
 * Whether PREFIX.spool-info is the newest note of instance's recorder: the one
 * the registry links (true without a link). A rotation notes each numbered
 * file; only the newest owns what the instance's ring still holds.
 */
TM_HIDDEN bool tm_spool_info_is_newest(const char *prefix, const char *instance);
/* Read PREFIX.spool-info; -1 + message (ENOENT: there is none). */
TM_HIDDEN int tm_spool_info_read(const char *prefix, struct tm_spool_info *info);
/* Remove PREFIX.spool-info and its registry link (missing ones are fine). Cannot fail. */
TM_HIDDEN void tm_spool_info_remove(const char *prefix);
/*
 * Write PREFIX.spool-info for a recording with options o (o->instance set),
 * exclusively: -1 + message when PREFIX has a note already, naming its
 * recorder, *live set when that one still runs (recfile.c). previous: the
 * PREFIX of the rotation's number before, NULL for none.
 */
TM_HIDDEN int tm_recfile_note(const struct tm_recfile_opts *o, const char *prefix,
			      const char *previous, bool *live);
/*
 * Write PREFIX.spool-info, sync it and link it from the registry; -1 + message.
 * Never replaces a note: EEXIST when one is there (another recorder's, live or
 * killed), which is how two recorders of one PREFIX find each other.
 */
TM_HIDDEN int tm_spool_info_write(const char *prefix, const struct tm_spool_info *info);
/*
 * A rotation's cut, noted in the next number's PREFIX.spool-info (synced):
 * per CPU the time of the last record the numbers before hold, so that
 * recover of PREFIX drops those when it rereads the reader sub-buffer the
 * kernel kept (ncpus entries). -1 + message.
 */
TM_HIDDEN int tm_spool_info_add_cuts(const char *prefix, const uint64_t *ts, int ncpus);
/*
 * The cut's times from PREFIX.spool-info into ts (ncpus entries, 0 for a
 * CPU it does not name): 1 when the note has them, 0 when it has none (not
 * a rotation's, or the recorder died before it noted the cut), -1 + message.
 */
TM_HIDDEN int tm_spool_info_cuts(const char *prefix, uint64_t *ts, int ncpus);

/* ---- lib-only part of tm-recorder.h ---- */

/*
 * Count one page a CPU's ring handed out into st (pages, bytes, losses):
 * true when it goes on to the sink; false when its commit word or (with
 * walk) a record length is impossible: then only corrupt_pages counts it,
 * and nothing past the page's end (or its commit) was read.
 */
TM_HIDDEN bool tm_record_stats_add_page(struct tm_cpu_record_stats *st, const void *page, size_t size,
					bool walk);
/*
 * A cut through the running recording, for a flight dump or an output
 * switch: every thread hands its ring's records so far to the sink, the
 * page being filled included (later pages carry only what follows), then
 * calls the sink's cut(). Returns once every thread did; the readers never
 * stop. -1: a thread failed (its message).
 */
TM_HIDDEN int tm_recorder_cut(struct tm_recorder *rec);

/* ---- used across lib/ ---- */

/* recfile.c: tm_recfile_write() with metadata the caller collected. */
TM_HIDDEN int tm_recfile_write_meta(struct tm_recfile *out, const struct tm_meta *meta);
/*
 * The spools finished and flushed to disk (fsync), before anything else
 * can fail: what a consuming read took is on disk. -1 + message naming the
 * spool.
 */
TM_HIDDEN int tm_recfile_secure(struct tm_recfile *out);
/*
 * After a failure: the spools finished and synced as far as they can be
 * (the failure's message stays tm_last_error()), they and their note stay
 * (tm_recfile_close() removes neither) for `tracemap recover`; their
 * prefix (PREFIX.cpuN.spool).
 */
TM_HIDDEN const char *tm_recfile_keep(struct tm_recfile *out);
/* The spools' prefix: PREFIX.cpuN.spool. */
TM_HIDDEN const char *tm_recfile_prefix(const struct tm_recfile *out);
/* recfile.c: how record's spools are made for the output options o. */
TM_HIDDEN struct tm_spool_opts tm_recfile_spool_opts(const struct tm_recfile_opts *o);
/* recfile.c: how record's trace.dat is written for the output options o. */
TM_HIDDEN struct tm_write_opts tm_recfile_write_opts(const struct tm_recfile_opts *o);

#endif /* TM_RECORD_INTERNAL_H */
