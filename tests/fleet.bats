#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# fleet.bats - `tracemap fleet` against two ClickHouse servers on loopback (the
# distribution's clickhouse-server, a remote_servers cluster "fleet" of two
# shards): two machines' trace databases loaded into the two shards, answers
# through the Distributed tables compared with SQLite's on each database, a
# second load refused, a refused insert, an unreachable server, a server
# killed mid-load. The servers are killed and their files removed on every
# exit path (teardown_file). No kernel.

load helpers
load clickhouse

setup_file() {
	export FLEET_TMP
	FLEET_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tracemap-fleet.XXXXXX")
	export CH_DIR
	ch_init "$FLEET_TMP/ch"
	ch_ports s1 && ch_ports s2 && ch_start s1 && ch_start s2
	make_db "$FLEET_TMP/h1.db" 1 && make_db "$FLEET_TMP/h2.db" 2
}

teardown_file() {
	CH_NAMES=(s1 s2)
	ch_cleanup
	rm -rf "$FLEET_TMP"
}

setup() {
	CH_NAMES=(s1 s2)
	DB=db_${BATS_TEST_NUMBER}
}

# the kill test's own server
teardown() {
	ch_kill s3
}

# A trace database with lib/sql's tables, rows varying with SEED.
make_db() {
	local f=$1 k=$2
	sqlite3 "$f" <<-EOF
	CREATE TABLE sched_switch (ts INTEGER, cpu INTEGER, tid INTEGER, prev_comm TEXT,
	  prev_pid INTEGER, prev_state INTEGER, next_comm TEXT, next_pid INTEGER);
	CREATE TABLE sched_slice (id INTEGER, ts INTEGER, dur INTEGER, cpu INTEGER,
	  utid INTEGER, end_state TEXT, priority INTEGER, ucpu INTEGER, lost INTEGER);
	CREATE TABLE thread (utid INTEGER, tid INTEGER, name TEXT, start_ts INTEGER,
	  end_ts INTEGER, upid INTEGER, is_main_thread INTEGER, is_idle INTEGER,
	  machine_id INTEGER);
	CREATE TABLE wakeup_latency (ts INTEGER, latency INTEGER, tid INTEGER,
	  waker_tid INTEGER, waker_cpu INTEGER, cpu INTEGER, target_cpu INTEGER,
	  utid INTEGER, lost INTEGER);
	CREATE TABLE syscalls (ts INTEGER, dur INTEGER, tid INTEGER, id INTEGER, name TEXT,
	  ret INTEGER, cpu INTEGER, utid INTEGER, lost INTEGER);
	CREATE TABLE events (ts INTEGER, cpu INTEGER, tid INTEGER, system TEXT, name TEXT,
	  fields TEXT);
	CREATE VIEW sched AS SELECT *, ts + dur AS ts_end FROM sched_slice;
	WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999 + $k * 300)
	INSERT INTO sched_switch SELECT 1000 + i * 10, i % (2 + $k), 100 + i % 7,
	  'comm' || (i % 7), 100 + i % 7, CASE WHEN i % 3 THEN 1 END, 'c', 100 + (i + 1) % 7
	  FROM n;
	INSERT INTO sched_slice SELECT rowid, ts, 5 + (rowid * $k) % 97, cpu, tid % 5,
	  'S', 120, cpu, 0 FROM sched_switch;
	INSERT INTO thread VALUES (0, 0, 'swapper', NULL, NULL, 0, 1, 1, 0),
	  (1, 101, 'bash', NULL, NULL, 1, 1, 0, 0), (2, 102, 'make', 5, NULL, 2, 1, 0, 0),
	  (3, 103, 'cc1', 9, 99, 3, 1, 0, 0);
	INSERT INTO wakeup_latency SELECT ts, (rowid * 7919 * $k) % 100003, tid, 1, 0, cpu,
	  cpu, tid % 5, 0 FROM sched_switch WHERE rowid % 3 = 0;
	INSERT INTO syscalls SELECT ts + 1, 3 + (rowid * 31 * $k) % 1000, tid, rowid % 4,
	  CASE rowid % 4 WHEN 0 THEN 'read' WHEN 1 THEN 'write' WHEN 2 THEN 'openat'
	  ELSE 'futex' END, CASE WHEN rowid % 5 THEN 0 END, cpu, tid % 5, 0
	  FROM sched_switch WHERE rowid % 2 = 0;
	INSERT INTO events SELECT ts, cpu, tid, 'sched', 'sched_switch', '{"x":1}'
	  FROM sched_switch;
	INSERT INTO events SELECT ts, cpu, tid, 'raw_syscalls', 'sys_enter', '{}'
	  FROM syscalls;
	EOF
}

