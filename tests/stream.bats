#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# stream.bats - `tracemap stream` on the live kernel: order across CPUs, the
# latency of a marker, pipes closed by the reader, signals, task renames, JSON, loss,
# and its lines against report's for the same events.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	tm_kernel_setup
	NCPU=$(nproc)
	[ "$NCPU" -le 2 ] || NCPU=2
}
teardown() { tm_kernel_teardown; }

# Start `tracemap stream ARGS` in the background, stdout to $TM_TMP/out (or
# to $STREAM_OUT), and wait until its instance traces. Sets ST_BG, ST_PID, ST_INST.
stream_start() {
	ST_ERR=$TM_TMP/err
	tm_bg 60 "${STREAM_OUT:-$TM_TMP/out}" "$ST_ERR" stream "$@" || return 1
	ST_BG=$TM_BG ST_INST=$TM_INST ST_PID=$TM_PID
}

stream_wait() {
	ST_STATUS=0
	wait "$ST_BG" || ST_STATUS=$?
}

# Busy work on each CPU: short-lived processes make sched events everywhere.
load_cpus() {
	local cpu pids=()
	for ((cpu = 0; cpu < NCPU; cpu++)); do
		taskset -c "$cpu" bash -c 'for ((i = 0; i < 150; i++)); do /bin/true; done' &
		pids+=($!)
	done
	wait "${pids[@]}"
}

@test "stream: events of all CPUs come out in timestamp order" {
	tm_need jq command -v jq
	stream_start --json -e sched:sched_process_fork -e sched:sched_process_exit \
		-e sched:sched_switch
	load_cpus
	sleep 0.3
	kill -INT "$ST_PID"
	stream_wait
	[ "$ST_STATUS" -eq 0 ]
	jq -r '"\(.timestamp_ns) \(.cpu)"' "$TM_TMP/out" >"$TM_TMP/ts"
	# both CPUs present, and timestamps never go back
	[ "$(awk '{ print $2 }' "$TM_TMP/ts" | sort -u | wc -l)" -eq "$NCPU" ]
	[ "$(wc -l <"$TM_TMP/ts")" -gt 300 ]
	awk 'NR > 1 && $1 < prev { print "line " NR ": " $1 " < " prev; bad = 1 }
	     { prev = $1 } END { exit bad }' "$TM_TMP/ts"
}

# Latency figures are bench/stream.sh's; here only the outcome: each marker is
# printed while the stream still runs (read -t only catches a hang).
@test "stream: a trace_marker line shows on stdout while the stream runs and CPUs are idle" {
	local i m line
	mkfifo "$TM_TMP/fifo"
	exec 4<>"$TM_TMP/fifo"
	STREAM_OUT=$TM_TMP/fifo stream_start -e sched:sched_process_hang
	for i in 1 2 3 4; do
		sleep 0.3
		m="latency-mark-$$-$i"
		echo "$m" >"$TRACEFS/instances/$ST_INST/trace_marker"
		while IFS= read -r -t 20 line <&4; do
			[[ $line == *"$m"* ]] && break
		done
		[[ $line == *"$m"* ]]
		kill -0 "$ST_PID"
	done
	kill -TERM "$ST_PID"
	stream_wait
	exec 4<&-
	[ "$ST_STATUS" -eq 0 ]
	[ ! -e "$TRACEFS/instances/$ST_INST" ]
}

