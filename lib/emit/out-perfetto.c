// SPDX-License-Identifier: GPL-2.0-only
/*
 * out-perfetto.c - the Perfetto output: a protobuf `Trace`, written one
 * TracePacket at a time (a Trace is nothing but repeated field 1). Records
 * collect in one open FtraceEventBundle per buffer and CPU (events in time
 * order, at most PF_BUNDLE_EVENTS, so memory stays flat); a loss closes the
 * open bundle and flags the next one. Each buffer is a packet sequence of its
 * own. Around them: a SystemInfo naming the traced kernel, a ClockSnapshot
 * when the trace clock is one of the system's and, at the end, a ProcessTree
 * of the tasks the events mention and FtraceStats from the file's per-CPU
 * kernel statistics.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pb-write.h"
#include "perfetto.h"
#include "tm-evout.h"
#include "trace/tm-trace.h"

#define PF_BUNDLE_EVENTS	1024
#define PF_MAX_SLOTS		(64 * 4096)	/* buffers x CPUs */

/* How a buffer's trace clock is told to Perfetto. */
struct pf_clock {
	bool				named;	/* ftrace_clock is set (not "boot") */
	bool				not_ns;	/* counts that are not ns, as if they were */
	Perfetto__Protos__FtraceClock	id;
	bool				pair;	/* its sequence needs an ftrace/boot pair */
	bool				paired;	/* ... and has had it */
	bool				based;	/* base is set */
	uint64_t			base;	/* boot time of the sequence clock's 0 */
	Perfetto__Protos__BuiltinClock	builtin; /* != UNKNOWN: a ClockSnapshot */
};

struct perfetto_output {
	struct tm_evout			base;
	FILE				*f;
	struct tm_pf_events		*events;
	struct tm_pf_tasks		*tasks;		/* the tasks the events mention */
	uint64_t			first_ts;
	struct tm_evout_info		info;
	struct pf_clock			*clocks;	/* per buffer */
	struct tm_pf_bundle		**bundles;	/* [buf * ncpus + cpu] */
	int				ncpus;
	int				nslots;
	bool				started;	/* the opening packets are out */
	int64_t				last_pair;	/* ftrace_timestamp of the last pair */
	int				sched_buf;	/* the buffer in compact_sched, -1: none yet */
	uint8_t				*pack;
	size_t				pack_cap;
};

static struct perfetto_output *to_pf(struct tm_evout *out)
{
	return (struct perfetto_output *)out;
}

/*
 * Perfetto's FtraceClock names boot (the default), local, global and
 * mono_raw. Other clocks counting ns are as coherent across CPUs as global
 * and go out as such. Perfetto maps a local or global clock to boot time
 * through a clock of the packet sequence, known only from the ftrace/boot
 * timestamp pairs of its bundles (see pair_bundle()). Counters that are not
 * ns (counter, uptime, x86-tsc without TSC2NSEC, other arch clocks) have no
 * FtraceClock: UNKNOWN makes Perfetto refuse the whole trace, so their
 * bundles name no clock and Perfetto reads the counts as boot-time ns.
 */
static struct pf_clock clock_of(const char *name, bool ts_in_ns)
{
	static const char *const local[] = { "local", "perf" };
	static const char *const global[] = { "global", "mono", "tai", "x86-tsc-nsec" };
	struct pf_clock c = { .named = true, .id = PERFETTO__PROTOS__FTRACE_CLOCK__FTRACE_CLOCK_UNKNOWN };
	size_t i;

