#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# record-triggers.bats - what the kernel refuses in the private instance (filters,
# triggers, tracers, functions) reaches the user with the kernel's reason; -R event
# triggers run in the private instance and go with it; the usage rules of -p and
# its function filters. The function tracers themselves are proven in the QEMU
# guest (make check-vm, tests/vm/guest-tests.sh): this kernel refuses them.

load helpers
bats_require_minimum_version 1.5.0

setup() { tm_kernel_setup; }
# trace-cmd 3.1.6's text: report's default until it follows newer trace-cmd (--compat=3.1).
teardown() {
	if [ -n "${REC_BG:-}" ]; then
		kill -INT "$REC_PID" 2>/dev/null || true
		wait "$REC_BG" 2>/dev/null || true
	fi
	tm_kernel_teardown
}

# SUB ARGS...: exit 1, exactly one line on stderr, nothing left in the scratch dir.
one_line_error() {
	local sub=$1
	shift
	run --separate-stderr "$TRACEMAP" "$sub" "$@"
	tm_status 1
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || { echo "$stderr" >&2; return 1; }
	[ -z "$(ls -A "$TM_TMP")" ] || { ls -la "$TM_TMP" >&2; return 1; }
}

@test "record -f: a bad filter gives the kernel's reason and position from error_log" {
	one_line_error record -e sched:sched_switch -f 'prev_pidx == 1' -o "$TM_TMP/x.dat" \
		--duration 1
	[[ $stderr == "tracemap record: bad filter 'prev_pidx == 1' for event 'sched:sched_switch': "* ]] ||
		{ echo "$stderr" >&2; return 1; }
	# the kernel's words, and where in the expression it stopped
	[[ $stderr == *"Field not found"* ]] || { echo "$stderr" >&2; return 1; }
	[[ $stderr == *"position 10"* ]] || { echo "$stderr" >&2; return 1; }
	one_line_error stream -e sched:sched_switch -f 'prev_pid == abc' --duration 1
	[[ $stderr == *"for event 'sched:sched_switch': Invalid value (did you forget quotes)?"* ]] ||
		{ echo "$stderr" >&2; return 1; }
}

