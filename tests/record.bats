#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# record.bats - `tracemap record` on the live kernel: files trace-cmd reads in every
# format, COMMAND and pid filters, signals, stdout, and errors that leave nothing behind.

load helpers
bats_require_minimum_version 1.5.0

setup() { tm_kernel_setup; }
teardown() { tm_kernel_teardown; }

# Record ARGS in the background with -v; sets REC_BG (job), REC_INST, REC_PID, REC_ERR
# once the instance traces.
rec_start() {
	tm_record_bg 60 "$@"
}

# Send signal $1 to the recorder and wait for it; REC_STATUS is its exit status.
rec_stop() {
	kill -"$1" "$REC_PID"
	REC_STATUS=0
	wait "$REC_BG" || REC_STATUS=$?
}

# The file is read by trace-cmd without complaint and holds records.
readable_by_trace_cmd() {
	local f=$1
	trace-cmd report -i "$f" >"$TM_TMP/tc.txt" 2>"$TM_TMP/tc.err" || {
		cat "$TM_TMP/tc.err" >&2; return 1; }
	[ ! -s "$TM_TMP/tc.err" ] || { cat "$TM_TMP/tc.err" >&2; return 1; }
	trace-cmd dump --summary -i "$f" >/dev/null 2>"$TM_TMP/dump.err" || {
		cat "$TM_TMP/dump.err" >&2; return 1; }
	grep -q '^ *.*\[00[0-9]\] ' "$TM_TMP/tc.txt"
}

