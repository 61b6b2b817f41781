#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# convert.sh - `tracemap convert` to Perfetto (plain and .zst) and to Chrome JSON beside
# `tracemap report` to a file, on the same files in the same run: RUNS interleaved rounds
# of the four, median and worst wall time, events/s, bytes an event of each output and of
# the trace.dat itself, peak RSS (/usr/bin/time %M). Run by hand, under nice on a shared
# machine (the figures are ratios within one run). Benchmark files: bench/record-mixed.sh
# DIR (root, under the kernel lock).
#
#   bench/convert.sh FILE.dat...
#   RUNS=5 TRACEMAP=./tracemap bench/convert.sh /tmp/b/sched-pipe.dat /tmp/b/mixed.dat
#   BEFORE=/path/to/old/tracemap bench/convert.sh ...   also the older build's two converts,
#                                                       in the same rounds (rows "... before")
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=${TRACEMAP:-./tracemap}
RUNS=${RUNS:-3}
WORK=$(mktemp -d /tmp/tracemap-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

die() { echo "bench/convert.sh: $*" >&2; exit 1; }
[ -x "$TRACEMAP" ] || die "$TRACEMAP not built (make)"
[ -z "${BEFORE:-}" ] || [ -x "$BEFORE" ] || die "BEFORE=$BEFORE is not an executable"
[ $# -ge 1 ] || die "usage: bench/convert.sh FILE.dat..."

# shellcheck source=lib.sh
source bench/lib.sh

# run NAME CMD...: one timed run, "seconds rss_kb" appended to $WORK/NAME
run() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$WORK/time" "$@"
	cat "$WORK/time" >>"$WORK/$name"
}

printf '%-16s %10s %-15s %9s %9s %11s %9s %10s\n' file events output median worst 'M events/s' bytes/ev 'RSS MB'
for f in "$@"; do
	[ -r "$f" ] || die "cannot read $f"
	rm -f "$WORK"/report "$WORK"/perfetto "$WORK"/perfetto.zst "$WORK"/json \
		"$WORK"/perfetto-before "$WORK"/json-before
	events=$("$TRACEMAP" report "$f" 2>/dev/null | grep -cv -e '^cpus=' -e 'EVENTS DROPPED\]$' || true)
	for ((i = 0; i < RUNS; i++)); do
		run report sh -c '"$0" report "$1" >"$2" 2>/dev/null' "$TRACEMAP" "$f" "$WORK/o.txt"
		run perfetto "$TRACEMAP" convert "$f" -o "$WORK/o.pftrace"
		run perfetto.zst "$TRACEMAP" convert "$f" -o "$WORK/o.pftrace.zst"
		run json "$TRACEMAP" convert "$f" -o "$WORK/o.json"
		[ -z "${BEFORE:-}" ] || {
			run perfetto-before "$BEFORE" convert "$f" -o "$WORK/b.pftrace"
			run json-before "$BEFORE" convert "$f" -o "$WORK/b.json"
		}
	done
	awk -v f="$(basename "$f")" -v n="$events" -v size="$(stat -c %s "$f")" 'BEGIN {
		printf "%-16s %10d %-15s %9s %9s %11s %9.1f %10s\n", f, n, "(trace.dat)", "-", "-",
			"-", n ? size / n : 0, "-"
	}'
	for name in report perfetto perfetto.zst json ${BEFORE:+perfetto-before json-before}; do
		case $name in
		report) size=$(stat -c %s "$WORK/o.txt") ;;
		perfetto) size=$(stat -c %s "$WORK/o.pftrace") ;;
		perfetto.zst) size=$(stat -c %s "$WORK/o.pftrace.zst") ;;
		json) size=$(stat -c %s "$WORK/o.json") ;;
		perfetto-before) size=$(stat -c %s "$WORK/b.pftrace") ;;
		json-before) size=$(stat -c %s "$WORK/b.json") ;;
		esac
		med=$(cut -d' ' -f1 "$WORK/$name" | median)
		worst=$(cut -d' ' -f1 "$WORK/$name" | sort -n | tail -n 1)
		rss=$(cut -d' ' -f2 "$WORK/$name" | sort -n | tail -n 1)
		awk -v f="$(basename "$f")" -v n="$events" -v name="$name" -v med="$med" \
			-v worst="$worst" -v size="$size" -v rss="$rss" 'BEGIN {
			printf "%-16s %10d %-15s %8.2fs %8.2fs %11.2f %9.1f %10.1f\n", f, n, name,
				med, worst, (med > 0 ? n / med / 1e6 : 0), (n ? size / n : 0), rss / 1024
		}'
	done
done
