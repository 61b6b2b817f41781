#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# record-long.bats - long recordings on the live kernel: flight dumps on SIGUSR2 and
# on a trigger, the window's drops and common start, rotation with numbered markers,
# --max-files; every file read by trace-cmd and by tracemap report alike.

load helpers
load long
bats_require_minimum_version 1.5.0

setup() {
	tm_kernel_setup
	long_instance
}

teardown() {
	[ -n "${SMALL_FS:-}" ] && mountpoint -q "$SMALL_FS" && umount "$SMALL_FS"
	long_cleanup
	tm_kernel_teardown
}

@test "record --flight: SIGUSR2 writes the window and recording goes on; the stop writes the last" {
	flight_two_dumps
	# the dump holds every marker written before it; the window keeps them for the next
	same_report "$TM_TMP/f.0001.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 1 50) " ]
	same_report "$TM_TMP/f.0002.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 1 100) " ]
	[ ! -e "$TM_TMP/f.0003.dat" ] && [ ! -e "$TM_TMP/f.dat" ]
	# one summary line per file: size, time window, events, losses; no drops: the 8M
	# window is not full (nothing dropped, so no CPU is cut to a common start)
	grep -Eq "f\.0002\.dat: [0-9.]+ MB, [0-9]+\.[0-9]{6}-[0-9]+\.[0-9]{6} \([0-9.]+ s\), [0-9]+ events, [0-9]+ lost by the kernel$" "$TM_TMP/rec.err" ||
		{ cat "$TM_TMP/rec.err" >&2; return 1; }
	! grep -q dropped "$TM_TMP/rec.err" || return 1 || return 1
	trace-cmd report --stat -i "$TM_TMP/f.0002.dat" 2>/dev/null |
		grep "^dropped from the flight window: " >"$TM_TMP/drops"
	[ -s "$TM_TMP/drops" ]
	! grep -qv ': 0$' "$TM_TMP/drops" || return 1 || return 1
	! ls "$TM_TMP"/*.spool 2>/dev/null || return 1
}

@test "record --flight: a full window drops its oldest chunks; every CPU starts at the window's start" {
	local start line first
	long_start 180 --flight 64K -b 4096 -e sched:sched_switch -o "$TM_TMP/f.dat"
	marks 1 20000
	kill -INT "$LONG_PID"
	long_wait
	[ "$LONG_STATUS" -eq 0 ] || { cat "$TM_TMP/rec.err" >&2; return 1; }
	same_report "$TM_TMP/f.0001.dat"
	line=$(grep "f.0001.dat: " "$TM_TMP/rec.err")
	[[ $line =~ \ ([0-9]+)\ older\ events\ dropped\ from\ the\ window, ]] &&
		[ "${BASH_REMATCH[1]}" -gt 0 ]
	# the newest markers, without a gap (the kernel lost none here)
	[[ $line == *", 0 lost by the kernel"* ]]
	marks_reported >"$TM_TMP/m.txt"
	[ "$(tail -n 1 "$TM_TMP/m.txt")" = 20000 ]
	first=$(head -n 1 "$TM_TMP/m.txt")
	[ "$first" -gt 1 ]
	[ "$(tr '\n' ' ' <"$TM_TMP/m.txt")" = "$(seq -s ' ' "$first" 20000) " ]
	# no CPU begins before the window's start, and one begins right at it
	[[ $line =~ ([0-9]+\.[0-9]{6})- ]]
	start=${BASH_REMATCH[1]}
	awk -v s="$start" '
		match($0, /\[00[0-9]\] +[0-9]+\.[0-9]+:/) {
			f = substr($0, RSTART, RLENGTH); split(f, p, /[][ :]+/)
			if (!(p[2] in first)) first[p[2]] = p[3]
		}
		END {
			ok = 0
			for (c in first) {
				if (first[c] + 0.000001 < s) { print "cpu " c " starts at " first[c] " before " s; exit 1 }
				if (first[c] - s < 0.0000015) ok = 1
			}
			if (!ok) { print "no cpu starts at " s; exit 1 }
		}' "$TM_TMP/tc.txt"
	# the file keeps the window's drops apart from the kernel's losses
	trace-cmd report --stat -i "$TM_TMP/f.0001.dat" 2>/dev/null | grep -q "^dropped from the flight window: [1-9]"
}

# next_on_cpu PATTERN REPORT: the event name ("kernel_stack:") of the first record
# after the line matching PATTERN on that line's CPU, in a trace-cmd report text.
next_on_cpu() {
	awk -v pat="$1" '
		function cpu_of(   i) {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^\[[0-9]+\]$/)
					return $i
			return ""
		}
		cpu == "" && index($0, pat) { cpu = cpu_of(); next }
		cpu != "" && cpu_of() == cpu {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[a-z_0-9]+:$/ && $(i - 1) ~ /^[0-9]+\.[0-9]+:$/) {
					print $i
					exit
				}
			exit
		}' "$2"
}

@test "record --flight --trigger: a marker matching the filter writes the window up to it, then --max-dumps stops" {
	long_start 60 --flight 8M -e sched:sched_switch \
		--trigger 'ftrace:print:buf ~ "*STALL*"' --post 0.2 --max-dumps 1 -o "$TM_TMP/t.dat"
	marks 1 50
	echo "mark 51 STALL" >"$LONG_DIR/trace_marker"
	long_wait
	[ "$LONG_STATUS" -eq 0 ] || { cat "$TM_TMP/rec.err" >&2; return 1; }
	grep -q "trigger ftrace:print:buf ~ \"\*STALL\*\" fired" "$TM_TMP/rec.err"
	grep -q -- "--max-dumps 1 reached" "$TM_TMP/rec.err"
	# the trigger event itself is in the dump, the kernel stack the latch records after it
	same_report "$TM_TMP/t.0001.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 1 51) " ]
	# the stack is the next record of the marker's own CPU: in the merged report a
	# record of another CPU may sort between the two
	[ "$(next_on_cpu 'mark 51 STALL' "$TM_TMP/tc.txt")" = kernel_stack: ]
	[ ! -e "$TM_TMP/t.0002.dat" ]
}

@test "record: the README's STALL trigger fires on a marker written to the top-level trace_marker" {
	local line i dump=
	local -a args
	tm_need "copy_trace_marker option" test -e "$TRACEFS/options/copy_trace_marker"
	# the README's line exactly, with only -o added
	line=$(sed -n "s/^ *tracemap record \(-e sched --flight [0-9]*M --trigger 'ftrace:print:buf ~ \"\*STALL\*\"'\).*/\1/p" \
		"$TM_ROOT/README")
	[ -n "$line" ]
	eval "args=($line)"
	tm_record_bg 60 "${args[@]}" -o "$TM_TMP/t.dat"
	echo "app STALL $$" >"$TRACEFS/trace_marker"
	# the dump is named t.dat.0001 or t.0001.dat
	for ((i = 0; i < 200; i++)); do
		dump=$(ls "$TM_TMP"/t.dat.0001 "$TM_TMP"/t.0001.dat 2>/dev/null | head -n 1)
		[ -n "$dump" ] && grep -q 'fired' "$REC_ERR" && break
		sleep 0.05
	done
	kill -INT "$REC_PID"
	wait "$REC_BG"
	[ -n "$dump" ] || { cat "$REC_ERR" >&2; return 1; }
	grep -q "trigger ftrace:print:buf ~ \"\*STALL\*\" fired" "$REC_ERR"
	"$TRACEMAP" report "$dump" >"$TM_TMP/tm.txt"
	grep -q "tracing_mark_write: app STALL $$\$" "$TM_TMP/tm.txt"
}

