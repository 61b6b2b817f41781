#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# run.sh SECONDS - run the trace.dat reader fuzzer (build/fuzz-reader) for SECONDS,
# seeded with copies of the fixtures; prints one TAP test, exits non-zero on a finding.
set -u
cd "$(dirname "$0")/../.."

secs=${1:-60}
fixtures=${TM_FIXTURES:-../shared/fixtures}
corpus=build/fuzz-corpus
artifacts=build/fuzz-artifacts/
log=build/fuzz-reader.log

echo "1..1"
if ! [[ $secs =~ ^[0-9]+$ ]] || [ "$secs" -lt 1 ]; then
	echo "not ok 1 fuzz: bad duration '$secs' (want whole seconds)"
	exit 2
fi
if [ ! -x build/fuzz-reader ]; then
	echo "not ok 1 fuzz: build/fuzz-reader is missing (make build/fuzz-reader)"
	exit 1
fi
mkdir -p "$corpus" "$artifacts"
# copies only: the fixtures themselves are never handed to the fuzzer
for f in "$fixtures"/*.dat; do
	[ -e "$f" ] && cp -f "$f" "$corpus/seed-$(basename "$f")"
done

export ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
build/fuzz-reader -max_total_time="$secs" -rss_limit_mb=2048 -max_len=131072 \
	-timeout=20 -print_final_stats=1 -artifact_prefix="$artifacts" \
	"$corpus" >"$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
runs=${runs:-$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)}
if [ "$rc" -eq 0 ]; then
	echo "ok 1 fuzz: reader survives $secs s of libFuzzer (runs: ${runs:-?})"
	exit 0
fi
echo "not ok 1 fuzz: reader fuzzing found a problem after ${runs:-?} runs (exit $rc, log $log)"
grep -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|ERROR: libFuzzer|Test unit written|artifact_prefix' \
	"$log" | head -n 20 | sed 's/^/# /'
grep -m1 -A12 -E '^==[0-9]+==ERROR|runtime error' "$log" | sed 's/^/# /'
exit 1
