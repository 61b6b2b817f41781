/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-events.h - decoding events: the libtraceevent handle of a file or of a
 * live tracefs, its metadata checked on the way in (events.c), and -F event
 * filters (events.c). The printer's options are in print/tm-print.h.
 */
#ifndef TM_EVENTS_H
#define TM_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>


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
 * Add to ev the event formats of another file of the same machine that ev
 * has no event of that id for (tm_dat_machines() checked that the files
 * agree on those they share), checked as tm_events_from_dat() checks them.
 */
void tm_events_add_formats(struct tm_events *ev, struct tm_dat *dat, tm_warn_fn warn,
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

#endif /* TM_EVENTS_H */
