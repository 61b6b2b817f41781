// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-read-v7.c - the version 7 layout (§4): compression strings, the options
 * chain (DONE pointers), metadata sections, BUFFER and BUFFER_TEXT sections.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat-internal.h"
#include "dat-version.h"
#include "dat-format.h"
#include "codec.h"

struct dat_sec {
	uint64_t	off;		/* section header */
	uint16_t	id;
	uint16_t	flags;
	uint64_t	size;		/* body bytes after the header */
};

static const char *dat_sec_name(uint16_t id)
{
	switch (id) {
	case TM_OPT_DONE:		return "options";
	case TM_OPT_BUFFER:		return "BUFFER";
	case TM_OPT_HEADER_INFO:	return "header info";
	case TM_OPT_FTRACE_EVENTS:	return "ftrace formats";
	case TM_OPT_EVENT_FORMATS:	return "event formats";
	case TM_OPT_KALLSYMS:		return "kallsyms";
	case TM_OPT_PRINTK:		return "printk formats";
	case TM_OPT_CMDLINES:		return "saved cmdlines";
	case TM_OPT_BUFFER_TEXT:	return "BUFFER_TEXT";
	case TM_OPT_MODULES_FILE:	return "modules";
	default:			return "unknown";
	}
}

/* The 16-byte header at off, which must carry id. */
static int dat_sec_header(struct tm_dat *dat, uint64_t off, uint16_t id, struct dat_sec *sec)
{
	uint8_t h[TM_DAT_SECTION_HDR_LEN];
	char what[64];

	snprintf(what, sizeof(what), "%s section", dat_sec_name(id));
	if (tm_dat_pread(dat, h, sizeof(h), off, what))
		return -1;
	sec->off = off;
	sec->id = tm_get16(h, dat->swap);
	sec->flags = tm_get16(h + 2, dat->swap);
	sec->size = tm_get64(h + 8, dat->swap);
	if (sec->id != id)
		return tm_dat_err(dat, "%s at offset %llu: id %u, expected %u", what,
				  (unsigned long long)off, sec->id, id);
	if (!tm_dat_in_file(dat, off + sizeof(h), sec->size))
		return tm_dat_err(dat, "%s at offset %llu: size %llu runs past the end of the file "
				  "(%llu bytes)", what, (unsigned long long)off,
				  (unsigned long long)sec->size, (unsigned long long)dat->size);
	if ((sec->flags & TM_DAT_SEC_COMPRESSED) && dat->comp == TM_COMPRESS_NONE)
		return tm_dat_err(dat, "%s at offset %llu: compressed in a file without "
				  "compression", what, (unsigned long long)off);
	return 0;
}

/* A compressed body (§6.2): u32 C, u32 U, C bytes of one frame. */
static int dat_sec_inflate(struct tm_dat *dat, const struct dat_sec *sec, uint8_t **out,
			   uint64_t *len)
{
	uint64_t body = sec->off + TM_DAT_SECTION_HDR_LEN;
	const char *what = dat_sec_name(sec->id);
	uint8_t h[TM_DAT_BLOCK_HDR_LEN], *in = NULL, *buf = NULL;
	uint32_t c, u;

	if (sec->size < sizeof(h))
		return tm_dat_err(dat, "%s section at offset %llu: %llu bytes hold no block "
				  "header", what, (unsigned long long)sec->off,
				  (unsigned long long)sec->size);
	if (tm_dat_pread(dat, h, sizeof(h), body, what))
		return -1;
	c = tm_get32(h, dat->swap);
	u = tm_get32(h + 4, dat->swap);
	if (c > sec->size - sizeof(h))
		return tm_dat_err(dat, "%s section at offset %llu: block of %u bytes exceeds the "
				  "section size %llu", what, (unsigned long long)sec->off, c,
				  (unsigned long long)sec->size);
	if (u > TM_DAT_MAX_INFLATE || (uint64_t)u > (uint64_t)c * TM_DAT_ZSTD_RATIO)
		return tm_dat_err(dat, "%s section at offset %llu: %u bytes cannot come from %u "
				  "compressed bytes", what, (unsigned long long)sec->off, u, c);
	in = tm_alloc_big(c ? c : 1);
	buf = tm_alloc_big((size_t)u + 1);
	if (!in || !buf) {
		tm_fail(ENOMEM, "%s: %s section", dat->name, what);
		goto fail;
	}
	if (tm_dat_pread(dat, in, c, body + sizeof(h), what))
		goto fail;
	if (tm_codec_decompress(dat->codec, buf, u, in, c) < 0) {
		tm_fail_prefix("%s: %s section at offset %llu", dat->name, what,
			       (unsigned long long)sec->off);
		goto fail;
	}
	free(in);
	*out = buf;
	*len = u;
	return 0;
fail:
	free(in);
	free(buf);
	return -1;
}

