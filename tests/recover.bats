#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# recover.bats - what a recording that did not end normally leaves is saved: the
# spools of a SIGKILLed recorder become a trace.dat (`tracemap recover`), and a
# disk that fills up mid-recording keeps what was written, readable or recoverable.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	tm_ignore_stale
	tm_kernel_setup
	MOUNTED=
	LEFT_INST=
}

teardown() {
	# a test that failed half-way: its recorder stopped, a COMMAND it left killed
	local pid
	for pid in "${REC_PID:-}" "${TM_PID:-}"; do
		[ -n "$pid" ] && kill -INT "$pid" 2>/dev/null && tail --pid="$pid" -f /dev/null
	done
	if [ -s "$TM_TMP/command.pid" ]; then
		kill "$(cat "$TM_TMP/command.pid")" 2>/dev/null || true
	fi
	[ -n "$LEFT_INST" ] && rmdir "$TRACEFS/instances/$LEFT_INST" 2>/dev/null
	cd /
	[ -n "$MOUNTED" ] && umount "$MOUNTED"
	tm_kernel_teardown
}

# write_markers FILE FIRST LAST: numbered 1 KiB lines "mark-N-000..." into the
# trace_marker FILE from CPU 0, one write each; stops at the first failed write
# (tracing was turned off).
write_markers() {
	taskset -c 0 bash -c 'pad=$(printf "%01000d" 0); exec 3>"$1"
		for ((i = $2; i <= $3; i++)); do echo "mark-$i-$pad" >&3 || break
		done 2>/dev/null' _ "$@"
}

# The marker numbers trace-cmd reads from FILE are exactly 1..N with N > 0;
# prints N.
markers_are_a_prefix() {
	trace-cmd report -i "$1" 2>"$TM_TMP/tc.err" | grep -o 'tracing_mark_write: mark-[0-9]*' |
		sed 's/.*mark-//' >"$TM_TMP/nums"
	[ ! -s "$TM_TMP/tc.err" ] || { cat "$TM_TMP/tc.err" >&2; return 1; }
	local n
	n=$(wc -l <"$TM_TMP/nums")
	[ "$n" -gt 0 ]
	diff <(seq 1 "$n") "$TM_TMP/nums" >&2
	echo "$n"
}

# killed_recording OUTPUT: record CPU 0 into OUTPUT, markers until its spool holds
# finished chunks, then SIGKILL the recorder (its instance stays: LEFT_INST).
# WRITTEN: how many markers were written.
killed_recording() {
	local i spool=$1.cpu0.spool
	tm_record_bg 60 -M 1 -e sched:sched_process_exec -o "$1"
	LEFT_INST=$REC_INST
	for ((i = 0; i < 100; i++)); do
		write_markers "$TRACEFS/instances/$REC_INST/trace_marker" $((i * 500 + 1)) \
			$((i * 500 + 500))
		[ "$(stat -c %s "$spool")" -gt 0 ] && break
	done
	[ "$(stat -c %s "$spool")" -gt 0 ]
	WRITTEN=$((i * 500 + 500))
	# past --flush-interval (1 s): whatever the recorder read is in its spool
	sleep 1.5
	kill -KILL "$REC_PID"
	wait "$REC_BG" || true
}

# reset_keeps_ring PREFIX: reset --stale keeps the killed recording's instance
# (its ring holds the rest) and names `tracemap recover PREFIX`, for the instance
# and for the spools.
reset_keeps_ring() {
	run --separate-stderr "$TRACEMAP" reset --stale
	[[ $output != *"removed $REC_INST"* ]]
	[[ $stderr == *"$REC_INST kept"*"tracemap recover $1"* ]] ||
		{ echo "$stderr" >&2; return 1; }
	[[ $stderr == *"${1##*/}.cpu0.spool"*"tracemap recover $1"* ]] ||
		{ echo "$stderr" >&2; return 1; }
	[ -d "$TRACEFS/instances/$REC_INST" ]
}