@test "stream: | head -n 5 ends the stream with status 0 and removes the instance" {
	local head_pid load_pid
	mkfifo "$TM_TMP/fifo" "$TM_TMP/go"
	# head starts reading once the stream traces (opening a fifo waits for both ends)
	{ read -r _ <"$TM_TMP/go"; head -n 5 >"$TM_TMP/head"; } <"$TM_TMP/fifo" &
	head_pid=$!
	STREAM_OUT=$TM_TMP/fifo stream_start -e sched
	load_cpus &
	load_pid=$!
	echo go >"$TM_TMP/go"
	wait "$head_pid"
	# stream_start's 60 s timeout (SIGKILL, status 137) only catches a hang
	stream_wait
	wait "$load_pid"
	[ "$ST_STATUS" -eq 0 ]
	[ "$(wc -l <"$TM_TMP/head")" -eq 5 ]
	[ ! -e "$TRACEFS/instances/$ST_INST" ]
	# no error, no sanitizer report: only the summary (-v's lines among it: a
	# CPU that the load or a slow head made busy reads with read() for a while)
	run grep -v -e '^CPU ' -e '^ *[0-9]' -e 'instance tracemap-' -e 'mmap path' \
		-e 'read() path' -e 'kernel: entries' -e 'busy: read() instead of the mapping' \
		-e 'follow task names' "$ST_ERR"
	echo "$output"
	[ -z "$output" ]
}

@test "stream: | head ends the stream even when no event comes" {
	local reader
	mkfifo "$TM_TMP/fifo" "$TM_TMP/go"
	# the reader holds the pipe open until the stream traces, then closes it unread
	{ read -r _ <"$TM_TMP/go"; } <"$TM_TMP/fifo" &
	reader=$!
	STREAM_OUT=$TM_TMP/fifo stream_start -e sched:sched_process_hang
	echo go >"$TM_TMP/go"
	wait "$reader"
	stream_wait
	[ "$ST_STATUS" -eq 0 ]
	[ ! -e "$TRACEFS/instances/$ST_INST" ]
}

@test "stream: SIGINT and SIGTERM stop it with status 0, output flushed, instance removed" {
	local sig
	for sig in INT TERM; do
		stream_start -e sched:sched_process_exit
		echo "signal-mark-$sig" >"$TRACEFS/instances/$ST_INST/trace_marker"
		kill -"$sig" "$ST_PID"
		stream_wait
		[ "$ST_STATUS" -eq 0 ]
		[ ! -e "$TRACEFS/instances/$ST_INST" ]
		grep -q "signal-mark-$sig" "$TM_TMP/out"
		grep -q '^CPU  *events' "$ST_ERR"
	done
}

@test "stream: a task renamed mid-stream prints under its new name" {
	local pid
	stream_start -e sched:sched_process_hang
	# a shell writes markers until they print under its name, renames itself
	# (/proc/self/comm), then writes until they print under the new one
	bash -c 'for ((i = 0; i < 100; i++)); do
			echo "rename-before-$i" >"$1"
			grep -qE "bash-$$ +\[.*rename-before" "$2" && break
			sleep 0.1
		done
		echo tm-renamed >/proc/self/comm
		for ((i = 0; i < 100; i++)); do
			echo "rename-after-$i" >"$1"
			grep -qE "tm-renamed-$$ +\[.*rename-after" "$2" && break
			sleep 0.1
		done' _ "$TRACEFS/instances/$ST_INST/trace_marker" "$TM_TMP/out" &
	pid=$!
	wait "$pid"
	kill -INT "$ST_PID"
	stream_wait
	[ "$ST_STATUS" -eq 0 ]
	grep -qE "bash-$pid +\[.*rename-before-" "$TM_TMP/out"
	grep 'rename-after-' "$TM_TMP/out" | tail -n 1 | grep -qE "tm-renamed-$pid +\["
}

