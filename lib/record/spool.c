// SPDX-License-Identifier: GPL-2.0-only
/* spool.c - one CPU's pages gathered into chunks and appended to its spool file. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/internal.h"
#include "dat/dat-format.h"
#include "spool-level.h"
#include "ring.h"
#include "spool.h"
#include "dat/codec.h"
#include "dat/page.h"

static uint64_t spool_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t spool_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct tm_spool {
	struct tm_spool_opts	opts;
	char			*path;
	int			fd;
	struct tm_codec		*codec;
	uint8_t			*chunk;		/* chunk_pages * page_size of raw pages */
	size_t			npages;		/* pages in chunk */
	uint64_t		first_ns;	/* when the chunk's first page came */
	uint8_t			*out;		/* chunk header + compressed frame */
	size_t			out_cap;
	struct tm_spool_stats	stats;
	struct tm_level_policy	lp;		/* each chunk's level (spool-level.c) */
	size_t			step_done;	/* raw bytes of a stepped chunk compressed so far */
	bool			finished;
	bool			failed;		/* a write failed: no more pages */
	int			error;		/* errno of a failed file write, 0: none */
};

static int spool_check_opts(const struct tm_spool_opts *o)
{
	if (!o->page_size || o->page_size > TM_PAGE_COMMIT_LEN_MASK)
		return tm_failx(EINVAL, "spool: bad page size %zu", o->page_size);
	if (!o->chunk_pages || o->chunk_pages > UINT32_MAX / o->page_size)
		return tm_failx(EINVAL, "spool: bad chunk size of %zu pages", o->chunk_pages);
	return 0;
}

static int spool_alloc(struct tm_spool *s)
{
	size_t chunk_bytes = s->opts.chunk_pages * s->opts.page_size;

	s->chunk = malloc(chunk_bytes);
	if (!s->chunk)
		return tm_fail(ENOMEM, "spool %s", s->path);
	if (s->opts.compression == TM_COMPRESS_NONE)
		return 0;
	s->codec = tm_codec_new(s->opts.compression, s->opts.level);
	if (!s->codec)
		return -1;
	s->out_cap = TM_DAT_CHUNK_HDR_LEN + tm_codec_bound(s->codec, chunk_bytes);
	s->out = malloc(s->out_cap);
	if (!s->out)
		return tm_fail(ENOMEM, "spool %s", s->path);
	return 0;
}

struct tm_spool *tm_spool_create(const char *path, const struct tm_spool_opts *opts)
{
	struct tm_spool *s;

	if (spool_check_opts(opts))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		tm_fail(ENOMEM, "spool %s", path);
		return NULL;
	}
	s->opts = *opts;
	if (!s->opts.cpu_ns)
		s->opts.cpu_ns = s->opts.clock_ns ?: spool_thread_cpu_ns;
	if (!s->opts.clock_ns)
		s->opts.clock_ns = spool_monotonic_ns;
	tm_level_init(&s->lp, opts->level, opts->adaptive);
	s->fd = -1;
	s->path = strdup(path ? path : "memory");
	if (!s->path) {
		tm_fail(ENOMEM, "spool %s", path);
		goto fail;
	}
	if (spool_alloc(s))
		goto fail;
	if (opts->sink)
		return s;
	s->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (s->fd < 0) {
		if (errno == EEXIST)	/* never clobber: it may belong to a running recorder */
			tm_failx(EEXIST, "create spool %s: File exists (left by a killed "
				 "recording? remove it, or use another -o)", path);
		else
			tm_fail(errno, "create spool %s", path);
		goto fail;
	}
	return s;
fail:
	tm_spool_destroy(s, false);
	return NULL;
}

/*
 * After a failed write (a full disk): cut a chunk written in part, so the
 * file holds whole chunks for tm_spool_salvage() and recover. Best effort:
 * the writer copies file_bytes only, and recover checks every chunk anyway.
 */
static void spool_trim(struct tm_spool *s)
{
	while (ftruncate(s->fd, (off_t)s->stats.file_bytes) && errno == EINTR)
		;
}

