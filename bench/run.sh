#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench/run.sh - recorder overhead, loss, size and stop latency of tracemap
# (mmap and --no-mmap), trace-cmd and perf on three count-bounded loads, plus
# the two baselines (nothing traced; events on, nobody reading). Run by hand,
# as root, on an otherwise idle machine, under tm-kernel-lock:
#   bash bench/run.sh [REPS]          the reference run (default 3 repetitions)
#   bash bench/run.sh --quick         one repetition of smaller loads, no perf (~3 min)
#   bash bench/run.sh --table         the table of the last run again
#   --variant NAME='BIN [ARGS]'       (repeatable, before REPS or with --quick) adds
#                                     recorder NAME: `BIN record ARGS` with the usual
#                                     options, e.g. --variant s16='./tracemap --subbuf-size 16'
# LOADS="msg pipe sys" (default) picks loads; sys1 is sys with one dd only (on CPU 0),
# which leaves the recorder a CPU: the adaptive zstd level's demonstration load.
# Repetition N runs the recorders in RECORDERS' order rotated by N - 1.
# Prints one table (medians, min-max) and the same-repetition ratios to trace-cmd
# with the worst repetition beside the median, then each tracemap recorder's bytes
# against --no-mmap's in the same repetitions (issue 27: never more bytes nor loss);
# raw rows go to bench/out/results.tsv.
set -u
cd "$(dirname "$0")/.."
TRACEFS=/sys/kernel/tracing
OUT=bench/out
TRACEMAP=${TRACEMAP:-./tracemap}
QUICK=0 TABLE=0 REPS=3
declare -A VARIANT=()
VARIANTS=""
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 REPS=1 ;;
	--table) TABLE=1 ;;
	--variant) VARIANT[${2%%=*}]=${2#*=}; VARIANTS="$VARIANTS ${2%%=*}"; shift ;;
	--variant=*) v=${1#--variant=}; VARIANT[${v%%=*}]=${v#*=}; VARIANTS="$VARIANTS ${v%%=*}" ;;
	*) REPS=$1 ;;
	esac
	shift
done
if [ "$QUICK" = 1 ]; then
	# smaller loads (the table's ratios, not its absolute figures, compare with a full run)
	MSG_LOOPS=${MSG_LOOPS:-1000} PIPE_LOOPS=${PIPE_LOOPS:-400000} SYS_COUNT=${SYS_COUNT:-4000000}
	RECORDERS=${RECORDERS:-"none idle tracemap tracemap-nommap trace-cmd$VARIANTS"}
else
	MSG_LOOPS=${MSG_LOOPS:-2500} PIPE_LOOPS=${PIPE_LOOPS:-1000000} SYS_COUNT=${SYS_COUNT:-10000000}
	RECORDERS=${RECORDERS:-"none idle tracemap tracemap-nommap trace-cmd perf$VARIANTS"}
fi
LOADS=${LOADS:-"msg pipe sys"}
mkdir -p "$OUT"

[ "$(id -u)" = 0 ] || { echo "bench/run.sh: run as root" >&2; exit 1; }
for t in perf trace-cmd /usr/bin/time taskset; do
	command -v "$t" >/dev/null || { echo "bench/run.sh: $t is missing" >&2; exit 1; }
done
[ -x "$TRACEMAP" ] || make -s tracemap

events_of() {		# load -> tracepoint selection
	case $1 in
	msg|pipe) echo "sched" ;;
	sys|sys1) echo "raw_syscalls" ;;
	esac
}

run_load() {
	case $1 in
	msg)  perf bench sched messaging -g 10 -l "$MSG_LOOPS" >/dev/null 2>&1 ;;
	pipe) perf bench sched pipe -l "$PIPE_LOOPS" >/dev/null 2>&1 ;;
	sys)  local a b	# wait for the two dd only, never for the recorder
	      taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count="$SYS_COUNT" 2>/dev/null &
	      a=$!
	      taskset -c 1 dd if=/dev/zero of=/dev/null bs=1 count="$SYS_COUNT" 2>/dev/null &
	      b=$!
	      wait "$a" "$b" ;;
	sys1) taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count="$SYS_COUNT" 2>/dev/null ;;
	esac
}