# SQLite's answer over both databases: SQL run on h1's rows and h2's, with
# {T} the prefix of their tables and {M} their machine, the union ordered by ORDER.
sqlite_union() {
	local sql=$1 order=$2 q1 q2
	q1=${sql//\{T\}/main.}
	q2=${sql//\{T\}/b.}
	sqlite3 -separator $'\t' -nullvalue '\N' "$FLEET_TMP/h1.db" \
		"ATTACH '$FLEET_TMP/h2.db' AS b;
		 SELECT * FROM (${q1//\{M\}/\'h1\'}) UNION ALL SELECT * FROM (${q2//\{M\}/\'h2\'})
		 $order"
}

csort() { LC_ALL=C sort; }

load_both() {
	run "$TRACEMAP" fleet --clickhouse "$(ch_url s1 "$DB")" --cluster fleet -m h1 \
		"$FLEET_TMP/h1.db"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run "$TRACEMAP" fleet --clickhouse "$(ch_url s2 "$DB")" --cluster fleet -m h2 \
		"$FLEET_TMP/h2.db"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

# A named query's answer from server S without its header line.
ask() {
	local s=$1
	shift
	"$TRACEMAP" fleet --clickhouse "$(ch_url "$s" "$DB")" "$@" | tail -n +2
}

@test "fleet: --schema clickhouse prints DDL a server runs, local and Distributed tables" {
	run "$TRACEMAP" fleet --schema clickhouse --cluster fleet "$FLEET_TMP/h1.db"
	[ "$status" -eq 0 ]
	[[ "$output" == *'`default`.`sched_slice_local` (`trace` String, `machine` String, `id` Nullable(Int64)'* ]]
	[[ "$output" == *"ENGINE = Distributed('fleet', 'default', 'sched_slice_local', cityHash64(trace))"* ]]
	local stmt n=0
	while read -r stmt; do
		ch_q s1 "${stmt%;}" || return 1
		n=$((n + 1))
	done <<<"$output"
	# the database, tracemap_loads and its Distributed table, 6 tables twice
	[ "$n" -eq 15 ]
	[ "$(ch_q s1 "SELECT count() FROM system.tables WHERE database = 'default' AND engine = 'Distributed'")" -eq 7 ]
	[ "$(ch_q s1 "SELECT count() FROM system.tables WHERE database = 'default' AND engine = 'MergeTree'")" -eq 7 ]
}

@test "fleet: two machines in two shards: answers through the Distributed tables are SQLite's" {
	load_both
	local s
	for s in s1 s2; do
		# counts per event type, per machine and across machines
		diff <(ask "$s" --top counts) <(sqlite_union \
			"SELECT {M}, system, name, count(*) FROM {T}events GROUP BY system, name" \
			"ORDER BY 1, 2, 3")
		diff <(ask "$s" --top counts --across | csort) <(sqlite_union \
			"SELECT system, name, count(*) AS n FROM {T}events GROUP BY system, name" "" |
			awk -F'\t' '{ n[$1 "\t" $2] += $3 } END { for (k in n) print k "\t" n[k] }' | csort)
		# sched_slice sums per CPU and machine
		diff <(ask "$s" --top cpu) <(sqlite_union \
			"SELECT {M}, cpu, total(CASE WHEN utid != 0 THEN dur END),
			   total(CASE WHEN utid = 0 THEN dur END), count(*)
			 FROM {T}sched_slice GROUP BY cpu" "ORDER BY 1, 2" | sed 's/\.0\t/\t/g')
		# per task: run time, switches, wakeups, the longest latency
		diff <(ask "$s" --top latency --limit 100 | csort) <(sqlite_union \
			"SELECT {M}, t.name, sum(rt), sum(sw), sum(d), max(md) FROM
			 (SELECT utid, sum(dur) AS rt, count(*) AS sw FROM {T}sched_slice
			  WHERE utid != 0 GROUP BY utid)
			 LEFT JOIN (SELECT utid, count(*) AS d, max(latency) AS md
			  FROM {T}wakeup_latency WHERE lost = 0 GROUP BY utid) USING (utid)
			 LEFT JOIN {T}thread t USING (utid) GROUP BY t.name" "" | csort)
		# the top wakeup latencies across the fleet, and of one machine
		diff <(ask "$s" --top wakeups --limit 25) <(sqlite_union \
			"SELECT {M}, ts, latency, tid, cpu FROM {T}wakeup_latency WHERE lost = 0" \
			"ORDER BY 3 DESC, 1, 2, 4 LIMIT 25")
		diff <(ask "$s" --top wakeups --limit 7 -m h2) <(sqlite3 -separator $'\t' "$FLEET_TMP/h2.db" \
			"SELECT 'h2', ts, latency, tid, cpu FROM wakeup_latency WHERE lost = 0 ORDER BY latency DESC, ts, tid LIMIT 7")
		# syscall time, per machine, and run time per task across machines
		diff <(ask "$s" --top syscalls | csort) <(sqlite_union \
			"SELECT {M}, name, count(*), sum(dur), max(dur) FROM {T}syscalls GROUP BY name" "" |
			csort)
		diff <(ask "$s" --top runtime --across | csort) <(sqlite_union \
			"SELECT t.name, s.dur FROM {T}sched_slice s LEFT JOIN {T}thread t USING (utid)" "" |
			awk -F'\t' '{ c[$1]++; d[$1] += $2 } END { for (k in c) print k "\t" c[k] "\t" d[k] }' |
			csort)
	done
	# each shard holds its own machine's rows only
	[ "$(ch_q s1 "SELECT DISTINCT machine FROM $DB.events_local")" = h1 ]
	[ "$(ch_q s2 "SELECT DISTINCT machine FROM $DB.events_local")" = h2 ]
	run "$TRACEMAP" fleet --clickhouse "$(ch_url s2 "$DB")" --traces
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[1]}" == *$'\th1\t6\t'* ]]
}

@test "fleet: a second load of the same trace is refused; --replace loads it again" {
	local url
	url=$(ch_url s1 "$DB")
	run "$TRACEMAP" fleet --clickhouse "$url" "$FLEET_TMP/h1.db"
	[ "$status" -eq 0 ]
	[[ "$output" == *"loaded into 127.0.0.1:"*"/$DB: "*" rows" ]]
	run "$TRACEMAP" fleet --clickhouse "$url" "$FLEET_TMP/h1.db"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"h1.db: 127.0.0.1:"*"/$DB: trace "*" is already loaded (--replace loads it again)" ]]
	run "$TRACEMAP" fleet --clickhouse "$url" --replace "$FLEET_TMP/h1.db"
	[ "$status" -eq 0 ]
	# once, not twice: the rows and the trace's row in tracemap_loads
	[ "$(ch_q s1 "SELECT count() FROM $DB.events")" -eq \
	  "$(sqlite3 "$FLEET_TMP/h1.db" "SELECT count(*) FROM events")" ]
	[ "$(ch_q s1 "SELECT count() FROM $DB.tracemap_loads")" -eq 1 ]
	# the same rows under another id are another trace
	run "$TRACEMAP" fleet --clickhouse "$url" --trace other "$FLEET_TMP/h1.db"
	[ "$status" -eq 0 ]
	[ "$(ch_q s1 "SELECT count() FROM $DB.tracemap_loads")" -eq 2 ]
}

@test "fleet: an unreachable server: exit 1, one line naming it, nothing else" {
	local port
	port=$(ch_free_port)
	run "$TRACEMAP" fleet --clickhouse "http://127.0.0.1:$port/x" "$FLEET_TMP/h1.db"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "tracemap fleet: $FLEET_TMP/h1.db: 127.0.0.1:$port/x: CREATE DATABASE"*"onnect"* ]]
	run "$TRACEMAP" fleet --clickhouse "http://127.0.0.1:$port/x" --top latency
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$TRACEMAP" fleet --clickhouse "ftp://127.0.0.1/x" --top latency
	[ "$status" -eq 1 ]
	[[ "$output" == *"not a ClickHouse URL"* ]]
}

@test "fleet: a refused insert: the server's own text in one line, the trace not loaded" {
	local url
	url=$(ch_url s1 "$DB")
	ch_q s1 "CREATE DATABASE $DB"
	# a sched_slice without dur: the server refuses the insert
	ch_q s1 "CREATE TABLE $DB.sched_slice (trace String, machine String, id Nullable(Int64)) ENGINE = MergeTree() PARTITION BY trace ORDER BY trace"
	run "$TRACEMAP" fleet --clickhouse "$url" "$FLEET_TMP/h1.db"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"/$DB: INSERT INTO \`sched_slice\`"*"server refused (HTTP "*"): Code: "*"No such column"* ]]
	[ "$(ch_q s1 "SELECT count() FROM $DB.tracemap_loads")" -eq 0 ]
	# events went in before it, yet no query counts them
	[ "$(ch_q s1 "SELECT count() FROM $DB.events")" -gt 0 ]
	[ -z "$(ask s1 --top counts)" ]
	ch_q s1 "DROP TABLE $DB.sched_slice"
	run "$TRACEMAP" fleet --clickhouse "$url" "$FLEET_TMP/h1.db"
	[ "$status" -eq 0 ]
	[ "$(ch_q s1 "SELECT count() FROM $DB.events")" -eq \
	  "$(sqlite3 "$FLEET_TMP/h1.db" "SELECT count(*) FROM events")" ]
	diff <(ask s1 --top counts) <(sqlite3 -separator $'\t' "$FLEET_TMP/h1.db" \
		"SELECT 'h1', system, name, count(*) FROM events GROUP BY system, name ORDER BY 2, 3")
}

