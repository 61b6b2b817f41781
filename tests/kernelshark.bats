#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kernelshark.bats - every kind of output opens in KernelShark (Debian's 2.2.1):
# record (v7 zstd, v7 none, v6), a flight dump, a rotated piece, a trigger file,
# extract, recover after SIGKILL, a file written through a pipe. The files are
# recorded once; then one KernelShark per file, all at once, each in its own
# place on a private Xvfb screen, opens its file from the file's directory under
# the name tracemap gave it. A file counts as loaded when its window's title
# names it, no other window (an error dialog) and no "ERROR:" line came, its
# CPU rows and the event list are drawn (tests/ks-shot.pl reads the screenshot),
# and KernelShark still runs after the screenshot. A copy under the old numbered
# name (old.dat.0001) must fail them. KS_KEEP=1 keeps the files and screenshots.

load helpers

KS_W=760	# each window's size and place on the screen, in 5 columns
KS_H=700
KS_COLS=5

setup_file() {
	local t
	tm_require_tracefs
	for t in kernelshark Xvfb xwininfo perl; do
		command -v "$t" >/dev/null || {
			echo "$t is not installed: run 'make deps' (kernelshark, xvfb, x11-utils)" >&2
			return 1
		}
	done
	tm_state_save
	export TM_STATE_BEFORE
	KS_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tracemap-ks.XXXXXX")
	export KS_DIR
	mkdir "$KS_DIR/home" "$KS_DIR/fb" "$KS_DIR/png"
	chmod 700 "$KS_DIR/home"
	ks_record_all >"$KS_DIR/record.log" 2>&1 || return 1
	ks_open_all || return 1
}

