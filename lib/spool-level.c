// SPDX-License-Identifier: GPL-2.0-only
/*
 * spool-level.c - the zstd level of each chunk (tm-spool.h has the fill
 * thresholds). The fill now picks a step as before; then the projection
 * makes the step faster while the fill expected by the end of the chunk's
 * compression (fill now + the ring's growth rate while the last chunk was
 * compressed x this step's measured cost for the chunk's bytes) would pass
 * FILL_HIGH. The reader thread does not read while it compresses, so a slow
 * level begun at a moderate fill could otherwise run the ring over before it
 * returns, and stepping back up after a calm spell is only taken when the
 * slower level would fit.
 */
#include "spool-level.h"
#include "tm-codec.h"
#include "tm-spool.h"

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

void tm_level_sample(struct tm_level_policy *p, unsigned int permille, uint64_t now_ns)
{
	if (p->pending && now_ns > p->pend_ns) {
		double grew = permille > p->pend_fill ? permille - p->pend_fill : 0;

		/* at 1000 the ring ran full: the rate is at least this */
		p->rate = follow(p->rate, grew / (double)(now_ns - p->pend_ns));
		p->pending = false;
	}
	p->fill = permille;
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
	double cost = p->cost[step];

	if (!p->rate || !cost)
		return false;
	return p->fill + p->rate * cost * (double)raw >= TM_SPOOL_FILL_HIGH;
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
	step_from_fill(p, p->fill, last);
	while (p->step < TM_LEVEL_STEPS - 1 && projected_over(p, p->step, raw)) {
		p->step++;
		p->calm = 0;
		vetoed = true;
	}
	p->vetoed += vetoed;
	return tm_level_of_step(p, p->step);
}

void tm_level_done(struct tm_level_policy *p, size_t raw, uint64_t start_ns, uint64_t end_ns)
{
	if (!raw || end_ns < start_ns)
		return;
	p->cost[p->step] = follow(p->cost[p->step], (double)(end_ns - start_ns) / (double)raw);
	p->pending = true;
	p->pend_fill = p->last_fill;
	p->pend_ns = start_ns;
}
