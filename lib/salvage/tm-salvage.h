/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-salvage.h - saving what a buffer or a recording that did not end
 * normally left: extracting an existing instance's buffer (extract.c),
 * finding the spool sets whose recorder is gone (orphans.c), and turning
 * one into a trace.dat with what the dead recorder's instance ring still
 * holds and metadata read from tracefs at recovery time (recover.c,
 * recover-ring.c). The note beside the spools is record's
 * (record/spool-info.c).
 */
#ifndef TM_SALVAGE_H
#define TM_SALVAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/tm-recfile.h"
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
	unsigned int	uprobes;	/* its uprobes (group tracemap_<pid>) removed with it */
	unsigned int	kprobes;	/* its kprobes (the same group) removed with it */
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

/* ---- extract (extract.c) ---- */

struct tm_extract_opts {
	const char		*tracefs;
	const char		*instance;	/* NULL: the top-level buffer */
	struct tm_recfile_opts	out;		/* path, version, compression, level */
	bool			use_mmap;	/* map the buffers where the kernel lets us */
	/* NULL, or shown the data bytes of the pages read of the buffer's unread bytes */
	struct tm_meter		*meter;
	/*
	 * NULL, or called once the output is open and before the first page is
	 * read (consumed): the instance read (NULL: the top level; a backup of
	 * the one asked for, see tm_extract()) and where the events go to.
	 */
	void			(*before_read)(void *ctx, const char *instance, const char *path);
	void			*before_ctx;
};

struct tm_extract_cpu {
	uint64_t	pages;
	uint64_t	events;
	bool		mapped;
	bool		full;		/* a writer kept filling it: stopped after a buffer's worth */
	char		why[96];	/* why read() ran instead of the mapping */
};

struct tm_extract_stats {
	int			ncpus;
	size_t			page_size;
	bool			last_boot_info;	/* a persistent buffer's LAST_BOOT_INFO stored */
	char			backup[64];	/* the backup instance read instead, "" if none */
	char			warning[256];	/* of the metadata collection, "" if none */
	struct tm_extract_cpu	*cpu;		/* [ncpus]; free with tm_extract_stats_free() */
};

/*
 * Write what the buffer of instance o->instance (or the top level) holds
 * now, every CPU, into o->out.path as a trace.dat: the formats of the
 * enabled events and of every event met in the data, the instance's CPU
 * stats and clock, and for a persistent (boot-mapped) buffer that holds a
 * previous boot's data its last_boot_info as the LAST_BOOT_INFO option.
 * Where the kernel made a backup of a persistent instance at boot (6.19+:
 * trace_instance=BACKUP=NAME on its command line) and the backup holds
 * events, the backup is read instead (named in st->backup): the instance's
 * own buffer is left as it is.
 * Reads through the mapping, or read() where the kernel refuses it; the
 * data read is consumed from the buffer; no setting changes. A CPU still
 * being written to is read for one buffer's worth. What is read goes to
 * spools beside the output, synced before the metadata is collected; the
 * file is written under a temporary beside it and renamed. -1 + message;
 * once events were consumed the message says how many, and the spools (and
 * the note `tracemap recover` reads) stay.
 */
int tm_extract(const struct tm_extract_opts *o, struct tm_extract_stats *st);
/* Free what tm_extract() put in st. */
void tm_extract_stats_free(struct tm_extract_stats *st);

#endif /* TM_SALVAGE_H */