no_spools() {
	! ls "$TM_TMP"/*.spool 2>/dev/null || return 1
}

# One short recording with a marker line, then trace-cmd reads it.
record_format() {
	local out=$TM_TMP/f.dat
	rm -f "$out"
	run "$TRACEMAP" record -v -e sched -o "$out" "$@" -- sh -c "echo fmt-check > $TRACEFS/instances/tracemap-\$PPID/trace_marker; sleep 0.2"
	tm_status 0
	readable_by_trace_cmd "$out"
	grep -q 'tracing_mark_write: fmt-check' "$TM_TMP/tc.txt"
	no_spools
}

# Every CPU entry `trace-cmd dump --flyrecord` lists for a zstd file: its size is the
# 4-byte chunk count plus each chunk's 8-byte header and payload, as trace-cmd >= 3.2
# records it (spec §4.6); 3.1.x left the count out.
sizes_count_the_chunk_count() {
	local f=$1 cpu off size n pos i c
	trace-cmd dump --flyrecord -i "$f" 2>/dev/null |
		sed -n 's/^ *\([0-9]*\) \([0-9]*\)\t\([0-9]*\)\t\[id, data offset and size\]$/\1 \2 \3/p' \
		>"$TM_TMP/fly"
	[ -s "$TM_TMP/fly" ] || { echo "no CPU entries in dump --flyrecord" >&2; return 1; }
	while read -r cpu off size; do
		n=$(od -An -tu4 -j "$off" -N4 "$f" | tr -d ' ')
		pos=$((off + 4))
		for ((i = 0; i < n; i++)); do
			c=$(od -An -tu4 -j "$pos" -N4 "$f" | tr -d ' ')
			pos=$((pos + 8 + c))
		done
		[ $((pos - off)) -eq "$size" ] ||
			{ echo "cpu $cpu: size $size, its $n chunks end at +$((pos - off))" >&2; return 1; }
	done <"$TM_TMP/fly"
}

@test "record: zstd CPU sizes count the chunk count (as trace-cmd >= 3.2), 3.1.6 reads them" {
	tm_need_subbuf_size
	record_format
	sizes_count_the_chunk_count "$TM_TMP/f.dat"
	record_format --file-version 7 --compression zstd --subbuf-size 8
	sizes_count_the_chunk_count "$TM_TMP/f.dat"
}

@test "record: v7 zstd files (mmap and read(), 4 and 8 KiB sub-buffers) are read by trace-cmd" {
	tm_need_subbuf_size
	record_format
	[[ "$output" == *"cpu0: mmap path"* ]]
	record_format --subbuf-size 8
	record_format --no-mmap
	[[ "$output" == *"cpu0: read() path (--no-mmap)"* ]]
	record_format --no-mmap --subbuf-size 8
}

@test "record: v7 uncompressed files (mmap and read(), 4 and 8 KiB) are read by trace-cmd" {
	tm_need_subbuf_size
	record_format --compression none
	record_format --compression none --subbuf-size 8
	record_format --compression none --no-mmap
	record_format --compression none --no-mmap --subbuf-size 8
}

@test "record: v6 files (mmap and read(), 4 and 8 KiB) are read by trace-cmd" {
	tm_need_subbuf_size
	record_format --file-version 6
	record_format --file-version 6 --subbuf-size 8
	record_format --file-version 6 --no-mmap
	record_format --file-version 6 --no-mmap --subbuf-size 8
}

@test "record: tracemap report --compat=3.1 prints exactly what trace-cmd report (3.1.6) prints" {
	local v
	for v in "--file-version 6" "--compression none" "--compression zstd"; do
		# shellcheck disable=SC2086
		run "$TRACEMAP" record -q -e sched $v -o "$TM_TMP/r.dat" -- sleep 0.2
		tm_status 0
		trace-cmd report -i "$TM_TMP/r.dat" >"$TM_TMP/tc.txt"
		run "$TRACEMAP" report --compat=3.1 "$TM_TMP/r.dat"
		tm_status 0
		diff <(echo "$output") "$TM_TMP/tc.txt"
	done
}

@test "record: report -F/-v keeps each stack trace with its shown event, as trace-cmd does" {
	local a
	run "$TRACEMAP" record -q -e sched:sched_switch -e sched:sched_wakeup -O stacktrace \
		-o "$TM_TMP/st.dat" -- sleep 0.2
	tm_status 0
	for a in "-F sched_switch" "-F sched_wakeup -v -F 'sched_wakeup: pid < 100'" \
		 "-v -F sched_switch"; do
		eval "trace-cmd report $a -i '$TM_TMP/st.dat'" >"$TM_TMP/tc.txt" 2>/dev/null
		eval "'$TRACEMAP' report \"\${TM_REPORT_31[@]}\" $a -i '$TM_TMP/st.dat'" \
			>"$TM_TMP/tm.txt"
		grep -q 'kernel_stack:' "$TM_TMP/tc.txt"
		# every byte, task names too: a pid named twice before libtraceevent's first
		# name lookup (saved cmdlines, then a sched plugin's print of an idle CPU's
		# event) gets the name trace-cmd gets only when our registrations are the
		# plugin's, one per comm of each printed record
		cmp -s "$TM_TMP/tc.txt" "$TM_TMP/tm.txt" ||
			{ diff -u "$TM_TMP/tc.txt" "$TM_TMP/tm.txt" | head -n 20 >&2; return 1; }
	done
}

@test "record: -e sched -- sleep 1 records sched_switch of sleep on its pid" {
	run "$TRACEMAP" record -e sched -o "$TM_TMP/s.dat" -- \
		sh -c "echo \$\$ > $TM_TMP/pid; exec sleep 1"
	tm_status 0
	[[ "$output" == *"sh exited with status 0"* ]]
	readable_by_trace_cmd "$TM_TMP/s.dat"
	local pid
	pid=$(cat "$TM_TMP/pid")
	grep -E "sched_switch: +sleep:$pid " "$TM_TMP/tc.txt"
}

@test "record, stream: -- COMMAND's status is the exit status: code, 128+signal, 127" {
	local sub out numbered
	for sub in record stream; do
		out=()
		[ "$sub" = stream ] || out=(-o "$TM_TMP/x.dat")
		run timeout -s KILL 30 "$TRACEMAP" "$sub" -q -e sched:sched_process_exit "${out[@]}" \
			-- sh -c 'exit 7'
		tm_status 7
		# not -q: the line that says so tells COMMAND's SIGSEGV from tracemap's own
		run timeout -s KILL 30 "$TRACEMAP" "$sub" -e sched:sched_process_exit "${out[@]}" \
			-- sh -c 'kill -SEGV $$'
		tm_status 139
		[[ "$output" == *"sh killed by signal 11"* ]]
		run -127 timeout -s KILL 30 "$TRACEMAP" "$sub" -q -e sched:sched_process_exit "${out[@]}" \
			-- "$TM_TMP/no-such-command"
		tm_status 127
		[[ "$output" == *"cannot run $TM_TMP/no-such-command"* ]]
	done
	# the file of a failed COMMAND is kept: it is what one looks at
	run "$TRACEMAP" record -q -e sched:sched_process_exec -o "$TM_TMP/s.dat" -- \
		sh -c '/bin/true; exit 3'
	tm_status 3
	readable_by_trace_cmd "$TM_TMP/s.dat"
	grep -qE 'filename=(/usr)?/bin/true ' "$TM_TMP/tc.txt"
	# numbered files too
	run "$TRACEMAP" record -q -e sched --switch-output 10s -o "$TM_TMP/l.dat" -- sh -c 'exit 5'
	tm_status 5
	numbered=("$TM_TMP"/l.*0001*)
	readable_by_trace_cmd "${numbered[0]}"
	# tracemap's own failure comes first
	run "$TRACEMAP" record -q -e sched -o "$TM_TMP/no/dir/x.dat" -- sh -c 'exit 7'
	tm_status 1
}

@test "record: -F traces only COMMAND, -c adds the children it forks" {
	run "$TRACEMAP" record -q -F -e sched:sched_process_exec -o "$TM_TMP/f.dat" -- \
		sh -c '/bin/true; /bin/true'
	tm_status 0
	readable_by_trace_cmd "$TM_TMP/f.dat"
	grep -qE 'filename=(/usr)?/bin/sh ' "$TM_TMP/tc.txt"
	! grep -qE 'filename=(/usr)?/bin/true ' "$TM_TMP/tc.txt" || return 1

	run "$TRACEMAP" record -q -F -c -e sched:sched_process_exec -o "$TM_TMP/c.dat" -- \
		sh -c '/bin/true; /bin/true'
	tm_status 0
	readable_by_trace_cmd "$TM_TMP/c.dat"
	[ "$(grep -cE 'filename=(/usr)?/bin/true ' "$TM_TMP/tc.txt")" -eq 2 ]
}

# The nice value of each recorder thread but the main one, one line each.
reader_nices() {
	local t
	for t in /proc/"$REC_PID"/task/*; do
		[ "${t##*/}" = "$REC_PID" ] && continue
		# field 19 of stat, counted after the ")" that ends the name
		sed 's/.*) //' "$t/stat" | awk '{ print $17 }'
	done
}

