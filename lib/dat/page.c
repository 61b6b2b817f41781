// SPDX-License-Identifier: GPL-2.0-only
/* page.c - record iteration over one ring-buffer page (trace-dat-format.md §7). */
#include <errno.h>
#include <string.h>

#include "util/internal.h"
#include "dat-format.h"
#include "page.h"

int tm_page_init(struct tm_page *pg, const void *page, size_t page_size,
		 unsigned int commit_size, bool big_endian)
{
	size_t hdr = tm_page_header_size(commit_size);
	uint64_t commit;
	uint32_t flags;

	if ((commit_size != 4 && commit_size != 8) || page_size < hdr)
		return tm_failx(EINVAL, "bad page geometry (page %zu, commit %u)",
				page_size, commit_size);
	pg->base = page;
	pg->page_size = page_size;
	pg->commit_size = commit_size;
	pg->big_endian = big_endian;
	pg->swap = big_endian != tm_host_is_big_endian();
	pg->timestamp = tm_get64(pg->base, pg->swap);
	commit = commit_size == 8 ? tm_get64(pg->base + 8, pg->swap)
				  : tm_get32(pg->base + 8, pg->swap);
	/* 64-bit kernels sign-extend bit 31 into the upper half: look at bits 0-31 only. */
	flags = (uint32_t)commit;
	pg->len = flags & TM_PAGE_COMMIT_LEN_MASK;
	if (pg->len > page_size - hdr)
		return tm_failx(EINVAL, "page commit %u exceeds page size %zu",
				pg->len, page_size);
	pg->lost = 0;
	if (flags & TM_PAGE_MISSED_EVENTS) {
		pg->lost = -1;
		if ((flags & TM_PAGE_MISSED_STORED) && hdr + pg->len + commit_size <= page_size) {
			const uint8_t *p = pg->base + hdr + pg->len;

			pg->lost = commit_size == 8 ? (int64_t)tm_get64(p, pg->swap)
						    : (int64_t)tm_get32(p, pg->swap);
		}
	}
	pg->off = 0;
	pg->ts = pg->timestamp;
	return 0;
}

static int page_corrupt(const struct tm_page *pg)
{
	return tm_failx(EINVAL, "record at page offset %zu runs past the commit (%u bytes)",
			tm_page_header_size(pg->commit_size) + pg->off, pg->len);
}

/*
 * The record at pg->off: its type, time delta and array[0] (0 where it has
 * none), and its length with header. 1, 0 at the end of the data (a null
 * padding record may be the last 4 bytes), -1 + message if it overruns.
 */
static inline int page_rec(const struct tm_page *pg, const uint8_t *data, uint32_t *type_len,
			   uint32_t *delta, uint32_t *arg, uint32_t *total)
{
	const uint8_t *p = data + pg->off;
	uint32_t w, left = pg->len - pg->off;

	if (pg->off + 4 > pg->len)
		return 0;
	w = tm_get32(p, pg->swap);
	if (pg->big_endian) {
		*type_len = w >> 27;
		*delta = w & 0x07ffffffu;
	} else {
		*type_len = w & 0x1f;
		*delta = w >> 5;
	}
	if (*type_len == TM_RB_TYPE_PADDING && !*delta)
		return 0;
	*arg = 0;
	/* every type except short data records carries array[0] */
	if (*type_len == 0 || *type_len > TM_RB_TYPE_DATA_MAX) {
		if (left < 8)
			return page_corrupt(pg);
		*arg = tm_get32(p + 4, pg->swap);
	}
	switch (*type_len) {
	case TM_RB_TYPE_PADDING:
		*total = 4 + *arg;	/* a discarded record */
		break;
	case TM_RB_TYPE_TIME_EXTEND:
	case TM_RB_TYPE_TIME_STAMP:
		*total = 8;
		break;
	case 0:
		/* bound array[0] first: rounding a huge value up would wrap */
		if (*arg < 4 || *arg - 4 > left - 8)
			return page_corrupt(pg);
		*total = 8 + ((*arg - 4 + 3) & ~3u);
		break;
	default:
		*total = 4 + *type_len * 4;
	}
	if (*total < 4 || *total > left)
		return page_corrupt(pg);
	return 1;
}

int tm_page_next(struct tm_page *pg, struct tm_rec *rec)
{
	const uint8_t *data = pg->base + tm_page_header_size(pg->commit_size);
	uint32_t type_len, delta, arg, total = 0;
	int r;

	while ((r = page_rec(pg, data, &type_len, &delta, &arg, &total)) > 0) {
		uint32_t hdr = type_len ? 4 : 8;

		switch (type_len) {
		case TM_RB_TYPE_PADDING:
			pg->ts += delta;
			break;
		case TM_RB_TYPE_TIME_EXTEND:
			pg->ts += ((uint64_t)arg << TM_RB_TS_SHIFT) + delta;
			break;
		case TM_RB_TYPE_TIME_STAMP:
			pg->ts = (((uint64_t)arg << TM_RB_TS_SHIFT) | delta) |
				 (pg->ts & TM_RB_TS_TOP_MASK);
			break;
		default:
			pg->ts += delta;
			rec->ts = pg->ts;
			rec->offset = tm_page_header_size(pg->commit_size) + pg->off;
			rec->data = pg->base + rec->offset + hdr;
			rec->size = total - hdr;
			pg->off += total;
			return 1;
		}
		pg->off += total;
	}
	return r;
}

