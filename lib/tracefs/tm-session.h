/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-session.h - the private tracefs instance a recording works in
 * (instances/tracemap-<pid>): events, filters, triggers, buffer geometry,
 * start and stop (session*.c).
 */
#ifndef TM_SESSION_H
#define TM_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One -e with the -f and -R that followed it (filter may be NULL). */
struct tm_event_spec {
	const char	*event;		/* "all", "system", "system:event", "event", globs */
	const char	*filter;
	const char	**triggers;	/* written to each matched event's trigger file */
	size_t		nr_triggers;
};

/*
 * -p TRACER and its function filters (tracer.c). Each list is NULL-terminated
 * (NULL: leave the file alone); entries are function names or globs.
 */
struct tm_tracer_opts {
	const char		*name;		/* current_tracer (function, ...), NULL: none */
	const char * const	*filter;	/* set_ftrace_filter (-l) */
	const char * const	*notrace;	/* set_ftrace_notrace (-n) */
	const char * const	*graph;		/* set_graph_function (-g) */
	int			max_graph_depth;	/* max_graph_depth, -1: leave */
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
	const char * const	*kprobes;	/* "SYMBOL[+OFF][%return] [FETCHARGS]" specs */
	size_t			nr_kprobes;
	const char		*name;		/* instance name, NULL = tracemap-<pid> */
	bool			reuse;		/* name may exist: record through it, restore it */
	bool			name_events;	/* also sched_process_exec, task_rename,
						 * task_newtask: see tm_session_quiet_events() */
	struct tm_tracer_opts	tracer;		/* tracer.name NULL: events only */
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
 * uprobe_events (SYMBOL looked up in PATH with libelf), each kprobe spec one
 * of the same group in kprobe_events (its fetch arguments as given), enabled
 * in the instance like an -e event; a probe the kernel refuses fails with
 * its errno and error_log's reason, and the probes made before it go.
 *
 * With opts->tracer.name, the filters are written and the tracer set last.
 * The instance's available_tracers lists only the tracers the kernel allows
 * in an instance (function_graph is not there before 6.x): when the tracer,
 * or a file or option the tracer options need, exists only at the top level,
 * the instance is removed and the whole recording runs at the top level
 * (tm_session_top_level()), each top-level file saved before its first
 * change and written back by tm_session_remove(); refused (EBUSY) when the
 * top level runs another tracer, or (EINVAL) with opts->name. A tracer or
 * function the kernel refuses fails with the kernel's errno in one line.
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
 * tm_session_remove() unless done, then remove the session's uprobes and
 * kprobes (group tracemap_<pid>, global), and free s; -1 + message if either
 * failed.
 */
int tm_session_destroy(struct tm_session *s);
/* The tracefs directory the session was created under. */
const char *tm_session_tracefs(const struct tm_session *s);
/* The instance name, "tracemap-<pid>" or the one asked for; "" at the top level. */
const char *tm_session_name(const struct tm_session *s);
/* The instance directory, <tracefs>/instances/<name> (tracefs at the top level). */
const char *tm_session_dir(const struct tm_session *s);
/* True when the tracer made the session record at the top level (see tm_session_create()). */
bool tm_session_top_level(const struct tm_session *s);
/* Sub-buffer size in bytes as the kernel uses it. */
size_t tm_session_page_size(const struct tm_session *s);
/*
 * The histograms of the instance's hist triggers (-R 'hist:...'), each behind a line
 * "# events/SYS/EVENT/hist", as one malloc'ed string ("" without any); read at stop,
 * before the instance goes. NULL + message.
 */
char *tm_session_hists(const struct tm_session *s);
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

#endif /* TM_SESSION_H */
