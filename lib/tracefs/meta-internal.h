/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * meta-internal.h - a recording's collected metadata (struct tm_meta), filled
 * by meta.c and meta-events.c and read by the trace.dat writer. Private to
 * the library.
 */
#ifndef TM_META_INTERNAL_H
#define TM_META_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"

struct tm_meta {
	struct tm_text		header_page;
	struct tm_text		header_event;
	size_t			nftrace;
	struct tm_text		*ftrace;	/* events/ftrace/<event>/format */
	size_t			nsystems;
	struct tm_meta_system	*systems;	/* never "ftrace" */
	struct tm_text		kallsyms;
	struct tm_text		printk;
	struct tm_text		cmdlines;
	char			*uname;		/* "sysname nodename release machine" */
	struct tm_text		trace_clock;	/* whole trace_clock file */
	char			clock[64];	/* the selected clock name */
	int			ncpus;
	struct tm_text		*stats;		/* per_cpu/cpuN/stats text, N < ncpus */
	char			warning[160];
};

/* meta-events.c: header files, ftrace formats and the enabled events' formats; -1 + message. */
TM_HIDDEN int tm_meta_read_events(struct tm_meta *meta, const char *tracefs,
				  const char *instance);
/*
 * meta-events.c: also the formats of the events whose ids are set in ids
 * (a bitmap of TM_META_MAX_IDS bits) and not stored yet; -1 + message.
 */
#define TM_META_MAX_IDS	65536
TM_HIDDEN int tm_meta_add_ids(struct tm_meta *meta, const char *tracefs, const uint8_t *ids);

/*
 * Metadata functions only the unit tests call (tm_meta_collect() uses the
 * defaults); they build files from a directory laid out like tracefs.
 */

/* Where tm_meta_collect_opts() reads from. */
struct tm_meta_opts {
	const char	*tracefs;	/* tracefs, or a directory laid out like it */
	const char	*instance;	/* NULL or "": the top level */
	int		ncpus;		/* stats of cpus [0, ncpus) */
	const char	*kallsyms;	/* file stored as kallsyms; NULL: /proc/kallsyms */
	const uint8_t	*ids;		/* NULL, or event ids met in the data (tm_meta_add_ids) */
};

/*
 * Like tm_meta_collect(), from any directory laid out like tracefs. Without
 * a set_event file every event system under events/ (except ftrace) is
 * stored whole; missing printk_formats, saved_cmdlines and per_cpu stats are
 * stored empty. The event formats always come from <tracefs>/events.
 */
TM_HIDDEN struct tm_meta *tm_meta_collect_opts(const struct tm_meta_opts *opts);
/* Replace the kallsyms text; -1 with ENOMEM. */
TM_HIDDEN int tm_meta_set_kallsyms(struct tm_meta *meta, const char *text, size_t len);
/* Text of per_cpu/cpuN/stats (the writer prefixes "CPU: N\n"); -1: no such CPU, ENOMEM. */
TM_HIDDEN int tm_meta_set_stats(struct tm_meta *meta, int cpu, const char *text, size_t len);
/* Text of a trace_clock file; the bracketed name becomes the clock. -1 with ENOMEM. */
TM_HIDDEN int tm_meta_set_trace_clock(struct tm_meta *meta, const char *text, size_t len);
TM_HIDDEN int tm_meta_cpus(const struct tm_meta *meta);
/* Number of stored event formats outside the ftrace system. */
TM_HIDDEN size_t tm_meta_event_count(const struct tm_meta *meta);

#endif /* TM_META_INTERNAL_H */