@test "record --trigger alone: a tracepoint with a filter ends a file, the stop writes the rest" {
	local f n=""
	tm_need "sched:sched_process_exec event" test -d "$TRACEFS/events/sched/sched_process_exec"
	# COMMAND runs /bin/true once per file: the second after the first file is out
	long_start 60 -e sched:sched_switch \
		--trigger 'sched:sched_process_exec:filename ~ "*/true"' -o "$TM_TMP/t.dat" \
		-- bash -c 'sleep 0.2; /bin/true
			tm_wait 30 "t.0001.dat in $1" grep -q "t.0001.dat: " "$1" && /bin/true
			tm_wait 30 "t.0002.dat in $1" grep -q "t.0002.dat: " "$1"' \
		_ "$TM_TMP/rec.err"
	long_wait
	[ "$LONG_STATUS" -eq 0 ] || { cat "$TM_TMP/rec.err" >&2; return 1; }
	# sched_process_exec was not asked for: the trigger enabled it, with its filter
	for f in "$TM_TMP"/t.000[123].dat; do
		same_report "$f"
		n+="$(grep -c 'sched_process_exec:.*filename=/bin/true' "$TM_TMP/tc.txt" || true) "
		! grep -q 'sched_process_exec:.*filename=/usr/bin/grep' "$TM_TMP/tc.txt" || return 1
	done
	[ "$n" = "1 1 0 " ]
	[ ! -e "$TM_TMP/t.0004.dat" ]
}

