#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# convert.bats - `tracemap convert` on the fixtures: Perfetto traces protoc decodes with
# every event report prints, Chrome JSON jq reads, and one-line errors that leave no
# OUT behind. No kernel.

load helpers
load convert-helpers
bats_require_minimum_version 1.5.0

setup() {
	TM_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tracemap-convert.XXXXXX")
}

teardown() {
	[ -n "${TM_TMP:-}" ] && rm -rf "$TM_TMP"
}

# Every fixture report reads (v6 and v7, none and zstd, lost events, instances).
fixtures() {
	local f
	for f in "$FIXTURES"/*.dat "$FIXTURES"/upstream/*.dat; do
		"$TRACEMAP" report "$f" >/dev/null 2>&1 && echo "$f"
	done
}

@test "convert: every fixture's Perfetto trace decodes with protoc and has report's events, per type" {
	local f n=0
	for f in $(fixtures); do
		check_perfetto_counts "$f" || { echo "in $f" >&2; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 12 ]
}

@test "convert: sched_switch and sched_waking field values match report -N" {
	check_perfetto_fields "$FIXTURES/sched-v7-zstd.dat"
	check_perfetto_fields "$FIXTURES/lost-v6.dat"
}

@test "convert: typed messages for Perfetto's events, described generic events carry every field" {
	"$TRACEMAP" convert "$FIXTURES/sched-v6.dat" -o "$TM_TMP/s.pftrace"
	pf_decode "$TM_TMP/s.pftrace" >"$TM_TMP/s.txt"
	grep -q '^      sched_switch {' "$TM_TMP/s.txt"
	grep -q '^      sched_waking {' "$TM_TMP/s.txt"
	grep -q '^      print {' "$TM_TMP/s.txt"
	grep -q 'buf: "fixture-marker-cpu1\\n"' "$TM_TMP/s.txt"
	# no event goes by name: each has a typed message or a descriptor
	pf_decode_raw "$TM_TMP/s.pftrace" >"$TM_TMP/raw.txt"
	! grep -q 'event_name:' "$TM_TMP/raw.txt" || return 1
	grep -q '^    generic_event_descriptors {$' "$TM_TMP/raw.txt"
	# each descriptor once in the trace, with its field number from 65536 on
	grep '^      field_id: ' "$TM_TMP/raw.txt" | sort | uniq -d | grep . && return 1
	grep '^      field_id: ' "$TM_TMP/raw.txt" | awk '$2 < 65536 { exit 1 }'
	# sched_stat_runtime has no typed message: comm, pid, runtime by its descriptor,
	# every one with report's values
	"$TRACEMAP" report --json "$FIXTURES/sched-v6.dat" |
		jq -r 'select(.event == "sched_stat_runtime") |
			"\(.timestamp_ns) \(.fields.comm) \(.fields.pid) \(.fields.runtime)"' |
		sort >"$TM_TMP/want"
	awk '/^      timestamp: / { ts = $2 } /^      sched_stat_runtime \{$/ { r = 1; v = ""; next }
		r && /^        [a-z]+: / { x = $2; gsub(/"/, "", x); v = v " " x }
		r && /^      \}$/ { print ts v; r = 0 }' "$TM_TMP/s.txt" | sort >"$TM_TMP/got"
	[ -s "$TM_TMP/want" ]
	diff -u "$TM_TMP/want" "$TM_TMP/got"
}

@test "convert: sched_process_exec/wait and sched_migrate_task are typed, with report's fields" {
	"$TRACEMAP" convert "$FIXTURES/sched-v6.dat" -o "$TM_TMP/s.pftrace"
	pf_decode "$TM_TMP/s.pftrace" >"$TM_TMP/s.txt"
	check_typed "$FIXTURES/sched-v6.dat" "$TM_TMP/s.txt" sched_process_exec filename pid old_pid
	check_typed "$FIXTURES/sched-v6.dat" "$TM_TMP/s.txt" sched_process_wait comm pid prio
	check_typed "$FIXTURES/sched-v6.dat" "$TM_TMP/s.txt" sched_migrate_task \
		comm pid prio orig_cpu dest_cpu
}

@test "convert: function_graph is typed funcgraph_entry/exit, func named as report names it" {
	local f
	for f in tc-funcgraph tm-funcgraph; do
		"$TRACEMAP" convert "$TM_ROOT/tests/fixtures-vm/$f.dat" -o "$TM_TMP/g.pftrace"
		pf_decode "$TM_TMP/g.pftrace" >"$TM_TMP/g.txt"
		check_typed "$TM_ROOT/tests/fixtures-vm/$f.dat" "$TM_TMP/g.txt" funcgraph_entry depth
		check_typed "$TM_ROOT/tests/fixtures-vm/$f.dat" "$TM_TMP/g.txt" funcgraph_exit \
			depth overrun calltime rettime
		# func is an iid of the packet sequence's InternedData.kernel_symbols
		# (trace_processor: InternedKernelSymbolOrFallback): the name report -R prints
		pf_ksym_names "$TM_TMP/g.txt" >"$TM_TMP/got"
		report_ksym_names "$TM_ROOT/tests/fixtures-vm/$f.dat" >"$TM_TMP/want"
		[ "$(wc -l <"$TM_TMP/want")" -ge 300 ]
		diff -u "$TM_TMP/want" "$TM_TMP/got" | head -n 20 >&2
		cmp -s "$TM_TMP/want" "$TM_TMP/got" || { echo "in $f" >&2; return 1; }
		# each symbol once per sequence; the sequence's first interning packet
		# clears its incremental state, as traced_probes' does
		pf_decode_raw "$TM_TMP/g.pftrace" >"$TM_TMP/raw.txt"
		[ "$(grep -c '^  sequence_flags: 1$' "$TM_TMP/raw.txt")" -eq 1 ]
		! grep '^      iid: ' "$TM_TMP/raw.txt" | sort | uniq -d | grep . || return 1
	done
}

@test "convert: suspend_resume is typed, action the kernel string trace-cmd prints" {
	local dat=$TM_ROOT/tests/fixtures-vm/tm-suspend.dat
	"$TRACEMAP" convert "$dat" -o "$TM_TMP/p.pftrace"
	pf_decode "$TM_TMP/p.pftrace" >"$TM_TMP/p.txt"
	# FtraceEvent member 113 (what trace_processor draws), not a described event
	pf_decode_raw "$TM_TMP/p.pftrace" >"$TM_TMP/raw.txt"
	[ "$(grep -c '^      suspend_resume {$' "$TM_TMP/raw.txt")" -ge 4 ]
	! grep -q 'suspend_resume' <(grep event_descriptor "$TM_TMP/raw.txt") || return 1
	check_typed "$dat" "$TM_TMP/p.txt" suspend_resume val start
	# action (a `const char *`) as the text at its address: the "ACTION[VAL] begin|end"
	# lines of trace-cmd 3.1.6's report, in time order
	sed -n 's/.* suspend_resume: *\([^ ]*\)\[\([0-9]*\)\] \(begin\|end\)$/\1 \2 \3/p' \
		"$TM_ROOT/tests/fixtures-vm/tm-suspend.report.txt" | sed 's/ begin$/ 1/; s/ end$/ 0/' \
		>"$TM_TMP/want"
	pf_typed "$TM_TMP/p.txt" suspend_resume action val start | sort -n |
		sed 's/^[0-9]* [0-9]* action=\(.*\) val=\(.*\) start=\(.*\)$/\1 \2 \3/' >"$TM_TMP/got"
	[ "$(wc -l <"$TM_TMP/want")" -ge 4 ]
	diff -u "$TM_TMP/want" "$TM_TMP/got"
}

@test "convert: hrtimer_expire_entry/exit are typed, function named as report names it" {
	local f
	for f in tc34-v7-zstd tc334-sched; do
		f=$FIXTURES/upstream/$f.dat
		"$TRACEMAP" convert "$f" -o "$TM_TMP/h.pftrace"
		pf_decode "$TM_TMP/h.pftrace" >"$TM_TMP/h.txt"
		check_typed "$f" "$TM_TMP/h.txt" hrtimer_expire_entry hrtimer now
		check_typed "$f" "$TM_TMP/h.txt" hrtimer_expire_exit hrtimer
		# function: an iid of the sequence's InternedData.kernel_symbols (trace_processor
		# names the "Hrtimer Cpu N" slice by it): the name report prints
		pf_ksym_names "$TM_TMP/h.txt" hrtimer_expire_entry function >"$TM_TMP/got"
		"$TRACEMAP" report -t "$f" | awk '
			match($0, / [0-9]+\.[0-9]+: hrtimer_expire_entry: .* function=[^ ]+/) {
				s = substr($0, RSTART + 1, RLENGTH - 1)
				ts = s; sub(/:.*/, "", ts); sub(/\./, "", ts); sub(/^0+/, "", ts)
				fn = s; sub(/.* function=/, "", fn); sub(/[+\/].*/, "", fn)
				print ts, "hrtimer_expire_entry", fn
			}' | sort >"$TM_TMP/want"
		[ "$(wc -l <"$TM_TMP/want")" -ge 40 ]
		diff -u "$TM_TMP/want" "$TM_TMP/got" | head -n 20 >&2
		cmp -s "$TM_TMP/want" "$TM_TMP/got" || { echo "in $f" >&2; return 1; }
	done
}

