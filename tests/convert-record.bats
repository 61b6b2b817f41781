#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# convert-record.bats - `tracemap convert` on files recorded now (kernel: run under
# tm-kernel-lock): Perfetto with report's events per type and field values, Chrome JSON.

load helpers
load convert-helpers
load long
bats_require_minimum_version 1.5.0

setup() {
	tm_kernel_setup
}

teardown() {
	long_cleanup
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

# The numbers of the "mark N" prints of a Chrome JSON file, in the file's order.
json_marks() {
	jq -r '.traceEvents[] | select(.ph == "i" and .name == "print") | .args.buf' "$1" |
		sed -n 's/^mark \([0-9][0-9]*\).*/\1/p'
}

@test "convert-record: --switch-output pieces on one timeline, every marker once, in order" {
	local k
	long_instance
	long_start 60 --switch-output signal -b 4096 -e sched:sched_switch -o "$TM_TMP/r.dat"
	for k in 1 2; do
		marks $((k * 300 - 299)) $((k * 300))
		kill -USR2 "$LONG_PID"
		long_wait_line "r.000$k.dat: "
	done
	marks 601 900
	kill -INT "$LONG_PID"
	long_wait
	[ "$LONG_STATUS" -eq 0 ] || { cat "$TM_TMP/rec.err" >&2; return 1; }
	[ -s "$TM_TMP/r.0003.dat" ] && [ ! -e "$TM_TMP/r.0004.dat" ]
	# given in any order, the pieces come out in time order
	"$TRACEMAP" convert "$TM_TMP"/r.0003.dat "$TM_TMP"/r.0001.dat "$TM_TMP"/r.0002.dat \
		-o "$TM_TMP/all.json"
	[ "$(json_marks "$TM_TMP/all.json" | tr '\n' ' ')" = "$(seq -s ' ' 1 900) " ]
	# Perfetto: each piece's events, per type, once
	for k in 1 2 3; do report_counts "$TM_TMP/r.000$k.dat"; done |
		awk '{ n[$2] += $1 } END { for (k in n) print n[k], k }' | sort -k2 >"$TM_TMP/want"
	"$TRACEMAP" convert "$TM_TMP"/r.000?.dat -o "$TM_TMP/all.pftrace"
	pf_decode "$TM_TMP/all.pftrace" >"$TM_TMP/all.txt"
	pf_counts "$TM_TMP/all.txt" | diff -u "$TM_TMP/want" - >&2
}

@test "convert-record: overlapping --flight dumps on one timeline, every event once" {
	long_instance
	flight_two_dumps
	# the second dump holds the first one's window again (the 8M window is not full)
	"$TRACEMAP" convert "$TM_TMP/f.0001.dat" "$TM_TMP/f.0002.dat" -o "$TM_TMP/both.json"
	json_marks "$TM_TMP/both.json" >"$TM_TMP/marks"
	diff -u <(seq 1 100) "$TM_TMP/marks" >&2 || {
		for f in f.0001 f.0002; do
			"$TRACEMAP" convert -q "$TM_TMP/$f.dat" -o "$TM_TMP/$f.json"
			echo "$f alone: $(json_marks "$TM_TMP/$f.json" | tr '\n' ' ')"
		done >&2
		return 1
	}
	# every event of the two, once: as many of each type as the later dump alone has
	{ report_counts "$TM_TMP/f.0001.dat"; report_counts "$TM_TMP/f.0002.dat"; } |
		awk '{ if ($1 > n[$2]) n[$2] = $1 } END { for (k in n) print n[k], k }' |
		sort -k2 >"$TM_TMP/want"
	"$TRACEMAP" convert "$TM_TMP/f.0002.dat" "$TM_TMP/f.0001.dat" -o "$TM_TMP/both.pftrace"
	pf_decode "$TM_TMP/both.pftrace" >"$TM_TMP/both.txt"
	pf_counts "$TM_TMP/both.txt" | diff -u "$TM_TMP/want" - >&2
	[ "$(grep -c ' sched_switch$' "$TM_TMP/want")" -eq 1 ]
}

# The ftrace bundle packets of a decoded trace whose machine_id is $2.
pf_bundles_of_machine() {
	awk -v m="$2" '
		/^packet \{$/ { b = 0; id = 0 }
		/^  ftrace_events \{$/ { b = 1 }
		/^  machine_id: / { id = $2 }
		/^\}$/ && b && id == m { n++ }
		END { print n + 0 }' "$1"
}

# The ftrace bundle packets of one file converted alone.
pf_decode_bundles() {
	"$TRACEMAP" convert -q "$1" -o "$TM_TMP/alone.pftrace"
	pf_decode "$TM_TMP/alone.pftrace" | grep -c '^  ftrace_events {$'
}

# A v6 recording with --date of a fork load, into $1.
record_dated() {
	timeout -s KILL 60 "$TRACEMAP" record -q --date --file-version 6 -e sched -o "$1" -- \
		sh -c 'for i in 1 2 3 4; do /bin/true; done'
}

@test "convert-record: two machines' dated files: a machine each, on one wall-clock timeline" {
	local now first_a first_b
	record_dated "$TM_TMP/a.dat"
	record_dated "$TM_TMP/b0.dat"
	other_host "$TM_TMP/b0.dat" "$TM_TMP/b.dat"
	"$TRACEMAP" convert "$TM_TMP/a.dat" "$TM_TMP/b.dat" -o "$TM_TMP/ab.pftrace"
	pf_decode "$TM_TMP/ab.pftrace" >"$TM_TMP/ab.txt"
	# a SystemInfo per machine, the second's packets carry machine_id 1, none another id
	[ "$(grep -c '^  system_info {' "$TM_TMP/ab.txt")" -eq 2 ]
	[ "$(grep -c '^  machine_id: 1$' "$TM_TMP/ab.txt")" -gt 2 ]
	! grep -q '^  machine_id: [02-9]' "$TM_TMP/ab.txt" || return 1
	# the second machine's events too: as many ftrace bundles with machine_id 1 as b has
	[ "$(pf_bundles_of_machine "$TM_TMP/ab.txt" 1)" -gt 0 ]
	[ "$(pf_bundles_of_machine "$TM_TMP/ab.txt" 1)" -eq \
	  "$(pf_decode_bundles "$TM_TMP/b.dat")" ]
	# each machine's events, type by type, are its file's: trace_processor reads a
	# machine in a context of its own, its generic event descriptors included, so
	# both machines number their described events from 65536
	perl "$TM_ROOT/tests/pf-expand.pl" --machine 0 <"$TM_TMP/ab.pftrace" >"$TM_TMP/m0.pftrace"
	perl "$TM_ROOT/tests/pf-expand.pl" --machine 1 <"$TM_TMP/ab.pftrace" >"$TM_TMP/m1.pftrace"
	pf_decode "$TM_TMP/m0.pftrace" >"$TM_TMP/m0.txt"
	pf_decode "$TM_TMP/m1.pftrace" >"$TM_TMP/m1.txt"
	diff -u <(report_counts "$TM_TMP/a.dat") <(pf_counts "$TM_TMP/m0.txt") >&2
	diff -u <(report_counts "$TM_TMP/b.dat") <(pf_counts "$TM_TMP/m1.txt") >&2
	# wall-clock times: b recorded after a; both within a minute of now
	now=$(date +%s%N)
	# (sed, not jq: jq's numbers are doubles, too coarse for wall-clock ns)
	first_a=$("$TRACEMAP" report --json "$TM_TMP/a.dat" | sed -n '1s/^{"timestamp_ns":\([0-9]*\),.*/\1/p')
	first_b=$("$TRACEMAP" report --json "$TM_TMP/b.dat" | sed -n '1s/^{"timestamp_ns":\([0-9]*\),.*/\1/p')
	((first_a < first_b && now - first_a < 60000000000 && first_a <= now))
	grep -q "timestamp: $first_a\$" "$TM_TMP/ab.txt"
	grep -q "timestamp: $first_b\$" "$TM_TMP/ab.txt"
	# Chrome JSON: one document, the second machine's pids moved up and named with its host
	"$TRACEMAP" convert "$TM_TMP/a.dat" "$TM_TMP/b.dat" -o "$TM_TMP/ab.json"
	jq -e '[.traceEvents[] | select(.ph == "M" and .name == "process_name" and
		(.args.name | test("^CPUs \\(z+\\)$")))] | length == 1' "$TM_TMP/ab.json" >/dev/null
	[ "$(jq '[.traceEvents[] | select(.pid >= 8388608)] | length' "$TM_TMP/ab.json")" -gt 0 ]
	[ "$(jq '[.traceEvents[] | select(.pid < 4194304)] | length' "$TM_TMP/ab.json")" -gt 0 ]
	# one of them without DATE: refused, one line
	timeout -s KILL 60 "$TRACEMAP" record -q --file-version 6 -e sched -o "$TM_TMP/c0.dat" -- /bin/true
	other_host "$TM_TMP/c0.dat" "$TM_TMP/c.dat"
	run "$TRACEMAP" convert "$TM_TMP/a.dat" "$TM_TMP/c.dat" -o "$TM_TMP/ac.pftrace"
	tm_status 1
	[[ $output == "tracemap convert: $TM_TMP/c.dat: no DATE option (record --date): files of different machines ("* ]]
	[ ! -e "$TM_TMP/ac.pftrace" ]
}

