#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# guest-tests.sh - the guest test list (run by tests/vm/guest-init in /tmp).
. "$(dirname "$0")/guest-lib.sh"

case_boot() {
	grep -q function_graph $T/available_tracers
}

# The path every CPU records through: the mapping on 6.10+, read() before.
case_path() {
	snap_top >/tmp/top.before
	timeout -s KILL 60 tracemap record -v -e sched -o /tmp/sched.dat -- sleep 0.5 2>/tmp/err
	cat /tmp/err
	grep -q "cpu0: $PATH_WORD" /tmp/err
	grep -q "cpu1: $PATH_WORD" /tmp/err
	! grep -q "$OTHER_PATH_WORD" /tmp/err || return 1
	tracemap report /tmp/sched.dat >/tmp/r.txt
	grep -q 'sched_switch:' /tmp/r.txt
	same_top /tmp/top.before
}

case_path_report() {
	same_report /tmp/sched.dat
	[ "$(wc -l </tmp/tc.txt)" -gt 10 ]
}

case_path_stream() {
	snap_top >/tmp/top.before
	timeout -s KILL 60 tracemap stream -e sched -- sleep 0.5 >/tmp/s.txt 2>/tmp/err
	cat /tmp/err
	grep -q 'sched_switch:' /tmp/s.txt
	same_top /tmp/top.before
}

# 3000 numbered trace_marker lines beside the sched events, with sub-buffers of $1 KiB:
# the path of every CPU, tracemap's report equal to trace-cmd's, every marker there
# unless the file says events were lost.
case_markers() {
	kb=$1
	# 6.1 has no buffer_subbuf_size_kb: its pages are 4 KiB
	timeout -s KILL 120 tracemap record -v -B mk ${2:+--subbuf-size "$kb"} -b 2048 -e sched \
		-e ftrace:print -o /tmp/mk$kb.dat -- sh -c "i=0; while [ \$i -lt 3000 ]; do
			echo tm-marker-\$i >$T/instances/mk/trace_marker; i=\$((i + 1)); done" \
		2>/tmp/err
	cat /tmp/err
	grep -q "cpu0: $PATH_WORD" /tmp/err
	same_report /tmp/mk$kb.dat
	n=$(grep -c 'tm-marker-[0-9]*$' /tmp/tc.txt)
	lost=$(grep -c 'LOST.*EVENTS' /tmp/tc.txt || true)
	echo "$n markers, $lost loss notes"
	[ "$n" = 3000 ] || [ "$lost" -gt 0 ]
	[ "$(grep -o 'tm-marker-[0-9]*$' /tmp/tc.txt | sort -u | wc -l)" = "$n" ]
}

# A persistent instance (reserve_mem, trace_instance=boot_map@trace): 6.12 refuses to
# map it (ENODEV), so record reads it with read(); 6.16+ maps it.
case_boot_map() {
	[ -d $T/instances/boot_map ] || { echo "no boot_map instance"; return 1; }
	rc=0
	timeout -s KILL 60 tracemap record -v -B boot_map --reuse-instance -e sched \
		-o /tmp/bm.dat -- sleep 0.3 2>/tmp/err || rc=$?
	cat /tmp/err
	[ $rc = 0 ]
	case $KV in
	6.1[0-5]) grep -q 'cpu0: read() path (mmap: No such device)' /tmp/err ;;
	*) grep -q 'cpu0: mmap path' /tmp/err ;;
	esac
	same_report /tmp/bm.dat
	grep -q 'sched_switch:' /tmp/tc.txt
	[ -d $T/instances/boot_map ]
}

# The function names of the function events of trace-cmd's report of $1 into /tmp/funcs.
functions_of() {
	trace-cmd report "$1" | awk '/ function: / { print $NF }' >/tmp/funcs
}