static int spool_write(struct tm_spool *s, const void *buf, size_t len, size_t pages)
{
	const struct tm_chunk_sink *sink = s->opts.sink;

	if (sink ? sink->chunk(sink->ctx, buf, len, pages) : tm_write_all(s->fd, buf, len)) {
		s->failed = true;
		if (sink)
			return tm_fail_prefix("spool");
		s->error = errno ? errno : EIO;
		spool_trim(s);
		return tm_fail(s->error, "write spool %s", s->path);
	}
	s->stats.file_bytes += len;
	return 0;
}

void tm_spool_set_fill(struct tm_spool *s, const struct tm_ring_fill *fill)
{
	/* once per page: a vDSO clock read against hundreds of events */
	tm_level_sample(&s->lp, fill, s->opts.clock_ns());
}

/* A chunk at level below the chosen one, unless it only measures a cost. */
static void spool_count_level(struct tm_spool *s, int level)
{
	if (level >= s->opts.level || s->lp.probe)
		return;
	if (!s->stats.fast_chunks || level < s->stats.lowest_level)
		s->stats.lowest_level = level;
	s->stats.fast_chunks++;
}

/* Between two steps of a slow chunk: go on unless the ring is projected past FILL_HIGH. */
static bool spool_go_on(void *ctx, size_t done)
{
	struct tm_spool *s = ctx;

	s->step_done = done;
	return !tm_level_overdue(&s->lp, s->opts.clock_ns());
}

/*
 * Compress the chunk at the level picked. A slow level's goes in steps, and
 * when the ring is projected past FILL_HIGH before it is done (the reader
 * does not read while it compresses, and on a loaded machine a chunk takes
 * many times its cost), it is dropped and done again at the lowest level.
 */
static ssize_t spool_compress(struct tm_spool *s, size_t raw)
{
	uint64_t start = s->opts.cpu_ns();
	void *dst = s->out + TM_DAT_CHUNK_HDR_LEN;
	size_t cap = s->out_cap - TM_DAT_CHUNK_HDR_LEN;
	ssize_t n;
	int level;

	if (!tm_level_may_stop(&s->lp)) {
		n = tm_codec_compress(s->codec, dst, cap, s->chunk, raw);
		tm_level_done(&s->lp, raw, start, s->opts.cpu_ns());
		return n;
	}
	n = tm_codec_compress_steps(s->codec, dst, cap, s->chunk, raw, TM_SPOOL_STEP_BYTES,
				    spool_go_on, s);
	if (n != TM_CODEC_STOPPED) {
		tm_level_done(&s->lp, raw, start, s->opts.cpu_ns());
		return n;
	}
	level = tm_level_stopped(&s->lp, s->step_done, start, s->opts.cpu_ns());
	spool_count_level(s, level);
	tm_codec_set_level(s->codec, level);
	return tm_codec_compress(s->codec, dst, cap, s->chunk, raw);
}

/*
 * The time of the chunk's last record into stats.last_ts: a walk over its
 * last page with records, once a chunk (a rotation's cut tells recover what
 * the number it ends holds of each CPU, rotate.c). A page that does not
 * parse is passed over here; recover checks every page anyway.
 */
static void spool_note_last_ts(struct tm_spool *s)
{
	size_t ps = s->opts.page_size;
	struct tm_page_span span;

	for (size_t i = s->npages; i-- > 0;) {
		if (tm_page_span(s->chunk + i * ps, ps, TM_COMMIT_SIZE, tm_host_is_big_endian(),
				 &span) || !span.records)
			continue;
		if (span.last_ts > s->stats.last_ts)
			s->stats.last_ts = span.last_ts;
		return;
	}
}