# Whether the count in $TM_TMP/$1 (allow or done) is at least $2 (a file caught
# between its truncation and its write reads as 0).
count_reached() {
	local n
	n=$(<"$TM_TMP/$1")
	((${n:-0} >= $2))
}

# A writer of "mark 1".."mark N" that never passes the count in $TM_TMP/allow and
# reports its progress in $TM_TMP/done. The test raises allow after a switch it
# waits for (60 s at the most), so 120 s without a raise is a failed test.
# (A shell of its own: see marks in long.bash.)
throttled_writer() {
	bash -c 'exec 3>"$1"
		for ((i = 1; i <= $2; i++)); do
			if ((i % 100 == 1)); then
				echo $((i - 1)) >"$3/done"
				for ((w = 0; w < 1200; w++)); do
					n=$(<"$3/allow")
					((${n:-0} >= i)) && break
					sleep 0.1
				done
				((w < 1200)) || { echo "no allow for mark $i in 120 s" >&2; exit 1; }
			fi
			echo "mark $i" >&3
		done
		echo "$2" >"$3/done"' _ "$LONG_DIR/trace_marker" "$1" "$TM_TMP"
}

wait_done() {
	tm_wait 60 "the writer to pass mark $1" count_reached done "$1"
}

@test "record --switch-output signal: numbered markers across the files, every one exactly once" {
	local k w f lost
	long_start 60 --switch-output signal -b 4096 -e sched:sched_switch -o "$TM_TMP/r.dat"
	echo 0 >"$TM_TMP/done"
	echo 1000 >"$TM_TMP/allow"
	throttled_writer 4000 &
	w=$!
	# each switch lands while the writer runs (between 500 and 1000 past the last)
	for k in 1 2 3; do
		wait_done $((k * 1000 - 500))
		kill -USR2 "$LONG_PID"
		long_wait_line "r.000$k.dat: "
		echo $((k * 1000 + 1000)) >"$TM_TMP/allow"
	done
	wait "$w"
	kill -INT "$LONG_PID"
	long_wait
	[ "$LONG_STATUS" -eq 0 ] || { cat "$TM_TMP/rec.err" >&2; return 1; }
	for f in "$TM_TMP"/r.000[1234].dat; do
		same_report "$f"
		marks_reported >"$f.marks"
		[ -s "$f.marks" ]	# every file holds markers
	done
	[ ! -e "$TM_TMP/r.0005.dat" ]
	# exactly once over all files (a kernel loss would show in the summary)
	lost=$(awk '$1 ~ /^[0-9]+$/ { n += $NF } END { print n + 0 }' "$TM_TMP/rec.err")
	[ "$lost" -eq 0 ]
	[ "$(cat "$TM_TMP"/r.000?.dat.marks | tr '\n' ' ')" = "$(seq -s ' ' 1 4000) " ]
	! ls "$TM_TMP"/*.spool 2>/dev/null || return 1
}

@test "record --switch-output TIME --max-files: a file per period, only the newest kept" {
	local n
	run timeout -s KILL 60 "$TRACEMAP" record -B "$LONG_INST" -e sched:sched_switch \
		--switch-output 0.5s --max-files 2 --duration 2 -o "$TM_TMP/m.dat"
	tm_status 0
	# a file per half second, then the stop's: at least three, only the last two kept
	n=$(grep -c "m\.[0-9]*\.dat: " <<<"$output")
	[ "$n" -ge 3 ]
	[ "$(cd "$TM_TMP" && ls | tr '\n' ' ')" = "$(printf 'm.%04d.dat m.%04d.dat ' $((n - 1)) "$n")" ]
	[ "$(grep -c "removed $TM_TMP/m.[0-9]*.dat (--max-files 2)" <<<"$output")" -eq $((n - 2)) ]
	same_report "$TM_TMP/m.$(printf %04d "$n").dat"
}

# Issue 44: a shorter second run overwrote r.0001-2 and left the first run's r.0003
# beside them, and convert r.*.dat merged both recordings with exit 0.
@test "record --switch-output: a rerun removes the earlier run's later files; convert refuses a mix" {
	local first second want
	run timeout -s KILL 60 "$TRACEMAP" record -q -e sched:sched_switch --switch-output 0.5s \
		--duration 2.2 -o "$TM_TMP/r.dat"
	tm_status 0
	first=$(cd "$TM_TMP" && ls r.*.dat | wc -l)
	[ "$first" -ge 3 ]
	cp "$TM_TMP/r.0002.dat" "$TM_TMP/first.0002.dat"
	run --separate-stderr timeout -s KILL 60 "$TRACEMAP" record -e sched:sched_switch \
		--switch-output 0.5s --duration 0.7 -o "$TM_TMP/r.dat"
	tm_status 0
	second=$(grep -c '^tracemap record: .*/r\.[0-9]*\.dat: [0-9.]* MB$' <<<"$stderr")
	[ "$second" -ge 1 ] && [ "$second" -lt "$first" ] || { echo "$first, then $second" >&2; return 1; }
	want=$(printf "r.%04d.dat " $(seq "$second"))
	[ "$(cd "$TM_TMP" && ls r.*.dat | tr '\n' ' ')" = "$want" ] ||
		{ ls "$TM_TMP" >&2; return 1; }
	[[ $stderr == *"removed $TM_TMP/r.$(printf %04d $((second + 1))).dat"*"an earlier recording's numbered file"* ]] ||
		{ echo "$stderr" >&2; return 1; }
	run --separate-stderr "$TRACEMAP" convert "$TM_TMP"/r.*.dat -o "$TM_TMP/one.json"
	tm_status 0
	# a piece of the first run put back beside the second's
	mv "$TM_TMP/first.0002.dat" "$TM_TMP/r.$(printf %04d $((second + 1))).dat"
	run --separate-stderr "$TRACEMAP" convert "$TM_TMP"/r.*.dat -o "$TM_TMP/mix.json"
	tm_status 1
	[[ $stderr == "tracemap convert: $TM_TMP/r.$(printf %04d $((second + 1))).dat and $TM_TMP/r.0001.dat are numbered files of two recordings (their trace ids differ)"* ]] ||
		{ echo "$stderr" >&2; return 1; }
	[ ! -e "$TM_TMP/mix.json" ]
}

