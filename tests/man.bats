#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# man.bats - the man pages: clean roff, one page per subcommand, every --help option documented.

load helpers

# Subcommand names from the "Subcommands:" block of `tracemap --help` (without "help").
subcommands() {
	"$TRACEMAP" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' |
		grep -vx help
}

# Every option name (-x, --long) in the option column of `tracemap ARGS --help`.
help_options() {
	"$TRACEMAP" "$@" --help | awk '
		match($0, /^ +-/) && RLENGTH <= 7 {
			col = $0
			sub(/^ +/, "", col)
			i = index(col, "  ")
			if (i) col = substr(col, 1, i - 1)
			n = split(col, part, /, /)
			for (k = 1; k <= n; k++) {
				p = part[k]
				sub(/[[= ].*$/, "", p)
				print p
			}
		}'
}

# The roff source with \- as -, and font and zero-width escapes removed.
man_text() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f([A-Z][A-Z]//g' -e 's/\\f\[[^]]*\]//g' \
	    -e 's/\\&//g' -e 's/\\c$//' "$1"
}

# The options of `tracemap ARGS --help` that page $1 does not mention, one per line.
missing_options() {
	local page=$1 opt re text
	shift
	text=$(man_text "$page")
	for opt in $(help_options "$@"); do
		re=$(printf '%s' "$opt" | sed 's/[]?.*+[]/\\&/g')
		grep -qE -- "(^|[^[:alnum:]-])$re([^[:alnum:]-]|\$)" <<< "$text" || echo "$opt"
	done
}

@test "man: every page renders with groff -man -ww without a warning" {
	local page out bad=""
	for page in "$TM_ROOT"/man/*.1; do
		out=$(groff -man -ww -z "$page" 2>&1) || bad+=" ${page##*/}(failed)"
		[ -z "$out" ] || { bad+=" ${page##*/}"; echo "$out" >&2; }
	done
	[ -n "$(ls "$TM_ROOT"/man/*.1)" ]
	[ -z "$bad" ] || { echo "groff warnings in:$bad" >&2; return 1; }
}

@test "man: tracemap.1 names every subcommand and documents the global options" {
	local page=$TM_ROOT/man/tracemap.1 sub missing
	[ -f "$page" ]
	for sub in $(subcommands); do
		grep -q "^\.B $sub\$" "$page" || { echo "tracemap.1 lacks subcommand $sub" >&2; return 1; }
		man_text "$page" | grep -q "tracemap-$sub (1)" ||
			{ echo "tracemap.1 does not refer to tracemap-$sub(1)" >&2; return 1; }
	done
	missing=$(missing_options "$page")
	[ -z "$missing" ] || { echo "tracemap.1 lacks:" $missing >&2; return 1; }
}

# One check per subcommand listed by `tracemap --help`: a subcommand whose page is
# missing or incomplete is named with what it lacks, the others still pass.
@test "man: every subcommand has tracemap-SUB.1 documenting each option of its --help" {
	local sub page missing bad="" n=0
	for sub in $(subcommands); do
		n=$((n + 1))
		page=$TM_ROOT/man/tracemap-$sub.1
		if [ ! -f "$page" ]; then
			bad+=$'\n'"  $sub: no man/tracemap-$sub.1"
			continue
		fi
		if ! "$TRACEMAP" "$sub" --help > /dev/null 2>&1; then
			bad+=$'\n'"  $sub: '$sub --help' fails"
			continue
		fi
		missing=$(missing_options "$page" "$sub" | tr '\n' ' ')
		[ -z "$missing" ] || bad+=$'\n'"  $sub: tracemap-$sub.1 lacks $missing"
	done
	[ "$n" -gt 0 ]
	[ -z "$bad" ] || { echo "man pages incomplete:$bad" >&2; return 1; }
}

@test "man: the option check catches an undocumented option" {
	# guard for the check itself: a page without the options must be reported
	printf '.TH X 1\n.SH NAME\nx \\- y\n' > "$BATS_TEST_TMPDIR/empty.1"
	run missing_options "$BATS_TEST_TMPDIR/empty.1" list
	[[ $output == *"--events"* && $output == *"-F"* && $output == *"-?"* ]]
	run missing_options "$TM_ROOT/man/tracemap-list.1" list
	[ -z "$output" ]
}

@test "man: every page carries the same date in its .TH line" {
	local dates
	dates=$(awk '$1 == ".TH" { print $4 }' "$TM_ROOT"/man/*.1 | tr -d '"' | sort -u)
	[ -n "$dates" ]
	[ "$(wc -l <<<"$dates")" -eq 1 ] || { echo "dates: $dates" >&2; return 1; }
}
