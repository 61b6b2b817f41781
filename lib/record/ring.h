/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ring.h - one CPU's ring buffer, mapped (Linux >= 6.10) or read() (ring.c,
 * ring-read.c); the recorder, extract and the tests use it, cmd/ never does.
 */
#ifndef TM_RING_PRIV_H
#define TM_RING_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "util/internal.h"
#include "record/tm-spool.h"

/*
 * The commit word of the pages this kernel's ring buffer hands out: a long,
 * 8 bytes on a 64-bit kernel (the recorder runs on the traced machine).
 */
#define TM_COMMIT_SIZE	sizeof(unsigned long)

struct tm_ring;

/* ring-stats.c: a CPU's counters on the read() path (per_cpu/cpuN/stats). */
struct tm_ring_stats {
	int		fd;		/* -1: not available */
	uint64_t	at_ns;		/* when last read; 0: never */
	uint64_t	written;	/* events ever written, */
	uint64_t	overrun;	/* overwritten before they were read, */
	uint64_t	read;		/* and read, as of then */
};

/* Open per_cpu/cpu<cpu>/stats of instance directory dir; without it, s->fd is -1. */
TM_HIDDEN void tm_ring_stats_open(struct tm_ring_stats *s, const char *dir, int cpu);
TM_HIDDEN void tm_ring_stats_close(struct tm_ring_stats *s);
/*
 * The sub-buffers of the CPU's ring, the reader's included, as the meta
 * page would count them, from its buffer_size_kb (which counts data_size
 * bytes of each, their headers not); 0 when unknown.
 */
TM_HIDDEN unsigned int tm_ring_stats_subbufs(const char *dir, int cpu, size_t data_size);
/* The counters, read again when a millisecond has passed; false: none known. */
TM_HIDDEN bool tm_ring_stats_get(struct tm_ring_stats *s, uint64_t *written,
				 uint64_t *overrun, uint64_t *read);
/* The bytes of events not yet read, as of now (not cached); false: not known. */
TM_HIDDEN bool tm_ring_stats_unread(struct tm_ring_stats *s, uint64_t *bytes);

/* Called with each finished page (page_size bytes, zeroed past the data). */
typedef int (*tm_ring_emit_fn)(void *ctx, const void *page, size_t size);
/* Where the read() path may read its next page (page_size bytes), or NULL. */
typedef void *(*tm_ring_slot_fn)(void *ctx);

/* Unmap and close (NULL is fine). */
TM_HIDDEN void tm_ring_close(struct tm_ring *r);
/*
 * Reader sub-buffers dropped by the mapped path: commit word past the
 * sub-buffer, or records that cannot be walked (kernel bug, racing writer).
 */
TM_HIDDEN uint64_t tm_ring_corrupt_pages(const struct tm_ring *r);
/*
 * Sub-buffers the kernel overwrote unread since the ring was first mapped (the
 * meta page's pages_lost, Linux 7.x); false where the kernel does not fill it.
 */
TM_HIDDEN bool tm_ring_subbufs_lost(const struct tm_ring *r, uint64_t *n);
/*
 * Hand every finished page to emit, until the buffer is empty. With final
 * (at stop, after tracing is off) the partial page being filled is emitted
 * too. Returns the number of pages emitted, or -1 + message (a failed
 * ioctl or read, a corrupt page, or what emit returned).
 */
TM_HIDDEN int tm_ring_drain(struct tm_ring *r, bool final, tm_ring_emit_fn emit, void *ctx);
/* Why the read() path runs ("--no-mmap", "mmap: <errno text>"), NULL when mapped. */
TM_HIDDEN const char *tm_ring_fallback_reason(const struct tm_ring *r);
/* The trace_pipe_raw descriptor, for poll(). */
TM_HIDDEN int tm_ring_fd(const struct tm_ring *r);
/*
 * How full the ring buffer is and how much was written (estimates; 0 on the
 * read() path of a ring never mapped).
 */
TM_HIDDEN void tm_ring_fill(struct tm_ring *r, struct tm_ring_fill *fill);
/* True when the buffer is mapped (else the read() path runs). */
TM_HIDDEN bool tm_ring_mapped(const struct tm_ring *r);
/*
 * A mapped ring goes over to the read() path: what the kernel counts as
 * read so far is handed to emit (the reader sub-buffer up to that point, as
 * a page of its own), the buffer is unmapped, and read() goes on from the
 * next record. -1 + message (a failed ioctl, or what emit returned).
 */
TM_HIDDEN int tm_ring_unmap(struct tm_ring *r, tm_ring_emit_fn emit, void *ctx);
/*
 * A ring tm_ring_unmap() left on the read() path is mapped again; it stays
 * on read() when the kernel refuses (returns false, never fails).
 */
TM_HIDDEN bool tm_ring_remap(struct tm_ring *r);
/*
 * Open per_cpu/cpu<cpu>/trace_pipe_raw of instance directory dir. With
 * use_mmap the buffer is mapped when the kernel allows it and the read()
 * path is used otherwise (ENODEV, EINVAL, EBUSY, no mmap support).
 * page_size is the sub-buffer size the read() path reads at a time. NULL +
 * message when the file cannot be opened or memory runs out.
 */
TM_HIDDEN struct tm_ring *tm_ring_open(const char *dir, int cpu, size_t page_size, bool use_mmap);
/*
 * The read() path reads each page where slot(ctx) says and hands emit that
 * pointer (the consumer's own buffer: no copy); into the ring's own buffer
 * when slot returns NULL, or without a slot.
 */
TM_HIDDEN void tm_ring_lend(struct tm_ring *r, tm_ring_slot_fn slot, void *ctx);
struct tracefs_cpu;
/*
 * read() path: one page into buf through libtracefs's tracefs_cpu_read()
 * (non-blocking, size the sub-buffer); 0 when empty (EAGAIN), -1 + message.
 */
TM_HIDDEN ssize_t tm_ring_read_cpu(struct tracefs_cpu *tcpu, void *buf, size_t size);
/*
 * Live mode (stream), mapped path: every drain also hands out the records
 * committed on the reader sub-buffer so far, as a page of their own (spec
 * §7.7), and later drains only what follows them. The read() path gets
 * partial pages from the kernel anyway. -1 with ENOMEM.
 */
TM_HIDDEN int tm_ring_set_partial(struct tm_ring *r, bool on);
/*
 * Mapped path, before the first drain: hand out the reader sub-buffer from
 * its start, also the bytes an earlier reader consumed (recover: records a
 * killed recorder read but never wrote; the caller drops those it has).
 */
TM_HIDDEN void tm_ring_reread_reader(struct tm_ring *r);

#endif /* TM_RING_PRIV_H */
