// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-read-v6.c - the version 6 layout (§3): metadata in a row, the CPU count, the
 * options block, flyrecord CPU tables (top buffer and instances) or latency text.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat-internal.h"
#include "dat-version.h"
#include "dat-format.h"

/* BUFFER (v6): u64 offset of the instance's flyrecord tag, str name. */
static int dat_v6_buffer_option(struct tm_dat *dat, const uint8_t *p, uint32_t len,
				uint64_t where)
{
	const uint8_t *nul;
	char *name;
	int i;

	nul = len > 8 ? memchr(p + 8, '\0', len - 8) : NULL;
	if (!nul)
		return tm_dat_err(dat, "BUFFER option at offset %llu: %u bytes hold no offset and "
				  "name", (unsigned long long)where, len);
	if (nul == p + 8)
		return tm_dat_err(dat, "BUFFER option at offset %llu: empty instance name",
				  (unsigned long long)where);
	name = (char *)p + 8;
	i = tm_dat_buffer_add(dat, name, where);
	if (i < 0)
		return -1;
	dat->bufs[i].where = tm_get64(p, dat->swap);
	return 0;
}

/* option* ; u16 0. Every option consumes at least 2 bytes, so this ends. */
static int dat_v6_options(struct tm_dat *dat, struct dat_rd *rd)
{
	uint8_t *p = NULL;
	uint64_t where;
	uint32_t len;
	uint16_t id;
	int ret = -1;

	rd->what = "options";
	for (;;) {
		where = rd->pos;
		if (tm_dat_rd_u16(rd, &id))
			goto out;
		if (id == TM_OPT_DONE)
			break;
		if (tm_dat_rd_u32(rd, &len))
			goto out;
		if (len > tm_dat_rd_left(rd)) {
			rd->pos = where;
			tm_dat_rd_err(rd, "option %u of %u bytes runs past the end of the file", id,
				      len);
			goto out;
		}
		free(p);
		p = malloc(len ? len : 1);
		if (!p) {
			tm_fail(ENOMEM, "%s: options", dat->name);
			goto out;
		}
		if (tm_dat_rd_bytes(rd, p, len))
			goto out;
		if (id == TM_OPT_BUFFER ? dat_v6_buffer_option(dat, p, len, where)
					: tm_dat_option_common(dat, id, p, len, where))
			goto out;
	}
	ret = 0;
out:
	free(p);
	return ret;
}

/*
 * The clock record after a CPU table: u64 length, text "[local]". Only the
 * top buffer's is required; an instance's is read when it looks sane.
 */
static int dat_v6_clock(struct tm_dat *dat, struct dat_rd *rd, struct dat_buffer *b, bool top)
{
	struct tm_text text = { 0 };
	uint64_t len;
	char *clock;

	rd->what = "clock record";
	if (!top) {
		if (tm_dat_rd_left(rd) < 8 || tm_dat_rd_u64(rd, &len) || len > tm_dat_rd_left(rd) ||
		    len > TM_DAT_MAX_STR)
			return 0;
	} else if (tm_dat_rd_u64(rd, &len)) {
		return -1;
	}
	if (tm_dat_rd_text(rd, len, &text))
		return -1;
	clock = tm_dat_parse_clock(text.data, text.len);
	tm_text_free(&text);
	if (!clock)
		return 0;
	if (top) {
		free(dat->clock);
		dat->clock = strdup(clock);
		if (!dat->clock) {
			free(clock);
			return tm_fail(ENOMEM, "%s: clock", dat->name);
		}
	}
	free(b->clock);
	b->clock = clock;
	return 0;
}

