#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# layout-check.sh - the code layout docs/DESIGN.md describes, checked:
#   - lib/ sources live in folders, none with more than 30 (.c and .h);
#   - no source file of lib/ or cmd/ over 800 lines;
#   - every function declared in a public header (lib/tracemap.h and the
#     lib/*/tm-*.h it includes) is called from cmd/: the rest belongs in a
#     folder's private header;
#   - the tm_ prefix means "a symbol of lib/ with external linkage": no
#     static function of lib/ and no function defined in cmd/ carries it;
#   - no static function in another library's namespace (tracefs_, tep_,
#     trace_seq_, kbuffer_, tracecmd_, ZSTD_): a reader takes it for theirs;
#   - no basename twice in lib/ (one object per name in the archive).
# The include-cycle check is tests/include-cycles.sh.
#
# Usage: tests/layout-check.sh [ROOT]   Exit 0 with one summary line, or 1
# with one line per violation.
set -u -o pipefail
shopt -s nullglob
cd "${1:-$(dirname "$0")/..}" || exit 2

bad=0
say() { echo "$*"; bad=1; }

# Comments and string literals out, so that a name in a comment is no use.
strip() {
	perl -0pe 's{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g; s{"(?:[^"\\\n]|\\.)*"}{""}g' "$@"
}

[ -z "$(echo lib/*.c)" ] || say "lib/: sources outside a folder: $(echo lib/*.c)"
for d in lib/*/; do
	n=$(ls "$d"*.[ch] 2>/dev/null | wc -l)
	[ "$n" -le 30 ] || say "$d: $n sources, .c and .h (at most 30: group them by stage)"
done

for f in lib/*.[ch] lib/*/*.[ch] cmd/*.[ch]; do
	n=$(wc -l <"$f")
	[ "$n" -le 800 ] || say "$f: $n lines (at most 800)"
done

dups=$(for f in lib/*/*.[ch]; do basename "$f"; done | sort | uniq -d)
[ -z "$dups" ] || say "lib/: basenames used twice: $dups"

cmd_names=$(strip cmd/*.c cmd/*.h | grep -oE '\btm_[a-z0-9_]+' | sort -u)
public=0
for h in lib/tracemap.h lib/*/tm-*.h; do
	for fn in $(strip "$h" | grep -oE '\btm_[a-z0-9_]+[[:space:]]*\(' |
		    sed 's/[[:space:]]*($//' | sort -u); do
		public=$((public + 1))
		grep -qxF "$fn" <<<"$cmd_names" ||
			say "$h: $fn is public but cmd/ never calls it"
	done
done

statics=$(strip lib/*/*.c | grep -E '^static[^=;]*\btm_[a-z0-9_]+[[:space:]]*\(' |
	  grep -oE '\btm_[a-z0-9_]+[[:space:]]*\(' | sort -u | tr -d '( ' | tr '\n' ' ')
[ -z "$statics" ] || say "lib/: static functions with the tm_ prefix: $statics"

foreign=$(strip lib/*/*.c cmd/*.c |
	  grep -E '^static[^=;]*\b(tracefs|tep|trace_seq|kbuffer|tracecmd|ZSTD)_[A-Za-z0-9_]*[[:space:]]*\(' |
	  grep -oE '\b(tracefs|tep|trace_seq|kbuffer|tracecmd|ZSTD)_[A-Za-z0-9_]*[[:space:]]*\(' |
	  sort -u | tr -d '( ' | tr '\n' ' ')
[ -z "$foreign" ] || say "lib/, cmd/: static functions in another library's namespace: $foreign"

own=$(strip cmd/*.c | grep -E '^[a-z][^=;(]*\btm_[a-z0-9_]+[[:space:]]*\([^;]*$' |
      grep -oE '\btm_[a-z0-9_]+[[:space:]]*\(' | sort -u | tr -d '( ' | tr '\n' ' ')
[ -z "$own" ] || say "cmd/: functions defined with the library's tm_ prefix: $own"

[ "$bad" -eq 0 ] || exit 1
echo "layout: $(ls -d lib/*/ | wc -l) folders, $(ls lib/*/*.c | wc -l) lib sources," \
	"$public public functions all called from cmd/"
