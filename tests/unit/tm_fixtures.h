/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm_fixtures.h - what several unit tests build from tests/fixtures/: the
 * raw data sets' metadata, scratch directories, a command's output.
 */
#ifndef TM_FIXTURES_H
#define TM_FIXTURES_H

#include <stddef.h>

#include "tm_test.h"

struct tm_meta;

#define TM_FIXTURE_CPUS	2	/* CPUs of the raw data sets A and B */

/* Data set A or B: the snapshot's formats, trimmed kallsyms, the set's stats and clock. */
struct tm_meta *tm_fixture_meta(struct tm_test *t, char set);
/* A new directory under /tmp (NULL if it cannot be made); free() the name. */
char *tm_scratch_dir(void);
/* Remove dir with everything in it. */
void tm_scratch_remove(const char *dir);
/* All of a command's stdout (and whatever it redirects there); *status from pclose. */
char *tm_run(const char *cmd, size_t *len, int *status);

#endif /* TM_FIXTURES_H */