@test "convert: compact_sched carries sched_switch and sched_waking, each with report's fields" {
	local f n full compact
	for f in sched-v6 sched-v7-zstd lost-v6 lost-v7-zstd upstream/tc334-sched; do
		f=$FIXTURES/$f.dat
		"$TRACEMAP" convert "$f" -o "$TM_TMP/c.pftrace"
		pf_decode_raw "$TM_TMP/c.pftrace" >"$TM_TMP/raw.txt"
		compact=$(grep -c '^      switch_timestamp: ' "$TM_TMP/raw.txt" || true)
		full=$(grep -c '^      sched_switch {$' "$TM_TMP/raw.txt" || true)
		# full events only where trace_processor could not infer prev_*: a CPU's
		# first switch, after a loss, a task renamed by exec while it ran
		[ "$compact" -gt "$full" ] || { echo "$f: $compact compact, $full full" >&2; return 1; }
		grep -q '^      waking_timestamp: ' "$TM_TMP/raw.txt"
		# every switch and waking, with pid, prios, prev_state, comms, target CPU as
		# report prints them, when read back as trace_processor does
		pf_decode "$TM_TMP/c.pftrace" >"$TM_TMP/c.txt"
		pf_sched_tuples "$TM_TMP/c.txt" >"$TM_TMP/got"
		report_sched_tuples "$f" >"$TM_TMP/want"
		n=$(wc -l <"$TM_TMP/want")
		[ "$n" -gt 100 ] || { echo "$f: $n sched events" >&2; return 1; }
		diff -u "$TM_TMP/want" "$TM_TMP/got" | head -n 20 >&2
		cmp -s "$TM_TMP/want" "$TM_TMP/got" || { echo "in $f" >&2; return 1; }
	done
}

@test "convert: a sched trace takes at most 27 bytes an event in Perfetto" {
	local f n size
	for f in sched-v6 sched-v7-zstd; do
		f=$FIXTURES/$f.dat
		"$TRACEMAP" convert "$f" -o "$TM_TMP/s.pftrace"
		n=$("$TRACEMAP" report --json "$f" | wc -l)
		size=$(stat -c %s "$TM_TMP/s.pftrace")
		[ "$size" -le $((n * 27)) ] || { echo "$f: $size bytes, $n events" >&2; return 1; }
		# event times count from the sequence's first record (its clock pair
		# gives the boot time back): 29 bits for this 0.32 s recording, where
		# the machine's boot time took 41
		pf_decode_raw "$TM_TMP/s.pftrace" |
			awk '/^      timestamp: / && $2 >= 2^29 { print; bad = 1 } END { exit bad }' |
			head -n 3 >&2
		[ "${PIPESTATUS[1]}" -eq 0 ] || { echo "in $f" >&2; return 1; }
	done
}

@test "convert: lost pages flag their bundles, CPU stats become FtraceStats" {
	"$TRACEMAP" convert "$FIXTURES/lost-v7-zstd.dat" -o "$TM_TMP/l.pftrace"
	pf_decode "$TM_TMP/l.pftrace" >"$TM_TMP/l.txt"
	# both CPUs lost events (fixture README): each has a flagged bundle
	[ "$(grep -c 'lost_events: true' "$TM_TMP/l.txt")" -eq 2 ]
	grep -q 'phase: END_OF_TRACE' "$TM_TMP/l.txt"
	grep -q 'overrun: 1238' "$TM_TMP/l.txt"
	grep -q 'overrun: 1235' "$TM_TMP/l.txt"
}

