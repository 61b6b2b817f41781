// SPDX-License-Identifier: GPL-2.0-only
/* test_page.c - the page walker on the fixtures' raw kernel pages. */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "tm_test.h"
#include "dat/dat-format.h"
#include "dat/dat-internal.h"
#include "dat/page.h"
#include "util/tm-error.h"

/* Count records and check that timestamps never go backwards. */
static int count_raw(struct tm_test *t, const char *name, int *lost_pages)
{
	size_t len, off;
	char *raw = tm_read_file(tm_fixture(name), &len);
	int total = 0;

	*lost_pages = 0;
	if (!raw) {
		fprintf(stderr, "  %s\n", tm_last_error());
		t->failures++;
		return -1;
	}
	for (off = 0; off + 4096 <= len; off += 4096) {
		struct tm_page pg;
		struct tm_rec rec;
		uint64_t last = 0;
		int r;

		TM_CHECK(tm_page_init(&pg, raw + off, 4096, 8, false) == 0);
		if (pg.lost)
			(*lost_pages)++;
		while ((r = tm_page_next(&pg, &rec)) > 0) {
			TM_CHECK(rec.ts >= last);
			last = rec.ts;
			total++;
		}
		TM_CHECK_INT(r, 0);
	}
	free(raw);
	return total;
}

TM_TEST(page_counts_match_fixture_readme)
{
	int lost;

	TM_CHECK_INT(count_raw(t, "raw/A.cpu0.raw", &lost), 430);
	TM_CHECK_INT(lost, 0);
	TM_CHECK_INT(count_raw(t, "raw/A.cpu1.raw", &lost), 391);
	TM_CHECK_INT(count_raw(t, "raw/B.cpu0.raw", &lost), 208);
	TM_CHECK_INT(lost, 1);
	TM_CHECK_INT(count_raw(t, "raw/B.cpu1.raw", &lost), 273);
}

TM_TEST(page_first_record_of_a_cpu0)
{
	size_t len;
	char *raw = tm_read_file(tm_fixture("raw/A.cpu0.raw"), &len);
	struct tm_page pg;
	struct tm_rec rec;

	TM_REQUIRE(raw);
	TM_CHECK_INT(tm_page_init(&pg, raw, 4096, 8, false), 0);
	TM_CHECK_INT(pg.timestamp, 1415676475868ull);
	TM_CHECK_INT(pg.len, 4060);
	TM_CHECK_INT(tm_page_next(&pg, &rec), 1);
	TM_CHECK_INT(rec.ts, 1415676475868ull);
	TM_CHECK_INT(rec.size, 64);
	TM_CHECK_INT(tm_get16(rec.data, false), 372);	/* sched_switch */
	TM_CHECK_INT(tm_page_next(&pg, &rec), 1);
	TM_CHECK_INT(rec.ts, 1415676664637ull);
	free(raw);
}

TM_TEST(page_lost_counts_of_set_b)
{
	size_t len;
	char *raw0 = tm_read_file(tm_fixture("raw/B.cpu0.raw"), &len);
	char *raw1 = tm_read_file(tm_fixture("raw/B.cpu1.raw"), &len);
	struct tm_page pg;

	TM_REQUIRE(raw0 && raw1);
	TM_CHECK_INT(tm_page_init(&pg, raw0, 4096, 8, false), 0);
	TM_CHECK_INT(pg.lost, -1);
	TM_CHECK_INT(tm_page_init(&pg, raw1, 4096, 8, false), 0);
	TM_CHECK_INT(pg.lost, 1235);
	TM_CHECK_INT(pg.len, 4072);
	free(raw0);
	free(raw1);
}

TM_TEST(page_rejects_commit_past_end)
{
	uint8_t page[4096] = { 0 };
	struct tm_page pg;

	tm_put64(page + 8, 4081);
	TM_CHECK_INT(tm_page_init(&pg, page, sizeof(page), 8, false), -1);
	tm_put64(page + 8, 8);
	tm_put32(page + 16, 0);		/* long form, array[0] missing */
	TM_CHECK_INT(tm_page_init(&pg, page, sizeof(page), 8, false), 0);
	tm_put32(page + 16, 0);
	tm_put32(page + 20, 4000);	/* long record longer than the data */
	{
		struct tm_rec rec;

		TM_CHECK_INT(tm_page_next(&pg, &rec), -1);
	}
}

/* Found by the fuzzer: rounding array[0] = 0xffffffff up wrapped the size check. */
TM_TEST(page_rejects_huge_long_record_length)
{
	uint8_t page[4096] = { 0 };
	struct tm_page pg;
	struct tm_rec rec;

	tm_put64(page + 8, 64);
	tm_put32(page + 16, 0);			/* type_len 0: long form */
	for (uint32_t len = 0xfffffff0u; len != 0; len++) {
		tm_put32(page + 20, len);
		TM_REQUIRE(tm_page_init(&pg, page, sizeof(page), 8, false) == 0);
		TM_CHECK_INT(tm_page_next(&pg, &rec), -1);
	}
}

/* tm_page_next()'s verdict on a whole page: 0 or -1, as tm_page_check() must give. */
static int walk_verdict(const uint8_t *page, size_t size)
{
	struct tm_page pg;
	struct tm_rec rec;
	int r;

	if (tm_page_init(&pg, page, size, 8, false))
		return -2;
	while ((r = tm_page_next(&pg, &rec)) > 0)
		;
	return r;
}

static int check_verdict(const uint8_t *page, size_t size)
{
	struct tm_page pg;

	if (tm_page_init(&pg, page, size, 8, false))
		return -2;
	return tm_page_check(&pg);
}

/*
 * The recorder's length-only check agrees with the full walk: on the
 * fixtures' pages, and on them with record headers overwritten at random
 * (types, lengths, array[0], the commit), corrupt or not.
 */
TM_TEST(page_check_agrees_with_the_walk)
{
	static const char *const files[] = {
		"raw/A.cpu0.raw", "raw/A.cpu1.raw", "raw/B.cpu0.raw", "raw/B.cpu1.raw",
	};
	unsigned int seed = 1, bad = 0, pages = 0;

	for (size_t f = 0; f < TM_ARRAY_SIZE(files); f++) {
		size_t len, off;
		char *raw = tm_read_file(tm_fixture(files[f]), &len);

		TM_REQUIRE(raw != NULL);
		for (off = 0; off + 4096 <= len; off += 4096) {
			uint8_t page[4096];

			memcpy(page, raw + off, sizeof(page));
			TM_CHECK_INT(check_verdict(page, sizeof(page)), 0);
			TM_CHECK_INT(walk_verdict(page, sizeof(page)), 0);
			for (int i = 0; i < 200; i++) {
				size_t at = 16 + (rand_r(&seed) % (4096 - 20)) / 4 * 4;
				uint32_t v = (uint32_t)rand_r(&seed);

				memcpy(page, raw + off, sizeof(page));
				if (i % 4 == 0)
					v &= 0x1f;	/* a type alone: short, long, padding, time */
				memcpy(page + at, &v, 4);
				bad += walk_verdict(page, sizeof(page)) < 0;
				TM_CHECK_INT(check_verdict(page, sizeof(page)),
					     walk_verdict(page, sizeof(page)));
				pages++;
			}
		}
		free(raw);
	}
	TM_CHECK(pages >= 3000);
	TM_CHECK(bad > 100);
}
