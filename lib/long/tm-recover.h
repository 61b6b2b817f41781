/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-recover.h - saving what a recording that did not end normally left: the
 * note beside its spools that says how they were written (spool-info.c),
 * finding spools whose recorder is gone, and turning them into a trace.dat
 * with metadata read from tracefs at recovery time (recover.c).
 */
#ifndef TM_RECOVER_H
#define TM_RECOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/tm-codec.h"
#include "util/tm-progress.h"

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
};

/* Write PREFIX.spool-info (replacing one) and sync it; -1 + message. */
int tm_spool_info_write(const char *prefix, const struct tm_spool_info *info);
/* Read PREFIX.spool-info; -1 + message (ENOENT: there is none). */
int tm_spool_info_read(const char *prefix, struct tm_spool_info *info);
/* Remove PREFIX.spool-info (a missing one is fine). Cannot fail. */
void tm_spool_info_remove(const char *prefix);

/* A spool set whose recorder is gone (tm_spools_orphaned()). */
struct tm_orphan {
	char	*prefix;	/* dir/NAME, dir made absolute; NULL ends the list */
	pid_t	pid;		/* the recorder that wrote them */
	char	*first;		/* the first spool file there is (NULL: none) */
	int	files;		/* spool files there are */
};

/*
 * The spool sets in dir (their PREFIX.spool-info notes) whose recorder no
 * longer runs, as a list ended by a NULL prefix (tm_orphans_free). NULL +
 * message when dir cannot be read.
 */
struct tm_orphan *tm_spools_orphaned(const char *dir);
/* Free that list (NULL is fine). */
void tm_orphans_free(struct tm_orphan *list);

/* What tm_recover() did. */
struct tm_recover_result {
	int		cpus;		/* spools that held data */
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