/* Compress (or copy) the pages gathered so far as one chunk and append it. */
static int spool_flush(struct tm_spool *s)
{
	size_t raw = s->npages * s->opts.page_size, pages = s->npages;
	uint64_t start;
	ssize_t n;
	int level;

	if (!s->npages)
		return 0;
	spool_note_last_ts(s);
	s->npages = 0;
	if (!s->codec)
		return spool_write(s, s->chunk, raw, pages);
	level = tm_level_pick(&s->lp, raw);
	tm_codec_set_level(s->codec, level);
	spool_count_level(s, level);
	n = spool_compress(s, raw);
	if (n < 0) {
		s->failed = true;
		return tm_fail_prefix("spool %s", s->path);
	}
	tm_put32(s->out, (uint32_t)n);
	tm_put32(s->out + 4, (uint32_t)raw);
	start = s->opts.cpu_ns();
	if (spool_write(s, s->out, TM_DAT_CHUNK_HDR_LEN + n, pages))
		return -1;
	tm_level_written(&s->lp, raw, TM_DAT_CHUNK_HDR_LEN + n, s->opts.cpu_ns() - start);
	s->stats.chunks++;
	return 0;
}

/* Pages may still be added: no write failed, not finished. */
static int spool_check_open(const struct tm_spool *s)
{
	if (s->failed || s->finished)
		return tm_failx(s->failed ? EIO : EINVAL, "spool %s: %s", s->path,
				s->failed ? "an earlier write failed" : "already finished");
	return 0;
}

/* Where the chunk's next page goes. */
static uint8_t *next_page(const struct tm_spool *s)
{
	return s->chunk + s->npages * s->opts.page_size;
}

void *tm_spool_slot(struct tm_spool *s)
{
	if (s->failed || s->finished)
		return NULL;
	return next_page(s);
}

int tm_spool_add_page(struct tm_spool *s, const void *page)
{
	uint8_t *slot = next_page(s);

	if (spool_check_open(s))
		return -1;
	if (!s->npages && s->opts.max_age_ns)
		s->first_ns = s->opts.clock_ns();
	if (page != slot)
		memcpy(slot, page, s->opts.page_size);
	s->npages++;
	s->stats.pages++;
	s->stats.raw_bytes += s->opts.page_size;
	if (s->npages == s->opts.chunk_pages)
		return spool_flush(s);
	return 0;
}

int tm_spool_tick(struct tm_spool *s)
{
	if (!s->npages || !s->opts.max_age_ns || s->failed || s->finished)
		return 0;
	if (s->opts.clock_ns() - s->first_ns < s->opts.max_age_ns)
		return 0;
	return spool_flush(s);
}

int tm_spool_cut(struct tm_spool *s)
{
	return spool_check_open(s) ?: spool_flush(s);
}

int tm_spool_finish(struct tm_spool *s)
{
	if (s->failed)
		return tm_failx(EIO, "spool %s: an earlier write failed", s->path);
	if (s->finished)
		return 0;
	if (spool_flush(s))
		return -1;
	s->finished = true;
	return 0;
}

int tm_spool_salvage(struct tm_spool *s)
{
	if (!s->failed && !tm_spool_finish(s))
		return 0;
	if (!s->error)
		return -1;
	s->npages = 0;
	s->finished = true;
	return 0;
}

int tm_spool_error(const struct tm_spool *s)
{
	return s->error;
}

uint64_t tm_spool_file_bytes(const struct tm_spool *s)
{
	return __atomic_load_n(&s->stats.file_bytes, __ATOMIC_RELAXED);
}

void tm_spool_get_stats(const struct tm_spool *s, struct tm_spool_stats *st)
{
	*st = s->stats;
	st->vetoed_chunks = s->lp.vetoed;	/* the policy keeps the counts */
	st->stopped_chunks = s->lp.stopped;
}

int tm_spool_fd(const struct tm_spool *s)
{
	return s->fd;
}

const char *tm_spool_path(const struct tm_spool *s)
{
	return s->path;
}

enum tm_compression tm_spool_compression(const struct tm_spool *s)
{
	return s->opts.compression;
}

size_t tm_spool_page_size(const struct tm_spool *s)
{
	return s->opts.page_size;
}

bool tm_spool_finished(const struct tm_spool *s)
{
	return s->finished;
}

void tm_spool_destroy(struct tm_spool *s, bool remove)
{
	if (!s)
		return;
	if (s->fd >= 0) {
		close(s->fd);
		if (remove)
			unlink(s->path);
	}
	tm_codec_free(s->codec);
	free(s->chunk);
	free(s->out);
	free(s->path);
	free(s);
}
