/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm_fixtures.h - what several unit tests build from tests/fixtures/: the
 * raw data sets' metadata, scratch directories, a command's output; warnings
 * collected; events that print kernel symbols.
 */
#ifndef TM_FIXTURES_H
#define TM_FIXTURES_H

#include <stddef.h>

#include "tm_test.h"

struct tm_meta;
struct tep_handle;

/* Warnings of a tm_warn_fn counted, the last one kept. */
struct tm_warnings {
	int	n;
	char	last[512];
};

/* tm_warn_fn into a struct tm_warnings (ctx). */
void tm_warn_collect(void *ctx, const char *msg);
/*
 * Events to print kernel addresses: symtest (ID 900, unsigned long ip at 8,
 * "%pS %ps") and ftrace's kernel_stack (ID 4, eight callers at 16); a tep
 * handle (64-bit, little-endian) that knows both, NULL if out of memory.
 */
extern const char tm_sym_format[], tm_stack_format[];
struct tep_handle *tm_sym_tep(void);

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
