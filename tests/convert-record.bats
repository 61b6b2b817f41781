#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# convert-record.bats - `tracemap convert` on files recorded now (kernel: run under
# tm-kernel-lock): Perfetto with report's events per type and field values, Chrome JSON.

load helpers
load convert-helpers

setup() {
	tm_kernel_setup
}

teardown() {
	tm_kernel_teardown
}

# sched and irq events of a short fork/exec load, in the given file format.
record_load() {
	timeout -s KILL 60 "$TRACEMAP" record -q -e sched -e irq "$@" -- \
		sh -c 'for i in 1 2 3 4 5 6 7 8; do /bin/true; done; sleep 0.2'
}

@test "convert-record: a fresh v7 recording converts with report's events, per type and field" {
	record_load -o "$TM_TMP/r.dat"
	check_perfetto_counts "$TM_TMP/r.dat"
	check_clock_pairs "$TM_TMP/t.txt"	# the trace check_perfetto_counts decoded
	[ "$(check_thread_tgids "$TM_TMP/t.txt")" -gt 0 ]
	check_perfetto_fields "$TM_TMP/r.dat"
	check_chrome "$TM_TMP/r.dat"
}

@test "convert-record: a fresh v6 recording converts with report's events, per type" {
	record_load --file-version 6 -o "$TM_TMP/r6.dat"
	check_perfetto_counts "$TM_TMP/r6.dat"
	check_chrome "$TM_TMP/r6.dat"
}

@test "convert-record: a counter-clock recording converts with a warning, no clock named" {
	record_load -C counter -o "$TM_TMP/c.dat"
	run "$TRACEMAP" convert "$TM_TMP/c.dat" -o "$TM_TMP/c.pftrace"
	tm_status 0
	[[ $output == "tracemap convert: warning: trace clock 'counter' does not count nanoseconds: "* ]]
	check_perfetto_counts "$TM_TMP/c.dat"
	! grep -Eq 'ftrace_clock|ftrace_timestamp|clock_snapshot' "$TM_TMP/t.txt" || return 1
}

# Whether $TM_TMP/out holds a file; its names in tmp (the caller's local).
out_listed() {
	tmp=$(ls -A "$TM_TMP/out")
	[ -n "$tmp" ]
}

@test "convert-record: SIGINT mid-conversion removes the temporary OUT, exit 130" {
	local pid tmp st
	# ~400k raw_syscalls records of one command (a ping-pong's sched records were
	# too few once report got faster: the conversion ended before it was seen)
	timeout -s KILL 60 "$TRACEMAP" record -q -e raw_syscalls -F -o "$TM_TMP/pp.dat" -- \
		dd if=/dev/zero of=/dev/null bs=1 count=100000
	mkdir "$TM_TMP/out"
	"$TRACEMAP" convert "$TM_TMP/pp.dat" -o "$TM_TMP/out/t.json" &
	pid=$!
	tm_wait 30 "a file in $TM_TMP/out" out_listed || true
	[[ $tmp == .t.json.* ]] || { echo "no temporary seen: '$tmp'" >&2; return 1; }
	kill -INT "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq 130 ] || { echo "exit status $st, expected 130" >&2; return 1; }
	[ -z "$(ls -A "$TM_TMP/out")" ]
}

# task_newtask, task_rename and cpu_idle go out as their typed messages, with
# report's field values, never as generic events (the fixtures have none of them).
@test "convert-record: task and power events become typed messages with report's values" {
	timeout -s KILL 60 "$TRACEMAP" record -q -e task -e power:cpu_idle -e sched:sched_switch \
		-o "$TM_TMP/t.dat" -- sh -c '(printf tm-renamed >/proc/self/comm; sleep 0.1); sleep 0.2'
	check_perfetto_counts "$TM_TMP/t.dat"
	# no generic event carries one of these names
	! grep -Eq '^      event_name: "(task_newtask|task_rename|cpu_idle)"' "$TM_TMP/t.txt" || return 1
	grep -q '^      task_newtask {$' "$TM_TMP/t.txt"
	# cpu_idle comes from the kernel's idle loop: some guests (no cpuidle driver,
	# a polling idle) never write it; where report shows one, so must the trace
	if "$TRACEMAP" report "$TM_TMP/t.dat" | grep -q ' cpu_idle: '; then
		grep -q '^      cpu_idle {$' "$TM_TMP/t.txt"
	else
		echo "# no power:cpu_idle event on this kernel (cpuidle driver:" \
			"$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null))" >&3
	fi
	# the rename: report's oldcomm/newcomm/pid are the typed message's fields
	local pid
	pid=$("$TRACEMAP" report -N "$TM_TMP/t.dat" |
		sed -n 's/.*task_rename: *pid=\([0-9]*\) oldcomm=sh newcomm=tm-renamed .*/\1/p')
	[ -n "$pid" ] || { "$TRACEMAP" report -N "$TM_TMP/t.dat" | grep task_rename >&2; return 1; }
	grep -A4 '^      task_rename {$' "$TM_TMP/t.txt" >"$TM_TMP/ren"
	grep -q "^        pid: $pid\$" "$TM_TMP/ren"
	grep -q '^        oldcomm: "sh"$' "$TM_TMP/ren"
	grep -q '^        newcomm: "tm-renamed"$' "$TM_TMP/ren"
}

@test "convert-record: syscalls, signals and workqueue events become typed messages with report's values" {
	timeout -s KILL 60 "$TRACEMAP" record -q -e raw_syscalls -e signal \
		-e workqueue:workqueue_execute_start -e workqueue:workqueue_execute_end \
		-o "$TM_TMP/s.dat" -- sh -c 'sleep 5 & kill $!; wait; sync; sleep 0.2'
	check_perfetto_counts "$TM_TMP/s.dat"
	! grep -Eq '^      event_name: "(sys_enter|sys_exit|signal_generate)"' "$TM_TMP/t.txt" ||
		return 1
	# sys_enter's args as numbers (SysEnterFtraceEvent.args), no text
	check_typed "$TM_TMP/s.dat" "$TM_TMP/t.txt" sys_enter id args
	check_typed "$TM_TMP/s.dat" "$TM_TMP/t.txt" sys_exit id ret
	check_typed "$TM_TMP/s.dat" "$TM_TMP/t.txt" signal_generate sig code comm pid group result
	check_typed "$TM_TMP/s.dat" "$TM_TMP/t.txt" signal_deliver sig code sa_flags
	# workqueue_execute_start's function is an interned symbol's iid, so only work
	# compares; execute_end carries the address as it is
	if "$TRACEMAP" report "$TM_TMP/s.dat" | grep -q ' workqueue_execute_end: '; then
		check_typed "$TM_TMP/s.dat" "$TM_TMP/t.txt" workqueue_execute_start work
		check_typed "$TM_TMP/s.dat" "$TM_TMP/t.txt" workqueue_execute_end work function
		grep -q '^    kernel_symbols {$' "$TM_TMP/t.txt"
	fi
}
