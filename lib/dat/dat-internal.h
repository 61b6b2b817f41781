/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dat-internal.h - the trace.dat reader's private state (struct tm_dat), the
 * bounded byte reader every parser uses, and the helpers shared by
 * dat-read.c, the other dat-*.c and dat-cursor.c.
 */
#ifndef TM_DAT_INTERNAL_H
#define TM_DAT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/internal.h"
#include "trace/trace-internal.h"
#include "tm-codec.h"
#include "tm-write.h"

/* Sanity limits: anything above is treated as corruption, not allocated. */
#define TM_DAT_MAX_CPUS		65536u
#define TM_DAT_MAX_PAGE		(1u << 27)	/* a commit length has 27 bits */
#define TM_DAT_MIN_PAGE		16u
#define TM_DAT_MAX_INFLATE	(256u << 20)	/* one decompressed block or chunk */
#define TM_DAT_ZSTD_RATIO	32768u		/* zstd cannot expand a byte further */
#define TM_DAT_MAX_STR		4096u		/* prologue strings */

/* One CPU's stored data: raw pages, or a chunk stream when compressed. */
struct dat_cpu {
	int		cpu;
	uint64_t	off;		/* first page, or the chunk count (compressed) */
	uint64_t	size;		/* bytes after off (compressed: chunks, count excluded) */
	uint64_t	raw;		/* uncompressed bytes */
	uint32_t	chunks;
};

struct dat_buffer {
	char		*name;		/* "" for the top-level buffer */
	char		*clock;		/* NULL when unknown */
	bool		defined;	/* an option described it */
	uint64_t	where;		/* v6: its flyrecord tag; v7: its section */
	uint32_t	page_size;
	bool		compressed;	/* data are chunk streams */
	bool		text;		/* latency text instead of per-CPU pages */
	uint64_t	text_off;	/* text: raw bytes, or the chunk count */
	uint64_t	text_size;	/* text: bytes after text_off */
	uint32_t	text_chunks;
	int		slots;		/* max CPU id + 1 */
	int		ncpu;		/* entries in cpus[] */
	struct dat_cpu	*cpus;		/* sorted by CPU id */
};

struct tm_dat {
	char		*name;
	int		fd;
	bool		own_fd;
	uint64_t	size;		/* file size: the bound of every offset */

	int		version;
	const struct tm_dat_version_ops *layout;	/* reads the version's layout */
	bool		big_endian;
	bool		swap;
	int		long_size;
	uint32_t	page_size;
	unsigned int	commit_size;
	enum tm_compression comp;
	char		*comp_version;
	struct tm_codec	*codec;

	int		header_cpus;	/* v6 header count, -1 if none */
	int		cpucount;	/* CPUCOUNT option, -1 if none */

	struct tm_text	header_page;
	struct tm_text	header_event;
	size_t		nftrace;
	struct tm_text	*ftrace;
	size_t		nsys;
	struct tm_meta_system *sys;
	struct tm_text	kallsyms;
	struct tm_text	printk;
	struct tm_text	cmdlines;

	/* options */
	bool		has_traceclock;
	bool		has_date;	/* a DATE option: times are wall-clock */
	char		*clock;
	char		*uname;
	char		*tracer_version;
	char		*last_boot_info;	/* LAST_BOOT_INFO: "<instance>:<text>" */
	char		*modules;		/* MODULES section: /proc/modules text */
	struct tm_text	cpustat;
	bool		has_trace_id;
	uint64_t	trace_id;
	uint64_t	date_offset;	/* ns, DATE options (wrapping sum) */
	uint64_t	ts_offset;	/* ns, OFFSET options */
	uint32_t	tsc_mult;
	uint32_t	tsc_shift;
	uint64_t	tsc_offset;
	uint64_t	newer_opts;	/* bit n: option id n (23-63) seen; report skips them */

	uint64_t	meta_off[6];	/* v7 sections 16-21 already read (offset + 1) */

	int		nbuf;
	struct dat_buffer *bufs;	/* [0] is the top-level buffer */
};

/*
 * A bounded reader over either the file (mem == NULL; pos is a file offset)
 * or a section body held in memory (pos counts from mem; sec is the section's
 * file offset, used in messages). Every read checks pos + len <= end.
 */
struct dat_rd {
	struct tm_dat	*dat;
	const uint8_t	*mem;
	/*
	 * The malloc'ed buffer mem points at, or NULL: a text that runs to its
	 * end takes it over instead of a copy (tm_dat_rd_text(), which sets it
	 * NULL); the caller frees what is left.
	 */
	uint8_t		*own;
	uint64_t	pos;
	uint64_t	end;
	uint64_t	sec;
	const char	*what;		/* "header info", "options", ... */
};

