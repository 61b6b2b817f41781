#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# run-all.sh - `make check`: unit tests (plain and ASan/UBSan); then at once the
# fuzz runs (reader, report; ksyms, cmdlines, printk briefly), the mutation test and the
# bats files that do not touch the kernel; then the kernel bats files one after
# the other, each under a time limit; then the recorder's cases in a 7.3 guest.
# Ends with one line "N passed, N failed".
set -u
cd "$(dirname "$0")/.."

passed=0
failed=0

# Count TAP "ok"/"not ok" lines of one runner's output; a runner that exits
# non-zero without a failing line still counts as one failure, and one stopped
# by its time limit (timeout: 124, or 137 for SIGKILL) counts one more than its
# failing lines: the test it hung in printed none.
count_tap() {
	local name=$1 rc=$2 log=$3 p f
	p=$(grep -cE '^ok ' "$log")
	f=$(grep -cE '^not ok ' "$log")
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "# $name was killed before its end (exit $rc): counted as a failure"
		f=$((f + 1))
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
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

# The bats files that never touch tracefs (fixtures and command lines only).
kernel_free=(build cli man report report-errors report-hostile report-vm convert status-tty standalone sql fleet)

# Phase 1, at once (they share no state, and the kernel is not touched): the
# fuzz targets (their seconds are wall time), the mutation test and the
# kernel-free bats files. Each writes its own log, printed in order after.
declare -a names logs pids
start_bg() {
	local log
	log=$(mktemp)
	names+=("$1")
	logs+=("$log")
	shift
	"$@" >"$log" 2>&1 &
	pids+=($!)
}

for t in reader report; do
	if [ -x "build/fuzz-$t" ]; then
		start_bg "fuzz ($t, ${FUZZ_SECONDS:-60}s)" bash tests/fuzz/run.sh \
			"${FUZZ_SECONDS:-60}" "$t"
	fi
done
# the differential targets (our kallsyms table, saved cmdlines and kernel
# strings against libtraceevent's): short runs from their seeds, to catch a
# change that reads a line differently
for t in ksyms cmdlines printk; do
	if [ -x "build/fuzz-$t" ]; then
		start_bg "fuzz ($t, ${DIFF_FUZZ_SECONDS:-15}s)" bash tests/fuzz/run.sh \
			"${DIFF_FUZZ_SECONDS:-15}" "$t"
	fi
done
# MUTATIONS inputs (100 here, sized for CI beside the fuzzers) through the sanitizer build
start_bg "mutation test" env MUTATE_JOBS=1 bash tests/fuzz/mutate.sh "${MUTATIONS:-100}"
free_files=()
for b in "${kernel_free[@]}"; do
	free_files+=("tests/$b.bats")
done
start_bg "bats CLI tests without the kernel" bats --tap "${free_files[@]}"
for i in "${!pids[@]}"; do
	wait "${pids[$i]}"
	rc=$?
	echo "# ${names[$i]}"
	cat "${logs[$i]}"
	count_tap "${names[$i]}" "$rc" "${logs[$i]}"
	rm -f "${logs[$i]}"
done

# Phase 2: the suites that record, one file after the other on the one kernel.
# Each is killed after KERNEL_FILE_SECONDS (its whole process group, SIGKILL): a
# test that hangs fails its file, by name, and the run goes on. The longest file
# (record-long) takes about 75 s on a shared 2-CPU machine; 600 s leaves eight
# times that, and one hang still ends well inside CI's 90 minutes.
# TM_KERNEL_LOCK=FILE: each file runs under flock(1) on FILE, so that runs
# sharing this kernel (other checkouts, benchmarks) take turns file by file.
limit=${KERNEL_FILE_SECONDS:-600}
lock=()
[ -n "${TM_KERNEL_LOCK:-}" ] && lock=(flock "$TM_KERNEL_LOCK")
for f in tests/*.bats; do
	base=$(basename "$f" .bats)
	[[ " ${kernel_free[*]} " == *" $base "* ]] && continue
	run_tap "$f (live kernel, ${limit} s at most)" "${lock[@]}" timeout -s KILL "$limit" bats --tap "$f"
done

# Phase 3: the recorder on a kernel other than the host's, in a QEMU guest (Debian's
# 7.3 under TCG, tests/vm/run.sh): the mapping with each sub-buffer size and a
# persistent instance, loss accounting of an overwritten ring, a SIGKILLed recorder's
# ring and spools recovered, a --flight window written on SIGUSR2, and the crash test
# of tests/vm/crash.sh (make check-vm runs every case on 6.1, 6.12 and 7.3). Their
# ok/not ok lines count like the bats files'; TM_CI_GUEST=0 leaves them out.
if [ "${TM_CI_GUEST:-1}" != 0 ]; then
	run_tap "guest: the recorder on Linux 7.3 (tests/vm, ${GUEST_SECONDS:-720} s at most)" \
		env TM_VM_KERNEL=7.3 TM_VM_ONLY=record_on TM_VM_TIMEOUT="${GUEST_SECONDS:-720}" \
		TM_VM_BATS="record-loss:stalled_reader_reports recover:dead_recorder
			recover:SIGKILLed_recording_become record-long:flight:_SIGUSR2" \
		bash tests/vm/run.sh
	# the trace that survives a crash: boot_map armed, 500 markers, a panic, the
	# second boot's extract checked against the first boot's notes (about 60 s)
	run_tap "guest: a crash on Linux 7.3 (tests/vm/crash.sh, ${GUEST_SECONDS:-720} s at most)" \
		env TM_VM_KERNEL=7.3 TM_VM_CRASH_TIMEOUT="${GUEST_SECONDS:-720}" \
		bash tests/vm/crash.sh
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
