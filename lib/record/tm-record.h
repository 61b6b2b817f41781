/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-record.h - recording: the private tracefs instance (session*.c), one CPU's
 * ring-buffer reader, mapped or read() (ringbuf*.c), and the per-CPU recorder
 * threads that hand whole pages to a sink (recorder.c).
 */
#ifndef TM_RECORD_H
#define TM_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "tm-codec.h"
#include "tm-spool.h"

/* ---- session: instances/tracemap-<pid> ---- */

/* One -e with the -f and -R that followed it (filter may be NULL). */
struct tm_event_spec {
	const char	*event;		/* "all", "system", "system:event", "event", globs */
	const char	*filter;
	const char	**triggers;	/* written to each matched event's trigger file */
	size_t		nr_triggers;
};

struct tm_session_opts {
	unsigned long		buffer_kb;	/* per-CPU buffer_size_kb, 0 = kernel default */
	unsigned long		subbuf_kb;	/* buffer_subbuf_size_kb, 0 = default_subbuf_kb */
	unsigned long		default_subbuf_kb;	/* where the kernel can set it, 0 = its own */
	const char		*clock;		/* trace_clock, NULL = kernel default */
	const char * const	*options;	/* tracefs options ("nooverwrite"), NULL-terminated */
	const struct tm_event_spec *events;
	size_t			nr_events;
	const pid_t		*pids;		/* set_event_pid, may be empty */
	size_t			nr_pids;
	bool			follow_children;	/* options/event-fork */
	int			wakeup_percent;	/* buffer_percent, -1 = leave */
	const char		*cpumask;	/* tracing_cpumask text, NULL = all */
	const char * const	*uprobes;	/* "PATH:SYMBOL[+OFF][%return]" specs */
	size_t			nr_uprobes;
	const char		*name;		/* instance name, NULL = tracemap-<pid> */
	bool			reuse;		/* name may exist: record through it, restore it */
	bool			name_events;	/* also sched_process_exec, task_rename,
						 * task_newtask: see tm_session_quiet_events() */
};

/*
 * tracemap's sub-buffer size for its private instance when none is asked for
 * (docs/PERFORMANCE.md: fewer GET_READER ioctls and reads per byte).
 */
#define TM_DEFAULT_SUBBUF_KB	16

/*
 * Functions returning a pointer give NULL, those returning int -1, with
 * errno set and a one-line message in tm_last_error() naming the tracefs
 * file, CPU or spool that failed. Accessors cannot fail.
 */

struct tm_session;

/*
 * Create instances/tracemap-<our pid> (or opts->name) under tracefs and
 * configure it with tracing off. An existing name fails (EEXIST) unless
 * opts->reuse: then tracemap records through that instance, and saves each
 * setting before changing it. Anything refused (unknown event, bad filter or
 * trigger, clock, option) fails with a one-line message and leaves no
 * instance behind (a reused one gets its settings back): NULL. A filter or
 * trigger the kernel refuses carries the kernel's reason from the instance's
 * error_log. Each uprobe spec becomes an event of group tracemap_<pid> in
 * uprobe_events (SYMBOL looked up in PATH with libelf), enabled in the
 * instance like an -e event.
 */
struct tm_session *tm_session_create(const char *tracefs, const struct tm_session_opts *opts);
/*
 * Tracing off and remove the instance now, or give a reused one its
 * settings back (every mapping and fd of ours closed first), retrying the
 * rmdir for up to wait_ms while it is busy. -1 + message; EBUSY: another
 * process holds a file of it open, named in the message.
 */
int tm_session_remove(struct tm_session *s, int wait_ms);
/*
 * tm_session_remove() unless done, then remove the session's uprobes (group
 * tracemap_<pid>, global), and free s; -1 + message if either
 * failed.
 */
int tm_session_destroy(struct tm_session *s);
/* The tracefs directory the session was created under. */
const char *tm_session_tracefs(const struct tm_session *s);
/* The instance name, "tracemap-<pid>" or the one asked for. */
const char *tm_session_name(const struct tm_session *s);
/* The instance directory, <tracefs>/instances/<name>. */
const char *tm_session_dir(const struct tm_session *s);
/* Sub-buffer size in bytes as the kernel uses it. */
size_t tm_session_page_size(const struct tm_session *s);
/*
 * The event systems that have an event enabled in the instance, as a
 * NULL-terminated list (empty without events) owned by the session.
 */
const char *const *tm_session_event_systems(const struct tm_session *s);
/*
 * The events enabled only because of opts->name_events (the caller asked
 * for none of them), as "system:event", NULL-terminated, owned by the session.
 */
