#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# fleet.sh - `tracemap fleet` loading trace databases into one ClickHouse server on
# loopback (started here, as tests/fleet.bats starts its own, killed at the end)
# beside clickhouse-client loading the same rows from files, in the same run: RUNS
# interleaved rounds of tracemap fleet (Native over HTTP from the SQLite file),
# clickhouse-client with RowBinary files and with TSV files (the rows the server
# holds after the first load, written out by the server itself), each into a fresh
# database. Median and worst wall time, rows (events) a second, the median's ratio
# to clickhouse-client's better median, and the median CPU seconds of the loader
# and of the server during each load (on a loaded machine the wall times follow
# their sum). Run by hand, under nice on a shared machine.
#
#   bench/fleet.sh [DB...]        trace databases (tracemap sql -o); none: a
#                                 synthetic sched_switch table of ROWS rows
#   RUNS=3 ROWS=2000000 TRACEMAP=./tracemap bench/fleet.sh
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=${TRACEMAP:-./tracemap}
RUNS=${RUNS:-3}
ROWS=${ROWS:-2000000}
WORK=$(mktemp -d /tmp/tracemap-bench-fleet.XXXXXX)

die() { echo "bench/fleet.sh: $*" >&2; exit 1; }
[ -x "$TRACEMAP" ] || die "$TRACEMAP not built (make)"
command -v clickhouse-client >/dev/null || die "clickhouse-client is not installed (make deps)"

BATS_TEST_DIRNAME=$PWD/tests
# shellcheck source=../tests/helpers.bash
source tests/helpers.bash
# shellcheck source=../tests/clickhouse.bash
source tests/clickhouse.bash
trap 'ch_cleanup; rm -rf "$WORK"' EXIT

dbs=("$@")
if [ ${#dbs[@]} -eq 0 ]; then
	dbs=("$WORK/sched.db")
	sqlite3 "$WORK/sched.db" "CREATE TABLE sched_switch (ts INTEGER, cpu INTEGER,
	  tid INTEGER, prev_comm TEXT, prev_pid INTEGER, prev_prio INTEGER,
	  prev_state INTEGER, next_comm TEXT, next_pid INTEGER, next_prio INTEGER);
	WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $ROWS - 1)
	INSERT INTO sched_switch SELECT 1000000 + i * 1733, i % 2, 1000 + i % 211,
	  'kworker/' || (i % 13), 1000 + i % 211, 120, i % 3, 'bash', 1000 + (i + 7) % 211, 120
	  FROM n;"
fi

ch_init "$WORK/ch"
ch_ports s1
ch_start s1
PORT=$(ch_port s1 tcp)
SERVER_PID=$(cat "$CH_DIR/s1/pid")
HZ=$(getconf CLK_TCK)

rows=0
for f in "${dbs[@]}"; do
	n=$(sqlite3 "$f" "SELECT name FROM sqlite_master WHERE type = 'table'" |
	    while read -r t; do sqlite3 "$f" "SELECT count(*) FROM \"$t\""; done |
	    awk '{ s += $1 } END { print s }')
	rows=$((rows + n))
done

now() { date +%s.%N; }
# shellcheck source=lib.sh
source bench/lib.sh
worst() { sort -n | tail -1; }

# The server's CPU so far (user + system), in clock ticks.
server_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat"; }
# CMD... with its user + system seconds added to $WORK/cpu.
timed() { /usr/bin/time -a -o "$WORK/cpu" -f "%U %S" "$@"; }

# Before a load: the clocks. After it: its wall time, loader and server CPU under KEY.
measure_start() {
	: >"$WORK/cpu"
	T0=$(now)
	S0=$(server_ticks)
}
measure_end() {
	local key=$1
	echo "$(now) - $T0" | bc >>"$WORK/t.$key"
	echo "($(server_ticks) - $S0) / $HZ" | bc -l >>"$WORK/s.$key"
	awk '{ s += $1 + $2 } END { print s }' "$WORK/cpu" >>"$WORK/c.$key"
}

load_tracemap() {
	local db=$1 f
	measure_start
	for f in "${dbs[@]}"; do
		timed "$TRACEMAP" fleet -q --clickhouse "$(ch_url s1 "$db")" "$f"
	done
	measure_end tracemap
}

# The tables as the loader made them, emptied; then each file through clickhouse-client.
load_client() {
	local db=$1 fmt=$2 t
	ch_q s1 "CREATE DATABASE $db"
	for t in $(cat "$WORK/tables"); do
		ch_q s1 "CREATE TABLE $db.\`$t\` AS first.\`$t\`"
	done
	measure_start
	for t in $(cat "$WORK/tables"); do
		timed clickhouse-client --port "$PORT" --query "INSERT INTO $db.\`$t\` FORMAT $fmt" \
			<"$WORK/$t.$fmt"
	done
	measure_end "$fmt"
}

# the first load: the tables and the files clickhouse-client reads
for f in "${dbs[@]}"; do
	"$TRACEMAP" fleet -q --clickhouse "$(ch_url s1 first)" "$f"
done
ch_q s1 "SELECT name FROM system.tables WHERE database = 'first' AND name != 'tracemap_loads'" \
	>"$WORK/tables"
for t in $(cat "$WORK/tables"); do
	ch_q s1 "SELECT * FROM first.\`$t\` FORMAT RowBinary" >"$WORK/$t.RowBinary"
	ch_q s1 "SELECT * FROM first.\`$t\` FORMAT TSV" >"$WORK/$t.TSV"
done

for r in $(seq 1 "$RUNS"); do
	load_tracemap "tm$r"
	load_client "rb$r" RowBinary
	load_client "tsv$r" TSV
	ch_q s1 "DROP DATABASE tm$r"
	ch_q s1 "DROP DATABASE rb$r"
	ch_q s1 "DROP DATABASE tsv$r"
done

echo "ClickHouse $(ch_q s1 'SELECT version()'), $rows rows (events) in ${#dbs[@]} database(s), $RUNS runs"
printf '%-34s %9s %9s %14s %14s %9s %9s %9s\n' loader 'median s' 'worst s' \
	'median rows/s' 'worst rows/s' 'x client' 'CPU s' 'server s'
best=$( (median <"$WORK/t.RowBinary"; median <"$WORK/t.TSV") | sort -n | head -1)
for k in tracemap RowBinary TSV; do
	case $k in
	tracemap) name="tracemap fleet (Native, HTTP)" ;;
	*) name="clickhouse-client ($k file)" ;;
	esac
	m=$(median <"$WORK/t.$k")
	w=$(worst <"$WORK/t.$k")
	printf '%-34s %9.2f %9.2f %14.0f %14.0f %9.2f %9.2f %9.2f\n' "$name" "$m" "$w" \
		"$(echo "$rows / $m" | bc -l)" "$(echo "$rows / $w" | bc -l)" \
		"$(echo "$best / $m" | bc -l)" "$(median <"$WORK/c.$k")" "$(median <"$WORK/s.$k")"
done
echo "x client: clickhouse-client's better median time over this median time (> 1: faster)"
