#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# record-stack.bats - kernel stack traces: recorded with -T (the instance's
# stacktrace option), printed as trace-cmd prints them, and every frame in --json.

load helpers

setup() { tm_kernel_setup; }
# trace-cmd 3.1.6's text: report's default until it follows newer trace-cmd (--compat=3.1).
teardown() { tm_kernel_teardown; }

# The stack frames of the text report, "=> name (addr)" lines in order.
text_frames() {
	"$TRACEMAP" report "$1" | grep '^=> '
}

# The same frames from --json: hex strings, kallsyms names (null: unknown).
json_frames() {
	"$TRACEMAP" report --json "$1" |
		jq -r 'select(.event == "kernel_stack") | .fields.caller[] |
			(.addr | ltrimstr("0x")) as $a |
			if .sym then "=> \(.sym) (\($a))" else "=> \($a)" end'
}

@test "report --json: every frame of each kernel stack, hex addresses, names from kallsyms" {
	run "$TRACEMAP" record -q -O stacktrace -e sched:sched_switch -o "$TM_TMP/s.dat" -- sleep 0.2
	tm_status 0
	text_frames "$TM_TMP/s.dat" >"$TM_TMP/text"
	json_frames "$TM_TMP/s.dat" >"$TM_TMP/json"
	[ -s "$TM_TMP/text" ]
	diff "$TM_TMP/text" "$TM_TMP/json"
	# addresses are strings (a JSON number loses kernel addresses above 2^53)
	"$TRACEMAP" report --json "$TM_TMP/s.dat" |
		jq -e -s '[.[] | select(.event == "kernel_stack") | .fields.caller[].addr |
			  type == "string" and test("^0x[0-9a-f]+$")] | length > 0 and all' >/dev/null
	# the format declares caller[8]; stacks deeper than that keep every frame
	"$TRACEMAP" report --json "$TM_TMP/s.dat" |
		jq -e -s '[.[] | select(.event == "kernel_stack") | .fields.caller | length] | max > 8' \
		>/dev/null
}

@test "record -T: a stack after every event, report prints it as trace-cmd does" {
	run "$TRACEMAP" record -q -T -e sched:sched_process_fork -e sched:sched_process_exec \
		-o "$TM_TMP/t.dat" -- sh -c '/bin/true; /bin/true'
	tm_status 0
	trace-cmd report -i "$TM_TMP/t.dat" >"$TM_TMP/tc.txt"
	"$TRACEMAP" report "${TM_REPORT_31[@]}" "$TM_TMP/t.dat" >"$TM_TMP/tm.txt"
	diff "$TM_TMP/tc.txt" "$TM_TMP/tm.txt"
	# each event line is followed by its stack
	local events stacks
	events=$(grep -cE 'sched_process_(fork|exec):' "$TM_TMP/tm.txt")
	stacks=$(grep -c 'kernel_stack: *<stack trace >' "$TM_TMP/tm.txt")
	[ "$events" -ge 4 ] && [ "$stacks" -eq "$events" ] || { cat "$TM_TMP/tm.txt" >&2; return 1; }
	grep -q '^=> kernel_clone (' "$TM_TMP/tm.txt"
	grep -q '^=> .*execve.* (' "$TM_TMP/tm.txt"
}
