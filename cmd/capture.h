/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * capture.h - what record and stream share: the capture options (an argp
 * child), the session, the recorder threads feeding a sink, COMMAND,
 * --duration, signals, cleanup and the per-CPU summary.
 */
#ifndef TM_CMD_CAPTURE_H
#define TM_CMD_CAPTURE_H

#include <argp.h>
#include <stdbool.h>
#include <sys/types.h>

#include "status.h"
#include "tracemap.h"
#include "tracefs/tm-session.h"
#include "record/tm-recorder.h"

struct capture_opts {
	struct tm_event_spec	*events;
	size_t			nr_events;
	long			buffer_kb;
	long			subbuf_kb;
	const char		*clock;
	const char		*cpumask;
	pid_t			*pids;
	size_t			nr_pids;
	bool			trace_command;	/* -F */
	bool			children;	/* -c */
	const char		**options;	/* NULL-terminated */
	size_t			nr_options;
	long			wakeup_percent;	/* -1: leave the kernel default */
	const char		*instance;	/* -B NAME, NULL: tracemap-<pid> */
	bool			reuse_instance;	/* NAME may exist: restore it after */
	bool			quiet;
	bool			verbose;
	bool			no_mmap;
	bool			no_pin;		/* readers placed by the scheduler */
	bool			keep_mapped;	/* no read() under load */
	bool			reader_nice_set;
	int			reader_nice;	/* --reader-nice, if set */
	double			duration;	/* seconds, 0 = none */
	char			**command;	/* NULL-terminated, or NULL */
	const char		**uprobes;	/* --uprobe specs */
	size_t			nr_uprobes;
	const char		**kprobes;	/* --kprobe specs */
	size_t			nr_kprobes;
	bool			name_events;	/* stream: the events that rename tasks too */
	const char		*tracer;	/* -p TRACER, NULL: events only */
	const char		**filter_funcs;	/* -l, NULL-terminated */
	size_t			nr_filter_funcs;
	const char		**notrace_funcs;	/* -n */
	size_t			nr_notrace_funcs;
	const char		**graph_funcs;	/* -g */
	size_t			nr_graph_funcs;
	long			max_graph_depth;	/* -1: leave the kernel's */
	bool			func_stack;	/* --func-stack */
	/*
	 * The last option argument parsed (the caller's own options too): tells
	 * a trailing "--" (a usage error) from an option whose value is "--".
	 */
	const char		*last_arg;
};

/*
 * The caller's parser calls this for each of its own options that take an
 * argument, so a "--" taken as that argument is not a trailing "--".
 */
void capture_note_arg(struct capture_opts *o, const char *arg);
/*
 * Parse the command line of record or stream: its own options, parser and
 * doc, with the capture options as a child argp whose input is the struct
 * capture_opts the parser points state->child_inputs[0] at on
 * ARGP_KEY_INIT. A usage error exits 2 (argp).
 */
void capture_parse_args(int argc, char **argv, const struct argp_option *options,
			argp_parser_t parser, const char *doc, const char *examples, void *input);
/*
 * At the end of record's and stream's parsing, after their own checks: no
 * event, tracer, uprobe or kprobe is a usage error (the trace would be empty).
 */
void capture_check_events(struct argp_state *state, const struct capture_opts *o);
void capture_opts_init(struct capture_opts *o);
void capture_opts_free(struct capture_opts *o);

struct capture {
	const struct capture_opts	*o;
	const char			*sub;		/* "record", "stream" */
	int				ncpus;
	bool				*cpus;
	struct tm_session		*sess;
	struct tm_recorder		*rec;
	struct tm_cpu_kstats		*kstats;	/* at stop, counted from kstats0 */
	struct tm_cpu_kstats		*kstats0;	/* at the start: a reused instance counted before */
	pid_t				child;
	int				go_fd;		/* write end: releases the child */
	int				child_status;
	bool				child_done;
	struct capture_status		*status;	/* live status line, NULL: none */
	const struct capture_count	*count;		/* the summary's events, NULL: kernel's */
};

