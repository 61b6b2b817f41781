# SPDX-License-Identifier: GPL-2.0-only
# long.bash - what the long-recording, extract and named-instance tests share:
# a recorder in a named instance, numbered marker lines, report checks.

# A per-test instance name nobody else uses.
long_instance() {
	LONG_INST=tm-test-$$-${BATS_TEST_NUMBER:-0}
	LONG_DIR=$TRACEFS/instances/$LONG_INST
}

# Remove the test's own instance if a failure left it. The recorder itself is
# killed: killing its timeout wrapper alone left it running, orphaned, and bats
# waited for it until the file's bound.
long_cleanup() {
	if [ -n "${LONG_BG:-}" ] && kill -0 "$LONG_BG" 2>/dev/null; then
		# long_start may have failed before it learnt the pid
		LONG_PID=${LONG_PID:-$(pgrep -P "$LONG_BG")}
		[ -n "$LONG_PID" ] && kill -KILL "$LONG_PID" 2>/dev/null
		kill -KILL "$LONG_BG" 2>/dev/null
		wait "$LONG_BG" 2>/dev/null
	fi
	[ -n "${LONG_DIR:-}" ] && [ -d "$LONG_DIR" ] && rmdir "$LONG_DIR" 2>/dev/null
	return 0
}

# Whether the recorder traces in the instance. A new instance has tracing_on 1
# from its mkdir until tracemap turns it off to set it up (sub-buffer size,
# buffer size: the kernel refuses a marker written then, EBADF): the recorder's
# threads in set_event_notrace_pid come only once the setup is done, right
# before tracing goes on.
long_traces() {
	[ -n "$(cat "$LONG_DIR/set_event_notrace_pid" 2>/dev/null)" ] &&
		[ "$(cat "$LONG_DIR/tracing_on" 2>/dev/null)" = 1 ]
}

# long_start LIMIT ARGS...: `tracemap record -B $LONG_INST ARGS` in the background
# (stdout rec.out, stderr rec.err), bounded by LIMIT seconds, once it traces. Sets
# LONG_BG (the timeout wrapper) and LONG_PID (tracemap itself, for signals).
long_start() {
	local limit=$1
	shift
	timeout -s KILL "$limit" "$TRACEMAP" record -B "$LONG_INST" "$@" \
		>"$TM_TMP/rec.out" 2>"$TM_TMP/rec.err" &
	LONG_BG=$!
	tm_wait 30 "instance $LONG_INST to trace" long_traces ||
		{ cat "$TM_TMP/rec.err" >&2; return 1; }
	LONG_PID=$(pgrep -P "$LONG_BG")
	[ -n "$LONG_PID" ] || { cat "$TM_TMP/rec.err" >&2; return 1; }
}

# Wait for the recorder to end; LONG_STATUS is its exit status.
long_wait() {
	LONG_STATUS=0
	wait "$LONG_BG" || LONG_STATUS=$?
	LONG_BG=
}

# Whether rec.err has a line matching $1, or the recorder has ended.
long_line_or_end() {
	grep -q -- "$1" "$TM_TMP/rec.err" || ! kill -0 "$LONG_BG" 2>/dev/null
}

# Wait (at most 60 s: only a hang fails) until rec.err has a line matching $1.
long_wait_line() {
	tm_wait 60 "a line '$1' from the recorder" long_line_or_end "$1" &&
		grep -q -- "$1" "$TM_TMP/rec.err" ||
		{ echo "no line '$1' in:" >&2; cat "$TM_TMP/rec.err" >&2; return 1; }
}

# marks FROM TO: write "mark N" lines to the instance's trace_marker (one open, a write each).
# In a shell of its own: bats's DEBUG trap, which every command of a test runs and
# its subshells inherit, made 20,000 writes take 6 s here and over 180 s in a guest.
marks() {
	bash -c 'exec 3>"$1"; for ((i = $2; i <= $3; i++)); do echo "mark $i" >&3; done' \
		_ "$LONG_DIR/trace_marker" "$1" "$2"
}

# marks_on CPU FROM TO: marks FROM TO written from CPU only.
marks_on() {
	taskset -c "$1" bash -c 'exec 3>"$1"; for ((i = $2; i <= $3; i++)); do echo "mark $i" >&3; done' \
		_ "$LONG_DIR/trace_marker" "$2" "$3"
}

# Two flight dumps of one 8M window (not full): markers 1-50, SIGUSR2 (the first
# dump, f.0001.dat), markers 51-100, SIGINT (the stop's, f.0002.dat); fails unless
# the recorder exits 0.
flight_two_dumps() {
	long_start 60 --flight 8M -e sched:sched_switch -o "$TM_TMP/f.dat"
	marks 1 50
	kill -USR2 "$LONG_PID"
	long_wait_line "f.0001.dat: "
	marks 51 100
	kill -INT "$LONG_PID"
	long_wait
	[ "$LONG_STATUS" -eq 0 ] || { cat "$TM_TMP/rec.err" >&2; return 1; }
}

# The numbers of the "mark N" lines of the last same_report's text, one a line, sorted.
marks_reported() {
	sed -n 's/.*tracing_mark_write: mark \([0-9][0-9]*\).*/\1/p' "$TM_TMP/tc.txt" | sort -n
}

# trace-cmd 3.1.6 reads file $1 without a word on stderr, and tracemap report
# prints exactly its text.
same_report() {
	local f=$1
	trace-cmd report -i "$f" >"$TM_TMP/tc.txt" 2>"$TM_TMP/tc.err" ||
		{ cat "$TM_TMP/tc.err" >&2; return 1; }
	[ ! -s "$TM_TMP/tc.err" ] || { cat "$TM_TMP/tc.err" >&2; return 1; }
	# shellcheck disable=SC2086
	"$TRACEMAP" report "${TM_REPORT_31[@]}" "$f" >"$TM_TMP/tm.txt" || return 1
	cmp -s "$TM_TMP/tc.txt" "$TM_TMP/tm.txt" ||
		{ diff "$TM_TMP/tc.txt" "$TM_TMP/tm.txt" | head -5 >&2; return 1; }
	grep -q '^ *.*\[00[0-9]\] ' "$TM_TMP/tc.txt" || {
		echo "$f: no event in trace-cmd's text; the recorder said:" >&2
		cat "$TM_TMP/rec.err" >&2 2>/dev/null
		trace-cmd report --stat -i "$f" 2>&1 | grep -E '^(CPU|read events|dropped)' >&2
		return 1
	}
}

# Every setting of instance dir $1 a recorder could change, one line each.
inst_state() {
	local d=$1 f
	for f in tracing_on buffer_size_kb buffer_subbuf_size_kb trace_clock buffer_percent \
		 tracing_cpumask set_event set_event_pid set_event_notrace_pid \
		 events/ftrace/print/trigger; do
		printf '%s=%s\n' "$f" "$(tr '\n' ' ' <"$d/$f")"
	done
	for f in "$d"/options/* "$d"/events/sched/*/filter "$d"/events/sched/*/trigger \
		 "$d"/events/sched/*/enable; do
		printf '%s=%s\n' "${f#"$d"/}" "$(tr '\n' ' ' <"$f")"
	done
}
