#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# standalone.bats - the repository tests itself from its own tree: no file names a
# path outside it (tests/tree-paths.sh), and a copy of the tree alone, with no
# folder beside it, builds and passes the unit tests and the bats files that read
# the fixtures. No kernel needed.

load helpers

setup() {
	TM_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tracemap-standalone.XXXXXX")
}

teardown() {
	[ -n "${TM_TMP:-}" ] && rm -rf "$TM_TMP"
}

@test "standalone: no file of the build, tests, benches, code or docs names a path outside the tree" {
	run bash "$TM_ROOT/tests/tree-paths.sh"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[[ $output == "tree paths: "*" files, none outside the repository" ]]
}

# The paths are written @SHARED@, @WORK@ and @UP@ here, or the check would find
# this file's own examples.
@test "standalone: the path check finds the sibling folder, machine paths and climbs out of the tree" {
	local tree=$TM_TMP/tree
	mkdir -p "$tree/tests/unit" "$tree/bench" "$tree/docs" "$tree/lib/x" "$tree/tests/fixtures"
	cp "$TM_ROOT/tests/tree-paths.sh" "$tree/tests/"
	unmask() { sed -e "s|@SHARED@|@UP@/shared|g" -e "s|@WORK@|/wor""k|g" -e "s|@UP@|..|g"; }
	unmask >"$tree/tests/helpers.bash" <<'EOF'
TM_ROOT=$(cd "$BATS_TEST_DIRNAME/@UP@" && pwd)
FIXTURES=${TM_FIXTURES:-$TM_ROOT/@SHARED@/fixtures}
OTHER=$TM_ROOT/@UP@/elsewhere/data
ln -s @UP@/data/real.dat "$TM_TMP/links/x.dat"
EOF
	unmask >"$tree/tests/unit/main.c" <<'EOF'
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "@UP@/fixtures", name);
	if (!strcmp(name, ".") || !strcmp(name, "@UP@"))
#include "@UP@/@UP@/lib/x/x.h"
#include "@UP@/@UP@/@UP@/x.h"
EOF
	unmask >"$tree/bench/run.sh" <<'EOF'
cd "$(dirname "$0")/@UP@/@UP@"
cd "$(dirname "$0")/@UP@"
for my $i (0 @UP@ $n) { }
EOF
	unmask >"$tree/docs/x.md" <<'EOF'
Run `TRACEMAP=@WORK@/main/tracemap bench/report.sh`.
See [the README](@UP@/README).
Results beside the tree: `@UP@/results/`.
EOF
	echo 'FIX := @UP@/other/fixtures' | unmask >"$tree/Makefile"
	run bash "$tree/tests/tree-paths.sh" "$tree"
	[ "$status" -eq 1 ] || { echo "$output" >&2; return 1; }
	grep -q '^tests/helpers.bash:2: names \.\./shared' <<<"$output"
	grep -q '^tests/helpers.bash:3: climbs 1 folder(s) up from the top' <<<"$output"
	grep -q '^tests/unit/main.c:1: climbs 1 folder(s) up from the top' <<<"$output"
	grep -q '^tests/unit/main.c:4: climbs 3 folder(s) up from its folder' <<<"$output"
	grep -q '^bench/run.sh:1: climbs 2 folder(s) up from its folder' <<<"$output"
	grep -q '^docs/x.md:1: an absolute path of the machine' <<<"$output"
	grep -q '^docs/x.md:3: climbs 1 folder(s) up from the top' <<<"$output"
	grep -q '^Makefile:1: climbs 1 folder(s) up from the top' <<<"$output"
	[[ $output == *$'\n'"8 line(s) name a path outside the repository" ]]
}

# What a new user does: the project's files alone (those git tracks, plus new ones
# not ignored, as they are in the working tree now), in a folder with nothing
# beside them, built there, then the tests that read tests/fixtures/. The sanitizer
# build, as every bats file runs it; the unit tests run there too, so one library
# build serves both. Two groups at once, about the same length each.
@test "standalone: a copy of the tree alone builds and passes the unit tests and the fixture-reading bats files" {
	local copy=$TM_TMP/alone/tracemap
	mkdir -p "$copy"
	# a tree that is no git checkout (an unpacked archive) is copied whole, but build/
	(cd "$TM_ROOT" && if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -co --exclude-standard -z |
			while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
			tar --null -T - -cf -
	else
		tar --exclude=./build --exclude=./tracemap -cf - .
	fi) | tar -xf - -C "$copy"
	[ -f "$copy/tests/fixtures/sched-v6.dat" ] && [ ! -e "$copy/build" ]
	[ "$(ls -A "$TM_TMP/alone")" = tracemap ]
	run make -C "$copy" -s -j2 build/asan/tracemap build/asan/unit-tests </dev/null
	tm_status 0
	# a clean environment, as a new user's shell: no TM_FIXTURES, no TRACEMAP, and
	# not the PATH of this test, where "bats" is bats' own inner script
	local path
	path=$(tr ':' '\n' <<<"$PATH" | grep -v '/bats-core$' | paste -sd :)
	alone() {
		env -i PATH="$path" HOME="$HOME" CI="${CI:-}" TERM="${TERM:-dumb}" \
			LSAN_OPTIONS="suppressions=$copy/tests/lsan.supp:print_suppressions=0" \
			bash -c 'cd "$1" && shift && exec "$@"' _ "$copy" "$@" </dev/null
	}
	# logged NAME CMD...: CMD in the copy, its output in NAME.log, its status in NAME.rc
	logged() {
		local name=$1 rc=0
		shift
		alone "$@" >"$TM_TMP/$name.log" 2>&1 || rc=$?
		echo "$rc" >"$TM_TMP/$name.rc"
	}
	{ logged unit ./build/asan/unit-tests
	  logged bats1 bats --tap tests/report.bats tests/report-errors.bats \
		tests/report-hostile.bats tests/report-vm.bats; } &
	logged bats2 bats --tap tests/convert.bats
	wait
	local log failed=""
	for log in unit bats1 bats2; do
		# exit 0, tests that passed, none that failed: the next one
		[ "$(<"$TM_TMP/$log.rc")" = 0 ] && grep -q '^ok ' "$TM_TMP/$log.log" &&
			{ grep -q '^not ok' "$TM_TMP/$log.log" || continue; }
		echo "in the copy, $log: exit $(<"$TM_TMP/$log.rc")" >&2
		grep -A12 '^not ok' "$TM_TMP/$log.log" >&2 || tail -n 20 "$TM_TMP/$log.log" >&2
		failed+=" $log"
	done
	[ -z "$failed" ]
	grep -q '^# unit: [0-9]* passed, 0 failed$' "$TM_TMP/unit.log"
}
