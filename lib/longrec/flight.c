// SPDX-License-Identifier: GPL-2.0-only
/*
 * flight.c - the flight window: each CPU's pages compressed into chunks kept
 * in memory, the chunk of all CPUs that ends first dropped when the window is
 * full, and dumps of the window cut to the time every CPU covers.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/internal.h"
#include "dat/dat-format.h"
#include "longrec-internal.h"
#include "dat/dat-internal.h"
#include "record/ring.h"
#include "record/spool.h"
#include "dat/codec.h"
#include "dat/page.h"


/* One compressed chunk: its bytes as a spool file holds them, in its own mapping. */
struct tm_fchunk {
	struct tm_fchunk	*next;
	size_t			map_len;	/* what the window counts */
	size_t			len;
	uint32_t		pages;
	uint64_t		first_ts;	/* first record's time, 0 without records */
	uint64_t		last_ts;
	uint64_t		events;
	int			pins;		/* dumps that still write it */
	bool			evicted;	/* out of the window; freed when unpinned */
	uint8_t			data[];
};

struct tm_fcpu {
	struct tm_flight	*f;
	int			cpu;
	struct tm_spool		*spool;		/* the chunker (no file) */
	struct tm_chunk_sink	sink;
	struct tm_fchunk	*head, *tail;	/* the window, oldest first */
	struct tm_page_span	pend;		/* pages given to the chunker since its last chunk */
	uint64_t		dropped;	/* records dropped from the window */
	uint64_t		dropped_until;	/* last record time of the newest chunk dropped */
};

struct tm_flight {
	struct tm_flight_opts	opts;
	pthread_mutex_t		lock;		/* the lists, counts and pins */
	pthread_cond_t		room;		/* a dump released a chunk */
	size_t			live;		/* bytes in the window */
	size_t			limbo;		/* evicted bytes a dump still holds */
	uint64_t		waits;
	struct tm_fcpu		*cpus;
};

static void fchunk_free(struct tm_fchunk *c)
{
	munmap(c, c->map_len);
}

/*
 * Drop the chunk of all CPUs that ends first; under f->lock. Not the one
 * that starts first: a quiet CPU's single chunk can span the whole recording,
 * and dropping it would move every dump's start past its last record.
 */
static void flight_evict_oldest(struct tm_flight *f, const struct tm_fchunk *keep)
{
	struct tm_fcpu *oldest = NULL;
	struct tm_fchunk *c;

	for (int cpu = 0; cpu < f->opts.ncpus; cpu++) {
		struct tm_fcpu *fc = &f->cpus[cpu];

		if (fc->head && fc->head != keep &&
		    (!oldest || fc->head->last_ts < oldest->head->last_ts))
			oldest = fc;
	}
	if (!oldest)
		return;
	c = oldest->head;
	oldest->head = c->next;
	if (!oldest->head)
		oldest->tail = NULL;
	oldest->dropped += c->events;
	if (c->last_ts > oldest->dropped_until)
		oldest->dropped_until = c->last_ts;
	f->live -= c->map_len;
	if (c->pins) {
		c->evicted = true;
		f->limbo += c->map_len;
	} else {
		fchunk_free(c);
	}
}

/* Append a chunk to its CPU's window, make room, wait while dumps hold too much. */
static void flight_add(struct tm_fcpu *fc, struct tm_fchunk *c)
{
	struct tm_flight *f = fc->f;

	pthread_mutex_lock(&f->lock);
	if (fc->tail)
		fc->tail->next = c;
	else
		fc->head = c;
	fc->tail = c;
	f->live += c->map_len;
	while (f->live > f->opts.size) {
		size_t before = f->live;

		flight_evict_oldest(f, c);
		if (f->live == before)
			break;	/* only the new chunk is left */
	}
	if (f->limbo && f->live + f->limbo > f->opts.size + TM_FLIGHT_HEADROOM) {
		f->waits++;
		while (f->limbo && f->live + f->limbo > f->opts.size + TM_FLIGHT_HEADROOM)
			pthread_cond_wait(&f->room, &f->lock);
	}
	pthread_mutex_unlock(&f->lock);
}

