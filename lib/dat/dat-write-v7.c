// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-write-v7.c - the version 7 layout (spec §4, §9.2 layout 1), computed in
 * full before the first byte is written so that the output may be a pipe.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat-format.h"
#include "dat-version.h"
#include "dat-write-internal.h"
#include "codec.h"

/* Section descriptions, in the order their strings are stored (§4.3). */
static const char *const tm_meta_desc[TM_META_COUNT] = {
	"headers", "ftrace events", "events format", "kallsyms", "printk", "command lines",
};

struct tm_v7 {
	struct tm_codec	*codec;		/* NULL when the file is uncompressed */
	struct tm_buf	strings;	/* the strings section body, uncompressed */
	uint32_t	str_meta[TM_META_COUNT], str_opt1, str_buf, str_opt2, str_strings;
	uint32_t	str_modules;
	uint64_t	modules_off;	/* the MODULES section, 0: none */
	struct tm_buf	head;		/* header + metadata sections + options #1 + BUFFER hdr */
	struct tm_buf	tail;		/* options #2 + strings section */
	uint64_t	sec_off[TM_META_COUNT];
};

static uint32_t v7_string(struct tm_v7 *v, const char *s)
{
	uint32_t id = v->strings.len;

	tm_buf_putstr(&v->strings, s);
	return id;
}

static void section_header(struct tm_buf *b, uint16_t id, bool compressed, uint32_t str,
			      uint64_t size)
{
	tm_buf_put16(b, id);
	tm_buf_put16(b, compressed ? TM_DAT_SEC_COMPRESSED : 0);
	tm_buf_put32(b, str);
	tm_buf_put64(b, size);
}

/* A section whose body is src, compressed as one block (§6.2) when the file is. */
static int v7_section(struct tm_v7 *v, struct tm_buf *out, uint16_t id, uint32_t str,
			 const struct tm_buf *src)
{
	size_t cap, at;
	ssize_t n;

	if (!v->codec) {
		section_header(out, id, false, str, src->len);
		tm_buf_put(out, src->data, src->len);
		return 0;
	}
	if (src->len > UINT32_MAX)
		return tm_failx(EFBIG, "trace.dat: section %u is over 4 GiB", id);
	cap = tm_codec_bound(v->codec, src->len);
	section_header(out, id, true, str, 0);
	at = out->len;
	tm_buf_put32(out, 0);
	tm_buf_put32(out, src->len);
	tm_buf_reserve(out, cap);	/* compress straight into the buffer */
	if (out->err)
		return tm_fail(out->err, "trace.dat metadata");
	n = tm_codec_compress(v->codec, out->data + out->len, cap, src->data, src->len);
	if (n < 0)
		return tm_fail_prefix("trace.dat section %u", id);
	out->len += n;
	tm_put32(out->data + at, n);
	tm_put64(out->data + at - 8, TM_DAT_BLOCK_HDR_LEN + n);
	return 0;
}

static void v7_header(struct tm_write_ctx *w, struct tm_buf *b, uint64_t opt1_off)
{
	enum tm_compression c = w->compressed ? TM_COMPRESS_ZSTD : TM_COMPRESS_NONE;

	tm_write_prologue(w, b);
	tm_buf_putstr(b, tm_compression_name(c));
	tm_buf_putstr(b, tm_compression_version(c));
	tm_buf_put64(b, opt1_off);
}

static size_t v7_header_len(struct tm_write_ctx *w)
{
	enum tm_compression c = w->compressed ? TM_COMPRESS_ZSTD : TM_COMPRESS_NONE;

	return TM_DAT_PROLOGUE_LEN + strlen(tm_compression_name(c)) + 1 +
	       strlen(tm_compression_version(c)) + 1 + 8;
}

/* Options #1: section pointers, common options, CPUCOUNT (DONE comes later). */
static void v7_options1(struct tm_write_ctx *w, struct tm_v7 *v, struct tm_buf *b)
{
	uint32_t ncpus = w->ncpus;
	int i;

	for (i = 0; i < TM_META_COUNT; i++)
		tm_buf_option(b, TM_OPT_HEADER_INFO + i, &v->sec_off[i], 8);
	if (v->modules_off)
		tm_buf_option(b, TM_OPT_MODULES_FILE, &v->modules_off, 8);
	tm_write_common_options(w, b);
	tm_buf_option(b, TM_OPT_CPUCOUNT, &ncpus, sizeof(ncpus));
}

/* Place the CPU blobs after the BUFFER section header; returns the end offset. */
static uint64_t v7_place_blobs(struct tm_write_ctx *w, uint64_t data)
{
	int i;

	for (i = 0; i < w->nblobs; i++) {
		data = tm_align_up(data, w->page_size);
		w->blobs[i].offset = data;
		data += (w->compressed ? 4 : 0) + w->blobs[i].size;
	}
	return data;
}

/*
 * §4.6 BUFFER option for the top buffer (name ""). A compressed CPU's size
 * counts its 4-byte chunk count as trace-cmd >= 3.2 does; 3.1.x readers
 * walk the chunks and do not mind.
 */
