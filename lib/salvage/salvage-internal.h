/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * salvage-internal.h - what a killed recorder's instance ring still holds
 * (recover-ring.c), for recover.c. Private to the library.
 */
#ifndef TM_SALVAGE_INTERNAL_H
#define TM_SALVAGE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"
#include "dat/tm-codec.h"

/* ---- what a killed recorder's instance still holds (recover-ring.c) ---- */

struct tm_recover_ring {
	const char		*dir;		/* the instance directory, tracing off */
	size_t			page_size;	/* of its sub-buffers and of the spools */
	enum tm_compression	compression;	/* of the spools' chunks */
	int			level;
	uint8_t			*ids;		/* event ids met are set here */
};

/* What the ring of one CPU added to its spool. */
struct tm_ring_taken {
	uint64_t	records;
	uint64_t	pages;
	uint32_t	chunks;
	uint64_t	bytes;
};

/*
 * Drain cpu's ring of rr->dir (the partial sub-buffer too) and append its
 * records later than after (the last record time the spool or the files
 * before it hold) to the spool
 * file at spool_path (created if there is none), as chunks like the
 * recorder's. *taken says what was added. -1 + message.
 */
TM_HIDDEN int tm_recover_ring(const struct tm_recover_ring *rr, int cpu, const char *spool_path,
			      uint64_t after, struct tm_ring_taken *taken);

#endif /* TM_SALVAGE_INTERNAL_H */
