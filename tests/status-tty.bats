#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# status-tty.bats - the progress line of convert and report on a real terminal of
# 80 and 60 columns (tmux): never wider than the terminal, never a field cut in the
# middle (issue 44: "... 0s lef"), the least important fields dropped first. No kernel;
# record's and stream's line at those widths is in status.bats.

load helpers
load tty

setup_file() {
	# 4000 copies of sched-v6.dat: seconds of work, so several redraws
	BIG=$BATS_FILE_TMPDIR/big.dat
	export BIG
	[ -s "$BIG" ] || tm_big_file "$BIG" 4000
}

setup() {
	TM_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tracemap-status-tty.XXXXXX")
	tty_setup
}

teardown() {
	tty_teardown
	[ -n "${TM_TMP:-}" ] && rm -rf "$TM_TMP"
}

# progress_at SUB CMD COLS: CMD in a terminal COLS wide; its screen while SUB's line
# is up has that one line and nothing else (a wrapped line would leave a second), and
# every line drawn is whole fields within COLS (status_unfit). The lines in
# $TM_TMP/lines.
progress_at() {
	local sub=$1 cmd=$2 cols=$3
	rm -f "$TM_TMP/raw"
	in_terminal "$cmd" "$cols" 24
	wait_pane "^$sub [0-9]+\.[0-9]s  " >/dev/null
	pane | grep -v '^$' >"$TM_TMP/screen"
	# the line may be drawn anew between the two captures: the command ends later
	[ "$(grep -c . "$TM_TMP/screen")" -eq 1 ] || grep -q '^EXIT=' "$TM_TMP/screen" ||
		{ cat "$TM_TMP/screen" >&2; return 1; }
	grep "^$sub " "$TM_TMP/screen" | status_unfit "$sub" "$cols" >&2 || return 1
	wait_pane '^EXIT=' >/dev/null
	pane | grep -qx 'EXIT=0' || { pane >&2; return 1; }
	wait_raw_exit
	tty_teardown
	tm_progress_lines "$TM_TMP/raw" "$sub" >"$TM_TMP/lines"
	[ "$(grep -c . "$TM_TMP/lines")" -ge 2 ] || { cat -v "$TM_TMP/raw" >&2; return 1; }
	status_unfit "$sub" "$cols" <"$TM_TMP/lines" >&2
}

@test "convert on 80 and 60 columns: the progress line fits, whole fields, time left kept" {
	local cols
	for cols in 80 60; do
		progress_at convert "'$TRACEMAP' convert '$BIG' -o '$TM_TMP/big.pftrace'" "$cols" ||
			{ echo "at $cols columns" >&2; return 1; }
		# the time left and the percent rank above the rate and the bytes: kept
		grep -qE '^convert [0-9.]+s  [0-9]+%  .*[0-9hms]+ left$' "$TM_TMP/lines" ||
			{ cat "$TM_TMP/lines" >&2; return 1; }
	done
	# at 60 the line is too narrow for all: the rate went, the events stayed
	! grep -q 'ev/s' "$TM_TMP/lines" || { cat "$TM_TMP/lines" >&2; return 1; }
	grep -q ' events  ' "$TM_TMP/lines"
}

@test "report on 80 and 60 columns, its events to a file: the progress line fits" {
	local cols
	for cols in 80 60; do
		progress_at report "'$TRACEMAP' report '$BIG' >'$TM_TMP/out'" "$cols" ||
			{ echo "at $cols columns" >&2; return 1; }
		grep -q ' left$' "$TM_TMP/lines" || { cat "$TM_TMP/lines" >&2; return 1; }
	done
}

@test "status_unfit: a cut field, a wide line, fields out of order are each found" {
	local ok='convert 1.2s  45%  1.23M events  74.2 MB read -> 12.3 MB  15s left'
	status_unfit convert 80 <<<"$ok"
	run status_unfit convert 80 <<<"convert 1.2s  45%  1.23M events  74.2 MB read -> 12.3 MB  15s lef"
	[ "$status" -eq 1 ]
	run status_unfit convert 60 <<<"$ok"
	[ "$status" -eq 1 ]
	run status_unfit convert 80 <<<"convert 1.2s  1.23M events  45%"
	[ "$status" -eq 1 ]
	run status_unfit record 80 <<<"record 60.2s  60.6 MB read -> 1.6   LOST 2041"
	[ "$status" -eq 1 ]
	status_unfit record 80 <<<$'record 60.2s  60.6 MB read -> 1.6 MB (37.9x)  \e[1;7mLOST 2041\e[0m'
}
