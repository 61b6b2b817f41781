#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sql.sh - `tracemap sql` beside `tracemap report` to a file, on the same files in the same
# run: RUNS interleaved rounds of report, a one-off query of one event table (the first
# answer), of the derived sched_slice, a full-table aggregate of the generic table (every
# event read: its virtual table, one pass over the file; and one without GROUP BY, which
# SQLite sorts for), the load of every table with -o,
# and the same aggregate repeated on the kept database with sqlite3; median and worst
# wall time, peak RSS (/usr/bin/time %M). bench/sql-big.sh measures a 5 GB file.
# Run by hand (figures are ratios within one run). Benchmark files: bench/record-mixed.sh
# DIR (root, under the kernel lock).
#
#   bench/sql.sh FILE.dat...
#   RUNS=3 TRACEMAP=./tracemap bench/sql.sh /tmp/b/mixed.dat
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=${TRACEMAP:-./tracemap}
RUNS=${RUNS:-3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tracemap-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

die() { echo "bench/sql.sh: $*" >&2; exit 1; }
[ -x "$TRACEMAP" ] || die "$TRACEMAP not built (make)"
command -v sqlite3 >/dev/null || die "no sqlite3 (apt-get install sqlite3)"
[ $# -ge 1 ] || die "usage: bench/sql.sh FILE.dat..."

# shellcheck source=lib.sh
source bench/lib.sh

# run NAME CMD...: one timed run, "seconds rss_kb" appended to $WORK/NAME
run() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$WORK/time" "$@" >/dev/null
	cat "$WORK/time" >>"$WORK/$name"
}

ONE='SELECT count(*) FROM sched_switch'
DERIVED='SELECT cpu, sum(dur) FROM sched_slice GROUP BY cpu'
ALL='SELECT name, count(*) FROM events GROUP BY name'
SCAN='SELECT count(*), max(ts) - min(ts) FROM events'

printf '%-12s %10s %-22s %9s %9s %8s %9s\n' file events query median worst 'x report' 'RSS MB'
for f in "$@"; do
	[ -r "$f" ] || die "cannot read $f"
	rm -f "$WORK"/r.* "$WORK"/t.sqlite
	events=$("$TRACEMAP" report "$f" 2>/dev/null | grep -cv -e '^cpus=' -e 'EVENTS DROPPED\]$' || true)
	for ((i = 0; i < RUNS; i++)); do
		run r.report sh -c '"$0" report "$1" >"$2"' "$TRACEMAP" "$f" "$WORK/o.txt"
		run r.one "$TRACEMAP" sql "$f" "$ONE"
		run r.derived "$TRACEMAP" sql "$f" "$DERIVED"
		run r.all "$TRACEMAP" sql "$f" "$ALL"
		run r.scan "$TRACEMAP" sql "$f" "$SCAN"
		run r.load "$TRACEMAP" sql "$f" -o "$WORK/t.sqlite" "SELECT 1"
		run r.again sqlite3 "$WORK/t.sqlite" "$ALL"
	done
	rep=$(cut -d' ' -f1 "$WORK/r.report" | median)
	for q in report one derived all scan load again; do
		case $q in
		report)  what="report > file" ;;
		one)     what="sched_switch count" ;;
		derived) what="sched_slice per CPU" ;;
		all)     what="events GROUP BY name" ;;
		scan)    what="events count, span" ;;
		load)    what="-o (every table)" ;;
		again)   what="sqlite3 on -o's file" ;;
		esac
		med=$(cut -d' ' -f1 "$WORK/r.$q" | median)
		worst=$(cut -d' ' -f1 "$WORK/r.$q" | sort -n | tail -1)
		rss=$(cut -d' ' -f2 "$WORK/r.$q" | sort -n | tail -1)
		printf '%-12s %10s %-22s %8.2fs %8.2fs %7.2fx %9.1f\n' "$(basename "$f" .dat)" "$events" \
			"$what" "$med" "$worst" "$(awk -v a="$med" -v b="$rep" 'BEGIN { print a / b }')" \
			"$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
	done
	ls -l "$WORK/t.sqlite" | awk '{ printf "%-12s database of -o: %d MB\n", "", $5 / 1048576 }'
done
echo "medians and worst of $RUNS interleaved runs; x report = the median / report's median"
