#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# arm.bats - `tracemap arm` on the live kernel: this host has no persistent
# instance, so a plain one is refused without --force, armed with it (events on,
# tracing on, still so after tracemap exits), stopped and cleared; the top level
# (tm_kernel_setup's check) and another instance stay exactly as they were.

load helpers

setup() {
	tm_kernel_setup
	ARM_INST=tm-arm-$$-${BATS_TEST_NUMBER:-0}
	ARM_DIR=$TRACEFS/instances/$ARM_INST
	OTHER_DIR=$TRACEFS/instances/tm-arm-other-$$
	mkdir "$ARM_DIR" "$OTHER_DIR"
	echo 0 >"$ARM_DIR/tracing_on"
	# another instance with something in its buffer
	echo "other $$" >"$OTHER_DIR/trace_marker"
	echo 0 >"$OTHER_DIR/tracing_on"
}

teardown() {
	rmdir "$ARM_DIR" "$OTHER_DIR" 2>/dev/null || true
	tm_kernel_teardown
}

# Every setting of an instance a test could change, and what its buffer holds (the
# task name column left out: the kernel's comm cache is global, sched_switch fills it).
inst_digest() {
	{ cat "$1/tracing_on" "$1/buffer_size_kb" "$1/trace_clock" "$1/current_tracer"
	  cat "$1"/events/*/*/enable "$1"/events/*/*/filter
	  grep -v '^#' "$1/trace" | sed 's/^.*-\([0-9][0-9]* *\[\)/\1/'; } 2>/dev/null | md5sum
}

@test "arm: a plain instance is refused in one line without --force, nothing changed" {
	local before
	before=$(inst_digest "$ARM_DIR")
	run "$TRACEMAP" arm -B "$ARM_INST" -e sched:sched_switch
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "tracemap arm: instance $ARM_INST is not persistent (no last_boot_info"*\
"--force arms it anyway" ]]
	[ "$(inst_digest "$ARM_DIR")" = "$before" ]
}

@test "arm --force: events and tracing on after tracemap exits; --stop, --clear; others untouched" {
	local other
	other=$(inst_digest "$OTHER_DIR")
	grep -q "other $$" "$OTHER_DIR/trace"
	run "$TRACEMAP" arm --force -B "$ARM_INST" -e sched:sched_switch -e irq
	tm_status 0
	[ "$(cat "$ARM_DIR/tracing_on")" = 1 ]
	[ "$(cat "$ARM_DIR/events/sched/sched_switch/enable")" = 1 ]
	[ "$(cat "$ARM_DIR/events/sched/sched_wakeup/enable")" = 0 ]
	[ "$(sort -u "$ARM_DIR"/events/irq/*/enable)" = 1 ]
	# it runs: a marker and the scheduler's events reach the buffer
	echo "armed $$" >"$ARM_DIR/trace_marker"
	sleep 0.1
	grep -q "armed $$" "$ARM_DIR/trace"
	grep -q 'sched_switch:' "$ARM_DIR/trace"
	run "$TRACEMAP" arm --stop -B "$ARM_INST"
	tm_status 0
	[ "$(cat "$ARM_DIR/tracing_on")" = 0 ]
	[ "$(cat "$ARM_DIR/events/sched/sched_switch/enable")" = 1 ]
	grep -q "armed $$" "$ARM_DIR/trace"
	run "$TRACEMAP" arm --clear -B "$ARM_INST"
	tm_status 0
	[ -z "$(grep -v '^#' "$ARM_DIR/trace")" ]
	[ "$(inst_digest "$OTHER_DIR")" = "$other" ]
	echo 0 >"$ARM_DIR/events/enable"
}

@test "arm: an unknown event or instance fails in one line; usage errors exit 2" {
	run "$TRACEMAP" arm --force -B "$ARM_INST" -e no_such_system_$$
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "tracemap arm: event no_such_system_$$: no such event"* ]]
	[ "$(cat "$ARM_DIR/tracing_on")" = 0 ]
	run "$TRACEMAP" arm -B "no-such-instance-$$" --stop
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	run "$TRACEMAP" arm -e sched
	tm_status 2
	run "$TRACEMAP" arm -B "$ARM_INST"
	tm_status 2
	run "$TRACEMAP" arm -B "$ARM_INST" --stop --clear
	tm_status 2
}