const char *const *tm_session_quiet_events(const struct tm_session *s);
/* Append pids to set_event_pid (one write); -1 + message. */
int tm_session_add_pids(struct tm_session *s, const pid_t *pids, size_t n);
/* Append pids to set_event_notrace_pid (one write); -1 + message. */
int tm_session_add_notrace_pids(struct tm_session *s, const pid_t *pids, size_t n);
/* tracing_on 1 in the instance; -1 + message. */
int tm_session_start(struct tm_session *s);
/* tracing_on 0 in the instance; -1 + message. */
int tm_session_stop(struct tm_session *s);

/*
 * record --date (session-date.c): with tracing off and before the buffers
 * are mapped, write numbered trace_marker lines between CLOCK_REALTIME
 * reads on a CPU of cpus[0..ncpus) the process may run on, read them back
 * from that CPU's buffer, clear the instance's buffers, and put the
 * wall-clock minus trace-clock offset in microseconds into out as the DATE
 * option's text ("0x<hex>"). -1 + message.
 */
int tm_session_date_offset(struct tm_session *s, const bool *cpus, int ncpus, char *out,
			   size_t len);

/* per_cpu/cpuN/stats of the instance. */
struct tm_cpu_kstats {
	uint64_t	entries;
	uint64_t	overrun;
	uint64_t	commit_overrun;
	uint64_t	dropped;
	uint64_t	read;
	uint64_t	bytes;		/* unread bytes in the buffer */
};

/* buffer_size_kb of the instance (per CPU) into *kb; -1 + message. */
int tm_session_buffer_kb(const struct tm_session *s, unsigned long *kb);
/* Read per_cpu/cpu<cpu>/stats of the instance into *st; -1 + message. */
int tm_session_cpu_stats(const struct tm_session *s, int cpu, struct tm_cpu_kstats *st);

/*
 * Parse a hex CPU mask ("3", "0x3", "ff,ffffffff") into set[0..ncpus): true
 * for each CPU selected. -1 + message (EINVAL) on bad text, on bits >= ncpus
 * set, or when no CPU is selected.
 */
int tm_cpumask_parse(const char *text, bool *set, int ncpus);

/* ---- one CPU's ring buffer ---- */

struct tm_ring;

/* Called with each finished page (page_size bytes, zeroed past the data). */
typedef int (*tm_ring_emit_fn)(void *ctx, const void *page, size_t size);

/*
 * Open per_cpu/cpu<cpu>/trace_pipe_raw of instance directory dir. With
 * use_mmap the buffer is mapped when the kernel allows it and the read()
 * path is used otherwise (ENODEV, EINVAL, EBUSY, no mmap support).
 * page_size is the sub-buffer size the read() path reads at a time. NULL +
 * message when the file cannot be opened or memory runs out.
 */
struct tm_ring *tm_ring_open(const char *dir, int cpu, size_t page_size, bool use_mmap);
/* Unmap and close (NULL is fine). */
void tm_ring_close(struct tm_ring *r);
/* The trace_pipe_raw descriptor, for poll(). */
int tm_ring_fd(const struct tm_ring *r);
/* True when the buffer is mapped (else the read() path runs). */
bool tm_ring_mapped(const struct tm_ring *r);
/*
 * Reader sub-buffers dropped by the mapped path: commit word past the
 * sub-buffer, or records that cannot be walked (kernel bug, racing writer).
 */
uint64_t tm_ring_corrupt_pages(const struct tm_ring *r);
/* Why the read() path runs ("--no-mmap", "mmap: <errno text>"), NULL when mapped. */
const char *tm_ring_fallback_reason(const struct tm_ring *r);
/* How full the ring buffer is and how much was written (estimates; 0 on the read() path). */
void tm_ring_fill(const struct tm_ring *r, struct tm_ring_fill *fill);
/*
 * Hand every finished page to emit, until the buffer is empty. With final
 * (at stop, after tracing is off) the partial page being filled is emitted
 * too. Returns the number of pages emitted, or -1 + message (a failed
 * ioctl or read, a corrupt page, or what emit returned).
 */
int tm_ring_drain(struct tm_ring *r, bool final, tm_ring_emit_fn emit, void *ctx);
/*
 * Live mode (stream), mapped path: every drain also hands out the records
 * committed on the reader sub-buffer so far, as a page of their own (spec
 * §7.7), and later drains only what follows them. The read() path gets
 * partial pages from the kernel anyway. -1 with ENOMEM.
 */
int tm_ring_set_partial(struct tm_ring *r, bool on);

/* read() path, usable on its own: one page into buf; 0 when empty (EAGAIN), -1 + message. */
ssize_t tm_ring_read_page(int fd, void *buf, size_t size);

/* ---- the recorder: one thread per CPU ---- */

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
	void	*ctx;
};

