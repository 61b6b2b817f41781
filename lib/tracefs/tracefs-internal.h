/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracefs-internal.h - what the files of lib/tracefs/ share with the rest of lib/
 * (never with cmd/): the functions of its public headers that only lib calls.
 */
#ifndef TM_TRACEFS_INTERNAL_H
#define TM_TRACEFS_INTERNAL_H

#include <stdbool.h>

#include "util/internal.h"

struct tm_session;

/* ---- lib-only part of tm-write.h ---- */

struct tm_meta;

/*
 * meta.c: read everything the file needs from tracefs for the instance (NULL = top
 * level): header_page/header_event, all ftrace formats, the formats of every
 * event enabled in the instance (its set_event; ftrace events are always
 * stored in their own section), the whole /proc/kallsyms (tm_meta_warning()
 * says when its addresses read as zero; kptr_restrict is never changed),
 * printk_formats, saved_cmdlines, uname, trace_clock, and per-CPU stats for
 * cpus [0, ncpus). Call after tracing stopped, so stats are final. NULL +
 * message naming the file that could not be read.
 */
TM_HIDDEN struct tm_meta *tm_meta_collect(const char *tracefs, const char *instance, int ncpus);

/* ---- lib-only part of tm-tracefs.h ---- */

/* "tracemap-<pid>" into buf (cut at len). */
TM_HIDDEN void tm_instance_name(char *buf, size_t len, pid_t pid);

/* ---- tracefs.c: libtracefs's file calls with our one-line messages ---- */

struct tracefs_instance;
struct tm_session;

/*
 * The instance name of tracefs dir tracefs (NULL: its top level) for
 * libtracefs calls (tracefs_instance_alloc(): it must exist); free with
 * tracefs_instance_free(). NULL + message (ENOENT: no such instance).
 */
TM_HIDDEN struct tracefs_instance *tm_tfs_open(const char *tracefs, const char *name);
/* "<what> <instance>/<rel>: <strerror(err)>" as the message; -1 with errno err. */
TM_HIDDEN int tm_tfs_fail(struct tracefs_instance *in, const char *rel, int err,
			  const char *what);
/*
 * tracefs_instance_file_write() (O_TRUNC), or _append() (without), of text to
 * <instance>/<rel>: every byte or -1 + "write 'TEXT' to PATH: ERR".
 */
TM_HIDDEN int tm_tfs_write(struct tracefs_instance *in, const char *rel, const char *text);
TM_HIDDEN int tm_tfs_append(struct tracefs_instance *in, const char *rel, const char *text);
/*
 * tracefs_instance_file_read() of <instance>/<rel>, NUL-terminated ("" for an
 * empty file), its size into *len (may be NULL); NULL + "open PATH: ERR".
 */
TM_HIDDEN char *tm_tfs_read(struct tracefs_instance *in, const char *rel, size_t *len);
/*
 * tracefs_instance_file_open() of <dir>/<rel> (dir an instance directory or
 * the top level) with open(2) flags: the fd, or -1 with errno (no message).
 */
TM_HIDDEN int tm_tfs_open_file(const char *dir, const char *rel, int flags);

/* ---- used across lib/ ---- */

struct tm_cpu_kstats;
/* session.c: the text of a per_cpu/cpuN/stats file (changed in place) into *st. */
TM_HIDDEN void tm_cpu_kstats_parse(char *text, struct tm_cpu_kstats *st);
/* session.c: the session's instance for libtracefs calls (its top level when it runs there). */
TM_HIDDEN struct tracefs_instance *tm_session_instance(const struct tm_session *s);

/*
 * instance-busy.c: the processes holding files under dir open, as "pid N
 * (comm), ..." into buf ("" when none is found). Cannot fail.
 */
TM_HIDDEN void tm_dir_holders(const char *dir, char *buf, size_t len);
/*
 * instance-busy.c: tracefs_instance_destroy() (gone already counts as done),
 * retried for up to wait_ms while the kernel says EBUSY. -1 + message
 * "remove instance <dir>: ..." naming the processes that hold it open (errno EBUSY).
 */
TM_HIDDEN int tm_instance_destroy(struct tracefs_instance *in, int wait_ms);

/*
 * instance-restore.c: the settings of a reused instance (or of the top
 * level), saved before our first write to each file and written back at the end.
 */
struct tm_journal;

