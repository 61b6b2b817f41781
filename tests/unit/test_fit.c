// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_fit.c - tm_fit_fields(): whole fields dropped by rank until the line
 * fits, the rank-0 ones never, an attached field with its head.
 */
#include "tm_test.h"
#include "util/tm-fit.h"

#define N(a)	((int)(sizeof(a) / sizeof((a)[0])))

/* The kept fields as one string, joined as the status line joins them. */
static const char *joined(const struct tm_fit_field *f, int n)
{
	static char line[512];
	int len = 0;

	line[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (!f[i].kept)
			continue;
		len += snprintf(line + len, sizeof(line) - len, "%s%s",
				len ? (f[i].attached ? " " : "  ") : "", f[i].text);
	}
	return line;
}

/* A record line: sub 1, fill 2, events 4, bytes 5, rate 6, ratio 7, loss 0. */
static void record_line(struct tm_fit_field *f)
{
	const struct tm_fit_field line[] = {
		{ .text = "record 60.2s", .rank = 1 },
		{ .text = "12.3k ev/s", .rank = 6 },
		{ .text = "1.23M events", .rank = 4 },
		{ .text = "60.6 MB read -> 1.6 MB", .rank = 5 },
		{ .text = "(37.9x)", .rank = 7, .attached = true },
		{ .text = "buffer 12%", .rank = 2 },
		{ .text = "LOST 2041", .rank = 0 },
	};

	memcpy(f, line, sizeof(line));
}

TM_TEST(fit_wide_enough_keeps_all)
{
	struct tm_fit_field f[7];

	record_line(f);
	TM_CHECK_INT(tm_fit_fields(f, 7, 200), 93);
	TM_CHECK_STR(joined(f, 7), "record 60.2s  12.3k ev/s  1.23M events  "
		     "60.6 MB read -> 1.6 MB (37.9x)  buffer 12%  LOST 2041");
	/* exactly the width fits */
	record_line(f);
	TM_CHECK_INT(tm_fit_fields(f, 7, 93), 93);
	TM_CHECK(f[4].kept);
}

TM_TEST(fit_drops_least_important_whole)
{
	struct tm_fit_field f[7];

	/* 79 columns (an 80-column terminal): the ratio, then the rate go */
	record_line(f);
	TM_CHECK_INT(tm_fit_fields(f, 7, 79), 73);
	TM_CHECK_STR(joined(f, 7),
		     "record 60.2s  1.23M events  60.6 MB read -> 1.6 MB  buffer 12%  LOST 2041");
	/* 59: then the bytes */
	record_line(f);
	TM_CHECK_INT(tm_fit_fields(f, 7, 59), 49);
	TM_CHECK_STR(joined(f, 7), "record 60.2s  1.23M events  buffer 12%  LOST 2041");
	/* 40: then the events */
	record_line(f);
	TM_CHECK_STR((tm_fit_fields(f, 7, 40), joined(f, 7)), "record 60.2s  buffer 12%  LOST 2041");
	/* 20: the loss stays, whatever else goes */
	record_line(f);
	TM_CHECK_INT(tm_fit_fields(f, 7, 20), 9);
	TM_CHECK_STR(joined(f, 7), "LOST 2041");
	/* narrower than the loss alone: kept all the same, the width says so */
	record_line(f);
	TM_CHECK_INT(tm_fit_fields(f, 7, 5), 9);
	TM_CHECK(f[6].kept);
	for (int i = 0; i < 6; i++)
		TM_CHECK(!f[i].kept);
}

TM_TEST(fit_never_cuts_and_keeps_rank_zero)
{
	struct tm_fit_field f[7];

	/* at every width, the result fits (or is the loss alone) and has whole fields */
	for (int w = 0; w < 120; w++) {
		int got;

		record_line(f);
		got = tm_fit_fields(f, 7, w);
		TM_CHECK(got <= w || got == 9);
		TM_CHECK(f[6].kept);
		TM_CHECK_INT(got, (int)strlen(joined(f, 7)));
		/* a lower-ranked field is never kept where a higher-ranked one went */
		for (int i = 0; i < 7; i++)
			for (int j = 0; j < 7; j++)
				if (f[i].kept && !f[j].kept && !f[i].attached)
					TM_CHECK(f[i].rank <= f[j].rank);
	}
}

TM_TEST(fit_attached_goes_with_its_head)
{
	/* the attached field ranks above its head: dropping the head takes it too */
	struct tm_fit_field f[] = {
		{ .text = "aaaa", .rank = 1 },
		{ .text = "bbbbbbbbbb", .rank = 3 },
		{ .text = "(c)", .rank = 2, .attached = true },
		{ .text = "dd", .rank = 0 },
	};

	TM_CHECK_INT(tm_fit_fields(f, N(f), 24), 24);
	TM_CHECK_STR(joined(f, N(f)), "aaaa  bbbbbbbbbb (c)  dd");
	TM_CHECK_INT(tm_fit_fields(f, N(f), 20), 8);
	TM_CHECK_STR(joined(f, N(f)), "aaaa  dd");
	TM_CHECK(!f[2].kept);
	/* absent fields take no room, and an attached one after an absent head is absent */
	f[1].text = NULL;
	TM_CHECK_INT(tm_fit_fields(f, N(f), 80), 8);
	TM_CHECK(!f[2].kept);
	/* equal ranks: the rightmost goes first */
	struct tm_fit_field g[] = {
		{ .text = "left", .rank = 2 },
		{ .text = "right", .rank = 2 },
		{ .text = "lost 0", .rank = 0 },
	};
	TM_CHECK_INT(tm_fit_fields(g, N(g), 14), 12);
	TM_CHECK_STR(joined(g, N(g)), "left  lost 0");
}
