/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-longrec.h - long recordings: numbered output files written on a flight
 * dump or an output switch while the recording goes on (numbered.c over
 * flight.c and rotate.c), the --trigger latch armed in the instance
 * (latch.c).
 */
#ifndef TM_LONGREC_H
#define TM_LONGREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "record/tm-recorder.h"
#include "record/tm-recfile.h"

struct tm_session;

/* ---- numbered output files: flight dumps or rotation (numbered.c) ---- */

/* What a dump held, and what the window dropped before it. */
struct tm_flight_dump_info {
	uint64_t	start;		/* time of the first record every CPU covers */
	uint64_t	end;		/* time of the last record */
	uint64_t	events;		/* records in the file */
	uint64_t	dropped;	/* records older than the window, dropped so far */
	uint64_t	trimmed;	/* records in the window before the CPUs' common start:
					 * left out to align the CPUs, not a loss */
	uint64_t	waits;		/* times a recorder thread waited for a dump */
};

struct tm_longrec_opts {
	struct tm_recfile_opts	out;		/* out.path trace.dat: trace.0001.dat, ... */
	size_t			flight_size;	/* > 0: a flight window of this many bytes */
	uint64_t		switch_bytes;	/* rotation: next file at this much event data (0: no) */
	double			switch_secs;	/* rotation: next file after this long (0: no) */
	unsigned int		max_files;	/* keep the newest max_files files (0: all) */
};

/* One file written: what the summary line says about it. */
struct tm_longrec_file {
	char		path[4096];
	uint64_t	bytes;		/* its size */
	bool		flight;		/* a flight dump: the fields below are set */
	struct tm_flight_dump_info dump;
	char		removed[4096];	/* the file --max-files removed, "" if none */
	/* the last file only: an earlier recording's numbered files after it, removed */
	char		stale[4096];	/* the first of them, "" if none */
	unsigned int	nstale;
	char		warning[256];	/* of the metadata collection, "" if none */
};

struct tm_longrec;

/*
 * The flight window or the rotating spools (OUTPUT.NNNN.dat.cpuN.spool beside
 * the output) of a recording in session s. OUTPUT may not be "-". NULL +
 * message naming the file.
 */
struct tm_longrec *tm_longrec_open(const struct tm_longrec_opts *opts,
				   const struct tm_session *s);
/* The sink the recorder feeds. */
struct tm_page_sink tm_longrec_sink(struct tm_longrec *lr);
/*
 * Rotation only: true once the current file's event data (compressed, as
 * spooled; not its metadata) reached switch_bytes, or switch_secs passed
 * since it began. Cannot fail.
 */
bool tm_longrec_due(struct tm_longrec *lr);
/*
 * While recording goes on: cut the recording (tm_recorder_cut()) and write
 * the next numbered file: a dump of the flight window, or what was recorded
 * since the last switch. -1 + message naming the file (nothing is left of a
 * file that failed).
 */
int tm_longrec_write(struct tm_longrec *lr, struct tm_recorder *rec,
		     struct tm_longrec_file *file);
/* At stop, after the final drain (tm_recorder_stop()): the last file. -1 + message. */
int tm_longrec_finish(struct tm_longrec *lr, struct tm_longrec_file *file);
/* Remove spools, free the window (NULL is fine). Files written stay. */
void tm_longrec_close(struct tm_longrec *lr);

/* ---- the --trigger latch: a dump when an event matches (latch.c) ---- */

struct tm_latch;

/*
 * Arm --trigger "SYSTEM:EVENT[:FILTER]" in session s (before tracing
 * starts): the event is enabled there with FILTER unless it already is, and
 * a one-shot kernel trigger ("stacktrace:1 if FILTER") latches its first
 * match, so a match costs nothing in user space; the kernel stack it
 * records sits right after the event in the trace. NULL + message (bad
 * spec, unknown event, a filter or trigger the kernel refuses).
 */
struct tm_latch *tm_latch_arm(struct tm_session *s, const char *spec);
/* 1 once a matching event happened since the last (re-)arm, 0 if not; -1 + message. */
int tm_latch_fired(struct tm_latch *t);
/* Arm it again for the next match; -1 + message. */
int tm_latch_rearm(struct tm_latch *t);
/* Remove the trigger from the instance and free (NULL is fine). */
void tm_latch_free(struct tm_latch *t);

#endif /* TM_LONGREC_H */
