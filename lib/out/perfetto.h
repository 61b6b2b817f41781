/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfetto.h - records as Perfetto FtraceEvent messages (perfetto-event.c),
 * private to the Perfetto output (out-perfetto.c). The messages are the
 * protoc-c structs generated from lib/out/trace.proto.
 */
#ifndef TM_PERFETTO_H
#define TM_PERFETTO_H

#include "trace.pb-c.h"

#include "util/arena.h"
#include "util/internal.h"

struct tep_handle;
struct tm_pf_events;

TM_HIDDEN struct tm_pf_events *tm_pf_events_new(struct tep_handle *tep);
TM_HIDDEN void tm_pf_events_free(struct tm_pf_events *m);
/*
 * One record as an FtraceEvent (its typed message when Perfetto has one for
 * the event, else a GenericFtraceEvent with every field), allocated in a, so
 * it outlives the record. NULL when out of memory (message set).
 */
TM_HIDDEN Perfetto__Protos__FtraceEvent *tm_pf_event(struct tm_pf_events *m, struct tm_arena *a,
						    const struct tm_event_rec *rec);

/* The tasks the events mention and their names (perfetto-tasks.c). */
struct tm_pf_tasks;

TM_HIDDEN struct tm_pf_tasks *tm_pf_tasks_new(void);
TM_HIDDEN void tm_pf_tasks_free(struct tm_pf_tasks *t);
/* The pids ev mentions, named by the names it carries. -1 when out of memory. */
TM_HIDDEN int tm_pf_tasks_see(struct tm_pf_tasks *t, const Perfetto__Protos__FtraceEvent *ev);
/* Names from the saved cmdlines text for the pids seen that no event named. */
TM_HIDDEN void tm_pf_tasks_cmdlines(struct tm_pf_tasks *t, const char *s, size_t len);
TM_HIDDEN size_t tm_pf_tasks_count(const struct tm_pf_tasks *t);
/* Iterate (start *i at 0): the next task seen; false after the last. */
TM_HIDDEN bool tm_pf_tasks_at(const struct tm_pf_tasks *t, size_t *i, int32_t *pid,
			      const char **comm);

/* perfetto-machine.c: the machine_id of a machine other than the first (info->machine). */
struct tm_evout_info;
TM_HIDDEN void tm_pf_machine_stamp(Perfetto__Protos__TracePacket *pkt,
				   const struct tm_evout_info *info);

#endif /* TM_PERFETTO_H */
