#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# mutate.sh [COUNT] - the mutation test: COUNT (default $MUTATIONS, else 200) mutated
# copies of the fixtures (top level and upstream/; truncated at a random offset, or
# random bytes changed in the header, the metadata or the CPU data) each through the
# sanitizer build of `tracemap report`, `report -N`, `report --json` and
# `report --stat`, every run bounded to 30 s. Each run must end with no sanitizer
# report and no signal, and either exit 0 having accounted for every record of the
# file (JSON events + records it says it skipped = the records tm-mutate counts in
# the pages) or exit 1 with one error line (after any warnings) naming the file and
# an offset. MUTATE_SEED picks the inputs (default: random, printed); MUTATE_JOBS
# runs that many inputs at a time (default 2). One TAP test; a failing input is kept
# in build/mutate-failures/.
set -u
cd "$(dirname "$0")/../.."
export LC_ALL=C	# messages quote raw bytes of the mutated files

count=${1:-${MUTATIONS:-200}}
seed=${MUTATE_SEED:-$(( (RANDOM << 15 | RANDOM) ))}
jobs=${MUTATE_JOBS:-2}
fixtures=${TM_FIXTURES:-../shared/fixtures}
tracemap=${TRACEMAP:-build/asan/tracemap}
mutator=build/tm-mutate
work=build/mutate
failures=build/mutate-failures

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}

# check_run FILE MODE EXPECTED_COUNT: one report run; prints a reason and returns 1 if wrong.
check_run() {
	local file=$1 mode=$2 expect=$3 out err rc lines errors skipped events
	out=$file.$mode.out
	err=$file.$mode.err
	# shellcheck disable=SC2086 # the mode is one option or none
	timeout -s KILL 30 "$tracemap" report ${mode#plain} -i "$file" >"$out" 2>"$err"
	rc=$?
	if grep -aqE 'Sanitizer|runtime error' "$err"; then
		echo "report $mode: sanitizer report: $(grep -a -m1 -E 'SUMMARY|runtime error' "$err")"
		return 1
	fi
	case $rc in
	0|1) ;;
	137) echo "report $mode: killed after 30 s (hang)"; return 1 ;;
	*) echo "report $mode: exit $rc: $(tail -n 1 "$err")"; return 1 ;;
	esac
	errors=$(grep -avc 'warning: ' "$err")
	if [ "$rc" -eq 1 ]; then
		lines=$(grep -av 'warning: ' "$err")
		if [ "$errors" -ne 1 ] || [[ $lines != *"$file"* ]] || [[ $lines != *offset* ]]; then
			echo "report $mode: exit 1 without one error line naming the file and an offset:"
			head -n 3 "$err"
			return 1
		fi
		return 0
	fi
	if [ "$errors" -ne 0 ]; then
		echo "report $mode: exit 0 with an error line: $(grep -av -m1 'warning: ' "$err")"
		return 1
	fi
	[ "$mode" = --stat ] && return 0
	if [[ $expect == error* ]]; then
		echo "report $mode: exit 0 but the pages cannot be walked ($expect)"
		return 1
	fi
	[ "$mode" = --json ] || return 0
	events=$(grep -ac '"timestamp_ns"' "$out")
	skipped=$(sed -n 's/.* \([0-9]*\) records skipped .*/\1/p' "$err" | tail -n 1)
	if [ "$((events + ${skipped:-0}))" -ne "$expect" ]; then
		echo "report --json: $events events + ${skipped:-0} skipped, the pages hold $expect"
		return 1
	fi
}

# one INDEX: mutate a fixture and check all four modes; prints "fail ..." on a failure.
one() {
	local i=$1 src file what expect mode why
	src=${sources[$((i % ${#sources[@]}))]}
	file=$work/m$i-$(basename "$src")
	what=$("$mutator" make "$((seed + i))" "$src" "$file") || { echo "fail $i: tm-mutate"; return; }
	expect=$("$mutator" count "$file")
	for mode in plain -N --json --stat; do
		if ! why=$(check_run "$file" "$mode" "$expect"); then
			cp -f "$file" "$failures/"
			echo "fail $i: $(basename "$src"), $what (seed $((seed + i))): $why"
			return
		fi
	done
	rm -f "$file" "$file".*
}

if [ "${1:-}" = --one ]; then
	# internal: xargs runs one input per call
	mapfile -t sources < <(ls "$fixtures"/*.dat "$fixtures"/upstream/*.dat 2>/dev/null)
	seed=$MUTATE_SEED
	one "$2"
	exit 0
fi

echo "1..1"
if ! [[ $count =~ ^[0-9]+$ ]] || [ "$count" -lt 1 ]; then
	echo "not ok 1 mutation: bad count '$count'"
	exit 2
fi
for f in "$tracemap" "$mutator"; do
	if [ ! -x "$f" ]; then
		echo "not ok 1 mutation: $f is missing (make check builds it)"
		exit 1
	fi
done
rm -rf "$work"
mkdir -p "$work" "$failures"
start=$SECONDS
result=$(seq 0 $((count - 1)) | MUTATE_SEED=$seed TRACEMAP=$tracemap \
	xargs -P "$jobs" -n 1 bash "$0" --one)
nfail=$(grep -c '^fail' <<<"$result")
if [ "$nfail" -eq 0 ]; then
	echo "ok 1 mutation: $count inputs tried, $((count * 4)) report runs, no crash, hang or" \
	     "unaccounted event (seed $seed, $((SECONDS - start)) s)"
	exit 0
fi
echo "not ok 1 mutation: $nfail of $count inputs failed (seed $seed; inputs in $failures/)"
grep '^fail' <<<"$result" | head -n 20 | sed 's/^/# /'
exit 1