@test "convert: each bundle names its CPU's previous bundle end; a first one only after a loss" {
	local f
	# lost-*: both CPUs' buffers overwritten before the first page (fixture README);
	# sched-v6: no loss; tc34-v7-zstd: several bundles per CPU, no loss
	for f in lost-v7-zstd sched-v6 upstream/tc34-v7-zstd; do
		"$TRACEMAP" convert "$FIXTURES/$f.dat" -o "$TM_TMP/b.pftrace"
		pf_decode "$TM_TMP/b.pftrace" >"$TM_TMP/b.txt"
		# per sequence and CPU: previous_bundle_end_timestamp = the last event of the
		# bundle before; the first bundle: its first event after a loss (where the
		# CPU's data starts, trace_processor's ftrace_latest_data_start_ns), else none
		awk -v f="$f" '
			function bad(m) { printf "%s: bundle %d (seq %s cpu %s): %s\n", f, n, seq,
				cpu, m; err = 1 }
			/^packet \{$/ { b = 0; cpu = prev = seq = ""; lost = 0; lo = hi = ""; next }
			/^  ftrace_events \{$/ { b = 1; n++ }
			b && /^    cpu: / { cpu = $2 }
			b && /^    previous_bundle_end_timestamp: / { prev = $2 }
			b && /^    lost_events: true$/ { lost = 1 }
			b && /^      timestamp: / { t = $2 + 0; if (lo == "" || t < lo + 0) lo = $2
				if (hi == "" || t > hi + 0) hi = $2 }
			/^  trusted_packet_sequence_id: / { seq = $2 }
			/^\}$/ && b {
				k = seq " " cpu
				want = (k in end) ? end[k] : (lost ? lo : "")
				if (k in end) later++
				if (prev != want) bad("previous end " prev ", want " want)
				if (hi != "") end[k] = hi
			}
			END { if (!n) bad("no bundle"); if (f ~ /tc34/ && !later)
				bad("no CPU with a second bundle"); exit err }' "$TM_TMP/b.txt"
	done
	# the lost fixture's first bundles: each CPU's first event as report prints it,
	# once trace_processor converted it by the bundle's clock as it does the events
	"$TRACEMAP" convert "$FIXTURES/lost-v7-zstd.dat" -o "$TM_TMP/l.pftrace"
	pf_decode "$TM_TMP/l.pftrace" | awk '/^    previous_bundle_end_timestamp: / { print $2 }' |
		sort >"$TM_TMP/got"
	"$TRACEMAP" report --json "$FIXTURES/lost-v7-zstd.dat" |
		jq -s -r 'group_by(.cpu) | .[] | min_by(.timestamp_ns) | .timestamp_ns' | sort >"$TM_TMP/want"
	[ "$(wc -l <"$TM_TMP/want")" -eq 2 ]
	diff -u "$TM_TMP/want" "$TM_TMP/got"
}

@test "convert: thread names, local clock, report's timestamps" {
	"$TRACEMAP" convert "$FIXTURES/sched-v7.dat" -o "$TM_TMP/c.perfetto-trace"
	pf_decode "$TM_TMP/c.perfetto-trace" >"$TM_TMP/c.txt"
	grep -A2 'tid: 10498$' "$TM_TMP/c.txt" | grep -q 'name: "sh"'
	grep -q 'ftrace_clock: FTRACE_CLOCK_LOCAL' "$TM_TMP/c.txt"
	# the first event report prints, to the nanosecond
	first=$("$TRACEMAP" report -t "$FIXTURES/sched-v7.dat" |
		sed -n '2s/^.* \([0-9]*\)\.\([0-9]\{9\}\): .*/\1\2/p')
	grep -q "timestamp: $first\$" "$TM_TMP/c.txt"
}

@test "convert: a SystemInfo packet names the traced kernel, so prev_state decodes by its layout" {
	local uname
	pf_convert "$FIXTURES/sched-v6.dat" "$TM_TMP/s.txt"
	# the UNAME option as trace-cmd reads it: "sysname nodename release machine"
	uname=$(trace-cmd dump --options "$FIXTURES/sched-v6.dat" 2>/dev/null |
		grep -A1 'Option UNAME' | tail -n1)
	read -r sys _ rel mach <<<"$uname"
	[ -n "$rel" ]
	[ "$(grep -c '^  system_info {$' "$TM_TMP/s.txt")" -eq 1 ]
	grep -A6 '^  system_info {$' "$TM_TMP/s.txt" >"$TM_TMP/si.txt"
	grep -qx "      sysname: \"$sys\"" "$TM_TMP/si.txt"
	grep -qx "      release: \"$rel\"" "$TM_TMP/si.txt"
	grep -qx "      machine: \"$mach\"" "$TM_TMP/si.txt"
	grep -qx '    num_cpus: 2' "$TM_TMP/si.txt"
}

@test "convert: every task an event mentions is a named process with itself as thread, never under pid 0" {
	local f n np
	for f in $(fixtures); do
		pf_convert "$f" "$TM_TMP/p.txt"
		n=$(check_thread_tgids "$TM_TMP/p.txt") || { echo "in $f: $n" >&2; return 1; }
		np=$(pf_processes "$TM_TMP/p.txt" | wc -l)
		[ "$n" -eq "$np" ] || { echo "$f: $n threads, $np processes" >&2; return 1; }
	done
	pf_convert "$FIXTURES/sched-v7.dat" "$TM_TMP/s.txt"
	grep -A3 '^      tid: 10498$' "$TM_TMP/s.txt" | grep -q '^      tgid: 10498$'
}

@test "convert: the ProcessTree names every sched_switch pid, lists no pid the events never mention" {
	local f=$FIXTURES/sched-v6.dat pid cmdlines
	pf_convert "$f" "$TM_TMP/p.txt"
	pf_processes "$TM_TMP/p.txt" | sort -n >"$TM_TMP/procs"
	"$TRACEMAP" report -N "$f" >"$TM_TMP/r.txt"
	# the tasks sched_switch runs (not the idle task, which Perfetto names itself)
	grep -oE ' (prev|next)_pid=[0-9]+' "$TM_TMP/r.txt" | cut -d= -f2 | grep -vx 0 |
		sort -un >"$TM_TMP/switch"
	[ -s "$TM_TMP/switch" ]
	# every pid any event mentions: the common pid and every *pid= field
	{ grep -oE -- '-[0-9]+ +\[[0-9]+\]' "$TM_TMP/r.txt" | grep -oE '^-[0-9]+' | cut -c2-
	  grep -oE '[a-z_]*pid=[0-9]+' "$TM_TMP/r.txt" | cut -d= -f2; } | sort -un >"$TM_TMP/all"
	while read -r pid; do
		grep -qE "^$pid [^ ]+\$" "$TM_TMP/procs" ||
			{ echo "pid $pid of a sched_switch: no named process" >&2; return 1; }
		grep -A3 "^      tid: $pid\$" "$TM_TMP/p.txt" | grep -q "^      tgid: $pid\$" ||
			{ echo "pid $pid: no thread under itself" >&2; return 1; }
	done <"$TM_TMP/switch"
	cut -d' ' -f1 "$TM_TMP/procs" | while read -r pid; do
		grep -qx "$pid" "$TM_TMP/all" || { echo "pid $pid in no event" >&2; return 1; }
	done
	# far fewer than the saved cmdlines (825 in this file)
	cmdlines=$(trace-cmd dump --cmd-lines "$f" 2>/dev/null | grep -cE '^[0-9]+ ')
	[ "$(wc -l <"$TM_TMP/procs")" -lt $((cmdlines / 4)) ]
}

@test "convert: clock pairs of every fixture never go backwards on a sequence, one per sequence" {
	local f pairs seqs
	for f in $(fixtures); do
		pf_convert "$f" "$TM_TMP/p.txt"
		pairs=$(check_clock_pairs "$TM_TMP/p.txt") || { echo "in $f: $pairs" >&2; return 1; }
		# every local-clock fixture: each sequence (buffer) with events has its one pair
		# (trace-cmd 3.4's instance-only files have a top buffer without any)
		seqs=$(awk '/^packet \{$/ { b = 0 } /^  ftrace_events \{$/ { b = 1 }
			/^  trusted_packet_sequence_id: / && b { print $2 }' "$TM_TMP/p.txt" |
			sort -u | wc -l)
		[ "$pairs" -eq "$seqs" ] || { echo "$f: $pairs pairs, $seqs sequences" >&2; return 1; }
	done
	# the two-buffer file: the instance is a sequence of its own with its own pair
	pf_convert "$FIXTURES/multi-v7-zstd.dat" "$TM_TMP/m.txt"
	[ "$(check_clock_pairs "$TM_TMP/m.txt")" -eq 2 ]
}

# sched-v6.dat with the counter clock as its trace clock: the TRACECLOCK option and the
# flyrecord's clock record rewritten in place (same lengths). report then prints counts.
counter_clock_file() {
	perl -0777 -pe 's/\[local\] global counter/local global [counter]/;
		s/\x07\x00{7}\[local\]\x00\x00/\x09\x00\x00\x00\x00\x00\x00\x00[counter]/' \
		"$FIXTURES/sched-v6.dat" >"$1"
	"$TRACEMAP" report --compat=3.1 -t "$1" | sed -n 2p | grep -q '\[001\]1415676456472: sched_process_fork:'
}

@test "convert: a counter-clock file loads in Perfetto: no clock named, report's counts, a warning" {
	counter_clock_file "$TM_TMP/c.dat"
	run "$TRACEMAP" convert "$TM_TMP/c.dat" -o "$TM_TMP/c.pftrace"
	tm_status 0
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "tracemap convert: warning: trace clock 'counter' does not count nanoseconds: "* ]]
	pf_decode "$TM_TMP/c.pftrace" >"$TM_TMP/c.txt"
	# FTRACE_CLOCK_UNKNOWN would make Perfetto refuse the trace; no clock is boot time
	! grep -Eq 'ftrace_clock|ftrace_timestamp|clock_snapshot' "$TM_TMP/c.txt" || return 1
	grep -q '^      timestamp: 1415676456472$' "$TM_TMP/c.txt"
	check_perfetto_counts "$TM_TMP/c.dat"
	# a nanosecond clock gives no warning
	"$TRACEMAP" convert "$FIXTURES/sched-v6.dat" -o "$TM_TMP/l.pftrace" 2>"$TM_TMP/err"
	[ ! -s "$TM_TMP/err" ]
}

