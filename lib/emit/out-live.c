// SPDX-License-Identifier: GPL-2.0-only
/*
 * out-live.c - stream's page sink and live merge: per-CPU page queues filled by
 * the recorder threads, decoded and merged by timestamp on the main thread,
 * printed up to the point no page still in the ring buffers can precede.
 * merge.c's heap serves files, whose sources end; here a CPU with nothing
 * queued is not at its end, and each record printed is the smallest head
 * of the CPUs' queues (a linear scan) that is under that bound.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/internal.h"
#include "tm-live.h"
#include "emit-internal.h"
#include "dat/dat-format.h"
#include "events/events-internal.h"
#include "dat/page.h"

#define TM_LIVE_MAX_BYTES	(32u << 20)
#define TM_LIVE_STEP_RECORDS	65536	/* per step, so the caller sees signals */

/* A copy of one page; records point into data until all are printed. */
struct live_page {
	struct live_page	*next;
	uint64_t		arrival;	/* CLOCK_MONOTONIC ns at page() */
	uint32_t		left;		/* records not printed yet */
	uint8_t			data[];
};

struct live_rec {
	uint64_t		ts;
	const void		*data;
	uint32_t		size;
	int64_t			missed;
	struct live_page	*page;
};

struct live_cpu {
	/* shared with the CPU's recorder thread, under lock */
	pthread_mutex_t		lock;
	pthread_cond_t		room;
	struct live_page	*qhead, *qtail;	/* queued, not decoded yet */
	struct live_page	*free;		/* recycled copies */
	size_t			bytes;		/* queued + held */
	bool			waiting;	/* the thread waits for room */
	uint64_t		prev_flush, last_flush;
	struct tm_live_cpu_stats st;
	/* main thread only */
	struct live_page	*hhead, *htail;	/* decoded, records pending */
	struct live_rec		*recs;		/* ring of pending records */
	size_t			rhead, rcount, rcap;
	int64_t			carry_missed;	/* lost before a page without records */
	struct tm_live_shown	shown;
};

struct tm_live {
	struct tm_live_opts	o;
	struct live_cpu		*cpus;
	pthread_mutex_t		wake_lock;
	pthread_cond_t		wake;
	uint64_t		rounds, seen_rounds;
	atomic_bool		unbounded;
	atomic_bool		discard;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- the sink: recorder threads ---- */

static struct live_page *take_room(struct tm_live *lv, struct live_cpu *c)
{
	struct live_page *p;

	pthread_mutex_lock(&c->lock);
	while (c->bytes + lv->o.page_size > lv->o.max_bytes && !atomic_load(&lv->unbounded) &&
	       !atomic_load(&lv->discard)) {
		/* the ring buffer keeps filling meanwhile: an overrun shows as lost events */
		if (!c->waiting)
			c->st.waits++;
		c->waiting = true;
		pthread_mutex_lock(&lv->wake_lock);
		lv->rounds++;
		pthread_cond_signal(&lv->wake);
		pthread_mutex_unlock(&lv->wake_lock);
		pthread_cond_wait(&c->room, &c->lock);
	}
	c->waiting = false;
	if (atomic_load(&lv->discard)) {
		pthread_mutex_unlock(&c->lock);
		return NULL;
	}
	c->bytes += lv->o.page_size;
	c->st.pages++;
	p = c->free;
	if (p)
		c->free = p->next;
	pthread_mutex_unlock(&c->lock);
	if (!p)
		p = malloc(sizeof(*p) + lv->o.page_size);
	return p;
}

static int live_page(void *ctx, int cpu, const void *page, size_t size)
{
	struct tm_live *lv = ctx;
	struct live_cpu *c;
	struct live_page *p;

	if (cpu < 0 || cpu >= lv->o.ncpus || size != lv->o.page_size)
		return tm_failx(EINVAL, "cpu%d: live page of %zu bytes, expected %zu", cpu,
				size, lv->o.page_size);
	c = &lv->cpus[cpu];
	if (atomic_load(&lv->discard))
		return 0;
	p = take_room(lv, c);
	if (!p) {
		if (atomic_load(&lv->discard))
			return 0;
		return tm_fail(ENOMEM, "cpu%d: live page", cpu);
	}
	memcpy(p->data, page, size);
	p->next = NULL;
	p->left = 0;
	p->arrival = now_ns();
	pthread_mutex_lock(&c->lock);
	if (c->qtail)
		c->qtail->next = p;
	else
		c->qhead = p;
	c->qtail = p;
	pthread_mutex_unlock(&c->lock);
	return 0;
}

static int live_flush(void *ctx, int cpu)
{
	struct tm_live *lv = ctx;
	struct live_cpu *c = &lv->cpus[cpu];

	pthread_mutex_lock(&c->lock);
	c->prev_flush = c->last_flush;
	c->last_flush = now_ns();
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_lock(&lv->wake_lock);
	lv->rounds++;
	pthread_cond_signal(&lv->wake);
	pthread_mutex_unlock(&lv->wake_lock);
	return 0;
}

struct tm_page_sink tm_live_sink(struct tm_live *lv)
{
	return (struct tm_page_sink){ .page = live_page, .flush = live_flush, .ctx = lv };
}

void tm_live_wait(struct tm_live *lv, int timeout_ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&lv->wake_lock);
	while (lv->rounds == lv->seen_rounds)
		if (pthread_cond_timedwait(&lv->wake, &lv->wake_lock, &ts))
			break;
	lv->seen_rounds = lv->rounds;
	pthread_mutex_unlock(&lv->wake_lock);
}

