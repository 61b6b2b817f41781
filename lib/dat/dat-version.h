/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dat-version.h - the trace.dat versions this library reads and writes, one
 * table row each (dat-version.c), and the layout functions the rows point
 * to. A new version is its reader and writer files plus one row. Private.
 */
#ifndef TM_DAT_VERSION_H
#define TM_DAT_VERSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"

struct tm_dat;
struct tm_write_ctx;

struct tm_dat_version_ops {
	int	version;
	bool	compression;	/* files of this version may hold compressed data */
	/* Everything after the 18-byte §1 prologue at pos; -1 + message. */
	int	(*read)(struct tm_dat *dat, uint64_t pos);
	/* The whole file, prologue included; -1 + message. */
	int	(*write)(struct tm_write_ctx *w);
};

/* The row of exactly this version, or NULL. */
TM_HIDDEN const struct tm_dat_version_ops *tm_dat_version_find(int version);
/*
 * The row that reads a file of this version: its own, or for versions older
 * than the oldest row that one (trace-cmd reads them the same way); NULL for
 * unknown newer versions.
 */
TM_HIDDEN const struct tm_dat_version_ops *tm_dat_version_reader(int version);
/* The known versions for messages: "6 and 7" with conj " and ", "6 or 7" with " or ". */
TM_HIDDEN void tm_dat_versions_text(char *buf, size_t len, const char *conj);

/* The layouts (dat-read-v6.c, dat-read-v7.c, dat-write-v6.c, dat-write-v7.c). */
TM_HIDDEN int tm_dat_read_v6(struct tm_dat *dat, uint64_t pos);
TM_HIDDEN int tm_dat_read_v7(struct tm_dat *dat, uint64_t pos);
TM_HIDDEN int tm_dat_write_v6(struct tm_write_ctx *w);
TM_HIDDEN int tm_dat_write_v7(struct tm_write_ctx *w);

#endif /* TM_DAT_VERSION_H */