/* The chunker's output: copy the chunk into a mapping of its own. */
static int flight_chunk(void *ctx, const void *data, size_t len, uint32_t pages)
{
	struct tm_fcpu *fc = ctx;
	size_t map_len = (sizeof(struct tm_fchunk) + len + 4095) & ~(size_t)4095;
	struct tm_fchunk *c;

	c = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		return tm_fail(errno, "flight window: cpu%d chunk of %zu bytes", fc->cpu, len);
	*c = (struct tm_fchunk){
		.map_len = map_len, .len = len, .pages = pages, .first_ts = fc->pend.first_ts,
		.last_ts = fc->pend.last_ts, .events = fc->pend.records,
	};
	memcpy(c->data, data, len);
	memset(&fc->pend, 0, sizeof(fc->pend));
	flight_add(fc, c);
	return 0;
}

static int flight_page(void *ctx, int cpu, const void *page, size_t size)
{
	struct tm_fcpu *fc = &((struct tm_flight *)ctx)->cpus[cpu];
	struct tm_page_span span;

	if (tm_page_span(page, size, TM_COMMIT_SIZE, tm_host_is_big_endian(), &span))
		return tm_fail_prefix("cpu%d: corrupt page", cpu);
	if (span.records) {
		if (!fc->pend.records)
			fc->pend.first_ts = span.first_ts;
		fc->pend.last_ts = span.last_ts;
		fc->pend.records += span.records;
	}
	return tm_spool_add_page(fc->spool, page);
}

static void flight_fill(void *ctx, int cpu, const struct tm_ring_fill *fill)
{
	tm_spool_set_fill(((struct tm_flight *)ctx)->cpus[cpu].spool, fill);
}

static int flight_cut(void *ctx, int cpu)
{
	return tm_spool_cut(((struct tm_flight *)ctx)->cpus[cpu].spool);
}

int tm_flight_flush(struct tm_flight *f)
{
	for (int cpu = 0; cpu < f->opts.ncpus; cpu++)
		if (f->cpus[cpu].spool && tm_spool_cut(f->cpus[cpu].spool))
			return -1;
	return 0;
}

struct tm_page_sink tm_flight_sink(struct tm_flight *f)
{
	return (struct tm_page_sink){
		.page = flight_page, .fill = flight_fill, .cut = flight_cut, .ctx = f,
	};
}

struct tm_flight *tm_flight_new(const struct tm_flight_opts *opts)
{
	struct tm_flight *f = calloc(1, sizeof(*f));
	struct tm_spool_opts so = {
		.compression = opts->compression, .level = opts->level, .adaptive = opts->adaptive,
		.page_size = opts->page_size, .chunk_pages = opts->chunk_pages,
	};

	if (!f || !(f->cpus = calloc(opts->ncpus ? opts->ncpus : 1, sizeof(*f->cpus)))) {
		free(f);
		tm_fail(ENOMEM, "flight window");
		return NULL;
	}
	f->opts = *opts;
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->room, NULL);
	for (int cpu = 0; cpu < opts->ncpus; cpu++) {
		struct tm_fcpu *fc = &f->cpus[cpu];

		fc->f = f;
		fc->cpu = cpu;
		if (!opts->cpus[cpu])
			continue;
		fc->sink = (struct tm_chunk_sink){ .chunk = flight_chunk, .ctx = fc };
		so.sink = &fc->sink;
		fc->spool = tm_spool_create(NULL, &so);
		if (!fc->spool) {
			tm_flight_free(f);
			return NULL;
		}
	}
	return f;
}

void tm_flight_free(struct tm_flight *f)
{
	if (!f)
		return;
	for (int cpu = 0; cpu < f->opts.ncpus; cpu++) {
		struct tm_fcpu *fc = &f->cpus[cpu];

		while (fc->head) {
			struct tm_fchunk *c = fc->head;

			fc->head = c->next;
			fchunk_free(c);
		}
		tm_spool_destroy(fc->spool, false);
	}
	pthread_mutex_destroy(&f->lock);
	pthread_cond_destroy(&f->room);
	free(f->cpus);
	free(f);
}