@test "record --switch-output: a SIGKILLed rotation's spools are recovered, the ring with the newest" {
	long_start 60 --switch-output signal -e sched:sched_process_exec -o "$TM_TMP/r.dat"
	marks 1 300
	kill -USR2 "$LONG_PID"
	long_wait_line "r.0001.dat: "
	marks 301 600
	sleep 1.5	# past --flush-interval: part of it in the spools, the rest in the ring
	marks 601 650
	kill -KILL "$LONG_PID"
	long_wait
	[ -e "$TM_TMP/r.0002.dat.spool-info" ] && [ ! -e "$TM_TMP/r.0001.dat.spool-info" ] ||
		{ ls "$TM_TMP" >&2; return 1; }
	cp "$TM_TMP/r.0002.dat.spool-info" "$TM_TMP/note"
	run --separate-stderr "$TRACEMAP" reset
	[[ $stderr == *"tracemap recover $TM_TMP/r.0002.dat"* ]] || { echo "$stderr" >&2; return 1; }
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/r.0002.dat"
	tm_status 0
	[ ! -d "$LONG_DIR" ]
	same_report "$TM_TMP/r.0001.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 1 300) " ]
	same_report "$TM_TMP/r.0002.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 301 650) " ]
	! ls "$TM_TMP"/*.spool* 2>/dev/null || return 1
	# a killed rotation's note at any number: a new one of the same -o refuses at
	# the start, not at the cut that reaches it
	mv "$TM_TMP/note" "$TM_TMP/r.0007.dat.spool-info"
	run --separate-stderr timeout -s KILL 60 "$TRACEMAP" record -q -e sched:sched_switch \
		--switch-output 1s --duration 0.3 -o "$TM_TMP/r.dat"
	tm_status 1
	[[ $stderr == *"r.0007.dat.spool-info: what a killed recording"*"tracemap recover $TM_TMP/r.0007.dat"* ]] ||
		{ echo "$stderr" >&2; return 1; }
	[ ! -e "$TM_TMP/r.0001.dat.spool-info" ]
}

# The cut hands each CPU's partial reader sub-buffer to the number it ends, and
# the kernel keeps that sub-buffer as the reader's until more comes: recover of
# the next number, which rereads it, must drop what the last file has even when
# the CPU stayed quiet after the cut and the next number's spool there is empty.
@test "record --switch-output: a CPU quiet after the cut adds nothing to the next number" {
	local last=$(($(nproc) - 1))
	long_start 60 --switch-output signal -e sched:sched_process_exec -o "$TM_TMP/r.dat"
	marks_on 0 1 300
	kill -USR2 "$LONG_PID"
	long_wait_line "r.0001.dat: "
	marks_on "$last" 301 600
	kill -KILL "$LONG_PID"
	long_wait
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/r.0002.dat"
	tm_status 0
	same_report "$TM_TMP/r.0001.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 1 300) " ]
	same_report "$TM_TMP/r.0002.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 301 600) " ]
}

# A numbered file the disk cannot hold (its ~1 MB of metadata on a 512 KiB tmpfs,
# where the spools fit) had its spools removed with it. Now the rotation stops with
# exit 1 and one line naming what it kept: that number's spools and the next one's,
# each recovered whole elsewhere.
@test "record --switch-output: a numbered file the disk cannot hold keeps its spools" {
	local n1 n2 n w
	SMALL_FS=$TM_TMP/small
	mkdir "$SMALL_FS"
	mount -t tmpfs -o size=512k tmpfs "$SMALL_FS"
	long_start 60 --switch-output signal -e sched:sched_process_exec -o "$SMALL_FS/r.dat"
	marks 1 300
	# and on through the cut and the stop, about 5,000 a second (see marks)
	bash -c 'exec 3>"$1"
		for ((i = 301; i <= 100000; i++)); do
			echo "mark $i" >&3
			((i % 50)) || sleep 0.01
		done' _ "$LONG_DIR/trace_marker" &
	w=$!
	sleep 0.3
	kill -USR2 "$LONG_PID"
	long_wait
	kill "$w" && wait "$w" || true
	[ "$LONG_STATUS" -eq 1 ] || { cat "$TM_TMP/rec.err" >&2; return 1; }
	n1=$SMALL_FS/r.0001.dat n2=$SMALL_FS/r.0002.dat
	grep -qF "write $n1: " "$TM_TMP/rec.err" && grep -qF "No space left on device; the recorded data is kept in $n1.cpu*.spool and, from the cut on, in $n2.cpu*.spool: free space, then run 'tracemap recover' on $n1 and $n2" "$TM_TMP/rec.err" ||
		{ cat "$TM_TMP/rec.err" >&2; return 1; }
	[ ! -e "$n1" ] && [ -e "$n1.spool-info" ] && [ -e "$n2.spool-info" ]
	mkdir "$TM_TMP/big"
	cp "$SMALL_FS"/r.* "$TM_TMP/big/"
	umount "$SMALL_FS"
	# every marker up to the last recorded, once, none lost at the cut
	for n in 0001 0002; do
		run --separate-stderr timeout -s KILL 60 "$TRACEMAP" recover "$TM_TMP/big/r.$n.dat"
		[ "$status" = 0 ] || { echo "$stderr" >&2; return 1; }
		same_report "$TM_TMP/big/r.$n.dat"
		marks_reported >"$TM_TMP/marks.$n"
		[ -s "$TM_TMP/marks.$n" ]
	done
	[ "$(head -n 300 "$TM_TMP/marks.0001" | tr '\n' ' ')" = "$(seq -s ' ' 1 300) " ]
	cat "$TM_TMP/marks.0001" "$TM_TMP/marks.0002" >"$TM_TMP/marks"
	seq 1 "$(wc -l <"$TM_TMP/marks")" | diff - "$TM_TMP/marks" | head -n 5 >&2
	[ "$(seq 1 "$(wc -l <"$TM_TMP/marks")" | md5sum)" = "$(md5sum <"$TM_TMP/marks")" ]
	! ls "$TM_TMP"/big/*.spool* 2>/dev/null || return 1
}

# --switch-output SIZE counts event data, not the ~1 MB of metadata every file has.
@test "record --switch-output SIZE: a file per SIZE of event data, metadata not counted" {
	local f n i
	# no event at all: one file, the stop's (the metadata alone once made a file per tick)
	run timeout -s KILL 60 "$TRACEMAP" record -B "$LONG_INST" -e ftrace:print \
		--switch-output 500K --duration 1.5 -o "$TM_TMP/idle.dat"
	tm_status 0
	n=$(grep -c "idle\.[0-9]*\.dat: " <<<"$output")
	[ "$n" -eq 1 ] || { echo "$output" >&2; return 1; }
	# ~1.6 MB of markers that do not compress: the data makes files, each >= 500K
	long_start 60 -e ftrace:print -b 8192 --switch-output 500K -o "$TM_TMP/d.dat"
	head -c 1200000 /dev/urandom | base64 -w 4000 >"$TM_TMP/lines"
	exec {f}>"$LONG_DIR/trace_marker"
	while read -r i; do echo "$i" >&"$f"; done <"$TM_TMP/lines"
	exec {f}>&-
	# SIZE counts what reached the spools: within --flush-interval (1 s) of the
	# data, the second piece begins (its spools appear)
	tm_wait 10 "the second piece" compgen -G "$TM_TMP/d.0002.dat.cpu*.spool" ||
		{ ls -l "$TM_TMP" >&2; cat "$TM_TMP/rec.err" >&2; return 1; }
	sleep 0.5
	kill -INT "$LONG_PID"
	long_wait
	[ "$LONG_STATUS" -eq 0 ] || { cat "$TM_TMP/rec.err" >&2; return 1; }
	n=$(grep -c "d\.[0-9]*\.dat: " "$TM_TMP/rec.err")
	[ "$n" -ge 2 ] && [ "$n" -le 4 ] || { cat "$TM_TMP/rec.err" >&2; return 1; }
	for f in $(sed -n 's/^tracemap record: \(.*d\.[0-9]*\.dat\): .*/\1/p' "$TM_TMP/rec.err" |
		   head -n $((n - 1))); do
		[ "$(stat -c %s "$f")" -ge $((500 << 10)) ] || { ls -l "$TM_TMP" >&2; return 1; }
	done
}