teardown_file() {
	local p
	[ -n "${KS_DIR:-}" ] || return 0
	for p in $(cat "$KS_DIR"/png/*.pid "$KS_DIR"/xvfb.pid 2>/dev/null); do
		kill "$p" 2>/dev/null || true
	done
	[ -n "${KS_KEEP:-}" ] || rm -rf "$KS_DIR"
	tm_state_check
}

# ---- the recordings: each kind in KS_DIR, a failed one leaves no file ----

# Work on every CPU: short-lived tasks pinned to each, so every CPU row has task boxes.
# (Waits for these tasks only: a recorder in the background runs on.)
ks_load() {
	local c n pids=()
	n=$(getconf _NPROCESSORS_ONLN)
	for ((c = 0; c < n; c++)); do
		taskset -c "$c" sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do /bin/true; done' &
		pids+=($!)
	done
	wait "${pids[@]}"
}

# Bounded: until tracemap's stderr (file $1) has a line matching $2, at most 20 s.
ks_wait_line() {
	local i
	for ((i = 0; i < 400; i++)); do
		grep -q -- "$2" "$1" && return 0
		sleep 0.05
	done
	cat "$1" >&2
	return 1
}

ks_rec() {
	timeout -s KILL 60 "$TRACEMAP" record -q -e sched "$@"
}

# One marker line of 3 KiB N times into trace_marker file $1 from CPU $2.
ks_markers() {
	taskset -c "$2" bash -c 'pad=$(printf "%03000d" 0); exec 3>"$1"
		for ((i = 0; i < $2; i++)); do echo "ks-$i-$pad" >&3; done' _ "$1" "$3"
}

# KIND wrote file PATH (relative to KS_DIR): a line "KIND PATH" in KS_DIR/files.
ks_wrote() {
	[[ $2 == /* ]] && echo "$1 $2" || echo "$1 $KS_DIR/$2"
}

# The first numbered file a recorder names in its summary lines (stderr file $1).
ks_first_file() {
	sed -n 's/^tracemap record: \(.*\): [0-9.]* MB.*/\1/p' "$1" | head -n 1
}

ks_kind_plain() {
	local load
	load="$(declare -f ks_load); ks_load"
	ks_rec -o v7zstd.dat -- bash -c "$load" && ks_wrote v7zstd v7zstd.dat
	ks_rec --compression none -o v7none.dat -- bash -c "$load" && ks_wrote v7none v7none.dat
	ks_rec --file-version 6 -o v6.dat -- bash -c "$load" && ks_wrote v6 v6.dat
}

# A flight recorder's window, written by the stop.
ks_kind_flight() {
	timeout -s KILL 60 "$TRACEMAP" record -e sched --flight 16M -o fl.dat \
		-- bash -c "$(declare -f ks_load); ks_load" 2>fl.err &&
		ks_wrote flight "$(ks_first_file fl.err)"
}

# A rotation: SIGUSR2 ends the first piece while recording goes on, the stop
# writes the second.
ks_kind_rotation() {
	local ret=0
	tm_bg 60 sw.out sw.err record -e sched --switch-output signal -o sw.dat || return 1
	ks_load
	kill -USR2 "$TM_PID"
	ks_wait_line sw.err ": [0-9.]* MB" || ret=1
	ks_load
	kill -INT "$TM_PID"
	wait "$TM_BG" && ks_wrote rotation "$(ks_first_file sw.err)" && return "$ret"
}

# A trigger on a marker: the file of everything up to it, then --max-dumps stops.
ks_kind_trigger() {
	tm_bg 20 tr.out tr.err record -e sched --trigger 'ftrace:print:buf ~ "*KSMARK*"' \
		--post 0.1 --max-dumps 1 -o tr.dat || return 1
	ks_load
	echo KSMARK >"$TRACEFS/instances/$TM_INST/trace_marker"
	wait "$TM_BG" && ks_wrote trigger "$(ks_first_file tr.err)"
}

# What a stopped instance's buffer holds.
ks_kind_extract() {
	local inst=tm-ks-$$ ret=0
	mkdir "$TRACEFS/instances/$inst" || return 1
	echo 1 >"$TRACEFS/instances/$inst/events/sched/enable"
	ks_load
	echo 0 >"$TRACEFS/instances/$inst/tracing_on"
	timeout -s KILL 60 "$TRACEMAP" extract -q -B "$inst" -o ex.dat || ret=1
	rmdir "$TRACEFS/instances/$inst" && ((!ret)) && ks_wrote extract ex.dat
}

# A stdout recording killed by SIGKILL: its spools go to TMPDIR; recover makes
# a file of the name reset gives them.
ks_kind_recover() {
	local i spool name
	TMPDIR=$KS_DIR tm_bg 60 /dev/null killed.err record -e sched -o - || return 1
	echo "$TM_PID" >killed.pid
	spool=$(ls "$KS_DIR"/*"$TM_PID"*cpu0.spool)
	# work, and markers on CPU 0 until its spool holds a finished chunk (1 MiB)
	ks_load
	for ((i = 0; i < 20; i++)); do
		ks_markers "$TRACEFS/instances/$TM_INST/trace_marker" 0 200
		[ "$(stat -c %s "$spool")" -gt 0 ] && break
	done
	kill -KILL "$TM_PID"
	wait "$TM_BG"
	rmdir "$TRACEFS/instances/$TM_INST"
	TMPDIR=$KS_DIR "$TRACEMAP" reset 2>reset.err >/dev/null
	name=$(sed -n "s/.*'tracemap recover \(.*\)' makes them a trace.dat.*/\1/p" reset.err)
	[ -n "$name" ] || { cat reset.err >&2; return 1; }
	timeout -s KILL 60 "$TRACEMAP" recover -q "$name" && ks_wrote recover "$name"
}

# `record -o -` through a pipe.
ks_kind_pipe() {
	TMPDIR=$KS_DIR ks_rec -o - -- bash -c "$(declare -f ks_load); ks_load" | cat >pipe.dat &&
		ks_wrote pipe pipe.dat
}

ks_record_all() {
	local k
	cd "$KS_DIR" || return 1
	for k in plain flight rotation trigger extract recover pipe; do
		echo "== $k"
		"ks_kind_$k" >>files || echo "== $k failed"
	done
	# the control: a file KernelShark loads, under the old numbered name
	cp v7zstd.dat old.dat.0001 && ks_wrote control old.dat.0001 >>files
	cd - >/dev/null || return 1
}

# The file KIND wrote ("" if none).
ks_path() {
	sed -n "s/^$1 //p" "$KS_DIR/files"
}

# ---- KernelShark ----

# The files to open, as "DIR/NAME": KernelShark opens NAME from DIR. The
# control last: its window grows wider after the error.
ks_files() {
	cut -d' ' -f2- "$KS_DIR/files"
}

# A private Xvfb (the first free display, -displayfd), the screen in KS_DIR/fb;
# ours if its root window has the size asked for.
ks_xvfb() {
	local i n w=$((KS_COLS * KS_W)) h=$(((${#KS_OPEN[@]} + KS_COLS - 1) / KS_COLS * KS_H))
	# its GL renders KernelShark's graph: Mesa's shader cache goes to KS_DIR too
	HOME=$KS_DIR/home XDG_CACHE_HOME=$KS_DIR/home/.cache timeout -k 5 300 Xvfb -displayfd 3 \
		-nolisten tcp -fbdir "$KS_DIR/fb" -screen 0 "${w}x${h}x24" \
		3>"$KS_DIR/display" >"$KS_DIR/xvfb.log" 2>&1 &
	echo $! >"$KS_DIR/xvfb.pid"
	for ((i = 0; i < 200; i++)); do
		n=$(cat "$KS_DIR/display")
		[ -n "$n" ] && xwininfo -display ":$n" -root 2>/dev/null | grep -q "Width: $w\$" &&
			export DISPLAY=:$n && return 0
		sleep 0.05
	done
	echo "Xvfb did not start (display '$n', screen ${w}x$h):" >&2
	cat "$KS_DIR/xvfb.log" >&2
	return 1
}

# Every top-level window larger than 3x3 (Qt's helpers are 1x1 and 3x3), a line
# each: ID X Y W H "TITLE".
ks_windows() {
	local id='\(0x[0-9a-f]*\)' title='\(".*"\)' class='([^)]*)'
	local size='\([0-9]*\)x\([0-9]*\)+-\?[0-9]*+-\?[0-9]*' at='+\(-\?[0-9]*\)+\(-\?[0-9]*\)'
	xwininfo -root -children |
		sed -n "s/^ *$id $title: $class *$size *$at\$/\1 \5 \6 \3 \4 \2/p" |
		awk '$4 > 3 && $5 > 3'
}

# X,Y,W,H of file number $1's window (a window line of ks_windows, $2), cut to
# its place on the screen: a window larger than asked for would reach into its
# neighbours'.
ks_region() {
	awk -v i="$1" -v c="$KS_COLS" -v w="$KS_W" -v h="$KS_H" '{
		x = i % c * w; y = int(i / c) * h
		print x "," y "," ($4 < w ? $4 : w) "," ($5 < h ? $5 : h)
	}' <<<"${2:-x 0 0 $KS_W $KS_H}"
}

ks_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# One look at the screen: each KernelShark not judged yet is judged on it.
# True once every file has its verdict.
ks_look() {
	local i name line left f
	local -a wins
	sleep 0.15	# with tm_wait's 0.05 s: a look every 0.2 s
	# a new file each time: each file's verdict keeps a link to its own
	rm -f "$KS_DIR/shot.xwd"
	cp "$KS_DIR/fb/Xvfb_screen0" "$KS_DIR/shot.xwd"
	ks_windows >"$KS_DIR/windows"
	left=0
	wins=()
	for i in "${!KS_OPEN[@]}"; do
		name=$(basename "${KS_OPEN[$i]}")
		[ -e "$KS_DIR/png/$name.done" ] && continue
		left=$((left + 1))
		ks_dialogs "$name" >"$KS_DIR/png/$name.dialogs"
		line=$(grep -F "\"Kernel Shark ($name)\"" "$KS_DIR/windows" | head -n 1)
		# worth a look once it has its title and nothing else is open
		[ -n "$line" ] && [ ! -s "$KS_DIR/png/$name.dialogs" ] &&
			wins+=("$name=$(ks_region "$i" "$line")")
	done
	((left)) || return 0
	: >"$KS_DIR/shot.txt"
	if ((${#wins[@]})); then
		perl "$BATS_TEST_DIRNAME/ks-shot.pl" "$KS_DIR/shot.xwd" "${wins[@]}" \
			>"$KS_DIR/shot.txt"
	fi
	for f in "${KS_OPEN[@]}"; do
		ks_judge "$(basename "$f")" $(($(ks_ms) - t0))
	done
	return 1
}

# One KernelShark per file at once, each in its place; then a screenshot every
# 0.2 s until each is decided (loaded, or an ERROR line, or gone) or 60 s are
# over (a bound for a machine others load: alone, a few seconds). Each file's
# verdict in KS_DIR/png/NAME.res, NAME.ok if it loaded.
ks_open_all() {
	local i f name t0 left wins line
	mapfile -t KS_OPEN < <(ks_files)
	ks_xvfb || return 1
	# no "running as root" warning; KernelShark's settings and session stay here
	printf '[General]\nnoRootWarn=true\n' >"$KS_DIR/home/setting.ini"
	for f in "${KS_OPEN[@]}"; do
		ks_cpus "$f" >"$KS_DIR/png/$(basename "$f").cpus"
	done
	t0=$(ks_ms)
	for i in "${!KS_OPEN[@]}"; do
		f=${KS_OPEN[$i]}
		name=$(basename "$f")
		(cd "$(dirname "$f")" && HOME=$KS_DIR/home XDG_RUNTIME_DIR=$KS_DIR/home \
			XDG_CACHE_HOME=$KS_DIR/home/.cache KS_USER_CACHE_DIR=$KS_DIR/home \
			exec kernelshark \
			-geometry "${KS_W}x${KS_H}+$((i % KS_COLS * KS_W))+$((i / KS_COLS * KS_H))" \
			"$name") >"$KS_DIR/png/$name.out" 2>&1 &
		echo $! >"$KS_DIR/png/$name.pid"
	done
	# every file judged, or 60 s: the verdicts say which did not draw
	tm_wait 60 "KernelShark to draw every file" ks_look || true
	echo "KernelShark: ${#KS_OPEN[@]} files at once in $(($(ks_ms) - t0)) ms," \
		"$(cat "$KS_DIR"/png/*.res | sed -n 's/^cpu_ms=//p' | paste -sd+ | bc) ms of CPU" \
		>"$KS_DIR/ks.time"
	for f in "${KS_OPEN[@]}"; do
		kill "$(cat "$KS_DIR/png/$(basename "$f").pid")" 2>/dev/null || true
	done
}

# The other windows (an error dialog, the "Loading" note) of the KernelShark
# whose main window names file $1: window ids of one X client share their bits
# above the server's resource mask (Xvfb's default, 0x1fffff).
ks_dialogs() {
	local main id
	main=$(grep -F "\"Kernel Shark ($1)\"" "$KS_DIR/windows" | head -n 1)
	[ -n "$main" ] || return 0
	while read -r id _; do
		[ "$id" != "${main%% *}" ] && (((id >> 21) == (${main%% *} >> 21))) &&
			grep "^$id " "$KS_DIR/windows"
	done <"$KS_DIR/windows"
	return 0
}

# One file's state in the last screenshot ($2 ms after the start):
# KS_DIR/png/NAME.res; NAME.done once decided: loaded (NAME.ok), an ERROR line
# a second ago, or KernelShark gone. A decided KernelShark is stopped.
ks_judge() {
	local name=$1 pid res=$KS_DIR/png/$1.res
	[ -e "$KS_DIR/png/$name.done" ] && return 0
	pid=$(cat "$KS_DIR/png/$name.pid")
	{
		echo "ms=$2"
		echo "cpus=$(cat "$KS_DIR/png/$name.cpus")"
		echo "title=$(grep -cF "\"Kernel Shark ($name)\"" "$KS_DIR/windows")"
		grep "^$name " "$KS_DIR/shot.txt" | cut -d' ' -f2- | tr ' ' '\n'
		echo "dialogs=$(wc -l <"$KS_DIR/png/$name.dialogs")"
		sed 's/^/dialog: /' "$KS_DIR/png/$name.dialogs"
		echo "errors=$(grep -c 'ERROR:' "$KS_DIR/png/$name.out")"
		# still running after the screenshot; its CPU time so far (user + system)
		kill -0 "$pid" 2>/dev/null && echo alive=1 || echo alive=0
		awk -v hz="$(getconf CLK_TCK)" '{ print "cpu_ms=" int(($14 + $15) * 1000 / hz) }' \
			"/proc/$pid/stat" 2>/dev/null
	} >"$res"
	ln -f "$KS_DIR/shot.xwd" "$KS_DIR/png/$name.xwd"
	cp "$KS_DIR/windows" "$KS_DIR/png/$name.windows"
	if grep -qx 'title=1' "$res" && grep -qx 'dialogs=0' "$res" && grep -qx 'errors=0' "$res" &&
		grep -qx 'alive=1' "$res" && ks_drawn "$res" "$name"; then
		touch "$KS_DIR/png/$name.ok"
	elif grep -qx 'alive=1' "$res"; then
		# an error: decided a second later, its dialog in the screenshot by then
		grep -qx 'errors=0' "$res" && return 0
		[ -e "$KS_DIR/png/$name.error" ] || echo "$2" >"$KS_DIR/png/$name.error"
		(($2 - $(cat "$KS_DIR/png/$name.error") >= 1000)) || return 0
	fi
	touch "$KS_DIR/png/$name.done"
	kill "$pid" 2>/dev/null || true
}

# The CPUs file $1 holds data of (KernelShark draws a row for each).
ks_cpus() {
	"$TRACEMAP" report --stat "$1" | awk '/^CPU[0-9]+ data recorded/ { getline; n += $1 > 0 }
		END { print n + 0 }'
}

# The CPU rows, their task boxes and the event list are drawn (result file $1,
# file $2): a row for each CPU with data, as far as the graph shows them (at
# least 2).
ks_drawn() {
	local n rows colored events
	n=$(cat "$KS_DIR/png/$2.cpus")
	rows=$(sed -n 's/^rows=//p' "$1")
	colored=$(sed -n 's/^colored=//p' "$1")
	events=$(sed -n 's/^events=//p' "$1")
	[ -n "$rows" ] && [ "$n" -gt 0 ] &&
		{ [ "$rows" -eq "$n" ] || { [ "$n" -gt 2 ] && [ "$rows" -ge 2 ]; }; } &&
		[ "$colored" -ge 500 ] && [ "$events" -ge 3 ]
}

# The test of one kind: it wrote a file, and KernelShark loaded it.
ks_loaded() {
	local f name
	f=$(ks_path "$1")
	name=$(basename "$f")
	mapfile -t KS_OPEN < <(ks_files)
	[ -s "$f" ] || { echo "$1: no file written:" >&2; cat "$KS_DIR/record.log" >&2; return 1; }
	[ -e "$KS_DIR/png/$name.ok" ] || {
		echo "KernelShark did not load $f:" >&2
		cat "$KS_DIR/png/$name.res" "$KS_DIR/png/$name.out" >&2
		ks_keep_shot "$name"
		return 1
	}
	cat "$KS_DIR/png/$name.res"
}

# After a failure: the window as a PNG outside KS_DIR (removed at the end).
ks_keep_shot() {
	local i line
	for i in "${!KS_OPEN[@]}"; do
		[ "$(basename "${KS_OPEN[$i]}")" = "$1" ] || continue
		line=$(grep -F "\"Kernel Shark ($1)\"" "$KS_DIR/windows" | head -n 1)
		perl "$BATS_TEST_DIRNAME/ks-shot.pl" --png "${BATS_TMPDIR:-/tmp}" \
			"$KS_DIR/png/$1.xwd" "ks-$1=$(ks_region "$i" "$line")" >/dev/null &&
			echo "screenshot: ${BATS_TMPDIR:-/tmp}/ks-$1.png" >&2
	done
}

@test "kernelshark: record's v7 zstd file loads and draws every CPU row" {
	ks_loaded v7zstd
	head -c 64 "$(ks_path v7zstd)" | grep -aq 'tracing7.*zstd'
}

@test "kernelshark: record's v7 uncompressed file loads and draws every CPU row" {
	ks_loaded v7none
	head -c 64 "$(ks_path v7none)" | grep -aq 'tracing7.*none'
}

@test "kernelshark: record's v6 file loads and draws every CPU row" {
	ks_loaded v6
	head -c 16 "$(ks_path v6)" | grep -aq 'tracing6'
}

# The numbered files, opened from where they were written under their own names.
@test "kernelshark: a flight dump opens as written (fl.0001.dat)" {
	ks_loaded flight
	[ "$(ks_path flight)" = "$KS_DIR/fl.0001.dat" ]
}

@test "kernelshark: a rotated piece opens as written (sw.0001.dat, before the stop's)" {
	ks_loaded rotation
	[ "$(ks_path rotation)" = "$KS_DIR/sw.0001.dat" ] && [ -s "$KS_DIR/sw.0002.dat" ]
}

@test "kernelshark: a --trigger file opens as written (tr.0001.dat)" {
	ks_loaded trigger
	[ "$(ks_path trigger)" = "$KS_DIR/tr.0001.dat" ]
	grep -q 'trigger ftrace:print:buf ~ "\*KSMARK\*" fired' "$KS_DIR/tr.err"
}

@test "kernelshark: extract's file loads and draws every CPU row" {
	ks_loaded extract
}

@test "kernelshark: recover after SIGKILL of record -o - writes the name reset gives, a .dat" {
	ks_loaded recover
	[ "$(ks_path recover)" = "$KS_DIR/tracemap-$(cat "$KS_DIR/killed.pid").dat" ]
}

@test "kernelshark: a file written by record -o - through a pipe loads" {
	ks_loaded pipe
}

@test "kernelshark: the checks fail for the old numbered name (old.dat.0001)" {
	local res=$KS_DIR/png/old.dat.0001.res
	echo "# $(cat "$KS_DIR/ks.time")" >&3
	cat "$res"
	[ ! -e "$KS_DIR/png/old.dat.0001.ok" ]
	grep -qx 'title=0' "$res"
	grep -q "ERROR: File old.dat.0001 contains no data" "$KS_DIR/png/old.dat.0001.out"
	# the same bytes as v7zstd.dat, which loaded
	cmp "$KS_DIR/old.dat.0001" "$(ks_path v7zstd)"
	# its message box (untitled, so named after the program) on the screen, and
	# nothing drawn in its place
	grep -q ' "kernelshark"$' "$KS_DIR/png/old.dat.0001.windows"
	run perl "$BATS_TEST_DIRNAME/ks-shot.pl" "$KS_DIR/png/old.dat.0001.xwd" \
		"x=$(ks_region "$(($(wc -l <"$KS_DIR/files") - 1))")"
	[ "$output" = "x rows=0 colored=0 events=0" ]
}
