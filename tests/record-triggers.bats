#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# record-triggers.bats - what the kernel refuses in the private instance (filters,
# triggers) reaches the user with the kernel's reason from error_log; -R event
# triggers run in the private instance and go with it.

load helpers

setup() { tm_kernel_setup; }
teardown() { tm_kernel_teardown; }

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
	bats_require_minimum_version 1.5.0
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