# The function tracer runs in tracemap's instance; -l and -n shape what it records.
case_function() {
	snap_top >/tmp/top.before
	timeout -s KILL 60 tracemap record -v -p function -l 'vfs_*' -n vfs_read \
		-o /tmp/func.dat -- cat /etc/os-release >/dev/null 2>/tmp/err
	cat /tmp/err
	grep -q 'instance tracemap-' /tmp/err
	functions_of /tmp/func.dat
	sort /tmp/funcs | uniq -c
	grep -qx vfs_open /tmp/funcs
	! grep -v '^vfs_' /tmp/funcs || return 1
	! grep -qx vfs_read /tmp/funcs || return 1
	same_top /tmp/top.before
}

case_function_report() {
	same_report /tmp/func.dat
	same_report /tmp/func.dat -N
}

# With --func-stack, each function event is followed by a kernel stack.
case_func_stack() {
	snap_top >/tmp/top.before
	timeout -s KILL 60 tracemap record -q -p function -l vfs_open --func-stack \
		-o /tmp/stack.dat -- cat /etc/os-release >/dev/null
	trace-cmd report /tmp/stack.dat >/tmp/r.txt
	grep -A1 ' function: *vfs_open' /tmp/r.txt | grep -q 'kernel_stack:'
	same_top /tmp/top.before
}

# function_graph is refused in an instance on 6.1: the recording runs at the top level,
# events (-e) and options (-O) too.
case_graph() {
	snap_top >/tmp/top.before
	timeout -s KILL 60 tracemap record -v -p function_graph -g do_sys_openat2 \
		--max-graph-depth 2 -O funcgraph-proc -e sched:sched_switch -o /tmp/graph.dat \
		-- cat /etc/os-release >/dev/null 2>/tmp/err
	cat /tmp/err
	grep -q 'tracer function_graph runs only at the top level' /tmp/err
	trace-cmd report -N /tmp/graph.dat >/tmp/r.txt
	grep -q 'sched_switch:' /tmp/r.txt
	grep -q 'funcgraph_entry: *--> do_sys_openat2 (0)$' /tmp/r.txt
	grep -q 'funcgraph_entry: *--> .* (1)$' /tmp/r.txt
	! grep -E 'funcgraph_entry: *--> .* \(([2-9]|[0-9][0-9]+)\)$' /tmp/r.txt || return 1
	same_top /tmp/top.before
}

case_graph_report() {
	same_report /tmp/graph.dat -N
}

# Another tracer at the top level (blk: cheap to set) is left alone: one line, no change.
case_graph_busy() {
	echo blk >$T/current_tracer
	snap_top >/tmp/top.before
	# (-g: 6.12+ run function_graph without -g in the instance)
	one_line_error timeout -s KILL 60 tracemap record -p function_graph -g do_sys_openat2 \
		-o /tmp/x.dat -- true
	grep -q 'current_tracer is in use (not nop)' /tmp/err
	same_top /tmp/top.before
	echo nop >$T/current_tracer
}

# A function the kernel refuses at the top level: its refusal, every file restored.
case_graph_refused() {
	snap_top >/tmp/top.before
	one_line_error timeout -s KILL 60 tracemap record -p function_graph -g nosuch_func \
		-o /tmp/x.dat -- true
	grep -q "set_graph_function: the kernel refused 'nosuch_func'" /tmp/err
	one_line_error timeout -s KILL 60 tracemap record -B mine -p function_graph \
		-g do_sys_openat2 -o /tmp/x.dat -- true
	grep -q "runs only at the top level on this kernel, not in instance mine" /tmp/err
	[ ! -e /tmp/x.dat ]
	same_top /tmp/top.before
}

# Until SIGTERM: funcgraph events on stdout, every top-level file restored. -l keeps
# the kernel from patching every function (20 s under TCG; case_graph does that).
case_graph_stream() {
	snap_top >/tmp/top.before
	timeout -s KILL 90 tracemap stream -p function_graph -l do_sys_openat2 -l 'getname*' \
		>/tmp/s.txt &
	bg=$!
	wait_top_tracing function_graph
	cat /etc/os-release >/dev/null
	sleep 0.5
	signal_tracemap TERM $bg
	wait $bg
	grep -q 'funcgraph_entry:.*do_sys_openat2' /tmp/s.txt
	# an exit that is not a leaf is a bare "}" (6.12+ print no name after it)
	! grep -v -e do_sys_openat2 -e getname -e 'funcgraph_exit: .*| *}$' /tmp/s.txt || return 1
	same_top /tmp/top.before
}