/* ---- dumps ---- */

/* One CPU's part of a dump: its pinned chunks, the first one maybe trimmed. */
struct tm_fdump_cpu {
	struct tm_flight	*f;
	struct tm_fchunk	**chunks;	/* pinned, oldest first */
	size_t			n;
	size_t			skip;		/* leading chunks wholly before the start */
	size_t			next;		/* next piece to hand out */
	uint8_t			*trimmed;	/* the first written chunk, re-made from the start */
	size_t			trimmed_len;
	uint64_t		events;		/* records written */
	uint64_t		cut;		/* records of its chunks before the start */
	uint64_t		first_ts;	/* its first record written, 0: none */
};

static void flight_unpin(struct tm_flight *f, struct tm_fchunk *c)
{
	pthread_mutex_lock(&f->lock);
	if (!--c->pins && c->evicted) {
		f->limbo -= c->map_len;
		fchunk_free(c);
		pthread_cond_broadcast(&f->room);
	}
	pthread_mutex_unlock(&f->lock);
}

/* tm_cpu_data.next: the trimmed chunk, then the pinned ones; each handed-out one is let go. */
static int fdump_next(void *ctx, const void **data, size_t *len)
{
	struct tm_fdump_cpu *d = ctx;
	size_t i = d->skip + d->next;

	if (d->next && d->chunks[i - 1]) {
		flight_unpin(d->f, d->chunks[i - 1]);
		d->chunks[i - 1] = NULL;
	}
	if (i >= d->n)
		return 0;
	d->next++;
	if (i == d->skip && d->trimmed) {
		*data = d->trimmed;
		*len = d->trimmed_len;
	} else {
		*data = d->chunks[i]->data;
		*len = d->chunks[i]->len;
	}
	return 1;
}

/*
 * Pin every CPU's window. The start is after the last record any CPU
 * dropped: a CPU whose older chunks were dropped has no record of that
 * stretch, so no other CPU may show it. Before the window drops anything
 * every CPU is whole from the recording's start and nothing is cut: a CPU
 * whose first record comes later was idle until then, and cutting the
 * others to it would lose their events (and make two dumps of one window
 * start at different times).
 */
static int flight_pin(struct tm_flight *f, struct tm_fdump_cpu *d, uint64_t *start)
{
	int ret = 0;

	*start = 0;
	pthread_mutex_lock(&f->lock);
	for (int cpu = 0; cpu < f->opts.ncpus; cpu++) {
		struct tm_fchunk *c;
		size_t n = 0;

		d[cpu].f = f;
		if (f->cpus[cpu].dropped_until >= *start)
			*start = f->cpus[cpu].dropped_until + 1;
		for (c = f->cpus[cpu].head; c; c = c->next)
			n++;
		if (!n)
			continue;
		d[cpu].chunks = calloc(n, sizeof(*d[cpu].chunks));
		if (!d[cpu].chunks) {
			ret = tm_fail(ENOMEM, "flight dump");
			break;
		}
		for (c = f->cpus[cpu].head; c; c = c->next) {
			c->pins++;
			d[cpu].chunks[d[cpu].n++] = c;
		}
	}
	pthread_mutex_unlock(&f->lock);
	return ret;
}

/* The pages of one chunk, uncompressed, into buf (len bytes of them). */
static int fchunk_pages(struct tm_codec *codec, const struct tm_fchunk *c, uint8_t *buf,
			   size_t len)
{
	if (!codec) {
		memcpy(buf, c->data, len);
		return 0;
	}
	if (tm_codec_decompress(codec, buf, len, c->data + TM_DAT_CHUNK_HDR_LEN,
				c->len - TM_DAT_CHUNK_HDR_LEN) < 0)
		return tm_fail_prefix("flight dump");
	return 0;
}

/*
 * Re-make chunk c without its records before start: pages wholly before it
 * go, the page across it is trimmed. Sets d->trimmed (NULL when nothing of
 * c is left) and counts the records kept.
 */
