/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace-internal.h - the trace model below the readers and writers of lib/:
 * a trace's metadata (struct tm_meta) and its texts, and one CPU's trace data
 * as a source the trace.dat writer reads (struct tm_cpu_data). tracefs/
 * collects the metadata, dat/ writes both, record/, longrec/ and salvage/
 * make the data sources. Private to the library.
 */
#ifndef TM_TRACE_INTERNAL_H
#define TM_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"

/* A malloc'ed text blob (a file's content, a format, a section payload). */
struct tm_text {
	char		*data;
	size_t		len;
	uint64_t	sec, off;	/* read from a trace.dat: where (see struct tm_blob) */
};

/* The format texts of one event system. */
struct tm_meta_system {
	char		*name;
	size_t		nformats;
	struct tm_text	*formats;	/* events/<name>/<event>/format */
};

/* A trace's metadata, as a recording collects it and the writer stores it (§2, §5). */
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

/*
 * One CPU's trace data for the trace.dat writer: the bytes of its CPU blob
 * without the chunk count in front, either read from a file (a spool) or
 * handed out piece by piece from memory (the flight window). It says what
 * it holds, and the writer refuses data that does not fit the file.
 */
struct tm_cpu_data {
	int		cpu;
	uint64_t	size;		/* bytes: chunk headers + frames, or raw pages */
	uint32_t	chunks;		/* compressed chunks (0 for raw pages) */
	bool		compressed;	/* zstd chunks, else raw pages */
	size_t		page_size;	/* the size of its pages */
	int		fd;		/* the bytes from offset 0 of this file, or -1 */
	const char	*name;		/* for messages: the file, or what holds the pieces */
	/*
	 * With fd -1: the next piece in *data and *len; returns 1 for a piece, 0 at
	 * the end, -1 + message. Asking for the next piece tells the source the
	 * one before it is in the file (it may release it).
	 */
	int		(*next)(void *ctx, const void **data, size_t *len);
	void		*ctx;
};

/* metadata.c: free a text's bytes and empty it. */
TM_HIDDEN void tm_text_free(struct tm_text *t);
/* Free n texts and the array (NULL is fine). */
TM_HIDDEN void tm_texts_free(struct tm_text *t, size_t n);
/* Free n systems (names, formats) and the array (NULL is fine). */
TM_HIDDEN void tm_systems_free(struct tm_meta_system *sys, size_t n);

/* metadata.c: free the metadata (NULL is fine). */
TM_HIDDEN void tm_meta_free(struct tm_meta *meta);
/* A warning collected on the way (e.g. kallsyms addresses zero), or NULL. */
TM_HIDDEN const char *tm_meta_warning(const struct tm_meta *meta);
/* Selected trace clock ("local"), NULL if trace_clock had none. */
TM_HIDDEN const char *tm_meta_clock(const struct tm_meta *meta);
TM_HIDDEN int tm_meta_cpus(const struct tm_meta *meta);
/* Number of stored event formats outside the ftrace system. */
TM_HIDDEN size_t tm_meta_event_count(const struct tm_meta *meta);
/* Replace the kallsyms text (a warning when its addresses all read as zero); -1 with ENOMEM. */
TM_HIDDEN int tm_meta_set_kallsyms(struct tm_meta *meta, const char *text, size_t len);
/* Text of per_cpu/cpuN/stats (the writer prefixes "CPU: N\n"); -1: no such CPU, ENOMEM. */
TM_HIDDEN int tm_meta_set_stats(struct tm_meta *meta, int cpu, const char *text, size_t len);
/* Text of a trace_clock file; the bracketed name becomes the clock. -1 with ENOMEM. */
TM_HIDDEN int tm_meta_set_trace_clock(struct tm_meta *meta, const char *text, size_t len);
/* The kallsyms text just stored: a warning when every address in it is zero. */
TM_HIDDEN void tm_meta_check_kallsyms(struct tm_meta *meta);
/* The clock bracketed in the trace_clock text just stored ("[local] global ..."). */
TM_HIDDEN void tm_meta_parse_clock(struct tm_meta *meta);

#endif /* TM_TRACE_INTERNAL_H */