/* An empty journal of instance in (not owned); NULL with ENOMEM. */
TM_HIDDEN struct tm_journal *tm_journal_new(struct tracefs_instance *in);
/* Keep the text of <instance>/<rel> unless kept already (j NULL: nothing to do); -1 + message. */
TM_HIDDEN int tm_journal_save(struct tm_journal *j, const char *rel);
/* Write every kept text back, newest first; -1: the first failure's message (all are tried). */
TM_HIDDEN int tm_journal_restore(struct tm_journal *j);
/* Free (NULL is fine). */
TM_HIDDEN void tm_journal_free(struct tm_journal *j);

/*
 * session.c: write text to <instance>/<rel> (truncating; append: without
 * O_TRUNC), the setting saved first when the instance is reused. -1 + message.
 */
TM_HIDDEN int tm_session_set(struct tm_session *s, const char *rel, const char *text);
TM_HIDDEN int tm_session_append(struct tm_session *s, const char *rel, const char *text);
/*
 * session-events.c: tracefs_event_enable() of system sys (ev NULL: all its
 * events) or of event sys:ev, the names taken as they are (not as regexes); -1 + message.
 */
TM_HIDDEN int tm_event_enable(struct tracefs_instance *in, const char *sys, const char *ev);
/* session.c: markers of the top-level trace_marker reach the instance too (as -e ftrace:print). */
TM_HIDDEN int tm_session_copy_markers(struct tm_session *s);
/*
 * errlog.c: tm_tfs_write() (append: tm_tfs_append()) of <instance>/<file>
 * with the kernel's reason: error_log is cleared first, and on failure why
 * gets its newest entry, "REASON (position N: CMD-before^CMD-after)" ("" if
 * the kernel logged nothing). -1 with errno and the write's message.
 */
TM_HIDDEN int tm_file_put_why(struct tracefs_instance *in, const char *file, const char *text,
			      bool append, char *why, size_t len);
/* session.c: tm_session_set() with the kernel's reason, as tm_file_put_why(). */
TM_HIDDEN int tm_session_set_why(struct tm_session *s, const char *rel, const char *text,
				 char *why, size_t len);

/* instance.c: append a copy of s to the NULL-terminated list *v of *n strings; -1 (ENOMEM). */
TM_HIDDEN int tm_strv_push(char ***v, size_t *n, const char *s);

/*
 * instance.c: a persistent (boot-reserved) instance has last_boot_info:
 * 1 for one, 0 for any other; *prev gets that file's text when it tells of
 * a previous boot (not "# Current", nor a cold boot's zero address or
 * delta), else NULL (the caller frees it). -1 +
 * message when it exists and cannot be read.
 */
TM_HIDDEN int tm_instance_last_boot(struct tracefs_instance *in, char **prev);
/*
 * instance.c: the backup the kernel made at boot of persistent instance
 * name (6.19+: "trace_instance=BACKUP=NAME" on its command line), when
 * instances/BACKUP exists and holds events; else NULL. Free it.
 */
TM_HIDDEN char *tm_instance_backup(const char *tracefs, const char *name);
/* instance.c: NAME of "trace_instance=backup=NAME" on the command line, else NULL. */
TM_HIDDEN char *tm_instance_backup_source(const char *backup);

/* instance.c: pid is a live (not zombie) tracemap process, or cannot be told apart from one. */
TM_HIDDEN bool tm_pid_runs_tracemap(pid_t pid);
/* instance.c: the pid of a "tracemap-<pid>" name, or -1 if the name is not one of ours. */
TM_HIDDEN pid_t tm_instance_owner(const char *name);
/* instance.c: true when name is ours and its owner process is gone (or is not tracemap). */
TM_HIDDEN bool tm_instance_is_stale(const char *name);
/* instance.c: the sub-buffer size of instance in (buffer_subbuf_size_kb); -1 + message. */
TM_HIDDEN int tm_instance_page_size(struct tracefs_instance *in, size_t *size);
/*
 * subbuf.c: write kb to buffer_subbuf_size_kb and, when the size read back
 * changed, clear the trace (the kernel keeps the old ring's page counters:
 * docs/kernel-ring-buffer-warning.md). Tracing off. 0, or -1 + message.
 */
TM_HIDDEN int tm_subbuf_set(struct tracefs_instance *in, const char *kb);

#endif /* TM_TRACEFS_INTERNAL_H */
