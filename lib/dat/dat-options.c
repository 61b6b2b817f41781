// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-options.c - options shared by v6 and v7 (§5), the buffer table, and the
 * checks of per-CPU blobs and chunk streams against the file.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat-internal.h"
#include "dat-format.h"

char *tm_dat_parse_clock(const char *text, size_t len)
{
	size_t i = 0, start, end;
	char *name;

	while (i < len && text[i]) {
		while (i < len && isspace((unsigned char)text[i]))
			i++;
		start = i;
		while (i < len && text[i] && !isspace((unsigned char)text[i]))
			i++;
		if (start < i && text[start] == '[') {
			for (end = start + 1; end < i && text[end] != ']'; end++)
				;
			name = strndup(text + start + 1, end - start - 1);
			if (!name)
				tm_fail(ENOMEM, "clock name");
			return name;
		}
	}
	return NULL;
}

/* strtoll(base 0) of a string payload that may lack its NUL. */
static uint64_t dat_option_number(const uint8_t *p, uint32_t len)
{
	char buf[64];

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return (uint64_t)strtoll(buf, NULL, 0);
}

/* As trace-cmd does for report --stat: each payload, its last byte turned into '\n'. */
static int dat_add_cpustat(struct tm_dat *dat, const uint8_t *p, uint32_t len)
{
	struct tm_text *s = &dat->cpustat;
	char *n;

	if (!len)
		return 0;
	n = realloc(s->data, s->len + len + 1);
	if (!n)
		return tm_fail(ENOMEM, "%s: CPUSTAT option", dat->name);
	memcpy(n + s->len, p, len);
	s->len += len;
	n[s->len - 1] = '\n';
	n[s->len] = '\0';
	s->data = n;
	return 0;
}

int tm_dat_option_common(struct tm_dat *dat, uint16_t id, const uint8_t *p, uint32_t len,
			 uint64_t where)
{
	char *clock;
	uint32_t cpus;

	switch (id) {
	case TM_OPT_DATE:
		dat->date_offset += dat_option_number(p, len) * 1000;
		dat->has_date = true;
		break;
	case TM_OPT_OFFSET:
		dat->ts_offset += dat_option_number(p, len);
		break;
	case TM_OPT_CPUSTAT:
		return dat_add_cpustat(dat, p, len);
	case TM_OPT_TRACECLOCK:
		dat->has_traceclock = true;
		clock = tm_dat_parse_clock((const char *)p, len);
		if (clock) {
			free(dat->clock);
			dat->clock = clock;
		}
		break;
	case TM_OPT_UNAME:
		return tm_dat_set_str(dat, &dat->uname, p, len);
	case TM_OPT_VERSION:
		return tm_dat_set_str(dat, &dat->tracer_version, p, len);
	case TM_OPT_LAST_BOOT_INFO:
		/* read back by the writer's tests; report --stat names it as unused */
		dat->newer_opts |= 1ULL << id;
		return tm_dat_set_str(dat, &dat->last_boot_info, p, len);
	case TM_OPT_CPUCOUNT:
		if (len < 4)
			break;
		cpus = tm_get32(p, dat->swap);
		if (cpus > TM_DAT_MAX_CPUS)
			return tm_dat_err(dat, "CPUCOUNT option at offset %llu: %u CPUs is more "
					  "than %u", (unsigned long long)where, cpus,
					  TM_DAT_MAX_CPUS);
		dat->cpucount = (int)cpus;
		break;
	case TM_OPT_TRACEID:
		if (len < 8)
			break;
		dat->has_trace_id = true;
		dat->trace_id = tm_get64(p, dat->swap);
		break;
	case TM_OPT_TSC2NSEC:
		if (len < 16)
			break;
		dat->tsc_mult = tm_get32(p, dat->swap);
		dat->tsc_shift = tm_get32(p + 4, dat->swap);
		dat->tsc_offset = tm_get64(p + 8, dat->swap);
		break;
	default:
		/* HOOK, PROCMAPS, TIME_SHIFT, GUEST and newer ids: not needed to read */
		if (id >= TM_OPT_BTF_FILE && id < 64)
			dat->newer_opts |= 1ULL << id;
		break;
	}
	return 0;
}