	if (!name || !*name)
		name = "local";
	if (!strcmp(name, "boot")) {
		c.named = false;
		c.builtin = PERFETTO__PROTOS__BUILTIN_CLOCK__BUILTIN_CLOCK_BOOTTIME;
		return c;
	}
	if (!strcmp(name, "mono_raw")) {
		c.id = PERFETTO__PROTOS__FTRACE_CLOCK__FTRACE_CLOCK_MONO_RAW;
		c.builtin = PERFETTO__PROTOS__BUILTIN_CLOCK__BUILTIN_CLOCK_MONOTONIC_RAW;
		return c;
	}
	for (i = 0; i < TM_ARRAY_SIZE(local); i++)
		if (!strcmp(name, local[i]))
			c.id = PERFETTO__PROTOS__FTRACE_CLOCK__FTRACE_CLOCK_LOCAL;
	for (i = 0; i < TM_ARRAY_SIZE(global); i++)
		if (!strcmp(name, global[i]))
			c.id = PERFETTO__PROTOS__FTRACE_CLOCK__FTRACE_CLOCK_GLOBAL;
	if (ts_in_ns && !strcmp(name, "x86-tsc"))
		c.id = PERFETTO__PROTOS__FTRACE_CLOCK__FTRACE_CLOCK_GLOBAL;
	if (c.id == PERFETTO__PROTOS__FTRACE_CLOCK__FTRACE_CLOCK_UNKNOWN) {
		c.named = false;
		c.not_ns = true;
	} else {
		c.pair = true;
	}
	return c;
}

/* ---- packets ---- */

/* One `Trace.packet` field: tag, length, the packed TracePacket. */
static int write_packet(struct perfetto_output *po, Perfetto__Protos__TracePacket *pkt)
{
	size_t len, hdr;
	uint8_t *p;

	tm_pf_machine_stamp(pkt, &po->info);	/* one of several machines: its id */
	len = perfetto__protos__trace_packet__get_packed_size(pkt);
	if (len + 11 > po->pack_cap) {
		p = realloc(po->pack, len + 11);
		if (!p)
			return tm_fail(ENOMEM, "Perfetto packet of %zu bytes", len);
		po->pack = p;
		po->pack_cap = len + 11;
	}
	po->pack[0] = 0x0a;	/* field 1, length-delimited */
	hdr = 1 + pb_put_varint_at(po->pack + 1, len);
	perfetto__protos__trace_packet__pack(pkt, po->pack + hdr);
	if (fwrite_unlocked(po->pack, 1, hdr + len, po->f) != hdr + len)
		return tm_fail(errno, "write output");
	return 0;
}

static void packet_init(Perfetto__Protos__TracePacket *pkt, uint32_t seq, uint64_t ts)
{
	perfetto__protos__trace_packet__init(pkt);
	pkt->has_trusted_packet_sequence_id = 1;
	pkt->trusted_packet_sequence_id = seq;
	pkt->has_timestamp = 1;
	pkt->timestamp = ts;
}

/* The trace's time domain, when the top buffer's clock is one of the system's. */
static int write_clock_snapshot(struct perfetto_output *po, uint64_t ts)
{
	Perfetto__Protos__ClockSnapshot__Clock clock = PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT;
	Perfetto__Protos__ClockSnapshot__Clock *clocks[] = { &clock };
	Perfetto__Protos__ClockSnapshot snap = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
	Perfetto__Protos__TracePacket pkt;
	Perfetto__Protos__BuiltinClock b = po->clocks[0].builtin;

	if (b == PERFETTO__PROTOS__BUILTIN_CLOCK__BUILTIN_CLOCK_UNKNOWN)
		return 0;
	clock.has_clock_id = clock.has_timestamp = 1;
	clock.clock_id = (uint32_t)b;
	clock.timestamp = ts;
	snap.n_clocks = 1;
	snap.clocks = clocks;
	snap.has_primary_trace_clock = 1;
	snap.primary_trace_clock = b;
	packet_init(&pkt, 1, ts);
	pkt.timestamp_clock_id = (uint32_t)b;
	pkt.has_timestamp_clock_id = 1;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT;
	pkt.clock_snapshot = &snap;
	return write_packet(po, &pkt);
}

/*
 * A process with its name for each task the events mention, and the task as
 * its thread. Perfetto files a thread under process `tgid`, the idle task's
 * 0 when it is missing; trace.dat saves no tgids, so each thread is its own
 * tgid (as in the Chrome output). Without a Process entry the UI labels the
 * group "Process N": ProcessTree.Process.cmdline names it
 * (process_tracker's SetProcessMetadata). Written at the end, when the tasks
 * are known; it keeps the first event's time.
 */
