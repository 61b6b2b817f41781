// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_corrupt_page.c - ring-buffer pages with impossible commit words or
 * record lengths, as a kernel bug or a racing writer could hand them out:
 * the page walker refuses them without reading past the page (each page is
 * an exact-size heap block, so ASan sees any overread) and the recorder's
 * accounting counts them as corrupt instead of passing them on (for a page
 * read() handed to the file: the impossible commit words only).
 */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "tm_test.h"
#include "dat/dat-format.h"
#include "dat/dat-internal.h"
#include "record/record-internal.h"
#include "dat/page.h"

#define SMALL	64	/* page size: 16 header bytes, 48 of data */

struct crafted {
	const char	*what;
	uint64_t	commit;
	uint32_t	words[12];	/* the data area, 32-bit words */
	int		nwords;
};

/* type_len in bits 0-4, time delta above (little-endian hosts, as the recorder's pages) */
#define HDR(type_len, delta)	((uint32_t)(type_len) | (uint32_t)(delta) << 5)

static const struct crafted corrupt[] = {
	{ "commit past the page", SMALL, { 0 }, 0 },
	{ "commit length bits all set", 0x07ffffff, { 0 }, 0 },
	{ "long record whose array[0] is missing", 4, { HDR(0, 0) }, 1 },
	{ "long record longer than the commit", 16, { HDR(0, 0), 4000, 1, 2 }, 4 },
	{ "long record length wraps when rounded", 16, { HDR(0, 0), 0xfffffffd, 1, 2 }, 4 },
	{ "short record longer than the commit", 8, { HDR(3, 0), 1 }, 2 },
	{ "time extend cut by the commit", 4, { HDR(TM_RB_TYPE_TIME_EXTEND, 1) }, 1 },
	{ "padding longer than the commit", 12, { HDR(TM_RB_TYPE_PADDING, 1), 400, 0 }, 3 },
	{ "record after a good one runs past", 20, { HDR(1, 0), 7, HDR(0, 0), 64, 0 }, 5 },
};

static uint8_t *make_page(const struct crafted *c)
{
	uint8_t *page = calloc(1, SMALL);
	int i;

	if (!page)
		return NULL;
	tm_put64(page, 1000);
	tm_put64(page + 8, c->commit);
	for (i = 0; i < c->nwords; i++)
		tm_put32(page + 16 + 4 * i, c->words[i]);
	return page;
}

/* The walker returns -1 somewhere (init or a record), reading only inside the page. */
static bool walker_refuses(const uint8_t *page)
{
	struct tm_page pg;
	struct tm_rec rec;
	int r;

	if (tm_page_init(&pg, page, SMALL, 8, false))
		return true;
	while ((r = tm_page_next(&pg, &rec)) > 0)
		;
	return r < 0;
}

TM_TEST(corrupt_pages_are_refused_without_reading_past_them)
{
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(corrupt); i++) {
		uint8_t *page = make_page(&corrupt[i]);

		TM_REQUIRE(page);
		if (!walker_refuses(page)) {
			fprintf(stderr, "  accepted: %s\n", corrupt[i].what);
			t->failures++;
		}
		TM_CHECK_INT(tm_page_count(page, SMALL, 8, false), -1);
		free(page);
	}
}

TM_TEST(corrupt_pages_are_counted_and_dropped_by_the_recorder)
{
	struct tm_cpu_record_stats st = { 0 };
	const struct crafted good = {
		"two records, 5 lost events stored after them",
		16 | TM_PAGE_MISSED_EVENTS | TM_PAGE_MISSED_STORED,
		{ HDR(1, 10), 7, HDR(1, 10), 8, 5, 0 }, 6,
	};
	uint8_t *page;
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(corrupt); i++) {
		page = make_page(&corrupt[i]);
		TM_REQUIRE(page);
		TM_CHECK(!tm_record_stats_add_page(&st, page, SMALL, true));
		free(page);
	}
	TM_CHECK_INT(st.corrupt_pages, TM_ARRAY_SIZE(corrupt));
	TM_CHECK_INT(st.pages, 0);
	page = make_page(&good);
	TM_REQUIRE(page);
	TM_CHECK(tm_record_stats_add_page(&st, page, SMALL, true));
	TM_CHECK_INT(st.pages, 1);
	TM_CHECK_INT(st.raw_bytes, SMALL);
	TM_CHECK_INT(st.lost_pages, 1);
	TM_CHECK_INT(st.lost_stored, 5);
	TM_CHECK_INT(st.corrupt_pages, TM_ARRAY_SIZE(corrupt));
	free(page);
}

/*
 * A page read() handed over (walk false) is checked by its commit word only:
 * the kernel built it under its reader lock, where no writer reaches.
 */
TM_TEST(read_pages_are_checked_by_their_commit_word)
{
	struct tm_cpu_record_stats st = { 0 };
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(corrupt); i++) {
		uint8_t *page = make_page(&corrupt[i]);
		/* the first two are impossible commit words, the rest impossible records */
		bool commit_bad = i < 2;

		TM_REQUIRE(page);
		TM_CHECK(tm_record_stats_add_page(&st, page, SMALL, false) == !commit_bad);
		free(page);
	}
	TM_CHECK_INT(st.corrupt_pages, 2);
	TM_CHECK_INT(st.pages, TM_ARRAY_SIZE(corrupt) - 2);
}
