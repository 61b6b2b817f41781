#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# record-mixed.sh - record the benchmark files of bench/report.sh (run as root).
#
#   bench/record-mixed.sh DIR [SECONDS]
#
# writes into DIR:
#   sched-pipe.dat  -e sched while `perf bench sched pipe` passes a token between
#                   two tasks (scheduler-heavy: what the compiled formats were made for)
#   mixed.dat       -e sched -e irq -e timer -e raw_syscalls -e workqueue while both
#                   CPUs run a pipe ping-pong, a fork loop, a byte-wise dd and timers
#   mixed-fork.dat  -e sched -e irq -e timer while a fork loop runs (timer/hrtimer
#                   heavy, the mix of round one's 1.7x file)
#   small.dat       -e sched -e timer, 1.3 s of a sleeping shell: ~1,000 events and
#                   the full kallsyms, for start-up
# Each recording has its own 200 MiB-per-CPU buffer so that nothing is lost.
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=${TRACEMAP:-./tracemap}
DIR=${1:?usage: bench/record-mixed.sh DIR [SECONDS]}
SECS=${2:-4}
[ -x "$TRACEMAP" ] || { echo "bench/record-mixed.sh: $TRACEMAP not built (make)" >&2; exit 1; }
mkdir -p "$DIR"

# The loads, as shell functions handed to `bash -c`.
pipe_load() { perf bench sched pipe -l 100000000 >/dev/null 2>&1; }
fork_load() { while :; do /bin/true; done; }
dd_load() { dd if=/dev/zero of=/dev/null bs=1 count=100000000 2>/dev/null; }
timer_load() { while :; do sleep 0.001; done; }
mixed_load() {
	pipe_load & fork_load & dd_load & timer_load &
	wait
}

# record NAME SECONDS EVENT-ARGS LOAD-FUNCTION
record() {
	local name=$1 secs=$2 events=$3 load=$4
	echo "recording $DIR/$name.dat (${secs}s: $events under $load) ..."
	# shellcheck disable=SC2086
	# timeout(1) runs the load in its own process group and stops all of it.
	timeout -s KILL $((${secs%.*} + 60)) "$TRACEMAP" record -q $events -b 200000 \
		-o "$DIR/$name.dat" -- timeout "$secs" \
		bash -c "$(declare -f pipe_load fork_load dd_load timer_load mixed_load); $load" || true
	[ -s "$DIR/$name.dat" ] || { echo "bench/record-mixed.sh: no $DIR/$name.dat" >&2; exit 1; }
}

command -v perf >/dev/null || pipe_load() { fork_load; }
record sched-pipe "$SECS" "-e sched" pipe_load
record mixed "$SECS" "-e sched -e irq -e timer -e raw_syscalls -e workqueue" mixed_load
record mixed-fork "$SECS" "-e sched -e irq -e timer" fork_load
record small 3 "-e sched -e timer" "sleep 1.3"
ls -l "$DIR"/*.dat