/*
 * dat-pipe.c: *fd is a pipe, FIFO or device of the given mode: check that it
 * starts like a trace.dat, copy it whole into an unlinked file in $TMPDIR and
 * put that file's descriptor (at offset 0, the caller owns it) in *fd. The
 * original is left open. -1 + message naming the input and why (a
 * terminal, empty, not a trace.dat, no room in $TMPDIR).
 */
TM_HIDDEN int tm_dat_unpipe(int *fd, const char *name, mode_t mode);

/* dat-io.c: bounded reads, errors, labels. */

/* Fail with "<file>: <message>" (EINVAL), always returns -1. */
TM_HIDDEN int tm_dat_err(const struct tm_dat *dat, const char *fmt, ...) TM_PRINTF(2, 3);
/* Same, naming where the reader stands ("... section at offset N" / "at offset N"). */
TM_HIDDEN int tm_dat_rd_err(const struct dat_rd *rd, const char *fmt, ...) TM_PRINTF(2, 3);

TM_HIDDEN void tm_dat_rd_file(struct dat_rd *rd, struct tm_dat *dat, uint64_t pos, uint64_t end,
			      const char *what);
TM_HIDDEN void tm_dat_rd_mem(struct dat_rd *rd, struct tm_dat *dat, const void *mem, uint64_t len,
			     uint64_t sec, const char *what);
TM_HIDDEN uint64_t tm_dat_rd_left(const struct dat_rd *rd);
TM_HIDDEN int tm_dat_rd_bytes(struct dat_rd *rd, void *out, uint64_t len);
TM_HIDDEN int tm_dat_rd_u16(struct dat_rd *rd, uint16_t *v);
TM_HIDDEN int tm_dat_rd_u32(struct dat_rd *rd, uint32_t *v);
TM_HIDDEN int tm_dat_rd_u64(struct dat_rd *rd, uint64_t *v);
/* A NUL-terminated string: malloc'ed copy without the NUL. */
TM_HIDDEN int tm_dat_rd_str(struct dat_rd *rd, char **out);
/* len bytes into a malloc'ed NUL-terminated copy (len checked first). */
TM_HIDDEN int tm_dat_rd_text(struct dat_rd *rd, uint64_t len, struct tm_text *out);
/* Read [off, off + len) of the file; "what" names it in the truncation message. */
TM_HIDDEN int tm_dat_pread(struct tm_dat *dat, void *buf, uint64_t len, uint64_t off,
			   const char *what);
/* off + len <= file size, without overflow. */
TM_HIDDEN bool tm_dat_in_file(const struct tm_dat *dat, uint64_t off, uint64_t len);

/* "top buffer" or "buffer 'name'" for messages. */
TM_HIDDEN const char *tm_dat_buf_label(const struct dat_buffer *b, char *buf, size_t size);
/* Replace *dst by a copy of the option's string payload (NUL added if missing). */
TM_HIDDEN int tm_dat_set_str(struct tm_dat *dat, char **dst, const uint8_t *p, uint32_t len);

/* dat-meta.c: the §2 payloads, read through rd (file in v6, section body in v7). */
struct tm_dat_meta_reader {
	const char	*what;			/* names it in messages */
	int		(*read)(struct dat_rd *rd);	/* -1 + message */
};

#define TM_DAT_META_PAYLOADS	6

/* In file order: entry i is v7 section TM_OPT_HEADER_INFO + i. */
TM_HIDDEN extern const struct tm_dat_meta_reader tm_dat_meta_readers[TM_DAT_META_PAYLOADS];

/* dat-options.c: options common to v6 and v7 (not BUFFER and section pointers). */
TM_HIDDEN int tm_dat_option_common(struct tm_dat *dat, uint16_t id, const uint8_t *p,
				   uint32_t len, uint64_t where);
/* The bracketed clock name in text ("[local] global" -> "local"), or NULL. */
TM_HIDDEN char *tm_dat_parse_clock(const char *text, size_t len);
/* A new buffer slot (index returned), name copied; -1 on ENOMEM / duplicate. */
TM_HIDDEN int tm_dat_buffer_add(struct tm_dat *dat, const char *name, uint64_t where);
/* After filling b->cpus[0..ncpu): sort, reject duplicate CPU ids, set slots. */
TM_HIDDEN int tm_dat_buffer_finish(struct tm_dat *dat, struct dat_buffer *b, uint64_t where);
/*
 * Check a CPU blob against the file: raw pages (whole pages inside the file)
 * or a chunk stream (count, headers and payloads add up to the size, which
 * the walk normalises to the chunks' bytes) ending below limit.
 */
TM_HIDDEN int tm_dat_check_blob(struct tm_dat *dat, struct dat_buffer *b, struct dat_cpu *c,
				uint64_t limit);