case_list_functions() {
	[ "$(tracemap list -f '^vfs_read$')" = vfs_read ]
	[ "$(tracemap list -f | wc -l)" = "$(wc -l <$T/available_filter_functions)" ]
}

# --kprobe: probes of group tracemap_PID in kprobe_events, gone on every exit path.
# The workload opens /tmp/kp-target KP_N times from one shell (a builtin redirect).
KP_N=20
KP_LOOP="i=0; while [ \$i -lt $KP_N ]; do : </tmp/kp-target; i=\$((i + 1)); done"
: >/tmp/kp-target

# No probe of any tracemap run is left, nor its events or instance.
kprobes_gone() {
	cat $T/kprobe_events
	[ ! -s $T/kprobe_events ]
	! grep tracemap_ $T/dynamic_events || return 1
	! ls -d $T/events/tracemap_* $T/instances/tracemap-* 2>/dev/null || return 1
}

# Until a tracemap-PID instance traces (tracemap in the background is ready), at
# most 60 s of uptime; sets KP_PID to that PID.
wait_instance_tracing() {
	local end d
	end=$(awk '{ print int($1) + 60 }' /proc/uptime)
	while [ "$(awk '{ print int($1) }' /proc/uptime)" -lt "$end" ]; do
		for d in $T/instances/tracemap-*; do
			[ "$(cat "$d/tracing_on" 2>/dev/null)" = 1 ] || continue
			KP_PID=${d##*tracemap-}
			return 0
		done
		sleep 0.1
	done
	echo "no tracemap instance traced within 60 s"
	return 1
}

# An entry probe with fetch arguments and a %return probe: KP_N opens of the file in
# the entry events, as many returns as entries, report equal to trace-cmd's.
case_kprobe() {
	snap_top >/tmp/top.before
	timeout -s KILL 60 tracemap record -v -F \
		--kprobe='do_sys_openat2 dfd=%di:s32 name=+0(%si):ustring' \
		--kprobe='do_sys_openat2%return ret=$retval:s32' \
		-o /tmp/kp.dat -- sh -c "$KP_LOOP" 2>/tmp/err
	cat /tmp/err
	kprobes_gone
	same_top /tmp/top.before
	trace-cmd report /tmp/kp.dat >/tmp/r.txt
	grep -m 2 do_sys_openat2 /tmp/r.txt
	entries=$(grep -c ' do_sys_openat2: ' /tmp/r.txt)
	returns=$(grep -c ' do_sys_openat2__return: .* ret=' /tmp/r.txt)
	ours=$(grep -c ' do_sys_openat2: .* dfd=-100 name="/tmp/kp-target"$' /tmp/r.txt)
	echo "$entries entries ($ours of /tmp/kp-target), $returns returns"
	[ "$ours" = $KP_N ]
	[ "$returns" = "$entries" ]
	tracemap report --json /tmp/kp.dat | jq -e -s '[.[] | select(.event ==
		"do_sys_openat2__return")][0].system | test("^tracemap_[0-9]+$")' >/dev/null
}

case_kprobe_report() {
	same_report /tmp/kp.dat
}

# stream: the same probe twice is do_sys_openat2 and do_sys_openat2_2, each hit alike.
case_kprobe_stream() {
	timeout -s KILL 60 tracemap stream -F --kprobe='do_sys_openat2 name=+0(%si):ustring' \
		--kprobe=do_sys_openat2 -- sh -c "$KP_LOOP" >/tmp/s.txt
	kprobes_gone
	[ "$(grep -c ' do_sys_openat2: .* name="/tmp/kp-target"$' /tmp/s.txt)" = $KP_N ]
	[ "$(grep -c ' do_sys_openat2_2: ' /tmp/s.txt)" = "$(grep -c ' do_sys_openat2: ' /tmp/s.txt)" ]
}

