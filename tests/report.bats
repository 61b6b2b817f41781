# SPDX-License-Identifier: GPL-2.0-only
# report.bats - `tracemap report` prints exactly what `trace-cmd report` prints for the
# fixtures: 3.4's text by default (stored in tc34/), 3.1.6's with --compat=3.1 (stored
# beside each fixture, or trace-cmd 3.1.6 run now for the other flags). No kernel.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	TM_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tracemap-report.XXXXXX")
}

teardown() {
	[ -n "${TM_TMP:-}" ] && rm -rf "$TM_TMP"
}

need_trace_cmd() {
	command -v trace-cmd >/dev/null || {
		echo "trace-cmd is not installed (run 'make deps')" >&2
		return 1
	}
}

# Run tracemap report with the given flags on a fixture and diff with expected text.
same_as() {
	local expected=$1; shift
	"$TRACEMAP" report "$@" > "$TM_TMP/out" 2> "$TM_TMP/err" || {
		echo "tracemap report $* failed:" >&2; cat "$TM_TMP/err" >&2; return 1
	}
	diff -u "$expected" "$TM_TMP/out" | head -n 20 >&2
	cmp -s "$expected" "$TM_TMP/out"
}

# Compare with the installed trace-cmd (3.1.6) run now with the same flags.
same_as_trace_cmd() {
	need_trace_cmd
	trace-cmd report "$@" > "$TM_TMP/expected" 2>/dev/null
	same_as "$TM_TMP/expected" --compat=3.1 "$@"
}

