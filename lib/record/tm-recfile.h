/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-recfile.h - the recording file: per-CPU spools beside the output
 * while recording, then one trace.dat (recfile.c).
 */
#ifndef TM_RECFILE_H
#define TM_RECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dat/tm-codec.h"
#include "record/tm-spool.h"
#include "record/tm-recorder.h"

struct tm_session;

struct tm_recfile_opts {
	const char		*path;		/* output file, "-" = stdout */
	int			version;	/* tm_dat_version_supported() */
	enum tm_compression	compression;	/* if tm_dat_version_compressed() */
	int			level;
	bool			adaptive;	/* cheaper levels while a ring fills up */
	size_t			page_size;
	int			ncpus;
	const bool		*cpus;		/* CPUs that get a spool */
	const char		*last_boot_instance;	/* tm_write_opts' LAST_BOOT_INFO */
	const char		*last_boot_info;
	const char		*modules;	/* tm_write_opts' MODULES text, NULL = none */
	const char		*date;		/* DATE option text, NULL = none */
	/*
	 * The recording's instance: with it, a note beside the spools says how
	 * they are written (tm_spool_info) until a normal end; NULL: no note.
	 */
	const char		*instance;
	const char		*clock;		/* its trace clock, NULL: "local" */
	/* a spool's chunk is written once its first page is this old (0: when full) */
	unsigned int		flush_ms;
	/*
	 * The pages come from a read that consumes them (extract): the file is
	 * written under a temporary beside it and renamed; tm_recfile_secure()
	 * syncs the spools, tm_recfile_keep() keeps them after a failure.
	 */
	bool			consuming;
};

struct tm_recfile;

/*
 * Open (create, not truncate) the output so an unwritable path fails before
 * tracing starts, and create <output>.cpuN.spool for each recorded CPU
 * ($TMPDIR/tracemap-<pid>.cpuN.spool for stdout). NULL + message naming the
 * file (a terminal on stdout is refused too).
 */
struct tm_recfile *tm_recfile_open(const struct tm_recfile_opts *opts);
/* The sink that appends each CPU's pages to its spool. */
struct tm_page_sink tm_recfile_sink(struct tm_recfile *out);
/*
 * Non-zero (the errno, e.g. ENOSPC) once a spool's file write failed: the
 * spools take no more pages (they are dropped) and recording should stop.
 * Read while the recorder threads write.
 */
int tm_recfile_full(const struct tm_recfile *out);
/*
 * At stop, with the instance still there: finish spools, collect metadata,
 * write the file. -1 + message naming the output. After a full disk the file
 * holds what the spools hold (tm_recfile_stopped() says so); if the file
 * itself does not fit (ENOSPC, EDQUOT) it is left empty and the spools and
 * their note stay for `tracemap recover`, which the message names.
 */
int tm_recfile_write(struct tm_recfile *out, const struct tm_session *s);
/* After a successful write cut short by a full disk: one line saying so; else NULL. */
const char *tm_recfile_stopped(const struct tm_recfile *out);
/*
 * record --date (record-date.c): with tracing off and before the buffers
 * are mapped, write numbered trace_marker lines between CLOCK_REALTIME
 * reads on a CPU of cpus[0..ncpus) the process may run on, read them back
 * from that CPU's buffer, clear the instance's buffers, and put the
 * wall-clock minus trace-clock offset in microseconds into out as the DATE
 * option's text ("0x<hex>"). -1 + message.
 */
int tm_record_date_offset(struct tm_session *s, const bool *cpus, int ncpus, char *out,
			  size_t len);
/* A warning of the metadata collection (kallsyms addresses zero), or NULL. */
const char *tm_recfile_warning(const struct tm_recfile *out);
/* Bytes in the spools so far, read while the recorder threads write them (live status). */
uint64_t tm_recfile_written(const struct tm_recfile *out);
/* Spool statistics of cpu (zeroes when it has no spool). */
void tm_recfile_spool_stats(const struct tm_recfile *out, int cpu, struct tm_spool_stats *st);
/*
 * Remove the spools and their note (unless the file did not fit: then they
 * stay); unless ok, also remove an output file we created (NULL is fine).
 */
void tm_recfile_close(struct tm_recfile *out, bool ok);

#endif /* TM_RECFILE_H */
