#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# build.bats - the build's own promises: install layout, SPDX lines, README, CI entry,
# sources that depend on each other one way only, documented public headers.

load helpers

@test "build: make install DESTDIR puts binary, man pages and completions (bash, zsh) in place" {
	local dest
	dest=$(mktemp -d)
	run make -C "$TM_ROOT" -s install DESTDIR="$dest" PREFIX=/usr/local
	tm_status 0
	[ -x "$dest/usr/local/bin/tracemap" ]
	run "$dest/usr/local/bin/tracemap" --version
	[[ "$output" == "tracemap "* ]]
	for page in "$TM_ROOT"/man/*.1; do
		[ -f "$dest/usr/local/share/man/man1/${page##*/}" ]
	done
	[ -f "$dest/usr/local/share/bash-completion/completions/tracemap" ]
	cmp "$TM_ROOT/completions/_tracemap" "$dest/usr/local/share/zsh/site-functions/_tracemap"
	rm -rf "$dest"
}

@test "build: every source file carries an SPDX license line" {
	local missing=""
	while read -r f; do
		head -n 3 "$TM_ROOT/$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-only' || missing+=" $f"
	done < <(cd "$TM_ROOT" && git ls-files -co --exclude-standard \
		'*.c' '*.h' '*.bats' '*.bash' '*.sh' '*.1' Makefile .ci/run)
	[ -z "$missing" ] || { echo "no SPDX line:$missing" >&2; return 1; }
}

@test "build: README opens with the demo and test commands, .ci/run runs make check" {
	run sed -n '1,8p' "$TM_ROOT/README"
	[[ "$output" == *"make demo"* ]]
	[[ "$output" == *"make check"* ]]
	grep -q '^make check' "$TM_ROOT/.ci/run"
	# then how to run what was built
	run sed -n '1,20p' "$TM_ROOT/README"
	[[ "$output" == *"./tracemap"* ]]
	[[ "$output" == *"make install"* ]]
	[[ "$output" == *"man tracemap"* ]]
}

