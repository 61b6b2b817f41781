/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-dat.h - reading trace.dat files (v6 and v7, none/zstd): metadata,
 * options, buffers, and per-CPU page cursors that decompress one chunk at a
 * time (dat-read.c, dat-access.c, dat-cursor.c).
 */
#ifndef TM_DAT_H
#define TM_DAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tm_dat;
struct tm_cursor;

/* A text blob of the file's metadata (not NUL-terminated unless said). */
struct tm_blob {
	const char	*data;
	size_t		len;
	/*
	 * Where data[0] is, for messages: sec 0 and off its file offset, or
	 * (v7) sec the file offset of its section and off the byte in the
	 * section's (uncompressed) body.
	 */
	uint64_t	sec;
	uint64_t	off;
};

/*
 * Every function taking a dat needs one tm_dat_open() returned. Accessors
 * cannot fail; the others return NULL or -1 with errno set and a message
 * in tm_last_error() naming the file and the offset of what was wrong.
 */

/* Open and check a trace.dat file ("-": standard input, a regular file); NULL + message. */
struct tm_dat *tm_dat_open(const char *path);
/* Close the file and free everything of it (NULL is fine). */
void tm_dat_close(struct tm_dat *dat);

/* The name messages use: the path given, or "standard input". */
const char *tm_dat_path(const struct tm_dat *dat);
/* True when the file's numbers (and its pages) are big-endian. */
bool tm_dat_big_endian(const struct tm_dat *dat);
/* Size of a long on the recording machine: 4 or 8. */
int tm_dat_long_size(const struct tm_dat *dat);
/* Page (sub-buffer) size of the prologue, in bytes. */
uint32_t tm_dat_page_size(const struct tm_dat *dat);
/* Width of a page's commit word: size of "commit" in header_page, else the long size. */
unsigned int tm_dat_commit_size(const struct tm_dat *dat);
/* CPU count of the file: CPUCOUNT option, else the v6 header count, else the CPU slots. */
int tm_dat_cpus(const struct tm_dat *dat);

/* Metadata (§2); a blob is empty (len 0) when the file lacks it. */

/* The header_page format text. */
struct tm_blob tm_dat_header_page(const struct tm_dat *dat);
/* Number of ftrace event formats. */
size_t tm_dat_ftrace_format_count(const struct tm_dat *dat);
/* Format text i of the ftrace events (empty past the count). */
struct tm_blob tm_dat_ftrace_format(const struct tm_dat *dat, size_t i);
/* Number of event systems with formats. */
size_t tm_dat_system_count(const struct tm_dat *dat);
/* Name of event system sys, NULL past the count. */
const char *tm_dat_system_name(const struct tm_dat *dat, size_t sys);
/* Number of event formats of system sys (0 past the count). */
size_t tm_dat_event_format_count(const struct tm_dat *dat, size_t sys);
/* Format text i of system sys (empty past the counts). */
struct tm_blob tm_dat_event_format(const struct tm_dat *dat, size_t sys, size_t i);
/* The stored /proc/kallsyms text. */
struct tm_blob tm_dat_kallsyms(const struct tm_dat *dat);
/*
 * The stored /proc/kallsyms text handed over (*b describes it): malloc'ed,
 * b->len bytes and a NUL, free() it; NULL when there is none. The file
 * keeps an empty text.
 */
char *tm_dat_take_kallsyms(struct tm_dat *dat, struct tm_blob *b);
/* The stored printk_formats text. */
struct tm_blob tm_dat_printk(const struct tm_dat *dat);
/* The stored saved_cmdlines text. */
struct tm_blob tm_dat_cmdlines(const struct tm_dat *dat);

/* Options (§5). */

/* The trace clock ("local"): TRACECLOCK option or the top buffer's; NULL if none. */
const char *tm_dat_clock(const struct tm_dat *dat);
/* True when a DATE option (record --date) makes the times wall-clock (ns since the epoch). */
bool tm_dat_has_date(const struct tm_dat *dat);
/* The CPUSTAT options concatenated, each ending in a newline (report --stat). */
struct tm_blob tm_dat_cpustat(const struct tm_dat *dat);
/*
 * Options trace-cmd 3.1.6 does not know (ids 23-63: 3.4's BTF_FILE,
 * LAST_BOOT_INFO, MODULES_FILE and later ones), bit n for id n; report
 * skips them as 3.1.6 does.
 */
uint64_t tm_dat_newer_options(const struct tm_dat *dat);
/* The name of an option id of trace-cmd >= 3.4 ("BTF_FILE"), NULL if it has none here. */
const char *tm_dat_option_name(unsigned int id);
/*
 * A record's time as `trace-cmd report` shows it: TSC2NSEC's (ts * mult) >>
 * shift, then + DATE (us -> ns) + OFFSET. Cursors hand out raw pages: apply
 * this to each record's time.
 */
uint64_t tm_dat_adjust_ts(const struct tm_dat *dat, uint64_t ts);

/* Buffers: index 0 is the top-level buffer (name ""), then instances. */

/* Number of buffers, at least 1. */
int tm_dat_buffer_count(const struct tm_dat *dat);
/* Name of buffer buf ("" for the top level), NULL for an unknown buf. */
const char *tm_dat_buffer_name(const struct tm_dat *dat, int buf);
/* Trace clock of buffer buf (else the file's), NULL when unknown. */
const char *tm_dat_buffer_clock(const struct tm_dat *dat, int buf);
/* Page size of buffer buf in bytes, 0 for an unknown buf. */
uint32_t tm_dat_buffer_page_size(const struct tm_dat *dat, int buf);
/* Number of CPU slots of buffer buf (max CPU id + 1; slots may be empty), 0 if unknown. */
int tm_dat_buffer_cpus(const struct tm_dat *dat, int buf);
/* Raw (uncompressed) data bytes stored for one CPU of buffer buf, 0 if none. */
uint64_t tm_dat_buffer_cpu_size(const struct tm_dat *dat, int buf, int cpu);

/* Cursors: one CPU's pages one at a time; compressed data one chunk at a time. */

/* A cursor over CPU cpu of buffer buf; NULL with errno 0 when it has no data, else + message. */
struct tm_cursor *tm_cursor_open(struct tm_dat *dat, int buf, int cpu);
/*
 * Next page (page_size bytes, valid until the next call), NULL at the end
 * (errno 0), or NULL on a bad chunk or page (errno and message set).
 */
const void *tm_cursor_next_page(struct tm_cursor *cur);
/*
 * The current page for messages: "FILE: top buffer CPU 0 data: page at
 * offset N", or "...: page K of the chunk at offset N" when compressed;
 * snprintf()'s return value.
 */
int tm_cursor_where(const struct tm_cursor *cur, char *buf, size_t len);
/* Free the cursor (NULL is fine). */
void tm_cursor_close(struct tm_cursor *cur);
/*
 * Where `trace-cmd report --stat` says CPU cpu's data of the top buffer is:
 * the file offset of its first page, or for compressed data its place in
 * trace-cmd's uncompressed copy (CPUs in order, page-aligned, after one
 * page). 0 when the CPU has no readable uncompressed data; cannot fail.
 */
uint64_t tm_dat_stat_offset(struct tm_dat *dat, int cpu);

#endif /* TM_DAT_H */