# Every fixture: the top-level ones (trace-cmd 3.1.6 wrote them) and upstream/ (3.4, 3.3.4).
all_fixtures() {
	ls "$FIXTURES"/*.dat "$FIXTURES"/upstream/*.dat
}

# The stored report of fixture $1 for flag $2 ("", -N, -t) by trace-cmd $3 (3.1 or 3.4).
stored_report() {
	local f=${1%.dat} suffix=.report.txt
	[ "$2" = -N ] && suffix=.report-noplugins.txt
	[ "$2" = -t ] && suffix=.report-t.txt
	if [ "$3" = 3.4 ]; then
		echo "$(dirname "$f")/tc34/$(basename "$f")$suffix"
	else
		echo "$f$suffix"
	fi
}

@test "report: every fixture, top level and upstream/, prints 3.4's text (default, -N, -t)" {
	local f flag n=0
	for f in $(all_fixtures); do
		for flag in "" -N -t; do
			# shellcheck disable=SC2086
			same_as "$(stored_report "$f" "$flag" 3.4)" $flag -i "$f"
			n=$((n + 1))
		done
	done
	[ "$n" -eq 45 ]
	# the two differences from 3.1.6: the latency column, the format's state letters
	"$TRACEMAP" report -i "$FIXTURES/lost-v6.dat" > "$TM_TMP/out"
	grep -q '^ *true-10641 \[001\] d\.\.2\.  1416\.127483: sched_switch: .* Z ==> ' "$TM_TMP/out"
}

@test "report --compat=3.1: every fixture prints byte-identical to its stored trace-cmd report" {
	local f n=0
	for f in $(all_fixtures); do
		same_as "$(stored_report "$f" "" 3.1)" --compat=3.1 -i "$f"
		n=$((n + 1))
	done
	[ "$n" -eq 15 ]
	# files of trace-cmd >= 3.2 (sizes with the chunk count) included, 3.1.6's letters
	"$TRACEMAP" report --compat=3.1 -i "$FIXTURES/upstream/tc34-two-buffers.dat" > "$TM_TMP/out"
	[ "$(grep -c '^tmA: ' "$TM_TMP/out")" -gt 100 ]
	"$TRACEMAP" report --compat=3.1 -i "$FIXTURES/lost-v6.dat" > "$TM_TMP/out"
	grep -q '^ *true-10641 \[001\]  1416\.127483: sched_switch: .* X ==> ' "$TM_TMP/out"
}

@test "report -N --compat=3.1: every fixture matches trace-cmd report -N (no plugins)" {
	local f
	for f in $(all_fixtures); do
		same_as "$(stored_report "$f" -N 3.1)" --compat=3.1 -N -i "$f"
	done
}

@test "report: a bare FILE argument reads that file" {
	same_as "$FIXTURES/sched-v6.report.txt" --compat=3.1 "$FIXTURES/sched-v6.dat"
	same_as "$FIXTURES/tc34/sched-v6.report.txt" "$FIXTURES/sched-v6.dat"
}

@test "report -t --compat=3.1: full nanosecond timestamps match trace-cmd report -t" {
	local f
	for f in "$FIXTURES"/*.dat; do
		same_as_trace_cmd -t -i "$f"
	done
	grep -q '1415\.676456[0-9]\{3\}: sched_process_fork' "$TM_TMP/out" ||
		grep -q '\.[0-9]\{9\}: ' "$TM_TMP/out"
	for f in "$FIXTURES"/upstream/*.dat; do
		same_as "$(stored_report "$f" -t 3.1)" --compat=3.1 -t -i "$f"
	done
}

@test "report --compat: other values are a usage error" {
	run "$TRACEMAP" report --compat=3.0 -i "$FIXTURES/sched-v7.dat"
	tm_status 2
	[[ "$output" == *"bad --compat '3.0' (expected 3.1 or 3.4)"* ]]
	same_as "$FIXTURES/tc34/lost-v6.report.txt" --compat=3.4 -i "$FIXTURES/lost-v6.dat"
}

@test "report -l: the latency format byte-identical to trace-cmd report -l, with -t, -R, -N, --cpu" {
	local f
	for f in $(all_fixtures); do
		same_as_trace_cmd -l -i "$f"
	done
	same_as_trace_cmd -l -t -i "$FIXTURES/multi-v7-zstd.dat"
	same_as_trace_cmd -l -R -i "$FIXTURES/sched-v7.dat"
	same_as_trace_cmd -l -N -i "$FIXTURES/lost-v6.dat"
	same_as_trace_cmd -l --cpu 1 -i "$FIXTURES/sched-v7-zstd.dat"
	# the layout: comm cut to 8 columns, pid, CPU in 3 columns, the flags, the time
	same_as_trace_cmd -l -i "$FIXTURES/sched-v7.dat"
	grep -q '^capture\.-10494   1d\.\.2\.  1415\.676463: sched_wakeup_new: ' "$TM_TMP/out"
	# --json carries the same flags
	sed -nE 's/^.{8}-[0-9]+ +[0-9]+(.{5}) +[0-9]+\.[0-9]{6}: .*$/\1/p' "$TM_TMP/expected" \
		> "$TM_TMP/lflags"
	"$TRACEMAP" report --json -i "$FIXTURES/sched-v7.dat" | json_latency_column > "$TM_TMP/jflags"
	[ "$(wc -l < "$TM_TMP/lflags")" -eq 821 ]
	cmp "$TM_TMP/lflags" "$TM_TMP/jflags"
}

@test "report -l: by default, trace-cmd 3.4's event text (its state letters) in the -l layout" {
	local f
	for f in "$FIXTURES"/multi-v6.dat "$FIXTURES"/upstream/tc34-two-buffers.dat; do
		"$TRACEMAP" report -l -i "$f" > "$TM_TMP/l34"
		"$TRACEMAP" report -l --compat=3.1 -i "$f" > "$TM_TMP/l31"
		# up to the time stamp as 3.1.6's -l; from there on as 3.4's report
		diff <(sed -E 's/ +[0-9]+\.[0-9]{6}: .*$//' "$TM_TMP/l31") \
			<(sed -E 's/ +[0-9]+\.[0-9]{6}: .*$//' "$TM_TMP/l34")
		diff <(grep -oE '[0-9]+\.[0-9]{6}: .*$' "$(stored_report "$f" "" 3.4)") \
			<(grep -oE '[0-9]+\.[0-9]{6}: .*$' "$TM_TMP/l34")
		! cmp -s "$TM_TMP/l31" "$TM_TMP/l34" || return 1
	done
}

@test "report --cpu: CPU lists select the same events as trace-cmd --cpu" {
	same_as_trace_cmd --cpu 1 -i "$FIXTURES/sched-v7.dat"
	same_as_trace_cmd --cpu 0 -i "$FIXTURES/multi-v6.dat"
	same_as_trace_cmd --cpu 0-1 -i "$FIXTURES/lost-v7-zstd.dat"
	# the selection really removed CPU 0's records
	"$TRACEMAP" report --cpu 1 -i "$FIXTURES/sched-v7.dat" > "$TM_TMP/cpu1"
	! grep -q '\[000\]' "$TM_TMP/cpu1" || return 1
	grep -q '\[001\]' "$TM_TMP/cpu1"
}

@test "report -F/-v: filters keep and hide the same events as trace-cmd" {
	same_as_trace_cmd -F sched_switch -i "$FIXTURES/sched-v7.dat"
	same_as_trace_cmd -F 'sched_wakeup: pid > 10500' -F print -i "$FIXTURES/sched-v7.dat"
	same_as_trace_cmd -v -F 'sched_stat_runtime' -i "$FIXTURES/lost-v6.dat"
	same_as_trace_cmd -F 'sched_switch,sched_waking' -v -F '.*: common_pid == 0' \
		-i "$FIXTURES/sched-v7-zstd.dat"
	[ "$(grep -c sched_switch "$TM_TMP/out")" -gt 0 ]
}

# -F/-v: every show set crossed with every hide set (-v hides what each later -F
# matches), against trace-cmd report 3.1.6 run now on the same file.
@test "report -F/-v: every combination of shown and hidden filters matches trace-cmd" {
	need_trace_cmd
	local f show hide n=0 differ=0
	local shows=("" "-F sched_switch" "-F 'sched_wakeup: pid > 10500' -F print")
	local hides=("" "-v" "-v -F sched_switch" "-v -F sched_switch -F 'sched_wakeup: pid > 10500'"
		"-v -F print -F '.*: common_pid == 0' -F sched_waking,sched_wakeup_new")
	for f in "$FIXTURES/sched-v7.dat"; do
		for show in "${shows[@]}"; do
			for hide in "${hides[@]}"; do
				[ -n "$show$hide" ] || continue
				eval "trace-cmd report $show $hide -i '$f'" >"$TM_TMP/expected" 2>/dev/null
				eval "'$TRACEMAP' report \"\${TM_REPORT_31[@]}\" $show $hide -i '$f'" \
					>"$TM_TMP/out"
				n=$((n + 1))
				cmp -s "$TM_TMP/expected" "$TM_TMP/out" && continue
				differ=$((differ + 1))
				echo "differs from trace-cmd: report $show $hide ${f##*/}" \
					"($(wc -l <"$TM_TMP/expected") vs $(wc -l <"$TM_TMP/out") lines)" >&2
			done
		done
	done
	[ "$n" -eq 14 ]
	[ "$differ" -eq 0 ]
	# the hiding really happened: both hidden events are gone, others stay
	"$TRACEMAP" report "${TM_REPORT_31[@]}" -v -F sched_switch -F sched_wakeup \
		-i "$FIXTURES/sched-v7.dat" >"$TM_TMP/out"
	! grep -qE ' sched_(switch|wakeup): ' "$TM_TMP/out" || return 1
	grep -q ' sched_waking: ' "$TM_TMP/out"
}

