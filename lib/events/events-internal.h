/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * events-internal.h - the lib-only part of the events handle (events.c):
 * the task names it registers with libtraceevent, for the printer and the
 * live outputs, and the -F filters' verdict on a record.
 */
#ifndef TM_EVENTS_INTERNAL_H
#define TM_EVENTS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "util/internal.h"
#include "trace/tm-trace.h"

struct tm_events;

/* A counter bumped whenever a task got a new name; valid while ev lives. */
TM_HIDDEN const uint64_t *tm_events_names_gen(const struct tm_events *ev);
/*
 * Name pid comm from the next printed record on (live use): 1 when its
 * name changed, 0 when it had that name, -1 with ENOMEM.
 */
TM_HIDDEN int tm_events_set_comm(struct tm_events *ev, int pid, const char *comm);
/*
 * Re-read saved_cmdlines (live use: tasks appear and are renamed while
 * streaming): new pids get their names, renamed ones the new name, and
 * printers made from ev print them from their next record on. -1 with a
 * message when the file cannot be read or parsed (names read so far stay).
 */
TM_HIDDEN int tm_events_reload_cmdlines(struct tm_events *ev, const char *tracefs_dir);
/*
 * tm_events_reload_cmdlines(), leaving alone the pids for which
 * skip(ctx, pid) is true (skip NULL: none).
 */
TM_HIDDEN int tm_events_reload_cmdlines_skip(struct tm_events *ev, const char *tracefs_dir,
					     bool (*skip)(void *ctx, int pid), void *ctx);
/* True when the record should be printed (f NULL: always; -F filters, events.c). */
TM_HIDDEN bool tm_filter_pass(struct tm_filter *f, const struct tm_event_rec *rec);

#endif /* TM_EVENTS_INTERNAL_H */