static int flight_trim(struct tm_flight *f, struct tm_codec *codec, struct tm_fdump_cpu *d,
			  const struct tm_fchunk *c, uint64_t start)
{
	size_t ps = f->opts.page_size, raw = (size_t)c->pages * ps, kept = 0, cap;
	uint8_t *pages = malloc(raw + ps), *out = NULL, *tmp = pages + raw;
	int ret = -1, n;

	if (!pages)
		return tm_fail(ENOMEM, "flight dump");
	if (fchunk_pages(codec, c, pages, raw))
		goto out;
	for (size_t i = 0; i < c->pages; i++) {
		uint8_t *pg = pages + i * ps;

		if (!kept) {
			n = tm_page_trim(pg, ps, TM_COMMIT_SIZE, tm_host_is_big_endian(), start,
					 tmp);
			if (n < 0)
				goto out;
			d->events += n;
			if (n) {
				struct tm_page_span span;

				memcpy(pages, tmp, ps);
				if (!tm_page_span(pages, ps, TM_COMMIT_SIZE,
						  tm_host_is_big_endian(), &span))
					d->first_ts = span.first_ts;
			}
			kept = n ? ps : 0;
			continue;
		}
		n = tm_page_count(pg, ps, TM_COMMIT_SIZE, tm_host_is_big_endian());
		if (n < 0)
			goto out;
		d->events += n;
		memmove(pages + kept, pg, ps);
		kept += ps;
	}
	ret = 0;
	if (!kept)
		goto out;
	cap = TM_DAT_CHUNK_HDR_LEN + (codec ? tm_codec_bound(codec, kept) : kept);
	out = malloc(cap);
	if (!out) {
		ret = tm_fail(ENOMEM, "flight dump");
		goto out;
	}
	if (!codec) {
		memcpy(out, pages, kept);
		d->trimmed_len = kept;
	} else {
		ssize_t z = tm_codec_compress(codec, out + TM_DAT_CHUNK_HDR_LEN,
					      cap - TM_DAT_CHUNK_HDR_LEN, pages, kept);

		if (z < 0) {
			ret = tm_fail_prefix("flight dump");
			goto out;
		}
		tm_put32(out, (uint32_t)z);
		tm_put32(out + 4, (uint32_t)kept);
		d->trimmed_len = TM_DAT_CHUNK_HDR_LEN + z;
	}
	d->trimmed = out;
	out = NULL;
out:
	free(out);
	free(pages);
	return ret;
}

/*
 * What of one CPU's pinned chunks goes into the dump: none wholly before
 * start, the first one trimmed to it. Fills the write source.
 */
static int flight_plan(struct tm_flight *f, struct tm_codec *codec, struct tm_fdump_cpu *d,
			  int cpu, uint64_t start, struct tm_cpu_data *src)
{
	uint64_t size = 0;
	uint32_t chunks = 0;

	while (d->skip < d->n && d->chunks[d->skip]->last_ts < start)
		d->cut += d->chunks[d->skip++]->events;
	if (d->skip < d->n && d->chunks[d->skip]->first_ts < start) {
		if (flight_trim(f, codec, d, d->chunks[d->skip], start))
			return -1;
		d->cut += d->chunks[d->skip]->events - d->events;
		if (d->trimmed) {
			size += d->trimmed_len;
			chunks++;
		} else {
			d->skip++;	/* nothing of it is left */
		}
	}
	for (size_t i = 0; i < d->skip; i++) {
		flight_unpin(f, d->chunks[i]);
		d->chunks[i] = NULL;
	}
	for (size_t i = d->skip + (d->trimmed ? 1 : 0); i < d->n; i++) {
		if (!d->first_ts)
			d->first_ts = d->chunks[i]->first_ts;
		size += d->chunks[i]->len;
		d->events += d->chunks[i]->events;
		chunks++;
	}
	*src = (struct tm_cpu_data){
		.cpu = cpu, .size = size, .chunks = codec ? chunks : 0, .compressed = codec != NULL,
		.page_size = f->opts.page_size, .fd = -1, .name = "the flight window", .next = fdump_next, .ctx = d,
	};
	return 0;
}