# An example a user copies must end by itself on an idle machine: a stream with
# neither --duration nor a COMMAND waits for events that may never come.
@test "build: every stream example (README, --help, man pages) ends by itself" {
	local bad
	bad=$(cd "$TM_ROOT" && { "$TRACEMAP" --help; "$TRACEMAP" stream --help; cat README;
		sed 's/\\-/-/g' man/*.1; } | grep -E 'tracemap stream ' |
		grep -vE -e '--duration|-- [a-z/]' -e 'tracemap stream \[OPTION' || true)
	[ -z "$bad" ] || { echo "examples that wait for events forever:" >&2; echo "$bad" >&2; return 1; }
}

@test "build: a missing pkg-config package is named in the error" {
	local out
	out=$(mktemp -d)
	# PKG_CONFIG_LIBDIR pointing nowhere makes every .pc file "missing"
	run env PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= make -C "$TM_ROOT" -s BUILD="$out" \
		"$out/lib/dat/codec.o"
	rm -rf "$out"
	[ "$status" -ne 0 ]
	[[ "$output" == *"missing build dependency: libtracefs"* ]]
}

@test "build: the includes of lib/ and cmd/ point one way, each for a use (tests/include-cycles.sh)" {
	run bash "$TM_ROOT/tests/include-cycles.sh"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[[ "${lines[0]}" == "include graph: "*", no cycle" ]]
	[[ "${lines[1]}" == "includes: "*" no cycle through two folders"* ]]
	[ "${lines[2]}" = "includes: every header included declares something its includer names" ]
	[[ "${lines[3]}" == "folders: "*" arrows, "[01]" back up the layers (at most 1), "[01]" pairs"* ]]
}

# A tree of its own for the check: files given as NAME=CONTENT (\n for newlines).
include_tree() {
	local tree=$1 spec
	shift
	mkdir -p "$tree/cmd" "$tree/tests"
	cp "$TM_ROOT/tests/include-cycles.sh" "$tree/tests/"
	printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$tree/cmd/m.c"
	for spec in "$@"; do
		mkdir -p "$tree/$(dirname "${spec%%=*}")"
		printf '%b' "${spec#*=}" >"$tree/${spec%%=*}"
	done
}

@test "build: the include check finds a header loop through two folders that no use shows" {
	local tree
	tree=$(mktemp -d)
	# x.c includes b/y.h for y_fn; y.h includes a/x.h, whose source is x.c, for a type
	include_tree "$tree" \
		'lib/a/x.h=struct x_thing {\n\tint v;\n};\nint x_fn(void);\n' \
		'lib/a/x.c=#include "x.h"\n#include "b/y.h"\nint x_fn(void)\n{\n\treturn y_fn(0);\n}\n' \
		'lib/b/y.h=#include "a/x.h"\nint y_fn(struct x_thing *t);\n' \
		'lib/b/y.c=#include "y.h"\nint y_fn(struct x_thing *t)\n{\n\treturn t->v;\n}\n'
	run bash "$tree/tests/include-cycles.sh"
	rm -rf "$tree"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "include graph: "*", no cycle" ]]
	[[ "$output" == *"include cycles through several folders"* ]]
	[[ "$output" == *"cycle: "*"lib/a/x.c"* && "$output" == *"cycle: "*"lib/b/y.c"* ]]
}

@test "build: the include check finds a header included for nothing" {
	local tree
	tree=$(mktemp -d)
	include_tree "$tree" \
		'lib/x/b.h=#define B_SIZE 4\nenum b_kind { B_ONE, B_TWO };\nint b_fn(void);\n' \
		'lib/x/b.c=#include "b.h"\nint b_fn(void)\n{\n\treturn B_SIZE;\n}\n' \
		'lib/x/a.c=#include "b.h"\nint a_fn(void)\n{\n\treturn 0;\n}\n' \
		'lib/x/e.c=#include "b.h"\nint e_fn(void)\n{\n\treturn B_TWO;\n}\n'
	run bash "$tree/tests/include-cycles.sh"
	rm -rf "$tree"
	[ "$status" -eq 1 ]
	[[ "$output" == *"lib/x/a.c: includes b.h and uses nothing it declares"* ]]
	# an enum constant is a use
	[[ "$output" != *"lib/x/e.c: includes"* ]]
}

@test "build: the include check counts the folder arrows back up the layers and the mutual pairs" {
	local tree one=(
		'lib/dat/d.h=#define D_PAGE 4096\n'
		'lib/util/u.c=#include "dat/d.h"\nint u_fn(void)\n{\n\treturn D_PAGE;\n}\n'
		'lib/util/u.h=#define U_MAX 8\n'
		'lib/dat/d.c=#include "util/u.h"\nint d_fn(void)\n{\n\treturn U_MAX;\n}\n')
	tree=$(mktemp -d)
	# util -> dat goes back up; dat -> util down: one of each allowed
	include_tree "$tree" "${one[@]}"
	run bash "$tree/tests/include-cycles.sh"
	[ "$status" -eq 0 ] || { echo "$output" >&2; rm -rf "$tree"; return 1; }
	[[ "$output" == *"folders: 2 arrows, 1 back up the layers (at most 1), 1 pairs including each other (at most 1)"* ]]
	[[ "$output" == *"  util -> dat (1)"* && "$output" == *"  dat <-> util"* ]]
	# the same between util and tracefs: two of each
	include_tree "$tree" \
		'lib/tracefs/t.h=#define T_DIR 1\n' \
		'lib/util/v.c=#include "tracefs/t.h"\nint v_fn(void)\n{\n\treturn T_DIR;\n}\n' \
		'lib/util/w.h=#define W_MAX 8\n' \
		'lib/tracefs/t.c=#include "util/w.h"\nint t_fn(void)\n{\n\treturn W_MAX;\n}\n'
	run bash "$tree/tests/include-cycles.sh"
	rm -rf "$tree"
	[ "$status" -eq 1 ]
	[[ "$output" == *"folders: 4 arrows, 2 back up the layers (at most 1), 2 pairs including each other (at most 1)"* ]]
	[[ "$output" == *"  util -> tracefs (1)"* && "$output" == *"  tracefs <-> util"* ]]
}

@test "build: the cycle check finds a cycle through a shared header" {
	local tree
	tree=$(mktemp -d)
	mkdir -p "$tree/lib/x" "$tree/cmd" "$tree/tests"
	cp "$TM_ROOT/tests/include-cycles.sh" "$tree/tests/"
	# a.c calls b_fn through ab.h, b.c calls a_fn through ab.h: a cycle
	printf 'int a_fn(void);\nint b_fn(void);\n' >"$tree/lib/x/ab.h"
	printf '#include "ab.h"\nint a_fn(void)\n{\n\treturn b_fn();\n}\n' >"$tree/lib/x/a.c"
	printf '#include "ab.h"\nint b_fn(void)\n{\n\treturn a_fn();\n}\n' >"$tree/lib/x/b.c"
	printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$tree/cmd/m.c"
	run bash "$tree/tests/include-cycles.sh"
	rm -rf "$tree"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cycle: lib/x/a.c lib/x/b.c"* || "$output" == *"cycle: lib/x/b.c lib/x/a.c"* ]]
}

@test "build: no test waits without a bound (tests/polling-loops.sh)" {
	run bash "$TM_ROOT/tests/polling-loops.sh"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[[ "$output" == "polling loops: "*" files, every wait bounded" ]]
}

# The loops that were in tests/ before tm_wait (reset.bats's two hung a run), and
# what is no unbounded wait. The keywords are written @WHILE@ and so on here, or
# the check would find this file's examples (and bats would take @TEST@ for a test).
@test "build: the polling-loop check finds the loops that hung reset.bats, not bounded ones" {
	local tree
	tree=$(mktemp -d)
	mkdir -p "$tree/tests/fuzz"
	cp "$TM_ROOT/tests/polling-loops.sh" "$tree/tests/"
	sed 's/@UNTIL@/until/; s/@WHILE@/while/; s/@FOR@/for/' >"$tree/tests/old.bats" <<'EOF'
	@UNTIL@ [ -s "$TM_TMP/zpid" ]; do sleep 0.01; done
	@UNTIL@ [ "$(awk '{ print $3 }' "/proc/$zombie/stat")" = Z ]; do sleep 0.01; done
		sh -c "/bin/true; kill $other; @WHILE@ [ -e /proc/$other ] &&
			@WHILE@ ((i > $(<"$TM_TMP/allow"))); do sleep 0.01; done
	(@WHILE@ :; do /bin/true; done) 3>&- &
	x=$(@FOR@ ((;;)); do sleep 1; done)
EOF
	echo '@WHILE@ true; do sleep 1; done' | sed 's/@WHILE@/while/' >"$tree/tests/fuzz/old.sh"
	sed 's/@UNTIL@/until/' >"$tree/tests/helpers.bash" <<'EOF'
tm_wait() {
	@UNTIL@ "$@"; do sleep 0.05; done
}
EOF
	sed 's/@TEST@/@test/' >"$tree/tests/fine.bats" <<'EOF'
# poll until it shows, while the recorder runs
@TEST@ "x: a line while recording" {
	while read -r l; do echo "$l"; done <f
	while IFS= read -r -t 20 line <&4; do :; done
	awk '{ while (i < NF) i++ }' f
	for ((i = 0; i < 600; i++)); do sleep 0.05; done
	tm_wait 30 "the file" test -e f
}
EOF
	run bash "$tree/tests/polling-loops.sh"
	rm -rf "$tree"
	[ "$status" -eq 1 ] || { echo "$output" >&2; return 1; }
	[ "$(grep -c '^tests/old.bats:[1-6]: ' <<<"$output")" -eq 6 ]
	grep -q '^tests/fuzz/old.sh:1: ' <<<"$output"
	[[ $output == *"7 loop(s) with no bound"* ]]
	! grep -qE '^tests/(fine.bats|helpers.bash):' <<<"$output" || return 1
}

@test "build: every function of the public headers has its own comment" {
	run awk '/^[A-Za-z].*[ *]tm_[a-z0-9_]+\(/ && prev !~ /\*\/[ \t]*$/ {
			print FILENAME ":" FNR ": " $0; bad = 1 }
		{ prev = $0 }
		END { exit bad }' "$TM_ROOT"/lib/tracemap.h "$TM_ROOT"/lib/*/tm-*.h
	[ "$status" -eq 0 ] || { echo "no comment of its own: $output" >&2; return 1; }
}

@test "build: a missing protoc-c is named in the error" {
	local out bin t
	out=$(mktemp -d)
	bin=$(mktemp -d)
	# a PATH with the shell tools the recipe needs but no protoc-c
	for t in sh pkg-config mkdir touch; do ln -s "$(command -v "$t")" "$bin/$t"; done
	run env PATH="$bin" "$(command -v make)" -C "$TM_ROOT" -s BUILD="$out" "$out/lib/dat/codec.o"
	rm -rf "$out" "$bin"
	[ "$status" -ne 0 ]
	[[ "$output" == *"missing build dependency: protoc-c"* ]]
}

@test "build: the layout holds: folders, file sizes, public functions (tests/layout-check.sh)" {
	run bash "$TM_ROOT/tests/layout-check.sh"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[[ "$output" == "layout: "*" public functions all called from cmd/" ]]
}

@test "build: the layout check finds an unused public function, a tm_ static, a foreign static, a long file, a full folder" {
	local tree
	tree=$(mktemp -d)
	mkdir -p "$tree/lib/x" "$tree/cmd" "$tree/tests"
	cp "$TM_ROOT/tests/layout-check.sh" "$tree/tests/"
	printf '#include "x/tm-x.h"\nint main(void)\n{\n\treturn tm_used();\n}\n' >"$tree/cmd/m.c"
	printf 'int tm_used(void);\nint tm_unused(void);\n' >"$tree/lib/x/tm-x.h"
	printf 'static int tm_helper(void)\n{\n\treturn 0;\n}\n' >"$tree/lib/x/a.c"
	printf 'static int tracefs_mount(void)\n{\n\treturn 0;\n}\n' >"$tree/lib/x/b.c"
	seq 801 | sed 's/.*/\/\* & \*\//' >"$tree/lib/x/long.c"
	# a folder of 16 sources and 15 headers: 31 files
	mkdir -p "$tree/lib/y"
	for i in $(seq 16); do : >"$tree/lib/y/y$i.c"; done
	for i in $(seq 15); do : >"$tree/lib/y/y$i.h"; done
	run bash "$tree/tests/layout-check.sh" "$tree"
	rm -rf "$tree"
	[ "$status" -eq 1 ]
	[[ "$output" == *"tm_unused is public but cmd/ never calls it"* ]]
	[[ "$output" != *"tm_used is public"* ]]
	[[ "$output" == *"static functions with the tm_ prefix: tm_helper"* ]]
	[[ "$output" == *"static functions in another library's namespace: tracefs_mount"* ]]
	[[ "$output" == *"lib/x/long.c: 801 lines"* ]]
	[[ "$output" == *"lib/y/: 31 sources, .c and .h (at most 30"* ]]
}

@test "build: no test asserts with a bare '! cmd', which bats never fails on" {
	# set -e ignores a negated command: '! grep x f' passes whether or not f holds x;
	# the guest cases of tests/vm/ run under set -e as well
	run grep -nE '^[[:space:]]*! ' "$TM_ROOT"/tests/*.bats "$TM_ROOT"/tests/vm/*.sh
	local bad
	bad=$(grep -vE '\|\| (return 1|\{ .*return 1; \})$' <<<"$output" || true)
	[ -z "$bad" ] || { echo "write '! cmd || return 1':" >&2; echo "$bad" >&2; return 1; }
}