/* The type of a record header word in the host's byte order. */
static inline uint32_t host_type_len(uint32_t w)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return w >> 27;
#else
	return w & 0x1f;
#endif
}

int tm_page_check(struct tm_page *pg)
{
	const uint8_t *data = pg->base + tm_page_header_size(pg->commit_size);
	uint32_t type_len, delta, arg, total = 0, last = pg->off;
	int r;

	if (pg->swap)
		goto slow;
	/*
	 * The recorder's pages are in the host's order and nearly all their
	 * records short data records: step over those by their length alone.
	 * One that runs past the commit leaves off past len, checked at the end.
	 */
	while (pg->off + 4 <= pg->len) {
		uint32_t w;

		memcpy(&w, data + pg->off, 4);
		type_len = host_type_len(w);
		last = pg->off;
		if (type_len - 1 < TM_RB_TYPE_DATA_MAX) {
			pg->off += 4 + type_len * 4;
			continue;
		}
		r = page_rec(pg, data, &type_len, &delta, &arg, &total);
		if (r <= 0)
			return r;
		pg->off += total;
	}
	if (pg->off > pg->len) {
		pg->off = last;
		return page_corrupt(pg);
	}
	return 0;
slow:
	while ((r = page_rec(pg, data, &type_len, &delta, &arg, &total)) > 0)
		pg->off += total;
	return r;
}

int tm_page_note_ids(const void *page, size_t page_size, unsigned int commit_size,
		     bool big_endian, uint8_t *ids)
{
	struct tm_page pg;
	struct tm_rec rec;
	int n = 0, r;

	if (tm_page_init(&pg, page, page_size, commit_size, big_endian))
		return -1;
	while ((r = tm_page_next(&pg, &rec)) > 0) {
		uint16_t id;

		n++;
		if (!ids || rec.size < sizeof(id))
			continue;
		memcpy(&id, rec.data, sizeof(id));
		ids[id / 8] |= 1u << (id % 8);
	}
	return r < 0 ? -1 : n;
}

int tm_page_count(const void *page, size_t page_size, unsigned int commit_size,
		  bool big_endian)
{
	return tm_page_note_ids(page, page_size, commit_size, big_endian, NULL);
}

int tm_page_span(const void *page, size_t page_size, unsigned int commit_size, bool big_endian,
		 struct tm_page_span *span)
{
	struct tm_page pg;
	struct tm_rec rec;
	int r;

	memset(span, 0, sizeof(*span));
	if (tm_page_init(&pg, page, page_size, commit_size, big_endian))
		return -1;
	while ((r = tm_page_next(&pg, &rec)) > 0) {
		if (!span->records++)
			span->first_ts = rec.ts;
		span->last_ts = rec.ts;
	}
	return r < 0 ? -1 : 0;
}

/* The time_delta of the record header at off (its type does not matter). */
static uint32_t page_delta_at(const struct tm_page *pg, size_t off)
{
	uint32_t w = tm_get32(pg->base + off, pg->swap);

	return pg->big_endian ? w & 0x07ffffffu : w >> 5;
}

int tm_page_trim(const void *page, size_t page_size, unsigned int commit_size,
		 bool big_endian, uint64_t from, void *out)
{
	size_t hdr = tm_page_header_size(commit_size), keep;
	struct tm_page pg;
	struct tm_rec rec;
	uint64_t ts, commit;
	int r, n = 0;

	if (tm_page_init(&pg, page, page_size, commit_size, big_endian))
		return -1;
	while ((r = tm_page_next(&pg, &rec)) > 0 && rec.ts < from)
		;
	if (r < 0)
		return -1;
	memset(out, 0, page_size);
	if (!r)
		return 0;	/* nothing at or after from: an empty page */
	/* the time just before the record keeps its delta, and every later one, right */
	ts = rec.ts - page_delta_at(&pg, rec.offset);
	keep = hdr + pg.len - rec.offset;
	memcpy((uint8_t *)out + hdr, pg.base + rec.offset, keep);
	do
		n++;
	while ((r = tm_page_next(&pg, &rec)) > 0);
	if (r < 0)
		return -1;
	/* the page's lost-event flags are about the time before from: dropped */
	commit = keep;
	if (pg.swap) {
		ts = bswap_64(ts);
		commit = commit_size == 8 ? bswap_64(commit) : bswap_32((uint32_t)commit);
	}
	memcpy(out, &ts, 8);
	if (commit_size == 8)
		memcpy((uint8_t *)out + 8, &commit, 8);
	else
		tm_put32((uint8_t *)out + 8, (uint32_t)commit);
	return n;
}
