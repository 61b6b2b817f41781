/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-spool.h - one CPU's recorded pages, compressed into chunks of whole pages
 * and appended to a spool file beside the output while recording (spool.c).
 * At stop, the trace.dat writer moves the spool bytes into the file.
 */
#ifndef TM_SPOOL_H
#define TM_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tm-codec.h"

struct tm_spool;

/*
 * Defaults, measured on real 4 KiB pages (2-vCPU VM, zstd 1.5.4, best of 5):
 *   sched only, 560 pages:        level 1/64 pages: ratio 5.99, ~10.6 us/page;
 *                                 level 3/64: 6.20, ~15 us; level 1/16: 5.80
 *   sched+irq+timer+syscalls, 2058 pages: level 1/64: 10.6, ~6.6 us/page;
 *                                 level 3/64: 9.75, ~10.5 us; level 1/16: 10.25
 * Level 3 gains <= 4% for ~40% more CPU; chunks past 64 pages gain nothing.
 */
#define TM_SPOOL_DEFAULT_LEVEL		1
#define TM_SPOOL_DEFAULT_CHUNK_PAGES	64

struct tm_spool_opts {
	enum tm_compression	compression;	/* NONE: raw pages (v6, v7 none) */
	int			level;		/* zstd level */
	size_t			page_size;	/* sub-buffer size */
	size_t			chunk_pages;	/* pages per compressed chunk */
};

struct tm_spool_stats {
	uint64_t	pages;		/* pages appended */
	uint64_t	raw_bytes;	/* pages * page_size */
	uint64_t	file_bytes;	/* bytes in the spool file (chunk headers included) */
	uint32_t	chunks;		/* compressed chunks written (0 for none) */
};

/*
 * Create (O_EXCL, mode 0600) the spool file at path. Spool file contents:
 * compressed: chunks back to back, each u32 compressed size, u32 uncompressed
 * size (host order), one independent zstd frame of whole pages; none: the raw
 * pages. Either way it is exactly a trace.dat CPU blob minus the chunk count.
 * NULL + message naming the path (EEXIST: a spool is left from an earlier run).
 */
struct tm_spool *tm_spool_create(const char *path, const struct tm_spool_opts *opts);
/* Append one whole page (page_size bytes); compresses when a chunk fills. -1 + message. */
int tm_spool_add_page(struct tm_spool *spool, const void *page);
/* Compress and write a partial last chunk. Call once, at stop. -1 + message. */
int tm_spool_finish(struct tm_spool *spool);
/* Bytes written so far, read while another thread appends (live status). */
uint64_t tm_spool_file_bytes(const struct tm_spool *s);
/* Pages, bytes and chunks so far. */
void tm_spool_get_stats(const struct tm_spool *spool, struct tm_spool_stats *st);
/* fd of the spool file, for the writer (read from offset 0). */
int tm_spool_fd(const struct tm_spool *spool);
/* The spool file's path. */
const char *tm_spool_path(const struct tm_spool *spool);
/* How its chunks are stored. */
enum tm_compression tm_spool_compression(const struct tm_spool *spool);
/* Size of the pages it holds. */
size_t tm_spool_page_size(const struct tm_spool *spool);
/* True once tm_spool_finish succeeded (the writer requires it). */
bool tm_spool_finished(const struct tm_spool *spool);
/* Close; unlink the file too when remove is true (NULL is fine). */
void tm_spool_destroy(struct tm_spool *spool, bool remove);

#endif /* TM_SPOOL_H */