/* The section at off (with id) read into memory, decompressed when flagged. */
static int dat_sec_load(struct tm_dat *dat, uint64_t off, uint16_t id, uint8_t **out,
			uint64_t *len)
{
	struct dat_sec sec;

	if (dat_sec_header(dat, off, id, &sec))
		return -1;
	if (sec.flags & TM_DAT_SEC_COMPRESSED)
		return dat_sec_inflate(dat, &sec, out, len);
	*out = tm_alloc_big(sec.size ? sec.size : 1);
	if (!*out)
		return tm_fail(ENOMEM, "%s: %s section", dat->name, dat_sec_name(id));
	if (tm_dat_pread(dat, *out, sec.size, off + TM_DAT_SECTION_HDR_LEN, dat_sec_name(id))) {
		free(*out);
		return -1;
	}
	*len = sec.size;
	return 0;
}

static int dat_v7_metadata(struct tm_dat *dat, uint16_t id, uint64_t off)
{
	uint8_t *body;
	uint64_t len;
	struct dat_rd rd;
	int ret;

	if (dat_sec_load(dat, off, id, &body, &len))
		return -1;
	tm_dat_rd_mem(&rd, dat, body, len, off, dat_sec_name(id));
	rd.own = body;
	ret = tm_dat_meta_readers[id - TM_OPT_HEADER_INFO].read(&rd);
	free(rd.own);
	return ret;
}

