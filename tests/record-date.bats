#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# record-date.bats - record --date stores the wall-clock offset (DATE option):
# report prints wall-clock times as trace-cmd does, --json adds ISO 8601 times.

load helpers

setup() { tm_kernel_setup; }
teardown() { tm_kernel_teardown; }
# trace-cmd 3.1.6's text: report's default until it follows newer trace-cmd (--compat=3.1).

@test "record --date: events carry wall-clock times, text as trace-cmd prints them" {
	# /bin/true's exec happens between the two wall-clock reads of the shell
	run "$TRACEMAP" record -q --date -e sched:sched_process_exec -o "$TM_TMP/d.dat" -- \
		sh -c "date +%s%N >'$TM_TMP/before'; /bin/true; date +%s%N >'$TM_TMP/after'"
	tm_status 0
	trace-cmd dump --options -i "$TM_TMP/d.dat" 2>&1 | grep -A1 'Option DATE' | grep -q '^0x'
	trace-cmd report -i "$TM_TMP/d.dat" >"$TM_TMP/tc.txt"
	"$TRACEMAP" report "${TM_REPORT_31[@]}" "$TM_TMP/d.dat" >"$TM_TMP/tm.txt"
	diff "$TM_TMP/tc.txt" "$TM_TMP/tm.txt"
	"$TRACEMAP" report --json "$TM_TMP/d.dat" |
		grep '"filename":"/bin/true"' >"$TM_TMP/exec.json"
	[ "$(wc -l <"$TM_TMP/exec.json")" -eq 1 ] || { cat "$TM_TMP/exec.json" >&2; return 1; }
	local ts before after iso
	# the raw digits: jq's doubles round ns since the epoch (above 2^53)
	ts=$(sed 's/^{"timestamp_ns":\([0-9]*\),.*/\1/' "$TM_TMP/exec.json")
	before=$(cat "$TM_TMP/before") after=$(cat "$TM_TMP/after")
	# within the shell's window, give or take 1 ms of calibration error
	((ts >= before - 1000000 && ts <= after + 1000000)) ||
		{ echo "exec at $ts, window $before..$after" >&2; return 1; }
	# the text shows the same wall-clock second
	grep -q " $((ts / 1000000000))\.[0-9]\{6\}: sched_process_exec: *filename=/bin/true" \
		"$TM_TMP/tm.txt"
	# ISO 8601 UTC of the same instant, to the nanosecond
	iso=$(jq -r .time "$TM_TMP/exec.json")
	[ "$iso" = "$(date -u -d "@$((ts / 1000000000))" +%Y-%m-%dT%H:%M:%S).$(printf %09d $((ts % 1000000000)))Z" ] ||
		{ echo "time $iso for $ts" >&2; return 1; }
	# seconds and nanoseconds as two fields: each exact in jq's doubles
	[ "$(jq -r '"\(.timestamp_sec) \(.timestamp_nsec)"' "$TM_TMP/exec.json")" = \
		"$((ts / 1000000000)) $((ts % 1000000000))" ] || { cat "$TM_TMP/exec.json" >&2; return 1; }
}

@test "record without --date: no DATE option, no time in --json" {
	run "$TRACEMAP" record -q -e sched:sched_process_exec -o "$TM_TMP/n.dat" -- /bin/true
	tm_status 0
	! trace-cmd dump --options -i "$TM_TMP/n.dat" 2>&1 | grep -q 'Option DATE' || return 1
	"$TRACEMAP" report --json "$TM_TMP/n.dat" | jq -e -s 'length > 0 and all(has("time") | not)' >/dev/null
}