# Until SIGINT: the opens made meanwhile are in the file, the probe is gone.
case_kprobe_sigint() {
	timeout -s KILL 60 tracemap record -q --kprobe='do_sys_openat2 name=+0(%si):ustring' \
		-o /tmp/kpi.dat &
	bg=$!
	wait_instance_tracing
	grep "^p:tracemap_$KP_PID/do_sys_openat2 " $T/kprobe_events
	for i in 1 2 3; do : </tmp/kp-target; done
	signal_tracemap INT $bg
	wait $bg
	kprobes_gone
	[ "$(trace-cmd report /tmp/kpi.dat | grep -c 'name="/tmp/kp-target"$')" = 3 ]
}

# Refused at the start (a probe the kernel refuses after one it took, a bad fetch
# argument, a filter after the probes were made): one line, nothing left.
case_kprobe_refused() {
	snap_top >/tmp/top.before
	one_line_error timeout -s KILL 60 tracemap record --kprobe='do_sys_openat2 dfd=%di' \
		--kprobe=tm_no_such_function -o /tmp/x.dat -- true
	grep -q "^tracemap record: kprobe 'tm_no_such_function': add 'p:tracemap_[0-9]*/tm_no_such_function tm_no_such_function' to dynamic_events: " /tmp/err
	kprobes_gone
	one_line_error timeout -s KILL 60 tracemap record --kprobe='do_sys_openat2 dfd=%zz' \
		-o /tmp/x.dat -- true
	grep -q "^tracemap record: kprobe 'do_sys_openat2 dfd=%zz': .*: Invalid argument: .*(position [0-9]*: " /tmp/err
	kprobes_gone
	one_line_error timeout -s KILL 60 tracemap stream --kprobe=do_sys_openat2 \
		-e sched:sched_switch -f 'nosuch == 1' -- true
	grep -q "bad filter 'nosuch == 1' for event 'sched:sched_switch'" /tmp/err
	kprobes_gone
	[ ! -e /tmp/x.dat ]
	same_top /tmp/top.before
}

# A SIGKILLed recorder's kprobe stays with its instance (reset says so) until recover
# has its ring, then goes with it.
case_kprobe_recover() {
	cd /tmp
	timeout -s KILL 60 tracemap record -q --kprobe=do_sys_openat2 -o /tmp/kpk.dat &
	bg=$!
	wait_instance_tracing
	signal_tracemap KILL $bg
	wait $bg || true
	grep "^p:tracemap_$KP_PID/do_sys_openat2 " $T/kprobe_events
	tracemap reset 2>/tmp/err
	cat /tmp/err
	grep -q "kprobe tracemap_$KP_PID/do_sys_openat2 kept with its instance" /tmp/err
	tracemap recover /tmp/kpk.dat 2>/tmp/err
	cat /tmp/err
	grep -q "the instance is removed, with its kprobes$" /tmp/err
	kprobes_gone
	trace-cmd report /tmp/kpk.dat | grep -q ' do_sys_openat2: '
}

# Without its spools a SIGKILLed recorder's kprobe goes with reset --stale.
case_kprobe_reset() {
	cd /tmp
	timeout -s KILL 60 tracemap record -q --kprobe='do_sys_openat2%return' -o /tmp/kpr.dat &
	bg=$!
	wait_instance_tracing
	signal_tracemap KILL $bg
	wait $bg || true
	rm -f /tmp/kpr.dat*
	grep "^r[0-9]*:tracemap_$KP_PID/do_sys_openat2__return " $T/kprobe_events
	tracemap reset >/tmp/out
	grep -qx "would remove kprobe tracemap_$KP_PID/do_sys_openat2__return" /tmp/out
	tracemap reset --stale >/tmp/out
	cat /tmp/out
	grep -qx "removed tracemap-$KP_PID" /tmp/out
	grep -qx "removed kprobe tracemap_$KP_PID/do_sys_openat2__return" /tmp/out
	kprobes_gone
}

