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
	! grep -q "$OTHER_PATH_WORD" /tmp/err
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
	! grep -v '^vfs_' /tmp/funcs
	! grep -qx vfs_read /tmp/funcs
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
	! grep -E 'funcgraph_entry: *--> .* \(([2-9]|[0-9][0-9]+)\)$' /tmp/r.txt
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
	! grep -v -e do_sys_openat2 -e getname -e 'funcgraph_exit: .*| *}$' /tmp/s.txt
	same_top /tmp/top.before
}

case_list_functions() {
	[ "$(tracemap list -f '^vfs_read$')" = vfs_read ]
	[ "$(tracemap list -f | wc -l)" = "$(wc -l <$T/available_filter_functions)" ]
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
summary