@test "convert: Chrome JSON of every fixture: valid, dur >= 0, no overlap per thread, instant count" {
	local f
	for f in $(fixtures); do
		check_chrome "$f" || { echo "in $f" >&2; return 1; }
	done
}

@test "convert: Chrome JSON of a multi-buffer file names every event's buffer in args" {
	local f=$FIXTURES/multi-v6.dat
	"$TRACEMAP" convert "$f" -o "$TM_TMP/m.json"
	# ts: microseconds with three decimals (exact as doubles at these values); the
	# instants are the events other than the top buffer's sched_switch (slices)
	jq -r '.traceEvents[] | select(.ph == "i" and .name != "events lost") |
		"\(.ts * 1000 | round) \(.args.buffer)"' "$TM_TMP/m.json" | sort >"$TM_TMP/got"
	"$TRACEMAP" report --json "$f" |
		jq -r 'select((.event == "sched_switch" and (.buffer // "") == "") | not) |
			"\(.timestamp_ns) \(.buffer // "")"' | sort >"$TM_TMP/want"
	cmp -s "$TM_TMP/want" "$TM_TMP/got" || { diff "$TM_TMP/want" "$TM_TMP/got" | head -5; return 1; }
	# the slices too: every element but the metadata names its buffer
	[ "$(jq '[.traceEvents[] | select(.ph != "M" and (.args | has("buffer") | not))] | length' \
		"$TM_TMP/m.json")" -eq 0 ]
	grep -q ' fmtspec$' "$TM_TMP/got" && grep -q '[0-9] $' "$TM_TMP/got"
	# a file of one buffer: no buffer arg at all
	"$TRACEMAP" convert "$FIXTURES/sched-v6.dat" -o "$TM_TMP/s.json"
	[ "$(jq '[.traceEvents[] | select(.args.buffer)] | length' "$TM_TMP/s.json")" -eq 0 ]
}

@test "convert: --to json writes Chrome JSON to standard output" {
	run bash -c "'$TRACEMAP' convert '$FIXTURES/sched-v6.dat' --to json -o - | jq -r '.traceEvents[0].ph'"
	tm_status 0
	[ -n "$output" ]
}

@test "convert: unknown target or suffix is a usage error" {
	run "$TRACEMAP" convert "$FIXTURES/sched-v6.dat" --to svg -o "$TM_TMP/x.svg"
	tm_status 2
	[[ "$output" == *"unknown target 'svg'"* ]]
	run "$TRACEMAP" convert "$FIXTURES/sched-v6.dat" -o "$TM_TMP/x.bin"
	tm_status 2
	[[ "$output" == *"give --to perfetto or --to json"* ]]
	[ ! -e "$TM_TMP/x.svg" ] && [ ! -e "$TM_TMP/x.bin" ]
}

@test "convert: each format of its table is written by --to NAME and by each of its suffixes" {
	local name suffixes what s
	while IFS=$'\t' read -r name suffixes what; do
		[ -n "$what" ]
		"$TRACEMAP" convert -q "$FIXTURES/sched-v6.dat" --to "$name" -o "$TM_TMP/to"
		for s in $suffixes; do
			"$TRACEMAP" convert -q "$FIXTURES/sched-v6.dat" -o "$TM_TMP/x$s"
			cmp "$TM_TMP/to" "$TM_TMP/x$s"
			"$TRACEMAP" convert -q "$FIXTURES/sched-v6.dat" -o "$TM_TMP/x$s.gz"
			gzip -dc "$TM_TMP/x$s.gz" | cmp "$TM_TMP/to" -
		done
	done < <("$TRACEMAP" convert --list-formats)
	[ "$(head -c1 "$TM_TMP/x.json")" = "{" ]
	pf_decode_raw "$TM_TMP/x.pftrace" | grep -q '^packet {'
}

@test "convert: the completions and the man page list the formats of convert's table" {
	run env TRACEMAP="$TRACEMAP" bash "$TM_ROOT/tests/formats-check.sh" "$TM_ROOT"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[[ "$output" == "formats: 2 in convert's table, the same in both completions and the man page" ]]
}

# A copy of the tree with one difference planted in one place at a time.
@test "convert: the format check fails on a format missing from a completion or the man page" {
	local tree plant
	for plant in \
		"completions/tracemap.bash|s/\"perfetto json\" ;;/\"perfetto json svg\" ;;/" \
		"completions/_tracemap|s/'(perfetto json)'/'(perfetto)'/" \
		"man/tracemap-convert.1|s/^\.B \.json$/.BR .json \" or \" .js/" \
		"man/tracemap-convert.1|s/^Chrome trace.*event JSON;$/Chrome JSON;/" \
		"man/tracemap-convert.1|s/^\.B json$/.B jsonl/" \
		"man/tracemap-convert.1|s/ perfetto | json ]$/ perfetto ]/"; do
		tree=$(mktemp -d "$TM_TMP/tree.XXXXXX")
		cp -r "$TM_ROOT/completions" "$TM_ROOT/man" "$tree/"
		sed -i "${plant#*|}" "$tree/${plant%%|*}"
		! cmp -s "$TM_ROOT/${plant%%|*}" "$tree/${plant%%|*}" || { echo "not planted: $plant" >&2; return 1; }
		run env TRACEMAP="$TRACEMAP" bash "$TM_ROOT/tests/formats-check.sh" "$tree"
		[ "$status" -eq 1 ] || { echo "$plant: $output" >&2; return 1; }
		[[ "$output" == "$tree/${plant%%|*}: "*" differs from convert's format table:"* ]] ||
			{ echo "$plant: $output" >&2; return 1; }
	done
}

@test "convert: unwritable OUT fails in one line, exit 1" {
	run "$TRACEMAP" convert "$FIXTURES/sched-v6.dat" -o /nonexistent/dir/t.pftrace
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "tracemap convert: cannot write output /nonexistent/dir/t.pftrace: "* ]]
}

