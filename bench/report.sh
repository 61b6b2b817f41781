#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# report.sh - `tracemap report` against `trace-cmd report`: median wall time of
# RUNS interleaved runs each, events/s, peak RSS, the speed-up, and a
# byte-for-byte check that both print the same, per file and per mode (text,
# -N, -t; --json against trace-cmd's text). Run by hand (root when it records).
#
#   bench/report.sh                   the files of bench/record-mixed.sh in bench/out
#                                     (sched-pipe, mixed, small), recorded first if missing
#   bench/report.sh FILE.dat...       compare on existing files
#   RUNS=5 TRACEMAP=./tracemap MODES="text -N -t --json" bench/report.sh
#   BEFORE=/path/to/old/tracemap bench/report.sh FILE.dat   also time an older build
# Identity is checked against the installed trace-cmd 3.1.6 through --compat=3.1
# (and -N / -t with it); the times are of tracemap's default text (trace-cmd 3.4's).
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=${TRACEMAP:-./tracemap}
RUNS=${RUNS:-5}
MODES=${MODES:-text -N -t --json}
WORK=$(mktemp -d /tmp/tracemap-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

die() { echo "bench/report.sh: $*" >&2; exit 1; }
command -v trace-cmd >/dev/null || die "trace-cmd is not installed (make deps)"
[ -x "$TRACEMAP" ] || die "$TRACEMAP not built (make)"

FILES=("$@")
if [ ${#FILES[@]} = 0 ]; then
	FILES=(bench/out/sched-pipe.dat bench/out/mixed.dat bench/out/small.dat)
	[ -r "${FILES[0]}" ] || bench/record-mixed.sh bench/out
fi

# Median of the numbers on stdin.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Options of a mode for tracemap and trace-cmd ("text" is none; --json has no trace-cmd twin).
tm_opts() { [ "$1" = text ] || echo "$1"; }
tc_opts() { case $1 in text|--json) ;; *) echo "$1" ;; esac; }

# identical|DIFFERENT: --compat=3.1 against trace-cmd 3.1.6 (--json: skipped).
same_output() {
	local file=$1 mode=$2
	[ "$mode" = --json ] && { echo "n/a"; return; }
	# shellcheck disable=SC2046
	"$TRACEMAP" report --compat=3.1 $(tm_opts "$mode") -i "$file" > "$WORK/tm.txt"
	# shellcheck disable=SC2046
	trace-cmd report $(tc_opts "$mode") -i "$file" > "$WORK/tc.txt" 2>/dev/null
	if cmp -s "$WORK/tm.txt" "$WORK/tc.txt"; then echo identical; else echo DIFFERENT; fi
}

# Time the labelled commands RUNS rounds, interleaved; print "label median_s peak_kb".
measure() {
	local i c t0 t1
	rm -f "$WORK"/t.*
	for ((i = 0; i < RUNS; i++)); do
		for ((c = 0; c < ${#CMDS[@]}; c++)); do
			t0=$(date +%s%N)
			# shellcheck disable=SC2086
			/usr/bin/time -f '%M' -o "$WORK/time" ${CMDS[c]#*|} > /dev/null 2>&1
			t1=$(date +%s%N)
			echo "$(( (t1 - t0) / 1000 )) $(cat "$WORK/time")" |
				awk '{ printf "%.4f %d\n", $1 / 1e6, $2 }' >> "$WORK/t.$c"
		done
	done
	for ((c = 0; c < ${#CMDS[@]}; c++)); do
		echo "${CMDS[c]%%|*} $(cut -d' ' -f1 "$WORK/t.$c" | median)" \
		     "$(cut -d' ' -f2 "$WORK/t.$c" | sort -n | tail -n 1)"
	done
}

status=0
printf '%-26s %-7s %10s %18s %18s %8s %17s %s\n' file mode events "tracemap s (M/s)" \
	"trace-cmd s (M/s)" speed-up "RSS MB tm / tc" output
for file in "${FILES[@]}"; do
	[ -r "$file" ] || die "cannot read $file"
	events=$("$TRACEMAP" report -i "$file" | grep -cv -e '^cpus=' -e 'EVENTS DROPPED\]$' || true)
	for mode in $MODES; do
		same=$(same_output "$file" "$mode")
		[ "$same" = DIFFERENT ] && status=1
		CMDS=("tm|$TRACEMAP report $(tm_opts "$mode") -i $file"
		      "tc|trace-cmd report $(tc_opts "$mode") -i $file")
		[ -n "${BEFORE:-}" ] && CMDS+=("before|$BEFORE report $(tm_opts "$mode") -i $file")
		measure > "$WORK/results"
		awk -v f="$(basename "$file")" -v m="$mode" -v n="$events" -v same="$same" '
			{ s[$1] = $2; rss[$1] = $3 }
			END {
				printf "%-26s %-7s %10d %8.4f (%7.2f) %8.4f (%7.2f) %7.2fx %7.1f / %7.1f %s\n",
				       f, m, n, s["tm"], n / s["tm"] / 1e6, s["tc"], n / s["tc"] / 1e6,
				       s["tc"] / s["tm"], rss["tm"] / 1024, rss["tc"] / 1024, same
				if ("before" in s)
					printf "%-26s %-7s %10s %8.4f (%7.2f)  before\n", "", "", "",
					       s["before"], n / s["before"] / 1e6
			}' "$WORK/results"
	done
done
echo "($RUNS interleaved runs each; output: --compat=3.1 against trace-cmd $(trace-cmd -h 2>&1 | sed -n 's/^trace-cmd version \([^ ]*\).*/\1/p'))"
exit $status