struct tm_recorder_opts {
	const bool	*cpus;		/* cpus[0..ncpus): record this CPU */
	int		ncpus;
	bool		use_mmap;
	int		timeout_ms;	/* poll() timeout so quiet CPUs flush, default 250 */
	bool		pin;		/* pin each thread to its CPU */
	bool		emit_partial;	/* stream: hand out partial pages each round */
};

struct tm_cpu_record_stats {
	bool		traced;
	bool		mapped;
	uint64_t	pages;
	uint64_t	raw_bytes;
	uint64_t	lost_pages;	/* pages flagged MISSED_EVENTS */
	uint64_t	lost_stored;	/* sum of the counts stored on them */
	uint64_t	lost_unknown;	/* flagged pages without a stored count */
	/* pages dropped: commit word or a record length impossible (kernel bug, racing writer) */
	uint64_t	corrupt_pages;
	int		error;		/* errno of a thread failure, 0 if none */
};

/*
 * Count one page a CPU's ring handed out into st (pages, bytes, losses):
 * true when it goes on to the sink; false when its commit word or a record
 * length is impossible: then only corrupt_pages counts it, and nothing past
 * the page's end (or its commit) was read.
 */
bool tm_record_stats_add_page(struct tm_cpu_record_stats *st, const void *page, size_t size);

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
/*
 * A cut through the running recording, for a flight dump or an output
 * switch: every thread hands its ring's records so far to the sink, the
 * page being filled included (later pages carry only what follows), then
 * calls the sink's cut(). Returns once every thread did; the readers never
 * stop. -1: a thread failed (its message).
 */
int tm_recorder_cut(struct tm_recorder *rec);
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

/* ---- the recording file: per-CPU spools, then one trace.dat (recfile.c) ---- */

struct tm_recfile_opts {
	const char		*path;		/* output file, "-" = stdout */
	int			version;	/* tm_dat_version_supported() */
	enum tm_compression	compression;	/* if tm_dat_version_compressed() */
	int			level;
	bool			adaptive;	/* cheaper levels while a ring fills up */
	size_t			page_size;
	int			ncpus;
	const bool		*cpus;		/* CPUs that get a spool */
	const char		*last_boot_instance;	/* tm_write_opts' LAST_BOOT_INFO */
	const char		*last_boot_info;
	const char		*date;		/* DATE option text, NULL = none */
	/*
	 * The recording's instance: with it, a note beside the spools says how
	 * they are written (tm_spool_info) until a normal end; NULL: no note.
	 */
	const char		*instance;
	const char		*clock;		/* its trace clock, NULL: "local" */
};

struct tm_recfile;

/*
 * Open (create, not truncate) the output so an unwritable path fails before
 * tracing starts, and create <output>.cpuN.spool for each recorded CPU
 * ($TMPDIR/tracemap-<pid>.cpuN.spool for stdout). NULL + message naming the
 * file (a terminal on stdout is refused too).
 */
struct tm_recfile *tm_recfile_open(const struct tm_recfile_opts *opts);
/* The sink that appends each CPU's pages to its spool. */
struct tm_page_sink tm_recfile_sink(struct tm_recfile *out);
/*
 * Non-zero (the errno, e.g. ENOSPC) once a spool's file write failed: the
 * spools take no more pages (they are dropped) and recording should stop.
 * Read while the recorder threads write.
 */
int tm_recfile_full(const struct tm_recfile *out);
/*
 * At stop, with the instance still there: finish spools, collect metadata,
 * write the file. -1 + message naming the output. After a full disk the file
 * holds what the spools hold (tm_recfile_stopped() says so); if the file
 * itself does not fit (ENOSPC, EDQUOT) it is left empty and the spools and
 * their note stay for `tracemap recover`, which the message names.
 */
int tm_recfile_write(struct tm_recfile *out, const struct tm_session *s);
/* After a successful write cut short by a full disk: one line saying so; else NULL. */
const char *tm_recfile_stopped(const struct tm_recfile *out);
/* Store a DATE option (text of tm_session_date_offset()) in the file; -1 with EINVAL if too long. */
int tm_recfile_set_date(struct tm_recfile *out, const char *date);
/* A warning of the metadata collection (kallsyms addresses zero), or NULL. */
const char *tm_recfile_warning(const struct tm_recfile *out);
/* Bytes in the spools so far, read while the recorder threads write them (live status). */
uint64_t tm_recfile_written(const struct tm_recfile *out);
/* Spool statistics of cpu (zeroes when it has no spool). */
void tm_recfile_spool_stats(const struct tm_recfile *out, int cpu, struct tm_spool_stats *st);
/*
 * Remove the spools and their note (unless the file did not fit: then they
 * stay); unless ok, also remove an output file we created (NULL is fine).
 */
void tm_recfile_close(struct tm_recfile *out, bool ok);

#endif /* TM_RECORD_H */
