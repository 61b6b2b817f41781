#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# guest-lib.sh - helpers of the guest scripts: numbered cases reported on the
# console as "TMVM: ok N - name" or "TMVM: not ok N - name" with the case's output.
T=/sys/kernel/tracing
n=0

# t NAME FUNCTION: run FUNCTION in a subshell; its output is shown only when it fails.
t() {
	n=$((n + 1))
	if ( set -e; "$2" ) >/tmp/case.log 2>&1; then
		echo "TMVM: ok $n - $1"
	else
		echo "TMVM: not ok $n - $1"
		tail -n 25 /tmp/case.log | sed 's/^/TMVM: #   /'
	fi
}

# Uptime in seconds (two decimals): boot and case times on the console.
uptime_s() {
	cut -d' ' -f1 /proc/uptime
}
START=$(uptime_s)

summary() {
	echo "TMVM: # $n cases run, guest booted in $START s, tests took" \
		"$(echo "$(uptime_s) - $START" | bc 2>/dev/null || echo '?') s"
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
# anywhere (buffer_size_kb "7 (expanded: 1408)" becomes "1410"): once, before any
# snapshot, so that this lazy allocation is not taken for a change a test made.
mkdir $T/instances/warm-up
echo 1 >$T/instances/warm-up/events/sched/sched_switch/enable
echo 0 >$T/instances/warm-up/events/sched/sched_switch/enable
rmdir $T/instances/warm-up
