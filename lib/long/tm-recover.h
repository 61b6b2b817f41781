/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-recover.h - saving what a recording that did not end normally left:
 * finding the spool sets whose recorder is gone (orphans.c), and turning
 * one into a trace.dat with what the dead recorder's instance ring still
 * holds and metadata read from tracefs at recovery time (recover.c,
 * recover-ring.c). The note beside the spools is record's
 * (record/spool-info.c).
 */
#ifndef TM_RECOVER_H
#define TM_RECOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "dat/tm-codec.h"
#include "util/tm-progress.h"

/* CPUs recover reports on one by one (the rest count in the totals). */
#define TM_RECOVER_MAX_CPUS	256

/* A spool set whose recorder is gone (tm_spools_orphaned()). */
struct tm_orphan {
	char	*prefix;	/* dir/NAME, dir made absolute; NULL ends the list */
	pid_t	pid;		/* the recorder that wrote them */
	char	instance[64];	/* its instance, whose ring may hold the rest */
	char	*first;		/* the first spool file there is (NULL: none) */
	int	files;		/* spool files there are */
};

/*
 * The spool sets in dir (their PREFIX.spool-info notes) whose recorder no
 * longer runs, as a list ended by a NULL prefix (tm_orphans_free). NULL +
 * message when dir cannot be read.
 */
struct tm_orphan *tm_spools_orphaned(const char *dir);
/*
 * The same for the spool sets linked from the registry (TM_SPOOL_REGISTRY,
 * by instance name), wherever -o put them; an empty list when there is none.
 * NULL + message on ENOMEM.
 */
struct tm_orphan *tm_spools_registered(void);
/* Remove the registry links whose note is gone (removed by hand, or its directory). */
void tm_spools_registry_prune(void);
/* Free that list (NULL is fine). */
void tm_orphans_free(struct tm_orphan *list);

/* Events recovered from one CPU. */
struct tm_recover_cpu {
	uint64_t	spooled;	/* from its spool */
	uint64_t	ring;		/* from the instance's ring */
};

/* What tm_recover() did. */
struct tm_recover_result {
	int		cpus;		/* spools that held data */
	int		ncpus;		/* entries of cpu[] */
	struct tm_recover_cpu cpu[TM_RECOVER_MAX_CPUS];
	bool		ring_taken;	/* the recorder's instance was drained and removed */
	uint64_t	events;		/* all CPUs together */
	uint64_t	pages;		/* pages saved */
	uint64_t	dropped;	/* bytes of torn or damaged chunks cut off */
	bool		from_instance;	/* formats of the recorder's instance too */
	char		instance[64];
};

/*
 * Write output (a trace.dat) from the spools output.cpuN.spool of a
 * recording whose recorder is gone, as output.spool-info describes them,
 * with metadata read from tracefs now: the formats of the events found in
 * the spools (and of the recorder's instance if it is still there), the
 * kallsyms, printk formats and task names of this moment; no per-CPU stats.
 * The file's VERSION option says so. The file is written beside output and
 * renamed over it; then the spools and their note are removed. meter
 * (NULL: none) is shown the spool bytes read, twice each (checked, then
 * copied), the events checked and the file's bytes written. -1 + message:
 * ENOENT no spools, EBUSY the recorder still runs, or what failed.
 */
int tm_recover(const char *output, const char *tracefs, struct tm_recover_result *res,
	       struct tm_meter *meter);

#endif /* TM_RECOVER_H */
