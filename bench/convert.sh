#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# convert.sh - `tracemap convert` to Perfetto and to Chrome JSON on one large trace.dat,
# beside `tracemap report` on the same file in the same run: median wall time of RUNS
# runs, events/s, peak RSS, output sizes. Run by hand (root, under tm-kernel-lock, when
# it has to record the file).
#
#   bench/convert.sh                record a sched trace of a pipe ping-pong, then measure
#   bench/convert.sh FILE.dat       measure an existing file
#   RUNS=5 SECONDS_REC=8 TRACEMAP=./tracemap bench/convert.sh
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=${TRACEMAP:-./tracemap}
RUNS=${RUNS:-5}
SECONDS_REC=${SECONDS_REC:-8}
WORK=$(mktemp -d /tmp/tracemap-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

die() { echo "bench/convert.sh: $*" >&2; exit 1; }
[ -x "$TRACEMAP" ] || die "$TRACEMAP not built (make)"

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

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The three commands interleaved, RUNS rounds; "name median_s peak_rss_kb" lines.
measure_all() {
	local i name
	declare -A t r
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -f '%e %M' -o "$WORK/time" "$TRACEMAP" report -i "$FILE" >/dev/null
		t[report]+="$(cut -d' ' -f1 "$WORK/time") "; r[report]+="$(cut -d' ' -f2 "$WORK/time") "
		/usr/bin/time -f '%e %M' -o "$WORK/time" "$TRACEMAP" convert "$FILE" -o "$WORK/o.pftrace"
		t[perfetto]+="$(cut -d' ' -f1 "$WORK/time") "; r[perfetto]+="$(cut -d' ' -f2 "$WORK/time") "
		/usr/bin/time -f '%e %M' -o "$WORK/time" "$TRACEMAP" convert "$FILE" -o "$WORK/o.json"
		t[json]+="$(cut -d' ' -f1 "$WORK/time") "; r[json]+="$(cut -d' ' -f2 "$WORK/time") "
	done
	for name in report perfetto json; do
		# shellcheck disable=SC2086 # the lists are space-separated numbers: split them
		echo "$name $(printf '%s\n' ${t[$name]} | median) $(printf '%s\n' ${r[$name]} | sort -n | tail -n 1)"
	done
}

events=$("$TRACEMAP" report -i "$FILE" | grep -cv -e '^cpus=' -e 'EVENTS DROPPED\]$' || true)
measure_all >"$WORK/res"
printf 'file: %s (%.1f MB, %d events), %d interleaved runs, median wall time\n' \
	"$FILE" "$(stat -c %s "$FILE" | awk '{print $1 / 1e6}')" "$events" "$RUNS"
while read -r name s rss; do
	case $name in
	perfetto) size=$(stat -c %s "$WORK/o.pftrace") ;;
	json) size=$(stat -c %s "$WORK/o.json") ;;
	*) size=0 ;;
	esac
	awk -v name="$name" -v s="$s" -v rss="$rss" -v n="$events" -v size="$size" 'BEGIN {
		printf "%-10s %7.3f s %6.2f M events/s  peak RSS %6.1f MB", name, s, n / s / 1e6, rss / 1024
		if (size) printf "  output %.1f MB", size / 1e6
		printf "\n"
	}'
done <"$WORK/res"