# sched-v6.dat with a page in the middle of CPU 0's data whose commit exceeds the
# page: the file opens, the conversion fails after output has begun.
bad_page_file() {
	cp "$FIXTURES/sched-v6.dat" "$1"
	chmod u+w "$1"
	printf '\xff\xff\x00\x00' | dd of="$1" bs=1 seek=$((49152 + 2 * 4096 + 8)) conv=notrunc 2>/dev/null
}

@test "convert: corrupt input fails in one line and leaves no OUT nor temporary" {
	mkdir "$TM_TMP/out"
	bad_page_file "$TM_TMP/bad.dat"
	run "$TRACEMAP" convert "$TM_TMP/bad.dat" -o "$TM_TMP/out/t.pftrace"
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "tracemap convert: "*"bad.dat"*"exceeds page size"* ]]
	[ -z "$(ls -A "$TM_TMP/out")" ]
	run "$TRACEMAP" convert "$TM_TMP/bad.dat" -o "$TM_TMP/out/t.json"
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[ -z "$(ls -A "$TM_TMP/out")" ]
	head -c 60000 "$FIXTURES/sched-v6.dat" >"$TM_TMP/cut.dat"
	run "$TRACEMAP" convert "$TM_TMP/cut.dat" -o "$TM_TMP/out/t.json"
	tm_status 1
	[[ "$output" == "tracemap convert: "*"cut.dat"*"past the end"* ]]
	[ -z "$(ls -A "$TM_TMP/out")" ]
}

@test "convert: an existing OUT is replaced only when the new one is complete" {
	echo old >"$TM_TMP/t.json"
	bad_page_file "$TM_TMP/bad.dat"
	run "$TRACEMAP" convert "$TM_TMP/bad.dat" -o "$TM_TMP/t.json"
	tm_status 1
	[ "$(cat "$TM_TMP/t.json")" = old ]
	"$TRACEMAP" convert "$FIXTURES/sched-v6.dat" -o "$TM_TMP/t.json"
	jq -e .traceEvents "$TM_TMP/t.json" >/dev/null
}


@test "convert on a terminal: a progress line redrawn as it reads, erased at the end" {
	# 4000 copies: convert takes seconds, not the 0.6 s of 1000 (one redraw only)
	tm_big_file "$TM_TMP/big.dat" 4000
	tm_in_pty "'$TRACEMAP' convert '$TM_TMP/big.dat' -o '$TM_TMP/big.pftrace'" "$TM_TMP/raw"
	tm_progress_lines "$TM_TMP/raw" convert >"$TM_TMP/lines"
	local re='^convert [0-9.]+s  [0-9]+%  [0-9.]+[kMG]? ev/s  [0-9.]+[kMG]? events  [0-9.]+ MB read -> [0-9.]+ MB  [0-9hms]+ left$'
	# at least two different redraws, every one of them the whole line
	[ "$(sort -u "$TM_TMP/lines" | grep -c .)" -ge 2 ] || { cat -v "$TM_TMP/raw" >&2; return 1; }
	grep -vE "$re" "$TM_TMP/lines" >&2 && return 1
	# the percent read only grows, up to 100 at most
	sed -E 's/^[^%]*  ([0-9]+)%.*/\1/' "$TM_TMP/lines" >"$TM_TMP/pct"
	sort -n -c "$TM_TMP/pct"
	[ "$(tail -n 1 "$TM_TMP/pct")" -le 100 ]
	# erased at the end: nothing of it is left after the last erase, nothing else printed
	[ "$(tail -c 4 "$TM_TMP/raw" | od -An -c | tr -s ' ')" = ' \r 033 [ K' ] ||
		{ tail -c 200 "$TM_TMP/raw" | cat -v >&2; return 1; }
	[ "$(tr -d '\r' <"$TM_TMP/raw" | sed 's/\x1b\[K//g; /^convert [0-9.]*s  /d' | grep -c .)" -eq 0 ]
	# and the file is the one convert writes without a terminal
	"$TRACEMAP" convert "$TM_TMP/big.dat" -o "$TM_TMP/again.pftrace" 2>/dev/null
	cmp "$TM_TMP/big.pftrace" "$TM_TMP/again.pftrace"
}

@test "convert with stderr not a terminal: no progress, no control characters" {
	tm_big_file "$TM_TMP/big.dat"
	# stdout still a terminal, stderr a file
	tm_in_pty "'$TRACEMAP' convert '$TM_TMP/big.dat' -o '$TM_TMP/big.json' 2>'$TM_TMP/err'" \
		"$TM_TMP/raw"
	[ ! -s "$TM_TMP/err" ] || { cat -v "$TM_TMP/err" >&2; return 1; }
	[ ! -s "$TM_TMP/raw" ] || { cat -v "$TM_TMP/raw" >&2; return 1; }
	# -q on a terminal: none either
	tm_in_pty "'$TRACEMAP' convert -q '$TM_TMP/big.dat' -o '$TM_TMP/big.json'" "$TM_TMP/raw"
	[ ! -s "$TM_TMP/raw" ] || { cat -v "$TM_TMP/raw" | head -c 300 >&2; return 1; }
}

# A device node, a FIFO or a symlink as OUT: only a regular file is replaced through a
# temporary; a node is written straight through and stays a node (renaming over a
# /dev/null-like node once replaced it), a link stays a link and its target is replaced.
@test "convert: -o a device node, a FIFO, a symlink: the node stays, the link's target is replaced" {
	local f=$FIXTURES/sched-v7-zstd.dat
	"$TRACEMAP" convert "$f" --to json -o "$TM_TMP/want.json"
	# a private null device in the test's directory, never the real /dev/null
	mknod -m666 "$TM_TMP/null" c 1 3
	run "$TRACEMAP" convert "$f" --to json -o "$TM_TMP/null"
	tm_status 0
	[ -c "$TM_TMP/null" ] || { ls -l "$TM_TMP" >&2; return 1; }
	# a FIFO nobody reads is refused (waiting could hang record for good)
	mkfifo "$TM_TMP/fifo"
	run timeout -s KILL 30 "$TRACEMAP" convert "$f" --to json -o "$TM_TMP/fifo"
	tm_status 1
	[ "$output" = "tracemap convert: cannot write output $TM_TMP/fifo: no process has the FIFO open for reading (start its reader first)" ]
	# with a reader (this shell's read-write end holds it open until cat has it)
	local rw reader
	exec {rw}<>"$TM_TMP/fifo"
	timeout -s KILL 30 cat "$TM_TMP/fifo" >"$TM_TMP/from-fifo.json" {rw}>&- &
	reader=$!
	run timeout -s KILL 30 "$TRACEMAP" convert "$f" --to json -o "$TM_TMP/fifo"
	exec {rw}>&-
	tm_status 0
	wait "$reader"
	[ -p "$TM_TMP/fifo" ]
	cmp "$TM_TMP/want.json" "$TM_TMP/from-fifo.json"
	# a relative link into another directory: the link stays, its target is replaced
	mkdir "$TM_TMP/data" "$TM_TMP/links"
	echo old >"$TM_TMP/data/real.json"
	ln -s ../data/real.json "$TM_TMP/links/t.json"
	run "$TRACEMAP" convert "$f" --to json -o "$TM_TMP/links/t.json"
	tm_status 0
	[ -L "$TM_TMP/links/t.json" ] && [ "$(readlink "$TM_TMP/links/t.json")" = ../data/real.json ]
	cmp "$TM_TMP/want.json" "$TM_TMP/data/real.json"
	# no temporary left anywhere
	[ "$(ls -A "$TM_TMP/data" "$TM_TMP/links" | tr '\n' ' ')" = \
		"$TM_TMP/data: real.json  $TM_TMP/links: t.json " ] || { ls -laR "$TM_TMP" >&2; return 1; }
	[ "$(ls -A "$TM_TMP" | tr '\n' ' ')" = "data fifo from-fifo.json links null want.json " ]
}

