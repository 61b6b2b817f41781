// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfetto-machine.c - the Perfetto output of one of several machines on one
 * timeline (convert of files from different machines): every packet of a
 * machine other than the first carries its machine_id.
 *
 * How upstream reads it (google/perfetto, src/trace_processor/importers/
 * proto/proto_trace_reader.cc): ProtoTraceReader::ParsePacket routes a packet
 * whose machine_id is non-zero to a reader of that machine's own
 * (CreateRemoteMachineReader: a forked per-machine context, so pids, CPUs,
 * SystemInfo and clocks are per machine; "SetPidZeroIsUpidZeroIdleProcess").
 * Packets without machine_id are the host's. The first machine is written
 * first and without an id, so it is the host: a remote machine met before
 * any host packet would be "adopted" as the host (ResolveAdoptedMachine).
 * A remote machine without RemoteClockSync packets gets a zero-offset edge
 * from its BOOTTIME to trace time (AddDeferredClockSync(BOOTTIME) there;
 * ClockTracker::FlushDeferredClockSync: "the plain identity case"), and our
 * bundles say trace time t is boot time t on every machine: the wall-clock
 * times the files' DATE options give line up as they are.
 *
 * Each machine numbers its described generic events from 65536 on its own:
 * the forked context registers its own modules (multi_machine_trace_manager.cc
 * CreateContext: RegisterDefaultModules), so each machine has its own
 * FtraceModuleImpl and GenericFtraceTracker, whose descriptors are keyed by
 * field id within that machine (ftrace_module_impl.cc, generic_ftrace_tracker.h).
 */
#include "perfetto.h"
#include "tm-evout.h"

void tm_pf_machine_stamp(Perfetto__Protos__TracePacket *pkt, const struct tm_evout_info *info)
{
	if (info->machine <= 0)
		return;
	pkt->has_machine_id = 1;
	pkt->machine_id = (uint32_t)info->machine;
}