/* CPU table (offset, size per CPU) and clock record of one flyrecord block. */
static int dat_v6_flyrecord(struct tm_dat *dat, struct dat_buffer *b, uint64_t pos, bool top)
{
	int cpus = dat->cpucount >= 0 ? dat->cpucount : dat->header_cpus;
	struct dat_rd rd;
	uint64_t off, size;
	int i;

	tm_dat_rd_file(&rd, dat, pos, dat->size, "flyrecord CPU table");
	if ((uint64_t)cpus * 16 > tm_dat_rd_left(&rd))
		return tm_dat_rd_err(&rd, "%d CPU entries run past the end of the file", cpus);
	b->cpus = calloc(cpus ? cpus : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return tm_fail(ENOMEM, "%s: CPU table", dat->name);
	b->page_size = dat->page_size;
	for (i = 0; i < cpus; i++) {
		struct dat_cpu *c = &b->cpus[b->ncpu];

		if (tm_dat_rd_u64(&rd, &off) || tm_dat_rd_u64(&rd, &size))
			return -1;
		if (!size)
			continue;
		*c = (struct dat_cpu){ .cpu = i, .off = off, .size = size };
		if (tm_dat_check_blob(dat, b, c, dat->size))
			return -1;
		b->ncpu++;
	}
	if (tm_dat_buffer_finish(dat, b, pos))
		return -1;
	b->slots = cpus;
	/* 3.1.6 reads the top clock record only when a TRACECLOCK option exists */
	if (top && !dat->has_traceclock)
		return 0;
	return dat_v6_clock(dat, &rd, b, top);
}

static int dat_v6_instance(struct tm_dat *dat, struct dat_buffer *b)
{
	char tag[TM_DAT_TAG_LEN], label[80];

	if (tm_dat_pread(dat, tag, sizeof(tag), b->where,
			 tm_dat_buf_label(b, label, sizeof(label))))
		return -1;
	if (memcmp(tag, TM_DAT_TAG_FLYRECORD, TM_DAT_TAG_LEN))
		return tm_dat_err(dat, "%s at offset %llu: no flyrecord tag there",
				  tm_dat_buf_label(b, label, sizeof(label)),
				  (unsigned long long)b->where);
	return dat_v6_flyrecord(dat, b, b->where + TM_DAT_TAG_LEN, false);
}

int tm_dat_read_v6(struct tm_dat *dat, uint64_t pos)
{
	char tag[TM_DAT_TAG_LEN];
	struct dat_rd rd;
	uint32_t cpus;
	int i;

	tm_dat_rd_file(&rd, dat, pos, dat->size, NULL);
	for (i = 0; i < TM_DAT_META_PAYLOADS; i++) {
		rd.what = tm_dat_meta_readers[i].what;
		if (tm_dat_meta_readers[i].read(&rd))
			return -1;
	}
	rd.what = "CPU count";
	if (tm_dat_rd_u32(&rd, &cpus))
		return -1;
	if (cpus > TM_DAT_MAX_CPUS) {
		rd.pos -= 4;
		return tm_dat_rd_err(&rd, "%u CPUs is more than %u", cpus, TM_DAT_MAX_CPUS);
	}
	dat->header_cpus = (int)cpus;
	rd.what = "section tag";
	if (tm_dat_rd_bytes(&rd, tag, sizeof(tag)))
		return -1;
	if (!memcmp(tag, TM_DAT_TAG_OPTIONS, TM_DAT_TAG_LEN)) {
		if (dat_v6_options(dat, &rd))
			return -1;
		rd.what = "section tag";
		if (tm_dat_rd_bytes(&rd, tag, sizeof(tag)))
			return -1;
	}
	dat->bufs[0].defined = true;
	if (!memcmp(tag, TM_DAT_TAG_LATENCY, TM_DAT_TAG_LEN)) {
		dat->bufs[0].text = true;
		dat->bufs[0].text_off = rd.pos;
		dat->bufs[0].text_size = dat->size - rd.pos;
	} else if (!memcmp(tag, TM_DAT_TAG_FLYRECORD, TM_DAT_TAG_LEN)) {
		if (dat_v6_flyrecord(dat, &dat->bufs[0], rd.pos, true))
			return -1;
	} else {
		rd.pos -= TM_DAT_TAG_LEN;
		return tm_dat_rd_err(&rd, "neither \"options\", \"flyrecord\" nor \"latency\"");
	}
	for (i = 1; i < dat->nbuf; i++)
		if (dat_v6_instance(dat, &dat->bufs[i]))
			return -1;
	return 0;
}