# The CPU list of each recorder thread but the main one, one line each, sorted.
reader_cpus() {
	local t
	for t in /proc/"$REC_PID"/task/*; do
		[ "${t##*/}" = "$REC_PID" ] && continue
		awk '/^Cpus_allowed_list:/ { print $2 }' "$t/status"
	done | sort -n
}

@test "record: each CPU's reader runs on that CPU at nice -10; --no-pin, --reader-nice, taskset" {
	local n all cpus nices path
	n=$(nproc)
	all=$(seq 0 $((n - 1)))
	path=$(tm_default_path)
	rec_start -e sched -o "$TM_TMP/p.dat"
	cpus=$(reader_cpus)
	nices=$(reader_nices | sort -u)
	rec_stop INT
	grep -q "cpu0: $path.*, its reader on that CPU at nice -10$" "$REC_ERR"
	[ "$cpus" = "$all" ] || { echo "reader CPUs: $cpus" >&2; return 1; }
	[ "$nices" = -10 ] || { echo "reader nice values: $nices" >&2; return 1; }

	rec_start -e sched --no-pin --reader-nice 3 -o "$TM_TMP/n.dat"
	cpus=$(reader_cpus)
	nices=$(reader_nices | sort -u)
	rec_stop INT
	grep -q "cpu0: $path.*, its reader on any CPU at nice 3$" "$REC_ERR"
	[ "$nices" = 3 ] || { echo "reader nice values: $nices" >&2; return 1; }
	[ "$cpus" = "$(for c in $all; do echo "0-$((n - 1))"; done)" ] ||
		{ echo "reader CPUs: $cpus" >&2; return 1; }
	tm_need "a second CPU" test "$n" -ge 2

	# a user's affinity stays theirs: cpu1's reader may not leave CPU 0
	taskset -pc 0 "$BASHPID" >/dev/null
	rec_start -e sched -o "$TM_TMP/t.dat"
	taskset -pc "0-$((n - 1))" "$BASHPID" >/dev/null
	cpus=$(reader_cpus)
	rec_stop INT
	grep -q "cpu1: $path.*, its reader on any CPU" "$REC_ERR"
	[ "$cpus" = "$(for c in $all; do echo 0; done)" ] ||
		{ echo "reader CPUs: $cpus" >&2; return 1; }
	readable_by_trace_cmd "$TM_TMP/t.dat"
}

