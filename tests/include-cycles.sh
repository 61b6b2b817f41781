#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# include-cycles.sh - the dependencies of lib/ and cmd/ point one way: checked on
# the names the sources use and on the includes themselves, folder by folder
# against the layers of docs/DESIGN.md.
#
# 1. Uses. The nodes are the .c files. A header stands for the .c files that
#    define what it declares. A.c -> B.c when A.c includes such a header,
#    directly or through another header, and names a function or object of
#    B.c declared there, or the header has an inline function that names one.
#    Only names A.c uses count. No cycle allowed.
# 2. Includes. A file -> each header it includes, and a header -> its sources
#    (the .c files defining a function or object it declares): a header and
#    its sources are one node (a header shared by several sources joins them
#    all). No cycle allowed: a header reached from a source must not lead back
#    to it through what it includes.
# 3. No include for nothing: every project header a file (.c or .h) includes
#    declares something the file names (a function, object, type, typedef,
#    macro or enum constant). lib/tracemap.h, which only gathers the public
#    headers, declares what they do.
# 4. Folders. The includes counted folder to folder; an arrow that does not go
#    down the layers below (LAYERS) goes back up. At most MAX_BACK such arrows
#    and MAX_MUTUAL pairs of folders that include each other.
#
# Usage: tests/include-cycles.sh [-v | -t]   (-v: every arrow, node and folder
# arrow; -t: the folder table of includes, as docs/DESIGN.md shows it)
# Exit 0 and a summary, or exit 1 naming each violation.
set -u -o pipefail
shopt -s nullglob
cd "$(dirname "$0")/.." || exit 2

verbose=${1:-}
# A < B: B may include A. Every lib folder is below lib/tracemap.h ("lib"), and that below cmd.
LAYERS="util<trace<tracefs<dat<record<longrec record<salvage dat<events<merge<print<emit
record<emit longrec<lib salvage<lib emit<lib emit<sql sql<lib util<fleet fleet<lib lib<cmd"
MAX_BACK=1
MAX_MUTUAL=1
tmp=$(mktemp -d)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT

