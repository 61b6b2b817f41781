#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# include-cycles.sh - fail when the sources of lib/ and cmd/ depend on each
# other in a circle through their headers, so that every arrow points one way.
#
# The rule: the nodes are the .c files. A header stands for the .c files that
# define what it declares (a file and its own header are one node; a header
# shared by several files, like dat-internal.h, stands for each of them).
# A.c -> B.c when A.c includes such a header, directly or through another
# header, and names a function or object of B.c declared there, or the
# header has an inline function that names one. Only names A.c uses count:
# lib/tracemap.h includes every public header, and an unused declaration is
# no dependency. Static functions, macros and types make no arrows.
#
# Usage: tests/include-cycles.sh [-v]   (-v: print every arrow)
# Exit 0 and one summary line, or exit 1 naming the files of each cycle.
set -u -o pipefail
shopt -s nullglob
cd "$(dirname "$0")/.." || exit 2

verbose=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One pass over every file: comments and literals out, then the includes,
# the definitions of the .c files, and the names each file mentions; the
# arrows at the end.
if ! awk '
function exists(p) { return p in isfile }
FNR == 1 { incomment = 0; isc = FILENAME ~ /\.c$/; inl = 0 }
{
	line = $0
	gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
	gsub(/\x27([^\x27\\]|\\.)\x27/, "\x27\x27", line)
	out = ""
	while (line != "") {
		if (incomment) {
			k = index(line, "*/")
			if (!k) { line = ""; break }
			line = substr(line, k + 2); incomment = 0
		}
		k = index(line, "/*"); c = index(line, "//")
		if (c && (!k || c < k)) { out = out substr(line, 1, c - 1); line = ""; break }
		if (!k) { out = out line; line = ""; break }
		out = out substr(line, 1, k - 1) " "; line = substr(line, k + 2); incomment = 1
	}
	if (match(out, /^#[ \t]*include[ \t]*""/)) {
		# the literal was emptied: take the name from the raw line
		name = $0; sub(/^[^"]*"/, "", name); sub(/".*$/, "", name)
		ninc[FILENAME]++; inc[FILENAME, ninc[FILENAME]] = name
		next
	}
	if (isc && out ~ /^[A-Za-z_]/ && out !~ /^(static|typedef|extern|enum|union|struct [A-Za-z0-9_]+[ \t]*\{)/) {
		if (match(out, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/) && out !~ /;[ \t]*$/) {
			head = substr(out, 1, RSTART + RLENGTH - 2); sub(/[ \t]+$/, "", head)
			if (head ~ /[ *]/) { n = split(head, w, /[ *\t]+/); def[w[n]] = FILENAME }
		} else if (match(out, /[A-Za-z_][A-Za-z0-9_]*[ \t]*(\[[^]]*\])?[ \t]*=/)) {
			name = substr(out, RSTART, RLENGTH); sub(/[ \t\[=].*$/, "", name)
			def[name] = FILENAME
		}
	}
	# the body of an inline function of a header: its calls count for every includer
	if (!isc && out ~ /static inline/)
		inl = 1
	body = inl
	if (inl) {
		t = out; opened += gsub(/[{]/, "", t); t = out; depth += gsub(/[{]/, "", t) - gsub(/[}]/, "", t)
		if (opened && depth <= 0) { inl = 0; opened = 0; depth = 0 }
	}
	while (match(out, /[A-Za-z_][A-Za-z0-9_]*/)) {
		tok[FILENAME, substr(out, RSTART, RLENGTH)] = 1
		if (body)
			itok[FILENAME, substr(out, RSTART, RLENGTH)] = 1
		out = substr(out, RSTART + RLENGTH)
	}
}
END {
	for (k in tok) { split(k, p, SUBSEP); isfile[p[1]] = 1 }
	for (k in ninc) isfile[k] = 1
	nsrc = split(srcs, src, " ")
	for (s = 1; s <= nsrc; s++) {
		f = src[s]
		# the headers f includes, directly or through others
		delete seen; nq = 0; q[++nq] = f; qi = 1
		while (qi <= nq) {
			g = q[qi++]; dir = g; sub(/\/[^\/]*$/, "", dir)
			for (i = 1; i <= ninc[g]; i++) {
				h = dir "/" inc[g, i]
				if (!exists(h)) h = "lib/" inc[g, i]
				if (!exists(h) || (h in seen)) continue
				seen[h] = 1; q[++nq] = h
			}
		}
		for (name in def) {
			if (def[name] == f) continue
			for (h in seen)
				if (((f, name) in tok && (h, name) in tok) || (h, name) in itok) {
					print f, def[name]; break
				}
		}
	}
}' srcs="$(echo lib/*/*.c cmd/*.c)" lib/*/*.c cmd/*.c lib/*.h lib/*/*.h cmd/*.h | sort -u >"$tmp/edges"
then
	echo "include-cycles.sh: cannot read the sources" >&2
	exit 2
fi
srcs=$(ls lib/*/*.c cmd/*.c)

[ "$verbose" = -v ] && sed 's/ / -> /' "$tmp/edges"
nodes=$(echo "$srcs" | wc -w)
arrows=$(wc -l <"$tmp/edges")
if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/loops"; then
	echo "include cycles between the sources ($nodes files, $arrows arrows):"
	awk '/input contains a loop/ { if (c) print "  cycle:" c; c = ""; next }
	     { sub(/^tsort: /, ""); c = c " " $0 } END { if (c) print "  cycle:" c }' "$tmp/loops"
	exit 1
fi
echo "include graph: $nodes files, $arrows arrows, no cycle"