@test "recover: the spools of a SIGKILLed recording become a trace.dat trace-cmd reads" {
	local n
	cd "$TM_TMP"
	killed_recording "$TM_TMP/k.dat"
	[ -d "$TRACEFS/instances/$REC_INST" ]
	reset_keeps_ring "$TM_TMP/k.dat"
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/k.dat"
	tm_status 0
	[[ $stderr == *"metadata"*"read from tracefs now"* ]] || { echo "$stderr" >&2; return 1; }
	[[ $stderr == *"$REC_INST: its ring is in"*"removed"* ]] || { echo "$stderr" >&2; return 1; }
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
	# the spools and the ring together: every marker written, each once
	n=$(markers_are_a_prefix "$TM_TMP/k.dat")
	echo "# recovered $n markers" >&3
	[ "$n" -eq "$WRITTEN" ] || { echo "$n of $WRITTEN markers recovered" >&2; return 1; }
	trace-cmd dump --options -i "$TM_TMP/k.dat" 2>/dev/null | grep -A1 'Option VERSION' |
		grep -q 'recovered'
	# the spools and their note are consumed, and tracemap report agrees with trace-cmd
	[ -z "$(ls "$TM_TMP" | grep '\.spool' || true)" ]
	"$TRACEMAP" report --compat=3.1 "$TM_TMP/k.dat" >"$TM_TMP/tm.txt"
	trace-cmd report -i "$TM_TMP/k.dat" | cmp - "$TM_TMP/tm.txt"
	# nothing left to mention
	run --separate-stderr "$TRACEMAP" reset
	[[ $stderr != *"k.dat"* ]]
}

@test "recover: reset keeps a killed recording's ring from any directory, recover unlinks it" {
	mkdir "$TM_TMP/away"
	# a recording that ends leaves no registry link behind
	tm_record_bg 60 -e sched:sched_process_exec -o "$TM_TMP/away/n.dat"
	[ -L "/run/tracemap/$REC_INST" ]
	[ "$(readlink "/run/tracemap/$REC_INST")" = "$TM_TMP/away/n.dat.spool-info" ]
	kill -INT "$REC_PID"
	wait "$REC_BG"
	[ ! -L "/run/tracemap/$REC_INST" ]
	# killed: reset from elsewhere (not the spools' directory, nor $TMPDIR) keeps
	# the instance whose ring holds the rest, and names the recovery
	killed_recording "$TM_TMP/away/k.dat"
	cd /
	TMPDIR=/nonexistent reset_keeps_ring "$TM_TMP/away/k.dat"
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/away/k.dat"
	tm_status 0
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
	[ ! -L "/run/tracemap/$REC_INST" ]
	markers_are_a_prefix "$TM_TMP/away/k.dat" >/dev/null
	# a link whose note is gone (its directory removed) goes at the next reset --stale
	ln -s "$TM_TMP/gone/x.dat.spool-info" "/run/tracemap/tracemap-test-$$"
	"$TRACEMAP" reset --stale 2>/dev/null
	[ ! -L "/run/tracemap/tracemap-test-$$" ]
}

# The file is written beside a link's target and renamed over the target (the link
# stays); a device node is written straight through and stays a device.
@test "recover: OUTPUT a symlink or a device node: the link stays, the node stays a node" {
	local s
	mkdir "$TM_TMP/data" "$TM_TMP/links"
	echo old >"$TM_TMP/data/real.dat"
	ln -s ../data/real.dat "$TM_TMP/links/k.dat"
	cd "$TM_TMP"
	killed_recording "$TM_TMP/links/k.dat"
	rmdir "$TRACEFS/instances/$REC_INST"
	# the same spools named after a private null device (never the real /dev/null)
	mknod -m666 "$TM_TMP/null" c 1 3
	for s in "$TM_TMP"/links/k.dat.*spool*; do
		cp "$s" "$TM_TMP/null${s#"$TM_TMP"/links/k.dat}"
	done
	run "$TRACEMAP" recover -q "$TM_TMP/links/k.dat"
	tm_status 0
	[ -L "$TM_TMP/links/k.dat" ] && [ "$(readlink "$TM_TMP/links/k.dat")" = ../data/real.dat ]
	markers_are_a_prefix "$TM_TMP/data/real.dat" >/dev/null
	[ "$(ls -A "$TM_TMP/data")" = real.dat ] && [ "$(ls -A "$TM_TMP/links")" = k.dat ] ||
		{ ls -laR "$TM_TMP" >&2; return 1; }
	run "$TRACEMAP" recover -q "$TM_TMP/null"
	tm_status 0
	[ -c "$TM_TMP/null" ] || { ls -la "$TM_TMP" >&2; return 1; }
	[ -z "$(ls "$TM_TMP" | grep -v -x -e data -e links -e null -e nums -e tc.err -e 'rec\..*')" ] ||
		{ ls -la "$TM_TMP" >&2; return 1; }
}

