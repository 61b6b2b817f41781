# SPDX-License-Identifier: GPL-2.0-only
# tty.bash - a real terminal for the bats files: a tmux session of a set size on a
# private server, its screen, every byte written to it, and the check that each
# status line drawn there is whole fields that fit the width (status.c).
# A file that loads it calls tty_setup in setup and tty_teardown in teardown.

tty_setup() {
	tm_need "tmux (make deps installs it)" command -v tmux
	SOCK=tracemap-tty-$$
}

# The server killed, and its commands waited for (bounded: 30 s): a recorder it hung
# up on cleans up its instance before the test's end checks the kernel's state.
tty_teardown() {
	local sid
	sid=$(tmux -L "$SOCK" display-message -p -t tm '#{pane_pid}' 2>/dev/null)
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	[ -n "$sid" ] || return 0
	tm_wait 30 "the terminal's commands (session $sid) to end" tty_session_gone "$sid"
}

tty_session_gone() {
	! pgrep -s "$1" >/dev/null
}

pane() {
	tmux -L "$SOCK" capture-pane -p -t tm
}

# The last line on the screen matching $1, in LINE; false when there is none.
pane_line() {
	LINE=$(pane | grep -E -- "$1" | tail -n 1)
	[ -n "$LINE" ]
}

# wait_pane REGEX: poll the screen until a line matches (bounded: 30 s), then print it.
wait_pane() {
	tm_wait 30 "a line matching '$1' on the screen" pane_line "$1" ||
		{ pane >&2; return 1; }
	printf '%s\n' "$LINE"
}

# in_terminal CMD [COLS [ROWS]]: run the shell command line CMD in a fresh tmux
# terminal (200x50 unless told); it prints EXIT=<status> at its end. Every byte
# written to the terminal is kept in $TM_TMP/raw (the command starts only once that
# capture runs: tmux's wait-for blocks until the test signals, and ends with the
# server at the latest).
in_terminal() {
	tmux -L "$SOCK" new-session -d -s tm -x "${2:-200}" -y "${3:-50}" \
		"tmux -L '$SOCK' wait-for tm-go; $1; echo EXIT=\$?; sleep 600"
	tmux -L "$SOCK" pipe-pane -t tm "cat >>'$TM_TMP/raw'"
	tmux -L "$SOCK" wait-for -S tm-go
}

# Wait (bounded: 30 s) until the raw capture has caught up with the command's end.
wait_raw_exit() {
	tm_wait 30 "EXIT= in the terminal's capture" grep -qs 'EXIT=' "$TM_TMP/raw"
}

# status_unfit SUB COLS <LINES: print each status line of SUB (as tm_progress_lines
# gives them) that is wider than COLS - 1 columns once its attributes are out, or is
# not whole fields joined by two spaces, each at most once and in the line's order;
# exit 1 if there was one. The loss field is checked where the caller asks for it.
status_unfit() {
	perl -e '
		my ($sub, $cols) = @ARGV;
		my @fields = (qr/\Q$sub\E [0-9]+\.[0-9]s/, qr/[0-9]+%/, qr/[0-9.]+[kMG]? ev\/s/,
			qr/[0-9.]+[kMG]? events/,
			qr/[0-9.]+ MB read(?: -> [0-9.]+ MB(?: \([0-9.]+x\))?)?/,
			qr/buffer [0-9]+%/, qr/[0-9hms]+ left/, qr/lost 0|LOST [0-9]+/);
		my $bad = 0;
		while (my $line = <STDIN>) {
			chomp $line;
			$line =~ s/\e\[[0-9;]*m//g;
			my ($next, $ok) = (0, length($line) <= $cols - 1);
			for my $f (split /  /, $line) {
				my $i = $next;
				$i++ while $i < @fields && $f !~ /^(?:$fields[$i])$/;
				if ($i == @fields) { $ok = 0; last }
				$next = $i + 1;
			}
			next if $ok;
			print "not whole fields in $cols columns: [$line]\n";
			$bad = 1;
		}
		exit $bad;
	' "$1" "$2"
}