static int write_process_tree(struct perfetto_output *po)
{
	Perfetto__Protos__ProcessTree tree = PERFETTO__PROTOS__PROCESS_TREE__INIT;
	size_t n = tm_pf_tasks_count(po->tasks), i = 0, k = 0;
	Perfetto__Protos__ProcessTree__Process *procs = NULL;
	Perfetto__Protos__ProcessTree__Thread *ths = NULL;
	Perfetto__Protos__TracePacket pkt;
	const char *comm;
	int32_t pid;
	int ret = -1;

	if (!n)
		return 0;
	tm_pf_tasks_cmdlines(po->tasks, po->info.cmdlines.data, po->info.cmdlines.len);
	procs = calloc(n, sizeof(*procs));
	ths = calloc(n, sizeof(*ths));
	tree.processes = calloc(n, sizeof(*tree.processes));
	tree.threads = calloc(n, sizeof(*tree.threads));
	if (!procs || !ths || !tree.processes || !tree.threads) {
		tm_fail(ENOMEM, "process tree");
		goto out;
	}
	for (; k < n && tm_pf_tasks_at(po->tasks, &i, &pid, &comm); k++) {
		perfetto__protos__process_tree__process__init(&procs[k]);
		procs[k].has_pid = 1;
		procs[k].pid = pid;
		procs[k].n_cmdline = *comm ? 1 : 0;
		perfetto__protos__process_tree__thread__init(&ths[k]);
		ths[k].has_tid = ths[k].has_tgid = 1;
		ths[k].tid = ths[k].tgid = pid;
		ths[k].name = *comm ? (char *)comm : NULL;
		tree.processes[k] = &procs[k];
		tree.threads[k] = &ths[k];
	}
	for (i = 0; i < k; i++)
		procs[i].cmdline = procs[i].n_cmdline ? &ths[i].name : NULL;
	tree.n_processes = tree.n_threads = k;
	packet_init(&pkt, 1, po->first_ts);
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE;
	pkt.process_tree = &tree;
	ret = write_packet(po, &pkt);
out:
	free(tree.processes);
	free(tree.threads);
	free(procs);
	free(ths);
	return ret;
}

/*
 * The traced kernel, from the file's UNAME option ("sysname nodename release
 * machine"; no version). trace_processor decodes sched_switch prev_state with
 * the bit layout of utsname.release and assumes 4.4 without it, showing
 * preempted (0x100) as "Waking" and idle (0x80) as "Wake Kill". Field numbers
 * from upstream's protos/perfetto/common/system_info.proto: Utsname sysname 1,
 * release 3, machine 4; SystemInfo utsname 1, num_cpus 8 (sysconf's
 * configured CPUs, as the file's CPU count is); TracePacket.system_info 45.
 * No page_size (6): the file has the ring buffer's sub-buffer size only.
 */
static int write_system_info(struct perfetto_output *po, uint64_t ts)
{
	Perfetto__Protos__Utsname uts = PERFETTO__PROTOS__UTSNAME__INIT;
	Perfetto__Protos__SystemInfo si = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
	Perfetto__Protos__TracePacket pkt;
	char *words[4] = { NULL }, *copy, *save = NULL, *w;
	int n = 0, ret;

	if (po->info.ncpus > 0) {
		si.has_num_cpus = 1;
		si.num_cpus = (uint32_t)po->info.ncpus;
	}
	copy = po->info.uname ? strdup(po->info.uname) : NULL;
	if (po->info.uname && !copy)
		return tm_fail(ENOMEM, "system info");
	for (w = copy ? strtok_r(copy, " ", &save) : NULL; w && n < 4;
	     w = strtok_r(NULL, " ", &save))
		words[n++] = w;
	if (n == 4) {
		uts.sysname = words[0];
		uts.release = words[2];
		uts.machine = words[3];
		si.utsname = &uts;
	}
	packet_init(&pkt, 1, ts);
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO;
	pkt.system_info = &si;
	ret = si.utsname || si.has_num_cpus ? write_packet(po, &pkt) : 0;
	free(copy);
	return ret;
}

