// SPDX-License-Identifier: GPL-2.0-only
/* dat-write-v6.c - the version 6 layout (spec §3), computed before writing. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dat-format.h"
#include "dat-version.h"
#include "dat-write-internal.h"

/* Flyrecord: CPU table, clock record, then page-aligned data. */
static void v6_flyrecord(struct tm_write_ctx *w, struct tm_buf *b)
{
	const struct tm_cpu_blob *blob;
	char clock[80];
	uint64_t data;
	int cpu, i, n;

	n = snprintf(clock, sizeof(clock), "[%s]", w->clock);
	data = b->len + TM_DAT_TAG_LEN + 16ull * w->ncpus + 8 + n;
	for (i = 0; i < w->nblobs; i++) {
		data = tm_align_up(data, w->page_size);
		w->blobs[i].offset = data;
		data += w->blobs[i].size;
	}
	tm_buf_put(b, TM_DAT_TAG_FLYRECORD, TM_DAT_TAG_LEN);
	/* a row for every CPU; the blobs are the CPUs with data, in CPU order */
	for (cpu = 0, i = 0; cpu < w->ncpus; cpu++) {
		blob = i < w->nblobs && w->blobs[i].cpu == cpu ? &w->blobs[i++] : NULL;
		tm_buf_put64(b, blob ? blob->offset : 0);
		tm_buf_put64(b, blob ? blob->size : 0);
	}
	tm_buf_put64(b, n);
	tm_buf_put(b, clock, n);
}

int tm_dat_write_v6(struct tm_write_ctx *w)
{
	struct tm_buf b = { 0 };
	int ret = -1, i;

	tm_write_prologue(w, &b);
	for (i = 0; i < TM_META_COUNT; i++)
		tm_buf_put(&b, w->payload[i].data, w->payload[i].len);
	tm_buf_put32(&b, w->ncpus);
	tm_buf_put(&b, TM_DAT_TAG_OPTIONS, TM_DAT_TAG_LEN);
	tm_write_common_options(w, &b);
	tm_buf_put16(&b, TM_OPT_DONE);
	v6_flyrecord(w, &b);
	if (b.err) {
		tm_fail(b.err, "trace.dat layout");
		goto out;
	}
	if (tm_write_out(w, b.data, b.len))
		goto out;
	for (i = 0; i < w->nblobs; i++)
		if (tm_write_blob(w, &w->blobs[i]))
			goto out;
	ret = 0;
out:
	tm_buf_free(&b);
	return ret;
}
