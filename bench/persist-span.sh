#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench/persist-span.sh - how many seconds of a busy load a persistent ring buffer
# holds, as root, under the kernel lock:
#   flock /tmp/tm-kernel.lock bash bench/persist-span.sh KIB_PER_CPU SECONDS
# A plain instance of the same per-CPU size stands in for the boot-mapped one
# (reserve_mem=SIZE splits SIZE across the CPUs; 16M on 2 CPUs: 8192 KiB each).
# Load: sched, irq and timer events on, a loop of /bin/true on each CPU for
# SECONDS; then extract, and per CPU the span between its first and last event.
set -eu
cd "$(dirname "$0")/.." || exit 1
[ $# -eq 2 ] || { echo "usage: bench/persist-span.sh KIB_PER_CPU SECONDS" >&2; exit 2; }
I=/sys/kernel/tracing/instances/tm-persist-span-$$
OUT=bench/out
mkdir -p "$OUT"
mkdir "$I"
trap 'echo 0 >"$I/tracing_on"; rmdir "$I"' EXIT
echo 0 >"$I/tracing_on"
echo "$1" >"$I/buffer_size_kb"
for s in sched irq timer; do echo 1 >"$I/events/$s/enable"; done
echo 1 >"$I/tracing_on"
end=$((SECONDS + $2))
for c in 0 1; do
	(taskset -pc "$c" "$BASHPID" >/dev/null
	 while [ "$SECONDS" -lt "$end" ]; do /bin/true; done) &
done
wait
echo 0 >"$I/tracing_on"
for s in sched irq timer; do echo 0 >"$I/events/$s/enable"; done
timeout -s KILL 60 ./tracemap extract -q -B "$(basename "$I")" -o "$OUT/persist-$1.dat"
./tracemap report "$OUT/persist-$1.dat" >"$OUT/persist-$1.txt"
for c in 0 1; do
	awk -v c="[00$c]" '{ for (i = 1; i <= NF; i++) if ($i == c) { t = $(i + 2); sub(":", "", t)
		if (!f) f = t; l = t; n++; break } }
		END { printf "%s KiB/CPU cpu%s: %d events over %.2f s\n", KB, c, n, l - f }' \
		KB="$1" "$OUT/persist-$1.txt"
done