static int start(struct perfetto_output *po, uint64_t ts)
{
	po->started = true;
	po->first_ts = ts;
	return write_system_info(po, ts) || write_clock_snapshot(po, ts) ? -1 : 0;
}

/* ---- bundles ---- */

/*
 * trace.dat keeps no reading of another clock taken with the trace clock, so
 * a sequence's pair says ftrace time t - base is boot time t: Perfetto then
 * shows the times report prints (ftrace_tokenizer.cc
 * HandleFtraceClockSnapshot; clock_tracker.cc converts exactly, ts - ftrace
 * + boot). The base is the sequence's first record: its events' times count
 * from there, a 5-byte varint for a recording of up to 34 s where the boot
 * times since the machine started took 7 (2 bytes of every FtraceEvent).
 * One pair per sequence, on its first bundle with events (bundles go out
 * per CPU, so their first times go backwards on one sequence; Perfetto would
 * take a later, lower pair as the clock going backwards and drop the rest
 * of the sequence). Perfetto also skips a pair whose ftrace_timestamp equals
 * the last one it took on any sequence (0 before the first): such a value
 * moves on by 1, the pair saying the same.
 */
static void pair_bundle(struct perfetto_output *po, struct pf_clock *c,
			struct tm_pf_bundle_head *h, uint64_t first)
{
	int64_t t = (int64_t)(first - c->base);

	if (!c->pair || c->paired)
		return;
	if (t == po->last_pair)
		t++;
	h->pair = true;
	h->pair_ftrace = t;
	h->pair_boot = t + (int64_t)c->base;
	c->paired = true;
	po->last_pair = t;
}

static int write_bundle(struct perfetto_output *po, int slot)
{
	struct tm_pf_bundle *pb = po->bundles[slot];
	int buf = slot / po->ncpus;
	struct pf_clock *c = &po->clocks[buf];
	struct tm_pf_bundle_head h = {
		.cpu = (uint32_t)(slot % po->ncpus),
		.named_clock = c->named,
		.clock = (uint32_t)c->id,
		.seq = (uint32_t)buf + 1,
		.ksyms = tm_pf_events_ksyms(po->events),
		.machine = po->info.machine > 0 ? (uint32_t)po->info.machine : 0,
	};

	if (!pb || (!tm_pf_bundle_count(pb) && !tm_pf_bundle_has_lost(pb)))
		return 0;
	if (tm_pf_bundle_count(pb))
		pair_bundle(po, c, &h, tm_pf_bundle_first_ts(pb));
	return tm_pf_bundle_write(pb, &h, po->f);
}

static struct tm_pf_bundle *bundle_of(struct perfetto_output *po, int buf, int cpu, int *slot)
{
	struct tm_pf_bundle *pb;

	if (buf < 0 || buf >= po->info.nbuffers || cpu < 0 || cpu >= po->ncpus) {
		tm_failx(EINVAL, "record of buffer %d CPU %d outside the file's %d CPUs", buf, cpu,
			 po->ncpus);
		return NULL;
	}
	*slot = buf * po->ncpus + cpu;
	pb = po->bundles[*slot];
	if (pb)
		return pb;
	pb = tm_pf_bundle_new();
	po->bundles[*slot] = pb;
	return pb;
}

/* A loss on a CPU: what came before goes out, the next bundle says so. */
static int mark_lost(struct perfetto_output *po, int buf, int cpu)
{
	struct tm_pf_bundle *pb;
	int slot;

	pb = bundle_of(po, buf, cpu, &slot);
	if (!pb || (tm_pf_bundle_count(pb) && write_bundle(po, slot)))
		return -1;
	tm_pf_bundle_lost(pb);
	return 0;
}

