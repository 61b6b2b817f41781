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

# A case still running after TM_DUMP_AFTER seconds (default 75; each case's own
# timeout -s KILL is 60 to 120 s) shows where it is: the state and kernel stack of
# every tracemap thread and of every task in D state, and the kernel's blocked-task
# dump (sysrq w) with the last lines of dmesg. A task a KILL cannot end is in the kernel.
dump_tasks() {
	local p t
	echo "TMVM: # --- task dump after ${TM_DUMP_AFTER:-75} s: $1"
	for p in /proc/[0-9]*; do
		for t in "$p"/task/[0-9]*; do
			case "$(cat "$t/comm" 2>/dev/null)$(awk '{ print "/" $3 }' "$t/stat" 2>/dev/null)" in
			tracemap*|*/D) ;;
			*) continue ;;
			esac
			echo "TMVM: # ${t#/proc/} $(cat "$t/comm") $(awk '{ print $3 }' "$t/stat")" \
				"wchan=$(cat "$t/wchan" 2>/dev/null)"
			sed 's/^/TMVM: #     /' "$t/stack" 2>/dev/null
		done
	done
	echo w >/proc/sysrq-trigger
	dmesg | tail -n 60 | sed 's/^/TMVM: # dmesg /'
}

# t NAME FUNCTION [ARGS]: run FUNCTION in a subshell; its output is shown only when it
# fails. With TM_ONLY set (tm.only= on the kernel command line), only names containing it.
t() {
	local start dog
	case $1 in *"${TM_ONLY:-}"*) ;; *) return 0 ;; esac
	n=$((n + 1))
	start=$(uptime_s)
	( sleep "${TM_DUMP_AFTER:-75}"; dump_tasks "$1" ) &
	dog=$!
	# not in an if: there the shell ignores set -e, and only the case's last command
	# would count
	( set -e; $2 ) >/tmp/case.log 2>&1
	if [ $? = 0 ]; then
		echo "TMVM: ok $n - $1"
	else
		echo "TMVM: not ok $n - $1"
		tail -n 25 /tmp/case.log | sed 's/^/TMVM: #   /'
	fi
	kill $dog 2>/dev/null
	wait $dog 2>/dev/null
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

# Until tracer $1 traces (tracing_on goes 0 while tracemap sets it up, then 1) at the
# top level or in a tracemap-PID instance (6.12+ run function_graph there without -g),
# bounded: 60 s of uptime, not a count of rounds (a round is slow under TCG).
tracing_with() {
	local d
	for d in $T $T/instances/tracemap-*; do
		[ "$(cat "$d/current_tracer" 2>/dev/null)" = "$1" ] &&
			[ "$(cat "$d/tracing_on")" = 1 ] && return 0
	done
	return 1
}
wait_top_tracing() {
	local end
	end=$(awk '{ print int($1) + 60 }' /proc/uptime)
	while ! tracing_with "$1" && [ "$(awk '{ print int($1) }' /proc/uptime)" -lt "$end" ]; do
		sleep 0.1
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

# A one-line failure: exit status 1 and exactly one line on stderr (in /tmp/err).
one_line_error() {
	if "$@" 2>/tmp/err; then
		echo "exit 0: expected a failure"
		return 1
	fi
	cat /tmp/err
	[ "$(wc -l </tmp/err)" -eq 1 ]
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
