// SPDX-License-Identifier: GPL-2.0-only
/*
 * spool-check.c - checking the spool file of a recording that did not end
 * normally (killed, disk full): every chunk is read back, decompressed and
 * its pages parsed (their event ids noted); the file is cut after the last
 * whole, sound chunk.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat/dat-format.h"
#include "util/internal.h"
#include "util/meter.h"
#include "spool.h"
#include "dat/codec.h"
#include "ring.h"
#include "dat/page.h"

#define TM_CHECK_MAX_CHUNK	(256u << 20)	/* larger sizes in a header are damage */

struct spool_walk {
	const char		*path;
	const struct tm_spool_opts *o;
	int			fd;
	uint64_t		size;
	struct tm_codec		*codec;
	uint8_t			*raw, *packed;
	size_t			raw_cap, packed_cap;
	uint8_t			*ids;
	uint64_t		chunk_last_ts;	/* of the chunk just parsed */
	uint64_t		chunk_records;
	struct tm_meter		*meter;
	uint64_t		events;		/* records of the pages checked */
};

static int grow(uint8_t **buf, size_t *cap, size_t want, const char *path)
{
	uint8_t *p;

	if (want <= *cap)
		return 0;
	p = realloc(*buf, want);
	if (!p)
		return tm_fail(ENOMEM, "spool %s", path);
	*buf = p;
	*cap = want;
	return 0;
}

/*
 * Every page of len raw bytes parses (ids noted, the latest record time in
 * chunk_last_ts); false at the first that does not.
 */
static bool pages_ok(struct spool_walk *w, const uint8_t *raw, size_t len)
{
	size_t ps = w->o->page_size;
	struct tm_page_span span;

	w->chunk_last_ts = 0;
	w->chunk_records = 0;
	for (size_t off = 0; off + ps <= len; off += ps) {
		if (tm_page_note_ids(raw + off, ps, TM_COMMIT_SIZE, tm_host_is_big_endian(),
				     w->ids) < 0 ||
		    tm_page_span(raw + off, ps, TM_COMMIT_SIZE, tm_host_is_big_endian(), &span))
			return false;
		if (span.records && span.last_ts > w->chunk_last_ts)
			w->chunk_last_ts = span.last_ts;
		w->chunk_records += span.records;
		w->events += span.records;
	}
	return true;
}

/* The chunk at off: its size in the file, or 0 when it is torn or damaged. */
static uint64_t chunk_at(struct spool_walk *w, uint64_t off, uint64_t *pages)
{
	uint8_t hdr[TM_DAT_CHUNK_HDR_LEN];
	uint32_t csize, usize;

	if (off + sizeof(hdr) > w->size ||
	    pread(w->fd, hdr, sizeof(hdr), (off_t)off) != (ssize_t)sizeof(hdr))
		return 0;
	csize = tm_get32(hdr, false);
	usize = tm_get32(hdr + 4, false);
	if (!csize || !usize || usize % w->o->page_size || usize > TM_CHECK_MAX_CHUNK ||
	    csize > TM_CHECK_MAX_CHUNK || off + sizeof(hdr) + csize > w->size)
		return 0;
	if (grow(&w->packed, &w->packed_cap, csize, w->path) ||
	    grow(&w->raw, &w->raw_cap, usize, w->path) ||
	    pread(w->fd, w->packed, csize, (off_t)(off + sizeof(hdr))) != (ssize_t)csize ||
	    tm_codec_decompress(w->codec, w->raw, usize, w->packed, csize) != (ssize_t)usize ||
	    !pages_ok(w, w->raw, usize))
		return 0;
	*pages = usize / w->o->page_size;
	return sizeof(hdr) + csize;
}

/* Uncompressed spools: whole pages, each of them sound. */
static uint64_t raw_page_at(struct spool_walk *w, uint64_t off, uint64_t *pages)
{
	size_t ps = w->o->page_size;

	if (off + ps > w->size || grow(&w->raw, &w->raw_cap, ps, w->path) ||
	    pread(w->fd, w->raw, ps, (off_t)off) != (ssize_t)ps || !pages_ok(w, w->raw, ps))
		return 0;
	*pages = 1;
	return ps;
}

static void walk(struct spool_walk *w, struct tm_spool_stats *st)
{
	uint64_t off = 0, step, pages;

	memset(st, 0, sizeof(*st));
	for (;;) {
		pages = 0;
		step = w->codec ? chunk_at(w, off, &pages) : raw_page_at(w, off, &pages);
		if (!step)
			break;
		off += step;
		if (w->chunk_last_ts > st->last_ts)
			st->last_ts = w->chunk_last_ts;
		st->records += w->chunk_records;
		st->pages += pages;
		st->chunks += w->codec ? 1 : 0;
		if (w->meter) {
			w->meter->p.done += step;
			w->meter->p.events += w->events;
			w->events = 0;
			tm_meter_show(w->meter);
		}
	}
	st->raw_bytes = st->pages * w->o->page_size;
	st->file_bytes = off;
}

int tm_spool_check_file(const char *path, const struct tm_spool_opts *opts,
			struct tm_spool_stats *st, uint64_t *dropped, uint8_t *ids,
			struct tm_meter *meter)
{
	struct spool_walk w = { .path = path, .o = opts, .fd = -1, .ids = ids, .meter = meter };
	struct stat sb;
	int ret = -1;

	if (!opts->page_size)
		return tm_failx(EINVAL, "spool %s: page size 0", path);
	w.fd = open(path, (dropped ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (w.fd < 0)
		return tm_fail(errno, "open spool %s", path);
	if (fstat(w.fd, &sb)) {
		tm_fail(errno, "spool %s", path);
		goto out;
	}
	w.size = (uint64_t)sb.st_size;
	if (opts->compression != TM_COMPRESS_NONE) {
		w.codec = tm_codec_new(opts->compression, 1);
		if (!w.codec)
			goto out;
	}
	walk(&w, st);
	if (!dropped) {
		ret = 0;
		goto out;
	}
	*dropped = w.size - st->file_bytes;
	/* a torn or damaged tail goes, so the file is exactly its whole chunks */
	if (*dropped && ftruncate(w.fd, (off_t)st->file_bytes)) {
		tm_fail(errno, "cut spool %s at %llu bytes", path,
			(unsigned long long)st->file_bytes);
		goto out;
	}
	ret = 0;
out:
	tm_codec_free(w.codec);
	free(w.raw);
	free(w.packed);
	close(w.fd);
	return ret;
}