@test "record -R stacktrace:3: the count is spent on the recording's events" {
	local rc=0 stacks forker
	# xargs forks all along, setup (tracing still off) included: before the fix
	# setup's forks spent the count and the file held no stack
	seq 1 1000000 | timeout -s KILL 60 xargs -n 1 /bin/true &
	forker=$!
	tm_record_bg 60 -e sched:sched_process_fork -R 'stacktrace:3 if parent_comm == "xargs"' \
		-o "$TM_TMP/r.dat"
	sleep 0.5
	kill -INT "$REC_PID"
	wait "$REC_BG" || rc=$?
	kill "$forker" 2>/dev/null || true
	wait "$forker" 2>/dev/null || true
	[ "$rc" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	stacks=$(trace-cmd report -i "$TM_TMP/r.dat" 2>/dev/null | grep -c 'kernel_stack:') || true
	[ "$stacks" -eq 3 ] || { echo "kernel stacks: $stacks" >&2; return 1; }
}

@test "record -R twice on one event: both triggers are armed" {
	local trig=events/sched/sched_process_fork/trigger rc=0
	tm_record_bg 60 -e sched:sched_process_fork -R stacktrace -R 'traceoff if child_pid == 1' \
		-o "$TM_TMP/r.dat"
	# the kernel clears an event's triggers when its trigger file is opened with
	# O_TRUNC: each -R must be added, not written over the one before
	grep -q '^stacktrace:unlimited' "$TRACEFS/instances/$REC_INST/$trig" ||
		{ cat "$TRACEFS/instances/$REC_INST/$trig" >&2; return 1; }
	grep -q '^traceoff:unlimited if child_pid == 1' "$TRACEFS/instances/$REC_INST/$trig" ||
		{ cat "$TRACEFS/instances/$REC_INST/$trig" >&2; return 1; }
	kill -INT "$REC_PID"
	wait "$REC_BG" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
}

@test "record -R: stacktrace trigger puts a kernel stack after each fork event" {
	local trig=events/sched/sched_process_fork/trigger rc=0
	tm_record_bg 60 -e sched:sched_process_fork -R stacktrace -o "$TM_TMP/r.dat"
	# in the private instance only, and gone with it
	grep -q '^stacktrace:unlimited' "$TRACEFS/instances/$REC_INST/$trig"
	! grep -q '^stacktrace' "$TRACEFS/$trig" || return 1
	sh -c '/bin/true; /bin/true; /bin/true'
	kill -INT "$REC_PID"
	wait "$REC_BG" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
	trace-cmd report -i "$TM_TMP/r.dat" >"$TM_TMP/tc.txt"
	"$TRACEMAP" report "${TM_REPORT_31[@]}" "$TM_TMP/r.dat" >"$TM_TMP/tm.txt"
	diff "$TM_TMP/tc.txt" "$TM_TMP/tm.txt"
	# every fork line is followed by the stack the trigger recorded
	local forks stacks
	forks=$(grep -c 'sched_process_fork:' "$TM_TMP/tm.txt")
	stacks=$(grep -A1 'sched_process_fork:' "$TM_TMP/tm.txt" | grep -c 'kernel_stack: *<stack trace >')
	[ "$forks" -ge 3 ] && [ "$stacks" -eq "$forks" ] || { cat "$TM_TMP/tm.txt" >&2; return 1; }
	grep -q '^=> kernel_clone (' "$TM_TMP/tm.txt"
}

@test "record -R: a traceoff trigger with a filter stops the instance after the first match" {
	run "$TRACEMAP" record -q -e sched:sched_process_fork -R 'traceoff if child_pid > 0' \
		-o "$TM_TMP/r.dat" -- sh -c '/bin/true; /bin/true; /bin/true'
	tm_status 0
	run "$TRACEMAP" report "$TM_TMP/r.dat"
	tm_status 0
	[ "$(grep -c 'sched_process_fork:' <<<"$output")" -eq 1 ] || { echo "$output" >&2; return 1; }
}

# Whether the kernel puts the reason for a trigger filter it refuses in error_log
# (6.1 does not), tried in a scratch instance: the reason tracemap can give.
trigger_reason_logged() {
	local d=$TRACEFS/instances/tm-trigger-probe-$$ r=1
	mkdir "$d"
	echo 'traceoff if nosuch == 1' 2>/dev/null >"$d/events/sched/sched_switch/trigger" || true
	grep -q 'Field not found' "$d/error_log" && r=0
	rmdir "$d"
	return $r
}

@test "record -R: a trigger the kernel refuses is one line with its reason, nothing left" {
	local why
	# hist triggers are not built into every kernel (not into this VM's): say so plainly
	if ! grep -qw hist "$TRACEFS/events/sched/sched_switch/trigger"; then
		one_line_error record -e sched:sched_switch -R 'hist:keys=prev_pid' \
			-o "$TM_TMP/x.dat" --duration 1
		[[ $stderr == *"bad trigger 'hist:keys=prev_pid' for event 'sched:sched_switch': hist triggers are not built into this kernel (it has: "*"stacktrace"* ]] ||
			{ echo "$stderr" >&2; return 1; }
	fi
	why="Invalid argument (no reason in error_log)"
	if trigger_reason_logged; then why="Field not found"; fi
	one_line_error record -e sched -R 'traceoff if nosuch == 1' -o "$TM_TMP/x.dat" --duration 1
	[[ $stderr == *"bad trigger 'traceoff if nosuch == 1' for event 'sched:"*"': $why"* ]] ||
		{ echo "$stderr" >&2; return 1; }
	run "$TRACEMAP" record -R stacktrace
	tm_status 2
	[[ $output == *"-R 'stacktrace' needs an -e before it"* ]]
}

@test "record -R hist: the histogram printed at stop where the kernel has hist triggers" {
	if ! grep -qw hist "$TRACEFS/events/sched/sched_switch/trigger"; then
		# this VM's kernel: refused in one line, exit 1, nothing left (above)
		one_line_error record -e sched:sched_switch -R 'hist:keys=common_pid' \
			-o "$TM_TMP/x.dat" --duration 1
		[[ $stderr == *"hist triggers are not built into this kernel"* ]]
		return 0
	fi
	run --separate-stderr "$TRACEMAP" record -e sched:sched_switch -R 'hist:keys=next_pid' \
		-e sched:sched_wakeup -o "$TM_TMP/h.dat" -- sh -c 'sleep 0.2; sleep 0.2'
	tm_status 0
	# the kernel's own text, for sched_switch only, after the histogram's heading line
	grep -qx '# events/sched/sched_switch/hist' <<<"$stderr" || { echo "$stderr" >&2; return 1; }
	grep -q '^{ next_pid: .* } hitcount: *[1-9]' <<<"$stderr"
	grep -q '^ *Hits: [1-9]' <<<"$stderr"
	! grep -q 'sched_wakeup/hist' <<<"$stderr" || return 1
	"$TRACEMAP" report "$TM_TMP/h.dat" | grep -q 'sched_switch:'
}

@test "record --trigger: a bad filter gives the kernel's reason as -f and -R do" {
	local want
	# the event enabled by -e: the trigger's own filter is refused
	one_line_error record -e sched:sched_switch --trigger 'sched:sched_switch:prev_pidx == 1' \
		-o "$TM_TMP/x.dat" --duration 1
	want="tracemap record: bad filter 'prev_pidx == 1' for event 'sched:sched_switch': Field not found (position 10: prev_pidx ^== 1)"
	trigger_reason_logged ||
		want="tracemap record: the kernel refused trigger 'stacktrace:1 if prev_pidx == 1' on sched:sched_switch: Invalid argument (no reason in error_log)"
	[ "$stderr" = "$want" ] || { echo "$stderr" >&2; return 1; }
	# the event enabled by --trigger itself, with the filter
	one_line_error record -e sched:sched_switch --trigger 'sched:sched_process_fork:bogus ==' \
		-o "$TM_TMP/x.dat" --duration 1
	[[ $stderr == "tracemap record: bad filter 'bogus ==' for event 'sched:sched_process_fork': Field not found (position "* ]] ||
		{ echo "$stderr" >&2; return 1; }
}

@test "record -R: an unknown trigger command is called so, not a missing kernel feature" {
	one_line_error record -e sched:sched_switch -R bogustrigger -o "$TM_TMP/x.dat" --duration 1
	[[ $stderr == *"bad trigger 'bogustrigger' for event 'sched:sched_switch': unknown trigger command 'bogustrigger' (this kernel has: "*"stacktrace"* ]] ||
		{ echo "$stderr" >&2; return 1; }
}

@test "record -e ftrace:function: the function tracer's events point to -p" {
	one_line_error record -e ftrace:function -o "$TM_TMP/x.dat" --duration 1
	[ "$stderr" = "tracemap record: 'ftrace:function' events come from the function tracer, not from an event to enable: record them with -p function (or -p function_graph)" ] ||
		{ echo "$stderr" >&2; return 1; }
}

# The kernel's errno text for current_tracer=function in a scratch instance ("" if allowed).
function_refusal() {
	local inst=$TRACEFS/instances/tmfunc-$$ why=""
	mkdir "$inst"
	why=$(python3 -c 'import os, sys
try:
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_TRUNC)
    os.write(fd, b"function")
    os.close(fd)
except OSError as e:
    print(e.strerror)' "$inst/current_tracer")
	echo nop >"$inst/current_tracer"
	rmdir "$inst"
	echo "$why"
}

@test "record -p function: a kernel that refuses the tracer says so in one line" {
	local why
	why=$(function_refusal)
	if [ -z "$why" ]; then
		# this kernel allows it: the recording has function events of cat
		run "$TRACEMAP" record -q -p function -l 'vfs_read*' -o "$TM_TMP/f.dat" -- \
			cat /etc/hostname
		tm_status 0
		run "$TRACEMAP" report "$TM_TMP/f.dat"
		[[ $output == *"function:"*"vfs_read"* ]]
		return
	fi
	one_line_error record -p function -o "$TM_TMP/x.dat" --duration 1
	[[ $stderr == "tracemap record: the kernel refused tracer 'function' ("*"/instances/tracemap-"*"/current_tracer: $why)" ]] ||
		{ echo "$stderr" >&2; return 1; }
	one_line_error stream -p function -l vfs_read --duration 1
	[[ $stderr == "tracemap stream: the kernel refused the function filter 'vfs_read' of tracer 'function' ("*"/set_ftrace_filter: $why)" ]] ||
		{ echo "$stderr" >&2; return 1; }
}

@test "record -p: a tracer the kernel does not have names available_tracers" {
	one_line_error record -p nosuch_tracer -o "$TM_TMP/x.dat" --duration 1
	[[ $stderr == "tracemap record: unknown tracer 'nosuch_tracer' (not in $TRACEFS/available_tracers; see tracemap list -t)" ]] ||
		{ echo "$stderr" >&2; return 1; }
}

@test "record -p nop: events recorded in the instance, the top level untouched" {
	run "$TRACEMAP" record -q -p nop -e sched:sched_switch -o "$TM_TMP/n.dat" -- sleep 0.2
	tm_status 0
	run "$TRACEMAP" report "$TM_TMP/n.dat"
	[[ $output == *"sched_switch:"* ]]
	[ "$(cat "$TRACEFS/current_tracer")" = nop ]
}

@test "record/stream: the function filters need their tracer (usage errors)" {
	local sub
	for sub in record stream; do
		run "$TRACEMAP" "$sub" -l vfs_read --duration 1
		tm_status 2
		[[ $output == *"-l needs -p TRACER (function or function_graph)"* ]]
		run "$TRACEMAP" "$sub" -n vfs_read --duration 1
		tm_status 2
		[[ $output == *"-n needs -p TRACER"* ]]
		run "$TRACEMAP" "$sub" -p function -g do_sys_openat2 --duration 1
		tm_status 2
		[[ $output == *"-g needs -p function_graph"* ]]
		run "$TRACEMAP" "$sub" -p function --max-graph-depth 2 --duration 1
		tm_status 2
		[[ $output == *"--max-graph-depth needs -p function_graph"* ]]
		run "$TRACEMAP" "$sub" -p function_graph --max-graph-depth x --duration 1
		tm_status 2
		run "$TRACEMAP" "$sub" -p function_graph --func-stack --duration 1
		tm_status 2
		[[ $output == *"--func-stack needs -p function"* ]]
	done
}
