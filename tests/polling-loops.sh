#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# polling-loops.sh - fail when a test could wait without a bound: a `while` or
# `until` loop anywhere in the shell code of tests/ (the bats files, the .bash
# and .sh files, tests/fuzz/*.sh, and the code in their strings: a `sh -c '...'`,
# a tmux pane's command) is one, and so is a `for ((...; ; ...))` without a
# condition. Not counted:
#   - tm_wait in tests/helpers.bash, the one polling loop: a wait is
#     `tm_wait SECONDS WHAT CMD...`, which fails naming WHAT after SECONDS;
#   - `while read ...` loops, which end with their input;
#   - `while (` and `until (` (not `((`): the loops of the scripts' awk programs.
# A loop counts where its keyword starts a command: at the start of a line,
# after ; & | ( { ! or `$(`, after do, then or else, or at the start of a string.
#
# Usage: tests/polling-loops.sh   (reads the tests/ beside it, from anywhere)
# Exit 0 and one summary line, or exit 1 and FILE:LINE: TEXT for each loop.
set -u -o pipefail
shopt -s nullglob
cd "$(dirname "$0")/.." || exit 2

files=(tests/*.bats tests/*.bash tests/*.sh tests/fuzz/*.sh)
[ "${#files[@]}" -gt 0 ] || { echo "polling-loops.sh: no test files under $PWD/tests" >&2; exit 2; }

awk -v nfiles="${#files[@]}" '
BEGIN {
	# a loop keyword where a command starts (\047 is the single quote)
	loop = "(^|[;&|({!\"`\047]|[$][(]|(^|[^A-Za-z0-9_])(do|then|else))[ \t]*" \
		"(while|until)([ \t(]|$)"
	reads = "^[ \t]+([A-Za-z_][A-Za-z0-9_]*=[^ \t]*[ \t]+)*read([ \t]|$)"
	endless_for = "(^|[^A-Za-z0-9_])for[ \t]*[(][(][^;]*;[ \t]*;"
	found = 0
}
FNR == 1 { in_wait = 0 }
/^tm_wait[(][)]/ { in_wait = 1 }
in_wait { if ($0 ~ /^}/) in_wait = 0; next }
/^[ \t]*#/ || /^@test / { next }
{
	text = $0
	bad = text ~ endless_for
	while (!bad && match(text, loop)) {
		# what follows the keyword: an awk condition, a read, or a wait
		text = substr(text, RSTART + RLENGTH - 1)
		if (text !~ /^[ \t]*[(][^(]/ && text !~ reads)
			bad = 1
	}
	if (bad) {
		print FILENAME ":" FNR ": " $0
		found++
	}
}
END {
	if (found) {
		print found " loop(s) with no bound: wait with tm_wait SECONDS WHAT CMD..." \
			" (tests/helpers.bash)"
		exit 1
	}
	print "polling loops: " nfiles " files, every wait bounded"
}' "${files[@]}"