recorder_cmd() {	# recorder events file -> argv
	local sys=$2 f=$3
	case $1 in
	tracemap)	  echo "$TRACEMAP record -q -e $sys -b 4096 -o $f" ;;
	tracemap-nommap)  echo "$TRACEMAP record -q --no-mmap -e $sys -b 4096 -o $f" ;;
	trace-cmd)	  echo "trace-cmd record -B tmbench-$$ -d -k -q -e $sys -b 4096 -o $f" ;;
	perf)		  echo "perf record -q -a -e $sys:* --exclude-perf -m 1024 -o $f" ;;
	*)		  local v=${VARIANT[$1]}	# BIN [ARGS]
			  echo "${v%% *} record -q -e $sys -b 4096 -o $f ${v#"${v%% *}"}" ;;
	esac
}

# Lost and recorded events from the per-CPU stats stored in a trace.dat.
dat_counts() {
	trace-cmd report --stat -i "$1" 2>/dev/null | awk '
		/^overrun:/ { lost += $2 } /^dropped events:/ { lost += $3 }
		/^read events:/ { read += $3 }
		END { printf "%d %d\n", read, lost }'
}

# perf stores no per-CPU loss totals (only LOST records): its loss is estimated in
# the table against the events the same load produced with nobody reading ("idle").
perf_counts() {
	perf report -i "$1" --stats 2>/dev/null | awk '
		/SAMPLE events:/ && !seen { seen = 1; ev = $3 }
		END { printf "%d -1\n", ev }'
}

wall_now() { date +%s.%N; }

# Kernel-only cost: events enabled in an instance nobody reads.
with_idle_instance() {
	local inst=$TRACEFS/instances/tmbench-idle-$$ sys=$1 load=$2
	mkdir "$inst" && echo 4096 > "$inst/buffer_size_kb" && echo 1 > "$inst/events/$sys/enable"
	local t0; t0=$(wall_now); run_load "$load"; local t1; t1=$(wall_now)
	echo 0 > "$inst/tracing_on"
	local ev; ev=$(awk '/^entries:/ { e += $2 } /^overrun:/ { e += $2 } END { print e + 0 }' \
		"$inst"/per_cpu/cpu*/stats)
	rmdir "$inst"
	echo "$(echo "$t1 - $t0" | bc) $ev"
}

one_run() {	# recorder load rep
	local rec=$1 load=$2 rep=$3 sys f tf pid rpid t0 t1 tstop texit
	sys=$(events_of "$load")
	f=$OUT/$rec-$load-$rep.dat
	rm -f "$f"
	case $rec in
	none)
		t0=$(wall_now); run_load "$load"; t1=$(wall_now)
		printf '%s\t%s\t%s\t0\t0\t0\t0\t0\t0\t%s\n' "$load" "$rec" "$rep" "$(echo "$t1 - $t0" | bc)" \
			>> "$OUT/results.tsv"
		return ;;
	idle)
		read -r wall ev < <(with_idle_instance "$sys" "$load")
		printf '%s\t%s\t%s\t0\t%s\t0\t0\t0\t0\t%s\n' "$load" "$rec" "$rep" "$ev" "$wall" \
			>> "$OUT/results.tsv"
		return ;;
	esac
	tf=$(mktemp)
	set -f		# "sched:*" is perf's glob, not the shell's
	# shellcheck disable=SC2046
	/usr/bin/time -f '%U %S %M' -o "$tf" timeout -s KILL 600 $(recorder_cmd "$rec" "$sys" "$f") \
		>/dev/null 2>"$OUT/$rec-$load-$rep.log" &
	pid=$!
	set +f
	sleep 2				# let the recorder set up its buffers
	t0=$(wall_now); run_load "$load"; t1=$(wall_now)
	sleep 0.5
	rpid=$(pgrep -P "$(pgrep -P $pid timeout || echo $pid)" | head -n1)
	[ -n "$rpid" ] || rpid=$(pgrep -P "$pid" | head -n1)
	tstop=$(wall_now)
	kill -INT "$rpid" 2>/dev/null
	wait "$pid"
	texit=$(wall_now)
	# GNU time prints a status line first when the recorder exits non-zero
	read -r u s rss < <(tail -n 1 "$tf")
	if [ "$rec" = trace-cmd ]; then
		# -k leaves the instance to us: its removal (events off, buffers freed) is
		# trace-cmd's work as much as tracemap's removal of its own is tracemap's
		local ru rs
		/usr/bin/time -f '%U %S' -o "$tf" rmdir "$TRACEFS/instances/tmbench-$$" 2>/dev/null
		read -r ru rs < <(tail -n 1 "$tf")
		u=$(echo "$u + ${ru:-0}" | bc) s=$(echo "$s + ${rs:-0}" | bc)
	fi
	rm -f "$tf"
	if [ "$rec" = perf ]; then read -r ev lost < <(perf_counts "$f")
	else read -r ev lost < <(dat_counts "$f"); fi
	local bytes; bytes=$(stat -c %s "$f" 2>/dev/null || echo 0)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$load" "$rec" "$rep" \
		"$(echo "$u + $s" | bc)" "$ev" "$lost" "$bytes" "$(echo "$texit - $tstop" | bc)" \
		"$rss" "$(echo "$t1 - $t0" | bc)" >> "$OUT/results.tsv"
	rm -f "$f"
}

