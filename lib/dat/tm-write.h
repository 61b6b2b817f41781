/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-write.h - what cmd/ needs of the trace.dat writer: the versions and
 * compressions a file can be written with (dat-version.c); the writer
 * itself (dat-write.c) and the metadata collection (tracefs/meta.c) are
 * reached through the recording file (tm-recfile.h).
 */
#ifndef TM_WRITE_H
#define TM_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tm-codec.h"
#include "util/tm-progress.h"

struct tm_meta;

/* ---- trace.dat versions (dat-version.c) ---- */

/* True when this library writes (and reads) files of version: 6 and 7. Cannot fail. */
bool tm_dat_version_supported(int version);
/* True when files of version can hold compressed data (7; 6 is always uncompressed). */
bool tm_dat_version_compressed(int version);
/* The oldest and the newest version this library writes. Cannot fail. */
void tm_dat_version_range(int *oldest, int *newest);

struct tm_write_opts {
	int			version;	/* tm_dat_version_supported() */
	enum tm_compression	compression;	/* if tm_dat_version_compressed(); else none */
	int			level;		/* metadata compression level */
	const char		*clock;		/* trace clock name; NULL: the meta's */
	const char		*date;		/* DATE option text ("0x<hex> µs"), NULL: none */
	uint32_t		page_size;	/* sub-buffer size; 0: from header_page */
	/*
	 * A persistent (boot-mapped) instance's last_boot_info text, stored as
	 * the LAST_BOOT_INFO option (id 24, "<instance>:<text>") the way
	 * trace-cmd 3.4 does; NULL: no option.
	 */
	const char		*last_boot_instance;
	const char		*last_boot_info;
	/*
	 * /proc/modules text (modules_len bytes) stored as the MODULES section
	 * (id 25, "modules") beside LAST_BOOT_INFO, as trace-cmd 3.4 does: only
	 * version 7 has sections; NULL: none.
	 */
	const char		*modules;
	size_t			modules_len;
	const char		*note;		/* appended to the VERSION option, or NULL */
	/* the TRACEID option: the numbered files of one recording share one; 0: a random id */
	uint64_t		trace_id;
	/* NULL, or shown the bytes of data sources' files copied (done) and of output (written) */
	struct tm_meter		*meter;
};

#endif /* TM_WRITE_H */
