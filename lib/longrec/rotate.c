// SPDX-License-Identifier: GPL-2.0-only
/*
 * rotate.c - rotating spools: each CPU appends to the spool of the current
 * file number; a cut finishes it and starts the next number's, so the
 * readers never stop while the finished spools become a file.
 */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "longrec-internal.h"
#include "record/ring.h"
#include "record/spool.h"

struct tm_rotor {
	char			*path;		/* OUTPUT */
	struct tm_spool_opts	so;
	int			ncpus;
	unsigned int		number;		/* of the current spools */
	struct tm_spool		**cur;		/* the recorder threads' */
	struct tm_spool		**done;		/* finished at the last cut, or taken */
	_Atomic uint64_t	*bytes;		/* of the current spools */
	uint64_t		*cut_ts;	/* each CPU's last record in a finished number */
	bool			keep;		/* a file failed: every spool stays */
};

static struct tm_spool *rotor_spool(struct tm_rotor *r, unsigned int number, int cpu)
{
	char name[PATH_MAX], path[PATH_MAX];

	if (tm_longrec_name(name, sizeof(name), r->path, number) ||
	    tm_path(path, sizeof(path), "%s.cpu%d.spool", name, cpu))
		return NULL;
	return tm_spool_create(path, &r->so);
}

/* What the CPU's current spool holds in its file, for --switch-output SIZE. */
static void rotor_count(struct tm_rotor *r, int cpu)
{
	struct tm_spool_stats st;

	tm_spool_get_stats(r->cur[cpu], &st);
	atomic_store_explicit(&r->bytes[cpu], st.file_bytes, memory_order_relaxed);
}

static int rotor_page(void *ctx, int cpu, const void *page, size_t size)
{
	struct tm_rotor *r = ctx;

	(void)size;
	if (tm_spool_add_page(r->cur[cpu], page))
		return -1;
	rotor_count(r, cpu);
	return 0;
}

/*
 * After each drain round: a chunk that waited --flush-interval goes to its
 * spool, as for one file, and counts toward SIZE then, not only once the
 * CPU filled a whole chunk (1 MiB of pages).
 */
static int rotor_flush(void *ctx, int cpu)
{
	struct tm_rotor *r = ctx;

	if (tm_spool_tick(r->cur[cpu]))
		return -1;
	rotor_count(r, cpu);
	return 0;
}

static void rotor_fill(void *ctx, int cpu, const struct tm_ring_fill *fill)
{
	tm_spool_set_fill(((struct tm_rotor *)ctx)->cur[cpu], fill);
}

/* On the CPU's thread: this number's spool is done, the next one's begins. */
static int rotor_cut(void *ctx, int cpu)
{
	struct tm_rotor *r = ctx;
	struct tm_spool_stats st;

	if (tm_spool_finish(r->cur[cpu]))
		return -1;
	tm_spool_get_stats(r->cur[cpu], &st);
	if (st.last_ts > r->cut_ts[cpu])
		r->cut_ts[cpu] = st.last_ts;
	r->done[cpu] = r->cur[cpu];
	r->cur[cpu] = rotor_spool(r, r->number + 1, cpu);
	atomic_store_explicit(&r->bytes[cpu], 0, memory_order_relaxed);
	return r->cur[cpu] ? 0 : -1;
}

/* The read() path reads straight into the current spool's chunk (cuts come between rounds). */
static void *rotor_slot(void *ctx, int cpu)
{
	struct tm_rotor *r = ctx;

	return r->cur[cpu] ? tm_spool_slot(r->cur[cpu]) : NULL;
}

struct tm_page_sink tm_rotor_sink(struct tm_rotor *r)
{
	return (struct tm_page_sink){
		.page = rotor_page, .flush = rotor_flush, .fill = rotor_fill, .cut = rotor_cut,
		.slot = rotor_slot, .ctx = r,
	};
}

const uint64_t *tm_rotor_cut_times(const struct tm_rotor *r)
{
	return r->cut_ts;
}

uint64_t tm_rotor_bytes(struct tm_rotor *r)
{
	uint64_t sum = 0;

	for (int cpu = 0; cpu < r->ncpus; cpu++)
		sum += atomic_load_explicit(&r->bytes[cpu], memory_order_relaxed);
	return sum;
}

struct tm_rotor *tm_rotor_new(const char *path, const struct tm_spool_opts *so, int ncpus,
			      const bool *cpus)
{
	struct tm_rotor *r = calloc(1, sizeof(*r));

	if (!r || !(r->path = strdup(path)) || !(r->cur = calloc(ncpus, sizeof(*r->cur))) ||
	    !(r->done = calloc(ncpus, sizeof(*r->done))) ||
	    !(r->bytes = calloc(ncpus, sizeof(*r->bytes))) ||
	    !(r->cut_ts = calloc(ncpus, sizeof(*r->cut_ts)))) {
		tm_fail(ENOMEM, "output %s", path);
		tm_rotor_free(r);
		return NULL;
	}
	r->so = *so;
	r->ncpus = ncpus;
	r->number = 1;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (!cpus[cpu])
			continue;
		r->cur[cpu] = rotor_spool(r, r->number, cpu);
		if (!r->cur[cpu]) {
			tm_rotor_free(r);
			return NULL;
		}
	}
	return r;
}

int tm_rotor_take(struct tm_rotor *r, bool final, struct tm_spool ***spools)
{
	if (final) {
		for (int cpu = 0; cpu < r->ncpus; cpu++) {
			if (r->cur[cpu] && tm_spool_finish(r->cur[cpu]))
				return -1;
			r->done[cpu] = r->cur[cpu];
			r->cur[cpu] = NULL;
		}
	}
	r->number++;
	*spools = r->done;
	return 0;
}

void tm_rotor_release(struct tm_rotor *r, bool written)
{
	if (!written)
		r->keep = true;
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		tm_spool_destroy(r->done[cpu], !r->keep);
		r->done[cpu] = NULL;
	}
}

void tm_rotor_free(struct tm_rotor *r)
{
	if (!r)
		return;
	for (int cpu = 0; r->cur && cpu < r->ncpus; cpu++) {
		/* kept for recover: the pages of a partial chunk too (best effort) */
		if (r->keep && r->cur[cpu] && !tm_spool_finished(r->cur[cpu]))
			(void)tm_spool_finish(r->cur[cpu]);
		tm_spool_destroy(r->cur[cpu], !r->keep);
	}
	if (r->done)
		tm_rotor_release(r, !r->keep);
	free(r->cur);
	free(r->done);
	free(r->bytes);
	free(r->cut_ts);
	free(r->path);
	free(r);
}
