// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-cursor.c - per-CPU page cursors over a trace.dat file: raw pages are read
 * one at a time with pread, chunk streams are decompressed one chunk at a
 * time, so memory stays at one page or one chunk whatever the file's size.
 * Also where trace-cmd says a CPU's data lies (report --stat).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat-internal.h"
#include "page.h"
#include "dat-format.h"
#include "rec-check.h"
#include "codec.h"
#include "tm-dat.h"

#define TM_TEXT_BLOCK	(64u << 10)
/*
 * Zeros after the last page of every buffer: libtraceevent reads a string
 * field of a record up to its NUL, past the record when the NUL is missing;
 * it then stops here instead of running off the buffer.
 */
#define TM_CURSOR_SLACK	TM_RECORD_SLACK

struct tm_cursor {
	struct tm_dat	*dat;
	char		label[112];	/* "top buffer CPU 0 data" */
	uint32_t	unit;		/* page size, or 1 for text */
	bool		compressed;
	bool		text;
	bool		failed;
	uint64_t	pos;		/* next file byte to read */
	uint64_t	end;		/* end of the blob in the file */
	uint32_t	chunks_left;
	uint32_t	chunk_no;
	uint64_t	cur_off;	/* current page, or its chunk when compressed */
	uint8_t		*page;		/* raw data: one page (or text block) */
	uint8_t		*in;		/* compressed: the current chunk's frame */
	size_t		in_cap;
	uint8_t		*out;		/* compressed: the current chunk, decompressed */
	size_t		out_cap;
	size_t		out_len;
	size_t		out_pos;
	struct tm_codec	*codec;
};

static struct tm_cursor *cursor_new(struct tm_dat *dat, const struct dat_buffer *b,
				    bool compressed, uint32_t unit)
{
	struct tm_cursor *cur = calloc(1, sizeof(*cur));

	if (!cur) {
		tm_fail(ENOMEM, "%s: cursor", dat->name);
		return NULL;
	}
	cur->dat = dat;
	cur->unit = unit;
	cur->compressed = compressed;
	cur->text = b->text;
	if (compressed) {
		cur->codec = tm_codec_new(dat->comp, 0);
		if (!cur->codec)
			goto fail;
	} else {
		cur->page = calloc(1, (size_t)unit + TM_CURSOR_SLACK);
		if (!cur->page) {
			tm_fail(ENOMEM, "%s: cursor page", dat->name);
			goto fail;
		}
	}
	return cur;
fail:
	tm_cursor_close(cur);
	return NULL;
}

/*
 * Point the cursor at size bytes of data at off (a chunk stream: its count
 * at off); the cursor is closed on failure. Count and offsets were checked
 * at open: the count is read again for the cursor.
 */
static struct tm_cursor *cursor_start(struct tm_cursor *cur, uint64_t off, uint64_t size)
{
	uint8_t n[4];

	if (!cur->compressed) {
		cur->pos = off;
		cur->end = off + size;
		return cur;
	}
	if (tm_dat_pread(cur->dat, n, sizeof(n), off, cur->label)) {
		tm_cursor_close(cur);
		return NULL;
	}
	cur->chunks_left = tm_get32(n, cur->dat->swap);
	cur->pos = off + 4;
	cur->end = off + 4 + size;
	return cur;
}

struct tm_cursor *tm_cursor_open(struct tm_dat *dat, int buf, int cpu)
{
	const struct dat_cpu *c = tm_dat_find_cpu(dat, buf, cpu);
	const struct dat_buffer *b;
	struct tm_cursor *cur;
	char label[80];

	if (!c || !c->raw) {
		errno = 0;
		return NULL;
	}
	b = &dat->bufs[buf];
	cur = cursor_new(dat, b, b->compressed, b->page_size);
	if (!cur)
		return NULL;
	snprintf(cur->label, sizeof(cur->label), "%s CPU %d data",
		 tm_dat_buf_label(b, label, sizeof(label)), cpu);
	return cursor_start(cur, c->off, c->size);
}

