/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dat-write-internal.h - what the trace.dat writer's files share: the write
 * context tm_dat_write_data (dat-write.c) fills, the pieces both layouts use
 * (dat-write-common.c) and the layouts themselves (dat-write-v6.c,
 * dat-write-v7.c). Private to the library.
 */
#ifndef TM_DAT_WRITE_INTERNAL_H
#define TM_DAT_WRITE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/internal.h"
#include "trace/trace-internal.h"
#include "tm-write.h"

/* The six §2 metadata payloads, in file order (sections 16..21 in v7). */
enum { TM_META_HEADERS, TM_META_FTRACE, TM_META_EVENTS, TM_META_KALLSYMS,
       TM_META_PRINTK, TM_META_CMDLINES, TM_META_COUNT };

struct tm_cpu_blob {
	int				cpu;
	const struct tm_cpu_data	*src;
	uint64_t			offset;	/* file offset of the blob (page aligned) */
	uint64_t			size;	/* source bytes (v7 compressed: + the count's 4 stored) */
	uint32_t			chunks;	/* compressed: chunk count written in front */
};

struct tm_write_ctx {
	int				fd;
	uint64_t			pos;		/* bytes written so far */
	const struct tm_meta		*meta;
	const struct tm_write_opts	*opts;
	int				version;
	uint32_t			page_size;
	int				long_size;
	const char			*clock;
	bool				compressed;
	bool				use_cfr;	/* try copy_file_range */
	int				ncpus;
	struct tm_cpu_blob		*blobs;		/* CPUs with data, CPU order */
	int				nblobs;
	struct tm_buf			payload[TM_META_COUNT];
	uint8_t				*copy_buf;	/* read/write fallback */
};

/* dat-write-common.c: pieces shared by the v6 and v7 layouts. */

/* §1 prologue: magic, version, endianness, long size, page size (18 bytes). */
TM_HIDDEN void tm_write_prologue(struct tm_write_ctx *w, struct tm_buf *b);
/* Write len bytes to the output; -1 with "write trace.dat: <errno>". */
TM_HIDDEN int tm_write_out(struct tm_write_ctx *w, const void *buf, size_t len);
/* Zero bytes up to offset to (the next page boundary, usually); -1 as tm_write_out. */
TM_HIDDEN int tm_write_pad_to(struct tm_write_ctx *w, uint64_t to);
/* Move one CPU's data to the output (copy_file_range, read/write or its pieces); -1 + message. */
TM_HIDDEN int tm_write_blob(struct tm_write_ctx *w, const struct tm_cpu_blob *b);
/*
 * The common options (DATE, TRACECLOCK, UNAME, VERSION, TRACEID, CPUSTATs,
 * LAST_BOOT_INFO) into b.
 */
TM_HIDDEN void tm_write_common_options(struct tm_write_ctx *w, struct tm_buf *b);
/* One option: u16 id, u32 size, data. */
TM_HIDDEN void tm_buf_option(struct tm_buf *b, uint16_t id, const void *data, uint32_t len);

static inline uint64_t tm_align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

#endif /* TM_DAT_WRITE_INTERNAL_H */