# record_file_opts() is the one translation of record's options for both kinds of
# recording: a numbered file carries the DATE option a plain recording's file does.
@test "record --date: every numbered file of a rotation and a flight dump carries DATE" {
	local f before after sec
	before=$(date +%s)
	run timeout -s KILL 60 "$TRACEMAP" record -q -B "$LONG_INST" --date \
		-e sched:sched_switch --switch-output 0.4s --duration 1 -o "$TM_TMP/s.dat"
	tm_status 0
	run timeout -s KILL 60 "$TRACEMAP" record -q -B "$LONG_INST" --date \
		-e sched:sched_switch --flight 8M --duration 0.5 -o "$TM_TMP/f.dat"
	tm_status 0
	after=$(date +%s)
	[ -e "$TM_TMP/s.0002.dat" ] && [ -e "$TM_TMP/f.0001.dat" ]
	for f in "$TM_TMP"/s.0*.dat "$TM_TMP"/f.0001.dat; do
		trace-cmd dump --options -i "$f" 2>&1 | grep -A1 'Option DATE' | grep -q '^0x' ||
			{ echo "$f: no DATE option" >&2; return 1; }
		# its events at wall-clock times of this run (a second either side)
		sec=$("$TRACEMAP" report --json "$f" | head -1 | jq -r .timestamp_sec)
		((sec >= before - 1 && sec <= after + 1)) ||
			{ echo "$f: first event at $sec, run $before..$after" >&2; return 1; }
	done
}