/*
 * Walk a chunk stream at off (its u32 count) that the file says takes *size
 * bytes, ending below limit: trace-cmd 3.1.x counted the chunks only, 3.2
 * and later the count too (spec §4.6); either is accepted and *size becomes
 * the chunks' bytes (count excluded).
 */
TM_HIDDEN int tm_dat_check_chunks(struct tm_dat *dat, uint64_t off, uint64_t *size,
				  uint64_t limit, uint32_t unit, const char *what,
				  uint32_t *count, uint64_t *raw);

/* dat-access.c: one CPU's entry (entries sorted by CPU id), or NULL. */
TM_HIDDEN const struct dat_cpu *tm_dat_find_cpu(const struct tm_dat *dat, int buf, int cpu);

/*
 * Reader functions nothing outside the reader calls yet, kept out of
 * tm-dat.h; the unit tests and the fuzz target check files through them.
 */

/*
 * tm_dat_open() on an open descriptor (a regular file or memfd); name is used
 * in messages. The caller keeps fd and closes it after tm_dat_close(). NULL + message.
 */
TM_HIDDEN struct tm_dat *tm_dat_open_fd(int fd, const char *name);
TM_HIDDEN int tm_dat_version(const struct tm_dat *dat);
/* "none" or "zstd". */
TM_HIDDEN const char *tm_dat_compression(const struct tm_dat *dat);
/* Library version string of the v7 header ("" for none and for v6). */
TM_HIDDEN const char *tm_dat_compression_version(const struct tm_dat *dat);
TM_HIDDEN struct tm_blob tm_dat_header_event(const struct tm_dat *dat);
/* UNAME and VERSION options, NULL when absent. */
TM_HIDDEN const char *tm_dat_uname(const struct tm_dat *dat);
TM_HIDDEN const char *tm_dat_tracer_version(const struct tm_dat *dat);
/* The LAST_BOOT_INFO option's text ("<instance>:" + last_boot_info), NULL if none. */
TM_HIDDEN const char *tm_dat_last_boot_info(const struct tm_dat *dat);
/* The MODULES section's /proc/modules text (version 7), NULL if none. */
TM_HIDDEN const char *tm_dat_modules(const struct tm_dat *dat);
/* TRACEID option: true and *id set when present. */
TM_HIDDEN bool tm_dat_trace_id(const struct tm_dat *dat, uint64_t *id);
/* tm_dat_adjust_ts() without the DATE options (trace-cmd report --nodate). */
TM_HIDDEN uint64_t tm_dat_adjust_ts_nodate(const struct tm_dat *dat, uint64_t ts);
/* A TSC2NSEC option is present: times are ns whatever the clock (trace-cmd's IN_USECS). */
TM_HIDDEN bool tm_dat_tsc2nsec(const struct tm_dat *dat);
/* The buffer holds latency text (v6 "latency", v7 BUFFER_TEXT) instead of pages. */
TM_HIDDEN bool tm_dat_buffer_is_text(const struct tm_dat *dat, int buf);
struct tm_cursor;

/* File offset of the current page's data (or of its chunk when compressed). */
TM_HIDDEN uint64_t tm_cursor_offset(const struct tm_cursor *cur);
/* A cursor over a text buffer's bytes; NULL with errno 0 when it is empty. */
TM_HIDDEN struct tm_cursor *tm_cursor_open_text(struct tm_dat *dat, int buf);
/*
 * Next piece of the text (a chunk, or up to 64 KiB), valid until the next
 * call; NULL at the end (errno 0) or on error (errno set).
 */
TM_HIDDEN const void *tm_cursor_next_block(struct tm_cursor *cur, size_t *len);

/* ---- lib-only part of tm-dat.h ---- */

/* Free the cursor (NULL is fine). */
TM_HIDDEN void tm_cursor_close(struct tm_cursor *cur);
/*
 * Next page (page_size bytes, valid until the next call), NULL at the end
 * (errno 0), or NULL on a bad chunk or page (errno and message set).
 */
TM_HIDDEN const void *tm_cursor_next_page(struct tm_cursor *cur);
/* A cursor over CPU cpu of buffer buf; NULL with errno 0 when it has no data, else + message. */
TM_HIDDEN struct tm_cursor *tm_cursor_open(struct tm_dat *dat, int buf, int cpu);
/*
 * The current page for messages: "FILE: top buffer CPU 0 data: page at
 * offset N", or "...: page K of the chunk at offset N" when compressed;
 * snprintf()'s return value.
 */
TM_HIDDEN int tm_cursor_where(const struct tm_cursor *cur, char *buf, size_t len);
/*
 * A record's time as `trace-cmd report` shows it: TSC2NSEC's (ts * mult) >>
 * shift, then + DATE (us -> ns) + OFFSET. Cursors hand out raw pages: apply
 * this to each record's time.
 */
