#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench/flight.sh - the flight recorder by hand, as root, under tm-kernel-lock:
#   bash bench/flight.sh history [SIZE...]   seconds of history --flight SIZE holds on
#                                            the bench/run.sh loads, beside what the
#                                            kernel buffer alone holds (default 8M 16M 64M)
#   bash bench/flight.sh rss SIZE SECONDS    peak RSS of --flight SIZE over a saturating
#                                            run (the sys load in a loop), sampled
# Loads and buffers as in bench/run.sh (4 MiB ring buffer per CPU). Results go to
# stdout and bench/out/flight-*.
set -u
cd "$(dirname "$0")/.." || exit 1
TRACEFS=/sys/kernel/tracing
OUT=bench/out
TRACEMAP=${TRACEMAP:-./tracemap}
LOADS=${LOADS:-"msg pipe sys"}
mkdir -p "$OUT"

[ "$(id -u)" = 0 ] || { echo "bench/flight.sh: run as root" >&2; exit 1; }
for t in perf taskset; do
	command -v "$t" >/dev/null || { echo "bench/flight.sh: $t is missing" >&2; exit 1; }
done
[ -x "$TRACEMAP" ] || make -s tracemap

events_of() {
	case $1 in
	msg|pipe) echo "sched" ;;
	sys) echo "raw_syscalls" ;;
	esac
}

run_load() {
	case $1 in
	msg)  perf bench sched messaging -g 10 -l 2500 >/dev/null 2>&1 ;;
	pipe) perf bench sched pipe -l 1000000 >/dev/null 2>&1 ;;
	sys)  local a b
	      taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count=10000000 2>/dev/null &
	      a=$!
	      taskset -c 1 dd if=/dev/zero of=/dev/null bs=1 count=10000000 2>/dev/null &
	      b=$!
	      wait "$a" "$b" ;;
	esac
}

# Bytes of compressed data one run of a load writes (bench/run.sh's file_MB):
# enough runs that a window of SIZE fills at least twice over.
runs_for() {
	local load=$1 bytes=$2 per
	case $load in
	msg) per=$((8 << 20)) ;;
	pipe) per=$((28 << 20)) ;;
	sys) per=$((120 << 20)) ;;
	esac
	echo $(((2 * bytes + per - 1) / per))
}

size_bytes() {
	local s=$1 n=${1%[KMG]}
	case $s in
	*K) echo $((n << 10)) ;; *M) echo $((n << 20)) ;; *G) echo $((n << 30)) ;; *) echo "$n" ;;
	esac
}

# The time every CPU covers in the text of a file: from the latest
# first timestamp of the CPUs to the last one; "SECONDS EVENTS".
common_window() {
	"$TRACEMAP" report "$1" 2>/dev/null | awk '
		match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/) {
			f = substr($0, RSTART, RLENGTH); split(f, p, /[][ :]+/)
			if (!(p[2] in first)) first[p[2]] = p[3]
			last = p[3]; n++
		}
		END {
			s = 0
			for (c in first) if (first[c] > s) s = first[c]
			printf "%.3f %d\n", last - s, n
		}'
}

# Start `tracemap record ARGS` in the background, bounded; sets PID (tracemap itself).
start_recorder() {
	local log=$1
	shift
	timeout -s KILL 900 "$TRACEMAP" record "$@" 2>"$log" &
	BG=$!
	for ((i = 0; i < 200; i++)); do
		PID=$(pgrep -P "$BG") && grep -q . "/proc/$PID/cmdline" 2>/dev/null &&
			ls -d "$TRACEFS"/instances/tracemap-"$PID" >/dev/null 2>&1 && break
		sleep 0.05
	done
	sleep 0.5
}

stop_recorder() {
	kill -INT "$PID"
	wait "$BG"
}

