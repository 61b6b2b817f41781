/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * page.h - walking one ring-buffer sub-buffer ("page", spec §7) record by
 * record: timestamps, time extends, absolute stamps, padding, lost-event
 * flags (page.c). Used by the readers, the recorder and the printers.
 */
#ifndef TM_PAGE_PRIV_H
#define TM_PAGE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tm_page {
	const uint8_t	*base;		/* start of the page */
	size_t		page_size;
	unsigned int	commit_size;	/* 4 or 8: width of the commit word */
	bool		big_endian;	/* byte order of the page's numbers */
	bool		swap;		/* differs from the host's */
	uint64_t	timestamp;	/* page header time stamp */
	uint32_t	len;		/* bytes of record data after the header */
	int64_t		lost;		/* events lost before this page: 0, n, or -1 unknown */
	/* iteration state */
	uint32_t	off;		/* next record, from the start of the data */
	uint64_t	ts;		/* running time */
};

struct tm_rec {
	uint64_t	ts;		/* absolute time in trace-clock units */
	const void	*data;		/* payload: common fields first */
	uint32_t	size;		/* payload bytes */
	uint32_t	offset;		/* record header offset within the page */
};

/* Offset of the first record (8 + commit_size). */
static inline size_t tm_page_header_size(unsigned int commit_size)
{
	return 8 + commit_size;
}
/*
 * Check the page header and prepare iteration. Returns -1 + message
 * (EINVAL) when the commit length exceeds the page.
 */
TM_HIDDEN int tm_page_init(struct tm_page *pg, const void *page, size_t page_size,
			   unsigned int commit_size, bool big_endian);
/* Next data record: 1 with *rec filled, 0 at the end, -1 + message on a corrupt record. */
TM_HIDDEN int tm_page_next(struct tm_page *pg, struct tm_rec *rec);
/*
 * Walk the rest of the page by record lengths only (no times): 0 when every
 * record fits the commit, -1 + message as tm_page_next() would fail.
 */
TM_HIDDEN int tm_page_check(struct tm_page *pg);

/* ---- used across lib/ ---- */

/* page.c: number of data records in the page, or -1 if it is corrupt (message set). */
TM_HIDDEN int tm_page_count(const void *page, size_t page_size, unsigned int commit_size,
			    bool big_endian);
/*
 * page.c: tm_page_count(), and the event id (the first two bytes, host
 * order) of each record set in ids (a bitmap of 65536 bits; NULL: none).
 */
TM_HIDDEN int tm_page_note_ids(const void *page, size_t page_size, unsigned int commit_size,
			       bool big_endian, uint8_t *ids);

/* The data records of a page: how many, the times of the first and the last. */
struct tm_page_span {
	uint64_t	records;
	uint64_t	first_ts;	/* 0 without records */
	uint64_t	last_ts;
};

/* page.c: fill *span from one walk over the page; -1 if it is corrupt (message set). */
TM_HIDDEN int tm_page_span(const void *page, size_t page_size, unsigned int commit_size,
			   bool big_endian, struct tm_page_span *span);
/*
 * page.c: out (page_size bytes) becomes the page with only its records of
 * time >= from, their times unchanged (the header time is the time just
 * before the first of them, spec §7.7) and no lost-event flags. Returns the
 * number of records kept (0: an empty page), -1 if the page is corrupt.
 */
TM_HIDDEN int tm_page_trim(const void *page, size_t page_size, unsigned int commit_size,
			   bool big_endian, uint64_t from, void *out);

#endif /* TM_PAGE_PRIV_H */
