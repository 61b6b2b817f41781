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
#include "record/tm-codec.h"
#include "record/tm-spool.h"
#include "util/tm-progress.h"

struct tm_meta;

/*
 * Read everything the file needs from tracefs for the instance (NULL = top
 * level): header_page/header_event, all ftrace formats, the formats of every
 * event enabled in the instance (its set_event; ftrace events are always
 * stored in their own section), the whole /proc/kallsyms (tm_meta_warning()
 * says when its addresses read as zero; kptr_restrict is never changed),
 * printk_formats, saved_cmdlines, uname, trace_clock, and per-CPU stats for
 * cpus [0, ncpus). Call after tracing stopped, so stats are final. NULL +
 * message naming the file that could not be read.
 */
struct tm_meta *tm_meta_collect(const char *tracefs, const char *instance, int ncpus);
/* Selected trace clock ("local"), NULL if trace_clock had none. */
const char *tm_meta_clock(const struct tm_meta *meta);
/* A warning collected on the way (e.g. kallsyms addresses zero), or NULL. */
const char *tm_meta_warning(const struct tm_meta *meta);
/* Free the metadata (NULL is fine). */
void tm_meta_free(struct tm_meta *meta);

/* ---- trace.dat versions (dat-version.c) ---- */

/* True when this library writes (and reads) files of version: 6 and 7. Cannot fail. */
bool tm_dat_version_supported(int version);
/* True when files of version can hold compressed data (7; 6 is always uncompressed). */
bool tm_dat_version_compressed(int version);
/* The oldest and the newest version this library writes. Cannot fail. */
void tm_dat_version_range(int *oldest, int *newest);

struct tm_write_opts {
	int			version;	/* tm_dat_version_supported() */
	enum tm_compression	compression;	/* if tm_dat_version_compressed(); else none */
	int			level;		/* metadata compression level */
	const char		*clock;		/* trace clock name; NULL: the meta's */
	const char		*date;		/* DATE option text ("0x<hex> µs"), NULL: none */
	uint32_t		page_size;	/* sub-buffer size; 0: from header_page */
	/*
	 * A persistent (boot-mapped) instance's last_boot_info text, stored as
	 * the LAST_BOOT_INFO option (id 24, "<instance>:<text>") the way
	 * trace-cmd 3.4 does; NULL: no option.
	 */
	const char		*last_boot_instance;
	const char		*last_boot_info;
	const char		*note;		/* appended to the VERSION option, or NULL */
	/* NULL, or shown the bytes of spool files copied (done) and of output (written) */
	struct tm_meter		*meter;
};

/*
 * One CPU's trace data for tm_dat_write_data(): the bytes of its trace.dat
 * CPU blob without the chunk count in front (what a spool file holds),
 * either read from a file or handed out piece by piece from memory.
 */
struct tm_cpu_data {
	int		cpu;
	uint64_t	size;		/* bytes: chunk headers + frames, or raw pages */
	uint32_t	chunks;		/* compressed chunks (0 for raw pages) */
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

/*
 * Write a complete trace.dat to out_fd strictly sequentially (works on a pipe):
 * metadata from meta, then the top buffer's CPU data taken from spools[cpu]
 * (NULL = no data for that CPU; spools were made with the matching
 * compression: none for v6/v7-none, zstd for v7-zstd) and finished with
 * tm_spool_finish. Uses copy_file_range where the output allows, read/write
 * otherwise. File offsets count from the first byte written: a regular file
 * must be positioned at 0. Layout (spec §9.2 layout 1): v7 header, sections
 * 16-21, options (DONE -> second options), BUFFER section, options with the
 * BUFFER option, strings. v6: spec §3 with an options block. -1 + message
 * (bad options or spools: EINVAL; a failed read or write: its errno).
 */
int tm_dat_write(int out_fd, const struct tm_meta *meta, struct tm_spool **spools,
		 int ncpus, const struct tm_write_opts *opts);
/*
 * Like tm_dat_write() with the CPU data given as n sources (CPU ids below
 * ncpus, each once, any order; empty ones are left out of the file). The
 * caller vouches that the data matches the file's compression and page
 * size. -1 + message, also when a source hands out more or fewer bytes
 * than its size (EIO).
 */
int tm_dat_write_data(int out_fd, const struct tm_meta *meta, const struct tm_cpu_data *cpus,
		      int n, int ncpus, const struct tm_write_opts *opts);
/* A finished spool as a tm_dat_write_data() source for cpu (its fd from offset 0). */
void tm_spool_data(const struct tm_spool *spool, int cpu, struct tm_cpu_data *data);

#endif /* TM_WRITE_H */
