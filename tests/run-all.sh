#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# run-all.sh - `make check`: unit tests (plain and ASan/UBSan), the fuzz runs
# (reader, report), the mutation test, then the bats CLI tests; ends with one
# line "N passed, N failed".
set -u
cd "$(dirname "$0")/.."

passed=0
failed=0

# Count TAP "ok"/"not ok" lines of one runner's output; a runner that exits
# non-zero without a failing line still counts as one failure.
count_tap() {
	local name=$1 rc=$2 log=$3 p f
	p=$(grep -cE '^ok ' "$log")
	f=$(grep -cE '^not ok ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "# $name exited $rc without a failing test: counted as a failure"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

run_tap() {
	local name=$1; shift
	local log rc
	log=$(mktemp)
	echo "# $name"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	count_tap "$name" "$rc" "$log"
	rm -f "$log"
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
run_tap "unit tests" ./build/unit-tests
run_tap "unit tests (ASan+UBSan)" ./build/asan/unit-tests

for t in reader report; do
	if [ -x "build/fuzz-$t" ]; then
		run_tap "fuzz ($t, ${FUZZ_SECONDS:-60}s)" bash tests/fuzz/run.sh "${FUZZ_SECONDS:-60}" "$t"
	fi
done
# MUTATIONS inputs (default in mutate.sh, sized for CI) through the sanitizer build
run_tap "mutation test" bash tests/fuzz/mutate.sh ${MUTATIONS:+"$MUTATIONS"}

run_tap "bats CLI tests" bats --tap tests

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
