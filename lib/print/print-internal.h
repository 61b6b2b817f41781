/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-internal.h - what the printer (print.c) takes from its neighbours:
 * the JSON form of a record (print-json.c), the latency flags
 * (print-latency.c), current trace-cmd's sched_switch text (print-states.c),
 * and the lib-only part of the events handle (events/events-internal.h).
 * Private to the library.
 */
#ifndef TM_PRINT_INTERNAL_H
#define TM_PRINT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/buf.h"
#include "util/internal.h"
#include "tm-print.h"

struct tm_events;

struct tep_event;
struct tep_handle;
struct tep_record;
struct trace_seq;

/* ---- print-json.c: a record as one JSON object ---- */

/* What JSON takes from an event type, worked out once (NULL ev: an unknown event). */
struct tm_jsonfmt;

/* The seconds of the last "time" printed, as text: it changes once a second. */
struct tm_json_clock {
	bool		valid;
	uint64_t	sec;
	size_t		len;		/* 0: no date for it (null) */
	char		day[32];	/* "2025-05-01T12:34:56" */
};

/* What the printer knows of a record beyond its bytes. */
struct tm_json_rec {
	const struct tm_event_rec	*rec;
	int				pid;
	const char			*comm;		/* the task's name as a JSON string */
	size_t				comm_len;
	const char			*buffer;	/* ",\"buffer\":\"name\"", or NULL */
	size_t				buffer_len;
	struct tm_json_clock		*clock;		/* NULL: no "time" */
};

/* NULL with ENOMEM (no message). */
TM_HIDDEN struct tm_jsonfmt *tm_jsonfmt_new(struct tep_handle *tep, const struct tep_event *ev);
TM_HIDDEN void tm_jsonfmt_free(struct tm_jsonfmt *f);
/* The record's JSON object and a newline into b: 0, or -1 out of memory (no message). */
TM_HIDDEN int tm_jsonfmt_put(const struct tm_jsonfmt *f, struct tm_buf *b,
			     const struct tm_json_rec *jr);
/*
 * The fields object "{...}" of a record of f's event into b ({} for an
 * unknown event): 0, or -1 out of memory (print-json-fields.c).
 */
TM_HIDDEN int tm_jsonfmt_put_fields(const struct tm_jsonfmt *f, struct tm_buf *b,
				    const uint8_t *data, uint32_t size);

/* ---- print-latency.c: the latency flags column, cached per flags/preempt-count pair ---- */
struct tm_latency;

/* NULL with ENOMEM. */
TM_HIDDEN struct tm_latency *tm_latency_new(struct tep_handle *tep);
TM_HIDDEN void tm_latency_free(struct tm_latency *l);
/* libtraceevent's latency text of r ("d..2."), valid until the next call; known: r's event is. */
TM_HIDDEN const char *tm_latency_text(struct tm_latency *l, struct tep_record *r, bool known,
				      size_t *len);

/* ---- print-states.c: sched_switch as trace-cmd >= 3.2 prints it ---- */

/*
 * The prev_state letters of ev's __print_flags table, by bit (malloc'd), or
 * NULL: not sched_switch, no plugin handler to replace (-N), no table.
 */
TM_HIDDEN char *tm_sched_states(const struct tep_event *ev);
/* The plugin's "comm:pid [prio] S ==> comm:pid [prio]" with these letters (registers comms). */
TM_HIDDEN void tm_sched_switch_text(struct trace_seq *s, struct tep_event *ev,
				    const char *states, struct tep_record *r);

/* ---- print-funcgraph.c: function_graph as trace-cmd prints it ---- */

#define TM_FGRAPH_BUFFERS	64	/* buffers whose entries may be held (the printer's) */

enum {
	TM_FGRAPH_NONE,
	TM_FGRAPH_ENTRY,
	TM_FGRAPH_EXIT,
};

struct tm_event_rec;
struct tm_fgraph;

/*
 * The function_graph text of tep's funcgraph events with o's options, or
 * NULL: errno 0 when it does not apply (no such events, -R, JSON, -N, a
 * format without the kernel's fields), ENOMEM.
 */
