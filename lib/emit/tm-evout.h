/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-evout.h - one interface for everything that consumes decoded events
 * (out-*.c): trace-cmd text and JSON lines (wrapping struct tm_printer),
 * Perfetto protobuf and Chrome trace-event JSON; and the loop that feeds a
 * trace.dat file through the merge and the -F filters into one (out-run.c).
 *
 * An output sees: begin (what the source is), then every record in
 * timestamp order, then end. A record carries the loss that precedes it on
 * its CPU (rec->missed); lost() reports a loss no later record carries (a
 * live source whose CPU ends right after a gap). Nothing here needs a file:
 * a live source describes itself in struct tm_evout_info too (live = true),
 * and `stream` feeds its records to the text output through the live merge
 * (out-live.c): begin with the live tep and the instance's clock, each
 * record from its bounded-delay merge, lost() for its end-of-CPU drops, a
 * flush per step, end at stop. Any output report has, stream can have.
 */
#ifndef TM_EVOUT_H
#define TM_EVOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "events/tm-events.h"
#include "print/tm-print.h"
#include "trace/tm-trace.h"
#include "util/tm-progress.h"

struct tm_dat;
struct tep_handle;

struct tm_evout_buffer {
	const char	*name;		/* "" or NULL: the top-level buffer */
	const char	*clock;		/* trace clock; NULL: "local" */
};

/* What a source is; everything but tep may be empty. */
struct tm_evout_info {
	struct tep_handle		*tep;
	int				ncpus;		/* the source's CPU count */
	int				cpu_slots;	/* highest CPU of any buffer + 1 */
	int				nbuffers;
	const struct tm_evout_buffer	*buffers;
	struct tm_blob			cmdlines;	/* saved_cmdlines text: "pid comm" lines */
	struct tm_blob			cpustat;	/* per_cpu/cpuN/stats texts, "CPU: n" first */
	struct tm_blob			printk;		/* printk formats: kernel strings by address */
	const char			*uname;		/* "sysname node release machine" or NULL */
	bool				ts_in_ns;	/* a TSC2NSEC option turned counts into ns */
	bool				live;		/* stream: events only, no file header */
	/*
	 * Several machines on one timeline (convert of their files): each is
	 * one run into a new output on the same FILE, in order; machine 0 first.
	 */
	int				machine;	/* this source's, 0 = the first */
	int				machines;	/* how many; 0 or 1: just this one */
};

struct tm_evout;

struct tm_evout_ops {
	int	(*begin)(struct tm_evout *out, const struct tm_evout_info *info);
	int	(*event)(struct tm_evout *out, const struct tm_event_rec *rec);
	int	(*lost)(struct tm_evout *out, int buf, int cpu, int64_t missed);
	/* May be NULL: hand on what is held so far; more records follow (live). */
	int	(*flush)(struct tm_evout *out);
	/* Write what is still held; the output is complete once it returns 0. */
	int	(*end)(struct tm_evout *out);
	void	(*free)(struct tm_evout *out);
};

/* Every implementation embeds this first. */
struct tm_evout {
	const struct tm_evout_ops	*ops;
	char				warning[160];	/* set by begin; "" if none */
};

/* Start: what the source is. */
static inline int tm_evout_begin(struct tm_evout *out, const struct tm_evout_info *info)
{
	return out->ops->begin(out, info);
}

/* Write what is held: the output is complete once this returns 0. */
static inline int tm_evout_end(struct tm_evout *out)
{
	return out->ops->end(out);
}

/* Free an output (NULL is fine); after end() or instead of it. */
void tm_evout_free(struct tm_evout *out);

/* What the user should know about a finished output (one line), or NULL. */
const char *tm_evout_warning(const struct tm_evout *out);

/* ---- implementations (each writes to a FILE the caller owns) ---- */

/*
 * out-text.c: `trace-cmd report` text (opts->json: one JSON object per line),
 * the printer of ev's events (ev must outlive the output).
 */
struct tm_evout *tm_evout_text_new(const struct tm_events *ev, const struct tm_print_opts *opts,
				   FILE *f);

/* out-perfetto.c: a Perfetto trace (protobuf `Trace`, one TracePacket at a time). */
struct tm_evout *tm_evout_perfetto_new(FILE *f);

/* out-chrome.c: Chrome trace-event JSON ({"traceEvents": [...]}). */
struct tm_evout *tm_evout_chrome_new(FILE *f);

/* ---- out-run.c: a trace.dat file through the merge into an output ---- */

struct tm_run_opts {
	const uint64_t	*cpu_mask;	/* bit n = CPU n; NULL: all */
	int		cpu_bits;
	struct tm_filter *filter;	/* NULL: every record */
	tm_warn_fn	warn;		/* NULL: records skipped silently */
	void		*warn_ctx;
	uint64_t	*skipped;	/* NULL, or set to the records the check skipped */
	struct tm_meter	*meter;		/* NULL, or shown the bytes and records read */
	int		machine;	/* tm_evout_info's: this run's machine ... */
	int		machines;	/* ... of how many (0: one) */
};

#define TM_RUN_METER_EVENTS	4096	/* records read between two shows of a meter */

/*
 * begin (the file's buffers, clocks, cmdlines and CPU stats), every record of
 * every buffer in timestamp order through the filter, end. Trace-cmd's quirk
 * is kept: with a CPU mask, instance buffers give no records. Every record is
 * checked against its format before the filter or the output reads it
 * (tm_merge_check_records()): one whose fields lie outside it is skipped with
 * a warning, so no output hands libtraceevent a record it would read past.
 * A meter is shown every TM_RUN_METER_EVENTS records read (filtered out or
 * not) and once at the end: the records read, and the bytes of the pages
 * read of the bytes of all the pages of the buffers and CPUs the run reads.
 */
int tm_evout_run_dat(struct tm_evout *out, struct tm_dat *dat, struct tep_handle *tep,
		      const struct tm_run_opts *opts);
/*
 * tm_evout_run_dat() over n files of one machine (tm_dat_machines()), decoded
 * with tep (the first file's): one stream in time order, buffers matched by
 * name, and a record that several files hold (overlapping flight dumps) once
 * (same buffer, CPU, time and payload; see lib/merge/merge-dedup.c). The
 * output is told the first file's kernel and clocks and the last file's
 * saved cmdlines and CPU statistics (the newest).
 */
int tm_evout_run_dats(struct tm_evout *out, struct tm_dat *const *dats, int n,
		      struct tep_handle *tep, const struct tm_run_opts *opts);

#endif /* TM_EVOUT_H */