@test "recover: refuses while the recording runs, and without spools" {
	cd "$TM_TMP"
	tm_record_bg 60 -e sched:sched_process_exec -o "$TM_TMP/r.dat"
	[ -e "$TM_TMP/r.dat.spool-info" ]
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/r.dat"
	tm_status 1
	[[ $stderr == *"still running"*"$REC_PID"* ]] || { echo "$stderr" >&2; return 1; }
	kill -INT "$REC_PID"
	wait "$REC_BG"
	# a normal end removes the spools and their note
	[ -z "$(ls "$TM_TMP" | grep '\.spool' || true)" ]
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/r.dat"
	tm_status 1
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"no spools"* ]]
	trace-cmd report -i "$TM_TMP/r.dat" >/dev/null
}

@test "record: a full disk stops the recording, keeps the data and waits for COMMAND" {
	local n
	mkdir "$TM_TMP/small"
	mount -t tmpfs -o size=4m tmpfs "$TM_TMP/small"
	MOUNTED=$TM_TMP/small
	# 20 MiB of markers into a 4 MiB file system from COMMAND (its parent is
	# tracemap, whose instance is ready when it runs); it ends once tracemap
	# says it waits for it, and says when it is done
	tm_record_bg 120 -M 1 -b 8192 -e sched:sched_process_exec --compression none \
		-o "$TM_TMP/small/d.dat" -- taskset -c 0 bash -c 'pad=$(printf "%01000d" 0)
			echo $$ >"${2%/*}/command.pid"
			exec 3>"$1/tracemap-$PPID/trace_marker"
			for ((i = 1; i <= 20000; i++)); do echo "mark-$i-$pad" >&3 || break
			done 2>/dev/null
			tm_wait 30 "tracemap to wait for taskset" grep -q "waiting for taskset" "$3"
			touch "$2"' _ "$TRACEFS/instances" "$TM_TMP/done" "$TM_TMP/rec.err"
	LEFT_INST=$REC_INST
	REC_STATUS=0
	wait "$REC_BG" || REC_STATUS=$?
	sed 's/^/# /' "$REC_ERR" >&3
	# tracemap waited for COMMAND to end: it did not orphan it
	[ -e "$TM_TMP/done" ]
	[ "$REC_STATUS" -eq 1 ] || { echo "exit $REC_STATUS" >&2; cat "$REC_ERR" >&2; return 1; }
	grep -q "d.dat.cpu0.spool: No space left on device" "$REC_ERR"
	grep -q 'waiting for taskset' "$REC_ERR"
	grep -q "tracemap recover $TM_TMP/small/d.dat" "$REC_ERR"
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
	# the file did not fit: the spools are kept; with room again, recover saves them.
	# The trace.dat this recording created is gone, not left empty (its man page, issue 44)
	ls "$TM_TMP/small"/d.dat.cpu0.spool
	[ ! -e "$TM_TMP/small/d.dat" ] || { ls -l "$TM_TMP/small" >&2; return 1; }
	mount -o remount,size=64m "$TM_TMP/small"
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/small/d.dat"
	tm_status 0
	n=$(markers_are_a_prefix "$TM_TMP/small/d.dat")
	echo "# kept $n of 20000 markers" >&3
	[ "$n" -lt 20000 ]
	[ -z "$(ls "$TM_TMP/small" | grep '\.spool' || true)" ]
}

@test "record: a full TMPDIR under -o - still writes the recorded part to stdout" {
	local n
	mkdir "$TM_TMP/small"
	mount -t tmpfs -o size=4m tmpfs "$TM_TMP/small"
	MOUNTED=$TM_TMP/small
	TMPDIR=$TM_TMP/small tm_bg 120 "$TM_TMP/p.dat" "$TM_TMP/p.err" record -M 1 -b 8192 \
		-e sched:sched_process_exec --compression none -o -
	write_markers "$TRACEFS/instances/$TM_INST/trace_marker" 1 20000
	kill -INT "$TM_PID" 2>/dev/null || true
	REC_STATUS=0
	wait "$TM_BG" || REC_STATUS=$?
	[ "$REC_STATUS" -eq 1 ] || { echo "exit $REC_STATUS" >&2; cat "$TM_TMP/p.err" >&2; return 1; }
	grep -q 'No space left on device' "$TM_TMP/p.err"
	[ "$(grep -c 'No space left on device' "$TM_TMP/p.err")" -eq 1 ]
	n=$(markers_are_a_prefix "$TM_TMP/p.dat")
	echo "# wrote $n of 20000 markers" >&3
	[ "$n" -lt 20000 ]
	[ -z "$(ls -A "$TM_TMP/small")" ]
	[ ! -d "$TRACEFS/instances/$TM_INST" ]
}