struct tm_cursor *tm_cursor_open_text(struct tm_dat *dat, int buf)
{
	const struct dat_buffer *b = buf >= 0 && buf < dat->nbuf ? &dat->bufs[buf] : NULL;
	struct tm_cursor *cur;
	char label[80];

	if (!b || !b->text || !b->text_size) {
		errno = 0;
		return NULL;
	}
	cur = cursor_new(dat, b, b->compressed, b->compressed ? 1 : TM_TEXT_BLOCK);
	if (!cur)
		return NULL;
	snprintf(cur->label, sizeof(cur->label), "%s latency text",
		 tm_dat_buf_label(b, label, sizeof(label)));
	return cursor_start(cur, b->text_off, b->text_size);
}

/*
 * A chunk buffer this big (a recording's chunks hold up to 1 MiB) is
 * faulted in with one call: each CPU's buffers are filled whole at once.
 */
#define TM_CURSOR_PREFAULT	(64 << 10)

static int cursor_grow(struct tm_cursor *cur, uint8_t **buf, size_t *cap, size_t want)
{
	uint8_t *n;

	if (want <= *cap)
		return 0;
	n = realloc(*buf, want);
	if (!n)
		return tm_fail(ENOMEM, "%s: %s", cur->dat->name, cur->label);
	if (want >= TM_CURSOR_PREFAULT)
		tm_prefault(n, want);
	*buf = n;
	*cap = want;
	return 0;
}

/* Read and decompress the next chunk; its header is checked again against the blob. */
static int cursor_load_chunk(struct tm_cursor *cur)
{
	struct tm_dat *dat = cur->dat;
	uint8_t hdr[TM_DAT_CHUNK_HDR_LEN];
	uint32_t c, u;

	if (cur->end - cur->pos < sizeof(hdr))
		return tm_dat_err(dat, "%s: chunk %u header at offset %llu runs past the "
				  "data's end", cur->label, cur->chunk_no,
				  (unsigned long long)cur->pos);
	if (tm_dat_pread(dat, hdr, sizeof(hdr), cur->pos, cur->label))
		return -1;
	c = tm_get32(hdr, dat->swap);
	u = tm_get32(hdr + 4, dat->swap);
	if (c > cur->end - cur->pos - sizeof(hdr) || u > TM_DAT_MAX_INFLATE ||
	    (uint64_t)u > (uint64_t)c * TM_DAT_ZSTD_RATIO || u % cur->unit)
		return tm_dat_err(dat, "%s: chunk %u at offset %llu: bad sizes %u -> %u",
				  cur->label, cur->chunk_no, (unsigned long long)cur->pos, c, u);
	if (cursor_grow(cur, &cur->in, &cur->in_cap, c ? c : 1) ||
	    cursor_grow(cur, &cur->out, &cur->out_cap, (size_t)u + TM_CURSOR_SLACK))
		return -1;
	memset(cur->out + u, 0, TM_CURSOR_SLACK);
	if (tm_dat_pread(dat, cur->in, c, cur->pos + sizeof(hdr), cur->label))
		return -1;
	if (tm_codec_decompress(cur->codec, cur->out, u, cur->in, c) < 0)
		return tm_fail_prefix("%s: %s: chunk %u at offset %llu", dat->name, cur->label,
				      cur->chunk_no, (unsigned long long)cur->pos);
	cur->cur_off = cur->pos;
	cur->pos += sizeof(hdr) + c;
	cur->chunks_left--;
	cur->chunk_no++;
	cur->out_len = u;
	cur->out_pos = 0;
	return 0;
}

/* The next len bytes of decompressed data (len = unit for pages, a whole chunk for text). */
static const uint8_t *cursor_next_compressed(struct tm_cursor *cur, size_t *len)
{
	const uint8_t *p;

	while (cur->out_pos >= cur->out_len) {
		if (!cur->chunks_left) {
			errno = 0;
			return NULL;
		}
		if (cursor_load_chunk(cur))
			return NULL;
	}
	p = cur->out + cur->out_pos;
	*len = cur->text ? cur->out_len - cur->out_pos : cur->unit;
	cur->out_pos += *len;
	return p;
}