@test "report -F on a file with an instance: the report's lines of that event, in order" {
	# trace-cmd 3.1.6 crashes here (-F with instances), so compare with the full report.
	# Task names may differ: the sched_switch plugin registers comms as it formats.
	"$TRACEMAP" report --compat=3.1 -F sched_switch -i "$FIXTURES/multi-v7-zstd.dat" \
		> "$TM_TMP/out"
	grep -E '\] +[0-9]+\.[0-9]+: sched_switch: ' "$FIXTURES/multi-v7-zstd.report.txt" \
		> "$TM_TMP/expected"
	[ "$(wc -l < "$TM_TMP/expected")" -gt 100 ]
	[ "$(head -n 1 "$TM_TMP/out")" = cpus=2 ]
	diff -u <(sed -E 's/^.*(\[[0-9]{3}\] )/\1/' "$TM_TMP/expected") \
		<(sed -E '1d; s/^.*(\[[0-9]{3}\] )/\1/' "$TM_TMP/out")
	[ "$(grep -c '^fmtspec: ' "$TM_TMP/out")" -eq "$(grep -c '^fmtspec: ' "$TM_TMP/expected")" ]
}

@test "report -F: a bad filter is one line on stderr and exit 1" {
	local bad
	for bad in 'sched_switch: (' 'no_such_event'; do
		run "$TRACEMAP" report -F "$bad" -i "$FIXTURES/sched-v7.dat"
		tm_status 1
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "tracemap report: bad filter"* ]]
	done
}

@test "report --stat: buffer statistics match trace-cmd report --stat" {
	local f
	for f in "$FIXTURES"/sched-v6.dat "$FIXTURES"/sched-v7.dat "$FIXTURES"/sched-v7-zstd.dat \
		 "$FIXTURES"/lost-v7-zstd.dat "$FIXTURES"/multi-v6.dat; do
		same_as_trace_cmd --stat -i "$f"
	done
}

