/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-write.h - collecting a recording's metadata from tracefs (meta.c) and
 * writing the finished trace.dat in one forward pass (dat-write.c).
 */
#ifndef TM_WRITE_H
#define TM_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tm-codec.h"
#include "tm-spool.h"

struct tm_meta;

/*
 * Read everything the file needs from tracefs for the instance (NULL = top
 * level): header_page/header_event, all ftrace formats, the formats of every
 * event enabled in the instance (its set_event; ftrace events are always
 * stored in their own section), the whole /proc/kallsyms (tm_meta_warning()
 * says when its addresses read as zero; kptr_restrict is never changed),
 * printk_formats, saved_cmdlines, uname, trace_clock, and per-CPU stats for
 * cpus [0, ncpus).
 * Call after tracing stopped, so stats are final.
 */
struct tm_meta *tm_meta_collect(const char *tracefs, const char *instance, int ncpus);

/* Where tm_meta_collect_opts reads from; tm_meta_collect uses the defaults. */
struct tm_meta_opts {
	const char	*tracefs;	/* tracefs, or a directory laid out like it */
	const char	*instance;	/* NULL or "": the top level */
	int		ncpus;		/* stats of cpus [0, ncpus) */
	const char	*kallsyms;	/* file stored as kallsyms; NULL: /proc/kallsyms */
};

/*
 * Like tm_meta_collect, from any directory laid out like tracefs. Without a
 * set_event file every event system under events/ (except ftrace) is stored
 * whole; missing printk_formats, saved_cmdlines and per_cpu stats are stored
 * empty. The event formats always come from <tracefs>/events.
 */
struct tm_meta *tm_meta_collect_opts(const struct tm_meta_opts *opts);
/* Replace pieces of collected metadata (tests, tools that rebuild files). */
int tm_meta_set_kallsyms(struct tm_meta *meta, const char *text, size_t len);
/* Text of per_cpu/cpuN/stats; the writer prefixes "CPU: N\n". */
int tm_meta_set_stats(struct tm_meta *meta, int cpu, const char *text, size_t len);
/* Text of a trace_clock file; the bracketed name becomes the clock. */
int tm_meta_set_trace_clock(struct tm_meta *meta, const char *text, size_t len);
/* Selected trace clock ("local"), NULL if trace_clock had none. */
const char *tm_meta_clock(const struct tm_meta *meta);
int tm_meta_cpus(const struct tm_meta *meta);
/* Number of stored event formats outside the ftrace system. */
size_t tm_meta_event_count(const struct tm_meta *meta);
/* A warning collected on the way (e.g. kallsyms addresses zero), or NULL. */
const char *tm_meta_warning(const struct tm_meta *meta);
void tm_meta_free(struct tm_meta *meta);

/* ---- trace.dat versions (dat-version.c) ---- */

/* True when this library writes (and reads) files of version: 6 and 7. Never fails. */
bool tm_dat_version_supported(int version);
/* True when files of version can hold compressed data (7; 6 is always uncompressed). */
bool tm_dat_version_compressed(int version);
/* The oldest and the newest version this library writes. Never fails. */
void tm_dat_version_range(int *oldest, int *newest);

struct tm_write_opts {
	int			version;	/* tm_dat_version_supported() */
	enum tm_compression	compression;	/* if tm_dat_version_compressed(); else none */
	int			level;		/* metadata compression level */
	const char		*clock;		/* trace clock name; NULL: the meta's */
	uint32_t		page_size;	/* sub-buffer size; 0: from header_page */
};

/*
 * Write a complete trace.dat to out_fd strictly sequentially (works on a pipe):
 * metadata from meta, then the top buffer's CPU data taken from spools[cpu]
 * (NULL = no data for that CPU; spools were made with the matching
 * compression: none for v6/v7-none, zstd for v7-zstd) and finished with
 * tm_spool_finish. Uses copy_file_range where the output allows, read/write
 * otherwise. File offsets count from the first byte written: a regular file
 * must be positioned at 0. Layout (spec §9.2 layout 1): v7 header, sections
 * 16-21, options (DONE -> second options), BUFFER section, options with the
 * BUFFER option, strings. v6: spec §3 with an options block.
 */
int tm_dat_write(int out_fd, const struct tm_meta *meta, struct tm_spool **spools,
		 int ncpus, const struct tm_write_opts *opts);

#endif /* TM_WRITE_H */
