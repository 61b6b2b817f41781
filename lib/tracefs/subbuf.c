// SPDX-License-Identifier: GPL-2.0-only
/*
 * subbuf.c - change an instance's sub-buffer size (buffer_subbuf_size_kb) and
 * leave its ring buffer's page counters consistent.
 *
 * Linux 6.8 to 7.3 replace every sub-buffer on a change of size but keep the
 * per-CPU counters of the old ring (pages_read, pages_touched, entries, read,
 * ...). A reader that had taken the writer's sub-buffer as its reader page
 * leaves pages_read one ahead of the pages the writer left; each such change
 * adds one, and at two a poll() with buffer_percent warns in
 * ring_buffer_nr_dirty_pages() (docs/kernel-ring-buffer-warning.md). A clear
 * of the trace after the change sets the counters to zero; the change has
 * discarded every event already, so the clear loses none. Callers have
 * tracing off, so that nothing is written between the two.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "tracefs-internal.h"

static char *subbuf_read(struct tracefs_instance *in)
{
	return tm_tfs_read(in, "buffer_subbuf_size_kb", NULL);
}

int tm_subbuf_set(struct tracefs_instance *in, const char *kb)
{
	char *before = subbuf_read(in), *after = NULL;
	int ret = -1;

	if (!before || tm_tfs_write(in, "buffer_subbuf_size_kb", kb))
		goto out;
	after = subbuf_read(in);
	if (!after)
		goto out;
	ret = 0;
	/* the same size is no change: the kernel kept the ring and its events */
	if (strcmp(before, after) && tracefs_instance_file_clear(in, "trace"))
		ret = tm_tfs_fail(in, "trace", errno, "clear");
out:
	free(before);
	free(after);
	return ret;
}