static int pf_event(struct tm_evout *out, const struct tm_event_rec *rec)
{
	struct perfetto_output *po = to_pf(out);
	struct tm_pf_bundle *pb;
	struct pf_clock *c;
	int slot, ret;

	if (!po->started && start(po, rec->ts))
		return -1;
	if (rec->missed && mark_lost(po, rec->buffer, rec->cpu))
		return -1;
	pb = bundle_of(po, rec->buffer, rec->cpu, &slot);
	if (!pb)
		return -1;
	c = &po->clocks[rec->buffer];
	if (c->pair && !c->based) {
		c->base = rec->ts;
		c->based = true;
	}
	/*
	 * trace_processor keeps one scheduling state per CPU for the whole
	 * trace: compact_sched for the first buffer with sched events only.
	 */
	ret = tm_pf_bundle_add(pb, po->events, po->tasks, rec,
			       po->sched_buf < 0 || po->sched_buf == rec->buffer, c->base);
	if (ret < 0)
		return -1;
	if (ret && po->sched_buf < 0)
		po->sched_buf = rec->buffer;
	if (tm_pf_bundle_count(pb) == PF_BUNDLE_EVENTS)
		return write_bundle(po, slot);
	return 0;
}

static int pf_lost(struct tm_evout *out, int buf, int cpu, int64_t missed)
{
	return missed ? mark_lost(to_pf(out), buf, cpu) : 0;
}

/* ---- kernel buffer statistics ---- */

/* One "key: value" line of a per_cpu/cpuN/stats text into its FtraceCpuStats field. */
static void stat_line(Perfetto__Protos__FtraceCpuStats *cs, const char *key, size_t klen,
		      const char *val)
{
	static const struct {
		const char	*key;
		size_t		has_off, off;
		bool		seconds;
	} map[] = {
#define STAT(k, f) { k, offsetof(Perfetto__Protos__FtraceCpuStats, has_##f), \
		     offsetof(Perfetto__Protos__FtraceCpuStats, f), false }
#define STAT_S(k, f) { k, offsetof(Perfetto__Protos__FtraceCpuStats, has_##f), \
		       offsetof(Perfetto__Protos__FtraceCpuStats, f), true }
		STAT("entries", entries),		STAT("overrun", overrun),
		STAT("commit overrun", commit_overrun),	STAT("bytes", bytes_read),
		STAT_S("oldest event ts", oldest_event_ts), STAT_S("now ts", now_ts),
		STAT("dropped events", dropped_events),	STAT("read events", read_events),
#undef STAT
#undef STAT_S
	};
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(map); i++) {
		if (strlen(map[i].key) != klen || memcmp(map[i].key, key, klen))
			continue;
		*(protobuf_c_boolean *)((char *)cs + map[i].has_off) = 1;
		if (map[i].seconds)
			*(double *)((char *)cs + map[i].off) = strtod(val, NULL);
		else
			*(uint64_t *)((char *)cs + map[i].off) = strtoull(val, NULL, 10);
	}
}

/* The CPUSTAT texts ("CPU: n" starts each) as one FtraceStats packet. */
static int write_stats(struct perfetto_output *po)
{
	Perfetto__Protos__FtraceStats st = PERFETTO__PROTOS__FTRACE_STATS__INIT;
	const char *s = po->info.cpustat.data, *end = s + po->info.cpustat.len, *nl, *colon;
	Perfetto__Protos__FtraceCpuStats *cs = NULL, **all = NULL;
	Perfetto__Protos__TracePacket pkt;
	char val[64];
	size_t n = 0, vlen;
	int ret = -1;

	for (; s && s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s)) ?: end;
		colon = memchr(s, ':', (size_t)(nl - s));
		if (!colon)
			continue;
		vlen = (size_t)(nl - colon - 1) < sizeof(val) ? (size_t)(nl - colon - 1)
							       : sizeof(val) - 1;
		memcpy(val, colon + 1, vlen);
		val[vlen] = '\0';
		if (colon - s == 3 && !memcmp(s, "CPU", 3)) {
			void *p = realloc(all, (n + 1) * sizeof(*all));

			cs = p ? calloc(1, sizeof(*cs)) : NULL;
			if (p)
				all = p;
			if (!cs) {
				tm_fail(ENOMEM, "kernel statistics");
				goto out;
			}
			perfetto__protos__ftrace_cpu_stats__init(cs);
			all[n++] = cs;
			cs->has_cpu = 1;
			cs->cpu = strtoull(val, NULL, 10);
		} else if (cs) {
			stat_line(cs, s, (size_t)(colon - s), val);
		}
	}
	st.has_phase = 1;
	st.phase = PERFETTO__PROTOS__FTRACE_STATS__PHASE__END_OF_TRACE;
	st.n_cpu_stats = n;
	st.cpu_stats = all;
	packet_init(&pkt, 1, 0);
	pkt.has_timestamp = 0;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_STATS;
	pkt.ftrace_stats = &st;
	ret = n ? write_packet(po, &pkt) : 0;
