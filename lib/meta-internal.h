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

#include "internal.h"

/* A malloc'ed text blob. */
struct tm_text {
	char	*data;
	size_t	len;
};

struct tm_meta_system {
	char		*name;
	size_t		nformats;
	struct tm_text	*formats;	/* events/<name>/<event>/format */
};

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
/* Free a text's bytes and empty it. */
TM_HIDDEN void tm_text_free(struct tm_text *t);

#endif /* TM_META_INTERNAL_H */
