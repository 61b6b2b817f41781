// SPDX-License-Identifier: GPL-2.0-only
/*
 * spool-level.c - the zstd level of each chunk (tm-spool.h has the fill
 * thresholds). The fill now picks a step as before; then the projection
 * makes the step faster while the fill expected by the end of the chunk's
 * compression (fill now + the rate data is written to the ring x this step's
 * cost for the chunk's bytes) would pass FILL_HIGH. The reader thread does
 * not read while it compresses, so a slow level begun at a moderate fill
 * could otherwise run the ring over before it returns, and stepping back up
 * after a calm spell is only taken when the slower level would fit.
 *
 * The rate comes from the meta page's count of events written, over windows
 * of TM_LEVEL_RATE_WINDOW_NS, whatever the reader does meanwhile (the fill's
 * own growth falls to nothing across a fast chunk, and a rate learnt from it
 * once let a level-19 chunk run a ring over for a second). A step not yet
 * measured is costed from a measured one by zstd's relative speeds, and
 * the first chunk of a slow level (5 and up) goes at -1 so that one is: a
 * slow level is only tried once the projection says it fits.
 */
#include "spool-level.h"
#include "tm-spool.h"
#include "ring.h"
#include "dat/codec.h"

void tm_level_init(struct tm_level_policy *p, int level, bool adaptive)
{
	*p = (struct tm_level_policy){ .level = level, .adaptive = adaptive };
}

int tm_level_of_step(const struct tm_level_policy *p, int step)
{
	int level = p->level;

	if (step >= 1 && level > TM_SPOOL_FAST_LEVEL)
		level = TM_SPOOL_FAST_LEVEL;
	if (step >= 2)
		level = tm_codec_min_level();
	return level;
}

/* A new figure: taken at once when larger, halfway when smaller (slow to trust a calm). */
static double follow(double old, double now)
{
	return now > old ? now : (old + now) / 2;
}

/*
 * The rate: taken at once when larger, a sixteenth of the way when smaller,
 * so a burst's rate falls to a tenth only after ~36 windows (0.36 s): a slow
 * level's chunk can take that long, and bursts come back (a build beside the
 * recording sends them every few hundred ms).
 */
static double follow_rate(double old, double now)
{
	return now > old ? now : old - (old - now) / 16;
}

void tm_level_sample(struct tm_level_policy *p, const struct tm_ring_fill *fill,
		     uint64_t now_ns)
{
	p->fill = fill->permille;
	p->fill_ns = now_ns;
	if (!p->win_written || fill->written < p->win_written || now_ns < p->win_ns) {
		p->win_ns = now_ns;	/* first sample, or the estimate moved back: anew */
		p->win_written = fill->written;
		return;
	}
	if (now_ns - p->win_ns < TM_LEVEL_RATE_WINDOW_NS)
		return;
	p->rate = follow_rate(p->rate, (fill->written - p->win_written) /
					 (double)(now_ns - p->win_ns));
	p->win_ns = now_ns;
	p->win_written = fill->written;
}

/*
 * zstd's compression time per byte at a level, relative to level 1, roughly
 * (1 MiB chunks of trace pages, this VM): only the ratio between two levels
 * is used, to cost a level before it was ever measured.
 */
static double relative_cost(int level)
{
	static const double by_level[] = {
		1, 1, 1, 1.5, 1.5, 4, 8, 16, 16, 16,		/* 0-9 */
		25, 25, 25, 40, 40, 40, 150, 150, 400, 400,	/* 10-19 */
		800, 800, 800,					/* 20-22 */
	};

	if (level <= tm_codec_min_level())
		return 0.2;
	if (level < 0)
		return 0.5;
	return level < (int)(sizeof(by_level) / sizeof(by_level[0])) ? by_level[level] : 800;
}

double tm_level_cost(const struct tm_level_policy *p, int step)
{
	if (p->cost[step])
		return p->cost[step];
	for (int s = 0; s < TM_LEVEL_STEPS; s++)
		if (p->cost[s])
			return p->cost[s] * relative_cost(tm_level_of_step(p, step)) /
			       relative_cost(tm_level_of_step(p, s));
	return 0;
}

/* Writeback costs about what write(2)'s copy did: the price counts both. */
#define TM_LEVEL_WRITEBACK	2.0

/* Bytes written per raw byte at a step: measured, else what a neighbour step suggests. */
static double step_ratio(const struct tm_level_policy *p, int step)
{
	if (p->ratio[step])
		return p->ratio[step];
	if (tm_level_of_step(p, step) <= tm_codec_min_level())
		return 1.0;		/* zstd's lowest level: raw blocks, near enough */
	for (int s = 0; s < TM_LEVEL_STEPS; s++)
		if (p->ratio[s] && tm_level_of_step(p, s) > tm_codec_min_level())
			return p->ratio[s];
	return 0;
}

double tm_level_price(const struct tm_level_policy *p, int step)
{
	double cost = tm_level_cost(p, step);

	if (!cost)
		return 0;
	return cost + TM_LEVEL_WRITEBACK * p->write_cost * step_ratio(p, step);
}

void tm_level_written(struct tm_level_policy *p, size_t raw, size_t written, uint64_t write_ns)
{
	if (!raw || !written)
		return;
	p->ratio[p->step] = (double)written / (double)raw;
	p->write_cost = p->write_cost ? (p->write_cost + (double)write_ns / written) / 2 :
					(double)write_ns / written;
}