# The task column of every line of pid $1 from its first line matching $2 on.
task_after() {
	awk -v pid="$1" -v re="$2" '
		$0 ~ re { on = 1 }
		on && match($0, "^ *[^ ]*-" pid " +\\[") { t = substr($0, 1, RLENGTH)
			sub(/^ +/, "", t); sub(/ +\[$/, "", t); print t }' "$3" | sort -u
}

@test "stream: -e sched names follow exec, new tasks and renames as they happen" {
	run --separate-stderr timeout -s KILL 30 "$TRACEMAP" stream -q -e sched -F -c -- \
		sh -c '/bin/sleep 0.3; printf tm-renamed >/proc/self/comm; /bin/sleep 0.1'
	tm_status 0
	printf '%s\n' "$output" >"$TM_TMP/out"
	local sh_pid sleep_pid
	sh_pid=$(sed -n 's/.*sched_process_exec: *filename=[^ ]*\/sh pid=\([0-9]*\).*/\1/p' \
		"$TM_TMP/out" | head -n 1)
	sleep_pid=$(sed -n 's/.*sched_process_exec: *filename=\/bin\/sleep pid=\([0-9]*\).*/\1/p' \
		"$TM_TMP/out" | head -n 1)
	[ -n "$sh_pid" ] && [ -n "$sleep_pid" ] || { cat "$TM_TMP/out" >&2; return 1; }
	# from its exec on, the forked sleep is "sleep"; the shell is "sh" from its
	# exec on, then "tm-renamed" from the rename on
	[ "$(task_after "$sleep_pid" "sched_process_exec: *filename=/bin/sleep pid=$sleep_pid" "$TM_TMP/out")" = \
	  "sleep-$sleep_pid" ]
	grep -qE "^ *sh-$sh_pid +\[" "$TM_TMP/out"
	grep -qE "^ *tm-renamed-$sh_pid +\[" "$TM_TMP/out"
	! grep -qE "^ *tracemap-$sleep_pid +\[" "$TM_TMP/out" || return 1
}

@test "stream: -e raw_syscalls names COMMAND from its exec on, none unknown" {
	run --separate-stderr timeout -s KILL 30 "$TRACEMAP" stream -q -e raw_syscalls -F -- \
		sh -c 'echo $$ >"$1"; exec ls / >/dev/null' _ "$TM_TMP/pid"
	tm_status 0
	printf '%s\n' "$output" >"$TM_TMP/out"
	local pid
	pid=$(cat "$TM_TMP/pid")
	! grep -q '<\.\.\.>' "$TM_TMP/out" || return 1
	grep -qE "^ *ls-$pid +\[.* sys_enter:" "$TM_TMP/out"
	[ "$(task_after "$pid" "^ *ls-$pid " "$TM_TMP/out")" = "ls-$pid" ]
	# what ran before the exec carries the names it had then
	grep -qE "^ *sh-$pid +\[" "$TM_TMP/out"
	# the events that name tasks are not printed when not asked for
	! grep -qE 'sched_process_exec|task_rename|sched_process_fork' "$TM_TMP/out" || return 1
}

@test "stream: -q stops with COMMAND and prints no summary" {
	run --separate-stderr timeout -s KILL 30 "$TRACEMAP" stream -q -F \
		-e sched:sched_process_exec -- /bin/true
	tm_status 0
	[ -z "$stderr" ]
	[[ $output == *sched_process_exec:* ]]
}

@test "stream: the summary counts the events it printed, not the hidden name events" {
	local printed summed
	# COMMAND execs and forks: the name events stream enables for itself are read, not shown
	run --separate-stderr timeout -s KILL 30 "$TRACEMAP" stream -v -e sched:sched_switch -- \
		sh -c '/bin/true; /bin/true'
	tm_status 0
	printf '%s\n' "$output" >"$TM_TMP/out"
	printed=$(grep -c 'sched_switch:' "$TM_TMP/out")
	[ "$printed" -gt 0 ]
	[ "$(wc -l <"$TM_TMP/out")" -eq "$printed" ]
	summed=$(awk '/^CPU +events/ { on = 1; next } on && /^ *[0-9]+ / { e += $2 } END { print e + 0 }' \
		<<<"$stderr")
	[ "$summed" -eq "$printed" ]
	[[ $stderr == *"events read only to follow task names, not printed"* ]]
}

@test "stream: --json lines parse with jq and carry the event fields" {
	tm_need jq command -v jq
	run --separate-stderr timeout -s KILL 30 "$TRACEMAP" stream -q --json -F \
		-e sched:sched_process_exec -e sched:sched_process_exit -- /bin/true
	tm_status 0
	printf '%s\n' "$output" >"$TM_TMP/out"
	[ "$(wc -l <"$TM_TMP/out")" -ge 2 ]
	# every line is one object; exec of /bin/true is there with its filename field
	jq -e -s 'all(.[]; type == "object" and has("timestamp_ns") and has("cpu"))' \
		"$TM_TMP/out"
	jq -e -s 'any(.[]; .event == "sched_process_exec" and
		(.fields.filename | test("true")))' "$TM_TMP/out"
}

