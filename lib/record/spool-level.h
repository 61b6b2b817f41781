/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spool-level.h - the zstd level of each chunk of one CPU's spool, from how
 * full its ring is now and how full it will be by the time the chunk is
 * compressed (spool-level.c). Times are passed in, so tests choose them.
 */
#ifndef TM_SPOOL_LEVEL_H
#define TM_SPOOL_LEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/internal.h"
#include "tm-spool.h"
#include "ring.h"

/* The steps: 0 the chosen level, 1 zstd's -1, 2 its lowest level. */
#define TM_LEVEL_STEPS	3

struct tm_level_policy {
	int		level;			/* the chosen level */
	bool		adaptive;		/* false: always level */
	unsigned int	fill;			/* latest ring fill, per mille */
	uint64_t	fill_ns;		/* when it was sampled */
	unsigned int	last_fill;		/* fill at the last chunk */
	int		step;			/* step of the last chunk */
	int		calm;			/* chunks in a row at a low fill */
	/* projection */
	double		rate;			/* data written to the ring, per mille/ns; 0: unknown */
	uint64_t	win_ns;			/* the rate's current window began then, */
	double		win_written;		/* when this much had been written; 0: not begun */
	double		cost[TM_LEVEL_STEPS];	/* ns per raw byte at each step; 0: unknown */
	/* what the bytes a step produces cost (the spool's write(2), then writeback) */
	double		write_cost;		/* ns per byte written; 0: unknown */
	double		ratio[TM_LEVEL_STEPS];	/* bytes written per raw byte; 0: unknown */
	uint32_t	vetoed;			/* chunks made faster by the projection */
	uint32_t	stopped;		/* chunks stopped part way, done again faster */
	bool		begun;			/* a chunk was compressed */
	bool		probe;			/* the last chunk measured a cost, not a fall-behind */
};

TM_HIDDEN void tm_level_init(struct tm_level_policy *p, int level, bool adaptive);
/* The level of a step (clamped to zstd's range through tm_codec_min_level()). */
TM_HIDDEN int tm_level_of_step(const struct tm_level_policy *p, int step);
/*
 * A faster step must keep the ring at least this much emptier (per mille,
 * projected) than a slower one to be taken when no step fits.
 */
#define TM_LEVEL_GROWTH_MIN	10.0
/* The rate is measured over windows of at least this long. */
#define TM_LEVEL_RATE_WINDOW_NS	(10 * 1000 * 1000)

/* A fill sample taken at now_ns, after a GET_READER. */
TM_HIDDEN void tm_level_sample(struct tm_level_policy *p, const struct tm_ring_fill *fill,
			       uint64_t now_ns);
/* ns per raw byte expected at a step: measured, or scaled from a measured step; 0: unknown. */
TM_HIDDEN double tm_level_cost(const struct tm_level_policy *p, int step);
/*
 * ns per raw byte a step costs the machine: compressing (tm_level_cost())
 * plus writing what it produces, twice (write(2)'s copy into the page
 * cache, then writeback's); 0: unknown. A faster level that writes more
 * can cost more than it saves: on trace pages zstd's lowest level is ten
 * times the bytes of -1 at about the speed of level 1 (docs/PERFORMANCE.md).
 */
TM_HIDDEN double tm_level_price(const struct tm_level_policy *p, int step);
/* The chunk picked last became written bytes, whose write(2) took write_ns. */
TM_HIDDEN void tm_level_written(struct tm_level_policy *p, size_t raw, size_t written,
				uint64_t write_ns);
/* The level for the next chunk of raw bytes; the chunk's step is p->step. */
TM_HIDDEN int tm_level_pick(struct tm_level_policy *p, size_t raw);
/*
 * A chunk at the step picked last may be stopped part way (tm_level_overdue()):
 * a slow level's, whose chunk spans many time slices on a loaded machine.
 */
TM_HIDDEN bool tm_level_may_stop(const struct tm_level_policy *p);
/* Is the ring projected past FILL_HIGH by now_ns (the last fill plus the rate since)? */
TM_HIDDEN bool tm_level_overdue(const struct tm_level_policy *p, uint64_t now_ns);
/*
 * The chunk picked last was stopped after done raw bytes in [start_ns, end_ns):
 * its step's cost is learnt from them, and the chunk is to go again at the
 * lowest step; returns that level.
 */
TM_HIDDEN int tm_level_stopped(struct tm_level_policy *p, size_t done, uint64_t start_ns,
			       uint64_t end_ns);
/* The chunk picked last took [start_ns, end_ns) to compress. */
TM_HIDDEN void tm_level_done(struct tm_level_policy *p, size_t raw, uint64_t start_ns,
			     uint64_t end_ns);

#endif