# "cpu start end pid" of each stretch a task ran, from report's sched_switch records:
# from a switch to a pid other than 0 to the CPU's next switch (or the last record).
report_cpu_runs() {
	"$TRACEMAP" report --json "$1" | jq -r '"\(.timestamp_ns) \(.cpu) \(.event) \(.fields.next_pid)"' |
		awk '{ last = $1 }
		     $3 == "sched_switch" {
			if ($2 in pid) print $2, start[$2], $1, pid[$2]
			delete pid[$2]
			if ($4 != 0) { pid[$2] = $4; start[$2] = $1 }
		     }
		     END { for (c in pid) print c, start[c], last, pid[c] }' | sort
}

@test "convert: Chrome JSON has a lane per CPU with the running task's slices, named CPU N" {
	local f lanes
	for f in sched-v6 lost-v7-zstd; do
		"$TRACEMAP" convert "$FIXTURES/$f.dat" -o "$TM_TMP/c.json"
		report_cpu_runs "$FIXTURES/$f.dat" >"$TM_TMP/want"
		[ "$(wc -l <"$TM_TMP/want")" -gt 20 ]
		lanes=$(jq -r '.traceEvents[] | select(.ph == "M" and .name == "process_name" and
			.args.name == "CPUs") | .pid' "$TM_TMP/c.json")
		[ -n "$lanes" ]
		jq -r --argjson p "$lanes" '.traceEvents[] | select(.ph == "X" and .pid == $p) |
			"\(.tid - $p - 1) \(.ts * 1000 | round) \((.ts + .dur) * 1000 | round) \(.args.pid)"' \
			"$TM_TMP/c.json" | sort >"$TM_TMP/got"
		diff -u "$TM_TMP/want" "$TM_TMP/got" >&2
		# one named thread per CPU of the file, in CPU order
		[ "$(jq -r --argjson p "$lanes" '.traceEvents[] | select(.ph == "M" and
			.name == "thread_name" and .pid == $p) | "\(.tid - $p - 1)=\(.args.name)"' \
			"$TM_TMP/c.json" | tr '\n' ' ')" = "0=CPU 0 1=CPU 1 " ]
	done
}

# chrome_fgraph_names JSON: "ns event name" of each function_graph slice event, as
# report_ksym_names prints its record: a B at its entry, an E or the end of an X at
# its exit (ns from the microseconds with three decimals).
chrome_fgraph_names() {
	jq -r '.traceEvents[] | select(.cat == "funcgraph") |
		if .ph == "B" then "\(.ts * 1000 | round) funcgraph_entry \(.name)"
		elif .ph == "E" then "\(.ts * 1000 | round) funcgraph_exit \(.name)"
		else "\((.ts + .dur) * 1000 | round) funcgraph_exit \(.name)" end' "$1" | sort
}

@test "convert: Chrome JSON function_graph calls are B/E slices per task, named as report names them" {
	local f dat entries exits
	for f in tc-funcgraph tm-funcgraph; do
		dat=$TM_ROOT/tests/fixtures-vm/$f.dat
		"$TRACEMAP" convert "$dat" -o "$TM_TMP/g.json"
		python3 -m json.tool "$TM_TMP/g.json" >/dev/null
		entries=$("$TRACEMAP" report -R "$dat" | grep -c ' funcgraph_entry: ')
		exits=$("$TRACEMAP" report -R "$dat" | grep -c ' funcgraph_exit: ')
		[ "$entries" -ge 150 ] && [ "$exits" -ge 150 ]
		# every entry a B, every exit an E (its entry seen) or an X (not seen)
		[ "$(jq '[.traceEvents[] | select(.ph == "B" and .cat == "funcgraph")] | length' \
			"$TM_TMP/g.json")" -eq "$entries" ]
		[ "$(jq '[.traceEvents[] | select((.ph == "E" or .ph == "X") and
			.cat == "funcgraph")] | length' "$TM_TMP/g.json")" -eq "$exits" ]
		# no instants left for them
		[ "$(jq '[.traceEvents[] | select(.ph == "i")] | length' "$TM_TMP/g.json")" -eq 0 ]
		# in file order, each E closes the last open B of its tid, of its name, at or
		# after its start: never an E without an open B
		jq -e '[.traceEvents[] | select(.ph == "B" or .ph == "E")] |
			reduce .[] as $e ({bad: 0, s: {}}; ($e.tid | tostring) as $t |
				if $e.ph == "B" then .s[$t] += [$e]
				elif (.s[$t] // []) != [] and .s[$t][-1].name == $e.name and
					.s[$t][-1].ts <= $e.ts and .s[$t][-1].pid == $e.pid
				then .s[$t] |= .[:-1]
				else .bad += 1 end) | .bad == 0' "$TM_TMP/g.json" >/dev/null ||
			{ echo "unbalanced E in $f" >&2; return 1; }
		# the names report -R -t prints for those records, time by time
		chrome_fgraph_names "$TM_TMP/g.json" >"$TM_TMP/got"
		report_ksym_names "$dat" >"$TM_TMP/want"
		diff -u "$TM_TMP/want" "$TM_TMP/got" | head -n 20 >&2
		cmp -s "$TM_TMP/want" "$TM_TMP/got" || { echo "in $f" >&2; return 1; }
		# args of a B: the depth report prints, the address in hex
		jq -r '.traceEvents[] | select(.ph == "B") |
			"\(.ts * 1000 | round) \(.args.depth) \(.args.func | test("^0x[0-9a-f]+$"))"' \
			"$TM_TMP/g.json" | sort >"$TM_TMP/got"
		"$TRACEMAP" report -R -t "$dat" | awk '/ funcgraph_entry: / {
				for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) ts = $i
				sub(/:$/, "", ts); sub(/\./, "", ts); sub(/^0+/, "", ts)
				d = $NF; sub(/^depth=/, "", d); print ts, d, "true" }' | sort >"$TM_TMP/want"
		diff -u "$TM_TMP/want" "$TM_TMP/got" | head -n 20 >&2
		cmp -s "$TM_TMP/want" "$TM_TMP/got" || { echo "depths in $f" >&2; return 1; }
	done
}

@test "convert: Chrome JSON function events are instants named by their ip, as report names it" {
	local f dat
	for f in tc-function tm-function; do
		dat=$TM_ROOT/tests/fixtures-vm/$f.dat
		"$TRACEMAP" convert "$dat" -o "$TM_TMP/f.json"
		jq -r '.traceEvents[] | select(.ph == "i" and .cat == "ftrace") |
			"\(.ts * 1000 | round) \(.name)"' "$TM_TMP/f.json" | sort >"$TM_TMP/got"
		"$TRACEMAP" report -R -t "$dat" | awk '/ function: / {
				for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) ts = $i
				sub(/:$/, "", ts); sub(/\./, "", ts); sub(/^0+/, "", ts)
				for (i = 1; i <= NF; i++) if ($i ~ /^ip=/) ip = substr($i, 4)
				print ts, ip }' | sort >"$TM_TMP/want"
		[ "$(wc -l <"$TM_TMP/want")" -ge 100 ]
		diff -u "$TM_TMP/want" "$TM_TMP/got" | head -n 20 >&2
		cmp -s "$TM_TMP/want" "$TM_TMP/got" || { echo "in $f" >&2; return 1; }
	done
}