TM_HIDDEN struct tm_fgraph *tm_fgraph_new(struct tep_handle *tep, const struct tm_print_opts *o);
TM_HIDDEN void tm_fgraph_free(struct tm_fgraph *g);
/* TM_FGRAPH_ENTRY or _EXIT for those events' ids, else TM_FGRAPH_NONE (g may be NULL). */
TM_HIDDEN int tm_fgraph_kind(const struct tm_fgraph *g, int type);
/*
 * Before anything else of rec (of event type, task pid) is printed or
 * filtered: when its buffer holds an entry, rec decides it. 1: rec is that
 * entry's return, the held line in b is now the leaf and rec is not to be
 * printed; 0: go on; -1: out of memory.
 */
TM_HIDDEN int tm_fgraph_next(struct tm_fgraph *g, struct tm_buf *b,
			     const struct tm_event_rec *rec, int type, int pid);
/* An entry's text and newline into b, held until its buffer's next record; -1: ENOMEM. */
TM_HIDDEN int tm_fgraph_entry_text(struct tm_fgraph *g, struct tm_buf *b,
				   const struct tm_event_rec *rec, int pid);
/* A return's text ("+ 35.594 us  |        }"), no newline; -1: ENOMEM. */
TM_HIDDEN int tm_fgraph_exit_text(const struct tm_fgraph *g, struct tm_buf *b,
				  const uint8_t *data, uint32_t size);
/* An entry is held: b must keep its text (g may be NULL). */
TM_HIDDEN bool tm_fgraph_holding(const struct tm_fgraph *g);
/* Held entries stay as printed, "name() {" (a flush: no next record to wait for). */
TM_HIDDEN void tm_fgraph_release(struct tm_fgraph *g);

struct tm_printer;

/*
 * Printer functions only the unit tests call (nothing in cmd/ needs them
 * yet): print one page's records in order, format a timestamp, count.
 */
TM_HIDDEN int tm_printer_page(struct tm_printer *p, int buf, int cpu, const void *page,
			      size_t page_size, unsigned int commit_size, bool big_endian,
			      struct tm_filter *filter);
/* The timestamp as report prints it (" 1415.676476" style, no colon). */
TM_HIDDEN void tm_printer_format_ts(const struct tm_printer *p, int buf, uint64_t ts,
				    char *out, size_t len);

/* ---- lib-only part of tm-print.h: the printer ---- */

/*
 * A printer of ev's events to out (task names follow tm_events_reload_cmdlines()).
 * ev must outlive it. NULL with ENOMEM.
 */
TM_HIDDEN struct tm_printer *tm_printer_new(const struct tm_events *ev, const struct tm_print_opts *opts,
					    FILE *out);
/*
 * Describe buffer number buf: its name ("" or NULL for the top level) and
 * trace clock (NULL: "local"). Records of unknown buffers print as the top
 * one. Once a named buffer exists, every line gets trace-cmd's "name: "
 * prefix. -1 + message: buf >= 64, a name over 256 bytes, ENOMEM.
 */
TM_HIDDEN int tm_printer_set_buffer(struct tm_printer *p, int buf, const char *name, const char *clock);
/* Flush and free the printer (NULL is fine). */
TM_HIDDEN void tm_printer_free(struct tm_printer *p);

/*
 * Print only a "CPU:n [N EVENTS DROPPED]" line (a JSON object with --json):
 * for a loss no later record of that CPU can carry (stream, at its end).
 * -1 with ENOMEM.
 */
TM_HIDDEN int tm_printer_dropped(struct tm_printer *p, int buf, int cpu, int64_t missed);
/*
 * Print one record (with its "CPU:n [.. EVENTS DROPPED]" line if any) into
 * the printer's buffer, handed to out in large writes: call
 * tm_printer_flush() before writing to out directly. -1 + message (ENOMEM,
 * a failed write).
 */
TM_HIDDEN int tm_printer_event(struct tm_printer *p, const struct tm_event_rec *rec);
/* Hand the buffered text to out; -1 + message when the write fails. */
TM_HIDDEN int tm_printer_flush(struct tm_printer *p);

#endif /* TM_PRINT_INTERNAL_H */
