#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# report.sh - `tracemap report` against `trace-cmd report` on one large trace.dat:
# median wall time of RUNS runs each, events/s, peak RSS, and a byte-for-byte check
# that both print the same. Run by hand (root when it has to record the file).
#
#   bench/report.sh                 record a sched trace of a pipe ping-pong, then compare
#   bench/report.sh FILE.dat        compare on an existing file
#   RUNS=5 SECONDS_REC=10 TRACEMAP=./tracemap bench/report.sh
#   BEFORE=/path/to/old/tracemap bench/report.sh FILE.dat   also time an older build
# tracemap runs twice: its default text (trace-cmd 3.4's) and --compat=3.1, whose
# output must equal the installed trace-cmd 3.1.6's.
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

# The commands timed, interleaved run by run (the VM's speed drifts): label|command.
CMDS=("tracemap report|$TRACEMAP report -i $FILE"
      "tracemap --compat=3.1|$TRACEMAP report --compat=3.1 -i $FILE")
[ -n "${BEFORE:-}" ] && CMDS+=("before: tracemap report|$BEFORE report -i $FILE")
CMDS+=("trace-cmd report|trace-cmd report -i $FILE")

# RUNS rounds, each running every command once to /dev/null; then per command
# "label|median_s|peak_rss_kb".
measure() {
	local i c
	for ((i = 0; i < RUNS; i++)); do
		for ((c = 0; c < ${#CMDS[@]}; c++)); do
			# shellcheck disable=SC2086
			/usr/bin/time -f '%e %M' -o "$WORK/time" ${CMDS[c]#*|} > /dev/null 2>&1
			cat "$WORK/time" >> "$WORK/t.$c"
		done
	done
	for ((c = 0; c < ${#CMDS[@]}; c++)); do
		echo "${CMDS[c]%%|*}|$(cut -d' ' -f1 "$WORK/t.$c" | median)|$(cut -d' ' -f2 "$WORK/t.$c" | sort -n | tail -n 1)"
	done
}

# trace-cmd 3.1.6 is installed: --compat=3.1 (and a build from before it) must print its text.
"$TRACEMAP" report --compat=3.1 -i "$FILE" > "$WORK/tm.txt"
trace-cmd report -i "$FILE" > "$WORK/tc.txt" 2>/dev/null
if cmp -s "$WORK/tm.txt" "$WORK/tc.txt"; then same=identical; else same=DIFFERENT; fi
if [ -n "${BEFORE:-}" ]; then
	"$BEFORE" report -i "$FILE" | cmp -s - "$WORK/tc.txt" || same="$same (before: DIFFERENT)"
fi
events=$(grep -cv -e '^cpus=' -e 'EVENTS DROPPED\]$' "$WORK/tm.txt" || true)

measure > "$WORK/results"
printf 'file: %s (%.1f MB, %d events), %d runs each, interleaved, median wall time\n' \
	"$FILE" "$(stat -c %s "$FILE" | awk '{ print $1 / 1e6 }')" "$events" "$RUNS"
tc_s=$(awk -F'|' '$1 == "trace-cmd report" { print $2 }' "$WORK/results")
awk -F'|' -v n="$events" -v tcs="$tc_s" '{
	printf "%-24s %8.3f s %8.2f M events/s  peak RSS %6.1f MB  %5.2fx trace-cmd\n",
	       $1, $2, n / $2 / 1e6, $3 / 1024, tcs / $2
}' "$WORK/results"
echo "--compat=3.1 against trace-cmd report: $same"
[ "$same" = identical ]
