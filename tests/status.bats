#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# status.bats - the live status line on a terminal (in tmux): shown and updated
# while recording, erased at Ctrl-C before the summary; never in logs or pipes.

load helpers
load tty
bats_require_minimum_version 1.5.0

setup() {
	tm_kernel_setup
	tty_setup
}

teardown() {
	tty_teardown
	[ -n "${LOAD:-}" ] && { kill "$LOAD" 2>/dev/null || true; wait "$LOAD" 2>/dev/null || true; }
	tm_kernel_teardown
}

# Whether the screen's status line shows another elapsed time than $1; sets LINE.
redrawn() {
	pane_line "$STATUS_RE" && [ "${LINE%%s *}" != "${1%%s *}" ]
}

# The elapsed times of every status line drawn (SUB: record or stream), in order.
drawn_elapsed() {
	tr '\r' '\n' <"$TM_TMP/raw" | sed -n "s/^.*$1 \([0-9]*\.[0-9]\)s  .* ev\/s  .*/\1/p"
}

STATUS_RE='^record [0-9]+\.[0-9]s  [0-9.]+[kMG]? ev/s  [0-9.]+[kMG]? events  [0-9.]+ MB read -> [0-9.]+ MB \([0-9.]+x\)  buffer [0-9]+%  (lost 0|LOST [0-9]+)$'

@test "record on a terminal: a live status line that updates and is gone at Ctrl-C" {
	# a load: a task that forks all the time (until killed, or 100000 forks)
	(for ((i = 0; i < 100000; i++)); do /bin/true; done) 3>&- &
	LOAD=$!
	in_terminal "'$TRACEMAP' record -e sched -e sched_process_exec -o '$TM_TMP/s.dat'"
	local first
	first=$(wait_pane "$STATUS_RE")
	# the line is redrawn in place: a later screen shows another elapsed time
	tm_wait 30 "the status line to update from: $first" redrawn "$first"
	# one status line on the screen, not a scroll of them
	[ "$(pane | grep -cE 'ev/s')" -eq 1 ] || { pane >&2; return 1; }
	tmux -L "$SOCK" send-keys -t tm C-c
	wait_pane '^EXIT=' >/dev/null
	pane >"$TM_TMP/screen"
	grep -qx 'EXIT=0' "$TM_TMP/screen" || { cat "$TM_TMP/screen" >&2; return 1; }
	# the summary follows; the status line was erased, not left above it
	grep -qE '^CPU +events +pages +raw MB +file MB +lost$' "$TM_TMP/screen"
	! grep -q 'ev/s' "$TM_TMP/screen" || { cat "$TM_TMP/screen" >&2; return 1; }
	# at most 4 redraws a second: 0.25 s apart at least, 0.2 s in the rounded times
	wait_raw_exit
	drawn_elapsed record >"$TM_TMP/times"
	[ "$(grep -c . "$TM_TMP/times")" -ge 2 ] || { cat -v "$TM_TMP/raw" >&2; return 1; }
	awk 'NR > 1 && $1 - prev < 0.15 { print "redrawn " prev " then " $1; bad = 1 }
	     { prev = $1 } END { exit bad }' "$TM_TMP/times"
	"$TRACEMAP" report "$TM_TMP/s.dat" | grep -q 'sched_process_exec:'
}

@test "stream on a terminal with stdout to a file: status on stderr, events in the file" {
	in_terminal "'$TRACEMAP' stream -e sched -e sched_process_exec >'$TM_TMP/events.txt'"
	wait_pane '^stream [0-9]+\.[0-9]s  [0-9.]+[kMG]? ev/s  .* MB read  buffer [0-9]+%  (lost 0|LOST [0-9]+)$' >/dev/null
	tmux -L "$SOCK" send-keys -t tm C-c
	wait_pane '^EXIT=' >/dev/null
	! pane | grep -q 'ev/s' || return 1
	! grep -q 'ev/s' "$TM_TMP/events.txt" || return 1
	grep -q 'sched_switch:' "$TM_TMP/events.txt"
}

@test "on a terminal: no status line from stream printing there, nor from record -q" {
	in_terminal "'$TRACEMAP' stream -e sched:sched_switch --duration 0.5; '$TRACEMAP' record -q -e sched -o '$TM_TMP/q.dat' --duration 0.5"
	wait_pane '^EXIT=' >/dev/null
	pane | grep -qx 'EXIT=0'
	wait_raw_exit
	# stream's events reached the terminal, and no status line ever did
	grep -q 'sched_switch:' "$TM_TMP/raw"
	! grep -q 'ev/s' "$TM_TMP/raw" || { cat -v "$TM_TMP/raw" | grep 'ev/s' >&2; return 1; }
	[ -s "$TM_TMP/q.dat" ]
}

@test "record and stream without a terminal: no status line, no control characters" {
	run --separate-stderr "$TRACEMAP" record -e sched -o "$TM_TMP/n.dat" --duration 1
	tm_status 0
	[[ $stderr == *"CPU "*"events"* ]]
	! grep -q $'[\r\033]' <<<"$stderr" || return 1
	! grep -q 'ev/s' <<<"$stderr" || return 1
	run --separate-stderr "$TRACEMAP" stream -e sched --duration 1
	tm_status 0
	! grep -q $'[\r\033]' <<<"$stderr" || return 1
	! grep -q 'ev/s' <<<"$stderr" || return 1
}