const char *tm_dat_option_name(unsigned int id)
{
	switch (id) {
	case TM_OPT_BTF_FILE:
		return "BTF_FILE";
	case TM_OPT_LAST_BOOT_INFO:
		return "LAST_BOOT_INFO";
	case TM_OPT_MODULES_FILE:
		return "MODULES_FILE";
	default:
		return NULL;
	}
}

int tm_dat_buffer_add(struct tm_dat *dat, const char *name, uint64_t where)
{
	struct dat_buffer *bufs;
	int i;

	for (i = 0; i < dat->nbuf; i++) {
		if (strcmp(dat->bufs[i].name, name))
			continue;
		if (i == 0 && !dat->bufs[0].defined)
			goto found;
		return tm_dat_err(dat, "option at offset %llu: buffer '%.60s' is described twice",
				  (unsigned long long)where, name);
	}
	bufs = realloc(dat->bufs, (dat->nbuf + 1) * sizeof(*bufs));
	if (!bufs)
		return tm_fail(ENOMEM, "%s: buffers", dat->name);
	dat->bufs = bufs;
	memset(&bufs[i], 0, sizeof(bufs[i]));
	bufs[i].name = strdup(name);
	if (!bufs[i].name)
		return tm_fail(ENOMEM, "%s: buffers", dat->name);
	dat->nbuf++;
found:
	dat->bufs[i].defined = true;
	dat->bufs[i].page_size = dat->page_size;
	return i;
}