@test "record: -M 2 records only CPU 1" {
	tm_need "2 CPUs" test "$(nproc)" -ge 2
	run "$TRACEMAP" record -M 2 -e sched -o "$TM_TMP/m.dat" -- \
		taskset -c 0,1 sh -c 'for i in 1 2 3 4 5 6; do /bin/true; done'
	tm_status 0
	readable_by_trace_cmd "$TM_TMP/m.dat"
	grep -q '\[001\]' "$TM_TMP/tc.txt"
	! grep -q '\[000\]' "$TM_TMP/tc.txt" || return 1
}

# Whether pid $1 has exited: gone, or a zombie not yet reaped.
pid_ended() {
	[ ! -e "/proc/$1" ] || [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = Z ]
}
export -f pid_ended

@test "record: -P PID traces only that pid's events" {
	sleep 30 &
	local other=$!
	# COMMAND ends only once the killed sleep is a zombie (or reaped): its exit
	# event is written before that (do_exit), so it is in the trace, whatever the timing
	run "$TRACEMAP" record -q -P "$other" -e sched:sched_process_exit -o "$TM_TMP/p.dat" -- \
		bash -c '/bin/true; kill "$1"
			tm_wait 30 "the killed sleep $1 to exit" pid_ended "$1"' _ "$other"
	wait "$other" || true
	tm_status 0
	readable_by_trace_cmd "$TM_TMP/p.dat"
	grep -qE "sched_process_exit: +comm=sleep pid=$other " "$TM_TMP/tc.txt"
	! grep -q 'comm=true' "$TM_TMP/tc.txt" || return 1
}

@test "record, stream: -P of a process that does not exist is a usage error" {
	local sub dead out
	sh -c 'exit 0' &
	dead=$!
	wait "$dead"
	for sub in record stream; do
		out=()
		[ "$sub" = stream ] || out=(-o "$TM_TMP/x.dat")
		run --separate-stderr timeout -s KILL 20 "$TRACEMAP" "$sub" -q -e sched \
			-P "$dead" --duration 0.5 "${out[@]}"
		tm_status 2
		[ "${stderr_lines[0]}" = "tracemap $sub: -P $dead: no such process" ] ||
			{ echo "$stderr" >&2; return 1; }
	done
	[ ! -e "$TM_TMP/x.dat" ]
	# a live one is fine (this shell), and several -P are each checked
	run --separate-stderr timeout -s KILL 20 "$TRACEMAP" record -q -e sched -P $$ \
		-P "$dead" --duration 0.5 -o "$TM_TMP/x.dat"
	tm_status 2
	[[ "$stderr" == *"-P $dead: no such process"* ]]
}

