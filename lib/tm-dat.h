/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-dat.h - reading trace.dat files (v6 and v7, none/zstd): metadata,
 * options, buffers, and per-CPU page cursors that decompress one chunk at a
 * time (dat-read.c, dat-access.c, dat-v6.c, dat-v7.c, cursor.c).
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
};

/*
 * Open and validate a trace.dat file. On error returns NULL with a message
 * "<path>: <what was wrong> at offset <n>". Needs a seekable file.
 */
struct tm_dat *tm_dat_open(const char *path);
/*
 * The same on an open descriptor (a regular file or memfd); name is used in
 * messages. The caller keeps fd and closes it after tm_dat_close().
 * tm_dat_open("-") reads standard input (which must then be a regular file).
 */
struct tm_dat *tm_dat_open_fd(int fd, const char *name);
void tm_dat_close(struct tm_dat *dat);

const char *tm_dat_path(const struct tm_dat *dat);
int tm_dat_version(const struct tm_dat *dat);
bool tm_dat_big_endian(const struct tm_dat *dat);
int tm_dat_long_size(const struct tm_dat *dat);
uint32_t tm_dat_page_size(const struct tm_dat *dat);
const char *tm_dat_compression(const struct tm_dat *dat);	/* "none", "zstd" */
/* Library version string of the v7 header ("" for none and for v6). */
const char *tm_dat_compression_version(const struct tm_dat *dat);
/* Width of a page's commit word (size of "commit" in header_page, else the long size). */
unsigned int tm_dat_commit_size(const struct tm_dat *dat);
/* CPU count of the file (CPUCOUNT option, else the v6 header count). */
int tm_dat_cpus(const struct tm_dat *dat);

/* Metadata (§2). Empty blobs (len 0) when the file lacks them. */
struct tm_blob tm_dat_header_page(const struct tm_dat *dat);
struct tm_blob tm_dat_header_event(const struct tm_dat *dat);
size_t tm_dat_ftrace_format_count(const struct tm_dat *dat);
struct tm_blob tm_dat_ftrace_format(const struct tm_dat *dat, size_t i);
size_t tm_dat_system_count(const struct tm_dat *dat);
const char *tm_dat_system_name(const struct tm_dat *dat, size_t sys);
size_t tm_dat_event_format_count(const struct tm_dat *dat, size_t sys);
struct tm_blob tm_dat_event_format(const struct tm_dat *dat, size_t sys, size_t i);
struct tm_blob tm_dat_kallsyms(const struct tm_dat *dat);
struct tm_blob tm_dat_printk(const struct tm_dat *dat);
struct tm_blob tm_dat_cmdlines(const struct tm_dat *dat);

/* Options (§5). NULL / empty when absent. */
const char *tm_dat_clock(const struct tm_dat *dat);		/* "local" */
struct tm_blob tm_dat_cpustat(const struct tm_dat *dat);	/* concatenated, as report --stat */
const char *tm_dat_uname(const struct tm_dat *dat);
const char *tm_dat_tracer_version(const struct tm_dat *dat);
/* TRACEID option: true and *id set when present. */
bool tm_dat_trace_id(const struct tm_dat *dat, uint64_t *id);
/*
 * A record's time as `trace-cmd report` shows it: TSC2NSEC's (ts * mult) >>
 * shift, then + DATE (us -> ns) + OFFSET. Cursors hand out raw pages; callers
 * apply this to each tm_rec.ts (skip it for --raw-ts).
 */
uint64_t tm_dat_adjust_ts(const struct tm_dat *dat, uint64_t ts);
/* The same without the DATE options (report --nodate). */
uint64_t tm_dat_adjust_ts_nodate(const struct tm_dat *dat, uint64_t ts);
/* A TSC2NSEC option is present: times are ns whatever the clock (trace-cmd's IN_USECS). */
bool tm_dat_tsc2nsec(const struct tm_dat *dat);

/* Buffers: index 0 is the top-level buffer (name ""), then instances. */
int tm_dat_buffer_count(const struct tm_dat *dat);
const char *tm_dat_buffer_name(const struct tm_dat *dat, int buf);
const char *tm_dat_buffer_clock(const struct tm_dat *dat, int buf);
uint32_t tm_dat_buffer_page_size(const struct tm_dat *dat, int buf);
/* Number of CPU slots of a buffer (max CPU id + 1); slots may be empty. */
int tm_dat_buffer_cpus(const struct tm_dat *dat, int buf);
/* Raw (uncompressed) data bytes stored for one CPU of a buffer, 0 if none. */
uint64_t tm_dat_buffer_cpu_size(const struct tm_dat *dat, int buf, int cpu);
/*
 * The buffer holds latency text (v6 "latency" tag, v7 BUFFER_TEXT) instead of
 * per-CPU pages: read it with tm_cursor_open_text().
 */
bool tm_dat_buffer_is_text(const struct tm_dat *dat, int buf);

/*
 * A cursor over one CPU's pages. Pages come out one at a time; compressed
 * data is decompressed one chunk at a time (memory: one chunk).
 * tm_cursor_open returns NULL with errno 0 for a CPU without data.
 */
struct tm_cursor *tm_cursor_open(struct tm_dat *dat, int buf, int cpu);
/* Next page (page_size bytes, valid until the next call), or NULL at the end
 * (errno 0) or on error (errno set, message in tm_last_error()). */
const void *tm_cursor_next_page(struct tm_cursor *cur);
/* File offset of the current page's data (or of its chunk when compressed). */
uint64_t tm_cursor_offset(const struct tm_cursor *cur);
void tm_cursor_close(struct tm_cursor *cur);

/*
 * Where `trace-cmd report --stat` says CPU cpu's data of the top buffer is:
 * the file offset of its first page, or for compressed data its place in
 * trace-cmd's uncompressed copy (CPUs in order, page-aligned, after one
 * page). 0 when the CPU has no (readable) uncompressed data; never fails.
 */
uint64_t tm_dat_stat_offset(struct tm_dat *dat, int cpu);

/* A cursor over a text buffer's bytes; NULL with errno 0 when it is empty. */
struct tm_cursor *tm_cursor_open_text(struct tm_dat *dat, int buf);
/* Next piece of the text (a chunk, or up to 64 KiB), valid until the next call;
 * NULL at the end (errno 0) or on error (errno set). */
const void *tm_cursor_next_block(struct tm_cursor *cur, size_t *len);

#endif /* TM_DAT_H */