# One pass over every file: comments and literals out, then the includes, the
# definitions of the .c files, the declarations of the headers and the names
# each file mentions; the checks at the end.
if ! awk -v tmp="$tmp" -v layers="$LAYERS" '
function exists(p) { return p in isfile }
function ident_at(str, re,    n) {
	if (!match(str, re)) return ""
	n = substr(str, RSTART, RLENGTH); sub(/^[^A-Za-z_]*/, "", n)
	match(n, /^[A-Za-z_][A-Za-z0-9_]*/); return substr(n, 1, RLENGTH)
}
function declare(f, n) {
	if (n == "") return
	if (!((f, n) in decl)) { decl[f, n] = 1; decls[f] = decls[f] " " n }
}
# the enum constants of a piece of an enum body
function enum_items(f, str,    k, m, it) {
	m = split(str, it, ",")
	for (k = 1; k <= m; k++) {
		sub(/^[ \t]+/, "", it[k])
		if (match(it[k], /^[A-Za-z_][A-Za-z0-9_]*/)) declare(f, substr(it[k], 1, RLENGTH))
	}
}
function folder(p,    a) {
	if (p ~ /^cmd\//) return "cmd"
	if (p !~ /^lib\/.*\//) return "lib"
	split(p, a, "/"); return a[2]
}
function find(x) { while (x in up) x = up[x]; return x }
function join(a, b) { a = find(a); b = find(b); if (a != b) { if (a < b) up[b] = a; else up[a] = b } }
function resolve(g, name,    dir, h) {
	dir = g; sub(/\/[^\/]*$/, "", dir)
	h = dir "/" name
	if (!exists(h)) h = "lib/" name
	return exists(h) ? h : ""
}
function node(p) { return (p in grouped) ? find(p) : p }
FNR == 1 { isfile[FILENAME] = 1; incomment = 0; isc = FILENAME ~ /\.c$/; inl = 0; hd = 0; inenum = 0; intd = 0; tdname = "" }
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
	# what a header declares: macros, and at file level types, typedefs, functions, objects
	if (!isc) {
		if (out ~ /^[ \t]*#[ \t]*define[ \t]/) {
			sub(/^[ \t]*#[ \t]*define[ \t]+/, "", out)
			# not the include guard
			if (out !~ /^[A-Z0-9_]+_H[ \t]*$/)
				declare(FILENAME, ident_at(out, "^[A-Za-z_][A-Za-z0-9_]*"))
			sub(/^[A-Za-z_][A-Za-z0-9_]*/, "", out)
		} else if (out !~ /^[ \t]*#/) {
			if (hd == 0) {
				if (match(out, /(struct|union|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/)) {
					n = substr(out, RSTART, RLENGTH); sub(/^(struct|union|enum)[ \t]+/, "", n)
					sub(/[ \t]*\{$/, "", n); declare(FILENAME, n)
				}
				if (out ~ /^typedef/) { intd = 1; tdname = "" }
				if (!intd && out ~ /^[A-Za-z_]/ && out !~ /^(struct|union|enum)[^(]*$/) {
					n = ident_at(out, "[A-Za-z_][A-Za-z0-9_]*[ \t]*[(]")
					if (n !~ /^(TM_PRINTF|__attribute__|sizeof|typeof)$/) declare(FILENAME, n)
				}
				if (!intd && out ~ /^(extern|static const)/ && out !~ /\(/)
					declare(FILENAME, ident_at(out, "[A-Za-z_][A-Za-z0-9_]*[ \t]*(\\[[^]]*\\])*[ \t]*(=|;)"))
				if (out ~ /(^|[^A-Za-z0-9_])enum[^;(]*\{/) inenum = 1
			}
			if (intd && tdname == "" && match(out, /\([ \t]*\*[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)/))
				tdname = ident_at(substr(out, RSTART), "[*][ \t]*[A-Za-z_][A-Za-z0-9_]*")
			if (inenum) {
				t = out
				if (index(t, "{")) t = substr(t, index(t, "{") + 1)
				if (index(t, "}")) t = substr(t, 1, index(t, "}") - 1)
				enum_items(FILENAME, t)
			}
			t = out; hd += gsub(/[{]/, "", t); t = out; hd -= gsub(/[}]/, "", t)
			if (hd <= 0) { hd = 0; inenum = 0 }
			if (intd && hd == 0 && out ~ /;[ \t]*$/) {
				if (tdname == "") {
					t = out; sub(/[ \t]*(\[[^]]*\])*[ \t]*;[ \t]*$/, "", t)
					if (match(t, /[A-Za-z_][A-Za-z0-9_]*$/)) tdname = substr(t, RSTART)
				}
				declare(FILENAME, tdname); intd = 0
			}
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
	# 1. uses
	for (s = 1; s <= nsrc; s++) {
		f = src[s]
		# the headers f includes, directly or through others
		delete seen; nq = 0; q[++nq] = f; qi = 1
		while (qi <= nq) {
			g = q[qi++]
			for (i = 1; i <= ninc[g]; i++) {
				h = resolve(g, inc[g, i])
				if (h == "" || (h in seen)) continue
				seen[h] = 1; q[++nq] = h
			}
		}
		for (name in def) {
			if (def[name] == f) continue
			for (h in seen)
				if (((f, name) in tok && (h, name) in tok) || (h, name) in itok) {
					print f, def[name] > (tmp "/edges"); break
				}
		}
	}
	# lib/tracemap.h declares what the headers it gathers declare
	umb = "lib/tracemap.h"
	for (i = 1; i <= ninc[umb]; i++) {
		h = resolve(umb, inc[umb, i])
		if (h != "") decls[umb] = decls[umb] " " decls[h]
	}
	# 2. includes: a header and its sources are one node
	for (f in isfile) {
		if (f ~ /\.c$/) continue
		m = split(decls[f], dn, " ")
		for (k = 1; k <= m; k++)
			if (f != umb && (dn[k] in def)) { join(f, def[dn[k]]); grouped[f] = 1; grouped[def[dn[k]]] = 1 }
	}
	for (f in isfile)
		for (i = 1; i <= ninc[f]; i++) {
			h = resolve(f, inc[f, i])
			if (h == "") continue
			# 3. an include for nothing
			m = split(decls[h], dn, " "); used = 0
			for (k = 1; k <= m && !used; k++) used = (f, dn[k]) in tok
			if (!used && f != umb) print f ": includes " inc[f, i] " and uses nothing it declares" > (tmp "/unused")
			if (node(f) != node(h)) print node(f), node(h) > (tmp "/incedges")
			# 4. folders
			a = folder(f); b = folder(h)
			if (a != b) fcount[a, b]++
		}
	for (f in isfile)
		if (f in grouped) members[find(f)] = members[find(f)] " " f
	for (r in members) print r ":" members[r] > (tmp "/groups")
	for (f in decls) print f ":" decls[f] > (tmp "/decls")
	# the layers, closed: below[a, b] when a < b
	nl = split(layers, chain, /[ \n]+/)
	for (i = 1; i <= nl; i++) {
		m = split(chain[i], lv, "<")
		for (k = 1; k < m; k++) { below[lv[k], lv[k + 1]] = 1; fold[lv[k]] = 1; fold[lv[k + 1]] = 1 }
	}
	for (c in fold) for (a in fold) for (b in fold)
		if ((a, c) in below && (c, b) in below) below[a, b] = 1
	for (k in fcount) {
		split(k, p, SUBSEP)
		back = !((p[2], p[1]) in below)
		print p[1], p[2], fcount[k], back ? "back" : "down" > (tmp "/folders")
	}
}' srcs="$(echo lib/*/*.c cmd/*.c)" lib/*/*.c cmd/*.c lib/*.h lib/*/*.h cmd/*.h
then
	echo "include-cycles.sh: cannot read the sources" >&2
	exit 2
fi
touch "$tmp/edges" "$tmp/incedges" "$tmp/unused" "$tmp/folders" "$tmp/groups"
sort -u -o "$tmp/edges" "$tmp/edges"
sort -u -o "$tmp/incedges" "$tmp/incedges"
sort -o "$tmp/folders" "$tmp/folders"
srcs=$(ls lib/*/*.c cmd/*.c)
bad=0

if [ "$verbose" = -t ]; then
	# rows: from, down the layers ("lib" is lib/tracemap.h); columns: to
	order="cmd lib fleet sql emit print merge events salvage longrec record dat tracefs trace util"
	cols=$(echo $order | tr ' ' '\n' | grep -vx cmd | tac | tr '\n' ' ')
	name() { [ "$1" = lib ] && echo tracemap.h || echo "$1"; }
	printf '| from \\ to |'; for c in $cols; do printf ' %s |' "$(name "$c")"; done; echo
	printf '|------------|'; for c in $cols; do printf -- '-%s-|' "$(name "$c" | tr 'a-z.' '-')"; done; echo
	for r in $order; do
		printf '| %-10s |' "$(name "$r")"
		for c in $cols; do
			printf ' %s |' "$(awk -v a="$r" -v b="$c" '$1 == a && $2 == b { print $3 }' "$tmp/folders")"
		done
		echo
	done
	exit 0
fi

if [ "$verbose" = -v ]; then
	sed 's/ / -> /' "$tmp/edges"
	sed 's/^/node /' "$tmp/groups"
	sed 's/ / => /' "$tmp/incedges"
	awk '{ printf "folder %s -> %s: %d includes%s\n", $1, $2, $3, $4 == "back" ? " (back up)" : "" }' \
		"$tmp/folders"
fi

nodes=$(echo "$srcs" | wc -w)
arrows=$(wc -l <"$tmp/edges")
loops() {
	awk '/input contains a loop/ { if (c) print "  cycle:" c; c = ""; next }
	     { sub(/^tsort: /, ""); c = c " " $0 } END { if (c) print "  cycle:" c }' "$1"
}
if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/loops"; then
	echo "include cycles between the sources ($nodes files, $arrows arrows):"
	loops "$tmp/loops"
	bad=1
else
	echo "include graph: $nodes files, $arrows arrows, no cycle"
fi

# The include graph's strongly connected parts: one that spans two folders is a
# cycle; one inside a folder is not (a folder is one layer, its files may lean
# on each other's headers).
awk -v groups="$tmp/groups" '
function folders_of(n,    m, k, w, f, a, out) {
	m = split((n in mem) ? mem[n] : n, w, " ")
	for (k = 1; k <= m; k++) {
		f = w[k]
		if (f ~ /^cmd\//) f = "cmd"; else if (f !~ /^lib\/.*\//) f = "lib"; else { split(f, a, "/"); f = a[2] }
		if (!index(" " out " ", " " f " ")) out = out " " f
	}
	return out
}
BEGIN { while (0 < (getline l < groups)) { r = l; sub(/:.*/, "", r); sub(/^[^:]*:/, "", l); mem[r] = l } }
{ nodes[$1] = 1; nodes[$2] = 1; out[$1] = out[$1] " " $2 }
END {
	for (n in nodes) {
		# everything n reaches
		delete seen; nq = 0; q[++nq] = n; qi = 1
		while (qi <= nq) {
			m = split(out[q[qi++]], w, " ")
			for (k = 1; k <= m; k++) if (!(w[k] in seen)) { seen[w[k]] = 1; q[++nq] = w[k] }
		}
		for (x in seen) reach[n, x] = 1
	}
	for (n in nodes) {
		if (n in done || !((n, n) in reach)) continue
		scc = ""; fs = ""
		for (x in nodes)
			if (x == n || ((n, x) in reach && (x, n) in reach)) { done[x] = 1; scc = scc " " x; fs = fs folders_of(x) }
		split(fs, fw, " "); delete uf; nf = 0
		for (k in fw) if (!(fw[k] in uf)) { uf[fw[k]] = 1; nf++ }
		print (nf > 1 ? "cross" : "inside"), nf, scc
	}
}' "$tmp/incedges" | sort >"$tmp/scc"
ngroups=$(tr ' ' '\n' <"$tmp/incedges" | sort -u | wc -l)
edges=$(wc -l <"$tmp/incedges")
ninside=$(grep -c '^inside' "$tmp/scc" || true)
if grep -q '^cross' "$tmp/scc"; then
	echo "include cycles through several folders ($ngroups nodes, $edges edges):"
	sed -n 's/^cross [0-9]* /  cycle: /p' "$tmp/scc"
	bad=1
else
	echo "includes: $ngroups nodes (a header with its sources), $edges edges, no cycle" \
		"through two folders ($ninside inside one)"
fi
[ "$verbose" = -v ] && sed -n 's/^inside [0-9]* /inside one folder: /p' "$tmp/scc"

if [ -s "$tmp/unused" ]; then
	sort "$tmp/unused"
	bad=1
else
	echo "includes: every header included declares something its includer names"
fi

backs=$(awk '$4 == "back" { print "  " $1 " -> " $2 " (" $3 ")" }' "$tmp/folders")
nback=$(printf '%s' "$backs" | grep -c . || true)
mutual=$(awk '{ to[$1, $2] = 1 } END { for (k in to) { split(k, p, SUBSEP)
	if (p[1] < p[2] && (p[2], p[1]) in to) print "  " p[1] " <-> " p[2] } }' "$tmp/folders" | sort)
nmutual=$(printf '%s' "$mutual" | grep -c . || true)
echo "folders: $(wc -l <"$tmp/folders") arrows, $nback back up the layers (at most $MAX_BACK)," \
	"$nmutual pairs including each other (at most $MAX_MUTUAL)"
[ -z "$backs" ] || echo "$backs"
[ -z "$mutual" ] || echo "$mutual"
[ "$nback" -le "$MAX_BACK" ] && [ "$nmutual" -le "$MAX_MUTUAL" ] || bad=1
exit "$bad"
