/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * write-priv.h - what meta*.c and the trace.dat writer (tracedat-write.c,
 * dat-write-v6.c, dat-write-v7.c) share: the collected metadata and a growable
 * byte buffer. Private to the library.
 */
#ifndef TM_WRITE_PRIV_H
#define TM_WRITE_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include "internal.h"

/* A malloc'ed text blob. */
struct tm_text {
	char	*data;
	size_t	len;
};

struct tm_meta_system {
	char		*name;
	size_t		nformats;
	struct tm_text	*formats;	/* events/<name>/<event>/format */
};

struct tm_meta {
	struct tm_text		header_page;
	struct tm_text		header_event;
	size_t			nftrace;
	struct tm_text		*ftrace;	/* events/ftrace/<event>/format */
	size_t			nsystems;
	struct tm_meta_system	*systems;	/* never "ftrace" */
	struct tm_text		kallsyms;
	struct tm_text		printk;
	struct tm_text		cmdlines;
	char			*uname;		/* "sysname nodename release machine" */
	struct tm_text		trace_clock;	/* whole trace_clock file */
	char			clock[64];	/* the selected clock name */
	int			ncpus;
	struct tm_text		*stats;		/* per_cpu/cpuN/stats text, N < ncpus */
	char			warning[160];
};

/* meta-events.c: header files, ftrace formats and the enabled events' formats. */
TM_HIDDEN int tm_meta_read_events(struct tm_meta *meta, const char *tracefs,
				  const char *instance);
TM_HIDDEN void tm_text_free(struct tm_text *t);
/* snprintf into a path buffer; -1 (ENAMETOOLONG, message set) when it does not fit. */

/* A growable buffer; a failed allocation sticks in err and later puts do nothing. */
struct tm_buf {
	uint8_t	*data;
	size_t	len;
	size_t	cap;
	int	err;
};

/* Make room for more bytes at data + len (len unchanged). */
TM_HIDDEN void tm_buf_reserve(struct tm_buf *b, size_t more);
TM_HIDDEN void tm_buf_put(struct tm_buf *b, const void *p, size_t len);
TM_HIDDEN void tm_buf_put16(struct tm_buf *b, uint16_t v);
TM_HIDDEN void tm_buf_put32(struct tm_buf *b, uint32_t v);
TM_HIDDEN void tm_buf_put64(struct tm_buf *b, uint64_t v);
/* A string with its NUL. */
TM_HIDDEN void tm_buf_putstr(struct tm_buf *b, const char *s);
TM_HIDDEN void tm_buf_free(struct tm_buf *b);

/* tracedat-write.c: pieces shared by the v6 and v7 writers. */

/* The six §2 metadata payloads, in file order (sections 16..21 in v7). */
enum { TM_META_HEADERS, TM_META_FTRACE, TM_META_EVENTS, TM_META_KALLSYMS,
       TM_META_PRINTK, TM_META_CMDLINES, TM_META_COUNT };

struct tm_cpu_blob {
	int		cpu;
	struct tm_spool	*spool;
	uint64_t	offset;		/* file offset of the blob (page aligned) */
	uint64_t	size;		/* spool bytes (the BUFFER option's size) */
	uint32_t	chunks;		/* compressed: chunk count written in front */
};

struct tm_write_ctx {
	int				fd;
	uint64_t			pos;		/* bytes written so far */
	const struct tm_meta		*meta;
	const struct tm_write_opts	*opts;
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

TM_HIDDEN int tm_write_out(struct tm_write_ctx *w, const void *buf, size_t len);
/* Zero bytes up to offset to (the next page boundary, usually). */
TM_HIDDEN int tm_write_pad_to(struct tm_write_ctx *w, uint64_t to);
/* Move one CPU's spool bytes to the output (copy_file_range or read/write). */
TM_HIDDEN int tm_write_blob(struct tm_write_ctx *w, const struct tm_cpu_blob *b);
/* The common options (TRACECLOCK, UNAME, VERSION, TRACEID, CPUSTATs). */
TM_HIDDEN void tm_write_common_options(struct tm_write_ctx *w, struct tm_buf *b);
/* One option: u16 id, u32 size, data. */
TM_HIDDEN void tm_buf_option(struct tm_buf *b, uint16_t id, const void *data, uint32_t len);

static inline uint64_t tm_align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

TM_HIDDEN int tm_dat_write_v6(struct tm_write_ctx *w);
TM_HIDDEN int tm_dat_write_v7(struct tm_write_ctx *w);

#endif /* TM_WRITE_PRIV_H */
