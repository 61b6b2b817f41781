// SPDX-License-Identifier: GPL-2.0-only
/*
 * merge.c - k-way merge by timestamp over per-CPU page sources that hand out
 * every page on demand (a file's cursors), with trace-cmd's tie order:
 * lower buffer, then lower CPU. Live pages are merged by out-live.c: their
 * sources are never exhausted and a record may only print once no page
 * still in the ring buffers can precede it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "dat/rec-check.h"
#include "dat/tm-dat.h"
#include "dat/dat-internal.h"
#include "dat/page.h"
#include "events/tm-events.h"
#include "tm-merge.h"
#include "merge-internal.h"

struct merge_src {
	struct tm_page_source	src;
	struct tm_page		pg;
	struct tm_rec		rec;		/* current record */
	uint64_t		ts;		/* its time, adjusted: what the heap orders */
	int64_t			missed;		/* loss reported with the current record */
	bool			fresh_page;	/* next record is the page's first */
};

struct tm_merge {
	struct merge_src	*srcs;
	int			nsrc, cap;
	int			*heap;		/* indices into srcs, min at heap[0] */
	int			nheap;
	int			pending;	/* source to advance before the next pick, or -1 */
	bool			started;
	struct tm_reccheck	*check;		/* NULL: records go out unchecked */
	tm_warn_fn		warn;
	void			*warn_ctx;
	uint64_t		skipped;
	uint64_t		bytes_read;	/* of the pages handed out so far */
	uint64_t		bytes_total;	/* of every source's pages, where known */
};

struct tm_merge *tm_merge_new(void)
{
	struct tm_merge *m = calloc(1, sizeof(*m));

	if (!m) {
		tm_fail(ENOMEM, "merge");
		return NULL;
	}
	m->pending = -1;
	return m;
}

void tm_merge_free(struct tm_merge *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->nsrc; i++)
		if (m->srcs[i].src.close)
			m->srcs[i].src.close(m->srcs[i].src.ctx);
	free(m->srcs);
	free(m->heap);
	tm_reccheck_free(m->check);
	free(m);
}

int tm_merge_check_records(struct tm_merge *m, struct tep_handle *tep, tm_warn_fn warn,
			   void *warn_ctx)
{
	if (m->started)
		return tm_failx(EBUSY, "merge: the check must be set before reading");
	tm_reccheck_free(m->check);
	m->check = tm_reccheck_new(tep);
	m->warn = warn;
	m->warn_ctx = warn_ctx;
	return m->check ? 0 : -1;
}

uint64_t tm_merge_skipped(const struct tm_merge *m)
{
	return m->skipped;
}

void tm_merge_bytes(const struct tm_merge *m, uint64_t *read, uint64_t *total)
{
	*read = m->bytes_read;
	*total = m->bytes_total;
}

int tm_merge_add(struct tm_merge *m, const struct tm_page_source *src)
{
	if (m->started)
		return tm_failx(EBUSY, "merge: sources must be added before reading");
	if (m->nsrc == m->cap) {
		int cap = m->cap ? m->cap * 2 : 16;
		struct merge_src *s = realloc(m->srcs, cap * sizeof(*s));
		int *h;

		if (!s)
			return tm_fail(ENOMEM, "merge");
		m->srcs = s;
		h = realloc(m->heap, cap * sizeof(*h));
		if (!h)
			return tm_fail(ENOMEM, "merge");
		m->heap = h;
		m->cap = cap;
	}
	memset(&m->srcs[m->nsrc], 0, sizeof(m->srcs[0]));
	m->srcs[m->nsrc].src = *src;
	m->nsrc++;
	return 0;
}

/* "FILE: top buffer CPU 0 data: page at offset N" or at least "CPU 0". */
static void src_where(const struct merge_src *s, char *buf, size_t len)
{
	if (!s->src.where || s->src.where(s->src.ctx, buf, len) < 0)
		snprintf(buf, len, "CPU %d", s->src.cpu);
}

/* Count and report a record the check refused (out of line: the hot path stays small). */
static __attribute__((noinline, cold)) void src_skipped(struct tm_merge *m,
						       const struct merge_src *s, const char *why)
{
	char where[512], msg[1024];

	m->skipped++;
	if (!m->warn)
		return;
	src_where(s, where, sizeof(where));
	snprintf(msg, sizeof(msg), "%s: record at page offset %u: %s; record skipped", where,
		 s->rec.offset, why);
	m->warn(m->warn_ctx, msg);
}

/* A record libtraceevent cannot read safely: skipped, with a warning. */
static inline bool src_skip(struct tm_merge *m, const struct merge_src *s)
{
	const char *why = m->check ? tm_reccheck(m->check, s->rec.data, s->rec.size) : NULL;

	if (why)
		src_skipped(m, s, why);
	return why != NULL;
}

