#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# report.sh - `tracemap report` against `trace-cmd report` on several trace.dat files,
# in each output mode (text, -N, -t, --json): median wall time of RUNS interleaved runs,
# events/s, peak RSS, and a byte-for-byte check that tracemap --compat=3.1 prints what
# the installed trace-cmd 3.1.6 prints. Run by hand (root when it has to record).
#
#   bench/report.sh                   record the files of bench/record-mixed.sh, compare
#   bench/report.sh A.dat B.dat ...   compare on existing files
#   RUNS=5 MODES="text -N" TRACEMAP=./tracemap bench/report.sh ...
#   BEFORE=/path/to/old/tracemap bench/report.sh ...   also time an older build
# trace-cmd has no JSON: --json is timed against trace-cmd's text.
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
if [ ${#FILES[@]} -eq 0 ]; then
	TRACEMAP=$TRACEMAP bench/record-mixed.sh "$WORK/files" "${SECONDS_REC:-4}"
	FILES=("$WORK"/files/{sched-pipe,mixed,mixed-fork,small}.dat)
fi

# Median of the numbers on stdin.
# shellcheck source=lib.sh
source bench/lib.sh

# The flags of MODE for tracemap and for trace-cmd.
tm_flags() { [ "$1" = text ] || echo "$1"; }
tc_flags() { case $1 in text|--json) ;; *) echo "$1" ;; esac; }

# same FILE MODE: does tracemap --compat=3.1 print what trace-cmd prints?
same() {
	local f=$1 m=$2
	[ "$m" = --json ] && { echo "-"; return; }
	# shellcheck disable=SC2046
	"$TRACEMAP" report --compat=3.1 $(tm_flags "$m") -i "$f" > "$WORK/tm.txt"
	# shellcheck disable=SC2046
	trace-cmd report $(tc_flags "$m") -i "$f" > "$WORK/tc.txt" 2>/dev/null
	if cmp -s "$WORK/tm.txt" "$WORK/tc.txt"; then echo identical; else echo DIFFERENT; fi
}

# time_one OUTFILE CMD...: append the seconds of one run to OUTFILE, from bash's
# microsecond clock (/usr/bin/time's %e counts in 10 ms, as long as a whole run of a
# small file). The command runs bare: a /usr/bin/time around it would add its own fork
# and exec, about 6 ms here, to both tools' times. The peak RSS comes from peak_kb.
time_one() {
	local out=$1 t0 t1
	shift
	t0=$EPOCHREALTIME
	"$@" > /dev/null 2>&1
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }' >> "$out"
}

# peak_kb CMD...: the peak RSS of one run, in KiB.
peak_kb() {
	/usr/bin/time -f '%M' -o "$WORK/time" "$@" > /dev/null 2>&1
	cat "$WORK/time"
}

printf '%-14s %9s %-6s %9s %9s %7s %9s %8s %8s %s\n' file events mode tracemap \
	trace-cmd ratio 'M ev/s' 'RSS MB' 'tc MB' '--compat=3.1'
[ -n "${BEFORE:-}" ] && echo "(before: the older build's time and ratio follow each line)"
status=0
for f in "${FILES[@]}"; do
	[ -r "$f" ] || die "cannot read $f"
	events=$("$TRACEMAP" report --compat=3.1 -i "$f" |
		 grep -cv -e '^cpus=' -e 'EVENTS DROPPED\]$' || true)
	for m in $MODES; do
		rm -f "$WORK"/t.*
		for ((i = 0; i < RUNS; i++)); do
			# shellcheck disable=SC2046
			time_one "$WORK/t.tm" "$TRACEMAP" report $(tm_flags "$m") -i "$f"
			# shellcheck disable=SC2046
			time_one "$WORK/t.tc" trace-cmd report $(tc_flags "$m") -i "$f"
			# shellcheck disable=SC2046
			[ -z "${BEFORE:-}" ] ||
				time_one "$WORK/t.before" "$BEFORE" report $(tm_flags "$m") -i "$f"
		done
		tm=$(median < "$WORK/t.tm")
		tc=$(median < "$WORK/t.tc")
		# shellcheck disable=SC2046
		tm_kb=$(peak_kb "$TRACEMAP" report $(tm_flags "$m") -i "$f")
		# shellcheck disable=SC2046
		tc_kb=$(peak_kb trace-cmd report $(tc_flags "$m") -i "$f")
		s=$(same "$f" "$m")
		[ "$s" != DIFFERENT ] || status=1
		line=$(awk -v f="$(basename "$f" .dat)" -v n="$events" -v m="$m" -v tm="$tm" \
			   -v tc="$tc" -v a="$tm_kb" -v b="$tc_kb" -v s="$s" 'BEGIN {
			printf "%-14s %9d %-6s %8.3fs %8.3fs %6.1fx %9.2f %8.1f %8.1f %s",
			       f, n, m, tm, tc, tc / tm, n / tm / 1e6, a / 1024, b / 1024, s }')
		if [ -n "${BEFORE:-}" ]; then
			bf=$(median < "$WORK/t.before")
			line+=$(awk -v b="$bf" -v tc="$tc" 'BEGIN { printf "  before %.3fs %.1fx", b, tc / b }')
		fi
		echo "$line"
	done
done
echo "medians of $RUNS interleaved runs; ratio = trace-cmd's time / tracemap's"
exit $status