/* Is a step known to cost more than a slower one? Then the slower one goes. */
static bool dearer(const struct tm_level_policy *p, int step, int slower)
{
	double a = tm_level_price(p, step), b = tm_level_price(p, slower);

	return a && b && a >= b;
}

/* The step the fill alone picks (the thresholds of tm-spool.h). */
static void step_from_fill(struct tm_level_policy *p, unsigned int fill, unsigned int last)
{
	if (fill >= TM_SPOOL_FILL_FULL) {
		p->step = 2;
		p->calm = 0;
	} else if (fill >= TM_SPOOL_FILL_HIGH || (fill >= TM_SPOOL_FILL_MID && fill > last)) {
		if (p->step < 2)
			p->step++;
		p->calm = 0;
	} else if (fill <= TM_SPOOL_FILL_LOW && p->step > 0) {
		if (++p->calm >= TM_SPOOL_FILL_CALM) {
			p->step--;
			p->calm = 0;
		}
	} else {
		p->calm = 0;
	}
}

/* Would a chunk of raw bytes at this step leave the ring past FILL_HIGH? */
static bool projected_over(const struct tm_level_policy *p, int step, size_t raw)
{
	double cost = tm_level_price(p, step);

	if (!p->rate || !cost)
		return false;
	return p->fill + p->rate * cost * (double)raw >= TM_SPOOL_FILL_HIGH;
}

static bool projection_known(const struct tm_level_policy *p)
{
	return p->rate && tm_level_price(p, 0);
}

/* The fill expected once a chunk of raw bytes at a step is written. */
static double projected_fill(const struct tm_level_policy *p, int step, size_t raw)
{
	return p->fill + p->rate * tm_level_price(p, step) * (double)raw;
}

/*
 * With the rate and the costs known, the projection alone picks: the
 * slowest step whose chunk leaves the ring below FILL_HIGH. When none does
 * (the ring is late, not the compressor slow: a reader not scheduled for a
 * while finds it full), the slowest step within TM_LEVEL_GROWTH_MIN of the
 * lowest projected fill: a faster level that saves the ring less than that
 * only writes more bytes (perf bench messaging, 200 tasks a CPU beside the
 * reader: files 3.9x trace-cmd's when the fill alone stepped down).
 */
static int projected_step(struct tm_level_policy *p, size_t raw)
{
	double best = 1e300;
	int step, prev = p->step;

	for (step = 0; step < TM_LEVEL_STEPS; step++) {
		if (step && dearer(p, step, step - 1))
			break;
		if (projected_fill(p, step, raw) < TM_SPOOL_FILL_HIGH)
			goto out;
		if (projected_fill(p, step, raw) < best)
			best = projected_fill(p, step, raw);
	}
	for (step = 0; step < TM_LEVEL_STEPS - 1; step++)
		if (projected_fill(p, step, raw) <= best + TM_LEVEL_GROWTH_MIN)
			break;
out:
	p->step = step;
	p->calm = 0;
	p->vetoed += step > prev;
	return step;
}

int tm_level_pick(struct tm_level_policy *p, size_t raw)
{
	unsigned int last = p->last_fill;
	bool vetoed = false;

	p->last_fill = p->fill;
	if (!p->adaptive) {
		p->step = 0;
		return p->level;
	}
	if (p->probe)		/* the probe's step said nothing about the fill */
		p->step = 0;
	if (p->begun && projection_known(p)) {
		p->probe = false;
		return tm_level_of_step(p, projected_step(p, raw));
	}
	step_from_fill(p, p->fill, last);
	/*
	 * A slow level's first chunk at -1 instead: a cost to scale the slower
	 * steps' from (levels up to 4 cost about what one chunk of -1 does)
	 */
	p->probe = !p->begun && p->step < 1 && relative_cost(p->level) >= 4;
	if (p->probe)
		p->step = 1;
	while (p->step < TM_LEVEL_STEPS - 1 && projected_over(p, p->step, raw) &&
	       !dearer(p, p->step + 1, p->step)) {
		p->step++;
		p->calm = 0;
		vetoed = true;
	}
	/* a faster step whose bytes cost more than its speed saves helps nobody */
	while (p->step > 0 && dearer(p, p->step, p->step - 1))
		p->step--;
	p->vetoed += vetoed;
	return tm_level_of_step(p, p->step);
}

bool tm_level_may_stop(const struct tm_level_policy *p)
{
	return p->adaptive && relative_cost(tm_level_of_step(p, p->step)) >= 4;
}

bool tm_level_overdue(const struct tm_level_policy *p, uint64_t now_ns)
{
	if (!p->rate || now_ns < p->fill_ns)
		return false;
	return p->fill + p->rate * (double)(now_ns - p->fill_ns) >= TM_SPOOL_FILL_HIGH;
}

int tm_level_stopped(struct tm_level_policy *p, size_t done, uint64_t start_ns, uint64_t end_ns)
{
	tm_level_done(p, done, start_ns, end_ns);
	p->step = TM_LEVEL_STEPS - 1;
	p->calm = 0;
	p->probe = false;
	p->stopped++;
	return tm_level_of_step(p, p->step);
}

void tm_level_done(struct tm_level_policy *p, size_t raw, uint64_t start_ns, uint64_t end_ns)
{
	if (!raw || end_ns < start_ns)
		return;
	p->cost[p->step] = follow(p->cost[p->step], (double)(end_ns - start_ns) / (double)raw);
	p->begun = true;
}