@test "record: SIGINT mid-run leaves a readable file" {
	rec_start -e sched -o "$TM_TMP/i.dat"
	sleep 0.3
	rec_stop INT
	[ "$REC_STATUS" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	readable_by_trace_cmd "$TM_TMP/i.dat"
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
	no_spools
}

@test "record: SIGTERM mid-run leaves a readable file" {
	rec_start -e sched -o "$TM_TMP/t.dat"
	sleep 0.3
	rec_stop TERM
	[ "$REC_STATUS" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	readable_by_trace_cmd "$TM_TMP/t.dat"
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
	no_spools
}

@test "record: SIGHUP mid-run leaves a readable file" {
	rec_start -e sched -o "$TM_TMP/h.dat"
	sleep 0.3
	rec_stop HUP
	[ "$REC_STATUS" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	readable_by_trace_cmd "$TM_TMP/h.dat"
	no_spools
}

@test "record: SIGQUIT, SIGUSR1, SIGUSR2 and SIGPIPE stop it as SIGINT does" {
	local sig
	for sig in QUIT USR1 USR2 PIPE; do
		# the same -o each time: nothing may be left that makes the next run refuse
		rec_start -e sched -o "$TM_TMP/q.dat"
		rec_stop "$sig"
		[ "$REC_STATUS" -eq 0 ] || { echo "SIG$sig: exit $REC_STATUS" >&2; cat "$REC_ERR" >&2
			return 1; }
		readable_by_trace_cmd "$TM_TMP/q.dat"
		[ ! -d "$TRACEFS/instances/$REC_INST" ]
		no_spools
	done
}

# hold_instance FILE UNTIL: a process holding the instance's FILE open (EBUSY for
# rmdir) until UNTIL (a regex) shows in the recorder's stderr; sets HOLDER.
hold_instance() {
	# only the shell holds it: its children close fd 5, so it is free when the shell exits
	bash -c 'exec 5<"$1"; for ((i = 0; i < 600; i++)); do grep -qE "$2" "$3" 5<&- && break
		sleep 0.05 5<&-; done' _ \
		"$TRACEFS/instances/$REC_INST/$1" "$2" "$REC_ERR" &
	HOLDER=$!
	tm_wait 30 "the holder (pid $HOLDER) to open $1" test -e "/proc/$HOLDER/fd/5"
}

@test "record: an instance busy at exit is removed once its holder lets go, exit 0" {
	rec_start -e sched -o "$TM_TMP/b.dat"
	# the holder lets go as soon as tracemap says it waits for the instance
	hold_instance tracing_on 'busy.*retrying'
	rec_stop INT
	wait "$HOLDER"
	[ "$REC_STATUS" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	grep -q "busy (held open by pid $HOLDER (bash))" "$REC_ERR"
	[ ! -d "$TRACEFS/instances/$REC_INST" ]
	readable_by_trace_cmd "$TM_TMP/b.dat"
	no_spools
}

@test "record: an instance held open for good: exit 0, a warning naming the holder, the file complete" {
	rec_start -e sched -o "$TM_TMP/b.dat"
	hold_instance tracing_on 'never-printed-line'
	rec_stop INT
	local inst=$REC_INST
	kill "$HOLDER"
	wait "$HOLDER" || true
	rmdir "$TRACEFS/instances/$inst" 2>/dev/null || true
	[ "$REC_STATUS" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	grep -q "warning: .*remove instance .*$inst.*held open by pid $HOLDER (bash)" "$REC_ERR"
	[ "$(grep -c 'warning' "$REC_ERR")" -eq 1 ]
	readable_by_trace_cmd "$TM_TMP/b.dat"
	no_spools
}

# Issue 44: a COMMAND ignoring SIGTERM outlived tracemap (exit 0, no word).
@test "record: COMMAND ignoring the forwarded SIGTERM gets SIGKILL 2 s later, said in one line" {
	local t0 t1
	# the command says when it ignores the signals: under a slow guest (QEMU/TCG) a
	# fixed pause before the TERM left too little of its 4 s for the 2 s grace
	rec_start -e sched:sched_process_exit -o "$TM_TMP/k.dat" -- \
		sh -c "trap '' INT TERM; : >$TM_TMP/ready; sleep 4; echo survived > $TM_TMP/f"
	tm_wait 30 "the command to ignore SIGTERM" test -e "$TM_TMP/ready"
	t0=$(date +%s%N)
	rec_stop TERM
	t1=$(date +%s%N)
	[ "$REC_STATUS" -eq 137 ] || { echo "status $REC_STATUS" >&2; cat "$REC_ERR" >&2; return 1; }
	grep -qx "tracemap record: sh (pid [0-9]*) did not exit within 2 s of SIGTERM: sending SIGKILL" \
		"$REC_ERR" || { cat "$REC_ERR" >&2; return 1; }
	grep -q "sh killed by signal 9" "$REC_ERR"
	# the grace was waited for; that it ended before the command's 4 s is the status
	# above (a command that ended on its own exits 0) and the file below, not the time
	# tracemap took in all (5.2 s in a 7.3 guest under TCG, the file written after)
	[ $(((t1 - t0) / 1000000)) -ge 1900 ] ||
		{ echo "stopped after $(((t1 - t0) / 1000000)) ms" >&2; return 1; }
	readable_by_trace_cmd "$TM_TMP/k.dat"
	# past the 4 s after ready: a command still alive would have written f
	sleep 2
	[ ! -e "$TM_TMP/f" ]
	no_spools
}

@test "record: a second SIGINT does not interrupt the cleanup" {
	rec_start -e all -o "$TM_TMP/d.dat"
	sleep 0.3
	kill -INT "$REC_PID"
	kill -INT "$REC_PID" 2>/dev/null || true
	REC_STATUS=0
	wait "$REC_BG" || REC_STATUS=$?
	[ "$REC_STATUS" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	readable_by_trace_cmd "$TM_TMP/d.dat"
	no_spools
}

# Applications write to the top-level trace_marker; the instance copies them
# (copy_trace_marker) only when ftrace:print is asked for.
@test "record: -e ftrace:print and -e ftrace catch markers written to the top-level trace_marker" {
	tm_need "copy_trace_marker (Linux >= 6.17)" test -e "$TRACEFS/options/copy_trace_marker"
	local ev
	for ev in ftrace:print ftrace; do
		run "$TRACEMAP" record -q -e "$ev" -e sched:sched_process_exec -o "$TM_TMP/m.dat" -- \
			sh -c "echo top-mark-$ev > $TRACEFS/trace_marker"
		tm_status 0
		readable_by_trace_cmd "$TM_TMP/m.dat"
		grep -q "tracing_mark_write: top-mark-$ev\$" "$TM_TMP/tc.txt"
	done
	# without ftrace:print the instance stays out of the top level's markers
	run "$TRACEMAP" record -q -e sched:sched_process_exec -o "$TM_TMP/n.dat" -- \
		sh -c "echo top-mark-none > $TRACEFS/trace_marker"
	tm_status 0
	readable_by_trace_cmd "$TM_TMP/n.dat"
	! grep -q 'top-mark-none' "$TM_TMP/tc.txt" || return 1
}

@test "record: -o - writes a readable file to a pipe" {
	# spools of a stdout recording go to $TMPDIR
	TMPDIR=$TM_TMP "$TRACEMAP" record -q -e sched --duration 0.5 -o - | cat >"$TM_TMP/pipe.dat"
	readable_by_trace_cmd "$TM_TMP/pipe.dat"
	no_spools
}

@test "record: -o - | report -i - prints the recording, both ends exit 0" {
	TMPDIR=$TM_TMP bash -c '"$1" record -q -e sched:sched_process_exec -o - -- /bin/true |
		"$1" report -i - >"$2"; echo "${PIPESTATUS[*]}" >"$3"' _ "$TRACEMAP" \
		"$TM_TMP/out" "$TM_TMP/status"
	[ "$(cat "$TM_TMP/status")" = "0 0" ]
	grep -qE 'sched_process_exec: +filename=/bin/true ' "$TM_TMP/out"
	no_spools
}

# Only a regular file is truncated or removed: a device node is written straight through
# (its spools go to $TMPDIR, as for -o -), a link's target is what gets written.
@test "record: -o a device node, a pipe or a symlink: the node stays, the link's target is written" {
	local numbered
	# a private null device in the test's directory, never the real /dev/null
	mknod -m666 "$TM_TMP/null" c 1 3
	run env TMPDIR="$TM_TMP" "$TRACEMAP" record -q -e sched:sched_process_exec \
		-o "$TM_TMP/null" -- /bin/true
	tm_status 0
	[ -z "$output" ]
	[ -c "$TM_TMP/null" ] || { ls -l "$TM_TMP" >&2; return 1; }
	[ "$(ls -A "$TM_TMP")" = null ] || { ls -la "$TM_TMP" >&2; return 1; }
	# a FIFO nobody reads: refused before tracing (the stop signals could not end the wait)
	mkfifo "$TM_TMP/fifo"
	run timeout -s KILL 30 "$TRACEMAP" record -q -e sched -o "$TM_TMP/fifo" --duration 0.5
	tm_status 1
	[ "$output" = "tracemap record: cannot write output $TM_TMP/fifo: no process has the FIFO open for reading (start its reader first)" ]
	rm "$TM_TMP/fifo"
	# a pipe by name
	TMPDIR=$TM_TMP "$TRACEMAP" record -q -e sched:sched_process_exec -o /dev/stdout -- \
		/bin/true | cat >"$TM_TMP/pipe.dat"
	readable_by_trace_cmd "$TM_TMP/pipe.dat"
	grep -qE 'filename=(/usr)?/bin/true ' "$TM_TMP/tc.txt"
	# a relative link into another directory
	mkdir "$TM_TMP/data" "$TM_TMP/links"
	echo old >"$TM_TMP/data/real.dat"
	ln -s ../data/real.dat "$TM_TMP/links/r.dat"
	run "$TRACEMAP" record -q -e sched:sched_process_exec -o "$TM_TMP/links/r.dat" -- /bin/true
	tm_status 0
	[ -L "$TM_TMP/links/r.dat" ] && [ "$(readlink "$TM_TMP/links/r.dat")" = ../data/real.dat ]
	readable_by_trace_cmd "$TM_TMP/data/real.dat"
	[ "$(ls -A "$TM_TMP/data")" = real.dat ] && [ "$(ls -A "$TM_TMP/links")" = r.dat ]
	# numbered files of a device would be /dev/null.0001: refused before anything starts
	run --separate-stderr timeout -s KILL 20 "$TRACEMAP" record -e sched --flight 1M \
		-o "$TM_TMP/null" --duration 0.5
	tm_status 2
	[ "${stderr_lines[0]}" = "tracemap record: numbered output files need -o to name a regular file: $TM_TMP/null is not one" ]
	run --separate-stderr timeout -s KILL 20 "$TRACEMAP" record -e sched --switch-output 1s \
		-o "$TM_TMP/null" --duration 0.5
	tm_status 2
	[ -c "$TM_TMP/null" ]
	# numbered files named after a link are written beside the link
	run "$TRACEMAP" record -q -e sched --switch-output 10s -o "$TM_TMP/links/r.dat" -- /bin/true
	tm_status 0
	[ -L "$TM_TMP/links/r.dat" ]
	numbered=("$TM_TMP"/links/r.*0001*)
	readable_by_trace_cmd "${numbered[0]}"
	[ "$(ls "$TM_TMP"/*.spool "$TM_TMP"/*/*.spool 2>/dev/null)" = "" ]
}

# An error before tracing: exit 1, one line naming the problem, nothing left.
record_error() {
	local want=$1; shift
	run "$TRACEMAP" record "$@"
	tm_status 1
	[ "${#lines[@]}" -eq 1 ] || { echo "$output" >&2; return 1; }
	[[ "$output" == "tracemap record: "*"$want"* ]] || { echo "$output" >&2; return 1; }
	[ -z "$(ls -A "$TM_TMP" | grep -v '^keep$')" ] || { ls -la "$TM_TMP" >&2; return 1; }
}

@test "record: a second recorder with the same -o is refused, naming the first; its file stays" {
	rec_start -e sched:sched_switch -o "$TM_TMP/same.dat"
	run --separate-stderr timeout -s KILL 20 "$TRACEMAP" record -q -e sched:sched_switch \
		--duration 0.3 -o "$TM_TMP/same.dat"
	rec_stop INT
	tm_status 1
	[[ "$stderr" == *"being recorded by tracemap pid $REC_PID"* ]] || { echo "$stderr" >&2; return 1; }
	[ "$REC_STATUS" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	readable_by_trace_cmd "$TM_TMP/same.dat"
	no_spools
}

# Started together, either may create the file and either may win the spools: the
# one that exits 0 has its file, the other exits 1 (issue 44: lost in 6 runs of 30).
@test "record: two recorders started together with the same -o: the one that exits 0 has its file" {
	local i a b
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rm -f "$TM_TMP"/same.dat*
		timeout -s KILL 20 "$TRACEMAP" record -q -e sched:sched_switch --duration 0.3 \
			-o "$TM_TMP/same.dat" 2>"$TM_TMP/a.err" & a=$!
		timeout -s KILL 20 "$TRACEMAP" record -q -e sched:sched_switch --duration 0.3 \
			-o "$TM_TMP/same.dat" 2>"$TM_TMP/b.err" & b=$!
		local sa=0 sb=0
		wait $a || sa=$?
		wait $b || sb=$?
		[ $((sa + sb)) -eq 1 ] || { echo "run $i: $sa $sb" >&2; cat "$TM_TMP"/[ab].err >&2; return 1; }
		[ -s "$TM_TMP/same.dat" ] || { echo "run $i: same.dat lost" >&2; return 1; }
		"$TRACEMAP" report -i "$TM_TMP/same.dat" --stat >/dev/null
		no_spools
	done
}

@test "record: unknown event fails before tracing, leaving nothing" {
	record_error "unknown event 'nosuch:event'" -e sched -e nosuch:event -o "$TM_TMP/x.dat" --duration 1
}

@test "record: bad filter fails before tracing, leaving nothing" {
	record_error "bad filter" -e sched:sched_switch -f 'no_such_field == 1' -o "$TM_TMP/x.dat" --duration 1
}

@test "record: a bad CPU mask is a usage error before tracing, leaving nothing" {
	run "$TRACEMAP" record -e sched -M xyz -o "$TM_TMP/x.dat" --duration 1
	tm_status 2
	[[ "$output" == *"bad CPU mask 'xyz'"* ]]
	run "$TRACEMAP" record -e sched -M 10000 -o "$TM_TMP/x.dat" --duration 1
	tm_status 2
	[[ "$output" == *"does not exist"* ]]
	[ -z "$(ls -A "$TM_TMP")" ]
}

@test "record: unwritable output fails before tracing, leaving nothing" {
	record_error "cannot write output" -e sched -o "$TM_TMP/no/such/dir/x.dat" --duration 1
	mkdir "$TM_TMP/keep"
	record_error "is a directory" -e sched -o "$TM_TMP/keep" --duration 1
	[ -z "$(ls -A "$TM_TMP/keep")" ]
	# root ignores the mode bits: a read-only file system needs no privileges to refuse
	record_error "cannot write output" -e sched -o /proc/tracemap-test.dat --duration 1
}

@test "record: unknown clock and option fail before tracing, leaving nothing" {
	record_error "unknown trace clock 'nosuch'" -e sched -C nosuch -o "$TM_TMP/x.dat" --duration 1
	record_error "unknown tracefs option 'nosuchopt'" -e sched -O nosuchopt -o "$TM_TMP/x.dat" --duration 1
}

@test "record: usage errors exit 2" {
	run "$TRACEMAP" record -f 'pid == 1'
	tm_status 2
	run "$TRACEMAP" record --file-version 6 --compression zstd
	tm_status 2
	run "$TRACEMAP" record -F
	tm_status 2
	run "$TRACEMAP" record -b abc
	tm_status 2
}

@test "record, stream: a trailing -- without COMMAND is a usage error" {
	local sub
	cd "$TM_TMP"
	for sub in record stream; do
		# --duration bounds a run that would wrongly start tracing
		run --separate-stderr timeout -s KILL 20 "$TRACEMAP" "$sub" --duration 0.3 --
		tm_status 2
		[[ $stderr == *"'--' needs a COMMAND"* ]] || { echo "$stderr" >&2; return 1; }
		run --separate-stderr timeout -s KILL 20 "$TRACEMAP" "$sub" -q -e sched \
			--duration 0.3 --
		tm_status 2
		[[ $stderr == *"tracemap $sub --help"* ]]
	done
	# '--' as the value of an option is no trailing '--'
	run --separate-stderr timeout -s KILL 20 "$TRACEMAP" record -q -e sched:sched_process_exec \
		-o -- -- /bin/true
	tm_status 0
	[ -s "$TM_TMP/--" ]
	[ -z "$(ls "$TM_TMP" | grep -v -x -e -- -e 'r.dat')" ]
}

@test "record: every --help option is in the man page" {
	local opt
	for opt in $("$TRACEMAP" record --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -q -- "${opt//-/\\\\-}" "$TM_ROOT/man/tracemap-record.1" ||
			{ echo "missing in man page: $opt" >&2; return 1; }
	done
	run groff -man -ww -z "$TM_ROOT/man/tracemap-record.1"
	tm_status 0
	[ -z "$output" ]
}
