/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * out-internal.h - what the sources of decoded events in lib/ (out-run.c for
 * a trace.dat file, out-live.c for stream) call on an output; cmd/ only
 * creates outputs, begins and ends them (tm-evout.h).
 */
#ifndef TM_OUT_INTERNAL_H
#define TM_OUT_INTERNAL_H

#include "emit/tm-evout.h"
#include "trace/tm-trace.h"
#include "util/internal.h"

struct tm_live;
struct tm_names;

/* One record, in timestamp order, with the loss before it in rec->missed. */
static inline int tm_evout_event(struct tm_evout *out, const struct tm_event_rec *rec)
{
	return out->ops->event(out, rec);
}

/* A loss no later record of that CPU carries. */
static inline int tm_evout_lost(struct tm_evout *out, int buf, int cpu, int64_t missed)
{
	return out->ops->lost(out, buf, cpu, missed);
}

/* Hand on what is held so far (a live source between its steps). */
static inline int tm_evout_flush(struct tm_evout *out)
{
	return out->ops->flush ? out->ops->flush(out) : 0;
}

/* ---- used across lib/ ---- */

/* out-live.c: what the live merge saw of one CPU. */
struct tm_live_cpu_stats {
	uint64_t	pages;		/* pages received */
	uint64_t	records;	/* data records decoded */
	uint64_t	lost_pages;	/* pages flagged with missed events */
	uint64_t	lost_stored;	/* counts stored on them */
	uint64_t	waits;		/* times the recorder thread waited for room */
};

TM_HIDDEN void tm_live_get_stats(struct tm_live *lv, int cpu, struct tm_live_cpu_stats *st);

/*
 * live-names.c: learn the names rec carries, before it prints: 1 when rec
 * is a quiet event (not to be printed), 0 otherwise, -1 with ENOMEM.
 */
TM_HIDDEN int tm_names_see(struct tm_names *n, const struct tm_event_rec *rec);

/* ---- out-run.c, for lib/ only ---- */

/*
 * The same records pulled one at a time, for a reader that is no output
 * (lib/sql's generic table, a virtual table read on demand): what
 * tm_evout_run_dats() hands to an output's event(), through the same merge,
 * check, dedup, filter and meter. NULL + message.
 */
struct tm_evrun;
TM_HIDDEN struct tm_evrun *tm_evrun_open(struct tm_dat *const *dats, int n,
					 struct tep_handle *tep, const struct tm_run_opts *opts);
/* What the files are (begin()'s info), valid while the run lives. */
TM_HIDDEN const struct tm_evout_info *tm_evrun_info(const struct tm_evrun *r);
/*
 * The next record: 1 with *rec filled (valid until the next call), 0 at the
 * end (opts->skipped set then), -1 on a bad page (message set).
 */
TM_HIDDEN int tm_evrun_next(struct tm_evrun *r, struct tm_event_rec *rec);
/* Free the run: NULL is fine. */
TM_HIDDEN void tm_evrun_free(struct tm_evrun *r);

#endif /* TM_OUT_INTERNAL_H */