insert_running() {
	[ "$(ch_q s3 "SELECT count() FROM system.processes WHERE query LIKE 'INSERT INTO \`sched_switch\`%'")" = 1 ]
}

@test "fleet: a server killed mid-load: exit 1, no trace counted as loaded; the retry loads it" {
	local url big=$FLEET_TMP/big.db pid rc=0
	# a server of its own, which it kills
	ch_ports s3
	ch_start s3
	url=$(ch_url s3 "$DB")
	sqlite3 "$big" "CREATE TABLE events (ts INTEGER, cpu INTEGER, tid INTEGER, system TEXT,
	  name TEXT, fields TEXT);
	CREATE TABLE sched_switch (ts INTEGER, cpu INTEGER, tid INTEGER, prev_comm TEXT,
	  prev_pid INTEGER, next_pid INTEGER);
	WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1499999)
	INSERT INTO sched_switch SELECT i * 10, i % 2, i % 97, 'comm', i % 97, (i + 1) % 97 FROM n;
	INSERT INTO events SELECT ts, cpu, tid, 'sched', 'sched_switch', '{}' FROM sched_switch
	  WHERE ts < 10000;"
	"$TRACEMAP" fleet --clickhouse "$url" -m big "$big" 2>"$FLEET_TMP/kill.err" 3>&- &
	pid=$!
	tm_wait 60 "the insert into sched_switch to run" insert_running
	ch_kill s3
	wait "$pid" || rc=$?
	cat "$FLEET_TMP/kill.err"
	[ "$rc" -eq 1 ]
	[ "$(wc -l <"$FLEET_TMP/kill.err")" -eq 1 ]
	grep -q "big.db: 127.0.0.1:.*/$DB: INSERT INTO \`sched_switch\`: " "$FLEET_TMP/kill.err"
	ch_start s3
	[ "$(ch_q s3 "SELECT count() FROM $DB.tracemap_loads")" -eq 0 ]
	# the events table was in whole, and it is not counted
	[ "$(ch_q s3 "SELECT count() FROM $DB.events")" -eq 1000 ]
	[ -z "$(ask s3 --top counts)" ]
	run "$TRACEMAP" fleet --clickhouse "$url" -m big "$big"
	[ "$status" -eq 0 ]
	[ "$(ch_q s3 "SELECT count() FROM $DB.sched_switch")" -eq 1500000 ]
	[ "$(ch_q s3 "SELECT count() FROM $DB.events")" -eq 1000 ]
	[ "$(ask s3 --top counts)" = $'big\tsched\tsched_switch\t1000' ]
}

