/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-dat.h - reading trace.dat files (v6 and v7, none/zstd): opening one,
 * its options, buffers and per-CPU sizes and statistics (dat-read.c,
 * dat-access.c, dat-options.c). The per-CPU page cursors behind the merge
 * are private (dat-internal.h).
 */
#ifndef TM_DAT_H
#define TM_DAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/tm-trace.h"

struct tm_dat;

/*
 * Every function taking a dat needs one tm_dat_open() returned. Accessors
 * cannot fail; the others return NULL or -1 with errno set and a message
 * in tm_last_error() naming the file and the offset of what was wrong.
 */

/* Open and check a trace.dat file ("-": standard input, a regular file); NULL + message. */
struct tm_dat *tm_dat_open(const char *path);
/* Close the file and free everything of it (NULL is fine). */
void tm_dat_close(struct tm_dat *dat);

/*
 * Several files on one timeline (dat-machines.c): machine[i] is the machine
 * of dats[i], 0 for the first file's, numbered in order of first appearance
 * (same UNAME option and CPU count: one machine). Returns the number of
 * machines, or -1 + message when the files cannot share one timeline:
 * different machines and a file without a DATE option, files of one machine
 * with and without DATE or with different clocks, or an event format of a
 * file that the first file of its machine does not have.
 */
int tm_dat_machines(struct tm_dat *const *dats, int n, int *machine);

/* CPU count of the file: CPUCOUNT option, else the v6 header count, else the CPU slots. */
int tm_dat_cpus(const struct tm_dat *dat);

/* Metadata (§2); a blob is empty (len 0) when the file lacks it. */

/* Options (§5). */

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

/* Buffers: index 0 is the top-level buffer (name ""), then instances. */

/* Number of CPU slots of buffer buf (max CPU id + 1; slots may be empty), 0 if unknown. */
int tm_dat_buffer_cpus(const struct tm_dat *dat, int buf);
/* Raw (uncompressed) data bytes stored for one CPU of buffer buf, 0 if none. */
uint64_t tm_dat_buffer_cpu_size(const struct tm_dat *dat, int buf, int cpu);

/*
 * Where `trace-cmd report --stat` says CPU cpu's data of the top buffer is:
 * the file offset of its first page, or for compressed data its place in
 * trace-cmd's uncompressed copy (CPUs in order, page-aligned, after one
 * page). 0 when the CPU has no readable uncompressed data; cannot fail.
 */
uint64_t tm_dat_stat_offset(struct tm_dat *dat, int cpu);

#endif /* TM_DAT_H */