@test "convert: a file given twice, or one recording in three layouts, is each event once" {
	local a=$FIXTURES/sched-v6.dat
	"$TRACEMAP" convert "$a" -o "$TM_TMP/one.pftrace"
	"$TRACEMAP" convert "$a" -o "$TM_TMP/one.json"
	# data set A as v6, v7+zstd and trace-cmd's conversion: the same records
	"$TRACEMAP" convert "$a" "$FIXTURES/sched-v7-zstd.dat" "$FIXTURES/sched-v6.convert.dat" \
		-o "$TM_TMP/three.pftrace"
	"$TRACEMAP" convert "$a" "$a" -o "$TM_TMP/two.json"
	cmp "$TM_TMP/one.pftrace" "$TM_TMP/three.pftrace"
	cmp "$TM_TMP/one.json" "$TM_TMP/two.json"
}

@test "convert: two files of one machine on one timeline: every event of both, in time order" {
	local a=$FIXTURES/sched-v6.dat b=$FIXTURES/lost-v7-zstd.dat
	{ report_counts "$a"; report_counts "$b"; } |
		awk '{ n[$2] += $1 } END { for (k in n) print n[k], k }' | sort -k2 >"$TM_TMP/want"
	"$TRACEMAP" convert "$b" "$a" -o "$TM_TMP/ab.pftrace"
	pf_decode "$TM_TMP/ab.pftrace" >"$TM_TMP/ab.txt"
	pf_counts "$TM_TMP/ab.txt" >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got" >&2
	# Chrome JSON: the instants of both files, times never going back
	"$TRACEMAP" convert "$a" "$b" -o "$TM_TMP/ab.json"
	{ "$TRACEMAP" report --json "$a"; "$TRACEMAP" report --json "$b"; } |
		jq -r 'select(.event != "sched_switch") | .timestamp_ns' | sort -n >"$TM_TMP/want"
	jq -r '.traceEvents[] | select(.ph == "i" and .name != "events lost") | .ts * 1000 | round' \
		"$TM_TMP/ab.json" >"$TM_TMP/got"
	sort -n -c "$TM_TMP/got"
	sort -n "$TM_TMP/got" | diff -u "$TM_TMP/want" - >&2
}

# Issue 44: "event irq/tasklet_exit is not as in tc334-sched.dat" where that file simply
# lacks the event, and the other order worked: the files' event tables are merged.
@test "convert: files of one machine with different events merge in either order" {
	local a=$FIXTURES/upstream/tc334-sched.dat b=$FIXTURES/upstream/tc34-v7-zstd.dat order n
	report_counts "$a" >"$TM_TMP/a"
	report_counts "$b" >"$TM_TMP/b"
	# b has irq events a lacks, a has events too
	! grep -q ' irq_handler_entry$' "$TM_TMP/a" || return 1
	grep -q ' irq_handler_entry$' "$TM_TMP/b"
	cat "$TM_TMP/a" "$TM_TMP/b" |
		awk '{ n[$2] += $1 } END { for (k in n) print n[k], k }' | sort -k2 >"$TM_TMP/want"
	# report's event lines of both (all but its "cpus=" line)
	n=$(($("$TRACEMAP" report "$a" | grep -vc '^cpus=') + $("$TRACEMAP" report "$b" | grep -vc '^cpus=')))
	[ "$(awk '{ s += $1 } END { print s }' "$TM_TMP/want")" -eq "$n" ]
	for order in "$a $b" "$b $a"; do
		# shellcheck disable=SC2086
		"$TRACEMAP" convert $order -o "$TM_TMP/m.pftrace"
		pf_decode "$TM_TMP/m.pftrace" >"$TM_TMP/m.txt"
		pf_counts "$TM_TMP/m.txt" >"$TM_TMP/got"
		diff -u "$TM_TMP/want" "$TM_TMP/got" >&2 || { echo "in order $order" >&2; return 1; }
		# Chrome JSON: every event an instant (both files are of trace-cmd -B buffers)
		# shellcheck disable=SC2086
		"$TRACEMAP" convert $order -o "$TM_TMP/m.json"
		[ "$(jq '[.traceEvents[] | select(.ph == "i" and .s == "t")] | length' \
			"$TM_TMP/m.json")" -eq "$n" ] || { echo "in order $order" >&2; return 1; }
	done
	# the irq events are decoded with their format, not left unknown
	grep -q '^      irq_handler_entry {$' "$TM_TMP/m.txt"
	# sql reads them the same way: every event, those of b's table too
	for order in "$a $b" "$b $a"; do
		# shellcheck disable=SC2086
		[ "$("$TRACEMAP" sql --format csv $order 'select count(*) from events' | tail -n 1)" \
			-eq "$n" ] || { echo "sql, in order $order" >&2; return 1; }
		# shellcheck disable=SC2086
		[ "$("$TRACEMAP" sql --format csv $order 'select count(*) from irq_handler_entry' |
			tail -n 1)" -eq "$(awk '$2 == "irq_handler_entry" { print $1 }' "$TM_TMP/b")" ]
	done
}

# copy_with OUT FROM TO: sched-v6.dat with the bytes FROM replaced by TO (as long),
# found once in it.
copy_with() {
	python3 - "$FIXTURES/sched-v6.dat" "$@" <<'PY'
import sys
src, dst, old, new = sys.argv[1], sys.argv[2], sys.argv[3].encode(), sys.argv[4].encode()
data = open(src, "rb").read()
if len(old) != len(new) or data.count(old) != 1:
    sys.exit("%s: %r found %d times" % (src, old, data.count(old)))
open(dst, "wb").write(data.replace(old, new))
PY
}

# convert_refused OUT MSG FILE...: convert of the FILEs into OUT exits 1 with the one
# line "tracemap convert: MSG" (a glob), and no OUT.
convert_refused() {
	local out=$1 msg=$2
	shift 2
	run --separate-stderr "$TRACEMAP" convert "$@" -o "$out"
	[ "$status" -eq 1 ] || { echo "exit $status" >&2; return 1; }
	# shellcheck disable=SC2053
	[[ $stderr == "tracemap convert: "$msg ]] || { echo "$stderr" >&2; return 1; }
	[ ! -e "$out" ]
}