@test "stream: overrun loss shows as EVENTS DROPPED lines and matches the kernel's count" {
	local n=20000 seen overrun dropped lost
	stream_start -b 8 -e sched:sched_process_exit -f 'pid == 1'
	# a stopped reader cannot keep up: the 8 KiB buffer must overrun
	kill -STOP "$ST_PID"
	taskset -c 0 bash -c 'exec 3>"$1"; for ((i = 1; i <= $2; i++)); do
		echo "loss-$i" >&3; done' _ "$TRACEFS/instances/$ST_INST/trace_marker" "$n"
	kill -CONT "$ST_PID"
	sleep 0.5
	kill -INT "$ST_PID"
	stream_wait
	[ "$ST_STATUS" -eq 0 ]
	grep -o 'loss-[0-9]*$' "$TM_TMP/out" | sed 's/loss-//' >"$TM_TMP/seen"
	seen=$(wc -l <"$TM_TMP/seen")
	overrun=$(sed -n 's/.*cpu0 lost: overrun \([0-9]*\),.*/\1/p' "$ST_ERR")
	dropped=$(sed -n 's/^CPU:0 \[\([0-9]*\) EVENTS DROPPED\]$/\1/p' "$TM_TMP/out" |
		awk '{ s += $1 } END { print s + 0 }')
	echo "seen $seen, overrun $overrun, dropped $dropped" >&3
	[ -n "$overrun" ]
	[ "$overrun" -gt 0 ]
	# the DROPPED lines carry the kernel's own count
	[ "$dropped" -eq "$overrun" ]
	# what came through came once and in order, up to the last marker
	sort -n -u -c "$TM_TMP/seen"
	[ "$(tail -n 1 "$TM_TMP/seen")" -eq "$n" ]
	# The markers lost are the n - seen others. The kernel's overrun counts the
	# entries of each overwritten sub-buffer: exact in about half the runs, 5-11
	# over in the others (with or without the filter; 6.18, the reader stopped,
	# 16 KiB sub-buffers), 38 and 84 over in two runs on a loaded machine (of
	# about 19,800 lost), never under.
	lost=$((n - seen))
	[ "$overrun" -ge "$lost" ]
	[ "$overrun" -le $((lost + lost / 100 + 32)) ]
	grep -q 'WARNING: events were lost' "$ST_ERR"
}

# The time stamp of $1's line of the marker $2.
marker_ts() {
	sed -nE "s/^.* ([0-9]+\.[0-9]{6}): +print: +tracing_mark_write: $2\$/\1/p" "$1" | head -n 1
}

# The lines of $1 stamped after $2 and before $3 (the markers left out), time stamps
# masked, into $4. The worker writes each marker to the three instances in turn, so
# the window is the one inside all three pairs: an event between two instances'
# markers (a tick while it writes them) is in every output or in none. A tracepoint
# hit is written to each instance in turn too: an interrupt in between may put its
# events into one output and not the other, or in another order. So $4 keeps the
# events the worker makes in task context (3.4 text: every event outside interrupts).
between_syncs() {
	awk -v from="$2" -v to="$3" 'match($0, / [0-9]+\.[0-9]+: /) &&
		!/tracing_mark_write: tm-sync-(start|end)$/ {
			ts = substr($0, RSTART + 1, RLENGTH - 3) + 0
			if (ts > from + 0 && ts < to + 0)
				print
		}' "$1" | sed -E 's/^(.*) +[0-9]+\.[0-9]{6}: /\1 TIME: /' >"$4.all"
	if grep -qE '\[000\] [.dX][.N]' "$4.all"; then
		grep -vE '\[000\] ..[hsH]' "$4.all" >"$4" || true
	else
		grep -E ' (sched_switch|sched_process_fork|sched_process_wait|sched_wakeup_new|print): ' \
			"$4.all" >"$4" || true
	fi
}