static int dat_cpu_cmp(const void *a, const void *b)
{
	const struct dat_cpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

int tm_dat_buffer_finish(struct tm_dat *dat, struct dat_buffer *b, uint64_t where)
{
	char label[80];
	int i;

	if (b->ncpu > 1)
		qsort(b->cpus, b->ncpu, sizeof(*b->cpus), dat_cpu_cmp);
	for (i = 0; i < b->ncpu; i++) {
		if (b->cpus[i].cpu < 0 || (unsigned int)b->cpus[i].cpu >= TM_DAT_MAX_CPUS)
			return tm_dat_err(dat, "%s at offset %llu: CPU id %d out of range",
					  tm_dat_buf_label(b, label, sizeof(label)),
					  (unsigned long long)where, b->cpus[i].cpu);
		if (i && b->cpus[i].cpu == b->cpus[i - 1].cpu)
			return tm_dat_err(dat, "%s at offset %llu: CPU %d listed twice",
					  tm_dat_buf_label(b, label, sizeof(label)),
					  (unsigned long long)where, b->cpus[i].cpu);
	}
	b->slots = b->ncpu ? b->cpus[b->ncpu - 1].cpu + 1 : 0;
	return 0;
}

static int dat_check_chunk(struct tm_dat *dat, const char *what, uint32_t i, uint64_t pos,
			   uint32_t c, uint32_t u, uint32_t unit)
{
	if (u > TM_DAT_MAX_INFLATE || (uint64_t)u > (uint64_t)c * TM_DAT_ZSTD_RATIO)
		return tm_dat_err(dat, "%s: chunk %u at offset %llu: %u bytes cannot come from %u "
				  "compressed bytes", what, i, (unsigned long long)pos, u, c);
	if (unit > 1 && u % unit)
		return tm_dat_err(dat, "%s: chunk %u at offset %llu: %u bytes are not whole "
				  "%u-byte pages", what, i, (unsigned long long)pos, u, unit);
	return 0;
}

/*
 * Where a walk of the chunk stream at off may end: the 3.1.x reading of
 * size (count excluded) when that fits below limit, else the 3.2+ one.
 */
static uint64_t dat_chunks_end(uint64_t off, uint64_t size, uint64_t limit)
{
	return size <= limit - off - 4 ? off + 4 + size : off + size;
}

int tm_dat_check_chunks(struct tm_dat *dat, uint64_t off, uint64_t *size, uint64_t limit,
			uint32_t unit, const char *what, uint32_t *count, uint64_t *raw)
{
	uint64_t pos, end;
	uint8_t hdr[TM_DAT_CHUNK_HDR_LEN];
	uint32_t n, i, c, u;

	if (limit > dat->size)
		limit = dat->size;
	if (off > limit || limit - off < 4 || *size > limit - off)
		return tm_dat_err(dat, "%s at offset %llu: %llu bytes run past the end of the file "
				  "(%llu bytes)", what, (unsigned long long)off,
				  (unsigned long long)*size + 4, (unsigned long long)dat->size);
	end = dat_chunks_end(off, *size, limit);
	if (tm_dat_pread(dat, hdr, 4, off, what))
		return -1;
	n = tm_get32(hdr, dat->swap);
	if (n > (end - off - 4) / TM_DAT_CHUNK_HDR_LEN)
		return tm_dat_err(dat, "%s at offset %llu: %u chunks cannot fit in %llu bytes",
				  what, (unsigned long long)off, n, (unsigned long long)*size);
	*raw = 0;
	pos = off + 4;
	for (i = 0; i < n; i++) {
		if (end - pos < TM_DAT_CHUNK_HDR_LEN)
			return tm_dat_err(dat, "%s: chunk %u header at offset %llu runs past the "
					  "data's end", what, i, (unsigned long long)pos);
		if (tm_dat_pread(dat, hdr, sizeof(hdr), pos, what))
			return -1;
		c = tm_get32(hdr, dat->swap);
		u = tm_get32(hdr + 4, dat->swap);
		if (c > end - pos - TM_DAT_CHUNK_HDR_LEN)
			return tm_dat_err(dat, "%s: chunk %u at offset %llu: %u compressed bytes "
					  "run past the data's end", what, i,
					  (unsigned long long)pos, c);
		if (dat_check_chunk(dat, what, i, pos, c, u, unit))
			return -1;
		*raw += u;
		pos += TM_DAT_CHUNK_HDR_LEN + c;
	}
	/* trace-cmd 3.1.x left the count out of the size, 3.2 and later count it */
	if (pos - off - 4 != *size && pos - off != *size)
		return tm_dat_err(dat, "%s at offset %llu: %u chunks take %llu bytes (%llu with "
				  "their count), the size says %llu", what, (unsigned long long)off,
				  n, (unsigned long long)(pos - off - 4),
				  (unsigned long long)(pos - off), (unsigned long long)*size);
	*size = pos - off - 4;
	*count = n;
	return 0;
}

int tm_dat_check_blob(struct tm_dat *dat, struct dat_buffer *b, struct dat_cpu *c,
		      uint64_t limit)
{
	char label[80], what[128];

	snprintf(what, sizeof(what), "%s CPU %d data", tm_dat_buf_label(b, label, sizeof(label)),
		 c->cpu);
	c->raw = 0;
	c->chunks = 0;
	if (!c->size)
		return 0;
	if (b->compressed)
		return tm_dat_check_chunks(dat, c->off, &c->size, limit, b->page_size, what,
					   &c->chunks, &c->raw);
	if (!tm_dat_in_file(dat, c->off, c->size))
		return tm_dat_err(dat, "%s at offset %llu: %llu bytes run past the end of the file "
				  "(%llu bytes)", what, (unsigned long long)c->off,
				  (unsigned long long)c->size, (unsigned long long)dat->size);
	if (c->size % b->page_size)
		return tm_dat_err(dat, "%s at offset %llu: %llu bytes are not whole %u-byte pages",
				  what, (unsigned long long)c->off, (unsigned long long)c->size,
				  b->page_size);
	c->raw = c->size;
	return 0;
}
