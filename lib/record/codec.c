// SPDX-License-Identifier: GPL-2.0-only
/* codec.c - zstd (or no) compression of independent frames for trace.dat. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "util/internal.h"

struct tm_codec {
	enum tm_compression kind;
	int level;
	ZSTD_CCtx *cctx;
	ZSTD_DCtx *dctx;
};

int tm_compression_parse(const char *name, enum tm_compression *out)
{
	if (!strcmp(name, "zstd"))
		*out = TM_COMPRESS_ZSTD;
	else if (!strcmp(name, "none"))
		*out = TM_COMPRESS_NONE;
	else
		return tm_failx(EINVAL, "unknown compression '%s' (use zstd or none)", name);
	return 0;
}

const char *tm_compression_name(enum tm_compression c)
{
	return c == TM_COMPRESS_ZSTD ? "zstd" : "none";
}

const char *tm_compression_version(enum tm_compression c)
{
	return c == TM_COMPRESS_ZSTD ? ZSTD_versionString() : "";
}

struct tm_codec *tm_codec_new(enum tm_compression c, int level)
{
	struct tm_codec *codec = calloc(1, sizeof(*codec));

	if (!codec) {
		tm_fail(ENOMEM, "codec");
		return NULL;
	}
	codec->kind = c;
	codec->level = level;
	return codec;
}

void tm_codec_free(struct tm_codec *codec)
{
	if (!codec)
		return;
	ZSTD_freeCCtx(codec->cctx);
	ZSTD_freeDCtx(codec->dctx);
	free(codec);
}

int tm_codec_min_level(void)
{
	return ZSTD_minCLevel();
}

/* Takes effect from the next frame: every chunk is a frame of its own. */
void tm_codec_set_level(struct tm_codec *codec, int level)
{
	if (codec->level == level)
		return;
	codec->level = level;
	if (codec->cctx)
		ZSTD_CCtx_setParameter(codec->cctx, ZSTD_c_compressionLevel, level);
}

size_t tm_codec_bound(const struct tm_codec *codec, size_t len)
{
	return codec->kind == TM_COMPRESS_ZSTD ? ZSTD_compressBound(len) : len;
}

/* Contexts are made on first use, so a decode-only codec never pays for a CCtx. */
static int codec_cctx(struct tm_codec *codec)
{
	if (codec->cctx)
		return 0;
	codec->cctx = ZSTD_createCCtx();
	if (!codec->cctx)
		return tm_fail(ENOMEM, "zstd: create compression context");
	ZSTD_CCtx_setParameter(codec->cctx, ZSTD_c_compressionLevel, codec->level);
	/* trace-cmd's frames carry no content size; readers use the chunk header. */
	ZSTD_CCtx_setParameter(codec->cctx, ZSTD_c_contentSizeFlag, 0);
	/* a 4-byte checksum per frame lets readers tell corrupt chunks from data */
	ZSTD_CCtx_setParameter(codec->cctx, ZSTD_c_checksumFlag, 1);
	return 0;
}

ssize_t tm_codec_compress(struct tm_codec *codec, void *dst, size_t cap,
			  const void *src, size_t len)
{
	size_t n;

	if (codec->kind == TM_COMPRESS_NONE) {
		if (cap < len)
			return tm_failx(ENOSPC, "compress: output buffer too small");
		memcpy(dst, src, len);
		return len;
	}
	if (codec_cctx(codec))
		return -1;
	n = ZSTD_compress2(codec->cctx, dst, cap, src, len);
	if (ZSTD_isError(n))
		return tm_failx(EIO, "zstd compress: %s", ZSTD_getErrorName(n));
	return n;
}

/* One step of input (or the frame's end) through zstd's stream; -1 + message. */
static int codec_stream(struct tm_codec *codec, ZSTD_outBuffer *out, ZSTD_inBuffer *in,
			   bool last)
{
	size_t left;

	do {
		size_t pos = out->pos, used = in->pos;

		left = ZSTD_compressStream2(codec->cctx, out, in,
					    last ? ZSTD_e_end : ZSTD_e_continue);
		if (ZSTD_isError(left))
			return tm_failx(EIO, "zstd compress: %s", ZSTD_getErrorName(left));
		if (out->pos == pos && in->pos == used && left)
			return tm_failx(ENOSPC, "zstd compress: output buffer too small");
	} while (last ? left != 0 : in->pos < in->size);
	return 0;
}

ssize_t tm_codec_compress_steps(struct tm_codec *codec, void *dst, size_t cap,
				const void *src, size_t len, size_t step,
				bool (*go_on)(void *ctx, size_t done), void *ctx)
{
	ZSTD_outBuffer out = { dst, cap, 0 };
	ZSTD_inBuffer in = { src, 0, 0 };

	if (codec->kind == TM_COMPRESS_NONE || !step || step >= len)
		return tm_codec_compress(codec, dst, cap, src, len);
	if (codec_cctx(codec))
		return -1;
	ZSTD_CCtx_reset(codec->cctx, ZSTD_reset_session_only);
	ZSTD_CCtx_setPledgedSrcSize(codec->cctx, len);
	for (;;) {
		in.size = len - in.pos > step ? in.pos + step : len;
		if (codec_stream(codec, &out, &in, in.size == len)) {
			ZSTD_CCtx_reset(codec->cctx, ZSTD_reset_session_only);
			return -1;
		}
		if (in.size == len)
			return out.pos;
		if (!go_on(ctx, in.pos)) {
			ZSTD_CCtx_reset(codec->cctx, ZSTD_reset_session_only);
			return TM_CODEC_STOPPED;
		}
	}
}

ssize_t tm_codec_decompress(struct tm_codec *codec, void *dst, size_t want,
			    const void *src, size_t len)
{
	size_t n;

	if (codec->kind == TM_COMPRESS_NONE) {
		if (len != want)
			return tm_failx(EIO, "stored block of %zu bytes, expected %zu", len, want);
		memcpy(dst, src, len);
		return len;
	}
	if (!codec->dctx) {
		codec->dctx = ZSTD_createDCtx();
		if (!codec->dctx)
			return tm_fail(ENOMEM, "zstd: create decompression context");
	}
	n = ZSTD_decompressDCtx(codec->dctx, dst, want, src, len);
	if (ZSTD_isError(n))
		return tm_failx(EIO, "corrupt zstd frame: %s", ZSTD_getErrorName(n));
	if (n != want)
		return tm_failx(EIO, "zstd frame holds %zu bytes, expected %zu", n, want);
	return n;
}