void tm_live_set_unbounded(struct tm_live *lv)
{
	atomic_store(&lv->unbounded, true);
	for (int cpu = 0; cpu < lv->o.ncpus; cpu++) {
		pthread_mutex_lock(&lv->cpus[cpu].lock);
		pthread_cond_broadcast(&lv->cpus[cpu].room);
		pthread_mutex_unlock(&lv->cpus[cpu].lock);
	}
}

void tm_live_discard(struct tm_live *lv)
{
	atomic_store(&lv->discard, true);
	tm_live_set_unbounded(lv);
}

void tm_live_get_stats(struct tm_live *lv, int cpu, struct tm_live_cpu_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (cpu < 0 || cpu >= lv->o.ncpus)
		return;
	pthread_mutex_lock(&lv->cpus[cpu].lock);
	*st = lv->cpus[cpu].st;
	pthread_mutex_unlock(&lv->cpus[cpu].lock);
}

void tm_live_get_shown(const struct tm_live *lv, int cpu, struct tm_live_shown *shown)
{
	memset(shown, 0, sizeof(*shown));
	if (cpu >= 0 && cpu < lv->o.ncpus)
		*shown = lv->cpus[cpu].shown;
}

/* ---- decoding: main thread ---- */

static int push_rec(struct live_cpu *c, const struct live_rec *r)
{
	if (c->rcount == c->rcap) {
		size_t cap = c->rcap ? c->rcap * 2 : 1024;
		struct live_rec *n = malloc(cap * sizeof(*n));

		if (!n)
			return tm_fail(ENOMEM, "live records");
		for (size_t i = 0; i < c->rcount; i++)
			n[i] = c->recs[(c->rhead + i) % c->rcap];
		free(c->recs);
		c->recs = n;
		c->rcap = cap;
		c->rhead = 0;
	}
	c->recs[(c->rhead + c->rcount) % c->rcap] = *r;
	c->rcount++;
	return 0;
}

/* Back to the free list; wakes the recorder thread if it waits for room. */
static void release_page(struct tm_live *lv, struct live_cpu *c, struct live_page *p)
{
	pthread_mutex_lock(&c->lock);
	p->next = c->free;
	c->free = p;
	c->bytes -= lv->o.page_size;
	if (c->waiting)
		pthread_cond_signal(&c->room);
	pthread_mutex_unlock(&c->lock);
}

static int64_t add_missed(int64_t a, int64_t b)
{
	return a < 0 || b < 0 ? -1 : a + b;
}