# kill_after_marker OUTPUT RECORD-OPTIONS...: a recording that sees nothing but
# one marker in its instance (an exec event of pid 0 never comes), SIGKILL
# 2.5 s later; the instance stays.
kill_after_marker() {
	local out=$1
	shift
	cd "$TM_TMP"
	tm_record_bg 60 -e sched:sched_process_exec -f 'pid == 0' "$@" -o "$out"
	LEFT_INST=$REC_INST
	echo "crash-marker-27" >"$TRACEFS/instances/$REC_INST/trace_marker"
	sleep 2.5
	kill -KILL "$REC_PID"
	wait "$REC_BG" || true
	[ -d "$TRACEFS/instances/$REC_INST" ]
}

@test "recover: a marker 2.5 s before a SIGKILL on a quiet machine comes back" {
	kill_after_marker "$TM_TMP/q.dat"
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/q.dat"
	tm_status 0
	[[ $stderr == *": 1 events, "* ]] || { echo "$stderr" >&2; return 1; }
	trace-cmd report -i "$TM_TMP/q.dat" 2>/dev/null | grep -q 'tracing_mark_write: crash-marker-27'
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
}

# Whole chunks only (--flush-interval 0): the spools stay empty, the marker is in
# the ring alone; on the read() path too, which once read the page the writer was
# filling, and the SIGKILL took the marker with it (the 6.1 guest).
ring_alone() {
	kill_after_marker "$TM_TMP/g.dat" --flush-interval 0 "$@"
	[ ! -s "$TM_TMP/g.dat.cpu0.spool" ] && [ ! -s "$TM_TMP/g.dat.cpu1.spool" ]
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/g.dat"
	tm_status 0
	[[ $stderr == *": 0 events from its spool, 1 from the ring"* ]] ||
		{ echo "$stderr" >&2; return 1; }
	"$TRACEMAP" report "$TM_TMP/g.dat" | grep -q 'tracing_mark_write: crash-marker-27'
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
}

@test "recover: events only the dead recorder's ring holds are taken from it" {
	ring_alone
}

@test "recover: the same on the read() path (--no-mmap)" {
	ring_alone --no-mmap
}

@test "recover: nothing in the spools nor in the ring is a failure" {
	cd "$TM_TMP"
	tm_record_bg 60 -e sched:sched_process_exec -f 'pid == 0' -o "$TM_TMP/e.dat"
	LEFT_INST=$REC_INST
	kill -KILL "$REC_PID"
	wait "$REC_BG" || true
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/e.dat"
	tm_status 1
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"no events to recover"* ]] || { echo "$stderr" >&2; return 1; }
}

# Issue 44: a SIGKILLed --flight recording got no hint (recover: 'no spools', reset
# --stale would remove the ring holding its newest events).
@test "recover: a SIGKILLed --flight recording is recovered from its ring, reset keeps it" {
	local i
	cd "$TM_TMP"
	tm_record_bg 60 -e sched:sched_process_exec -f 'pid == 0' --flight 4M -o "$TM_TMP/fl.dat"
	LEFT_INST=$REC_INST
	[ -e "$TM_TMP/fl.dat.spool-info" ]
	# stopped first: the markers stay in the ring, unread
	kill -STOP "$REC_PID"
	for i in $(seq 50); do echo "flight-marker-$i" >"$TRACEFS/instances/$REC_INST/trace_marker"; done
	kill -KILL "$REC_PID"
	wait "$REC_BG" || true
	run --separate-stderr "$TRACEMAP" reset
	[[ $stderr == *"$REC_INST kept"*"tracemap recover $TM_TMP/fl.dat"* ]] ||
		{ echo "$stderr" >&2; return 1; }
	# the dry run's last word: "removes them" only when something would go (another
	# session's stale instance), else that all are kept (issue 44)
	if [[ $output == *"would remove"* ]]; then
		[[ $stderr == *"dry run: 'tracemap reset --stale' removes them"* ]]
	else
		[[ $stderr == *"dry run: 'tracemap reset --stale' would keep them all"* ]] &&
			[[ $stderr != *"removes them"* ]]
	fi || { echo "$output / $stderr" >&2; return 1; }
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/fl.dat"
	tm_status 0
	[[ $stderr == *"fl.dat: 50 events, "* ]] || { echo "$stderr" >&2; return 1; }
	[ "$("$TRACEMAP" report "$TM_TMP/fl.dat" | grep -c 'tracing_mark_write: flight-marker-')" -eq 50 ]
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
	[ ! -e "$TM_TMP/fl.dat.spool-info" ]
}
