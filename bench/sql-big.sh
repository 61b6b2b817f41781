#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sql-big.sh - peak RSS of `tracemap sql` on a trace.dat of SIZE GB (default 5): a
# one-off query of one event table, a GROUP BY over the generic table of every event,
# and -o (every table into a kept database), RUNS rounds, interleaved; wall time and
# peak RSS (/usr/bin/time %M) of each, median and worst. No kernel: the big file is a
# recording (bench/record-mixed.sh's mixed.dat) converted to an uncompressed version 6
# file by trace-cmd and its CPU data repeated, each copy 10 s later, by
# tests/repeat-pages.pl until it is SIZE GB. The big file and every database are
# deleted at the end (-o's database is about 3x the trace: room for both is needed,
# one -o at a time).
#
#   bench/sql-big.sh SRC.dat [SIZE_GB]       (SIZE_GB may be a fraction: 0.1)
#   RUNS=3 bench/sql-big.sh /tmp/b/mixed.dat 5
set -euo pipefail

cd "$(dirname "$0")/.."
TRACEMAP=${TRACEMAP:-./tracemap}
RUNS=${RUNS:-3}
SRC=${1:?usage: bench/sql-big.sh SRC.dat [SIZE_GB]}
SIZE=${2:-5}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tracemap-big.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

die() { echo "bench/sql-big.sh: $*" >&2; exit 1; }
[ -x "$TRACEMAP" ] || die "$TRACEMAP not built (make)"
command -v trace-cmd >/dev/null || die "no trace-cmd (it converts SRC to version 6)"

trace-cmd convert -i "$SRC" -o "$WORK/v6.dat" --file-version 6 --compression none \
	>/dev/null 2>&1 || die "trace-cmd convert $SRC failed"
one=$(stat -c %s "$WORK/v6.dat")
copies=$(awk -v s="$SIZE" -v o="$one" 'BEGIN { c = int((s * 1073741824 + o - 1) / o); print c < 1 ? 1 : c }')
perl tests/repeat-pages.pl "$WORK/v6.dat" "$copies" "$WORK/big.dat"
rm -f "$WORK/v6.dat"
echo "$WORK/big.dat: $(stat -c %s "$WORK/big.dat") bytes, $copies copies of $SRC's data"

# shellcheck source=lib.sh
source bench/lib.sh

# run NAME CMD...: one timed run, "seconds rss_kb" appended to $WORK/r.NAME
run() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$WORK/time" "$@" >/dev/null
	cat "$WORK/time" >>"$WORK/r.$name"
}

for ((i = 0; i < RUNS; i++)); do
	run one "$TRACEMAP" sql -q "$WORK/big.dat" 'SELECT count(*) FROM sched_switch'
	run all "$TRACEMAP" sql -q "$WORK/big.dat" 'SELECT name, count(*) FROM events GROUP BY name'
	run load "$TRACEMAP" sql -q "$WORK/big.dat" -o "$WORK/t.sqlite" 'SELECT 1'
	ls -l "$WORK/t.sqlite" | awk '{ printf "round %d: database of -o: %d MB\n", '"$i"', $5 / 1048576 }'
	rm -f "$WORK/t.sqlite"
done
printf '%-24s %9s %9s %12s %12s\n' query median worst 'RSS MB med' 'RSS MB max'
for q in one all load; do
	case $q in
	one)  what="sched_switch count" ;;
	all)  what="events GROUP BY name" ;;
	load) what="-o (every table)" ;;
	esac
	printf '%-24s %8.1fs %8.1fs %12.1f %12.1f\n' "$what" \
		"$(cut -d' ' -f1 "$WORK/r.$q" | median)" "$(cut -d' ' -f1 "$WORK/r.$q" | sort -n | tail -1)" \
		"$(cut -d' ' -f2 "$WORK/r.$q" | median | awk '{ print $1 / 1024 }')" \
		"$(cut -d' ' -f2 "$WORK/r.$q" | sort -n | tail -1 | awk '{ print $1 / 1024 }')"
done
echo "medians and worst of $RUNS interleaved runs"
