// SPDX-License-Identifier: GPL-2.0-only
/*
 * out-text.c - the text and JSON-lines outputs: struct tm_printer (print.c)
 * behind the output interface, unchanged, so `report` stays byte-identical
 * to `trace-cmd report`.
 */
#include <errno.h>
#include <stdlib.h>

#include "util/internal.h"
#include "tm-evout.h"
#include "print/print-internal.h"

struct tm_events;

struct text_output {
	struct tm_evout	base;
	struct tm_printer	*p;
	FILE			*f;
	bool			json;
};

static struct text_output *to_text(struct tm_evout *out)
{
	return (struct text_output *)out;
}

static int text_begin(struct tm_evout *out, const struct tm_evout_info *info)
{
	struct text_output *t = to_text(out);
	int i;

	for (i = 0; i < info->nbuffers; i++)
		if (tm_printer_set_buffer(t->p, i, info->buffers[i].name, info->buffers[i].clock))
			return -1;
	/* trace-cmd's first line; the printer has written nothing yet */
	if (!t->json && !info->live && fprintf(t->f, "cpus=%d\n", info->ncpus) < 0)
		return tm_fail(errno, "write output");
	return 0;
}

static int text_event(struct tm_evout *out, const struct tm_event_rec *rec)
{
	return tm_printer_event(to_text(out)->p, rec);
}

static int text_lost(struct tm_evout *out, int buf, int cpu, int64_t missed)
{
	return tm_printer_dropped(to_text(out)->p, buf, cpu, missed);
}

static int text_end(struct tm_evout *out)
{
	return tm_printer_flush(to_text(out)->p);
}

static int text_flush(struct tm_evout *out)
{
	return tm_printer_flush(to_text(out)->p);
}

static void text_free(struct tm_evout *out)
{
	struct text_output *t = to_text(out);

	tm_printer_free(t->p);
	free(t);
}

static const struct tm_evout_ops text_ops = {
	.begin = text_begin,
	.event = text_event,
	.lost = text_lost,
	.end = text_end,
	.flush = text_flush,
	.free = text_free,
};

struct tm_evout *tm_evout_text_new(const struct tm_events *ev, const struct tm_print_opts *opts,
				   FILE *f)
{
	struct text_output *t = calloc(1, sizeof(*t));

	if (!t) {
		tm_fail(ENOMEM, "text output");
		return NULL;
	}
	t->base.ops = &text_ops;
	t->f = f;
	t->json = opts->json;
	t->p = tm_printer_new(ev, opts, f);
	if (!t->p) {
		free(t);
		return NULL;
	}
	return &t->base;
}
