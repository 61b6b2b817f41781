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
	uint32_t	chunks;		/* compressed chunks written */
};

/* Create (O_EXCL) the spool file at path. */
struct tm_spool *tm_spool_create(const char *path, const struct tm_spool_opts *opts);
/* Append one whole page (page_size bytes). Compresses when a chunk fills. */
int tm_spool_add_page(struct tm_spool *spool, const void *page);
/* Compress and write a partial last chunk. Call once, at stop. */
int tm_spool_finish(struct tm_spool *spool);
void tm_spool_get_stats(const struct tm_spool *spool, struct tm_spool_stats *st);
/* fd of the spool file, for the writer (read from offset 0). */
int tm_spool_fd(const struct tm_spool *spool);
const char *tm_spool_path(const struct tm_spool *spool);
/* Close; unlink the file too when remove is true. */
void tm_spool_destroy(struct tm_spool *spool, bool remove);

#endif /* TM_SPOOL_H */
