#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# run.sh SECONDS [TARGET] - run the libFuzzer target build/fuzz-TARGET ("reader",
# the default: the trace.dat container; "report": the whole report path; "ksyms":
# kallsyms text, our table against libtraceevent's; "cmdlines": saved cmdlines
# text, our registration against libtraceevent's; "printk": printk formats, our
# kernel strings against libtraceevent's) for SECONDS, seeded with
# copies of every fixture (tests/fixtures/, top level and upstream/) and
# tests/regress/ (ksyms: the fixtures' kallsyms subset; cmdlines and printk: the
# tracefs snapshot's saved_cmdlines and printk_formats); prints one TAP test,
# exits non-zero on a finding.
set -u
cd "$(dirname "$0")/../.."

secs=${1:-60}
target=${2:-reader}
fixtures=${TM_FIXTURES:-tests/fixtures}
bin=build/fuzz-$target
corpus=build/fuzz-corpus-$target
artifacts=build/fuzz-artifacts-$target/
log=build/fuzz-$target.log

echo "1..1"
if ! [[ $secs =~ ^[0-9]+$ ]] || [ "$secs" -lt 1 ]; then
	echo "not ok 1 fuzz: bad duration '$secs' (want whole seconds)"
	exit 2
fi
case $target in
reader)	max_len=131072; timeout=20 ;;
report)	max_len=1100000; timeout=30 ;;	# upstream fixtures are ~1 MB
ksyms|cmdlines|printk)	max_len=4096; timeout=10 ;;
*)	echo "not ok 1 fuzz: unknown target '$target' (reader, report, ksyms, cmdlines or printk)"
	exit 2 ;;
esac
if [ ! -x "$bin" ]; then
	echo "not ok 1 fuzz: $bin is missing (make $bin)"
	exit 1
fi
mkdir -p "$corpus" "$artifacts"
# copies only: the fixtures and regression inputs themselves are never handed to the fuzzer
seeds=("$fixtures"/*.dat "$fixtures"/upstream/*.dat tests/regress/*.dat)
[ "$target" != ksyms ] || seeds=("$fixtures"/raw/kallsyms.subset)
[ "$target" != cmdlines ] || seeds=("$fixtures"/raw/tracefs-snapshot/saved_cmdlines)
[ "$target" != printk ] || seeds=("$fixtures"/raw/tracefs-snapshot/printk_formats)
for f in "${seeds[@]}"; do
	[ -e "$f" ] && cp -f "$f" "$corpus/seed-$(basename "$f")"
done

export ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
# a fixed seed (make check): each run starts down the same path, so a landing
# does not fail on a finding drawn by chance; FUZZ_SEED=0 (make fuzz-long):
# libFuzzer draws one
"$bin" -seed="${FUZZ_SEED:-1}" -max_total_time="$secs" -rss_limit_mb=2048 -max_len="$max_len" \
	-timeout="$timeout" -print_final_stats=1 -artifact_prefix="$artifacts" \
	"$corpus" >"$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
runs=${runs:-$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)}
cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
if [ "$rc" -eq 0 ]; then
	echo "ok 1 fuzz: $target survives $secs s of libFuzzer (runs: ${runs:-?}, ${cov:-cov ?})"
	exit 0
fi
echo "not ok 1 fuzz: $target fuzzing found a problem after ${runs:-?} runs (exit $rc, log $log)"
grep -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|ERROR: libFuzzer|Test unit written|artifact_prefix' \
	"$log" | head -n 20 | sed 's/^/# /'
grep -m1 -A12 -E '^==[0-9]+==ERROR|runtime error' "$log" | sed 's/^/# /'
exit 1
