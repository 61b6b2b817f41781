// SPDX-License-Identifier: GPL-2.0-only
/*
 * recover-ring.c - what a killed recorder's instance still holds. Its ring
 * buffers keep every event the recorder had not read yet (and, when the
 * recorder died holding a reader sub-buffer, that one again): each CPU's
 * ring is drained after tracing is turned off there, records no later than
 * the last one of that CPU's spool, or of a rotation's files before it, are
 * dropped (those have them), and the rest is appended to the spool as
 * chunks of its own, so the writer sees one CPU blob as from a recording
 * that ended normally.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "salvage-internal.h"
#include "dat/dat-format.h"
#include "dat/page.h"
#include "record/ring.h"
#include "record/spool.h"

struct ring_take {
	struct tm_spool		*spool;
	uint64_t		after;		/* the last record time already kept */
	size_t			page_size;
	uint8_t			*trimmed;	/* a page with the spooled records cut */
	uint8_t			*ids;		/* event ids met */
	enum tm_compression	compression;
	uint64_t		records, pages, bytes;
	uint32_t		chunks;
	int			fd;		/* the spool file, appended to */
};

static bool rr_compressed(const struct ring_take *t)
{
	return t->compression != TM_COMPRESS_NONE;
}

static int append_chunk(void *ctx, const void *data, size_t len, uint32_t pages)
{
	struct ring_take *t = ctx;

	if (tm_write_all(t->fd, data, len))
		return -1;
	t->pages += pages;
	t->bytes += len;
	t->chunks += rr_compressed(t) ? 1 : 0;
	return 0;
}

/* One page of the ring: its records after t->after go to the spool. */
static int take_page(void *ctx, const void *page, size_t size)
{
	struct ring_take *t = ctx;
	bool be = tm_host_is_big_endian();
	struct tm_page_span span;
	int n;

	if (tm_page_span(page, size, TM_COMMIT_SIZE, be, &span))
		return -1;
	if (!span.records || span.last_ts <= t->after)
		return 0;
	if (span.first_ts <= t->after) {
		n = tm_page_trim(page, size, TM_COMMIT_SIZE, be, t->after + 1, t->trimmed);
		if (n <= 0)
			return n;
		page = t->trimmed;
		span.records = (uint64_t)n;
	}
	if (tm_page_note_ids(page, size, TM_COMMIT_SIZE, be, t->ids) < 0)
		return -1;
	t->records += span.records;
	return tm_spool_add_page(t->spool, page);
}

static int take_ring(const struct tm_recover_ring *rr, int cpu, struct ring_take *t)
{
	struct tm_chunk_sink sink = { .chunk = append_chunk, .ctx = t };
	struct tm_spool_opts so = {
		.compression = rr->compression, .level = rr->level, .page_size = rr->page_size,
		.chunk_pages = TM_SPOOL_DEFAULT_CHUNK_BYTES / rr->page_size ?: 1, .sink = &sink,
	};
	struct tm_ring *ring;
	int ret = -1;

	t->spool = tm_spool_create(NULL, &so);
	if (!t->spool)
		return -1;
	ring = tm_ring_open(rr->dir, cpu, rr->page_size, true);
	/* what the recorder read but never wrote is still there: take_page() drops the rest */
	if (ring)
		tm_ring_reread_reader(ring);
	if (ring && tm_ring_drain(ring, true, take_page, t) >= 0 && !tm_spool_finish(t->spool))
		ret = 0;
	tm_ring_close(ring);
	tm_spool_destroy(t->spool, false);
	return ret;
}

int tm_recover_ring(const struct tm_recover_ring *rr, int cpu, const char *spool_path,
		    uint64_t after, struct tm_ring_taken *taken)
{
	struct ring_take t = {
		.after = after, .page_size = rr->page_size, .ids = rr->ids, .fd = -1,
		.compression = rr->compression,
	};
	int ret = -1;

	memset(taken, 0, sizeof(*taken));
	t.trimmed = malloc(rr->page_size);
	if (!t.trimmed)
		return tm_fail(ENOMEM, "recover cpu%d", cpu);
	t.fd = open(spool_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (t.fd < 0)
		tm_fail(errno, "open spool %s", spool_path);
	else if (!take_ring(rr, cpu, &t))
		ret = 0;
	else
		tm_fail_prefix("%s cpu%d", rr->dir, cpu);
	if (t.fd >= 0 && close(t.fd) && !ret)
		ret = tm_fail(errno, "write spool %s", spool_path);
	taken->records = t.records;
	taken->pages = t.pages;
	taken->chunks = t.chunks;
	taken->bytes = t.bytes;
	free(t.trimmed);
	return ret;
}
