#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# progress.sh - what the progress line costs: report > file, convert to Perfetto and to
# Chrome JSON of one big file, timed for an older build (BEFORE, no progress line) and
# this one with the line off (-q) and on, every run on a pseudo-terminal (script(1))
# so that only the line differs. RUNS interleaved rounds; the median and the worst
# run of each, in wall time and in CPU time (user + system). No kernel: the file is made from a fixture (tests/repeat-pages.pl).
#
#   BEFORE=/path/to/old/tracemap bench/progress.sh [FILE.dat]
#   RUNS=7 COPIES=895 TRACEMAP=./tracemap BEFORE=... bench/progress.sh
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=${TRACEMAP:-./tracemap}
BEFORE=${BEFORE:?BEFORE=an older tracemap binary to compare with}
RUNS=${RUNS:-5}
COPIES=${COPIES:-895}	# x 821 events = 734,795, the size of the holdout file
FIXTURES=${TM_FIXTURES:-tests/fixtures}
WORK=$(mktemp -d /tmp/tracemap-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

FILE=${1:-}
if [ -z "$FILE" ]; then
	FILE=$WORK/big.dat
	perl tests/repeat-pages.pl "$FIXTURES/sched-v6.dat" "$COPIES" "$FILE"
fi

# one timed run: label binary args...; appends "label wall_s cpu_s" to $WORK/times
# (cpu: user + system of the command and its children, less sensitive to a busy machine)
run() {
	local label=$1 bin=$2 t0 t1
	shift 2
	t0=$(date +%s.%N)
	script -qfec "/usr/bin/time -f '%U %S' -o '$WORK/cpu' $(printf '%q ' "$bin" "$@")" \
		/dev/null </dev/null >/dev/null
	t1=$(date +%s.%N)
	echo "$label $(echo "$t1 - $t0" | bc) $(awk '{ print $1 + $2 }' "$WORK/cpu")" \
		>>"$WORK/times"
}

# report writes its events to stdout: a file, so that the line is on
report() {
	local bin=$1
	shift
	bash -c '"$0" report "$@" >"$TM_OUT"' "$bin" "$@"
}
export TM_OUT=$WORK/o.txt

for ((i = 0; i < RUNS; i++)); do
	run "report before" bash -c "$(declare -f report); report '$BEFORE' '$FILE'"
	run "report off" bash -c "$(declare -f report); report '$TRACEMAP' -q '$FILE'"
	run "report on" bash -c "$(declare -f report); report '$TRACEMAP' '$FILE'"
	for to in pftrace json; do
		run "$to before" "$BEFORE" convert "$FILE" -o "$WORK/o.$to"
		run "$to off" "$TRACEMAP" convert -q "$FILE" -o "$WORK/o.$to"
		run "$to on" "$TRACEMAP" convert "$FILE" -o "$WORK/o.$to"
	done
done

events=$("$TRACEMAP" report "$FILE" | grep -vc '^cpus=')
echo "$(basename "$FILE"): $events events, $RUNS interleaved runs, seconds"
printf '%-9s %-7s %12s %12s %12s %12s\n' command line 'wall median' 'wall worst' \
	'cpu median' 'cpu worst'
stats() {
	sort -n | awk '{ v[NR] = $1 }
		END { printf " %12.3f %12.3f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[NR] }'
}
for cmd in report pftrace json; do
	for mode in before off on; do
		printf '%-9s %-7s' "$cmd" "$mode"
		grep "^$cmd $mode " "$WORK/times" | cut -d' ' -f3 | stats
		grep "^$cmd $mode " "$WORK/times" | cut -d' ' -f4 | stats
		echo
	done
done
