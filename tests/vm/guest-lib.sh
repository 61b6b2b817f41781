#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# guest-lib.sh - helpers of the guest scripts: numbered cases reported on the
# console as "TMVM: ok N - name" or "TMVM: not ok N - name" with the case's output.
T=/sys/kernel/tracing
n=0
# the kernel's version (6.1, 6.12, 7.3) and the path record -v names for its CPUs
KV=$(uname -r | cut -d. -f1,2)
case $KV in
6.[0-9]) PATH_WORD="read() path" OTHER_PATH_WORD="mmap path" ;;
*) PATH_WORD="mmap path" OTHER_PATH_WORD="read() path" ;;
esac

# Uptime in seconds (two decimals): boot and case times on the console.
uptime_s() {
	cut -d' ' -f1 /proc/uptime
}
START=$(uptime_s)

# t NAME FUNCTION: run FUNCTION in a subshell; its output is shown only when it fails.
# With TM_ONLY set (tm.only= on the kernel command line), only names containing it run.
t() {
	local start
	case $1 in *"${TM_ONLY:-}"*) ;; *) return 0 ;; esac
	n=$((n + 1))
	start=$(uptime_s)
	if ( set -e; $2 ) >/tmp/case.log 2>&1; then
		echo "TMVM: ok $n - $1"
	else
		echo "TMVM: not ok $n - $1"
		tail -n 25 /tmp/case.log | sed 's/^/TMVM: #   /'
	fi
	echo "TMVM: #   $(echo "$(uptime_s) - $start" | bc) s"
}

summary() {
	echo "TMVM: # $n cases run, guest booted in $START s, tests took" \
		"$(echo "$(uptime_s) - $START" | bc) s"
}

# The top-level tracing state: every file a recording may touch, one "file: text" each.
TOP_FILES="current_tracer tracing_on trace_clock buffer_size_kb buffer_percent set_event
	set_event_pid set_event_notrace_pid set_ftrace_filter set_ftrace_notrace
	set_graph_function set_graph_notrace max_graph_depth tracing_cpumask"
snap_top() {
	for f in $TOP_FILES options/*; do
		[ -r "$T/$f" ] && echo "$f: $(cat "$T/$f" 2>&1)"
	done
	echo "instances: $(ls "$T/instances")"
	echo "enabled: $(cat "$T/events/enable")"
}

# The snapshot taken before must equal the top level now.
same_top() {
	snap_top >/tmp/top.after
	diff -u "$1" /tmp/top.after
}

# Until the top level traces with tracer $1 (tracing_on goes 0 while tracemap sets
# it up, then 1), bounded: 60 s.
wait_top_tracing() {
	i=0
	while [ $i -lt 600 ] && ! { [ "$(cat $T/current_tracer)" = "$1" ] &&
				     [ "$(cat $T/tracing_on)" = 1 ]; }; do
		sleep 0.1
		i=$((i + 1))
	done
}

# Send signal $1 to tracemap started in the background (pid $2) under busybox's
# timeout, which runs the command as itself and times it from a child.
signal_tracemap() {
	for p in $2 $(cat /proc/$2/task/$2/children 2>/dev/null); do
		[ "$(cat /proc/$p/comm 2>/dev/null)" = tracemap ] && kill -"$1" "$p"
	done
	return 0
}

# tracemap and trace-cmd 3.1.6 print FILE alike (extra report options in $2...).
same_report() {
	f=$1
	shift
	timeout 60 tracemap report --compat=3.1 "$@" "$f" >/tmp/tm.txt
	timeout 60 trace-cmd report "$@" "$f" >/tmp/tc.txt 2>/tmp/tc.err
	diff -u /tmp/tc.txt /tmp/tm.txt | head -n 20
	cmp -s /tmp/tc.txt /tmp/tm.txt
}

# The kernel allocates the top-level buffer's full size on the first event enabled
# (buffer_size_kb "7 (expanded: 1408)" becomes "1410"): anywhere on 6.1, at the top
# level on 6.12+. Once, before any snapshot, so that this lazy allocation is not taken
# for a change a test made.
mkdir $T/instances/warm-up
echo 1 >$T/instances/warm-up/events/sched/sched_switch/enable
echo 0 >$T/instances/warm-up/events/sched/sched_switch/enable
rmdir $T/instances/warm-up
echo 1 >$T/events/sched/sched_switch/enable
echo 0 >$T/events/sched/sched_switch/enable
: >$T/trace
