#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# report-vm.bats - the function and function_graph files of tests/fixtures-vm/
# (recorded on Debian's 6.1 kernel in the guest of make check-vm by trace-cmd 3.1.6
# and by tracemap; tests/vm/fixtures.sh) against trace-cmd 3.1.6's report texts
# saved beside them. No kernel needed.

load helpers
bats_require_minimum_version 1.5.0

VM_FIXTURES=$TM_ROOT/tests/fixtures-vm

# same_as_trace_cmd NAME MODE: report --compat=3.1 MODE of NAME.dat prints (on
# stdout) what trace-cmd 3.1.6 printed into NAME.reportMODE.txt.
same_as_trace_cmd() {
	local name=$1 mode=$2
	run --separate-stderr "$TRACEMAP" report "${TM_REPORT_31[@]}" $mode "$VM_FIXTURES/$name.dat"
	tm_status 0
	diff -u "$VM_FIXTURES/$name.report$mode.txt" <(printf '%s\n' "$output") | head -n 20 >&2
	[ "$output" = "$(cat "$VM_FIXTURES/$name.report$mode.txt")" ]
}

@test "report-vm: function files print as trace-cmd 3.1.6's (default, -N, -R, -l, -t)" {
	local name mode
	for name in tc-function tm-function; do
		for mode in "" -N -R -l -t; do
			same_as_trace_cmd "$name" "$mode" ||
				{ echo "$name ${mode:-default} differs" >&2; return 1; }
		done
	done
}

@test "report-vm: function_graph files print as trace-cmd 3.1.6's without plugins (-N, -R)" {
	local name mode
	for name in tc-funcgraph tm-funcgraph; do
		for mode in -N -R; do
			same_as_trace_cmd "$name" "$mode" ||
				{ echo "$name $mode differs" >&2; return 1; }
		done
	done
}

@test "report-vm: function_graph files print as trace-cmd 3.1.6's plugin does (default, -l, -t)" {
	skip "function_graph printing: issue 29 report side"
	local name mode
	for name in tc-funcgraph tm-funcgraph; do
		for mode in "" -l -t; do
			same_as_trace_cmd "$name" "$mode" ||
				{ echo "$name ${mode:-default} differs" >&2; return 1; }
		done
	done
}

@test "report-vm: every event format trace-cmd stored on 6.1 loads without a warning" {
	skip "hostile-input check refuses the thermal and devfreq formats of 6.1: issue 29"
	local name
	for name in tc-function tc-funcgraph; do
		run --separate-stderr "$TRACEMAP" report "$VM_FIXTURES/$name.dat"
		tm_status 0
		[ -z "$stderr" ] || { echo "$stderr" >&2; return 1; }
	done
}

@test "report-vm: the fixtures are small, and their texts are what trace-cmd here prints" {
	local f name mode
	for f in "$VM_FIXTURES"/*; do
		[ "$(stat -c %s "$f")" -lt 204800 ] || { echo "$f is 200 KB or more" >&2; return 1; }
	done
	tm_need "trace-cmd 3.1.6" sh -c 'trace-cmd report -h 2>&1 | grep -q "version 3.1.6"'
	for name in tc-function tm-function tc-funcgraph tm-funcgraph; do
		for mode in "" -N -R -l -t; do
			run --separate-stderr trace-cmd report $mode "$VM_FIXTURES/$name.dat"
			[ "$output" = "$(cat "$VM_FIXTURES/$name.report$mode.txt")" ] ||
				{ echo "$name.report$mode.txt is stale" >&2; return 1; }
		done
	done
}
