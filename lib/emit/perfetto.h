/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfetto.h - the pieces of the Perfetto output (out-perfetto.c): records as
 * FtraceEvent bytes (perfetto-event.c), the per-CPU bundles with their
 * compact_sched arrays (perfetto-bundle.c) and the tasks the events name
 * (perfetto-tasks.c). Events are encoded by hand (pb-write.h); the rare
 * packets (SystemInfo, ProcessTree, ...) through the protoc-c structs of
 * lib/out/trace.proto.
 */
#ifndef TM_PERFETTO_H
#define TM_PERFETTO_H

#include <stdio.h>
#include <stdbool.h>

#include "trace.pb-c.h"

#include "util/buf.h"
#include "util/internal.h"
#include "trace/tm-trace.h"
#include "events/tasks.h"

struct tep_handle;
struct tm_event_rec;
struct tm_pf_events;
struct tm_pf_ksyms;
struct tm_pf_tasks;

/* The kernel symbols one bundle's events refer to (perfetto-ksyms.c). */
struct tm_pf_refs {
	struct tm_buf	addrs;		/* uint64_t each, once per bundle */
	uint32_t	serial;		/* the bundle's, from tm_pf_ksyms_serial() */
};

/* A described generic event's GenericEventDescriptor, written once per trace. */
struct tm_pf_desc {
	struct tm_buf	bytes;
	bool		written;
};

/* A sched_switch (next_* in pid, prio, comm) or sched_waking, as compact_sched takes it. */
struct tm_pf_sched {
	bool	waking;
	int32_t	common_pid;
	int32_t	prev_pid, prev_prio;
	int64_t	prev_state;
	int32_t	pid, prio, target_cpu;
	uint32_t common_flags;
	char	comm[TM_COMM_LEN];
	char	prev_comm[TM_COMM_LEN];
};

/*
 * The event table of tep's events; printk (the file's printk formats, whose
 * bytes must stay valid while m lives) is read once an event has a kernel
 * string field. NULL + message.
 */
TM_HIDDEN struct tm_pf_events *tm_pf_events_new(struct tep_handle *tep, struct tm_pf_tasks *tasks,
					       struct tm_blob printk);
TM_HIDDEN void tm_pf_events_free(struct tm_pf_events *m);
/*
 * One record appended to b as an FtraceEventBundle.event field with
 * timestamp ts: its typed message when Perfetto has one for the event, else
 * a described or named generic event. *desc: the descriptor a described
 * event needs in its bundle (NULL for the others). The tasks it names go to
 * the task table. -1 when out of memory (message set).
 */
TM_HIDDEN int tm_pf_event_put(struct tm_pf_events *m, const struct tm_event_rec *rec,
			      uint64_t ts, struct tm_buf *b, struct tm_pf_desc **desc,
			      struct tm_pf_refs *refs);
/* The symbol table the events' function addresses are interned in. */
TM_HIDDEN struct tm_pf_ksyms *tm_pf_events_ksyms(struct tm_pf_events *m);
/* True when rec is a sched_switch or sched_waking with every field compact_sched needs. */
TM_HIDDEN bool tm_pf_sched_get(struct tm_pf_events *m, const struct tm_event_rec *rec,
			       struct tm_pf_sched *s);

/* One CPU's open FtraceEventBundle of one buffer (perfetto-bundle.c). */
struct tm_pf_bundle;

TM_HIDDEN struct tm_pf_bundle *tm_pf_bundle_new(void);
TM_HIDDEN void tm_pf_bundle_free(struct tm_pf_bundle *pb);
TM_HIDDEN size_t tm_pf_bundle_count(const struct tm_pf_bundle *pb);
TM_HIDDEN uint64_t tm_pf_bundle_first_ts(const struct tm_pf_bundle *pb);
/* A loss before the next event: the next bundle says so, compact_sched's state is void. */
TM_HIDDEN void tm_pf_bundle_lost(struct tm_pf_bundle *pb);
TM_HIDDEN bool tm_pf_bundle_has_lost(const struct tm_pf_bundle *pb);
/*
 * rec into the bundle: in compact_sched when compact allows it and it can
 * be, else as an event; its time written as rec->ts - base (the sequence
 * clock's, see out-perfetto.c). 1 when rec was a sched_switch or
 * sched_waking compact_sched considered, 0 otherwise, -1 when out of memory.
 */
TM_HIDDEN int tm_pf_bundle_add(struct tm_pf_bundle *pb, struct tm_pf_events *m,
			       struct tm_pf_tasks *tasks, const struct tm_event_rec *rec,
			       bool compact, uint64_t base);
/* The bundle's fields that are not events (cpu, clock...), given by the output. */
struct tm_pf_bundle_head {
	uint32_t	cpu;
	bool		named_clock;
	uint32_t	clock;
	bool		pair;		/* ftrace_timestamp / boot_timestamp */
	int64_t		pair_ftrace, pair_boot;
	uint32_t	seq;
	struct tm_pf_ksyms *ksyms;	/* the events' symbols, NULL: none */
	uint32_t	machine;	/* machine_id (perfetto-machine.c); 0: the first */
};
/* Write the bundle as one TracePacket to f and empty it. */
TM_HIDDEN int tm_pf_bundle_write(struct tm_pf_bundle *pb, const struct tm_pf_bundle_head *h,
				 FILE *f);

/* Kernel symbols interned per packet sequence (perfetto-ksyms.c). */
TM_HIDDEN struct tm_pf_ksyms *tm_pf_ksyms_new(struct tep_handle *tep);
TM_HIDDEN void tm_pf_ksyms_free(struct tm_pf_ksyms *k);
/* A new serial for a bundle that starts: its references are listed afresh. */
TM_HIDDEN uint32_t tm_pf_ksyms_serial(struct tm_pf_ksyms *k);
/*
 * *value: the iid of the symbol at addr, listed in refs for the bundle of
 * serial; the address itself when the file's kallsyms does not name it.
 * -1 when out of memory.
 */
TM_HIDDEN int tm_pf_ksyms_ref(struct tm_pf_ksyms *k, uint64_t addr, uint32_t serial,
			      struct tm_buf *refs, uint64_t *value);
/*
 * TracePacket.interned_data into b with the symbols of refs that sequence
 * seq has not had yet (sequence_flags on its first such packet).
 */
TM_HIDDEN void tm_pf_ksyms_put(struct tm_pf_ksyms *k, uint32_t seq, const struct tm_buf *refs,
			       struct tm_buf *b);

/* The tasks the events mention and their names (perfetto-tasks.c). */
TM_HIDDEN struct tm_pf_tasks *tm_pf_tasks_new(void);
TM_HIDDEN void tm_pf_tasks_free(struct tm_pf_tasks *t);
/* pid seen, named comm (NULL or "": no name). -1 when out of memory. */
TM_HIDDEN int tm_pf_tasks_see(struct tm_pf_tasks *t, int32_t pid, const char *comm);
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
