#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# report-vm.bats - the function and function_graph files of tests/fixtures-vm/
# (recorded on Debian's 6.1 kernel in the guest of make check-vm by trace-cmd 3.1.6
# and by tracemap; tests/vm/fixtures.sh) against trace-cmd 3.1.6's report texts
# saved beside them. No kernel needed.

load helpers
bats_require_minimum_version 1.5.0

VM_FIXTURES=$TM_ROOT/tests/fixtures-vm

# How many event formats report -E lists for file $1.
trace_formats() {
	"$TRACEMAP" report -E "$1" 2>/dev/null | wc -l
}

# same_as_trace_cmd NAME MODE: report --compat=3.1 MODE of NAME.dat prints (on
# stdout) what trace-cmd 3.1.6 printed into NAME.reportMODE.txt (MODE without
# blanks, ':' as '-': "-O fgraph:depth" is in NAME.report-Ofgraph-depth.txt).
same_as_trace_cmd() {
	local name=$1 mode=$2 text
	text=$VM_FIXTURES/$name.report$(echo "$mode" | tr -d ' ' | tr : -).txt
	run --separate-stderr "$TRACEMAP" report "${TM_REPORT_31[@]}" $mode "$VM_FIXTURES/$name.dat"
	tm_status 0
	diff -u "$text" <(printf '%s\n' "$output") | head -n 20 >&2
	[ "$output" = "$(cat "$text")" ]
}

@test "report-vm: function files print as trace-cmd 3.1.6's (default, -N, -R, -l, -t, -O)" {
	local name mode
	for name in tc-function tm-function; do
		for mode in "" -N -R -l -t "-O parent" "-O indent" "-O offset"; do
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

@test "report-vm: function_graph files print as trace-cmd 3.1.6's plugin does (default, -l, -t, -O)" {
	local name mode
	for name in tc-funcgraph tm-funcgraph; do
		for mode in "" -l -t "-O fgraph:tailprint" "-O fgraph:depth"; do
			same_as_trace_cmd "$name" "$mode" ||
				{ echo "$name ${mode:-default} differs" >&2; return 1; }
		done
	done
}

@test "report-vm: function_graph with -F and --cpu as trace-cmd 3.1.6 (leaf before the filter)" {
	tm_need "trace-cmd 3.1.6" sh -c 'trace-cmd report -h 2>&1 | grep -q "version 3.1.6"'
	local name mode
	for name in tc-funcgraph tm-funcgraph; do
		# -F funcgraph_entry: trace-cmd still merges a leaf with the return it hides
		for mode in "-F funcgraph_entry" "-F funcgraph_exit" "-F funcgraph_entry:depth<3" \
			"-v -F funcgraph_exit:depth>2" "--cpu 0" "--cpu 1"; do
			run --separate-stderr trace-cmd report $mode "$VM_FIXTURES/$name.dat"
			local want=$output
			run --separate-stderr "$TRACEMAP" report "${TM_REPORT_31[@]}" $mode \
				"$VM_FIXTURES/$name.dat"
			tm_status 0
			diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$output") | head -n 20 >&2
			[ "$output" = "$want" ] || { echo "$name $mode differs" >&2; return 1; }
		done
	done
}

# The current-trace-cmd text (3.2-3.4): no function_graph text of 3.4 exists for
# these files; its handlers print what 3.1.6's do for them (a leaf's return is
# on the entry's CPU in every one, and 6.1's returns have no retval), with the
# latency column every current line has. So: the default and -t texts with that
# column taken out are 3.1.6's.
@test "report-vm: function_graph in current trace-cmd's text is 3.1.6's with the latency column" {
	local name mode
	for name in tc-funcgraph tm-funcgraph; do
		for mode in "" -t; do
			run --separate-stderr "$TRACEMAP" report $mode "$VM_FIXTURES/$name.dat"
			tm_status 0
			[[ ${lines[1]} =~ \]\ [.a-zA-Z0-9]{5}\  ]] || { echo "${lines[1]}" >&2; return 1; }
			output=$(printf '%s\n' "$output" | sed -E 's/^([^[]*\[[0-9]+\]) [^ ]{5}/\1/')
			diff -u "$VM_FIXTURES/$name.report$mode.txt" <(printf '%s\n' "$output") |
				head -n 20 >&2
			[ "$output" = "$(cat "$VM_FIXTURES/$name.report$mode.txt")" ] ||
				{ echo "$name ${mode:-default} differs" >&2; return 1; }
		done
	done
}

@test "report-vm: every event format trace-cmd stored on 6.1 loads without a warning" {
	# trace-cmd stores every format of the kernel: 1339 of 6.1 in each file
	[ "$(trace_formats "$VM_FIXTURES/tc-funcgraph.dat")" -gt 1000 ]
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
	for name in tc-function tm-function tc-funcgraph tm-funcgraph tm-suspend; do
		for mode in "" -N -R -l -t; do
			run --separate-stderr trace-cmd report $mode "$VM_FIXTURES/$name.dat"
			[ "$output" = "$(cat "$VM_FIXTURES/$name.report$mode.txt")" ] ||
				{ echo "$name.report$mode.txt is stale" >&2; return 1; }
		done
	done
}

@test "report-vm: a suspend's suspend_resume events print as trace-cmd 3.1.6's, actions named" {
	local mode
	# the actions are kernel strings the file's printk formats name: no address printed
	grep -q 'suspend_resume: *freeze_processes\[0\] begin$' "$VM_FIXTURES/tm-suspend.report.txt"
	! grep -q 'suspend_resume: *[0-9a-f]\{16\}' "$VM_FIXTURES/tm-suspend.report.txt" || return 1
	for mode in "" -N -R -l -t; do
		same_as_trace_cmd tm-suspend "$mode" ||
			{ echo "tm-suspend ${mode:-default} differs" >&2; return 1; }
	done
}
