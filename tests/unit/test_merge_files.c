// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_merge_files.c - several files on one timeline: a record that
 * overlapping files share goes out once, a file's own repeats stay
 * (merge-dedup.c); which fixtures are one machine (dat-machines.c).
 */
#include "dat/dat-internal.h"
#include "merge/merge-internal.h"
#include "merge/tm-merge.h"
#include "tm_test.h"
#include "dat/tm-dat.h"

static int seen(struct tm_dedup *d, int file, uint64_t ts, const char *payload)
{
	struct tm_event_rec r = { .ts = ts, .data = payload, .size = (uint32_t)strlen(payload),
				  .cpu = 1, .file = file };

	return tm_dedup_seen(d, &r);
}

TM_TEST(dedup_keeps_as_many_copies_as_the_file_with_most)
{
	struct tm_dedup *d = tm_dedup_new(1, 2);

	TM_CHECK(d != NULL);
	if (!d)
		return;
	/* tick 10: file 0 has X twice and Y; file 1 has X three times, Y once */
	TM_CHECK_INT(seen(d, 0, 10, "X"), 0);
	TM_CHECK_INT(seen(d, 0, 10, "X"), 0);	/* a file's own repeat stays */
	TM_CHECK_INT(seen(d, 0, 10, "Y"), 0);
	TM_CHECK_INT(seen(d, 1, 10, "X"), 1);
	TM_CHECK_INT(seen(d, 1, 10, "X"), 1);
	TM_CHECK_INT(seen(d, 1, 10, "X"), 0);	/* the third X is new */
	TM_CHECK_INT(seen(d, 1, 10, "Y"), 1);
	/* another payload or another tick is another record */
	TM_CHECK_INT(seen(d, 1, 10, "Z"), 0);
	TM_CHECK_INT(seen(d, 1, 11, "X"), 0);
	TM_CHECK_INT(seen(d, 2, 11, "X"), 1);
	tm_dedup_free(d);
}

TM_TEST(dat_machines_one_machine_for_the_fixtures_of_one_vm)
{
	struct tm_dat *d[3] = {
		tm_dat_open(tm_fixture("sched-v6.dat")),
		tm_dat_open(tm_fixture("lost-v7-zstd.dat")),
		tm_dat_open(tm_fixture("multi-v6.dat")),
	};
	int m[3] = { -1, -1, -1 };

	TM_CHECK(d[0] && d[1] && d[2]);
	if (d[0] && d[1] && d[2]) {
		TM_CHECK_INT(tm_dat_machines(d, 3, m), 1);
		TM_CHECK(m[0] == 0 && m[1] == 0 && m[2] == 0);
	}
	tm_dat_close(d[0]);
	tm_dat_close(d[1]);
	tm_dat_close(d[2]);
}