@test "stream: its lines equal report's lines of the same events (3.4 text and --compat=3.1)" {
	local wpid v inst31 pid31 bg31 from to rec_file=$TM_TMP/r.dat
	mkfifo "$TM_TMP/go"
	# one task, pinned to CPU 0, seen by two streams and a recording at once
	taskset -c 0 bash -c 'printf tm-worker > /proc/self/comm; read -r _ < "$1"
		sleep 1.5	# switched out and back: saved_cmdlines has it, streams reload it
		for m in "${@:2}"; do echo tm-sync-start > "$m"; done
		for ((i = 0; i < 20; i++)); do /bin/true; done
		for m in "${@:2}"; do echo tm-sync-end > "$m"; done' _ "$TM_TMP/go" \
		"$TM_TMP/m1" "$TM_TMP/m2" "$TM_TMP/m3" &
	wpid=$!
	STREAM_OUT=$TM_TMP/s31 stream_start --compat=3.1 -P "$wpid" -e sched
	inst31=$ST_INST pid31=$ST_PID bg31=$ST_BG
	STREAM_OUT=$TM_TMP/s34 stream_start -P "$wpid" -e sched
	tm_record_bg 60 -P "$wpid" -e sched -o "$rec_file"
	ln -s "$TRACEFS/instances/$inst31/trace_marker" "$TM_TMP/m1"
	ln -s "$TRACEFS/instances/$ST_INST/trace_marker" "$TM_TMP/m2"
	ln -s "$TRACEFS/instances/$REC_INST/trace_marker" "$TM_TMP/m3"
	echo go > "$TM_TMP/go"
	wait "$wpid"
	sleep 0.3
	kill -INT "$pid31" "$ST_PID" "$REC_PID"
	wait "$bg31"
	stream_wait
	[ "$ST_STATUS" -eq 0 ]
	wait "$REC_BG"
	"$TRACEMAP" report -i "$rec_file" >"$TM_TMP/r34"
	"$TRACEMAP" report --compat=3.1 -i "$rec_file" >"$TM_TMP/r31"
	from=$(for f in s31 s34 r34; do marker_ts "$TM_TMP/$f" tm-sync-start; done | sort -n |
	       tail -n 1)
	to=$(for f in s31 s34 r34; do marker_ts "$TM_TMP/$f" tm-sync-end; done | sort -n | head -n 1)
	[ -n "$from" ]
	[ -n "$to" ]
	for v in 34 31; do
		between_syncs "$TM_TMP/s$v" "$from" "$to" "$TM_TMP/stream$v"
		between_syncs "$TM_TMP/r$v" "$from" "$to" "$TM_TMP/report$v"
		# the worker's forks, waits and switches between the markers
		[ "$(grep -c "tm-worker-$wpid .* sched_process_fork: " "$TM_TMP/report$v")" -eq 20 ]
		# the worker's own lines whole; the lines of its short-lived children from the
		# CPU on (stream names a new task only once saved_cmdlines has it)
		diff -u <(grep "^ *tm-worker-$wpid " "$TM_TMP/report$v") \
			<(grep "^ *tm-worker-$wpid " "$TM_TMP/stream$v")
		diff -u <(sed 's/^.* \[000\]/[000]/' "$TM_TMP/report$v") \
			<(sed 's/^.* \[000\]/[000]/' "$TM_TMP/stream$v")
	done
	# 3.4's latency column; 3.1.6's has none
	grep -qE "tm-worker-$wpid +\[000\] [.dX][.N][.hsH][.0-9a-f][.0-9a-f] +TIME: " \
		"$TM_TMP/stream34"
	! grep -qE '\[000\] [.dX][.N]' "$TM_TMP/stream31" || return 1
}
