#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench/stream.sh - events/s that `tracemap stream` prints to /dev/null under
# `perf bench sched messaging` with sched events, against `cat trace_pipe >
# /dev/null` (the kernel's own text path) in a scratch instance on the same
# load, with the events each one lost. Run by hand, as root, on an idle
# machine:   bash bench/stream.sh [GROUPS] [LOOPS] [BUFFER_KB]
set -u
cd "$(dirname "$0")/.."
GROUPS_=${1:-10}
LOOPS=${2:-2000}
BUF=${3:-4096}
TRACEFS=/sys/kernel/tracing
TRACEMAP=${TRACEMAP:-./tracemap}
INST=tmhelper-bench-$$

[ "$(id -u)" = 0 ] || { echo "bench/stream.sh: run as root" >&2; exit 1; }
command -v perf >/dev/null || { echo "bench/stream.sh: perf is missing" >&2; exit 1; }
[ -x "$TRACEMAP" ] || make -s tracemap

now() { date +%s.%N; }

load() { perf bench sched messaging -g "$GROUPS_" -l "$LOOPS" >/dev/null 2>&1; }

# tracemap stream: events and loss from its own summary (kernel stats included).
bench_stream() {
	local err t0 t1 ev lost
	err=$(mktemp)
	"$TRACEMAP" stream -b "$BUF" -e sched >/dev/null 2>"$err" &
	local pid=$!
	sleep 1
	t0=$(now)
	load
	t1=$(now)
	kill -INT "$pid"
	wait "$pid"
	ev=$(awk '$1 ~ /^[0-9]+$/ && NF == 5 { s += $2 } END { print s + 0 }' "$err")
	lost=$(awk '$1 ~ /^[0-9]+$/ && NF == 5 { s += $5 } END { print s + 0 }' "$err")
	printf 'tracemap stream    %10d events %8.2f s %12.0f events/s  lost %d\n' \
		"$ev" "$(echo "$t1 - $t0" | bc)" "$(echo "$ev / ($t1 - $t0)" | bc -l)" "$lost"
	rm -f "$err"
}

# cat trace_pipe in a scratch instance: lines read, loss from per_cpu stats.
bench_trace_pipe() {
	local d=$TRACEFS/instances/$INST cnt t0 t1 lines lost=0 f
	mkdir "$d" || return 1
	trap 'echo 0 > "$d/tracing_on"; rmdir "$d"' RETURN
	echo "$BUF" >"$d/buffer_size_kb"
	echo 1 >"$d/events/sched/enable"
	cnt=$(mktemp)
	(cat "$d/trace_pipe" | wc -l >"$cnt") &
	local reader=$!
	sleep 1
	t0=$(now)
	load
	t1=$(now)
	sleep 0.5
	echo 0 >"$d/tracing_on"
	sleep 0.5
	kill "$(pgrep -P "$reader" -x cat)" 2>/dev/null
	wait "$reader" 2>/dev/null
	lines=$(cat "$cnt")
	for f in "$d"/per_cpu/cpu*/stats; do
		lost=$((lost + $(awk '/^overrun:/ { print $2 }' "$f")))
	done
	printf 'cat trace_pipe     %10d events %8.2f s %12.0f events/s  lost %d\n' \
		"$lines" "$(echo "$t1 - $t0" | bc)" "$(echo "$lines / ($t1 - $t0)" | bc -l)" "$lost"
	rm -f "$cnt"
	echo 1 >"$d/tracing_on"
	echo 0 >"$d/events/sched/enable"
}

echo "perf bench sched messaging -g $GROUPS_ -l $LOOPS, sched events, ${BUF} KiB per CPU"
bench_stream
bench_trace_pipe
