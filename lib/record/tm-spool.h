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
#include "dat/tm-codec.h"

struct tm_spool;

/*
 * A CPU's ring as of its last GET_READER (tm_ring_fill()), in per mille of
 * its data capacity: how much is unread now, and how much was ever written
 * (it only grows; its growth over time is the rate the ring fills at).
 */
struct tm_ring_fill {
	unsigned int	permille;
	double		written;
};

/*
 * Defaults (docs/PERFORMANCE.md has the measurements): zstd level 1 on 1 MiB
 * chunks. On real sched and raw_syscalls pages, 1 MiB chunks compress 2-5%
 * smaller and 15-25% faster than 128 KiB ones (fewer context resets);
 * 4 MiB gain < 1% more for four times the memory.
 */
#define TM_SPOOL_DEFAULT_LEVEL		1
#define TM_SPOOL_DEFAULT_CHUNK_BYTES	(1024 * 1024)

/*
 * Adaptive level: as each chunk is compressed, the CPU's ring-buffer fill
 * level (per mille) says whether the compressor keeps up. One step cheaper
 * (the chosen level, then zstd's -1, then its lowest level, nearly raw
 * blocks) when the ring is past FILL_HIGH, or past FILL_MID and fuller than
 * at the last chunk; straight to the lowest past FILL_FULL. One step back
 * after FILL_CALM chunks in a row at or below FILL_LOW. The readers are
 * woken at buffer_percent (50 by default), so a ring that keeps up is at or
 * below half full as chunks are compressed: MID and HIGH sit above that, and
 * "calm" is at or below it (a stricter calm level was never reached between
 * wakeups, and the fallback stuck at the lowest level).
 * Then the projection (spool-level.c): while the fill expected by the end of
 * the chunk's compression (fill now + the rate events are written to the ring
 * x this level's cost) passes FILL_HIGH, one step faster.
 */
#define TM_SPOOL_FILL_FULL		900
#define TM_SPOOL_FILL_HIGH		800
#define TM_SPOOL_FILL_MID		650
#define TM_SPOOL_FILL_LOW		500
#define TM_SPOOL_FILL_CALM		4
#define TM_SPOOL_FAST_LEVEL		(-1)
/*
 * A slow level's chunk is compressed this much at a time; between two steps
 * the projected fill may stop it (spool.c). zstd's block size: its steps cost
 * nothing over a chunk in one go.
 */
#define TM_SPOOL_STEP_BYTES		(128 * 1024)

/*
 * Where a spool without a file hands its chunks (the flight window): one
 * call per chunk with its bytes as a spool file would hold them (u32
 * compressed size, u32 uncompressed size, the frame; or the raw pages) and
 * the number of pages in it. The bytes are valid during the call only.
 */
struct tm_chunk_sink {
	int	(*chunk)(void *ctx, const void *data, size_t len, uint32_t pages);
	void	*ctx;
};

struct tm_spool_opts {
	enum tm_compression	compression;	/* NONE: raw pages (v6, v7 none) */
	int			level;		/* zstd level */
	bool			adaptive;	/* cheaper levels while the ring fills up */
	size_t			page_size;	/* sub-buffer size */
	size_t			chunk_pages;	/* pages per compressed chunk */
	const struct tm_chunk_sink *sink;	/* NULL: a spool file; else chunks go there */
	uint64_t		(*clock_ns)(void);	/* NULL: CLOCK_MONOTONIC (tests pass their own) */
	/*
	 * What compressing and writing a chunk cost, in the thread's CPU time:
	 * a reader the scheduler keeps waiting (200 busy tasks a CPU beside it)
	 * takes hundreds of ms of wall time for a 1 ms chunk at any level, and
	 * a wall-clock cost would blame the level. NULL: the thread's CPU
	 * clock, or clock_ns when a test passes that.
	 */
	uint64_t		(*cpu_ns)(void);
	/*
	 * A chunk is written once its first page is this old, full or not, so
	 * that a killed recorder loses at most that much of what it read
	 * (tm_spool_tick()); 0: only full chunks are written.
	 */
	uint64_t		max_age_ns;
};

struct tm_spool_stats {
	uint64_t	pages;		/* pages appended */
	uint64_t	raw_bytes;	/* pages * page_size */
	uint64_t	file_bytes;	/* bytes in the spool file (chunk headers included) */
	uint32_t	chunks;		/* compressed chunks written (0 for none) */
	uint32_t	fast_chunks;	/* of them, at a level below the chosen one */
	uint32_t	vetoed_chunks;	/* of them, made faster by the projected fill */
	uint32_t	stopped_chunks;	/* of them, stopped part way and done again faster */
	int		lowest_level;	/* the lowest level used (valid if fast_chunks) */
	uint64_t	last_ts;	/* time of its last record (of the chunks written), 0: none */
	uint64_t	records;	/* tm_spool_check_file(): the records in it */
};

#endif /* TM_SPOOL_H */