/* Signals, CPU selection, the instance. Prints its own errors. */
int capture_open(struct capture *c, const struct capture_opts *o, const char *sub);

/* How the recorder threads run and where their pages go. */
struct capture_sink {
	struct tm_page_sink	sink;
	int			timeout_ms;	/* 0: the recorder's default */
	bool			emit_partial;
	unsigned int		partial_ms;	/* tm_recorder_opts.partial_ms */
};

/* Recorder threads, COMMAND forked, tracing on, COMMAND released. Prints its own errors. */
int capture_start(struct capture *c, const struct capture_sink *s);

/*
 * Wait until a stop signal, COMMAND's exit, --duration or a recorder
 * failure. idle(ctx, ms) is called instead of sleeping: it must return
 * within about ms (after signals_wait() or its own wait) and may return
 * non-zero to stop (NULL: signals_wait()).
 */
void capture_wait(struct capture *c, int (*idle)(void *ctx, int ms), void *ctx);

/*
 * After recording stopped early (a full disk): wait until COMMAND, still
 * running, exits (saying so on stderr), passing stop signals on to it.
 */
void capture_wait_command(struct capture *c);

/* ---- the COMMAND (capture-child.c) ---- */

/* Fork COMMAND, blocked until capture_child_release(); -1 (message printed). */
int capture_child_spawn(struct capture *c);
/* Let COMMAND run (tracing is on). */
void capture_child_release(struct capture *c);
/* Collect COMMAND's status if it ended (block: wait for it). */
void capture_child_reap(struct capture *c, bool block);
/* COMMAND never released (a failed start): kill it and collect it. */
void capture_child_abandon(struct capture *c);
/* Say how COMMAND ended (unless -q). */
void capture_child_report(struct capture *c);

/* Tracing off, the threads' final drain, the kernel's per-CPU stats. */
int capture_stop(struct capture *c);
/*
 * The instance's per-CPU stats as this capture counts them: read events and
 * losses since its start (a reused instance's kernel counters are
 * cumulative), entries and bytes as they are. -1 + message.
 */
int capture_cpu_kstats(const struct capture *c, int cpu, struct tm_cpu_kstats *k);

/*
 * What the summary's events column counts when not the kernel's read events
 * (stream: the events it printed, not the name events it reads for itself).
 */
struct capture_count {
	uint64_t	(*events)(void *ctx, int cpu);
	void		*ctx;
};

/* Per-CPU columns the summary adds after "raw MB" (e.g. record's "file MB"). */
struct capture_column {
	const char	*title;
	double		(*value)(void *ctx, int cpu);
	void		*ctx;
};

/* capture-status.c: the live status line of a capture (status.c draws it). */
struct capture_status {
	struct status_line	line;		/* line.written: bytes written, NULL: none */
	unsigned long		buffer_kb;	/* per CPU, for the fill level; 0: none */
};

/* Start the line's clock; off unless on. Reads the instance's buffer size. */
void capture_status_init(struct capture_status *st, const struct capture *c, bool on);
/* Redraw the line if due. */
void capture_status_tick(struct capture_status *st, const struct capture *c);

/* The summary on stderr (unless quiet) and its loss lines; true when events were lost. */
bool capture_summary(struct capture *c, const struct capture_column *col);

/* Threads joined, instance removed, COMMAND reaped and reported; returns ret or TM_EXIT_FAIL. */
int capture_close(struct capture *c, int ret);

/*
 * The exit status after capture_close(): tracemap's own failure (1) and
 * --fail-on-loss (3) first; else COMMAND's status once it has exited (its
 * code, 128+N when signal N killed it, 127 when it could not be run);
 * else ret.
 */
int capture_exit_status(const struct capture *c, int ret);

#endif /* TM_CMD_CAPTURE_H */