static void v7_buffer_option(struct tm_write_ctx *w, struct tm_buf *b, uint64_t buf_off)
{
	struct tm_buf o = { 0 };
	int i;

	tm_buf_put64(&o, buf_off);
	tm_buf_putstr(&o, "");
	tm_buf_putstr(&o, w->clock);
	tm_buf_put32(&o, w->page_size);
	tm_buf_put32(&o, w->nblobs);
	for (i = 0; i < w->nblobs; i++) {
		tm_buf_put32(&o, w->blobs[i].cpu);
		tm_buf_put64(&o, w->blobs[i].offset);
		tm_buf_put64(&o, w->blobs[i].size + (w->compressed ? 4 : 0));
	}
	if (o.err)
		b->err = o.err;
	tm_buf_option(b, TM_OPT_BUFFER, o.data, o.len);
	tm_buf_free(&o);
}

static void v7_done(struct tm_buf *b, uint64_t next)
{
	tm_buf_option(b, TM_OPT_DONE, &next, sizeof(next));
}

static int v7_layout(struct tm_write_ctx *w, struct tm_v7 *v)
{
	struct tm_buf opt1 = { 0 }, opt2 = { 0 };
	uint64_t pos, opt1_off, buf_off, end;
	int i, ret = -1;

	pos = v7_header_len(w);
	v7_header(w, &v->head, 0);	/* the options offset is patched below */
	for (i = 0; i < TM_META_COUNT; i++) {
		v->sec_off[i] = pos;
		if (v7_section(v, &v->head, TM_OPT_HEADER_INFO + i, v->str_meta[i],
				  &w->payload[i]))
			goto out;
		pos = v->head.len;
	}
	if (w->opts->modules) {
		/* trace-cmd 3.4's /proc/modules of the boot that extracted a persistent buffer */
		struct tm_buf mods = { .data = (uint8_t *)w->opts->modules,
				       .len = w->opts->modules_len };

		v->modules_off = pos;
		if (v7_section(v, &v->head, TM_OPT_MODULES_FILE, v->str_modules, &mods))
			goto out;
		pos = v->head.len;
	}
	opt1_off = pos;
	v7_options1(w, v, &opt1);
	buf_off = opt1_off + TM_DAT_SECTION_HDR_LEN + opt1.len + 14;	/* + DONE */
	end = v7_place_blobs(w, buf_off + TM_DAT_SECTION_HDR_LEN);
	v7_done(&opt1, end);
	section_header(&v->head, 0, false, v->str_opt1, opt1.len);
	tm_buf_put(&v->head, opt1.data, opt1.len);
	section_header(&v->head, TM_OPT_BUFFER, w->compressed, v->str_buf,
			  end - buf_off - TM_DAT_SECTION_HDR_LEN);
	v7_buffer_option(w, &opt2, buf_off);
	v7_done(&opt2, 0);
	section_header(&v->tail, 0, false, v->str_opt2, opt2.len);
	tm_buf_put(&v->tail, opt2.data, opt2.len);
	if (v7_section(v, &v->tail, TM_OPT_STRINGS, v->str_strings, &v->strings))
		goto out;
	if (v->head.err || v->tail.err || opt1.err || opt2.err) {
		tm_fail(ENOMEM, "trace.dat layout");
		goto out;
	}
	tm_put64(v->head.data + v7_header_len(w) - 8, opt1_off);
	ret = 0;
out:
	tm_buf_free(&opt1);
	tm_buf_free(&opt2);
	return ret;
}

static void v7_strings(struct tm_v7 *v, bool modules)
{
	int i;

	for (i = 0; i < TM_META_COUNT; i++)
		v->str_meta[i] = v7_string(v, tm_meta_desc[i]);
	v->str_opt1 = v7_string(v, "options");
	v->str_buf = v7_string(v, "buffer flyrecord ");
	v->str_opt2 = v7_string(v, "options");
	v->str_strings = v7_string(v, "strings");
	if (modules)
		v->str_modules = v7_string(v, "modules");
}

int tm_dat_write_v7(struct tm_write_ctx *w)
{
	struct tm_v7 v = { 0 };
	int ret = -1, i;

	if (w->compressed) {
		v.codec = tm_codec_new(TM_COMPRESS_ZSTD, w->opts->level);
		if (!v.codec)
			return -1;
	}
	v7_strings(&v, w->opts->modules != NULL);
	if (v7_layout(w, &v))
		goto out;
	if (tm_write_out(w, v.head.data, v.head.len))
		goto out;
	for (i = 0; i < w->nblobs; i++)
		if (tm_write_blob(w, &w->blobs[i]))
			goto out;
	ret = tm_write_out(w, v.tail.data, v.tail.len);
out:
	tm_codec_free(v.codec);
	tm_buf_free(&v.strings);
	tm_buf_free(&v.head);
	tm_buf_free(&v.tail);
	return ret;
}
