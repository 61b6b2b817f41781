#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# sql.bats - `tracemap sql` on the fixtures: every answer checked against one computed
# from report's text or JSON with awk and jq (event counts, per-CPU busy time, the
# longest wakeup latency, lost ranges), Perfetto's own queries, the output formats and
# the one-line errors. No kernel (sql-record.bats records).

bats_require_minimum_version 1.5.0
load helpers
load sql-helpers

setup() {
	TM_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tracemap-sql.XXXXXX")
}

teardown() {
	if [ -n "${TM_TMP:-}" ]; then
		mountpoint -q "$TM_TMP/full" && umount "$TM_TMP/full"
		rm -rf "$TM_TMP"
	fi
}

fixtures() {
	ls "$FIXTURES"/*.dat "$FIXTURES"/upstream/*.dat
}

@test "sql: the events table and each event's table count what report prints, per type" {
	local f name n
	for f in $(fixtures); do
		report_counts "$f" >"$TM_TMP/want"
		"$TRACEMAP" sql "$f" --format tsv \
			'SELECT count(*), name FROM events GROUP BY name ORDER BY name' |
			tail -n +2 | tr '\t' ' ' >"$TM_TMP/got"
		diff -u "$TM_TMP/want" "$TM_TMP/got" >&2 || { echo "in $f" >&2; return 1; }
		# the same counts from each event's own table
		while read -r n name; do
			[ "$("$TRACEMAP" sql "$f" --format csv "SELECT count(*) FROM \"$name\"" |
				tail -n 1)" = "$n" ] || { echo "$f: $name" >&2; return 1; }
		done <"$TM_TMP/want"
	done
}

@test "sql: a query of events alone reads it from the files, row for row as -o's table" {
	local f q n
	for f in "$FIXTURES"/sched-v6.dat "$FIXTURES"/multi-v6.dat "$FIXTURES"/lost-v7-zstd.dat; do
		"$TRACEMAP" sql "$f" -o "$TM_TMP/t.sqlite" </dev/null
		sqlite3 -json "$TM_TMP/t.sqlite" 'SELECT * FROM events ORDER BY rowid' |
			jq -c '.[]' >"$TM_TMP/want"
		"$TRACEMAP" sql "$f" --format json 'SELECT * FROM events ORDER BY rowid' |
			jq -c . >"$TM_TMP/got"
		[ -s "$TM_TMP/want" ]
		diff -u "$TM_TMP/want" "$TM_TMP/got" >&2 || { echo "in $f" >&2; return 1; }
		rm "$TM_TMP/t.sqlite"
	done
	# one pass over the files: the virtual table; read twice or written: the plain one
	f=$FIXTURES/multi-v6.dat
	"$TRACEMAP" sql "$f" -o "$TM_TMP/t.sqlite" </dev/null
	kind="SELECT sql LIKE 'CREATE VIRTUAL%' FROM sqlite_master WHERE name = 'events';"
	for q in 'SELECT name, count(*) FROM events GROUP BY name ORDER BY 2, 1' \
		 'SELECT count(*) FROM (SELECT DISTINCT tid FROM events) JOIN thread USING(tid)' \
		 'SELECT t.name, count(*) FROM events e JOIN thread t ON t.tid = e.tid GROUP BY 1 ORDER BY 2, 1' \
		 'SELECT count(*) FROM events a JOIN events b USING(ts, cpu)' \
		 'SELECT tid, (SELECT count(*) FROM events e WHERE e.tid = t.tid) AS n FROM thread t ORDER BY 1' \
		 'DELETE FROM events WHERE cpu = 0; SELECT count(*) FROM events'; do
		"$TRACEMAP" sql "$f" --format csv "$kind $q" >"$TM_TMP/got"
		case $q in
		*"events a JOIN"*|*"e.tid = t.tid"*|DELETE*) n=0 ;;
		*) n=1 ;;
		esac
		[ "$(sed -n 2p "$TM_TMP/got")" = "$n" ] || { echo "$q: $(sed -n 2p "$TM_TMP/got")" >&2; return 1; }
		sqlite3 -csv -header "$TM_TMP/t.sqlite" "$q" >"$TM_TMP/want"
		tail -n +3 "$TM_TMP/got" | diff -u "$TM_TMP/want" - >&2 || { echo "$q" >&2; return 1; }
	done
}

# SQLite groups by sorting every row; a grouping by columns of few values that reads
# no other column gets its rows counted in the one pass and handed out grouped
# (sql-vgroup.c): EXPLAIN QUERY PLAN shows the grouped scan (an index number other
# than 0) and no sort for the GROUP BY, and the answers are those of -o's table.
@test "sql: a grouping of events by name, system or cpu is counted, not sorted, same answers" {
	local f q plan
	for f in "$FIXTURES"/sched-v6.dat "$FIXTURES"/lost-v7-zstd.dat \
		 "$FIXTURES"/upstream/tc34-two-buffers.dat; do
		"$TRACEMAP" sql "$f" -o "$TM_TMP/t.sqlite" </dev/null
		for q in 'SELECT name, count(*) FROM events GROUP BY name ORDER BY 2 DESC, 1' \
			 'SELECT cpu, system, count(*) FROM events GROUP BY cpu, system ORDER BY 1, 2' \
			 'SELECT cpu, system, count(*) FROM events GROUP BY 1, 2 ORDER BY 1 DESC, 2' \
			 'SELECT DISTINCT name FROM events ORDER BY name DESC' \
			 'SELECT count(*) FROM (SELECT DISTINCT cpu, name FROM events)' \
			 'SELECT name, count(*) n FROM events WHERE cpu = 1 GROUP BY 1 HAVING n > 2 ORDER BY 1' \
			 'SELECT name, max(ts) FROM events GROUP BY name ORDER BY 1' \
			 'SELECT name, max(rowid) FROM events GROUP BY name ORDER BY 1'; do
			plan=$("$TRACEMAP" sql "$f" --format tsv "EXPLAIN QUERY PLAN $q" | cut -f 4)
			case $q in
			*"max(ts)"*|*rowid*) grep -q 'VIRTUAL TABLE INDEX 0:' <<<"$plan" ;;
			*) grep -q 'VIRTUAL TABLE INDEX [1-9][0-9]*:' <<<"$plan" ||
				{ echo "$q: $plan" >&2; return 1; }
			   if grep -q 'FOR GROUP BY' <<<"$plan"; then echo "$q: $plan" >&2; return 1; fi ;;
			esac
			"$TRACEMAP" sql "$f" --format tsv "$q" | tail -n +2 >"$TM_TMP/got"
			sqlite3 -tabs "$TM_TMP/t.sqlite" "$q" >"$TM_TMP/want"
			[ -s "$TM_TMP/want" ]
			diff -u "$TM_TMP/want" "$TM_TMP/got" >&2 || { echo "$f: $q" >&2; return 1; }
		done
		rm "$TM_TMP/t.sqlite"
	done
}

@test "sql: a query of events alone warns of damaged records, then their count, as a load does" {
	local at q
	# sched-v7.dat with sched_switch's next_comm moved past its records (report-hostile.bats)
	cp "$FIXTURES/sched-v7.dat" "$TM_TMP/bad.dat"
	chmod u+w "$TM_TMP/bad.dat"
	at=$(grep -boa $'next_comm\\[16\\];\toffset:40' "$TM_TMP/bad.dat" | cut -d: -f1)
	[ -n "$at" ]
	printf '9' | dd of="$TM_TMP/bad.dat" bs=1 seek=$((at + 22)) conv=notrunc status=none
	for q in 'SELECT count(*) FROM events' 'SELECT count(*) FROM events, thread WHERE utid = 0'; do
		run --separate-stderr "$TRACEMAP" sql "$TM_TMP/bad.dat" --format csv "$q"
		[ "$status" -eq 0 ]
		[ "${lines[1]}" -eq $(($("$TRACEMAP" report -q "$FIXTURES/sched-v7.dat" |
			grep -vc '^cpus=') - 167)) ]
		[ "${#stderr_lines[@]}" -eq 21 ]
		[[ ${stderr_lines[0]} == *"sched_switch: field next_comm (offset 90, size 16) runs past"* ]]
		[[ ${stderr_lines[20]} == *"bad.dat: 167 records skipped (fields outside the record), 147 more warnings not shown" ]]
	done
}

@test "sql: a table read only through a join's USING columns is filled" {
	local f=$FIXTURES/multi-v6.dat q
	"$TRACEMAP" sql "$f" -o "$TM_TMP/t.sqlite" </dev/null
	for q in 'SELECT count(*) AS n FROM sched_switch JOIN sched_wakeup USING(cpu)' \
		 'SELECT count(*) AS n FROM sched_slice JOIN thread USING(utid)' \
		 'SELECT count(*) AS n FROM events a JOIN events b USING(ts, cpu)'; do
		sqlite3 -csv -header "$TM_TMP/t.sqlite" "$q" >"$TM_TMP/want"
		[ "$(tail -1 "$TM_TMP/want")" -gt 0 ]
		"$TRACEMAP" sql "$f" --format csv "$q" | diff -u "$TM_TMP/want" - >&2 ||
			{ echo "$q" >&2; return 1; }
	done
}

@test "sql: an event's columns are its fields, typed: integers as numbers, strings as text" {
	local f=$FIXTURES/sched-v6.dat
	"$TRACEMAP" sql "$f" --format csv \
		"SELECT name, type FROM pragma_table_info('sched_switch')" >"$TM_TMP/cols"
	cat >"$TM_TMP/want" <<-EOF
	name,type
	ts,INTEGER
	cpu,INTEGER
	tid,INTEGER
	prev_comm,TEXT
	prev_pid,INTEGER
	prev_prio,INTEGER
	prev_state,INTEGER
	next_comm,TEXT
	next_pid,INTEGER
	next_prio,INTEGER
	EOF
	diff -u "$TM_TMP/want" "$TM_TMP/cols"
	# the values report --json has, row for row
	"$TRACEMAP" report --json "$f" | jq -r 'select(.event == "sched_switch") |
		[.timestamp_ns, .cpu, .pid, .fields.prev_comm, .fields.prev_pid, .fields.prev_state,
		 .fields.next_comm, .fields.next_pid, .fields.next_prio] | @tsv' >"$TM_TMP/want"
	"$TRACEMAP" sql "$f" --format tsv "SELECT ts, cpu, tid, prev_comm, prev_pid, prev_state,
		next_comm, next_pid, next_prio FROM sched_switch ORDER BY rowid" | tail -n +2 >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
	# the generic table's fields are report --json's, as JSON
	"$TRACEMAP" report --json "$f" | jq -c .fields >"$TM_TMP/want"
	"$TRACEMAP" sql "$f" --format json 'SELECT fields FROM events ORDER BY rowid' |
		jq -c '.fields | fromjson' >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
}

@test "sql: sched_slice's durations per CPU sum to each CPU's busy time from report" {
	local f n=0
	for f in "$FIXTURES"/sched-v6.dat "$FIXTURES"/multi-v7-zstd.dat \
		 "$FIXTURES"/upstream/tc334-sched.dat "$FIXTURES"/upstream/tc34-v7-zstd.dat; do
		busy_from_report "$f" >"$TM_TMP/want"
		"$TRACEMAP" sql "$f" --format tsv 'SELECT cpu, sum(dur) FROM sched_slice
			WHERE utid != 0 GROUP BY cpu ORDER BY cpu' | tail -n +2 | tr '\t' ' ' >"$TM_TMP/got"
		[ -s "$TM_TMP/want" ]
		diff -u "$TM_TMP/want" "$TM_TMP/got" >&2 || { echo "in $f" >&2; return 1; }
		n=$((n + 1))
	done
	# the named query says the same, in ms
	"$TRACEMAP" sql "$FIXTURES/sched-v6.dat" --top cpu --format csv | tail -n +2 |
		cut -d, -f1,2 >"$TM_TMP/got"
	awk '{ printf "%d,%s\n", $1, $2 / 1e6 }' <(busy_from_report "$FIXTURES/sched-v6.dat") |
		awk -F, '{ printf "%d,%.3f\n", $1, $2 }' >"$TM_TMP/want"
	awk -F, '{ printf "%d,%.3f\n", $1, $2 }' "$TM_TMP/got" | diff -u "$TM_TMP/want" -
}

@test "sql: the longest wakeup latency and its task are those report's events give" {
	local f
	for f in "$FIXTURES"/sched-v6.dat "$FIXTURES"/upstream/tc334-sched.dat \
		 "$FIXTURES"/upstream/tc34-v7-zstd.dat; do
		longest_wait "$f" >"$TM_TMP/want"
		"$TRACEMAP" sql "$f" --format tsv 'SELECT latency, tid FROM wakeup_latency
			ORDER BY latency DESC, ts LIMIT 1' | tail -n +2 | tr '\t' ' ' >"$TM_TMP/got"
		diff -u "$TM_TMP/want" "$TM_TMP/got" >&2 || { echo "in $f" >&2; return 1; }
	done
	# --top latency's first row is that task with that maximum, in ms
	read -r ns tid <"$TM_TMP/want"
	"$TRACEMAP" sql "$f" --top latency --format csv | sed -n 2p >"$TM_TMP/top"
	grep -q ":$tid," "$TM_TMP/top"
	[ "$(cut -d, -f5 "$TM_TMP/top")" = "$(awk -v n="$ns" 'BEGIN { print n / 1e6 }' |
		xargs printf '%.3f' | sed 's/0*$//; s/\.$//')" ]
}

@test "sql: --hist draws every wakeup latency in runqlat's log2 buckets" {
	local f=$FIXTURES/sched-v6.dat
	"$TRACEMAP" sql "$f" --top latency --hist >"$TM_TMP/hist"
	head -1 "$TM_TMP/hist" | grep -Eq '^ +usecs +: count +distribution$'
	grep -Eq '^ +0 -> 1 +: [0-9]+ +\|\**  *\|$' "$TM_TMP/hist"
	# the counts add up to the table's rows, each bucket holds what its bounds say
	[ "$(awk -F: 'NR > 1 { split($2, a, " "); n += a[1] } END { print n }' "$TM_TMP/hist")" = \
	  "$("$TRACEMAP" sql "$f" --format csv 'SELECT count(*) FROM wakeup_latency' | tail -1)" ]
	"$TRACEMAP" sql "$f" --format csv 'SELECT latency / 1000 FROM wakeup_latency' | tail -n +2 |
		awk '{ s = 1; v = $1; while (v >= 2) { v = int(v / 2); s++ } n[s]++ }
		     END { for (k in n) print k, n[k] }' | sort -n >"$TM_TMP/want"
	awk -F: 'NR > 1 { split($2, a, " "); if (a[1]) print NR - 1, a[1] }' "$TM_TMP/hist" >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
}

@test "sql: lost_events has one row per DROPPED marker of report, on its CPU, with its count" {
	local f
	for f in "$FIXTURES"/lost-v6.dat "$FIXTURES"/lost-v7-zstd.dat; do
		# report: "CPU:N [M EVENTS DROPPED]" before the CPU's next event
		"$TRACEMAP" report -t "$f" | awk '
			/EVENTS DROPPED\]$/ { split($1, c, ":"); cpu = c[2] + 0
				n = ($2 ~ /^\[[0-9]+$/) ? substr($2, 2) : ""; want[cpu] = n; next }
			{ match($0, /\[[0-9]+\]/); cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
			  if (cpu in want) { t = $0; sub(/^.*\] [^ ]+ +/, "", t); split(t, a, ":")
				  gsub(/\./, "", a[1]); printf "%d %s %s\n", cpu, a[1], want[cpu]
				  delete want[cpu] } }' |
			sort -n >"$TM_TMP/want"
		"$TRACEMAP" sql "$f" --format tsv 'SELECT cpu, ts, count FROM lost_events ORDER BY cpu' |
			tail -n +2 | awk -F'\t' '{ print $1, $2, $3 }' | sed 's/ $//' >"$TM_TMP/got"
		[ "$(wc -l <"$TM_TMP/want")" -eq 2 ]
		diff -u <(sed 's/ $//' "$TM_TMP/want") "$TM_TMP/got" >&2 || { echo "in $f" >&2; return 1; }
	done
	# a slice or state cut by a loss is marked, its duration not computed over it
	"$TRACEMAP" sql "$f" --format csv 'SELECT count(*) FROM sched_slice WHERE lost = 1 AND
		dur IS NOT NULL AND ts < (SELECT max(ts) FROM lost_events) AND
		ts + dur > (SELECT max(ts) FROM lost_events) AND cpu IN (SELECT cpu FROM lost_events)' |
		tail -1 | grep -qx 0
}

@test "sql: Perfetto's tables have its columns and types, and its documented queries run unchanged" {
	local f=$FIXTURES/sched-v6.dat t
	for t in sched_slice:"id ts dur cpu utid end_state priority ucpu" \
		 sched:"ts dur cpu utid end_state priority ucpu ts_end" \
		 thread_state:"id ts dur cpu utid state io_wait blocked_function waker_utid waker_id irq_context ucpu" \
		 thread:"utid tid name start_ts end_ts upid is_main_thread is_idle machine_id" \
		 process:"upid pid name start_ts end_ts parent_upid uid cmdline machine_id"; do
		"$TRACEMAP" sql "$f" --format tsv "SELECT name FROM pragma_table_info('${t%%:*}')" |
			tail -n +2 >"$TM_TMP/cols"
		for c in ${t#*:}; do
			grep -qx "$c" "$TM_TMP/cols" || { echo "${t%%:*} has no $c" >&2; return 1; }
		done
	done
	"$TRACEMAP" sql "$f" --format csv "SELECT type FROM pragma_table_info('sched_slice')
		WHERE name IN ('ts', 'dur', 'utid', 'priority')" | tail -n +2 | sort -u | grep -qx INTEGER
	# trace_processor's tests' queries (test/trace_processor/*.sql), as they are
	"$TRACEMAP" sql "$f" 'SELECT ts, cpu, dur, ts_end, end_state, priority, tid, name
		FROM sched JOIN thread ON sched.utid == thread.utid ORDER BY cpu, sched.ts ASC;' \
		>"$TM_TMP/a"
	[ "$(wc -l <"$TM_TMP/a")" -ge 100 ]
	"$TRACEMAP" sql "$f" --format csv 'select ts, cpu, dur, ts_end, utid, end_state, priority,
		upid, name, tid from sched join thread using(utid) order by ts' >"$TM_TMP/b"
	# every switched-in task is a thread with its tid and the name it had
	"$TRACEMAP" report --json "$f" | jq -r 'select(.event == "sched_switch" and
		.fields.next_pid != 0) | "\(.timestamp_ns),\(.fields.next_pid)"' | sort >"$TM_TMP/want"
	awk -F, 'NR > 1 && $10 != 0 { print $1 "," $10 }' "$TM_TMP/b" | sort >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
	# Perfetto's documentation's sched_slice example, as it is: every slice, named
	[ "$("$TRACEMAP" sql "$f" --format csv 'select ts, dur, cpu, end_state, priority,
		process.name, thread.name from sched_slice left join thread using(utid)
		left join process using(upid)' | awk -F, 'NR > 1 && $6 != "" && $7 != ""' | wc -l)" = \
	  "$("$TRACEMAP" sql "$f" --format csv 'SELECT count(*) FROM sched_slice' | tail -1)" ]
	# thread JOIN process USING (upid), the docs' form
	"$TRACEMAP" sql "$f" --format csv 'SELECT tid, thread.name, pid, process.name AS pname
		FROM thread JOIN process USING (upid) WHERE tid = 10497' | tail -1 | grep -qx '10497,sh,10497,sh'
	# thread_state: Running rows are exactly the slices of the thread's tasks
	[ "$("$TRACEMAP" sql "$f" --format csv "SELECT count(*) FROM thread_state
		WHERE state = 'Running'" | tail -1)" = \
	  "$("$TRACEMAP" sql "$f" --format csv 'SELECT count(*) FROM sched_slice WHERE utid != 0' |
		tail -1)" ]
}

@test "sql: csv, tsv and json lines quote what needs it; columns align; NULL is empty or null" {
	local f=$FIXTURES/sched-v6.dat q
	q="SELECT 1 AS n, 'a,b \"c\"' AS s, NULL AS z, 'x	y' AS t"
	"$TRACEMAP" sql "$f" --format csv "$q" >"$TM_TMP/out"
	printf '%s\n' 'n,s,z,t' '1,"a,b ""c""",,x	y' | diff -u - "$TM_TMP/out"
	"$TRACEMAP" sql "$f" --format tsv "$q" >"$TM_TMP/out"
	printf '%s\n' 'n	s	z	t' '1	a,b "c"		x\ty' | diff -u - "$TM_TMP/out"
	"$TRACEMAP" sql "$f" --format json "$q" | jq -e '.n == 1 and .s == "a,b \"c\"" and
		.z == null and .t == "x\ty"'
	"$TRACEMAP" sql "$f" "SELECT 12345 AS number, 'ab' AS text" >"$TM_TMP/out"
	printf '%s\n' 'number  text' '------  ----' ' 12345  ab' | diff -u - "$TM_TMP/out"
	# the query from standard input, several statements
	printf 'SELECT 1;\nSELECT 2 AS two;\n' | "$TRACEMAP" sql "$f" --format csv >"$TM_TMP/out"
	printf '%s\n' 1 1 two 2 | diff -u - "$TM_TMP/out"
}

@test "sql: -o keeps every table in a database sqlite3 opens; it is replaced only when complete" {
	local f=$FIXTURES/multi-v6.dat
	"$TRACEMAP" sql "$f" -o "$TM_TMP/t.sqlite" </dev/null
	[ "$(sqlite3 "$TM_TMP/t.sqlite" 'SELECT count(*) FROM events')" = \
	  "$("$TRACEMAP" report --json "$f" | wc -l)" ]
	# both buffers, named
	sqlite3 "$TM_TMP/t.sqlite" 'SELECT DISTINCT buffer FROM events ORDER BY 1' >"$TM_TMP/got"
	printf '%s\n' '' fmtspec | diff -u - "$TM_TMP/got"
	[ "$(sqlite3 "$TM_TMP/t.sqlite" 'SELECT count(*) FROM sched_slice')" -gt 100 ]
	[ -z "$(ls -A "$TM_TMP" | grep -v '^t.sqlite$\|^got$')" ]
	# a failing load leaves the old file as it was and no temporary
	cp "$TM_TMP/t.sqlite" "$TM_TMP/old"
	head -c 20000 "$FIXTURES/sched-v6.dat" >"$TM_TMP/cut.dat"
	run "$TRACEMAP" sql "$TM_TMP/cut.dat" -o "$TM_TMP/t.sqlite" 'SELECT 1'
	[ "$status" -eq 1 ]
	cmp "$TM_TMP/old" "$TM_TMP/t.sqlite"
	[ -z "$(ls -A "$TM_TMP" | grep -v '^t.sqlite$\|^old$\|^cut.dat$\|^got$')" ]
}

@test "sql: a corrupt trace gives the reader's one line, before any table; nothing is left" {
	head -c 3000 "$FIXTURES/sched-v6.dat" >"$TM_TMP/cut.dat"
	run "$TRACEMAP" sql "$TM_TMP/cut.dat" -o "$TM_TMP/t.sqlite" 'SELECT 1'
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ ${lines[0]} == "tracemap sql: $TM_TMP/cut.dat: "* ]]
	[ "$("$TRACEMAP" report "$TM_TMP/cut.dat" 2>&1 | sed 's/^tracemap report: //')" = \
	  "${lines[0]#tracemap sql: }" ]
	[ ! -e "$TM_TMP/t.sqlite" ]
	[ -z "$(ls -A "$TM_TMP" | grep -v '^cut.dat$')" ]
}

@test "sql: an SQL error gives SQLite's message and its line and column, exit 1" {
	run "$TRACEMAP" sql "$FIXTURES/sched-v6.dat" 'SELECT count(*)
  FORM sched_switch'
	[ "$status" -eq 1 ]
	[ "$output" = 'tracemap sql: query:2:8: near "sched_switch": syntax error' ]
	run "$TRACEMAP" sql "$FIXTURES/sched-v6.dat" 'SELECT nope FROM sched_switch'
	[ "$status" -eq 1 ]
	[ "$output" = 'tracemap sql: query:1:8: no such column: nope' ]
	# found before anything is loaded: -o writes no database
	run "$TRACEMAP" sql "$FIXTURES/sched-v6.dat" -o "$TM_TMP/t.sqlite" 'SELECT 1; SELEC 2'
	[ "$status" -eq 1 ]
	[ "$output" = 'tracemap sql: query:1:11: near "SELEC": syntax error' ]
	[ -z "$(ls -A "$TM_TMP")" ]
	# a table an earlier statement makes is no error
	"$TRACEMAP" sql "$FIXTURES/sched-v6.dat" --format csv 'CREATE TEMP TABLE x AS
		SELECT count(*) AS n FROM sched_switch; SELECT n FROM x' | tail -1 | grep -qx 167
	run "$TRACEMAP" sql "$FIXTURES/sched-v6.dat" --top nothing
	[ "$status" -eq 2 ]
	[[ $output == "tracemap sql: no named query 'nothing' (--top list names them)" ]]
}

@test "sql: a full disk under -o says so in one line, exit 1, and leaves no database" {
	mkdir "$TM_TMP/full"
	mount -t tmpfs -o size=256k tmpfs "$TM_TMP/full"
	run "$TRACEMAP" sql "$FIXTURES/upstream/tc34-v7-zstd.dat" -o "$TM_TMP/full/t.sqlite" \
		'SELECT count(*) FROM events'
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "tracemap sql: "*"$TM_TMP/full/t.sqlite: disk full" ]]
	[ -z "$(ls -A "$TM_TMP/full")" ]
}

@test "sql: the man page shows each named query's SQL as --top NAME --show prints it" {
	local n line page=$TM_ROOT/man/tracemap-sql.1 k=0
	sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/^\\&//' "$page" >"$TM_TMP/man"
	for n in $("$TRACEMAP" sql --top list | cut -d' ' -f1); do
		for h in "" --hist; do
			"$TRACEMAP" sql --top "$n" $h --show >"$TM_TMP/q" 2>/dev/null || continue
			while IFS= read -r line; do
				grep -qxF -- "$line" "$TM_TMP/man" ||
					{ echo "$n$h: not in the page: $line" >&2; return 1; }
			done <"$TM_TMP/q"
			k=$((k + 1))
		done
	done
	[ "$k" -ge 9 ]
}