# Table: medians with min-max over the repetitions.
print_table() {
awk -F'\t' -v loads="$LOADS" -v recs="$RECORDERS" '
BEGIN {
	nl = split(loads, L, " "); for (i = 1; i <= nl; i++) lrank[L[i]] = i
	nr = split(recs, R, " "); for (i = 1; i <= nr; i++) rrank[R[i]] = i
}
function med(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	k = $1 SUBSEP $2; n[k]++
	# rows in a fixed order: loads, then recorders as listed in RECORDERS (others
	# in the order they first appear: variants, or --table after another selection)
	if (!($1 in lrank)) lrank[$1] = ++nl
	if (!($2 in rrank)) rrank[$2] = ++nr
	order[k] = 100 * lrank[$1] + rrank[$2]
	for (c = 4; c <= 10; c++) v[k, c, n[k]] = $c
	# per repetition: ns and file bytes per recorded event
	v[k, 11, n[k]] = $5 > 0 ? $4 * 1e9 / $5 : -1
	v[k, 12, n[k]] = $5 > 0 ? $7 / $5 : -1
	rep_ns[$1, $2, $3] = v[k, 11, n[k]]; rep_b[$1, $2, $3] = v[k, 12, n[k]]; reps[$3] = 1
	rep_lost[$1, $2, $3] = $5 + $6 > 0 ? 100 * $6 / ($5 + $6) : 0
	keys[k] = 1; load[k] = $1; rec[k] = $2
}
END {
	printf "%-5s %-16s %8s %12s %9s %8s %10s %8s %8s %8s %9s %6s\n", "load", "recorder", "cpu_s",
		"events", "lost", "lost%", "file_MB", "stop_s", "rss_MB", "wall_s", "ns/event", "B/ev"
	for (k in keys) { idx[order[k]] = k; if (order[k] > seen) seen = order[k] }
	for (k in keys) if (rec[k] == "idle") {	# median events of the idle baseline
		m = n[k]; for (r = 1; r <= m; r++) a[r] = v[k, 5, r]; idle_ev[load[k]] = med(a, m)
	}
	for (i = 1; i <= seen; i++) {
		if (!(i in idx)) continue
		k = idx[i]; m = n[k]
		for (c = 4; c <= 12; c++) {
			lo[c] = 1e30; hi[c] = -1
			for (r = 1; r <= m; r++) { a[r] = v[k, c, r]; if (a[r] < lo[c]) lo[c] = a[r]; if (a[r] > hi[c]) hi[c] = a[r] }
			md[c] = med(a, m)
		}
		if (md[6] < 0 && (load[k] SUBSEP "idle") in keys)	# perf: estimated
			md[6] = idle_ev[load[k]] > md[5] ? idle_ev[load[k]] - md[5] : 0
		tot = md[5] + md[6]
		printf "%-5s %-16s %8.2f %12d %9d %7.3f%% %10.1f %8.2f %8.1f %8.2f %9s %6s\n", load[k], rec[k],
			md[4], md[5], md[6], tot ? 100 * md[6] / tot : 0, md[7] / 1048576, md[8],
			md[9] / 1024, md[10], (md[11] >= 0 ? sprintf("%.0f", md[11]) : "-"),
			(md[12] >= 0 ? sprintf("%.2f", md[12]) : "-")
		printf "%-5s %-16s %8s %12s %9s %8s %10s %8s %8s %8s %9s %6s\n", "", "  min-max",
			sprintf("%.2f-%.2f", lo[4], hi[4]), "", sprintf("%d-%d", lo[6], hi[6]), "",
			sprintf("%.1f-%.1f", lo[7] / 1048576, hi[7] / 1048576),
			sprintf("%.2f-%.2f", lo[8], hi[8]), "", sprintf("%.2f-%.2f", lo[10], hi[10]),
			(lo[11] >= 0 ? sprintf("%.0f-%.0f", lo[11], hi[11]) : ""),
			(lo[12] >= 0 ? sprintf("%.2f-%.2f", lo[12], hi[12]) : "")
	}
	# same-repetition ratios to trace-cmd: CPU per event, file bytes per event; and the
	# loss. Users meet the worst repetition: it is printed beside the median.
	printf "\nratio to trace-cmd, same repetition: median, worst and best repetition\n"
	printf "%-5s %-16s %-32s %-32s %s\n", "load", "recorder", "ns/event", "bytes/event",
		"lost% (median, worst)"
	for (i = 1; i <= seen; i++) {
		if (!(i in idx)) continue
		k = idx[i]
		if (rec[k] == "trace-cmd" || rec[k] == "none" || rec[k] == "idle" || rec[k] == "perf")
			continue
		m1 = 0
		for (r in reps) {
			tk = load[k] SUBSEP "trace-cmd" SUBSEP r; rk = load[k] SUBSEP rec[k] SUBSEP r
			if (!(tk in rep_ns) || !(rk in rep_ns) || rep_ns[tk] <= 0 || rep_ns[rk] <= 0)
				continue
			m1++
			x[m1] = rep_ns[rk] / rep_ns[tk]
			y[m1] = rep_b[rk] / rep_b[tk]
			z[m1] = rep_lost[rk]
		}
		if (!m1) continue
		xl = yl = 1e30; xh = yh = zh = -1
		for (r = 1; r <= m1; r++) {
			if (x[r] < xl) xl = x[r]; if (x[r] > xh) xh = x[r]
			if (y[r] < yl) yl = y[r]; if (y[r] > yh) yh = y[r]
			if (z[r] > zh) zh = z[r]
		}
		printf "%-5s %-16s %-32s %-32s %.3f%%, %.3f%%\n", load[k], rec[k],
			sprintf("%.2fx, worst %.2fx, best %.2fx", med(x, m1), xh, xl),
			sprintf("%.2fx, worst %.2fx, best %.2fx", med(y, m1), yh, yl), med(z, m1), zh
	}
	# each tracemap recorder against --no-mmap in the same repetition: bytes per
	# event, and in how many repetitions it wrote more bytes or lost more events
	hdr = 0
	for (i = 1; i <= seen; i++) {
		if (!(i in idx)) continue
		k = idx[i]
		if (rec[k] ~ /^(trace-cmd|none|idle|perf|tracemap-nommap)$/) continue
		m1 = more_b = more_l = 0
		for (r in reps) {
			tk = load[k] SUBSEP "tracemap-nommap" SUBSEP r; rk = load[k] SUBSEP rec[k] SUBSEP r
			if (!(tk in rep_b) || !(rk in rep_b) || rep_b[tk] <= 0 || rep_b[rk] <= 0)
				continue
			y[++m1] = rep_b[rk] / rep_b[tk]
			if (rep_b[rk] > rep_b[tk]) more_b++
			if (rep_lost[rk] > rep_lost[tk]) more_l++
		}
		if (!m1) continue
		if (!hdr++) {
			printf "\nagainst --no-mmap, same repetition: bytes/event median, worst; repetitions with more\n"
			printf "%-5s %-16s %-24s %s\n", "load", "recorder", "bytes/event", "more bytes, more lost"
		}
		yh = -1
		for (r = 1; r <= m1; r++) if (y[r] > yh) yh = y[r]
		printf "%-5s %-16s %-24s %d of %d, %d of %d\n", load[k], rec[k],
			sprintf("%.3fx, worst %.3fx", med(y, m1), yh), more_b, m1, more_l, m1
	}
}' "$OUT/results.tsv"
}

if [ "$TABLE" = 1 ]; then		# only print the table of the last run
	print_table
	exit 0
fi
# The recorders of repetition N, starting from the Nth (rep 1 as listed): none
# always runs in the slot after the same one, so a slow or fast spell of the
# machine does not fall on the same pair of recorders in every repetition.
rotated() {
	local -a r
	read -ra r <<<"$RECORDERS"
	local n=${#r[@]} i
	for ((i = 0; i < n; i++)); do
		echo "${r[((i + $1 - 1) % n)]}"
	done
}

: > "$OUT/results.tsv"
for rep in $(seq "$REPS"); do
	for load in $LOADS; do
		for rec in $(rotated "$rep"); do
			echo "# rep $rep load $load recorder $rec" >&2
			one_run "$rec" "$load" "$rep"
		done
	done
done
print_table