@test "report --stat: files of trace-cmd 3.3.4 and 3.4 (sizes count the count) match --stat" {
	local f n=0
	for f in "$FIXTURES"/upstream/*.dat; do
		same_as_trace_cmd --stat -i "$f"
		n=$((n + 1))
	done
	[ "$n" -eq 3 ]
	# instances only: no top-level CPU lines
	! grep -q '^CPU0 data recorded' "$TM_TMP/out" || return 1
}

@test "report: trace-cmd 3.4's options 23-25 read as 3.1.6 reads the file; --stat names them" {
	tm_need perl command -v perl
	perl "$TM_ROOT/tests/newer-options.pl" "$FIXTURES/sched-v7.dat" "$TM_TMP/newer.dat"
	# trace-cmd 3.1.6 sees the three and skips them
	[ "$(trace-cmd dump --options -i "$TM_TMP/newer.dat" 2>&1 |
		grep -cE '^ (23|24|25) [0-9]+\s\[Unknown option')" -eq 3 ]
	same_as_trace_cmd -i "$TM_TMP/newer.dat"
	same_as "$FIXTURES/sched-v7.report.txt" --compat=3.1 -i "$TM_TMP/newer.dat"
	same_as "$FIXTURES/tc34/sched-v7.report.txt" -i "$TM_TMP/newer.dat"
	same_as_trace_cmd --stat -i "$TM_TMP/newer.dat"
	run "$TRACEMAP" report --stat -i "$TM_TMP/newer.dat"
	tm_status 0
	[[ "$output" == *$'\nOptions of newer trace-cmd versions:\n  BTF_FILE (option 23), not '\
$'used by report\n  LAST_BOOT_INFO (option 24): the previous boot\'s addresses\n'\
$'  MODULES_FILE (option 25): the previous boot\'s addresses'* ]]
	run "$TRACEMAP" report --stat -i "$FIXTURES/sched-v7.dat"
	[[ "$output" != *"Options of newer"* ]]
}

@test "report -E: stored event list matches trace-cmd report -E" {
	same_as_trace_cmd -E -i "$FIXTURES/sched-v7-zstd.dat"
	[ "$(wc -l < "$TM_TMP/out")" -eq 44 ]
}

@test "report -R: raw field output matches trace-cmd report -R" {
	same_as_trace_cmd -R -i "$FIXTURES/sched-v7.dat"
	same_as_trace_cmd -R -i "$FIXTURES/multi-v7-zstd.dat"
}

@test "report --first-event/--last-event match trace-cmd" {
	same_as_trace_cmd --first-event -i "$FIXTURES/sched-v7.dat"
	same_as_trace_cmd --last-event -i "$FIXTURES/lost-v7-zstd.dat"
	same_as_trace_cmd --first-event --last-event -t -i "$FIXTURES/multi-v6.dat"
}

@test "report -q: output unchanged" {
	same_as "$FIXTURES/lost-v6.report.txt" --compat=3.1 -q -i "$FIXTURES/lost-v6.dat"
}

@test "report --json: one valid object per event with the report's values" {
	local f events objs
	for f in "$FIXTURES"/sched-v7-zstd.dat "$FIXTURES"/lost-v6.dat "$FIXTURES"/multi-v6.dat; do
		"$TRACEMAP" report --json -i "$f" > "$TM_TMP/json"
		objs=$(jq -c . "$TM_TMP/json" | wc -l)
		events=$(grep -v -e '^cpus=' -e 'EVENTS DROPPED\]$' "${f%.dat}.report.txt" | wc -l)
		[ "$objs" -eq "$events" ]
		[ "$(wc -l < "$TM_TMP/json")" -eq "$events" ]
	done
	# first record of data set A: capture.sh-10494 [001] sched_process_fork child_pid=10497
	"$TRACEMAP" report --json -i "$FIXTURES/sched-v7.dat" | head -n 1 > "$TM_TMP/first"
	[ "$(jq -r '.event + " " + .system + " " + .comm' "$TM_TMP/first")" = "sched_process_fork sched capture.sh" ]
	[ "$(jq '.cpu, .pid, .fields.child_pid' "$TM_TMP/first" | tr '\n' ' ')" = "1 10494 10497 " ]
	[ "$(jq -r '.fields.child_comm | type' "$TM_TMP/first")" = string ]
	[ "$(jq '.timestamp_ns / 1000 | round' "$TM_TMP/first")" = 1415676456 ]
	# the same instant split at the second (exact where timestamp_ns passes 2^53)
	[ "$(jq '.timestamp_sec, .timestamp_nsec' "$TM_TMP/first" | tr '\n' ' ')" = "1415 676456472 " ]
	jq -e -s 'all(.[]; .timestamp_sec * 1000000000 + .timestamp_nsec == .timestamp_ns and
		.timestamp_nsec < 1000000000)' "$TM_TMP/json" >/dev/null
	# the instance's records carry its name (each of the two DROPPED lines took the
	# prefix of the record after it), lost events their count
	"$TRACEMAP" report --json -i "$FIXTURES/multi-v6.dat" > "$TM_TMP/json"
	[ "$(jq -r 'select(.buffer == "fmtspec") | .buffer' "$TM_TMP/json" | wc -l)" -eq \
	  "$(grep -c '^fmtspec: ' "$FIXTURES/multi-v6.report.txt")" ]
	[ "$(jq -r 'select(.missed) | .missed' "$TM_TMP/json" | tr '\n' ' ')" = "1235 -1 " ]
}

# The latency column rebuilt from --json's latency fields, one line per event.
json_latency_column() {
	jq -r '.latency | (if .irqs_off then "d" else "." end) +
		(if .need_resched then "N" else "." end) +
		(if .hardirq and .softirq then "H" elif .hardirq then "h"
		 elif .softirq then "s" else "." end) +
		(if .preempt_depth > 0 then "0123456789abcdef"[.preempt_depth:.preempt_depth + 1]
		 else "." end) +
		(if .migrate_disable > 0 then
			"0123456789abcdef"[.migrate_disable:.migrate_disable + 1] else "." end)'
}

@test "report --json: latency fields say what 3.4's flags column says, upstream files too" {
	local f
	for f in "$FIXTURES"/sched-v7-zstd.dat "$FIXTURES"/multi-v6.dat \
		 "$FIXTURES"/upstream/*.dat; do
		"$TRACEMAP" report --json -i "$f" > "$TM_TMP/json"
		json_latency_column < "$TM_TMP/json" > "$TM_TMP/flags"
		sed -nE 's/^.*\[[0-9]{3}\] (.....)  .*$/\1/p' "$(stored_report "$f" "" 3.4)" \
			> "$TM_TMP/expected"
		[ "$(wc -l < "$TM_TMP/expected")" -gt 500 ]
		diff -u "$TM_TMP/expected" "$TM_TMP/flags" | head -n 20 >&2
		cmp -s "$TM_TMP/expected" "$TM_TMP/flags"
	done
	# the data have set flags: irqs off, need-resched, hardirq, preempt depth
	"$TRACEMAP" report --json -i "$FIXTURES/upstream/tc34-v7-zstd.dat" > "$TM_TMP/json"
	[ "$(jq -c 'select(.latency.irqs_off and .latency.need_resched and .latency.hardirq and
			   .latency.preempt_depth > 0)' "$TM_TMP/json" | wc -l)" -gt 0 ]
}

@test "report: a missing file is one line and exit 1" {
	run "$TRACEMAP" report -i "$TM_TMP/nope.dat"
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "tracemap report: "*nope.dat* ]]
}

@test "report: a non-trace file is one line and exit 1" {
	printf 'hello world, not a trace\n' > "$TM_TMP/bad.dat"
	run "$TRACEMAP" report "$TM_TMP/bad.dat"
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "tracemap report: "* ]]
}

@test "report: a trace.dat from a pipe (-i -, /dev/stdin, a FIFO) prints as the file does" {
	local f
	# the copy goes to an unlinked file in TMPDIR: nothing may stay there
	mkdir "$TM_TMP/tmp"
	export TMPDIR=$TM_TMP/tmp
	for f in sched-v7-zstd sched-v6 multi-v7-zstd; do
		cat "$FIXTURES/$f.dat" | "$TRACEMAP" report "${TM_REPORT_31[@]}" -i - >"$TM_TMP/out"
		cmp "$FIXTURES/$f.report.txt" "$TM_TMP/out"
	done
	cat "$FIXTURES/lost-v6.dat" | "$TRACEMAP" report "${TM_REPORT_31[@]}" /dev/stdin >"$TM_TMP/out"
	cmp "$FIXTURES/lost-v6.report.txt" "$TM_TMP/out"
	mkfifo "$TM_TMP/fifo"
	cat "$FIXTURES/sched-v7.dat" >"$TM_TMP/fifo" &
	timeout -s KILL 20 "$TRACEMAP" report "${TM_REPORT_31[@]}" "$TM_TMP/fifo" >"$TM_TMP/out"
	cmp "$FIXTURES/sched-v7.report.txt" "$TM_TMP/out"
	[ -z "$(ls -A "$TM_TMP/tmp")" ]
}

@test "report: bad options exit 2 with a usage hint" {
	run "$TRACEMAP" report --no-such-option
	tm_status 2
	[[ "$output" == *"--help"* ]]
	run "$TRACEMAP" report --cpu 1-x -i "$FIXTURES/sched-v7.dat"
	tm_status 2
	run "$TRACEMAP" report a.dat b.dat
	tm_status 2
}

@test "report: the man page documents every --help option and is groff-clean" {
	local man="$TM_ROOT/man/tracemap-report.1" opt
	run groff -man -ww -z "$man"
	tm_status 0
	[ -z "$output" ]
	for opt in $("$TRACEMAP" report --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		[ "$opt" = --help ] || [ "$opt" = --usage ] || [ "$opt" = --version ] && continue
		grep -qF -- "${opt//-/\\-}" "$man" || { echo "man page lacks $opt" >&2; return 1; }
	done
}

@test "report on a terminal, its events to a file: progress on stderr only, erased at the end" {
	tm_big_file "$TM_TMP/big.dat"
	tm_in_pty "'$TRACEMAP' report '$TM_TMP/big.dat' >'$TM_TMP/out'" "$TM_TMP/raw"
	tm_progress_lines "$TM_TMP/raw" report >"$TM_TMP/lines"
	[ -s "$TM_TMP/lines" ] || { cat -v "$TM_TMP/raw" >&2; return 1; }
	grep -vE '^report [0-9.]+s  [0-9]+%  [0-9.]+[kMG]? ev/s  [0-9.]+[kMG]? events  [0-9.]+ MB read -> [0-9.]+ MB  [0-9hms]+ left$' \
		"$TM_TMP/lines" >&2 && return 1
	[ "$(tail -c 4 "$TM_TMP/raw" | od -An -c | tr -s ' ')" = ' \r 033 [ K' ]
	# the events are those report writes without a terminal
	"$TRACEMAP" report "$TM_TMP/big.dat" >"$TM_TMP/want"
	cmp "$TM_TMP/want" "$TM_TMP/out"
}

# Issue 44: to /dev/null the line said "-> 0.0 MB": a device has no size to show.
@test "report on a terminal, its events to /dev/null: the progress line shows no bytes written" {
	tm_big_file "$TM_TMP/big.dat"
	tm_in_pty "'$TRACEMAP' report '$TM_TMP/big.dat' >/dev/null" "$TM_TMP/raw"
	tm_progress_lines "$TM_TMP/raw" report >"$TM_TMP/lines"
	[ -s "$TM_TMP/lines" ] || { cat -v "$TM_TMP/raw" >&2; return 1; }
	! grep -- '->' "$TM_TMP/lines" || return 1
	grep -qE '^report [0-9.]+s  [0-9]+%  .* [0-9.]+ MB read  [0-9hms]+ left$' "$TM_TMP/lines" ||
		{ cat "$TM_TMP/lines" >&2; return 1; }
}

# Issue 44: a full disk was "write output: No space left on device", no file named.
@test "report, convert: a full output device is named in the one error line" {
	tm_big_file "$TM_TMP/big.dat"
	run --separate-stderr bash -c "'$TRACEMAP' report '$TM_TMP/big.dat' >/dev/full"
	[ "$status" -eq 1 ]
	[ "$stderr" = "tracemap report: write /dev/full: No space left on device" ] ||
		{ echo "$stderr" >&2; return 1; }
	run --separate-stderr "$TRACEMAP" convert --to json "$TM_TMP/big.dat" -o /dev/full
	[ "$status" -eq 1 ]
	[ "$stderr" = "tracemap convert: write /dev/full: No space left on device" ] ||
		{ echo "$stderr" >&2; return 1; }
}

@test "report printing on the terminal: no progress line among its events" {
	tm_big_file "$TM_TMP/big.dat"
	# every event read, none printed: a progress line would be all the terminal shows
	tm_in_pty "'$TRACEMAP' report -F 'sched_switch: prev_pid == 999999' '$TM_TMP/big.dat'" \
		"$TM_TMP/raw"
	[ "$(tr -d '\r' <"$TM_TMP/raw")" = cpus=2 ] || { cat -v "$TM_TMP/raw" >&2; return 1; }
}