/* "dropped from the flight window: N" after each CPU's kernel stats. */
static int flight_note_drops(struct tm_flight *f, struct tm_meta *meta)
{
	for (int cpu = 0; cpu < f->opts.ncpus && cpu < tm_meta_cpus(meta); cpu++) {
		const struct tm_text *st = &meta->stats[cpu];
		uint64_t dropped;
		char *text;
		int n, ret;

		if (!f->opts.cpus[cpu] || !st->len)
			continue;
		/* the trim to the common start is no drop: those records are still in the window */
		pthread_mutex_lock(&f->lock);
		dropped = f->cpus[cpu].dropped;
		pthread_mutex_unlock(&f->lock);
		n = asprintf(&text, "%sdropped from the flight window: %llu\n", st->data,
			     (unsigned long long)dropped);
		if (n < 0)
			return tm_fail(ENOMEM, "flight dump");
		ret = tm_meta_set_stats(meta, cpu, text, n);
		free(text);
		if (ret)
			return -1;
	}
	return 0;
}

static void flight_dump_end(struct tm_flight *f, struct tm_fdump_cpu *d)
{
	for (int cpu = 0; cpu < f->opts.ncpus; cpu++) {
		for (size_t i = 0; i < d[cpu].n; i++)
			if (d[cpu].chunks[i])
				flight_unpin(f, d[cpu].chunks[i]);
		free(d[cpu].chunks);
		free(d[cpu].trimmed);
	}
	free(d);
}

static void flight_info(struct tm_flight *f, const struct tm_fdump_cpu *d,
			   struct tm_flight_dump_info *info)
{
	pthread_mutex_lock(&f->lock);
	info->waits = f->waits;
	for (int cpu = 0; cpu < f->opts.ncpus; cpu++) {
		info->dropped += f->cpus[cpu].dropped;
		info->trimmed += d[cpu].cut;
		info->events += d[cpu].events;
		/* a CPU with nothing from the start on has let all its chunks go (NULL) */
		if (d[cpu].n && d[cpu].chunks[d[cpu].n - 1] &&
		    d[cpu].chunks[d[cpu].n - 1]->last_ts > info->end)
			info->end = d[cpu].chunks[d[cpu].n - 1]->last_ts;
	}
	pthread_mutex_unlock(&f->lock);
}

int tm_flight_dump(struct tm_flight *f, int fd, struct tm_meta *meta,
		   const struct tm_write_opts *wo, struct tm_flight_dump_info *info)
{
	struct tm_fdump_cpu *d = calloc(f->opts.ncpus ? f->opts.ncpus : 1, sizeof(*d));
	struct tm_cpu_data *src = calloc(f->opts.ncpus ? f->opts.ncpus : 1, sizeof(*src));
	struct tm_codec *codec = NULL;
	int ret = -1, n = 0;

	memset(info, 0, sizeof(*info));
	if (!d || !src) {
		free(d);
		free(src);
		return tm_fail(ENOMEM, "flight dump");
	}
	if (f->opts.compression != TM_COMPRESS_NONE) {
		codec = tm_codec_new(f->opts.compression, f->opts.level);
		if (!codec)
			goto out;
	}
	if (flight_pin(f, d, &info->start))
		goto out;
	for (int cpu = 0; cpu < f->opts.ncpus; cpu++)
		if (d[cpu].n && flight_plan(f, codec, &d[cpu], cpu, info->start, &src[n++]))
			goto out;
	flight_info(f, d, info);
	/* the window as written: from its first record on */
	for (int cpu = 0, first = 1; cpu < f->opts.ncpus; cpu++) {
		if (d[cpu].first_ts && (first || d[cpu].first_ts < info->start)) {
			info->start = d[cpu].first_ts;
			first = 0;
		}
	}
	if (flight_note_drops(f, meta))
		goto out;
	ret = tm_dat_write_data(fd, meta, src, n, f->opts.ncpus, wo);
out:
	flight_dump_end(f, d);
	tm_codec_free(codec);
	free(src);
	return ret;
}
