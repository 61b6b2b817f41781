/* SPDX-License-Identifier: GPL-2.0-only */
/* tm-codec.h - compression of trace.dat blocks and chunks (codec.c). */
#ifndef TM_CODEC_H
#define TM_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum tm_compression {
	TM_COMPRESS_NONE,
	TM_COMPRESS_ZSTD,
};

struct tm_codec;

/* Parse "none"/"zstd"; -1 (message set) for anything else. */
int tm_compression_parse(const char *name, enum tm_compression *out);

/* tm_codec_compress_steps() returned without a frame: its go_on said stop. */
#define TM_CODEC_STOPPED	(-2)

#endif /* TM_CODEC_H */