static int decode_page(struct tm_live *lv, struct live_cpu *c, int cpu, struct live_page *p)
{
	struct live_rec r = { .page = p };
	struct tm_page pg;
	struct tm_rec rec;
	uint64_t n = 0;
	int ret;

	if (tm_page_init(&pg, p->data, lv->o.page_size, sizeof(unsigned long),
			 tm_host_is_big_endian()))
		return tm_fail_prefix("cpu%d", cpu);
	if (pg.lost) {
		c->carry_missed = add_missed(c->carry_missed, pg.lost);
		pthread_mutex_lock(&c->lock);
		c->st.lost_pages++;
		if (pg.lost > 0)
			c->st.lost_stored += pg.lost;
		pthread_mutex_unlock(&c->lock);
	}
	while ((ret = tm_page_next(&pg, &rec)) > 0) {
		r.ts = rec.ts;
		r.data = rec.data;
		r.size = rec.size;
		r.missed = c->carry_missed;
		c->carry_missed = 0;
		if (push_rec(c, &r))
			return -1;
		n++;
	}
	if (ret < 0)
		return tm_fail_prefix("cpu%d", cpu);
	pthread_mutex_lock(&c->lock);
	c->st.records += n;
	pthread_mutex_unlock(&c->lock);
	p->left = (uint32_t)n;
	p->next = NULL;
	if (!n) {
		release_page(lv, c, p);
		return 0;
	}
	if (c->htail)
		c->htail->next = p;
	else
		c->hhead = p;
	c->htail = p;
	return 0;
}

/* Take the CPU's queue and decode it; *flushed gets its previous-round time. */
static int take_queue(struct tm_live *lv, int cpu, uint64_t *flushed, bool *waiting)
{
	struct live_cpu *c = &lv->cpus[cpu];
	struct live_page *p, *next;
	int ret = 0;

	pthread_mutex_lock(&c->lock);
	p = c->qhead;
	c->qhead = c->qtail = NULL;
	*flushed = c->prev_flush;
	*waiting = c->waiting;
	pthread_mutex_unlock(&c->lock);
	for (; p; p = next) {
		next = p->next;
		if (ret || decode_page(lv, c, cpu, p)) {
			release_page(lv, c, p);
			ret = -1;
		}
	}
	return ret;
}

/* ---- merging and printing ---- */

struct live_bounds {
	uint64_t	min1, min2;	/* smallest and second smallest previous flush */
	int		min_cpu;
	bool		waiting;	/* some thread waits for room: print regardless */
};

/* A record of cpu from a page that arrived at a may print once bound(cpu) >= a. */
static uint64_t bound_of(const struct live_bounds *b, int cpu)
{
	return cpu == b->min_cpu ? b->min2 : b->min1;
}

static int collect(struct tm_live *lv, struct live_bounds *b)
{
	int ret = 0;

	b->min1 = b->min2 = UINT64_MAX;
	b->min_cpu = -1;
	b->waiting = false;
	for (int cpu = 0; cpu < lv->o.ncpus; cpu++) {
		uint64_t f;
		bool w;

		if (!lv->o.cpus[cpu])
			continue;
		if (take_queue(lv, cpu, &f, &w))
			ret = -1;
		b->waiting |= w;
		if (f < b->min1) {
			b->min2 = b->min1;
			b->min1 = f;
			b->min_cpu = cpu;
		} else if (f < b->min2) {
			b->min2 = f;
		}
	}
	return ret;
}

/* The CPU whose next record comes first, or -1. */
static int next_cpu(struct tm_live *lv)
{
	uint64_t best = 0;
	int best_cpu = -1;

	for (int cpu = 0; cpu < lv->o.ncpus; cpu++) {
		struct live_cpu *c = &lv->cpus[cpu];
		uint64_t ts;

		if (!c->rcount)
			continue;
		ts = c->recs[c->rhead].ts;
		if (best_cpu < 0 || ts < best) {
			best = ts;
			best_cpu = cpu;
		}
	}
	return best_cpu;
}

/* A record not printed: keep its loss visible, it moves to the CPU's next record. */
static void pass_missed(struct live_cpu *c, int64_t missed)
{
	c->carry_missed = add_missed(c->carry_missed, missed);
	if (c->rcount > 1) {
		struct live_rec *n = &c->recs[(c->rhead + 1) % c->rcap];

		n->missed = add_missed(n->missed, c->carry_missed);
		c->carry_missed = 0;
	}
}