TM_HIDDEN uint64_t tm_dat_adjust_ts(const struct tm_dat *dat, uint64_t ts);
/* True when the file's numbers (and its pages) are big-endian. */
TM_HIDDEN bool tm_dat_big_endian(const struct tm_dat *dat);
/* Trace clock of buffer buf (else the file's), NULL when unknown. */
TM_HIDDEN const char *tm_dat_buffer_clock(const struct tm_dat *dat, int buf);
/* Number of buffers, at least 1. */
TM_HIDDEN int tm_dat_buffer_count(const struct tm_dat *dat);
/* Name of buffer buf ("" for the top level), NULL for an unknown buf. */
TM_HIDDEN const char *tm_dat_buffer_name(const struct tm_dat *dat, int buf);
/* Page size of buffer buf in bytes, 0 for an unknown buf. */
TM_HIDDEN uint32_t tm_dat_buffer_page_size(const struct tm_dat *dat, int buf);
/* The trace clock ("local"): TRACECLOCK option or the top buffer's; NULL if none. */
TM_HIDDEN const char *tm_dat_clock(const struct tm_dat *dat);
/* The stored saved_cmdlines text. */
TM_HIDDEN struct tm_blob tm_dat_cmdlines(const struct tm_dat *dat);
/* Width of a page's commit word: size of "commit" in header_page, else the long size. */
TM_HIDDEN unsigned int tm_dat_commit_size(const struct tm_dat *dat);
/* Format text i of system sys (empty past the counts). */
TM_HIDDEN struct tm_blob tm_dat_event_format(const struct tm_dat *dat, size_t sys, size_t i);
/* Number of event formats of system sys (0 past the count). */
TM_HIDDEN size_t tm_dat_event_format_count(const struct tm_dat *dat, size_t sys);
/* Format text i of the ftrace events (empty past the count). */
TM_HIDDEN struct tm_blob tm_dat_ftrace_format(const struct tm_dat *dat, size_t i);
/* Number of ftrace event formats. */
TM_HIDDEN size_t tm_dat_ftrace_format_count(const struct tm_dat *dat);
/* The id of a format text (its "ID: n" line), -1 without one. */
TM_HIDDEN long tm_dat_format_id(struct tm_blob f);
/* The header_page format text. */
TM_HIDDEN struct tm_blob tm_dat_header_page(const struct tm_dat *dat);
/* The stored /proc/kallsyms text. */
TM_HIDDEN struct tm_blob tm_dat_kallsyms(const struct tm_dat *dat);
/* Size of a long on the recording machine: 4 or 8. */
TM_HIDDEN int tm_dat_long_size(const struct tm_dat *dat);
/* Page (sub-buffer) size of the prologue, in bytes. */
TM_HIDDEN uint32_t tm_dat_page_size(const struct tm_dat *dat);
/* The name messages use: the path given, or "standard input". */
TM_HIDDEN const char *tm_dat_path(const struct tm_dat *dat);
/* The stored printk_formats text. */
TM_HIDDEN struct tm_blob tm_dat_printk(const struct tm_dat *dat);
/* Number of event systems with formats. */
TM_HIDDEN size_t tm_dat_system_count(const struct tm_dat *dat);
/* Name of event system sys, NULL past the count. */
TM_HIDDEN const char *tm_dat_system_name(const struct tm_dat *dat, size_t sys);
/*
 * The stored /proc/kallsyms text handed over (*b describes it): malloc'ed,
 * b->len bytes and a NUL, free() it; NULL when there is none. The file
 * keeps an empty text.
 */
TM_HIDDEN char *tm_dat_take_kallsyms(struct tm_dat *dat, struct tm_blob *b);

/* ---- lib-only part of tm-write.h ---- */

/*
 * Write a complete trace.dat to out_fd strictly sequentially (works on a pipe):
 * metadata from meta, then the top buffer's CPU data from n sources (CPU ids
 * below ncpus, each once, any order; empty ones are left out of the file),
 * each holding the file's compression (zstd chunks for v7-zstd, raw pages
 * otherwise) and page size. Uses copy_file_range from a source's file where
 * the output allows, read/write otherwise. File offsets count from the first
 * byte written: a regular file must be positioned at 0. Layout (spec §9.2
 * layout 1): v7 header, sections 16-21, options (DONE -> second options),
 * BUFFER section, options with the BUFFER option, strings. v6: spec §3 with
 * an options block. -1 + message (bad options or sources: EINVAL; a failed
 * read or write: its errno; a source handing out more or fewer bytes than
 * its size: EIO).
 */
TM_HIDDEN int tm_dat_write_data(int out_fd, const struct tm_meta *meta, const struct tm_cpu_data *cpus,
				int n, int ncpus, const struct tm_write_opts *opts);

#endif /* TM_DAT_INTERNAL_H */
