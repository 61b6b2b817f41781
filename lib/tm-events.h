/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-events.h - decoding and printing events: the libtraceevent handle
 * (events.c), event filters (events.c), the k-way timestamp merge over
 * per-CPU page sources (merge.c) and the trace-cmd compatible text and JSON
 * printers (print.c, print-json.c). Works on trace.dat files and on live
 * pages alike: nothing here needs a file except tm_events_from_dat() and
 * tm_merge_add_dat().
 */
#ifndef TM_EVENTS_H
#define TM_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tep_handle;
struct tm_dat;

/* ---- events.c: the tep handle ---- */

struct tm_events;

/*
 * A tep handle from a trace.dat file's metadata: header page, ftrace and
 * event formats, kallsyms, printk formats, saved cmdlines. Plugins are
 * loaded first, as trace-cmd loads them, unless no_plugins (report -N).
 */
struct tm_events *tm_events_from_dat(struct tm_dat *dat, bool no_plugins);

/*
 * A tep handle from a live tracefs (or a copy of one): tracefs_dir holds
 * events/header_page, events/<system>/<event>/format, printk_formats and
 * saved_cmdlines. systems is a NULL-terminated list of the event systems to
 * parse (NULL: all of them; "ftrace" is always parsed). kallsyms is a path
 * ("/proc/kallsyms"), or NULL to skip symbols.
 */
struct tm_events *tm_events_from_tracefs(const char *tracefs_dir, const char *const *systems,
					 const char *kallsyms, bool no_plugins);
/*
 * Re-read saved_cmdlines (live use: tasks appear and are renamed while
 * streaming): new pids get their names, renamed ones the new name, and
 * printers made from ev print them from their next record on. -1 with a
 * message when the file cannot be read or parsed (names read so far stay).
 */
int tm_events_reload_cmdlines(struct tm_events *ev, const char *tracefs_dir);
struct tep_handle *tm_events_tep(const struct tm_events *ev);
void tm_events_free(struct tm_events *ev);

/* ---- one record ready to print ---- */

struct tm_event_rec {
	uint64_t	ts;		/* trace-clock units */
	const void	*data;		/* payload, common fields first */
	uint32_t	size;		/* payload bytes */
	int		cpu;
	int		buffer;		/* 0 top level, then instances */
	int64_t		missed;		/* events lost before it: 0, n, or -1 unknown */
};

/* ---- events.c: -F filters (libtraceevent syntax) ---- */

struct tm_filter;

struct tm_filter *tm_filter_new(struct tep_handle *tep);
/* Add one -F expression; invert puts it in the "hide matches" set (-v). */
int tm_filter_add(struct tm_filter *f, const char *expr, bool invert);
/* True when the record should be printed. */
bool tm_filter_pass(struct tm_filter *f, const struct tm_event_rec *rec);
void tm_filter_free(struct tm_filter *f);

/* ---- merge.c: timestamp-ordered records from many per-CPU page sources ---- */

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
	void		*ctx;
	/* File-wide, monotonic timestamp adjustment (DATE, OFFSET, TSC2NSEC); may be NULL. */
	uint64_t	(*adjust_ts)(const struct tm_dat *dat, uint64_t ts);
	const struct tm_dat *adjust_ctx;
};

struct tm_merge;

struct tm_merge *tm_merge_new(void);
int tm_merge_add(struct tm_merge *m, const struct tm_page_source *src);
/*
 * Add every CPU with data of buffer buf of a file; cpu_mask (bit n = CPU n,
 * NULL = all, nbits long) selects CPUs.
 */
int tm_merge_add_dat(struct tm_merge *m, struct tm_dat *dat, int buf,
		     const uint64_t *cpu_mask, int nbits);
/* 1 with *rec filled (valid until the next call), 0 at the end, -1 on error. */
int tm_merge_next(struct tm_merge *m, struct tm_event_rec *rec);
void tm_merge_free(struct tm_merge *m);

/* ---- print.c / print-json.c: text like trace-cmd report, or JSON lines ---- */

struct tm_print_opts {
	bool	nsec;		/* -t: all nine decimals */
	bool	raw;		/* -R: field=value of every field */
	bool	json;		/* one JSON object per line */
	bool	tep_only;	/* no compiled formats: every text from libtraceevent (tests) */
};

struct tm_printer;

/*
 * A printer of ev's events to out (task names follow tm_events_reload_cmdlines()).
 * ev must outlive it. NULL with ENOMEM.
 */
struct tm_printer *tm_printer_new(const struct tm_events *ev, const struct tm_print_opts *opts,
				  FILE *out);
/*
 * Describe buffer number buf: its name ("" or NULL for the top level) and
 * trace clock (NULL: "local"). Records of unknown buffers print as the top one.
 * Once a named buffer exists, every line gets trace-cmd's "name: " prefix.
 */
int tm_printer_set_buffer(struct tm_printer *p, int buf, const char *name, const char *clock);
/*
 * Print one record (with its "CPU:n [.. EVENTS DROPPED]" line if any). Text
 * is collected in the printer's buffer and handed to out in large writes:
 * call tm_printer_flush() before writing to out directly (tm_printer_free()
 * flushes too).
 */
int tm_printer_event(struct tm_printer *p, const struct tm_event_rec *rec);
int tm_printer_flush(struct tm_printer *p);
/*
 * Print only a "CPU:n [N EVENTS DROPPED]" line (a JSON object with --json):
 * for a loss no later record of that CPU can carry (stream, at its end).
 */
int tm_printer_dropped(struct tm_printer *p, int buf, int cpu, int64_t missed);
/* Print every record of one page of a CPU, in order (stream: no merge). */
int tm_printer_page(struct tm_printer *p, int buf, int cpu, const void *page, size_t page_size,
		    unsigned int commit_size, bool big_endian, struct tm_filter *filter);
/* The timestamp as report prints it (" 1415.676476" style, no colon). */
void tm_printer_format_ts(const struct tm_printer *p, int buf, uint64_t ts,
			  char *out, size_t len);
/* Events printed so far. */
uint64_t tm_printer_count(const struct tm_printer *p);
void tm_printer_free(struct tm_printer *p);

#endif /* TM_EVENTS_H */
