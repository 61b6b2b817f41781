#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# record-mixed.sh - record the benchmark files of bench/report.sh that mix
# event systems (issue 15): sched, irq, timer, raw_syscalls and workqueue
# events under a busy load, plus a small file for start-up. Run by hand, as
# root, under the kernel lock:
#
#   tm-kernel-lock bench/record-mixed.sh [OUTDIR]      (default bench/out)
#
# Writes OUTDIR/mixed.dat (SECONDS_REC seconds, default 4, of the load below),
# OUTDIR/mixed-fork.dat (the same events around a fork loop with short
# sleeps: fewer syscalls, more timers),
# OUTDIR/sched-pipe.dat (sched only, a pipe ping-pong) and OUTDIR/small.dat
# (about 1,000 events with the full kallsyms). bench/out/ is not in git.
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=${TRACEMAP:-./tracemap}
SECONDS_REC=${SECONDS_REC:-4}
OUT=${1:-bench/out}
MIXED=(-e sched -e irq -e timer -e raw_syscalls -e workqueue)

die() { echo "bench/record-mixed.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (it records)"
[ -x "$TRACEMAP" ] || die "$TRACEMAP not built (make)"
command -v perf >/dev/null || die "perf is needed for the load (make deps)"
mkdir -p "$OUT"

# Busy: hackbench-style messaging (sched, syscalls), a pipe ping-pong, and
# small writes synced to disk (block and writeback work items, timer and
# disk interrupts), all bounded by SECONDS_REC.
busy() {
	local s=$1 dir
	dir=$(mktemp -d /tmp/tm-mixed.XXXXXX)
	timeout "$s" perf bench sched messaging -g 4 -l 100000 >/dev/null 2>&1 &
	timeout "$s" perf bench sched pipe -l 100000000 >/dev/null 2>&1 &
	timeout "$s" bash -c "while :; do dd if=/dev/zero of=$dir/f bs=64k count=16 \
		conv=fsync status=none; sleep 0.01; done" &
	wait
	rm -rf "$dir"
}

# record FILE SECONDS EVENT-OPTIONS... -- LOAD...
record() {
	local file=$1 s=$2
	shift 2
	echo "recording $file ..."
	timeout -s KILL $((s + 60)) "$TRACEMAP" record -q -b 100000 -o "$file" "$@"
}

record "$OUT/mixed.dat" "$SECONDS_REC" "${MIXED[@]}" -- \
	bash -c "$(declare -f busy); busy $SECONDS_REC"
record "$OUT/mixed-fork.dat" "$SECONDS_REC" "${MIXED[@]}" -- \
	timeout "$SECONDS_REC" bash -c 'while :; do /bin/true; sleep 0.001; done'
record "$OUT/sched-pipe.dat" "$SECONDS_REC" -e sched -- \
	bash -c "timeout $SECONDS_REC perf bench sched pipe -l 100000000 >/dev/null"
# A thousand-odd events: the scheduler events of a few short sleeps.
record "$OUT/small.dat" 1 -e sched:sched_switch -e sched:sched_wakeup -- \
	bash -c "for i in \$(seq 16); do sleep 0.02; done"
for f in mixed mixed-fork sched-pipe small; do
	printf '%-12s %10s bytes %9s events\n' "$f" "$(stat -c %s "$OUT/$f.dat")" \
		"$("$TRACEMAP" report -i "$OUT/$f.dat" | grep -cv '^cpus=')"
done
