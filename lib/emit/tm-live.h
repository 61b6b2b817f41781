/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-live.h - live decoding for `stream` (out-live.c): a page sink that queues
 * each CPU's pages, and a main-thread step that merges the queued records by
 * timestamp across CPUs and prints those no later page can precede.
 */
#ifndef TM_LIVE_H
#define TM_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emit/tm-evout.h"
#include "record/tm-recorder.h"

struct tm_events;

/* ---- live-names.c: task names that follow exec, renames and new tasks ---- */

struct tm_names;

/*
 * Task names for ev's live records: each record carrying a task's name (a
 * comm/pid field pair, or sched_process_exec's file name) names that task
 * for the records after it; a task no record named gets its saved_cmdlines
 * name, else the one /proc gives when it is first seen. quiet lists
 * "system:event" names enabled only for this (tm_session_quiet_events()):
 * they are not printed. ev must outlive it. NULL with ENOMEM.
 */
struct tm_names *tm_names_new(struct tm_events *ev, const char *const *quiet);
/* Name pid comm as a record would (e.g. COMMAND before its exec); -1 with ENOMEM. */
int tm_names_learn(struct tm_names *n, int pid, const char *comm);
/*
 * Re-read saved_cmdlines (tm_events_reload_cmdlines()) for the tasks no
 * record named. -1 + message; names read so far stay.
 */
int tm_names_reload(struct tm_names *n, const char *tracefs_dir);
/* Free (NULL is fine). */
void tm_names_free(struct tm_names *n);

/* ---- out-live.c ---- */

struct tm_live_opts {
	int			ncpus;
	const bool		*cpus;		/* cpus[0..ncpus): traced */
	size_t			page_size;	/* sub-buffer size */
	size_t			max_bytes;	/* per CPU, queued + not yet printed; 0: 32 MiB */
	struct tm_evout		*output;	/* begun; records go to event() and lost() */
	struct tm_filter	*filter;	/* NULL: print everything */
	struct tm_names		*names;		/* NULL: names from the handle only */
	FILE			*out;		/* the output's stream: flushed once per step */
};

struct tm_live;

/* The live merge of opts->ncpus CPUs into opts->output; NULL with ENOMEM. */
struct tm_live *tm_live_new(const struct tm_live_opts *opts);
/* Free the queues (after the recorder stopped; NULL is fine). */
void tm_live_free(struct tm_live *lv);
/*
 * The sink for tm_recorder_create(): page() copies into the CPU's queue
 * (-1: a page of the wrong size, ENOMEM), flush() stamps the time.
 */
struct tm_page_sink tm_live_sink(struct tm_live *lv);

/*
 * Wait up to timeout_ms for a CPU's drain round to end (returns at once if one
 * ended since the last call). Cannot fail.
 */
void tm_live_wait(struct tm_live *lv, int timeout_ms);
/*
 * Decode what the recorder threads queued and print, in timestamp order
 * (ties: lower CPU first), every record that no page still to come can
 * precede: a record of a page that arrived at time a is printed once every
 * other CPU has finished a drain round that began after a. With final (the
 * recorder is stopped) print everything. Flushes the output once. Returns 1
 * when it stopped early with more to print, 0 when caught up, -1 + message
 * (a corrupt page; a failed write has errno EPIPE/EBADF when the reader went away).
 */
int tm_live_step(struct tm_live *lv, bool final);
/* From now on page() never waits for room (call before the final drain). */
void tm_live_set_unbounded(struct tm_live *lv);
/* From now on every page is dropped (the reader of the output left). */
void tm_live_discard(struct tm_live *lv);

/* What became of one CPU's records so far. */
struct tm_live_shown {
	uint64_t	printed;	/* handed to the printer */
	uint64_t	hidden;		/* quiet name events or filtered out: not printed */
};
/* CPU cpu's counts (zeros for a CPU out of range); main thread, as tm_live_step(). */
void tm_live_get_shown(const struct tm_live *lv, int cpu, struct tm_live_shown *shown);

#endif /* TM_LIVE_H */