# The kernel buffer alone (what perf --overwrite keeps): events on in an instance
# in overwrite mode that nobody reads, then its content extracted.
kernel_only() {
	local load=$1 inst=tmflight-$$ f=$OUT/flight-kernel-$1.dat win ev
	mkdir "$TRACEFS/instances/$inst" || return 1
	echo 4096 >"$TRACEFS/instances/$inst/buffer_size_kb"
	echo 1 >"$TRACEFS/instances/$inst/events/$(events_of "$load")/enable"
	run_load "$load"
	echo 0 >"$TRACEFS/instances/$inst/tracing_on"
	"$TRACEMAP" extract -q -B "$inst" -o "$f"
	rmdir "$TRACEFS/instances/$inst"
	read -r win ev < <(common_window "$f")
	printf '%-5s %-14s %s s, %s events (nobody reading, overwrite mode)\n' "$load" \
		"kernel 2x4MiB" "$win" "$ev"
}

# A window of SIZE filled at least twice over, where that takes at most 3 runs
# of the load; the dump's summary line has its time window and events.
history() {
	local sizes=("$@") load size f runs line
	printf '%-5s %-14s %s\n' load kept "window and events"
	for load in $LOADS; do
		kernel_only "$load"
		for size in "${sizes[@]}"; do
			f=$OUT/flight-$load-$size.dat
			runs=$(runs_for "$load" "$(size_bytes "$size")")
			((runs <= 3)) || continue
			rm -f "${f%.dat}".0*.dat
			start_recorder "$OUT/flight-$load-$size.err" --flight "$size" \
				-e "$(events_of "$load")" -b 4096 -o "$f"
			for ((r = 0; r < runs; r++)); do run_load "$load"; done
			stop_recorder
			line=$(grep "${f%.dat}.0001.dat: " "$OUT/flight-$load-$size.err")
			printf '%-5s %-14s %s (%s runs of the load)\n' "$load" "--flight $size" \
				"${line#*: }" "$runs"
			rm -f "${f%.dat}".0*.dat
		done
	done
}

# Peak RSS over a saturating run: VmHWM at the end (the final dump included, read
# by GNU time) and VmRSS sampled every 10 s.
rss() {
	local size=$1 secs=$2 f=$OUT/flight-rss.dat t0 max=0 v hwm
	rm -f "${f%.dat}".0*.dat
	timeout -s KILL $((secs + 120)) /usr/bin/time -f 'peak_rss_kb %M' -o "$OUT/flight-rss.time" \
		"$TRACEMAP" record --flight "$size" -e raw_syscalls -b 4096 -o "$f" \
		2>"$OUT/flight-rss.err" &
	BG=$!
	sleep 1
	PID=$(pgrep -P "$(pgrep -P "$BG")")	# timeout -> time -> tracemap
	[ -n "$PID" ] || { cat "$OUT/flight-rss.err" >&2; return 1; }
	t0=$SECONDS
	rm -f "$OUT/flight-rss.stop"
	(while [ ! -e "$OUT/flight-rss.stop" ]; do run_load sys; done) &
	local loadpid=$!
	: >"$OUT/flight-rss.samples"
	while ((SECONDS - t0 < secs)); do
		sleep 10
		v=$(awk '/^VmRSS:/ { print $2 }' "/proc/$PID/status")
		echo "$((SECONDS - t0)) $v" >>"$OUT/flight-rss.samples"
		((v > max)) && max=$v
	done
	kill -USR2 "$PID"	# a dump while recording, then the final one
	sleep 5
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$PID/status")
	sleep 5
	kill -INT "$PID"
	wait "$BG"
	touch "$OUT/flight-rss.stop"	# the load ends after its current run
	wait "$loadpid"
	echo "--flight $size for ${secs}s, sys load in a loop (both CPUs saturated)"
	echo "VmRSS sampled every 10 s: max $((max / 1024)) MB, VmHWM before the stop $((hwm / 1024)) MB"
	awk '{ printf "peak RSS (GNU time, dumps included): %d MB\n", $2 / 1024 }' \
		"$OUT/flight-rss.time"
	cat "$OUT/flight-rss.err"
}

case ${1:-} in
history) shift; [ $# -gt 0 ] || set -- 8M 16M 64M; history "$@" ;;
rss) rss "${2:?SIZE}" "${3:?SECONDS}" ;;
*) echo "usage: bash bench/flight.sh history [SIZE...] | rss SIZE SECONDS" >&2; exit 2 ;;
esac
