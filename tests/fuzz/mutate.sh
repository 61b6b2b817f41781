#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# mutate.sh [COUNT] - the mutation test: every kept regression input (tests/regress/)
# as it is, then COUNT (default $MUTATIONS, else 200)
# mutated copies of the fixtures (top level and upstream/; truncated at a random
# offset, or random bytes changed in the header, the metadata or the CPU data), each
# through the sanitizer build of `tracemap report`, `report -N`, `report --json` and
# `report --stat`, every run bounded to 30 s. Each run must end with no sanitizer
# report and no signal, and either exit 0 having accounted for every record of the
# file (JSON events + records it says it skipped = the records tm-mutate counts in
# the pages) or exit 1 with one error line (after any warnings) naming the file and
# an offset.
#
# MUTATE_SEED picks the mutated inputs (seeds MUTATE_SEED .. MUTATE_SEED+COUNT-1).
# Unset, it is the fixed CI seed below: `make check` tries the same inputs on every
# run, so a landing never fails on a crash found by chance. MUTATE_SEED=random draws
# a seed (printed), as `make fuzz-long` does by hand; an input it finds failing
# becomes a regression input (tests/regress/README.md). MUTATE_JOBS runs that many
# inputs at a time (default 2). `mutate.sh --plan [COUNT]` prints the inputs, one a
# line, without running them. Two TAP tests; a failing input is kept in
# build/mutate-failures/.
set -u
cd "$(dirname "$0")/../.."
export LC_ALL=C	# messages quote raw bytes of the mutated files

# make check's seed: its first 300 inputs were clean when it was chosen
ci_seed=20260101
seed=${MUTATE_SEED:-$ci_seed}
[ "$seed" != random ] || seed=$(( (RANDOM << 15 | RANDOM) ))
jobs=${MUTATE_JOBS:-2}
fixtures=${TM_FIXTURES:-tests/fixtures}
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

# check_all FILE WHAT: all four modes on FILE; prints "fail WHAT: why" on a failure.
check_all() {
	local file=$1 what=$2 expect mode why
	expect=$("$mutator" count "$file")
	for mode in plain -N --json --stat; do
		if ! why=$(check_run "$file" "$mode" "$expect"); then
			cp -f "$file" "$failures/"
			echo "fail $what: $why"
			return 1
		fi
	done
}

# one INDEX: mutate a fixture and check it.
one() {
	local i=$1 src file what
	src=${sources[$((i % ${#sources[@]}))]}
	file=$work/m$i-$(basename "$src")
	what=$("$mutator" make "$((seed + i))" "$src" "$file") || { echo "fail $i: tm-mutate"; return; }
	check_all "$file" "$i: $(basename "$src"), $what (seed $((seed + i)))" &&
		rm -f "$file" "$file".*
}

# kept FILE: a regression input as it is (a copy: the checks write beside it).
kept() {
	local file=$work/r-${1##*/}
	cp -f "$1" "$file" || { echo "fail $1: cannot copy"; return; }
	check_all "$file" "regression input $1" && rm -f "$file" "$file".*
}

mapfile -t sources < <(ls "$fixtures"/*.dat "$fixtures"/upstream/*.dat 2>/dev/null)
mapfile -t regress < <(ls tests/regress/*.dat 2>/dev/null)

if [ "${1:-}" = --one ]; then
	# internal: xargs runs one input per call, a mutation's index or a regression input
	if [[ $2 =~ ^[0-9]+$ ]]; then one "$2"; else kept "$2"; fi
	exit 0
fi
plan=false
if [ "${1:-}" = --plan ]; then
	plan=true
	shift
fi
count=${1:-${MUTATIONS:-200}}
if ! [[ $count =~ ^[0-9]+$ ]] || [ "$count" -lt 1 ]; then
	echo "mutate.sh: bad count '$count'" >&2
	exit 2
fi
if $plan; then
	printf 'kept %s\n' "${regress[@]}"
	for ((i = 0; i < count; i++)); do
		echo "mutate seed $((seed + i)) of ${sources[$((i % ${#sources[@]}))]##*/}"
	done
	exit 0
fi

echo "1..2"
for f in "$tracemap" "$mutator"; do
	if [ ! -x "$f" ]; then
		echo "not ok 1 mutation: $f is missing (make check builds it)"
		echo "not ok 2 mutation: $f is missing"
		exit 1
	fi
done
rm -rf "$work"
mkdir -p "$work" "$failures"
rc=0

# run_inputs N WHAT ARG...: each ARG through `--one`; one TAP line (test N) for them all.
run_inputs() {
	local n=$1 what=$2 result nfail start=$SECONDS
	shift 2
	result=$(printf '%s\n' "$@" | MUTATE_SEED=$seed TRACEMAP=$tracemap \
		xargs -P "$jobs" -n 1 bash "$0" --one)
	nfail=$(grep -c '^fail' <<<"$result")
	if [ "$nfail" -eq 0 ]; then
		echo "ok $n mutation: $what: $(($# * 4)) report runs, no crash, hang or" \
		     "unaccounted event ($((SECONDS - start)) s)"
		return
	fi
	echo "not ok $n mutation: $what: $nfail of $# failed (inputs in $failures/)"
	grep '^fail' <<<"$result" | head -n 20 | sed 's/^/# /'
	rc=1
}

run_inputs 1 "${#regress[@]} kept regression inputs" "${regress[@]}"
what="$count inputs of seed $seed"
[ "$seed" = "$ci_seed" ] && what+=" (fixed)" || what+=" (replay: MUTATE_SEED=$seed)"
mapfile -t indexes < <(seq 0 $((count - 1)))
run_inputs 2 "$what" "${indexes[@]}"
exit $rc
