// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_cmdlines.c - libFuzzer target, differential: the input as saved
 * cmdlines text registered line by line by our check (lib/events/meta-check.c,
 * tm_meta_each_cmdline()) and parsed by libtraceevent
 * (tep_parse_saved_cmdlines()). Where ours drops no line, both handles must
 * name every pid ours registered the same, and libtraceevent must not fail;
 * where ours drops one, libtraceevent must fail there, having named the pids
 * before it the same (those named more than once aside). Run: bash tests/fuzz/run.sh 60 cmdlines.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sanitizer/lsan_interface.h>
#include <traceevent/event-parse.h>

#include "fuzz-text.h"
#include "util/internal.h"
#include "events/meta-check.h"

struct walk {
	struct tep_handle	*tep;
	int			*pids;
	size_t			n, cap;
	int			warnings;	/* when the first line was dropped */
	size_t			before_drop;	/* pids registered before it */
};

static void count_warning(void *ctx, const char *msg)
{
	struct walk *w = ctx;

	(void)msg;
	if (!w->warnings++)
		w->before_drop = w->n;
}

static int keep(void *ctx, int pid, const char *comm)
{
	struct walk *w = ctx;

	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->pids = realloc(w->pids, w->cap * sizeof(*w->pids));
		if (!w->pids)
			abort();
	}
	w->pids[w->n++] = pid;
	return tep_register_comm(w->tep, comm, pid) ? -1 : 0;
}

/* pid has one line among all those ours registered. */
static bool named_once(const struct walk *w, int pid)
{
	size_t n = 0;

	for (size_t i = 0; i < w->n; i++)
		n += w->pids[i] == pid;
	return n == 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct walk ours = { 0 };
	struct tm_meta_warn mw = { .fn = count_warning, .ctx = &ours, .file = "fuzz" };
	struct tm_blob b = { .data = (const char *)data, .len = size };
	struct tep_handle *nat;
	size_t upto;
	char *text;
	int ret;

	text = fuzz_text(data, size, &nat, &ours.tep);
	if (!text)
		return 0;
	if (tm_meta_each_cmdline(b, &mw, keep, &ours))
		abort();
	/*
	 * libtraceevent 1.7.1 leaks the comm its sscanf() allocated on the line
	 * it stops at (an overflowing pid); tracemap never calls it
	 */
	__lsan_disable();
	ret = tep_parse_saved_cmdlines(nat, text);
	__lsan_enable();
	if (!ours.warnings != !ret)
		abort();
	/*
	 * libtraceevent registered the lines before the first one ours dropped.
	 * A pid named twice answers with the name its binary search lands on,
	 * which depends on all the names: so after a drop, only the pids named
	 * once compare.
	 */
	upto = ours.warnings ? ours.before_drop : ours.n;
	for (size_t i = 0; i < upto; i++)
		if ((!ours.warnings || named_once(&ours, ours.pids[i])) &&
		    strcmp(tep_data_comm_from_pid(nat, ours.pids[i]),
			   tep_data_comm_from_pid(ours.tep, ours.pids[i])))
			abort();
	free(ours.pids);
	free(text);
	tep_free(nat);
	tep_free(ours.tep);
	return 0;
}
