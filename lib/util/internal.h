/* SPDX-License-Identifier: GPL-2.0-only */
/* internal.h - helpers shared by the library's sources, never exported. */
#ifndef TM_INTERNAL_H
#define TM_INTERNAL_H

#include <stdarg.h>
#include "tracemap.h"

#define TM_HIDDEN __attribute__((visibility("hidden")))
#define TM_PRINTF(a, b) __attribute__((format(printf, a, b)))

#define TM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Record a failure: the message becomes "<fmt>: <strerror(err)>", errno is
 * set to err and -1 is returned, so callers can write
 *	return tm_fail(errno, "open %s", path);
 */
TM_HIDDEN int tm_fail(int err, const char *fmt, ...) TM_PRINTF(2, 3);
/* Like tm_fail() but the message is used as is (no errno text). */
TM_HIDDEN int tm_failx(int err, const char *fmt, ...) TM_PRINTF(2, 3);
/* Prefix the current message with "<fmt>: " (keeps errno). Returns -1. */
TM_HIDDEN int tm_fail_prefix(const char *fmt, ...) TM_PRINTF(1, 2);

/* A malloc'ed text blob (a file's content, a format, a section payload). */
struct tm_text {
	char		*data;
	size_t		len;
	uint64_t	sec, off;	/* read from a trace.dat: where (see struct tm_blob) */
};

/* The format texts of one event system. */
struct tm_meta_system {
	char		*name;
	size_t		nformats;
	struct tm_text	*formats;	/* events/<name>/<event>/format */
};

/* fileio.c: free a text's bytes and empty it. */
TM_HIDDEN void tm_text_free(struct tm_text *t);
/* Free n texts and the array (NULL is fine). */
TM_HIDDEN void tm_texts_free(struct tm_text *t, size_t n);
/* Free n systems (names, formats) and the array (NULL is fine). */
TM_HIDDEN void tm_systems_free(struct tm_meta_system *sys, size_t n);

/*
 * bigmem.c: like malloc() (free() it), for a buffer that will be written
 * whole: from 512 KiB on, rounded up to and aligned on 2 MiB and backed by
 * transparent huge pages when the kernel allows. NULL, errno ENOMEM.
 */
TM_HIDDEN void *tm_alloc_big(size_t size);
/* Zeroed pages for a large table mostly left zero; NULL + errno. Free with tm_free_sparse(). */
TM_HIDDEN void *tm_alloc_sparse(size_t size);
/* Free what tm_alloc_sparse(size) returned (NULL is fine). */
TM_HIDDEN void tm_free_sparse(void *p, size_t size);
/* Fault in the pages of [p, p + len) in one call (best effort): for buffers about to be written. */
TM_HIDDEN void tm_prefault(void *p, size_t len);

/* snprintf a path into buf; -1 with ENAMETOOLONG (message set) if it does not fit. */
TM_HIDDEN int tm_path(char *buf, size_t len, const char *fmt, ...) TM_PRINTF(3, 4);
/* Read a whole (small) file into a malloc'ed NUL-terminated buffer. */
TM_HIDDEN char *tm_read_file(const char *path, size_t *len);
/* Write all of buf, retrying on short writes and EINTR (no message). */
TM_HIDDEN int tm_write_all(int fd, const void *buf, size_t len);
/* pread() all of len bytes; -1 with errno EIO on a short file (no message). */
TM_HIDDEN int tm_pread_all(int fd, void *buf, size_t len, off_t off);
/* Write text to the existing <dir>/<file> (truncating); -1, message names the file and errno. */
TM_HIDDEN int tm_file_write(const char *dir, const char *file, const char *text);
/* Like tm_file_write() without O_TRUNC (tracefs pid lists append). */
TM_HIDDEN int tm_file_append(const char *dir, const char *file, const char *text);

/*
 * ---- Entry points only the unit tests call, kept out of the public
 * headers (each module's own; nothing in cmd/ needs them yet) ----
 */

/* merge.c: any per-CPU page source; tm_merge_add_dat() adds a file's. */

/* Next page of a source, or NULL: end (errno 0) or error (errno, message set). */
typedef const void *(*tm_page_next_fn)(void *ctx);
typedef void (*tm_page_close_fn)(void *ctx);

struct tm_page_source {
	int		buffer;		/* ties: lower buffer first, then lower cpu */
	int		cpu;
	size_t		page_size;
	unsigned int	commit_size;	/* 4 or 8 */
	bool		big_endian;
	tm_page_next_fn	next_page;
	tm_page_close_fn close;		/* may be NULL; called by tm_merge_free() */
	/* May be NULL: where the current page is, for messages ("FILE: ...: page at offset N"). */
	int		(*where)(void *ctx, char *buf, size_t len);
	void		*ctx;
	/* File-wide, monotonic timestamp adjustment (DATE, OFFSET, TSC2NSEC); may be NULL. */
	uint64_t	(*adjust_ts)(const struct tm_dat *dat, uint64_t ts);
	const struct tm_dat *adjust_ctx;
};

/* Add a source before the first tm_merge_next(); -1 + message (EBUSY after it, ENOMEM). */
TM_HIDDEN int tm_merge_add(struct tm_merge *m, const struct tm_page_source *src);

/* live.c: what the live merge saw of one CPU. */
struct tm_live_cpu_stats {
	uint64_t	pages;		/* pages received */
	uint64_t	records;	/* data records decoded */
	uint64_t	lost_pages;	/* pages flagged with missed events */
	uint64_t	lost_stored;	/* counts stored on them */
	uint64_t	waits;		/* times the recorder thread waited for room */
};

TM_HIDDEN void tm_live_get_stats(struct tm_live *lv, int cpu, struct tm_live_cpu_stats *st);