/* Entries of a BUFFER option: u32 CPU, u64 offset, u64 size; blobs inside the section. */
static int dat_v7_buffer_cpus(struct tm_dat *dat, struct dat_buffer *b, struct dat_rd *rd,
			      uint32_t count, const struct dat_sec *sec)
{
	uint64_t body = sec->off + TM_DAT_SECTION_HDR_LEN, end = body + sec->size;
	char label[80];
	uint32_t cpu;
	uint32_t i;

	if (count > tm_dat_rd_left(rd) / 20)
		return tm_dat_rd_err(rd, "%u CPU entries cannot fit in %llu bytes", count,
				     (unsigned long long)tm_dat_rd_left(rd));
	b->cpus = calloc(count ? count : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return tm_fail(ENOMEM, "%s: BUFFER option", dat->name);
	for (i = 0; i < count; i++) {
		struct dat_cpu *c = &b->cpus[i];
		if (tm_dat_rd_u32(rd, &cpu) || tm_dat_rd_u64(rd, &c->off) ||
		    tm_dat_rd_u64(rd, &c->size))
			return -1;
		if (cpu >= TM_DAT_MAX_CPUS)
			return tm_dat_rd_err(rd, "CPU id %u out of range", cpu);
		c->cpu = (int)cpu;
		b->ncpu++;
		/* compressed: with or without the count (spec §4.6), the walk decides */
		if (c->size && (c->off < body || c->off > end || c->size > end - c->off))
			return tm_dat_err(dat, "%s CPU %u data at offset %llu: %llu bytes lie "
					  "outside its section at offset %llu (%llu bytes)",
					  tm_dat_buf_label(b, label, sizeof(label)), cpu,
					  (unsigned long long)c->off, (unsigned long long)c->size,
					  (unsigned long long)sec->off,
					  (unsigned long long)sec->size);
		if (tm_dat_check_blob(dat, b, c, end))
			return -1;
	}
	return tm_dat_buffer_finish(dat, b, rd->sec);
}

/* What BUFFER and BUFFER_TEXT options begin with: u64 section, str name, str clock. */
struct dat_v7_head {
	uint64_t	off;
	char		*name;
	char		*clock;
};

static int dat_v7_read_head(struct dat_rd *rd, struct dat_v7_head *h)
{
	return tm_dat_rd_u64(rd, &h->off) || tm_dat_rd_str(rd, &h->name) ||
	       tm_dat_rd_str(rd, &h->clock) ? -1 : 0;
}

/* The buffer the option describes, its section (id) checked; NULL + message. */
static struct dat_buffer *dat_v7_head_buffer(struct tm_dat *dat, struct dat_v7_head *h,
					     uint16_t id, uint64_t where, struct dat_sec *sec)
{
	struct dat_buffer *b;
	int i;

	if (dat_sec_header(dat, h->off, id, sec))
		return NULL;
	i = tm_dat_buffer_add(dat, h->name, where);
	if (i < 0)
		return NULL;
	b = &dat->bufs[i];
	b->clock = h->clock;
	h->clock = NULL;
	b->where = h->off;
	b->compressed = sec->flags & TM_DAT_SEC_COMPRESSED;
	return b;
}

/* BUFFER (v7): u64 section, str name, str clock, u32 page size, u32 K, K entries. */
static int dat_v7_buffer(struct tm_dat *dat, const uint8_t *p, uint32_t len, uint64_t where)
{
	struct dat_v7_head h = { 0 };
	struct dat_buffer *b;
	struct dat_sec sec;
	struct dat_rd rd;
	uint32_t page_size, count;
	int ret = -1;

	tm_dat_rd_mem(&rd, dat, p, len, where, "BUFFER option");
	rd.sec = where;
	if (dat_v7_read_head(&rd, &h) || tm_dat_rd_u32(&rd, &page_size) ||
	    tm_dat_rd_u32(&rd, &count))
		goto out;
	/* 3.1.6 uses the prologue's page size for the top buffer */
	if (h.name[0] && (page_size < TM_DAT_MIN_PAGE || page_size > TM_DAT_MAX_PAGE)) {
		tm_dat_rd_err(&rd, "page size %u out of range", page_size);
		goto out;
	}
	b = dat_v7_head_buffer(dat, &h, TM_OPT_BUFFER, where, &sec);
	if (!b)
		goto out;
	if (h.name[0])
		b->page_size = page_size;
	ret = dat_v7_buffer_cpus(dat, b, &rd, count, &sec);
out:
	free(h.name);
	free(h.clock);
	return ret;
}

/* BUFFER_TEXT: u64 section, str name, str clock; the body is (chunked) text. */
static int dat_v7_buffer_text(struct tm_dat *dat, const uint8_t *p, uint32_t len,
			      uint64_t where)
{
	struct dat_v7_head h = { 0 };
	struct dat_buffer *b;
	struct dat_sec sec;
	struct dat_rd rd;
	uint64_t off;
	int ret = -1;

	tm_dat_rd_mem(&rd, dat, p, len, where, "BUFFER_TEXT option");
	if (dat_v7_read_head(&rd, &h))
		goto out;
	b = dat_v7_head_buffer(dat, &h, TM_OPT_BUFFER_TEXT, where, &sec);
	if (!b)
		goto out;
	off = h.off;
	b->text = true;
	b->text_off = off + TM_DAT_SECTION_HDR_LEN;
	b->text_size = sec.size;
	if (b->compressed) {
		if (sec.size < 4) {
			tm_dat_err(dat, "BUFFER_TEXT section at offset %llu: no chunk count",
				   (unsigned long long)off);
			goto out;
		}
		/* the section's size, like a CPU's, may or may not count the count */
		if (tm_dat_check_chunks(dat, b->text_off, &b->text_size, dat->size, 1,
					"latency text", &b->text_chunks, &off))
			goto out;
	}
	ret = 0;
out:
	free(h.name);
	free(h.clock);
	return ret;
}

/* MODULES (id 25): /proc/modules of the boot that extracted a persistent buffer, as text. */
static int dat_v7_modules(struct tm_dat *dat, const uint8_t *p, uint32_t len)
{
	uint8_t *body;
	uint64_t n;
	char *text;

	if (len < 8 || dat->modules)
		return 0;
	dat->newer_opts |= 1ULL << TM_OPT_MODULES_FILE;
	if (dat_sec_load(dat, tm_get64(p, dat->swap), TM_OPT_MODULES_FILE, &body, &n))
		return -1;
	text = malloc(n + 1);
	if (text) {
		memcpy(text, body, n);
		text[n] = '\0';
	}
	free(body);
	if (!text)
		return tm_fail(ENOMEM, "%s: modules section", dat->name);
	dat->modules = text;
	return 0;
}

static int dat_v7_option(struct tm_dat *dat, uint16_t id, const uint8_t *p, uint32_t len,
			 uint64_t where)
{
	switch (id) {
	case TM_OPT_HEADER_INFO:
	case TM_OPT_FTRACE_EVENTS:
	case TM_OPT_EVENT_FORMATS:
	case TM_OPT_KALLSYMS:
	case TM_OPT_PRINTK:
	case TM_OPT_CMDLINES:
		if (len < 8)
			return 0;
		/* a repeated pointer to the same section need not be read again */
		if (dat->meta_off[id - TM_OPT_HEADER_INFO] == tm_get64(p, dat->swap) + 1)
			return 0;
		dat->meta_off[id - TM_OPT_HEADER_INFO] = tm_get64(p, dat->swap) + 1;
		return dat_v7_metadata(dat, id, tm_get64(p, dat->swap));
	case TM_OPT_BUFFER:
		return dat_v7_buffer(dat, p, len, where);
	case TM_OPT_BUFFER_TEXT:
		return dat_v7_buffer_text(dat, p, len, where);
	case TM_OPT_MODULES_FILE:
		return dat_v7_modules(dat, p, len);
	default:
		return tm_dat_option_common(dat, id, p, len, where);
	}
}

/* One options section; *next gets its DONE pointer (0 at the end of the chain). */
static int dat_v7_options(struct tm_dat *dat, uint64_t off, uint64_t *next)
{
	uint8_t *body;
	uint64_t len, where;
	struct dat_rd rd;
	uint32_t size;
	uint16_t id;
	int ret = -1;

	*next = 0;
	if (dat_sec_load(dat, off, TM_OPT_DONE, &body, &len))
		return -1;
	tm_dat_rd_mem(&rd, dat, body, len, off, "options");
	while (tm_dat_rd_left(&rd) >= 6) {
		where = off + TM_DAT_SECTION_HDR_LEN + rd.pos;
		if (tm_dat_rd_u16(&rd, &id) || tm_dat_rd_u32(&rd, &size))
			goto out;
		if (size > tm_dat_rd_left(&rd)) {
			tm_dat_rd_err(&rd, "option %u of %u bytes runs past the section's end", id,
				      size);
			goto out;
		}
		if (id == TM_OPT_DONE) {
			if (size >= 8)
				*next = tm_get64(body + rd.pos, dat->swap);
			break;
		}
		if (dat_v7_option(dat, id, body + rd.pos, size, where))
			goto out;
		rd.pos += size;
	}
	ret = 0;
out:
	free(body);
	return ret;
}

/* Follow DONE pointers from the header's offset; a loop is corruption. */
static int dat_v7_chain(struct tm_dat *dat, uint64_t first)
{
	uint64_t *seen = NULL, *tmp, next = first;
	size_t n = 0, i;
	int ret = -1;

	while (next) {
		for (i = 0; i < n; i++)
			if (seen[i] == next) {
				tm_dat_err(dat, "options section at offset %llu: the DONE chain "
					   "loops back to it", (unsigned long long)next);
				goto out;
			}
		tmp = realloc(seen, (n + 1) * sizeof(*seen));
		if (!tmp) {
			tm_fail(ENOMEM, "%s: options", dat->name);
			goto out;
		}
		seen = tmp;
		seen[n++] = next;
		if (dat_v7_options(dat, next, &next))
			goto out;
	}
	ret = 0;
out:
	free(seen);
	return ret;
}

int tm_dat_read_v7(struct tm_dat *dat, uint64_t pos)
{
	struct dat_rd rd;
	char *name = NULL;
	uint64_t first;
	int ret = -1;

	tm_dat_rd_file(&rd, dat, pos, pos + TM_DAT_MAX_STR, "compression name");
	if (tm_dat_rd_str(&rd, &name))
		goto out;
	if (!strcmp(name, "zlib")) {
		tm_dat_err(dat, "compression name at offset %llu: 'zlib' is not supported "
			   "(zstd or none)", (unsigned long long)pos);
		goto out;
	}
	if (tm_compression_parse(name, &dat->comp)) {
		tm_dat_err(dat, "compression name at offset %llu: unknown compression '%.40s'",
			   (unsigned long long)pos, name);
		goto out;
	}
	rd.what = "compression version";
	rd.end = rd.pos + TM_DAT_MAX_STR < dat->size ? rd.pos + TM_DAT_MAX_STR : dat->size;
	if (tm_dat_rd_str(&rd, &dat->comp_version))
		goto out;
	rd.what = "options pointer";
	rd.end = dat->size;
	if (tm_dat_rd_u64(&rd, &first))
		goto out;
	if (!first) {
		rd.pos -= 8;
		tm_dat_rd_err(&rd, "the first options offset is 0");
		goto out;
	}
	dat->codec = tm_codec_new(dat->comp, 0);
	if (!dat->codec || dat_v7_chain(dat, first))
		goto out;
	if (!dat->has_traceclock && dat->bufs[0].clock) {
		dat->clock = strdup(dat->bufs[0].clock);
		if (!dat->clock) {
			tm_fail(ENOMEM, "%s: clock", dat->name);
			goto out;
		}
	}
	ret = 0;
out:
	free(name);
	return ret;
}