static const uint8_t *cursor_next_raw(struct tm_cursor *cur, size_t *len)
{
	uint64_t left = cur->end - cur->pos;

	if (!left || (!cur->text && left < cur->unit)) {
		errno = 0;
		return NULL;
	}
	*len = left < cur->unit ? left : cur->unit;
	if (tm_dat_pread(cur->dat, cur->page, *len, cur->pos, cur->label))
		return NULL;
	cur->cur_off = cur->pos;
	cur->pos += *len;
	return cur->page;
}

static const uint8_t *cursor_next(struct tm_cursor *cur, size_t *len)
{
	const uint8_t *p;

	if (cur->failed) {
		errno = EIO;
		return NULL;
	}
	p = cur->compressed ? cursor_next_compressed(cur, len) : cursor_next_raw(cur, len);
	if (!p && errno)
		cur->failed = true;
	return p;
}

const void *tm_cursor_next_page(struct tm_cursor *cur)
{
	struct tm_dat *dat = cur->dat;
	const uint8_t *p;
	struct tm_page pg;
	size_t len;

	if (cur->text) {
		tm_failx(EINVAL, "%s: %s holds text, not pages", dat->name, cur->label);
		return NULL;
	}
	p = cursor_next(cur, &len);
	if (!p)
		return NULL;
	if (tm_page_init(&pg, p, cur->unit, dat->commit_size, dat->big_endian)) {
		char where[512];

		cur->failed = true;
		tm_cursor_where(cur, where, sizeof(where));
		tm_fail_prefix("%s", where);
		return NULL;
	}
	return p;
}

int tm_cursor_where(const struct tm_cursor *cur, char *buf, size_t len)
{
	if (cur->compressed)
		return snprintf(buf, len, "%s: %s: page %zu of the chunk at offset %llu",
				cur->dat->name, cur->label,
				cur->out_pos ? (cur->out_pos - 1) / cur->unit : 0,
				(unsigned long long)cur->cur_off);
	return snprintf(buf, len, "%s: %s: page at offset %llu", cur->dat->name, cur->label,
			(unsigned long long)cur->cur_off);
}

const void *tm_cursor_next_block(struct tm_cursor *cur, size_t *len)
{
	if (!cur->text) {
		tm_failx(EINVAL, "%s: %s holds pages, not text", cur->dat->name, cur->label);
		return NULL;
	}
	return cursor_next(cur, len);
}

uint64_t tm_cursor_offset(const struct tm_cursor *cur)
{
	return cur->cur_off;
}

void tm_cursor_close(struct tm_cursor *cur)
{
	if (!cur)
		return;
	tm_codec_free(cur->codec);
	free(cur->page);
	free(cur->in);
	free(cur->out);
	free(cur);
}

/* trace-cmd keeps compressed CPU data as one uncompressed copy: page-aligned, after one page. */
static uint64_t cursor_virtual_offset(const struct tm_dat *dat, int cpu)
{
	uint64_t virt = dat->page_size;
	int c;

	for (c = 0; c < cpu; c++)
		virt = (virt + tm_dat_buffer_cpu_size(dat, 0, c) + dat->page_size - 1) /
		       dat->page_size * dat->page_size;
	return virt;
}

uint64_t tm_dat_stat_offset(struct tm_dat *dat, int cpu)
{
	struct tm_cursor *cur;
	uint64_t off = 0;

	if (dat->comp != TM_COMPRESS_NONE)
		return cursor_virtual_offset(dat, cpu);
	cur = tm_dat_buffer_cpu_size(dat, 0, cpu) ? tm_cursor_open(dat, 0, cpu) : NULL;
	if (cur && tm_cursor_next_page(cur))
		off = tm_cursor_offset(cur);
	tm_cursor_close(cur);
	return off;
}