# -R 'hist:...': the kernel's histogram on stderr at stop, before the instance goes:
# each exec of /bin/true counted, for the event with the trigger only.
case_hist() {
	snap_top >/tmp/top.before
	timeout -s KILL 60 tracemap record -e sched:sched_process_exec -R 'hist:keys=filename' \
		-e sched:sched_switch -o /tmp/h.dat -- sh -c 'for i in 1 2 3 4 5 6 7; do
		/bin/true; done' 2>/tmp/err
	cat /tmp/err
	grep -qx '# events/sched/sched_process_exec/hist' /tmp/err
	grep -q '^# trigger info: hist:keys=filename:vals=hitcount' /tmp/err
	grep -Eq '^\{ filename: /bin/true +\} hitcount: +7$' /tmp/err
	! grep 'sched_switch/hist' /tmp/err || return 1
	timeout -s KILL 60 tracemap stream -e sched:sched_process_exec \
		-R 'hist:keys=common_pid.execname' -- sh -c '/bin/true; /bin/true' >/dev/null 2>/tmp/err
	cat /tmp/err
	grep -qx '# events/sched/sched_process_exec/hist' /tmp/err
	grep -Eq '^\{ common_pid: +true +\[ *[0-9]+\] +\} hitcount: +[12]$' /tmp/err
	same_top /tmp/top.before
}

t "guest: the $KV kernel offers function_graph" case_boot
t "record on $KV: the $PATH_WORD on every CPU, sched events" case_path
t "record on $KV: report --compat=3.1 equals trace-cmd 3.1.6's" case_path_report
t "stream on $KV: sched events through the $PATH_WORD" case_path_stream
if [ -e $T/buffer_subbuf_size_kb ]; then
	for kb in 4 8 16 64; do
		t "record on $KV, $kb KiB sub-buffers: 3000 markers, report equals trace-cmd's" \
			"case_markers $kb set"
	done
else
	t "record on $KV, 4 KiB pages: 3000 markers, report equals trace-cmd's" "case_markers 4"
fi
[ -d $T/instances/boot_map ] &&
	t "record on $KV: the persistent instance boot_map, -B --reuse-instance" case_boot_map
t "record -p function -l 'vfs_*' -n vfs_read: in the instance, only those functions" \
	case_function
t "record -p function: report (and -N) equals trace-cmd 3.1.6's" case_function_report
t "record -p function --func-stack: a kernel stack after each function" case_func_stack
t "record -p function_graph -g --max-graph-depth 2 -e: top level, depth < 2, restored" \
	case_graph
t "record -p function_graph: report -N equals trace-cmd 3.1.6's" case_graph_report
t "record -p function_graph: another top-level tracer is refused, left alone" case_graph_busy
t "record -p function_graph: refused -g and -B are one line, top level restored" \
	case_graph_refused
t "stream -p function_graph -l: those functions until SIGTERM, top level restored" \
	case_graph_stream
t "list -f: the kernel's available_filter_functions" case_list_functions
if [ -e $T/kprobe_events ]; then
	t "record --kprobe with fetch args and %return: every open, removed at stop" case_kprobe
	t "record --kprobe: report --compat=3.1 equals trace-cmd 3.1.6's" case_kprobe_report
	t "stream --kprobe twice on one symbol: two events, each hit alike" case_kprobe_stream
	t "record --kprobe until SIGINT: the hits in the file, the probe removed" \
		case_kprobe_sigint
	t "record --kprobe refused (symbol, fetch arg, filter): one line, nothing left" \
		case_kprobe_refused
	t "recover of a SIGKILLed --kprobe recording removes its kprobe" case_kprobe_recover
	t "reset --stale removes a SIGKILLed recorder's kprobe" case_kprobe_reset
fi
grep -qw hist $T/events/sched/sched_switch/trigger &&
	t "record and stream -R hist: the kernel's histogram printed at stop" case_hist
summary
