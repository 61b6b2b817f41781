// SPDX-License-Identifier: GPL-2.0-only
/* dat-meta.c - the metadata payloads of trace-dat-format.md §2 (same bytes in v6 and v7). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat-internal.h"
#include "dat-format.h"

static int dat_expect_marker(struct dat_rd *rd, const char *marker)
{
	size_t len = strlen(marker) + 1;
	char buf[16];

	if (tm_dat_rd_bytes(rd, buf, len))
		return -1;
	if (memcmp(buf, marker, len)) {
		rd->pos -= len;
		return tm_dat_rd_err(rd, "expected \"%s\"", marker);
	}
	return 0;
}

/* Width of the page header's commit word: the size of "commit" in header_page. */
static unsigned int dat_commit_size(const struct tm_text *hp, int long_size)
{
	const char *p = hp->data ? strstr(hp->data, " commit;") : NULL;
	const char *nl, *size;
	long v;

	if (!p)
		return long_size;
	nl = strchr(p, '\n');
	size = strstr(p, "size:");
	if (!size || (nl && size > nl))
		return long_size;
	v = strtol(size + 5, NULL, 10);
	return v == 4 || v == 8 ? (unsigned int)v : (unsigned int)long_size;
}

static int dat_read_header_info(struct dat_rd *rd)
{
	struct tm_dat *dat = rd->dat;
	uint64_t len;

	if (dat_expect_marker(rd, TM_DAT_HEADER_PAGE) || tm_dat_rd_u64(rd, &len) ||
	    tm_dat_rd_text(rd, len, &dat->header_page))
		return -1;
	if (dat_expect_marker(rd, TM_DAT_HEADER_EVENT) || tm_dat_rd_u64(rd, &len) ||
	    tm_dat_rd_text(rd, len, &dat->header_event))
		return -1;
	dat->commit_size = dat_commit_size(&dat->header_page, dat->long_size);
	return 0;
}

/* count format texts, each a u64 length and the text; *out replaced on success. */
static int dat_read_formats(struct dat_rd *rd, uint32_t count, struct tm_text **out,
			    size_t *nout)
{
	struct tm_text *t;
	uint64_t len;
	uint32_t i;

	if (count > tm_dat_rd_left(rd) / 8)
		return tm_dat_rd_err(rd, "%u formats cannot fit in %llu bytes", count,
				     (unsigned long long)tm_dat_rd_left(rd));
	t = calloc(count ? count : 1, sizeof(*t));
	if (!t)
		return tm_fail(ENOMEM, "%s: %s", rd->dat->name, rd->what);
	for (i = 0; i < count; i++) {
		if (tm_dat_rd_u64(rd, &len) || tm_dat_rd_text(rd, len, &t[i])) {
			tm_texts_free(t, count);
			return -1;
		}
	}
	*out = t;
	*nout = count;
	return 0;
}

static int dat_read_ftrace_formats(struct dat_rd *rd)
{
	struct tm_dat *dat = rd->dat;
	struct tm_text *t;
	uint32_t count;
	size_t n;

	if (tm_dat_rd_u32(rd, &count) || dat_read_formats(rd, count, &t, &n))
		return -1;
	tm_texts_free(dat->ftrace, dat->nftrace);
	dat->ftrace = t;
	dat->nftrace = n;
	return 0;
}

static int dat_read_event_formats(struct dat_rd *rd)
{
	struct tm_dat *dat = rd->dat;
	struct tm_meta_system *sys;
	uint32_t count, i, events;

	if (tm_dat_rd_u32(rd, &count))
		return -1;
	/* each system takes at least a NUL and a u32 */
	if (count > tm_dat_rd_left(rd) / 5)
		return tm_dat_rd_err(rd, "%u systems cannot fit in %llu bytes", count,
				     (unsigned long long)tm_dat_rd_left(rd));
	sys = calloc(count ? count : 1, sizeof(*sys));
	if (!sys)
		return tm_fail(ENOMEM, "%s: %s", dat->name, rd->what);
	for (i = 0; i < count; i++) {
		if (tm_dat_rd_str(rd, &sys[i].name) || tm_dat_rd_u32(rd, &events) ||
		    dat_read_formats(rd, events, &sys[i].formats, &sys[i].nformats)) {
			tm_systems_free(sys, count);
			return -1;
		}
	}
	tm_systems_free(dat->sys, dat->nsys);
	dat->sys = sys;
	dat->nsys = count;
	return 0;
}

static int dat_read_kallsyms(struct dat_rd *rd)
{
	uint32_t len;

	return tm_dat_rd_u32(rd, &len) || tm_dat_rd_text(rd, len, &rd->dat->kallsyms) ? -1 : 0;
}

static int dat_read_printk(struct dat_rd *rd)
{
	uint32_t len;

	return tm_dat_rd_u32(rd, &len) || tm_dat_rd_text(rd, len, &rd->dat->printk) ? -1 : 0;
}

static int dat_read_cmdlines(struct dat_rd *rd)
{
	uint64_t len;

	return tm_dat_rd_u64(rd, &len) || tm_dat_rd_text(rd, len, &rd->dat->cmdlines) ? -1 : 0;
}

const struct tm_dat_meta_reader tm_dat_meta_readers[TM_DAT_META_PAYLOADS] = {
	{ "header info",	dat_read_header_info },
	{ "ftrace formats",	dat_read_ftrace_formats },
	{ "event formats",	dat_read_event_formats },
	{ "kallsyms",		dat_read_kallsyms },
	{ "printk formats",	dat_read_printk },
	{ "saved cmdlines",	dat_read_cmdlines },
};
