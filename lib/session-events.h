/* SPDX-License-Identifier: GPL-2.0-only */
/* session-events.h - enabling the -e specs of a session (session-events.c). Private. */
#ifndef TM_SESSION_EVENTS_H
#define TM_SESSION_EVENTS_H

#include "internal.h"
#include "tm-record.h"

/*
 * Enable the events of specs in instance dir and set their filters; the
 * system of each enabled event is added to *systems (a NULL-terminated
 * malloc'ed list, unique names). A spec naming ftrace:print sets the
 * instance's copy_trace_marker option (where the kernel has it), so markers
 * written to the top-level trace_marker are recorded too. With a journal (a
 * reused instance), set_event and every filter are saved before they change.
 * -1 + message.
 */
TM_HIDDEN int tm_sess_enable_events(const char *dir, const struct tm_event_spec *specs,
				    size_t n, char ***systems, struct tm_journal *journal);

#endif /* TM_SESSION_EVENTS_H */
