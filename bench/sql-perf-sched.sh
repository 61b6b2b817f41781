#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sql-perf-sched.sh - `tracemap sql --top latency` beside `perf sched latency -p` on one
# workload recorded by both at the same time (perf sched record around tracemap record):
# TASKS short-lived tasks (a copy of sleep named tmlatsleep, forked by a copy of bash
# named tmlatsh), each sleeping 10 ms. Prints, per task, both tools' maximum delay
# (ms) and switches, then how many maximum delays agree within 0.02 ms. Root, under the
# kernel lock; tracemap records in its own instance, perf through perf events.
#
#   flock /tmp/tm-kernel.lock bench/sql-perf-sched.sh
#   TASKS=30 TRACEMAP=./tracemap bench/sql-perf-sched.sh
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=$PWD/${TRACEMAP:-tracemap}
TASKS=${TASKS:-30}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tracemap-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

die() { echo "bench/sql-perf-sched.sh: $*" >&2; exit 1; }
[ -x "$TRACEMAP" ] || die "$TRACEMAP not built (make)"
command -v perf >/dev/null || die "no perf (apt-get install linux-perf)"

cd "$WORK"
cp /bin/sleep tmlatsleep
cp /bin/bash tmlatsh
timeout -s KILL 60 perf sched record -o perf.data -- sleep $((TASKS / 10 + 5)) 2>perf.err &
perf_pid=$!
sleep 1.5	# perf records before tracemap starts and after it ends
timeout -s KILL 60 "$TRACEMAP" record -q -e sched:sched_switch -e sched:sched_wakeup \
	-e sched:sched_wakeup_new -o tm.dat -- \
	./tmlatsh -c "for i in \$(seq $TASKS); do ./tmlatsleep 0.01; done"
wait "$perf_pid" || die "perf sched record failed: $(tail -n 1 perf.err)"
perf sched latency -p -i perf.data 2>/dev/null >perf.txt
# task max_delay_ms switches, from each tool
awk -F'|' '/tmlat/ { gsub(/ /, "", $1); split($5, m, " "); gsub(/ /, "", $3)
	print $1, m[2], $3 }' perf.txt | sort >perf.rows
"$TRACEMAP" sql tm.dat --top latency --format csv |
	awk -F, '/tmlat/ { print $1, $5, $3 }' | sort >tm.rows
echo "task perf_max_ms tracemap_max_ms perf_switches tracemap_switches"
join perf.rows tm.rows | awk '{ print $1, $2, $4, $3, $5 }'
join perf.rows tm.rows | awk '{ d = $2 - $4; if (d < 0) d = -d; if (d <= 0.02) eq++; n++ }
	END { printf "%d of %d maximum delays agree within 0.02 ms\n", eq, n }'
grep -h 'context switch bugs' perf.txt || true
