#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# formats-check.sh - convert's output formats are one table (cmd/convert.c, printed
# by the hidden `tracemap convert --list-formats`: name, suffixes, description). Fail
# when a copy of the list disagrees with it: the bash and zsh completions of --to,
# the man page's SYNOPSIS and its --to list (the lines between .RS and .RE after the
# formats comment, which this script writes out in full as they must read).
#
# Usage: tests/formats-check.sh [ROOT]   (ROOT: the tree to check, default the one
#        beside this script; TRACEMAP: the binary, default ROOT/tracemap)
# Exit 0 and one summary line, or exit 1 and a diff per file that disagrees.
set -u -o pipefail

root=${1:-$(dirname "$0")/..}
tracemap=${TRACEMAP:-$root/tracemap}
list=$("$tracemap" convert --list-formats) || {
	echo "formats-check.sh: $tracemap convert --list-formats failed" >&2
	exit 2
}
[ -n "$list" ] || { echo "formats-check.sh: no formats listed" >&2; exit 2; }

names=$(cut -f1 <<<"$list" | tr '\n' ' ' | sed 's/ $//')
bad=0

# same FILE WHAT EXPECTED ACTUAL: a diff and a failure when they differ.
same() {
	[ "$3" = "$4" ] && return 0
	echo "$1: $2 differs from convert's format table:"
	diff <(printf '%s\n' "$3") <(printf '%s\n' "$4") | sed 's/^/    /'
	bad=1
}

# roff text: a hyphen is \-
roff() { sed 's/-/\\-/g'; }

# The man page's list: per format .TP, its name, what it is, the suffixes of OUT.
man_list() {
	local name suffixes what s n i
	echo ".RS"
	while IFS=$'\t' read -r name suffixes what; do
		printf '.TP\n.B %s\n%s;\n.I OUT\nending in\n' "$name" "$(roff <<<"$what")"
		read -r -a s <<<"$(roff <<<"$suffixes")"
		n=${#s[@]}
		if [ "$n" -eq 1 ]; then
			printf '.B %s\n' "${s[0]}"
		else
			printf '.BR'
			for ((i = 0; i < n; i++)); do
				printf ' %s' "${s[i]}"
				((i < n - 2)) && printf ' ", "'
				((i == n - 2)) && printf ' " or "'
			done
			printf '\n'
		fi
	done <<<"$list"
	echo ".RE"
}

man=$root/man/tracemap-convert.1
same "$man" "the --to list" "$(man_list)" \
	"$(awk '/^\.\\" The formats:/ { on = 1; next } on { print } on && /^\.RE$/ { exit }' "$man")"
same "$man" "the SYNOPSIS" ".RB [ \\-\\-to \" \" $(sed 's/ / | /g' <<<"$names") ]" \
	"$(grep '^\.RB \[ \\-\\-to ' "$man")"

bash_c=$root/completions/tracemap.bash
same "$bash_c" "convert --to" "		_tracemap_reply \"\$cur\" \"$names\" ;;" \
	"$(awk '/^\tconvert:--to\)$/ { getline; print }' "$bash_c")"

zsh_c=$root/completions/_tracemap
same "$zsh_c" "convert --to" "	(convert:--to) print -r -- '($names)' ;;" \
	"$(grep '^	(convert:--to) ' "$zsh_c")"

[ "$bad" -eq 0 ] || exit 1
echo "formats: $(wc -l <<<"$list") in convert's table, the same in both completions and the man page"