static int print_one(struct tm_live *lv, int cpu)
{
	struct live_cpu *c = &lv->cpus[cpu];
	struct live_rec *r = &c->recs[c->rhead];
	struct tm_event_rec ev = {
		.ts = r->ts, .data = r->data, .size = r->size, .cpu = cpu, .missed = r->missed,
	};
	struct live_page *p = r->page;
	int ret = 0, quiet = lv->o.names ? tm_names_see(lv->o.names, &ev) : 0;

	if (quiet < 0) {
		ret = -1;
	} else if (!quiet && tm_filter_pass(lv->o.filter, &ev)) {
		ret = tm_evout_event(lv->o.output, &ev);
		c->shown.printed += !ret;
	} else {
		c->shown.hidden++;
		if (r->missed)
			pass_missed(c, r->missed);
	}
	c->rhead = (c->rhead + 1) % c->rcap;
	c->rcount--;
	if (--p->left == 0) {
		/* records print in page order: a finished page is the oldest held */
		c->hhead = p->next;
		if (!c->hhead)
			c->htail = NULL;
		release_page(lv, c, p);
	}
	return ret;
}

/* At the end: losses after a CPU's last record still get their line. */
static int trailing_losses(struct tm_live *lv, unsigned int *printed)
{
	for (int cpu = 0; cpu < lv->o.ncpus; cpu++) {
		struct live_cpu *c = &lv->cpus[cpu];

		if (!c->carry_missed)
			continue;
		if (tm_evout_lost(lv->o.output, 0, cpu, c->carry_missed))
			return -1;
		c->carry_missed = 0;
		(*printed)++;
	}
	return 0;
}

int tm_live_step(struct tm_live *lv, bool final)
{
	struct live_bounds b;
	unsigned int n = 0;
	int ret = 0, cpu;

	if (collect(lv, &b))
		return -1;
	while ((cpu = next_cpu(lv)) >= 0) {
		struct live_cpu *c = &lv->cpus[cpu];

		if (n == TM_LIVE_STEP_RECORDS) {
			ret = 1;
			break;
		}
		if (!final && c->recs[c->rhead].page->arrival > bound_of(&b, cpu) && !b.waiting)
			break;
		if (print_one(lv, cpu)) {
			ret = -1;
			break;
		}
		n++;
	}
	if (final && ret == 0 && trailing_losses(lv, &n))
		ret = -1;
	if (!n)
		return ret;
	if (tm_evout_flush(lv->o.output) && ret >= 0)
		return -1;
	if (fflush(lv->o.out) && ret >= 0)
		return tm_fail(errno, "write output");
	if (ret >= 0 && ferror(lv->o.out))
		return tm_failx(EIO, "write output");
	return ret;
}

/* ---- lifetime ---- */

struct tm_live *tm_live_new(const struct tm_live_opts *opts)
{
	struct tm_live *lv = calloc(1, sizeof(*lv));
	pthread_condattr_t attr;

	if (!lv || !(lv->cpus = calloc(opts->ncpus, sizeof(*lv->cpus)))) {
		free(lv);
		tm_fail(ENOMEM, "live");
		return NULL;
	}
	lv->o = *opts;
	if (!lv->o.max_bytes)
		lv->o.max_bytes = TM_LIVE_MAX_BYTES;
	if (lv->o.max_bytes < 2 * lv->o.page_size)
		lv->o.max_bytes = 2 * lv->o.page_size;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_mutex_init(&lv->wake_lock, NULL);
	pthread_cond_init(&lv->wake, &attr);
	pthread_condattr_destroy(&attr);
	for (int cpu = 0; cpu < opts->ncpus; cpu++) {
		pthread_mutex_init(&lv->cpus[cpu].lock, NULL);
		pthread_cond_init(&lv->cpus[cpu].room, NULL);
	}
	return lv;
}

static void free_list(struct live_page *p)
{
	while (p) {
		struct live_page *next = p->next;

		free(p);
		p = next;
	}
}

void tm_live_free(struct tm_live *lv)
{
	if (!lv)
		return;
	for (int cpu = 0; cpu < lv->o.ncpus; cpu++) {
		struct live_cpu *c = &lv->cpus[cpu];

		free_list(c->qhead);
		free_list(c->hhead);
		free_list(c->free);
		free(c->recs);
		pthread_mutex_destroy(&c->lock);
		pthread_cond_destroy(&c->room);
	}
	pthread_mutex_destroy(&lv->wake_lock);
	pthread_cond_destroy(&lv->wake);
	free(lv->cpus);
	free(lv);
}