/*
 * live-names.c: learn the names rec carries, before it prints: 1 when rec
 * is a quiet event (not to be printed), 0 otherwise, -1 with ENOMEM.
 */
TM_HIDDEN int tm_names_see(struct tm_names *n, const struct tm_event_rec *rec);

/* page.c: number of data records in the page, or -1 if it is corrupt (message set). */
TM_HIDDEN int tm_page_count(const void *page, size_t page_size, unsigned int commit_size,
			    bool big_endian);
/*
 * page.c: tm_page_count(), and the event id (the first two bytes, host
 * order) of each record set in ids (a bitmap of 65536 bits; NULL: none).
 */
TM_HIDDEN int tm_page_note_ids(const void *page, size_t page_size, unsigned int commit_size,
			       bool big_endian, uint8_t *ids);

/*
 * events.c: name pid comm from the next printed record on (live use): 1 when
 * its name changed, 0 when it had that name, -1 with ENOMEM.
 */
TM_HIDDEN int tm_events_set_comm(struct tm_events *ev, int pid, const char *comm);
/*
 * events.c: tm_events_reload_cmdlines(), leaving alone the pids for which
 * skip(ctx, pid) is true (skip NULL: none).
 */
TM_HIDDEN int tm_events_reload_cmdlines_skip(struct tm_events *ev, const char *tracefs_dir,
					     bool (*skip)(void *ctx, int pid), void *ctx);

/*
 * instance-busy.c: the processes holding files under dir open, as "pid N
 * (comm), ..." into buf ("" when none is found). Cannot fail.
 */
TM_HIDDEN void tm_dir_holders(const char *dir, char *buf, size_t len);
/*
 * instance-busy.c: rmdir dir (ENOENT counts as done), retrying for up to
 * wait_ms while the kernel says EBUSY. -1 + message "remove <what> <dir>: ..."
 * naming the processes that hold it open (errno EBUSY).
 */
TM_HIDDEN int tm_dir_remove(const char *dir, const char *what, int wait_ms);

/* The data records of a page: how many, the times of the first and the last. */
struct tm_page_span {
	uint64_t	records;
	uint64_t	first_ts;	/* 0 without records */
	uint64_t	last_ts;
};

/* page.c: fill *span from one walk over the page; -1 if it is corrupt (message set). */
TM_HIDDEN int tm_page_span(const void *page, size_t page_size, unsigned int commit_size,
			   bool big_endian, struct tm_page_span *span);
/*
 * page.c: out (page_size bytes) becomes the page with only its records of
 * time >= from, their times unchanged (the header time is the time just
 * before the first of them, spec §7.7) and no lost-event flags. Returns the
 * number of records kept (0: an empty page), -1 if the page is corrupt.
 */
TM_HIDDEN int tm_page_trim(const void *page, size_t page_size, unsigned int commit_size,
			   bool big_endian, uint64_t from, void *out);

/*
 * instance-restore.c: the settings of a reused instance (dir), saved before our
 * first write to each file and written back at the end.
 */
struct tm_journal;

/* An empty journal of instance directory dir; NULL with ENOMEM. */
TM_HIDDEN struct tm_journal *tm_journal_new(const char *dir);
/* Keep the text of <dir>/<rel> unless kept already (j NULL: nothing to do); -1 + message. */
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
/* session.c: markers of the top-level trace_marker reach the instance too (as -e ftrace:print). */
TM_HIDDEN int tm_session_copy_markers(struct tm_session *s);
/*
 * errlog.c: tm_file_write() (append: tm_file_append()) of <dir>/<file> with
 * the kernel's reason: error_log is cleared first, and on failure why gets
 * its newest entry, "REASON (position N: CMD-before^CMD-after)" ("" if the
 * kernel logged nothing). -1 with errno and the write's message.
 */
TM_HIDDEN int tm_file_put_why(const char *dir, const char *file, const char *text, bool append,
			      char *why, size_t len);
/* session.c: tm_session_set() with the kernel's reason, as tm_file_put_why(). */
TM_HIDDEN int tm_session_set_why(struct tm_session *s, const char *rel, const char *text,
				 char *why, size_t len);

/* recfile.c: tm_recfile_write() with metadata the caller collected. */
TM_HIDDEN int tm_recfile_write_meta(struct tm_recfile *out, const struct tm_meta *meta);
/* recfile.c: how record's spools are made for the output options o. */
TM_HIDDEN struct tm_spool_opts tm_recfile_spool_opts(const struct tm_recfile_opts *o);
/* recfile.c: how record's trace.dat is written for the output options o. */
TM_HIDDEN struct tm_write_opts tm_recfile_write_opts(const struct tm_recfile_opts *o);


/* instance.c: append a copy of s to the NULL-terminated list *v of *n strings; -1 (ENOMEM). */
TM_HIDDEN int tm_strv_push(char ***v, size_t *n, const char *s);

/* instance.c: pid is a live (not zombie) tracemap process, or cannot be told apart from one. */
TM_HIDDEN bool tm_pid_runs_tracemap(pid_t pid);
/* instance.c: the pid of a "tracemap-<pid>" name, or -1 if the name is not one of ours. */
TM_HIDDEN pid_t tm_instance_owner(const char *name);
/* instance.c: true when name is ours and its owner process is gone (or is not tracemap). */
TM_HIDDEN bool tm_instance_is_stale(const char *name);
/* instance.c: the sub-buffer size of the instance at dir (buffer_subbuf_size_kb); -1 + message. */
TM_HIDDEN int tm_instance_page_size(const char *dir, size_t *size);

#endif /* TM_INTERNAL_H */