@test "record: long-recording options are checked as usage errors" {
	run "$TRACEMAP" record --flight 1M --switch-output 1h -o "$TM_TMP/x.dat"
	tm_status 2
	run "$TRACEMAP" record --flight 10 -o "$TM_TMP/x.dat"
	tm_status 2
	run "$TRACEMAP" record --switch-output 10 -o "$TM_TMP/x.dat"
	tm_status 2
	[[ $output == *"bad --switch-output '10'"* ]]
	# a zero time is refused as the size 0 is (it once turned rotation off silently)
	local t
	for t in 0s 0m 0.0h 0.05s; do
		run timeout -s KILL 20 "$TRACEMAP" record --switch-output "$t" --duration 0.5 \
			-o "$TM_TMP/x.dat"
		tm_status 2
		[[ ${lines[0]} == "tracemap record: --switch-output '$t' is too short (at least 0.1s)" ]]
	done
	run "$TRACEMAP" record --flight 1M -o -
	tm_status 2
	run "$TRACEMAP" record --max-files 3 -o "$TM_TMP/x.dat"
	tm_status 2
	run "$TRACEMAP" record --post 1 -o "$TM_TMP/x.dat"
	tm_status 2
	run "$TRACEMAP" record -e sched --trigger sched -o "$TM_TMP/x.dat" --duration 1
	tm_status 1
	[[ $output == *"bad trigger 'sched'"* ]]
	run "$TRACEMAP" record -e sched --trigger 'sched:no_such_event' -o "$TM_TMP/x.dat" --duration 1
	tm_status 1
	[[ $output == *"unknown trigger event 'sched:no_such_event'"* ]]
	! ls "$TM_TMP"/x.dat* 2>/dev/null || return 1
}