@test "record on a terminal: before a page is read, events and fill instead of 0.0 MB read" {
	tm_need_subbuf_size
	# exec events only, in 64 KiB pages: a page holds over a thousand, so on all but
	# the busiest machine no reader takes one for seconds (and no partial page goes
	# out either, with --flush-interval 0)
	in_terminal "'$TRACEMAP' record --flush-interval 0 --subbuf-size 64 -e sched:sched_process_exec -o '$TM_TMP/e.dat'"
	wait_pane '^record [0-9]+\.[0-9]s  ' >/dev/null
	local i
	for ((i = 0; i < 5; i++)); do /bin/true; done
	# the events stored in the buffer count: not 0 while no page was read
	wait_pane '^record [0-9]+\.[0-9]s  [0-9.]+[kMG]? ev/s  [1-9][0-9]* events  buffer [0-9]+%  lost 0$' >/dev/null
	tmux -L "$SOCK" send-keys -t tm C-c
	wait_pane '^EXIT=' >/dev/null
	pane | grep -qx 'EXIT=0'
	wait_raw_exit
	# no line ever said that nothing was read nor written
	! grep -aF "0.0 MB read -> 0.0 MB (0.0x)" "$TM_TMP/raw" || { cat -v "$TM_TMP/raw" >&2; return 1; }
	"$TRACEMAP" report "$TM_TMP/e.dat" | grep -q 'sched_process_exec:.*filename=/bin/true'
}

# capture_at SUB CMD COLS REGEX: CMD (record or stream, SUB) in a terminal COLS wide,
# stopped by Ctrl-C once a line matching REGEX is on the screen; every line drawn must
# be whole fields within COLS (status_unfit), the loss count on each.
capture_at() {
	local sub=$1 cmd=$2 cols=$3 want=$4
	rm -f "$TM_TMP/raw"
	in_terminal "$cmd" "$cols" 24
	wait_pane "$want" >/dev/null
	pane | grep -v '^$' >"$TM_TMP/screen"
	# one line on the screen: a line wider than the terminal would wrap onto a second
	[ "$(grep -c . "$TM_TMP/screen")" -eq 1 ] || { cat "$TM_TMP/screen" >&2; return 1; }
	status_unfit "$sub" "$cols" <"$TM_TMP/screen" >&2 || return 1
	tmux -L "$SOCK" send-keys -t tm C-c
	wait_pane '^EXIT=' >/dev/null
	pane | grep -qx 'EXIT=0' || { pane >&2; return 1; }
	wait_raw_exit
	tty_teardown
	# the terminal echoes the Ctrl-C as ^C after the last line drawn
	tm_progress_lines "$TM_TMP/raw" "$sub" | sed 's/\^C$//' >"$TM_TMP/lines"
	[ -s "$TM_TMP/lines" ] || { cat -v "$TM_TMP/raw" >&2; return 1; }
	status_unfit "$sub" "$cols" <"$TM_TMP/lines" >&2 || return 1
	# the loss count is never the field dropped
	! grep -vE '  (lost 0|LOST [0-9]+)$' "$TM_TMP/lines" >&2 || return 1
}

# Issue 44: 20 columns were kept for the loss count, so the fill was cut mid-word
# ("stream ... 1.1 MB read  buffer   lost 0", "record ... -> 1.6   LOST 2041").
@test "record at 60 columns, stream at 80: whole fields that fit, the loss count on each line" {
	(for ((i = 0; i < 100000; i++)); do /bin/true; done) 3>&- &
	LOAD=$!
	# until a page is read the line fits in 60 columns; then the bytes, the rate and
	# the compression make it too wide: those three rank lowest and go
	capture_at record "'$TRACEMAP' record -e sched -e sched_process_exec -o '$TM_TMP/w.dat'" \
		60 '^record [0-9.]+s  [0-9.]+[kMG]? events  buffer [0-9]+%  '
	# what 60 columns keep: the fill (it ranks high), never the compression
	grep -qE '^record [0-9.]+s  [0-9.]+[kMG]? events  buffer [0-9]+%  (lost 0|LOST [0-9]+)$' \
		"$TM_TMP/lines" || { cat "$TM_TMP/lines" >&2; return 1; }
	! grep -E 'MB|x\)' "$TM_TMP/lines" >&2 || return 1
	"$TRACEMAP" report "$TM_TMP/w.dat" | grep -q 'sched_process_exec:'
	capture_at stream "'$TRACEMAP' stream -e sched -e sched_process_exec >'$TM_TMP/ev.txt'" \
		80 '^stream .* MB read  '
	# 80 columns hold all of stream's line: nothing dropped, nothing cut
	grep -qE '^stream [0-9.]+s  [0-9.]+[kMG]? ev/s  [0-9.]+[kMG]? events  [0-9.]+ MB read  buffer [0-9]+%  (lost 0|LOST [0-9]+)$' \
		"$TM_TMP/lines" || { cat "$TM_TMP/lines" >&2; return 1; }
	grep -q 'sched_process_exec:' "$TM_TMP/ev.txt"
}
