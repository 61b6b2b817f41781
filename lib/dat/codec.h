/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * codec.h - zstd (or no) compression of independent frames (codec.c): the
 * functions only lib/ and the tests call; tm-codec.h has what cmd/ sees.
 */
#ifndef TM_CODEC_PRIV_H
#define TM_CODEC_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/internal.h"
#include "tm-codec.h"

/* Worst-case compressed size of len input bytes. Cannot fail. */
TM_HIDDEN size_t tm_codec_bound(const struct tm_codec *codec, size_t len);
/*
 * Compress src into dst as one independent frame without a content-size field
 * (as trace-cmd writes them). Returns the compressed size, or -1 + message
 * (zstd's error, e.g. dst too small).
 */
TM_HIDDEN ssize_t tm_codec_compress(struct tm_codec *codec, void *dst, size_t cap,
				    const void *src, size_t len);
/*
 * As tm_codec_compress(), the frame made step bytes of src at a time (zstd's
 * streaming API, the size pledged: the same frame as in one go); after each
 * step but the last, go_on(ctx, done) says whether to go on. When it says
 * no, the frame is dropped and TM_CODEC_STOPPED returned, with no message.
 * -1 + message on zstd's errors.
 */
TM_HIDDEN ssize_t tm_codec_compress_steps(struct tm_codec *codec, void *dst, size_t cap,
					  const void *src, size_t len, size_t step,
					  bool (*go_on)(void *ctx, size_t done), void *ctx);
/*
 * Decompress one frame whose uncompressed size must be exactly want bytes.
 * Returns want, or -1 + message (EIO: corrupt frame, wrong size).
 */
TM_HIDDEN ssize_t tm_codec_decompress(struct tm_codec *codec, void *dst, size_t want,
				      const void *src, size_t len);
/* Free the codec (NULL is fine). */
TM_HIDDEN void tm_codec_free(struct tm_codec *codec);
/* zstd's lowest (most negative) level. Cannot fail. */
TM_HIDDEN int tm_codec_min_level(void);
/* One codec per thread: it owns zstd's contexts (level: zstd's). NULL with ENOMEM. */
TM_HIDDEN struct tm_codec *tm_codec_new(enum tm_compression c, int level);
/*
 * Change the zstd level of the next frames. zstd's lowest ("fast") level,
 * tm_codec_min_level(), writes frames of nearly raw blocks at memcpy-like
 * speed: still standard frames that every reader decodes. Cannot fail.
 */
TM_HIDDEN void tm_codec_set_level(struct tm_codec *codec, int level);
/* "none" or "zstd". */
TM_HIDDEN const char *tm_compression_name(enum tm_compression c);
/* Library version string stored in the v7 header ("" for none). */
TM_HIDDEN const char *tm_compression_version(enum tm_compression c);

#endif /* TM_CODEC_PRIV_H */
