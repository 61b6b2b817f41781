/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-events.h - decoding events: the libtraceevent handle of a file or of a
 * live tracefs (events.c), -F event filters (events.c) and the options of
 * the trace-cmd compatible text and JSON printer, which the outputs of
 * tm-evout.h wrap (the printer itself is private: print-internal.h).
 */
#ifndef TM_EVENTS_H
#define TM_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "merge/tm-merge.h"

struct tep_handle;
struct tm_dat;

/*
 * Functions returning a pointer give NULL, those returning int -1, with
 * errno set and a one-line message in tm_last_error().
 */

/*
 * A warning: the library worked around bad input (a line dropped, a record
 * skipped) and goes on. msg is one line without a newline, valid during the call.
 */
typedef void (*tm_warn_fn)(void *ctx, const char *msg);

/* ---- events.c: the tep handle ---- */

struct tm_events;

/*
 * A tep handle from a trace.dat file's metadata (header page, ftrace and
 * event formats, kallsyms, printk formats, saved cmdlines), plugins loaded
 * first as trace-cmd does unless no_plugins (report -N). What libtraceevent
 * would misread or crash on is left out first (a text line, an event
 * format), each with a call of warn (may be NULL) naming the file and the
 * offset. NULL + message.
 */
struct tm_events *tm_events_from_dat(struct tm_dat *dat, bool no_plugins, tm_warn_fn warn,
				     void *warn_ctx);
/*
 * A tep handle from a live tracefs (or a copy of one): tracefs_dir holds
 * events/header_page, events/<system>/<event>/format, printk_formats and
 * saved_cmdlines. systems is a NULL-terminated list of the event systems to
 * parse (NULL: all of them; "ftrace" is always parsed). kallsyms is a path
 * ("/proc/kallsyms"), or NULL to skip symbols. NULL + message.
 */
struct tm_events *tm_events_from_tracefs(const char *tracefs_dir, const char *const *systems,
					 const char *kallsyms, bool no_plugins);
/* The libtraceevent handle (owned by ev). */
struct tep_handle *tm_events_tep(const struct tm_events *ev);
/* Free the handle and unload its plugins (NULL is fine). */
void tm_events_free(struct tm_events *ev);

/* ---- events.c: -F filters (libtraceevent syntax) ---- */

struct tm_filter;

/* An empty filter set (passes everything) for tep's events; NULL with ENOMEM. */
struct tm_filter *tm_filter_new(struct tep_handle *tep);
/* Add one -F expression; invert puts it in the "hide matches" set (-v). -1 + message. */
int tm_filter_add(struct tm_filter *f, const char *expr, bool invert);
/* Free the filters (NULL is fine). */
void tm_filter_free(struct tm_filter *f);

/* ---- print.c / print-json.c: text like trace-cmd report, or JSON lines ---- */

/* Whose text to print: the zero value is current trace-cmd's. */
enum tm_text_compat {
	TM_TEXT_CURRENT,	/* trace-cmd 3.2-3.4: latency column, prev_state letters of the format */
	TM_TEXT_TC31,		/* trace-cmd 3.1.6 (Debian 12) with its libtraceevent 1.7 plugins */
};

/* The function_graph options of trace-cmd (-O fgraph:NAME), bits of tm_print_opts.fgraph. */
#define TM_FGRAPH_TAIL		0x1	/* tailprint: the function's name after "}" */
#define TM_FGRAPH_DEPTH		0x2	/* depth: " (depth)" */
#define TM_FGRAPH_RETVAL_SKIP	0x4	/* retval-skip: no "(ret=...)" */
#define TM_FGRAPH_RETVAL_DEC	0x8	/* retval-dec: every return value in decimal */
#define TM_FGRAPH_RETVAL_HEX	0x10	/* retval-hex: every return value in hex */

struct tm_print_opts {
	bool			nsec;		/* -t: all nine decimals */
	bool			raw;		/* -R: field=value of every field */
	bool			json;		/* one JSON object per line */
	bool			wall_clock;	/* times are ns since the epoch (DATE): JSON adds "time" */
	bool			tep_only;	/* no compiled formats: libtraceevent's text (tests) */
	bool			latency;	/* -l: "%8.8s-%-5d %3d" task and CPU, then the flags */
	enum tm_text_compat	compat;
	unsigned int		fgraph;		/* TM_FGRAPH_* */
	/*
	 * -F: records the printer leaves out (NULL: none). Applied by the
	 * printer, after function_graph's look at the next record, which
	 * trace-cmd takes before filtering.
	 */
	struct tm_filter	*filter;
};

/*
 * A plugin option as trace-cmd's -O takes it, [PLUGIN:]NAME[=VALUE]:
 * function_graph's (fgraph:tailprint, depth, retval-skip, retval-dec,
 * retval-hex) into o, the others to libtraceevent's plugins (function's
 * parent, indent, offset...), for the handles loaded after the call.
 * Unknown names are ignored, as trace-cmd does. -1 + message: ENOMEM.
 */
int tm_print_plugin_option(struct tm_print_opts *o, const char *opt);

#endif /* TM_EVENTS_H */
