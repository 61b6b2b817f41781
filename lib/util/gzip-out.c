// SPDX-License-Identifier: GPL-2.0-only
/*
 * gzip-out.c - an output FILE whose bytes go gzip-compressed (RFC 1952,
 * zlib's deflate) into another FILE: convert's `-o X.pftrace.gz`. The
 * outputs write as always; fclose() ends the gzip stream and leaves the
 * destination open for its owner to finish.
 *
 * Perfetto opens such a file as it is: trace_processor's GuessTraceType
 * (src/trace_processor/util/trace_type.cc, kGzipMagic 1f 8b ->
 * kGzipTraceType) hands it to its gzip reader, which inflates and parses
 * what is inside (a proto trace or JSON) by the inner bytes' own type.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <stdint.h>

#include "internal.h"
#include "tm-outfile.h"

#define GZ_OUT_BUF	(256 << 10)

struct gz_out {
	z_stream	z;
	FILE		*dst;
	unsigned char	buf[GZ_OUT_BUF];
};

/* Deflate what z holds with flush; every output byte to dst. */
static int gz_pump(struct gz_out *g, int flush)
{
	int r;

	do {
		size_t n;

		g->z.next_out = g->buf;
		g->z.avail_out = sizeof(g->buf);
		r = deflate(&g->z, flush);
		if (r == Z_STREAM_ERROR) {
			errno = EIO;
			return -1;
		}
		n = sizeof(g->buf) - g->z.avail_out;
		if (n && fwrite_unlocked(g->buf, 1, n, g->dst) != n)
			return -1;
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
	return 0;
}

static ssize_t gz_write(void *cookie, const char *p, size_t len)
{
	struct gz_out *g = cookie;
	size_t done = 0;

	while (done < len) {
		size_t step = len - done < (1u << 30) ? len - done : (1u << 30);

		g->z.next_in = (unsigned char *)(uintptr_t)(p + done);
		g->z.avail_in = (uInt)step;
		if (gz_pump(g, Z_NO_FLUSH))
			return -1;
		done += step;
	}
	return (ssize_t)len;
}

static int gz_close(void *cookie)
{
	struct gz_out *g = cookie;
	int r;

	g->z.next_in = NULL;
	g->z.avail_in = 0;
	r = gz_pump(g, Z_FINISH);
	deflateEnd(&g->z);
	free(g);
	return r ? EOF : 0;
}

FILE *tm_gzip_open(FILE *dst)
{
	static const cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	struct gz_out *g = calloc(1, sizeof(*g));
	FILE *f;

	if (!g) {
		tm_fail(ENOMEM, "gzip output");
		return NULL;
	}
	g->dst = dst;
	/* 15 + 16: a 32 KiB window and a gzip header and trailer */
	if (deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		tm_failx(ENOMEM, "gzip output: zlib cannot start");
		return NULL;
	}
	f = fopencookie(g, "w", io);
	if (!f) {
		deflateEnd(&g->z);
		free(g);
		tm_fail(errno ?: ENOMEM, "gzip output");
	}
	return f;
}
