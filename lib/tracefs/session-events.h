/* SPDX-License-Identifier: GPL-2.0-only */
/* session-events.h - enabling the -e specs of a session (session-events.c). Private. */
#ifndef TM_SESSION_EVENTS_H
#define TM_SESSION_EVENTS_H

#include "util/internal.h"
#include "tm-session.h"

struct tm_journal;

/*
 * Enable the events of specs in instance in and set their filters; the
 * system of each enabled event is added to *systems (a NULL-terminated
 * malloc'ed list, unique names). A spec naming ftrace:print sets the
 * instance's copy_trace_marker option (where the kernel has it), so markers
 * written to the top-level trace_marker are recorded too. With a journal (a
 * reused instance), set_event and every filter are saved before they change.
 * Counted triggers (stacktrace:N, ...) set on an event are added to *counted
 * (a NULL-terminated list like *systems; counted NULL: not noted) for
 * tm_sess_rearm_counted(). -1 + message.
 */
TM_HIDDEN int tm_sess_enable_events(struct tracefs_instance *in,
				    const struct tm_event_spec *specs, size_t n, char ***systems,
				    char ***counted, struct tm_journal *journal);

/*
 * Set the counted triggers tm_sess_enable_events() noted again, once tracing
 * is on: their counts were spent on setup's events, which no one records.
 * -1 + message.
 */
TM_HIDDEN int tm_sess_rearm_counted(struct tracefs_instance *in, char *const *counted);

/*
 * Set the instance's copy_trace_marker option where the kernel has it (Linux
 * >= 6.17), so markers written to the top-level trace_marker reach it too;
 * with a journal, saved first. -1 + message.
 */
TM_HIDDEN int tm_sess_copy_markers(struct tracefs_instance *in, struct tm_journal *journal);

/*
 * Enable, where they are not on already, the events that carry new task
 * names (sched_process_exec, task_rename, task_newtask), for a live
 * decoder that follows names as they change. Their systems go to *systems,
 * their "system:event" names to *quiet (a NULL-terminated malloc'ed list
 * the caller prints nothing of). With a journal (a reused instance),
 * set_event is saved first. -1 + message.
 */
TM_HIDDEN int tm_sess_enable_name_events(struct tracefs_instance *in, char ***systems,
					 char ***quiet, struct tm_journal *journal);

#endif /* TM_SESSION_EVENTS_H */
