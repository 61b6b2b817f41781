/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * longrec-internal.h - the two sides of a long recording's numbered files
 * (tm_longrec, numbered.c): the in-memory flight window (flight.c) and the
 * rotating spools (rotate.c). Private to the library.
 */
#ifndef TM_LONGREC_INTERNAL_H
#define TM_LONGREC_INTERNAL_H

#include "util/internal.h"
#include "tm-longrec.h"
#include "trace/trace-internal.h"
#include "dat/tm-write.h"

/*
 * The name of numbered file n (four digits or more) of OUTPUT: the number
 * before OUTPUT's ".dat" (trace.dat: trace.0001.dat), or OUTPUT.NNNN.dat for
 * any other name; -1 + message. KernelShark (2.2.1) takes a file for a
 * trace.dat only when its name ends in ".dat": OUTPUT.0001 would be refused
 * ("contains no data"), so the number goes before the extension, not after
 * it as trace-cmd split's does.
 */
static inline int tm_longrec_name(char *buf, size_t len, const char *path, unsigned int n)
{
	size_t stem = strlen(path);

	if (stem > 4 && !strcmp(path + stem - 4, ".dat") && path[stem - 5] != '/')
		stem -= 4;
	return tm_path(buf, len, "%.*s.%04u.dat", (int)stem, path, n);
}

/* ---- the flight window (flight.c) ---- */

/*
 * Memory a dump may hold beyond the window: chunks dropped from the window
 * while a dump still writes them. Recorder threads wait (the kernel buffer
 * absorbs the wait) rather than let it grow past this.
 */
#define TM_FLIGHT_HEADROOM	(32u << 20)

struct tm_flight_opts {
	size_t			size;		/* bytes of chunks kept, all CPUs together */
	enum tm_compression	compression;	/* of the chunks: the file's */
	int			level;
	bool			adaptive;	/* cheaper levels while the ring fills up */
	size_t			page_size;
	size_t			chunk_pages;	/* pages per chunk */
	int			ncpus;
	const bool		*cpus;		/* CPUs that record */
};

struct tm_flight;

/* An empty window; NULL + message. */
TM_HIDDEN struct tm_flight *tm_flight_new(const struct tm_flight_opts *opts);
/*
 * The sink that compresses each CPU's pages into chunks and keeps the
 * newest opts->size bytes of them: when the window is full the oldest
 * chunk of all CPUs goes. Its cut() closes each CPU's partial chunk.
 */
TM_HIDDEN struct tm_page_sink tm_flight_sink(struct tm_flight *f);
/*
 * Write the window as a trace.dat to fd (after tm_recorder_cut() or the
 * final drain): each CPU's chunks from the latest of the CPUs' first times
 * on (the first chunks trimmed to it), so every CPU covers the same window.
 * Recording goes on meanwhile; the window stays as it is. meta's CPU stats
 * gain a line "dropped from the flight window: N" (records the full window
 * let go, not kernel losses; the trim to the common start is none). -1 +
 * message.
 */
TM_HIDDEN int tm_flight_dump(struct tm_flight *f, int fd, struct tm_meta *meta,
			     const struct tm_write_opts *wo, struct tm_flight_dump_info *info);
/* After the final drain (no recorder thread left): close every CPU's partial chunk. -1 + message. */
TM_HIDDEN int tm_flight_flush(struct tm_flight *f);
/* Free the window (NULL is fine). */
TM_HIDDEN void tm_flight_free(struct tm_flight *f);

/* ---- rotating spools (rotate.c), the rotation side of tm_longrec ---- */

struct tm_rotor;

/* Spools of file number 1 for each recording CPU; NULL + message. */
TM_HIDDEN struct tm_rotor *tm_rotor_new(const char *path, const struct tm_spool_opts *so,
					int ncpus, const bool *cpus);
/* Its sink: page() appends to the CPU's spool, cut() starts the next number's. */
TM_HIDDEN struct tm_page_sink tm_rotor_sink(struct tm_rotor *r);
/*
 * Per CPU, the time of the last record in the numbers cut so far (0: none),
 * read after tm_recorder_cut(): what the kernel may still hold in the
 * reader sub-buffer and the files already have (ncpus entries).
 */
TM_HIDDEN const uint64_t *tm_rotor_cut_times(const struct tm_rotor *r);
/* Spool bytes of the current number so far (any thread). */
TM_HIDDEN uint64_t tm_rotor_bytes(struct tm_rotor *r);
/*
 * The finished spools of the number before the last cut (or, with final,
 * the current ones, finished now): spools[cpu], NULL for CPUs without one.
 * The caller writes them, then calls tm_rotor_release(). -1 + message.
 */
TM_HIDDEN int tm_rotor_take(struct tm_rotor *r, bool final, struct tm_spool ***spools);
/*
 * Close the finished spools, removing them when their file was written
 * (written); otherwise they stay for `tracemap recover`, and so do the
 * current ones when the rotor is freed.
 */
TM_HIDDEN void tm_rotor_release(struct tm_rotor *r, bool written);
/* Remove every spool, unless a file failed (tm_rotor_release()), and free (NULL is fine). */
TM_HIDDEN void tm_rotor_free(struct tm_rotor *r);

#endif /* TM_LONGREC_INTERNAL_H */
