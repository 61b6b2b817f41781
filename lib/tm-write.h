/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-write.h - collecting a recording's metadata from tracefs (meta.c) and
 * writing the finished trace.dat in one forward pass (tracedat-write.c).
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
 * event enabled in the instance (its set_event), kallsyms (warns through
 * *warning when addresses read as zero), printk_formats, saved_cmdlines,
 * uname, trace_clock, and per-CPU stats for cpus [0, ncpus).
 * Call after tracing stopped, so stats are final.
 */
struct tm_meta *tm_meta_collect(const char *tracefs, const char *instance, int ncpus);
/* A warning collected on the way (e.g. kallsyms addresses zero), or NULL. */
const char *tm_meta_warning(const struct tm_meta *meta);
void tm_meta_free(struct tm_meta *meta);

struct tm_write_opts {
	int			version;	/* 6 or 7 */
	enum tm_compression	compression;	/* v7 only; v6 is always none */
	int			level;		/* metadata compression level */
	const char		*clock;		/* trace clock name, e.g. "local" */
	uint32_t		page_size;	/* sub-buffer size */
};

/*
 * Write a complete trace.dat to out_fd strictly sequentially (works on a pipe):
 * metadata from meta, then the top buffer's CPU data taken from spools[cpu]
 * (NULL = no data for that CPU; spools were made with the matching
 * compression: none for v6/v7-none, zstd for v7-zstd). Uses copy_file_range
 * where the output allows.
 */
int tm_dat_write(int out_fd, const struct tm_meta *meta, struct tm_spool **spools,
		 int ncpus, const struct tm_write_opts *opts);

#endif /* TM_WRITE_H */