@test "convert-record: syscalls, signals and workqueue events become typed messages with report's values" {
	timeout -s KILL 60 "$TRACEMAP" record -q -e raw_syscalls -e signal \
		-e workqueue:workqueue_execute_start -e workqueue:workqueue_execute_end \
		-o "$TM_TMP/s.dat" -- sh -c 'sleep 5 & kill $!; wait; sync; sleep 0.2'
	check_perfetto_counts "$TM_TMP/s.dat"
	local generic='^      event_name: "(sys_enter|sys_exit|signal_generate)"'
	! grep -Eq "$generic" "$TM_TMP/t.txt" || return 1
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

@test "convert-record: a kernel string field of a described event is its text, as report prints it" {
	# rcu_utilization's s is a `const char *`: the file's printk formats name it
	timeout -s KILL 60 "$TRACEMAP" record -q -e rcu:rcu_utilization -o "$TM_TMP/k.dat" -- sleep 0.3
	"$TRACEMAP" convert "$TM_TMP/k.dat" -o "$TM_TMP/k.pftrace"
	pf_decode "$TM_TMP/k.pftrace" >"$TM_TMP/k.txt"
	# report's text of each event beside its --json time: the same events in the same order
	paste -d' ' <("$TRACEMAP" report --json "$TM_TMP/k.dat" | jq -r .timestamp_ns) \
		<("$TRACEMAP" report "$TM_TMP/k.dat" | sed -n 's/.* rcu_utilization: *//p') |
		sort >"$TM_TMP/want"
	pf_typed "$TM_TMP/k.txt" rcu_utilization s | sed 's/^\([0-9]*\) [0-9]* s=/\1 /' |
		sort >"$TM_TMP/got"
	[ "$(wc -l <"$TM_TMP/want")" -ge 4 ]
	grep -q ' Start context switch$' "$TM_TMP/want"
	diff -u "$TM_TMP/want" "$TM_TMP/got" | head -n 20 >&2
	cmp -s "$TM_TMP/want" "$TM_TMP/got"
}

# Issue 44: an event the first file lacks was said to be "not as in" it, and the files
# were refused in that order: the event tables of one machine's files are merged.
@test "convert: an event the first file of a machine lacks is decoded from the file that has it" {
	"$TRACEMAP" record -q -e sched:sched_switch --duration 0.3 -o "$TM_TMP/a.dat"
	"$TRACEMAP" record -q -e sched:sched_switch -e sched:sched_wakeup --duration 0.3 \
		-o "$TM_TMP/b.dat"
	local order
	{ report_counts "$TM_TMP/a.dat"; report_counts "$TM_TMP/b.dat"; } |
		awk '{ n[$2] += $1 } END { for (k in n) print n[k], k }' | sort -k2 >"$TM_TMP/want"
	grep -q ' sched_wakeup$' "$TM_TMP/want"
	for order in "a b" "b a"; do
		set -- $order
		run --separate-stderr "$TRACEMAP" convert "$TM_TMP/$1.dat" "$TM_TMP/$2.dat" \
			-o "$TM_TMP/m.pftrace"
		[ "$status" -eq 0 ] || { echo "$order: $stderr" >&2; return 1; }
		pf_decode "$TM_TMP/m.pftrace" >"$TM_TMP/m.txt"
		pf_counts "$TM_TMP/m.txt" | diff -u "$TM_TMP/want" - >&2 ||
			{ echo "in order $order" >&2; return 1; }
	done
}