@test "fleet: tracemap sql --clickhouse loads two machines' trace.dat files into two shards; the answers are tracemap sql's" {
	local host=$FIXTURES/sched-v7-zstd.dat vm=$TM_ROOT/tests/fixtures-vm/tc-funcgraph.dat s
	run "$TRACEMAP" sql "$host" --clickhouse "$(ch_url s1 "$DB")" --cluster fleet
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"sched-v7-zstd.dat: trace "*" (sched-v7-zstd) loaded into "* ]]
	run "$TRACEMAP" sql "$vm" --clickhouse "$(ch_url s2 "$DB")" --cluster fleet
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# the same files again: the same trace, refused
	run "$TRACEMAP" sql "$vm" --clickhouse "$(ch_url s2 "$DB")" --cluster fleet
	[ "$status" -eq 1 ]
	[[ "$output" == *"is already loaded (--replace loads it again)" ]]
	"$TRACEMAP" sql -q -o "$FLEET_TMP/host.db" "$host"
	"$TRACEMAP" sql -q -o "$FLEET_TMP/vm.db" "$vm"
	mine() {
		sqlite3 -separator $'\t' -nullvalue '\N' "$FLEET_TMP/host.db" \
			"ATTACH '$FLEET_TMP/vm.db' AS b;
			 SELECT * FROM (${1//\{T\}/main.}) UNION ALL SELECT * FROM (${2//\{T\}/b.}) $3"
	}
	for s in s1 s2; do
		run "$TRACEMAP" sql --clickhouse "$(ch_url "$s" "$DB")" --top counts
		[ "$status" -eq 0 ]
		diff <(printf '%s\n' "${lines[@]:1}") <(mine \
			"SELECT 'sched-v7-zstd', system, name, count(*) FROM {T}events GROUP BY system, name" \
			"SELECT 'tc-funcgraph', system, name, count(*) FROM {T}events GROUP BY system, name" \
			"ORDER BY 1, 2, 3")
		diff <(ask "$s" --top cpu) <(mine \
			"SELECT 'sched-v7-zstd', cpu, total(CASE WHEN utid != 0 THEN dur END), total(CASE WHEN utid = 0 THEN dur END), count(*) FROM {T}sched_slice GROUP BY cpu" \
			"SELECT 'tc-funcgraph', cpu, total(CASE WHEN utid != 0 THEN dur END), total(CASE WHEN utid = 0 THEN dur END), count(*) FROM {T}sched_slice GROUP BY cpu" \
			"ORDER BY 1, 2" | sed 's/\.0\t/\t/g')
		diff <(ask "$s" --top wakeups --limit 10) <(mine \
			"SELECT 'sched-v7-zstd', ts, latency, tid, cpu FROM {T}wakeup_latency" \
			"SELECT 'tc-funcgraph', ts, latency, tid, cpu FROM {T}wakeup_latency" \
			"ORDER BY 3 DESC, 1, 2, 4 LIMIT 10")
	done
	# the answers hold both machines' rows: each shard had one
	[ "$(ask s1 --top counts | cut -f1 | sort -u | tr '\n' ' ')" = "sched-v7-zstd tc-funcgraph " ]
	[ "$(ch_q s1 "SELECT DISTINCT machine FROM $DB.events_local")" = sched-v7-zstd ]
	[ "$(ch_q s2 "SELECT DISTINCT machine FROM $DB.events_local")" = tc-funcgraph ]
}
