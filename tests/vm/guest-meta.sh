#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# guest-meta.sh - what the kernel's meta page says (TM_VM_KERNEL=K bash tests/vm/run.sh
# guest-meta.sh, TM_VM_BATS=-): for each sub-buffer size, a small overwritten ring of
# one CPU, the meta page's fields before and after a GET_READER, with the two words
# after "read" (reserved1/2 in 6.10's uapi, pages_lost/pages_touched in the pKVM
# remotes series) beside the per_cpu stats (tests/vm/meta-probe.c). A diagnostic,
# not a test.
T=/sys/kernel/tracing
I=$T/instances/meta
# what the kernel offers beside the meta page (the DESIGN.md table of kernels)
echo "TMVM: # tracers: $(cat $T/available_tracers)"
grep -qw hist $T/events/sched/sched_switch/trigger && hist=yes || hist=no
echo "TMVM: # hist triggers: $hist"
if echo 'p:tmmeta/open do_sys_openat2 dfd=%di' >>$T/kprobe_events 2>/dev/null; then
	echo "TMVM: # kprobe_events: $(cat $T/kprobe_events)"
	echo '-:tmmeta/open' >>$T/kprobe_events
else
	echo "TMVM: # kprobe_events: refused"
fi
cc -O2 -Wall -o /tmp/meta-probe "$(dirname "$0")/meta-probe.c" || exit 1
for kb in 4 8 64; do
	mkdir $I
	echo "$kb" >$I/buffer_subbuf_size_kb
	echo 64 >$I/buffer_size_kb
	echo 1 >$I/events/sched/enable
	for i in $(seq 1 4000); do echo "meta-probe-$i" >$I/trace_marker; done
	sleep 0.2
	echo "TMVM: # subbuf ${kb} KiB: $(tr '\n' ' ' <$I/per_cpu/cpu0/stats)"
	taskset -c 0 /tmp/meta-probe "$I/per_cpu/cpu0/trace_pipe_raw" 3 | sed 's/^/TMVM: # /'
	rmdir $I
done
