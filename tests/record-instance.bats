#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# record-instance.bats - record -B NAME on the live kernel: a named instance tracemap
# creates and removes, an existing name refused, and --reuse-instance giving back every
# setting it changed.

load helpers
load long
bats_require_minimum_version 1.5.0

setup() {
	tm_kernel_setup
	long_instance
}

teardown() {
	long_cleanup
	tm_kernel_teardown
}

@test "record -B NAME: traces in instances/NAME, then removes it" {
	run "$TRACEMAP" record -v -B "$LONG_INST" -e sched:sched_process_exec -o "$TM_TMP/b.dat" \
		-- sh -c "echo named-marker > $LONG_DIR/trace_marker"
	tm_status 0
	[[ $output == *"instance $LONG_INST, sub-buffer"* ]]
	same_report "$TM_TMP/b.dat"
	grep -q 'tracing_mark_write: named-marker' "$TM_TMP/tc.txt"
	[ ! -d "$LONG_DIR" ]
}

@test "record -B NAME: an existing NAME is refused and left as it is" {
	local before
	mkdir "$LONG_DIR"
	echo 1 >"$LONG_DIR/events/sched/sched_switch/enable"
	before=$(inst_state "$LONG_DIR")
	run "$TRACEMAP" record -B "$LONG_INST" -e sched -o "$TM_TMP/e.dat" -- true
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"instance $LONG_INST exists (--reuse-instance records through it"* ]]
	[ "$(inst_state "$LONG_DIR")" = "$before" ]
	[ ! -e "$TM_TMP/e.dat" ]
	run "$TRACEMAP" record --reuse-instance -o "$TM_TMP/e.dat" -- true
	tm_status 2
}

@test "record -B NAME --reuse-instance: records through it and gives back what it changed" {
	tm_need_subbuf_size
	local before
	mkdir "$LONG_DIR"
	echo 512 >"$LONG_DIR/buffer_size_kb"
	echo global >"$LONG_DIR/trace_clock"
	echo 25 >"$LONG_DIR/buffer_percent"
	echo 'sched:sched_wakeup' >"$LONG_DIR/set_event"
	echo 'prio < 200' >"$LONG_DIR/events/sched/sched_wakeup/filter"
	echo 'next_pid > 0' >"$LONG_DIR/events/sched/sched_switch/filter"
	echo $$ >"$LONG_DIR/set_event_pid"
	echo 0 >"$LONG_DIR/options/overwrite"
	echo 0 >"$LONG_DIR/tracing_on"
	before=$(inst_state "$LONG_DIR")
	run "$TRACEMAP" record -B "$LONG_INST" --reuse-instance -b 1024 --subbuf-size 8 -C mono \
		-O overwrite --wakeup-percent 10 -e sched -f 'prev_pid >= 0' -o "$TM_TMP/r.dat" \
		-- sh -c "echo reused-marker > $LONG_DIR/trace_marker"
	tm_status 0
	same_report "$TM_TMP/r.dat"
	grep -q 'tracing_mark_write: reused-marker' "$TM_TMP/tc.txt"
	[ -d "$LONG_DIR" ]
	[ "$(inst_state "$LONG_DIR")" = "$before" ] ||
		{ diff <(echo "$before") <(inst_state "$LONG_DIR") >&2; return 1; }
}

# The trace header's entries-in-buffer (the kernel's counters) and the event lines
# the trace holds, as "COUNTED LINES".
inst_entries() {
	awk '/^# entries-in-buffer\/entries-written:/ { split($3, a, "/"); c = a[1] }
	     !/^#/ { n++ } END { print c + 0, n + 0 }' "$1/trace"
}