out:
	while (n)
		free(all[--n]);
	free(all);
	return ret;
}

/* ---- the output interface ---- */

static int pf_begin(struct tm_evout *out, const struct tm_evout_info *info)
{
	struct perfetto_output *po = to_pf(out);
	int i;

	po->info = *info;
	po->ncpus = info->cpu_slots > 0 ? info->cpu_slots : 1;
	if (info->nbuffers < 1 || (long)info->nbuffers * po->ncpus > PF_MAX_SLOTS)
		return tm_failx(EINVAL, "%d buffers of %d CPUs: too many for one trace",
				info->nbuffers, po->ncpus);
	po->nslots = info->nbuffers * po->ncpus;
	po->tasks = tm_pf_tasks_new();
	po->events = po->tasks ? tm_pf_events_new(info->tep, po->tasks, info->printk) : NULL;
	po->clocks = calloc((size_t)info->nbuffers, sizeof(*po->clocks));
	po->bundles = calloc((size_t)po->nslots, sizeof(*po->bundles));
	if (!po->events || !po->tasks || !po->clocks || !po->bundles)
		return tm_fail(ENOMEM, "Perfetto output");
	for (i = 0; i < info->nbuffers; i++) {
		po->clocks[i] = clock_of(info->buffers[i].clock, info->ts_in_ns);
		if (po->clocks[i].not_ns && !po->base.warning[0])
			snprintf(po->base.warning, sizeof(po->base.warning),
				 "trace clock '%.40s' does not count nanoseconds: Perfetto shows "
				 "its counts as nanoseconds", info->buffers[i].clock);
	}
	return 0;
}

static int pf_end(struct tm_evout *out)
{
	struct perfetto_output *po = to_pf(out);
	int slot;

	if (!po->started && start(po, 0))
		return -1;
	for (slot = 0; slot < po->nslots; slot++)
		if (write_bundle(po, slot))
			return -1;
	if (write_process_tree(po) || write_stats(po))
		return -1;
	if (fflush(po->f))
		return tm_fail(errno, "write output");
	return 0;
}

static void pf_free(struct tm_evout *out)
{
	struct perfetto_output *po = to_pf(out);
	int slot;

	for (slot = 0; po->bundles && slot < po->nslots; slot++)
		tm_pf_bundle_free(po->bundles[slot]);
	free(po->bundles);
	free(po->clocks);
	free(po->pack);
	tm_pf_events_free(po->events);
	tm_pf_tasks_free(po->tasks);
	free(po);
}

static const struct tm_evout_ops perfetto_ops = {
	.begin = pf_begin,
	.event = pf_event,
	.lost = pf_lost,
	.end = pf_end,
	.free = pf_free,
};

struct tm_evout *tm_evout_perfetto_new(FILE *f)
{
	struct perfetto_output *po = calloc(1, sizeof(*po));

	if (!po) {
		tm_fail(ENOMEM, "Perfetto output");
		return NULL;
	}
	po->base.ops = &perfetto_ops;
	po->f = f;
	po->sched_buf = -1;
	return &po->base;
}