@test "convert: one event in two formats, or one id for two events, is refused in one line" {
	local a=$FIXTURES/sched-v6.dat
	# sched_wakeup's format with a field renamed (its text is unique by its ID line)
	python3 - "$a" "$TM_TMP/fmt.dat" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
start = data.index(b"name: sched_wakeup\nID: 374\n")
end = data.index(b"print fmt", start)
block = data[start:end]
if block.count(b" prio;") != 1:
    sys.exit("sched_wakeup: no prio field")
open(sys.argv[2], "wb").write(data[:start] + block.replace(b" prio;", b" prix;") + data[end:])
PY
	convert_refused "$TM_TMP/x.pftrace" \
		"$TM_TMP/fmt.dat: event sched/sched_wakeup is not as in $a (files of one machine share one table of event formats): convert them separately" \
		"$a" "$TM_TMP/fmt.dat"
	# id 373 named otherwise: sched_wakeup_new in one file, another event in the other
	copy_with "$TM_TMP/id.dat" $'name: sched_wakeup_new\nID: 373' $'name: sched_wakeup_neW\nID: 373'
	convert_refused "$TM_TMP/x.json" \
		"$a: event id 373 is sched/sched_wakeup_new, in $TM_TMP/id.dat it is sched/sched_wakeup_neW (files of one machine share one table of event formats): convert them separately" \
		"$TM_TMP/id.dat" "$a"
	# the same event under another id
	copy_with "$TM_TMP/id2.dat" $'name: sched_wakeup_new\nID: 373' $'name: sched_wakeup_new\nID: 999'
	convert_refused "$TM_TMP/x.json" \
		"$TM_TMP/id2.dat: event sched/sched_wakeup_new is not as in $a (*" "$a" "$TM_TMP/id2.dat"
	# and sql, which reads files of one machine the same way
	run --separate-stderr "$TRACEMAP" sql "$a" "$TM_TMP/fmt.dat" -o "$TM_TMP/x.db"
	[ "$status" -eq 1 ]
	[[ $stderr == *"fmt.dat: event sched/sched_wakeup is not as in $a ("* ]] ||
		{ echo "$stderr" >&2; return 1; }
}

@test "convert: -o X.pftrace.gz and X.json.gz are the plain outputs gzip-compressed, smaller than the input" {
	local f n=0
	for f in $(fixtures); do
		"$TRACEMAP" convert "$f" -o "$TM_TMP/p.pftrace"
		"$TRACEMAP" convert "$f" -o "$TM_TMP/p.pftrace.gz"
		gzip -t "$TM_TMP/p.pftrace.gz"
		zcat "$TM_TMP/p.pftrace.gz" | cmp - "$TM_TMP/p.pftrace"
		[ "$(stat -c %s "$TM_TMP/p.pftrace.gz")" -le "$(stat -c %s "$f")" ] ||
			{ echo "$f: gzip output bigger than the file" >&2; return 1; }
		"$TRACEMAP" convert "$f" -o "$TM_TMP/p.json"
		"$TRACEMAP" convert "$f" -o "$TM_TMP/p.json.gz"
		zcat "$TM_TMP/p.json.gz" | cmp - "$TM_TMP/p.json"
		n=$((n + 1))
	done
	[ "$n" -ge 12 ]
	# --to says the format, .gz still compresses
	"$TRACEMAP" convert "$FIXTURES/sched-v6.dat" --to json -o "$TM_TMP/x.gz"
	zcat "$TM_TMP/x.gz" | jq -e '.traceEvents | length > 0' >/dev/null
}

@test "convert: -o X.pftrace.zst is one checked zstd frame of the plain output, smaller than .gz" {
	local f n=0 magic
	for f in $(fixtures); do
		"$TRACEMAP" convert "$f" -o "$TM_TMP/p.pftrace"
		"$TRACEMAP" convert "$f" -o "$TM_TMP/p.pftrace.gz"
		"$TRACEMAP" convert "$f" -o "$TM_TMP/p.pftrace.zst"
		# the magic trace_processor's GuessTraceType looks for, one frame, its checksum right
		magic=$(od -An -tx1 -N4 "$TM_TMP/p.pftrace.zst" | tr -d ' ')
		[ "$magic" = 28b52ffd ] || { echo "$f: magic $magic" >&2; return 1; }
		zstd -q -t "$TM_TMP/p.pftrace.zst"
		zstd -lv "$TM_TMP/p.pftrace.zst" 2>&1 | grep -Eq '^# Zstandard Frames: *1$'
		zstd -lv "$TM_TMP/p.pftrace.zst" 2>&1 | grep -q '^Check: XXH64'
		zstd -qdc "$TM_TMP/p.pftrace.zst" | cmp - "$TM_TMP/p.pftrace"
		[ "$(stat -c %s "$TM_TMP/p.pftrace.zst")" -le "$(stat -c %s "$TM_TMP/p.pftrace.gz")" ] ||
			{ echo "$f: zstd output bigger than gzip's" >&2; return 1; }
		"$TRACEMAP" convert "$f" -o "$TM_TMP/p.json"
		"$TRACEMAP" convert "$f" -o "$TM_TMP/p.json.zst"
		zstd -qdc "$TM_TMP/p.json.zst" | cmp - "$TM_TMP/p.json"
		n=$((n + 1))
	done
	[ "$n" -ge 12 ]
	# --to says the format, .zst still compresses
	"$TRACEMAP" convert "$FIXTURES/sched-v6.dat" --to json -o "$TM_TMP/x.zst"
	zstd -qdc "$TM_TMP/x.zst" | jq -e '.traceEvents | length > 0' >/dev/null
}

@test "convert: files of two machines without DATE options are refused in one line, no OUT" {
	local b=$TM_TMP/other.dat
	# the same recording as another host's: its UNAME option's hostname replaced (same length)
	other_host "$FIXTURES/sched-v6.dat" "$b"
	run "$TRACEMAP" convert "$FIXTURES/sched-v6.dat" "$b" -o "$TM_TMP/x.pftrace"
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "tracemap convert: $FIXTURES/sched-v6.dat: no DATE option (record --date): files of different machines ("*", "*") share one timeline only by their wall-clock times" ]]
	[ ! -e "$TM_TMP/x.pftrace" ]
	[ -z "$(ls -A "$TM_TMP" | grep -v '^other.dat$')" ]
}

# stop_midway DIR CMD...: CMD in the background until a hidden temporary appears in
# DIR, then SIGTERM; its exit status in STOP_RC.
stop_midway() {
	local dir=$1 pid i
	shift
	"$@" 2>"$TM_TMP/stop.err" &
	pid=$!
	for ((i = 0; i < 400; i++)); do
		ls -A "$dir" | grep -q '^\.' && break
		sleep 0.01
	done
	ls -A "$dir" | grep -q '^\.' || { kill -KILL "$pid"; echo "no temporary in $dir" >&2; return 1; }
	kill -TERM "$pid"
	STOP_RC=0
	wait "$pid" || STOP_RC=$?
}

@test "convert, sql -o: a stop signal leaves no hidden temporary, and the old file as it was" {
	local out=$TM_TMP/out f
	tm_big_file "$TM_TMP/big.dat" 3000
	mkdir "$out"
	for f in t.pftrace t.json t.sqlite; do echo before >"$out/$f"; done
	stop_midway "$out" "$TRACEMAP" convert -q "$TM_TMP/big.dat" -o "$out/t.pftrace"
	[ "$STOP_RC" -eq 143 ] || { cat "$TM_TMP/stop.err" >&2; return 1; }
	stop_midway "$out" "$TRACEMAP" convert -q "$TM_TMP/big.dat" -o "$out/t.json"
	[ "$STOP_RC" -eq 143 ]
	stop_midway "$out" "$TRACEMAP" sql "$TM_TMP/big.dat" -o "$out/t.sqlite"
	[ "$STOP_RC" -eq 143 ]
	[ "$(ls -A "$out" | tr '\n' ' ')" = "t.json t.pftrace t.sqlite " ] || { ls -A "$out" >&2; return 1; }
	for f in t.pftrace t.json t.sqlite; do [ "$(cat "$out/$f")" = before ]; done
}
