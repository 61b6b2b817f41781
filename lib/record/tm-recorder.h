/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-recorder.h - the recorder: one thread per CPU that drains its ring
 * and hands whole pages to a sink (recorder.c).
 */
#ifndef TM_RECORDER_H
#define TM_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tm-spool.h"

/*
 * Where pages go. page() gets each whole page of a CPU in order; flush() (may
 * be NULL) runs after each drain round and once after the final drain. Calls
 * for one CPU come from one thread; different CPUs come concurrently.
 */
struct tm_page_sink {
	int	(*page)(void *ctx, int cpu, const void *page, size_t size);
	int	(*flush)(void *ctx, int cpu);
	/* may be NULL: the CPU's ring fill level, before each page() */
	void	(*fill)(void *ctx, int cpu, const struct tm_ring_fill *fill);
	/*
	 * May be NULL: at tm_recorder_cut(), on the CPU's thread, once every
	 * record committed so far (the partial page included) went to page():
	 * what came before belongs to the old side of the cut.
	 */
	int	(*cut)(void *ctx, int cpu);
	/*
	 * May be NULL: where the CPU's next page may be read (page_size bytes),
	 * or NULL for none now. The read() path reads into it, and page() then
	 * gets that pointer and takes the page without copying it; a page that
	 * never reaches page() (corrupt, or none to read) leaves it unused.
	 */
	void	*(*slot)(void *ctx, int cpu);
	void	*ctx;
};

struct tm_recorder_opts {
	const bool	*cpus;		/* cpus[0..ncpus): record this CPU */
	int		ncpus;
	bool		use_mmap;
	int		timeout_ms;	/* poll() timeout so quiet CPUs flush, default 250 */
	bool		emit_partial;	/* stream: hand out partial pages each round */
	/*
	 * record: a page read in part is handed out (what follows goes out as a
	 * page of its own later) once this many ms passed since the CPU's last
	 * such round, so no record stays in our memory only for longer; 0: never.
	 */
	unsigned int	partial_ms;
	/*
	 * Run each CPU's thread on that CPU (where tracemap may run at all).
	 * The kernel walks every record of a sub-buffer at GET_READER; on the
	 * CPU that wrote them the walk and the copies hit its own cache.
	 */
	bool		pin;
	/*
	 * A mapped CPU that drains TM_REC_BUSY_SUBBUFS sub-buffers in 250 ms
	 * goes over to read() until it is quiet again (recorder.c): on Linux 6.10-6.18 GET_READER
	 * walks every record of the sub-buffer it hands out (interrupts off),
	 * where read() swaps a full one in O(1) (docs/PERFORMANCE.md).
	 */
	bool		read_when_busy;
	/*
	 * The threads' nice value where the process may set it (root,
	 * CAP_SYS_NICE), so that a CPU crowded with busy tasks still lets its
	 * reader drain in time; TM_READER_NICE_KEEP: the process's own.
	 */
	int		reader_nice;
};

#define TM_READER_NICE_KEEP	100
#define TM_READER_NICE_DEFAULT	(-10)

struct tm_cpu_record_stats {
	bool		traced;
	bool		mapped;
	bool		pinned;		/* the thread runs on this CPU only */
	int		nice;		/* the thread's nice value */
	uint64_t	pages;
	uint64_t	raw_bytes;
	uint64_t	data_bytes;	/* record bytes of those pages */
	uint64_t	read_spells;	/* times a busy mapped CPU went over to read() */
	uint64_t	remaps;		/* times it was mapped again once quiet */
	bool		remap_refused;	/* mapping it again failed: read() from then on */
	uint64_t	lost_pages;	/* pages flagged MISSED_EVENTS */
	uint64_t	lost_stored;	/* sum of the counts stored on them */
	uint64_t	lost_unknown;	/* flagged pages without a stored count */
	/* sub-buffers the kernel overwrote unread (meta page pages_lost, Linux 7.x) */
	uint64_t	subbufs_lost;
	bool		subbufs_lost_known;	/* the kernel fills pages_lost */
	/* pages dropped: commit word or a record length impossible (kernel bug, racing writer) */
	uint64_t	corrupt_pages;
	int		error;		/* errno of a thread failure, 0 if none */
};

struct tm_recorder;

/* Open every selected CPU's ring (no threads yet); NULL + message naming the CPU. */
struct tm_recorder *tm_recorder_create(const char *instance_dir, size_t page_size,
				       const struct tm_recorder_opts *opts,
				       const struct tm_page_sink *sink);
/*
 * Start the threads (with every signal blocked in them). tids gets the
 * thread ids (n filled in *ntids) for set_event_notrace_pid. -1 + message.
 */
int tm_recorder_start(struct tm_recorder *rec, pid_t *tids, size_t *ntids);
/* Wake the threads for a final drain and join them (tracing off first); -1: a thread's message. */
int tm_recorder_stop(struct tm_recorder *rec);
/* True once a thread failed (its errno is in the stats; tm_recorder_stop() returns its message). */
bool tm_recorder_failed(const struct tm_recorder *rec);
/* What the thread of cpu saw so far (zeroes for an unknown cpu). */
void tm_recorder_get_stats(const struct tm_recorder *rec, int cpu,
			   struct tm_cpu_record_stats *st);
/*
 * While the threads run (the live status): raw bytes cpu has drained so far,
 * read without stopping its thread (0 for an unknown cpu). Its events are
 * the kernel's "read events" (tm_session_cpu_stats()).
 */
uint64_t tm_recorder_raw_bytes(const struct tm_recorder *rec, int cpu);
/* Why cpu runs the read() path (tm_ring_fallback_reason()), NULL when mapped or unknown. */
const char *tm_recorder_fallback_reason(const struct tm_recorder *rec, int cpu);
/* Close every ring (unmap) and free (NULL is fine). */
void tm_recorder_destroy(struct tm_recorder *rec);

#endif /* TM_RECORDER_H */
