// SPDX-License-Identifier: GPL-2.0-only
/*
 * metadata.c - a trace's metadata as data: its texts set, read and freed,
 * the clock and warnings derived from them. Collecting it from tracefs is
 * tracefs/meta.c's; storing it in a trace.dat, dat/dat-write.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-internal.h"

void tm_text_free(struct tm_text *t)
{
	free(t->data);
	t->data = NULL;
	t->len = 0;
}

void tm_texts_free(struct tm_text *t, size_t n)
{
	size_t i;

	for (i = 0; t && i < n; i++)
		tm_text_free(&t[i]);
	free(t);
}

void tm_systems_free(struct tm_meta_system *sys, size_t n)
{
	size_t i;

	for (i = 0; sys && i < n; i++) {
		free(sys[i].name);
		tm_texts_free(sys[i].formats, sys[i].nformats);
	}
	free(sys);
}

/* True when the text has symbol lines and every address in it is zero. */
static bool kallsyms_all_zero(const char *p, size_t len)
{
	const char *end = p + len;
	bool lines = false;

	while (p < end) {
		for (; p < end && *p != ' ' && *p != '\n'; p++)
			if (*p != '0')
				return false;
		lines = true;
		p = memchr(p, '\n', end - p);
		if (!p)
			break;
		p++;
	}
	return lines;
}

void tm_meta_check_kallsyms(struct tm_meta *meta)
{
	meta->warning[0] = '\0';
	if (kallsyms_all_zero(meta->kallsyms.data, meta->kallsyms.len))
		snprintf(meta->warning, sizeof(meta->warning), "kallsyms addresses read as zero "
			 "(kptr_restrict?): symbols will not resolve");
}

/* The selected clock is the bracketed word: "[local] global counter ...". */
void tm_meta_parse_clock(struct tm_meta *meta)
{
	const char *open, *close;
	size_t n;

	meta->clock[0] = '\0';
	open = meta->trace_clock.data ? strchr(meta->trace_clock.data, '[') : NULL;
	close = open ? strchr(open, ']') : NULL;
	if (!close)
		return;
	n = close - open - 1;
	if (n >= sizeof(meta->clock))
		n = sizeof(meta->clock) - 1;
	memcpy(meta->clock, open + 1, n);
	meta->clock[n] = '\0';
}

const char *tm_meta_warning(const struct tm_meta *meta)
{
	return meta->warning[0] ? meta->warning : NULL;
}

const char *tm_meta_clock(const struct tm_meta *meta)
{
	return meta->clock[0] ? meta->clock : NULL;
}

int tm_meta_cpus(const struct tm_meta *meta)
{
	return meta->ncpus;
}

size_t tm_meta_event_count(const struct tm_meta *meta)
{
	size_t i, n = 0;

	for (i = 0; i < meta->nsystems; i++)
		n += meta->systems[i].nformats;
	return n;
}

static int text_set(struct tm_text *t, const char *text, size_t len)
{
	char *copy = malloc(len + 1);

	if (!copy)
		return tm_fail(ENOMEM, "metadata");
	memcpy(copy, text, len);
	copy[len] = '\0';
	tm_text_free(t);
	t->data = copy;
	t->len = len;
	return 0;
}

int tm_meta_set_kallsyms(struct tm_meta *meta, const char *text, size_t len)
{
	if (text_set(&meta->kallsyms, text, len))
		return -1;
	tm_meta_check_kallsyms(meta);
	return 0;
}

int tm_meta_set_stats(struct tm_meta *meta, int cpu, const char *text, size_t len)
{
	if (cpu < 0 || cpu >= meta->ncpus)
		return tm_failx(EINVAL, "metadata: no CPU %d (file has %d)", cpu, meta->ncpus);
	return text_set(&meta->stats[cpu], text, len);
}

int tm_meta_set_trace_clock(struct tm_meta *meta, const char *text, size_t len)
{
	if (text_set(&meta->trace_clock, text, len))
		return -1;
	tm_meta_parse_clock(meta);
	return 0;
}

void tm_meta_free(struct tm_meta *meta)
{
	if (!meta)
		return;
	tm_text_free(&meta->header_page);
	tm_text_free(&meta->header_event);
	tm_texts_free(meta->ftrace, meta->nftrace);
	tm_systems_free(meta->systems, meta->nsystems);
	tm_text_free(&meta->kallsyms);
	tm_text_free(&meta->printk);
	tm_text_free(&meta->cmdlines);
	tm_text_free(&meta->trace_clock);
	tm_texts_free(meta->stats, (size_t)meta->ncpus);
	free(meta->uname);
	free(meta);
}