/* Load the source's next record: 1 found, 0 exhausted, -1 error. */
static int src_advance(struct tm_merge *m, struct merge_src *s)
{
	char where[512];
	const void *page;
	int r;

	for (;;) {
		if (s->pg.base) {
			r = tm_page_next(&s->pg, &s->rec);
			if (r < 0) {
				src_where(s, where, sizeof(where));
				return tm_fail_prefix("%s", where);
			}
			if (r > 0 && src_skip(m, s))
				continue;
			if (r > 0) {
				s->ts = s->src.adjust_ts ? s->src.adjust_ts(s->src.adjust_ctx,
									     s->rec.ts) : s->rec.ts;
				s->missed = s->fresh_page ? s->pg.lost : 0;
				s->fresh_page = false;
				return 1;
			}
		}
		errno = 0;
		page = s->src.next_page(s->src.ctx);
		if (!page) {
			s->pg.base = NULL;
			return errno ? -1 : 0;
		}
		if (tm_page_init(&s->pg, page, s->src.page_size, s->src.commit_size,
				 s->src.big_endian)) {
			src_where(s, where, sizeof(where));
			return tm_fail_prefix("%s", where);
		}
		s->fresh_page = true;
		m->bytes_read += s->src.page_size;
	}
}

static bool src_less(const struct tm_merge *m, int a, int b)
{
	const struct merge_src *x = &m->srcs[a], *y = &m->srcs[b];

	if (x->ts != y->ts)
		return x->ts < y->ts;
	if (x->src.buffer != y->src.buffer)
		return x->src.buffer < y->src.buffer;
	if (x->src.cpu != y->src.cpu)
		return x->src.cpu < y->src.cpu;
	return x->src.file < y->src.file;
}

static void sift_down(struct tm_merge *m, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, min = i, t;

		if (l < m->nheap && src_less(m, m->heap[l], m->heap[min]))
			min = l;
		if (r < m->nheap && src_less(m, m->heap[r], m->heap[min]))
			min = r;
		if (min == i)
			return;
		t = m->heap[i];
		m->heap[i] = m->heap[min];
		m->heap[min] = t;
		i = min;
	}
}

static int merge_start(struct tm_merge *m)
{
	int i, r;

	m->started = true;
	for (i = 0; i < m->nsrc; i++) {
		r = src_advance(m, &m->srcs[i]);
		if (r < 0)
			return -1;
		if (r > 0)
			m->heap[m->nheap++] = i;
	}
	for (i = m->nheap / 2 - 1; i >= 0; i--)
		sift_down(m, i);
	return 0;
}

int tm_merge_next(struct tm_merge *m, struct tm_event_rec *rec)
{
	struct merge_src *s;

	if (!m->started && merge_start(m))
		return -1;
	if (m->pending >= 0) {
		int r = src_advance(m, &m->srcs[m->pending]);

		m->pending = -1;
		if (r < 0)
			return -1;
		if (!r)
			m->heap[0] = m->heap[--m->nheap];
		if (m->nheap)
			sift_down(m, 0);
	}
	if (!m->nheap)
		return 0;
	s = &m->srcs[m->heap[0]];
	rec->ts = s->ts;
	rec->data = s->rec.data;
	rec->size = s->rec.size;
	rec->cpu = s->src.cpu;
	rec->buffer = s->src.buffer;
	rec->file = s->src.file;
	rec->missed = s->missed;
	m->pending = m->heap[0];
	return 1;
}

/* ---- trace.dat sources ---- */

static const void *cursor_next(void *ctx)
{
	return tm_cursor_next_page(ctx);
}

static void cursor_close(void *ctx)
{
	tm_cursor_close(ctx);
}

static int cursor_where(void *ctx, char *buf, size_t len)
{
	return tm_cursor_where(ctx, buf, len);
}

int tm_merge_add_dat(struct tm_merge *m, struct tm_dat *dat, int buf,
		     const uint64_t *cpu_mask, int nbits)
{
	return tm_merge_add_dat_as(m, dat, buf, buf, 0, cpu_mask, nbits);
}

int tm_merge_add_dat_as(struct tm_merge *m, struct tm_dat *dat, int buf, int as_buf, int file,
			const uint64_t *cpu_mask, int nbits)
{
	int cpu, ncpu = tm_dat_buffer_cpus(dat, buf);

	for (cpu = 0; cpu < ncpu; cpu++) {
		struct tm_page_source src = {
			.buffer = as_buf,
			.file = file,
			.cpu = cpu,
			.page_size = tm_dat_buffer_page_size(dat, buf),
			.commit_size = tm_dat_commit_size(dat),
			.big_endian = tm_dat_big_endian(dat),
			.next_page = cursor_next,
			.close = cursor_close,
			.where = cursor_where,
			.adjust_ts = tm_dat_adjust_ts,
			.adjust_ctx = dat,
		};

		if (cpu_mask && (cpu >= nbits || !(cpu_mask[cpu / 64] >> (cpu % 64) & 1)))
			continue;
		if (!tm_dat_buffer_cpu_size(dat, buf, cpu))
			continue;
		errno = 0;
		src.ctx = tm_cursor_open(dat, buf, cpu);
		if (!src.ctx) {
			if (!errno)
				continue;
			return -1;
		}
		if (tm_merge_add(m, &src)) {
			tm_cursor_close(src.ctx);
			return -1;
		}
		m->bytes_total += tm_dat_buffer_cpu_size(dat, buf, cpu);
	}
	return 0;
}