# A change of sub-buffer size discards every event but keeps the ring's counters
# (Linux 6.8 to 7.3; with pages_read among them the kernel warns, see
# docs/kernel-ring-buffer-warning.md): tracemap clears the trace after each change
# it makes, so the counters match what the ring holds. On 6.1 nothing changes size
# and the markers stay, counted.
@test "record -B NAME --reuse-instance: its sub-buffer size changes leave no phantom events" {
	local i
	mkdir "$LONG_DIR"
	[ ! -e "$LONG_DIR/buffer_subbuf_size_kb" ] || echo 4 >"$LONG_DIR/buffer_subbuf_size_kb"
	for i in $(seq 50); do echo "unread-$i" >"$LONG_DIR/trace_marker"; done
	echo 0 >"$LONG_DIR/tracing_on"
	[ "$(inst_entries "$LONG_DIR")" = "50 50" ]
	run "$TRACEMAP" record -q -B "$LONG_INST" --reuse-instance -e ftrace:print \
		-o "$TM_TMP/r.dat" -- true
	tm_status 0
	[ "$(cat "$LONG_DIR/tracing_on")" = 0 ]
	[ ! -e "$LONG_DIR/buffer_subbuf_size_kb" ] ||
		[ "$(cat "$LONG_DIR/buffer_subbuf_size_kb")" = 4 ]
	read -r counted lines < <(inst_entries "$LONG_DIR")
	echo "entries-in-buffer $counted, event lines $lines" >&2
	[ "$counted" = "$lines" ]
}

# The summary's events per CPU: the second column of its CPU lines.
summary_events() {
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 { n += $2 } END { print n + 0 }' "$1"
}

@test "record -B NAME --reuse-instance: the summary counts what this recording read" {
	local read_before want got
	mkdir "$LONG_DIR"
	# one write, one event
	bash -c 'for i in $(seq 3000); do echo "earlier-$i" >"$1"; done' _ "$LONG_DIR/trace_marker"
	# what an earlier reader took stays in the kernel's cumulative 'read events'
	run "$TRACEMAP" extract -q -B "$LONG_INST" -o "$TM_TMP/x.dat"
	tm_status 0
	read_before=$("$TRACEMAP" report -i "$TM_TMP/x.dat" | grep -vc '^cpus=')
	[ "$read_before" -ge 3000 ]
	run --separate-stderr "$TRACEMAP" record -B "$LONG_INST" --reuse-instance -e ftrace:print \
		-o "$TM_TMP/r.dat" -- sh -c "for i in \$(seq 500); do echo reused-\$i >$LONG_DIR/trace_marker; done"
	tm_status 0
	echo "$stderr" >"$TM_TMP/summary"
	want=$("$TRACEMAP" report -i "$TM_TMP/r.dat" | grep -vc '^cpus=')
	[ "$want" -eq 500 ]
	got=$(summary_events "$TM_TMP/summary")
	[ "$got" -eq "$want" ] || { echo "summary $got, file $want, read before $read_before" >&2
		cat "$TM_TMP/summary" >&2; return 1; }
	! grep -q 'WARNING: events were lost' "$TM_TMP/summary" || return 1
}

@test "record -B NAME --reuse-instance: per-CPU buffer sizes that differ are given back" {
	[ "$(nproc)" -ge 2 ] || skip "one CPU: its buffer sizes cannot differ"
	local cpu sizes
	mkdir "$LONG_DIR"
	echo 512 >"$LONG_DIR/per_cpu/cpu0/buffer_size_kb"
	echo 1024 >"$LONG_DIR/per_cpu/cpu1/buffer_size_kb"
	[ "$(cat "$LONG_DIR/buffer_size_kb")" = X ]
	sizes=$(cat "$LONG_DIR"/per_cpu/cpu*/buffer_size_kb)
	run "$TRACEMAP" record -q -B "$LONG_INST" --reuse-instance -b 2048 -e sched:sched_switch \
		-o "$TM_TMP/r.dat" -- true
	tm_status 0
	[ "$(cat "$LONG_DIR"/per_cpu/cpu*/buffer_size_kb)" = "$sizes" ] ||
		{ echo "before: $sizes; after: $(cat "$LONG_DIR"/per_cpu/cpu*/buffer_size_kb)" >&2
		  return 1; }
}
