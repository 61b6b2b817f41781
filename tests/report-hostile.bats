#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# report-hostile.bats - `tracemap report` and `tracemap convert` on files built to
# break libtraceevent: tests/regress/, and
# crafted format/record damage. Each either prints what trace-cmd would (with a
# warning line per thing dropped or skipped) and exits 0, or exits 1 with one error
# line naming file and offset (convert then leaves no OUT). No kernel needed.

load helpers
load convert-helpers
bats_require_minimum_version 1.5.0

REGRESS=$TM_ROOT/tests/regress

# Every kept regression input.
regression_inputs() {
	ls "$REGRESS"/*.dat
}

setup() {
	TM_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tracemap-hostile.XXXXXX")
}

teardown() {
	[ -n "${TM_TMP:-}" ] && rm -rf "$TM_TMP"
}

no_sanitizer() {
	if grep -qE 'Sanitizer|runtime error' <<<"$stderr"; then
		echo "sanitizer report: $stderr" >&2
		return 1
	fi
}

@test "report-hostile: the printk-overflow findings print like the file they were made from, one warning each" {
	local f mode
	for f in printk-overflow-1 printk-overflow-2; do
		for mode in "" -N --json -R; do
			run --separate-stderr "$TRACEMAP" report $mode -i "$FIXTURES/sched-v6.convert.dat"
			[ "$status" -eq 0 ]
			local want=$output
			run --separate-stderr "$TRACEMAP" report $mode -i "$REGRESS/$f.dat"
			no_sanitizer
			[ "$status" -eq 0 ] || { echo "$f $mode: exit $status: $stderr" >&2; return 1; }
			[ "$output" = "$want" ] || { echo "$f $mode: output differs" >&2; return 1; }
			[ "${#stderr_lines[@]}" -eq 1 ]
			[[ $stderr == *"warning: $REGRESS/$f.dat: printk formats at offset "*"line dropped"* ]]
		done
	done
}

@test "report-hostile: print-dataloc-1 skips its two unreadable records, then fails on CPU 1's corrupt page" {
	local mode
	for mode in "" -N --json; do
		run --separate-stderr "$TRACEMAP" report $mode -i "$REGRESS/print-dataloc-1.dat"
		no_sanitizer
		[ "$status" -eq 1 ]
		[ "${#stderr_lines[@]}" -eq 3 ]
		[[ ${stderr_lines[0]} == *"warning: "*"CPU 0 data: page 0 of the chunk at offset 8196: record at page offset 300: sched_process_exec: field filename (__data_loc offset 20, length 168) runs past the record's 32 bytes; record skipped" ]]
		[[ ${stderr_lines[1]} == *"record at page offset 336: print: field ip (offset 8, size 8) runs past the record's 12 bytes; record skipped" ]]
		[[ ${stderr_lines[2]} == "tracemap report: $REGRESS/print-dataloc-1.dat: top buffer CPU 1 data: page 0 of the chunk at offset 12292: record at page offset 2208 runs past the commit (4068 bytes)" ]]
	done
	run --separate-stderr "$TRACEMAP" report -q -i "$REGRESS/print-dataloc-1.dat"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "report-hostile: every regression input exits 0 or with one error line naming file and offset" {
	local f mode errors
	for f in $(regression_inputs); do
		for mode in "" -N --json --stat; do
			run --separate-stderr timeout -s KILL 30 "$TRACEMAP" report $mode -i "$f"
			no_sanitizer
			case $status in
			0) errors=$(grep -vc 'warning: ' <<<"$stderr" || true)
			   [ -z "$stderr" ] || [ "$errors" -eq 0 ] ;;
			1) errors=$(grep -v 'warning: ' <<<"$stderr")
			   [ "$(wc -l <<<"$errors")" -eq 1 ] && [[ $errors == *"$f"*offset* ]] ;;
			*) echo "$f $mode: exit $status: $stderr" >&2; return 1 ;;
			esac || { echo "$f $mode: exit $status: $stderr" >&2; return 1; }
		done
	done
}

# sched-v7.dat with sched_switch's next_comm moved to offset 90: past every 64-byte record.
make_bad_format() {
	cp "$FIXTURES/sched-v7.dat" "$TM_TMP/badfmt.dat"
	chmod u+w "$TM_TMP/badfmt.dat"
	local at
	at=$(grep -boa $'next_comm\\[16\\];\toffset:40' "$TM_TMP/badfmt.dat" | cut -d: -f1)
	[ -n "$at" ]
	printf '9' | dd of="$TM_TMP/badfmt.dat" bs=1 seek=$((at + 22)) conv=notrunc status=none
}

@test "report-hostile: records outside their format are skipped, 20 warnings then a count, every event accounted for" {
	local total events
	make_bad_format
	total=$("$TRACEMAP" report --json -i "$FIXTURES/sched-v7.dat" | grep -c '"timestamp_ns"')
	run --separate-stderr "$TRACEMAP" report --json -i "$TM_TMP/badfmt.dat"
	no_sanitizer
	[ "$status" -eq 0 ]
	events=$(grep -c '"timestamp_ns"' <<<"$output")
	[ "${#stderr_lines[@]}" -eq 21 ]
	[[ ${stderr_lines[0]} == *"sched_switch: field next_comm (offset 90, size 16) runs past the record's 64 bytes; record skipped" ]]
	[[ ${stderr_lines[20]} == *"badfmt.dat: 167 records skipped (fields outside the record), 147 more warnings not shown" ]]
	[ "$((events + 167))" -eq "$total" ]
	run --separate-stderr "$TRACEMAP" report -q -i "$TM_TMP/badfmt.dat"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

# sched-v6.dat with sched_switch's print fmt `? "+" : "", REC->next_comm` turned into
# `? "+" : "". REC->next_comm` (print-cond-op-1's damage): trace-cmd 3.1.6 crashes on it.
make_cond_op_format() {
	cp "$FIXTURES/sched-v6.dat" "$TM_TMP/condop.dat"
	chmod u+w "$TM_TMP/condop.dat"
	local at
	at=$(grep -boa '? "+" : "", REC->next_comm' "$TM_TMP/condop.dat" | cut -d: -f1)
	[ -n "$at" ]
	printf '.' | dd of="$TM_TMP/condop.dat" bs=1 seek=$((at + 10)) conv=notrunc status=none
}

@test "report-hostile: a print fmt libtraceevent's parser crashes on is left out: its events print as unknown, the rest as before" {
	make_cond_op_format
	run --separate-stderr "$TRACEMAP" report -i "$FIXTURES/sched-v6.dat"
	local want=$output
	run --separate-stderr "$TRACEMAP" report -i "$TM_TMP/condop.dat"
	no_sanitizer
	[ "$status" -eq 0 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"condop.dat: event format at offset 15091 (system sched): its print fmt has an operator libtraceevent does not know after a ?: or an index; format left out" ]]
	# every sched_switch line is now an unknown event; every other line is unchanged
	[ "$(grep -c '\[UNKNOWN EVENT\]' <<<"$output")" -eq "$(grep -c ' sched_switch: ' <<<"$want")" ]
	[ "$(grep -c ' sched_switch: ' <<<"$want")" -gt 100 ]
	diff <(grep -v ' sched_switch: ' <<<"$want") <(grep -v 'UNKNOWN EVENT' <<<"$output")
	run --separate-stderr "$TRACEMAP" convert "$TM_TMP/condop.dat" -o "$TM_TMP/c.pftrace"
	no_sanitizer
	[ "$status" -eq 0 ]
	[[ $stderr == *"format left out" ]]
	pf_decode "$TM_TMP/c.pftrace" >/dev/null
}

@test "report-hostile: convert of every regression input: a complete OUT and exit 0, or one error line and no OUT" {
	local f to out errors
	for f in $(regression_inputs); do
		for to in perfetto json; do
			rm -rf "$TM_TMP/c" && mkdir "$TM_TMP/c"
			out=$TM_TMP/c/out.$to
			run --separate-stderr timeout -s KILL 30 "$TRACEMAP" convert "$f" --to "$to" -o "$out"
			no_sanitizer
			case $status in
			0) errors=$(grep -vc 'warning: ' <<<"$stderr" || true)
			   [ -z "$stderr" ] || [ "$errors" -eq 0 ]
			   if [ "$to" = perfetto ]; then pf_decode "$out" >/dev/null
			   else jq -e '.traceEvents | length > 0' "$out" >/dev/null; fi ;;
			1) errors=$(grep -v 'warning: ' <<<"$stderr")
			   [ "$(wc -l <<<"$errors")" -eq 1 ] && [[ $errors == *"$f"*offset* ]] &&
				[ -z "$(ls -A "$TM_TMP/c")" ] ;;
			*) false ;;
			esac || { echo "$f --to $to: exit $status: $stderr" >&2; return 1; }
		done
	done
}

@test "report-hostile: convert skips records outside their format with report's warnings; the Perfetto trace has report's events" {
	make_bad_format
	run --separate-stderr "$TRACEMAP" convert "$TM_TMP/badfmt.dat" -o "$TM_TMP/b.pftrace"
	no_sanitizer
	[ "$status" -eq 0 ]
	[ "${#stderr_lines[@]}" -eq 21 ]
	[[ ${stderr_lines[0]} == "tracemap convert: warning: "*"sched_switch: field next_comm (offset 90, size 16) runs past the record's 64 bytes; record skipped" ]]
	[[ ${stderr_lines[20]} == *"badfmt.dat: 167 records skipped (fields outside the record), 147 more warnings not shown" ]]
	pf_decode "$TM_TMP/b.pftrace" >"$TM_TMP/b.txt"
	report_counts "$TM_TMP/badfmt.dat" 2>/dev/null >"$TM_TMP/want"
	pf_counts "$TM_TMP/b.txt" >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
	run --separate-stderr "$TRACEMAP" convert -q "$TM_TMP/badfmt.dat" --to json -o "$TM_TMP/b.json"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	jq -e '.traceEvents | length > 0' "$TM_TMP/b.json" >/dev/null
}

@test "report-hostile: make check's mutation test tries the same inputs every run, every kept regression input first" {
	local a b f
	a=$(env -u MUTATE_SEED bash "$TM_ROOT/tests/fuzz/mutate.sh" --plan 100)
	b=$(env -u MUTATE_SEED bash "$TM_ROOT/tests/fuzz/mutate.sh" --plan 100)
	[ "$a" = "$b" ]
	[ "$(grep -c '^mutate seed ' <<<"$a")" -eq 100 ]
	for f in $(regression_inputs); do
		grep -q "^kept .*/${f##*/}\$" <<<"$a" || { echo "not tried: $f" >&2; return 1; }
	done
	[ "$(grep -c '^kept ' <<<"$a")" -eq "$(regression_inputs | wc -l)" ]
	# by hand (make fuzz-long): a new seed each run
	a=$(MUTATE_SEED=random bash "$TM_ROOT/tests/fuzz/mutate.sh" --plan 5)
	b=$(MUTATE_SEED=random bash "$TM_ROOT/tests/fuzz/mutate.sh" --plan 5)
	[ "$a" != "$b" ]
}
