#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# report.sh - `tracemap report` against `trace-cmd report` on one large trace.dat:
# median wall time of RUNS runs each, events/s, peak RSS, and a byte-for-byte check
# that both print the same. Run by hand (root when it has to record the file).
#
#   bench/report.sh                 record a sched trace of a pipe ping-pong, then compare
#   bench/report.sh FILE.dat        compare on an existing file
#   RUNS=5 SECONDS_REC=10 TRACEMAP=./tracemap bench/report.sh
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=${TRACEMAP:-./tracemap}
RUNS=${RUNS:-5}
SECONDS_REC=${SECONDS_REC:-8}
WORK=$(mktemp -d /tmp/tracemap-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

die() { echo "bench/report.sh: $*" >&2; exit 1; }
command -v trace-cmd >/dev/null || die "trace-cmd is not installed (make deps)"
[ -x "$TRACEMAP" ] || die "$TRACEMAP not built (make)"

# A scheduler-heavy load: two tasks passing a token through a pipe, plus forks.
workload() {
	if command -v perf >/dev/null; then
		timeout "$SECONDS_REC" perf bench sched pipe -l 100000000 >/dev/null 2>&1 || true
	else
		timeout "$SECONDS_REC" bash -c 'while :; do /bin/true; done' || true
	fi
}

FILE=${1:-}
if [ -z "$FILE" ]; then
	FILE=$WORK/bench.dat
	echo "recording ${SECONDS_REC}s of sched events into $FILE ..."
	timeout -s KILL $((SECONDS_REC + 30)) "$TRACEMAP" record -q -e sched -b 200000 \
		-o "$FILE" -- bash -c "$(declare -f workload); SECONDS_REC=$SECONDS_REC; workload"
fi
[ -r "$FILE" ] || die "cannot read $FILE"

# Median of the numbers on stdin.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# run NAME CMD...: RUNS timed runs to /dev/null; prints "median_s peak_rss_kb".
measure() {
	local i t=() r=()
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -f '%e %M' -o "$WORK/time" "$@" > /dev/null
		t+=("$(cut -d' ' -f1 "$WORK/time")")
		r+=("$(cut -d' ' -f2 "$WORK/time")")
	done
	echo "$(printf '%s\n' "${t[@]}" | median) $(printf '%s\n' "${r[@]}" | sort -n | tail -n 1)"
}

"$TRACEMAP" report -i "$FILE" > "$WORK/tm.txt"
trace-cmd report -i "$FILE" > "$WORK/tc.txt" 2>/dev/null
if cmp -s "$WORK/tm.txt" "$WORK/tc.txt"; then same=identical; else same=DIFFERENT; fi
events=$(grep -cv -e '^cpus=' -e 'EVENTS DROPPED\]$' "$WORK/tm.txt" || true)

read -r tm_s tm_rss < <(measure "$TRACEMAP" report -i "$FILE")
read -r tc_s tc_rss < <(measure trace-cmd report -i "$FILE")

awk -v f="$FILE" -v sz="$(stat -c %s "$FILE")" -v n="$events" -v runs="$RUNS" \
    -v tms="$tm_s" -v tmr="$tm_rss" -v tcs="$tc_s" -v tcr="$tc_rss" -v same="$same" 'BEGIN {
	printf "file: %s (%.1f MB, %d events), %d runs each, median wall time\n", f, sz / 1e6, n, runs
	printf "%-22s %8.3f s %10.2f M events/s  peak RSS %6.1f MB\n", "tracemap report", tms, n / tms / 1e6, tmr / 1024
	printf "%-22s %8.3f s %10.2f M events/s  peak RSS %6.1f MB\n", "trace-cmd report", tcs, n / tcs / 1e6, tcr / 1024
	printf "speed-up: %.2fx; outputs %s\n", tcs / tms, same
}'
[ "$same" = identical ]
