#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# arm.bats - `tracemap arm` on the live kernel: this host has no persistent
# instance, so a plain one is refused without --force, armed with it (events,
# filters, options, clock, tracing on, still so after tracemap exits), stopped and
# cleared; a setting the kernel refuses halfway leaves the instance exactly as it was
# found; the top level (tm_kernel_setup's check) and another instance stay as they were.
# (The persistent instance itself is armed in the guest: tests/vm/guest-crash.sh.)

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
	  cat "$1"/events/*/*/enable "$1"/events/*/*/filter "$1"/options/*
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

@test "arm -f -O -C: filter, option and clock set and left so; others untouched" {
	local other
	other=$(inst_digest "$OTHER_DIR")
	[ "$(cat "$ARM_DIR/options/stacktrace")" = 0 ]
	run "$TRACEMAP" arm --force -B "$ARM_INST" -e sched:sched_switch -f 'prev_pid != 0' \
		-e sched:sched_wakeup -O stacktrace -O noirq-info -C mono
	tm_status 0
	[ "$(cat "$ARM_DIR/tracing_on")" = 1 ]
	[ "$(cat "$ARM_DIR/events/sched/sched_switch/filter")" = 'prev_pid != 0' ]
	[ "$(cat "$ARM_DIR/events/sched/sched_wakeup/filter")" = none ]
	[ "$(cat "$ARM_DIR/events/sched/sched_wakeup/enable")" = 1 ]
	[ "$(cat "$ARM_DIR/options/stacktrace")" = 1 ]
	[ "$(cat "$ARM_DIR/options/irq-info")" = 0 ]
	[[ $(cat "$ARM_DIR/trace_clock") == *"[mono]"* ]]
	# the kernel records with them: a stack after a switch, no switch away from pid 0
	tm_wait 10 "a sched_switch with its stack" grep -q -A1 'sched_switch:' "$ARM_DIR/trace"
	grep -A1 'sched_switch:' "$ARM_DIR/trace" | grep -q '<stack trace>'
	! grep 'sched_switch: prev_comm=[^ ]* prev_pid=0 ' "$ARM_DIR/trace" || return 1
	[ "$(inst_digest "$OTHER_DIR")" = "$other" ]
	echo 0 >"$ARM_DIR/tracing_on"
	echo 0 >"$ARM_DIR/events/enable"
	echo 0 >"$ARM_DIR/events/sched/sched_switch/filter"
}

@test "arm: a filter the kernel refuses puts back every file written before it" {
	local before other
	echo 1 >"$ARM_DIR/events/sched/sched_waking/enable"
	before=$(inst_digest "$ARM_DIR")
	other=$(inst_digest "$OTHER_DIR")
	run "$TRACEMAP" arm --force -B "$ARM_INST" -O stacktrace -e sched -e irq \
		-e sched:sched_switch -f "no_such_field_$$ == 1"
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "tracemap arm: "*"sched_switch/filter"*"(instance $ARM_INST left as it was)" ]]
	# the system's events were all enabled on the way, then put back one by one
	[ "$(cat "$ARM_DIR/events/sched/sched_waking/enable")" = 1 ]
	[ "$(cat "$ARM_DIR/events/sched/sched_wakeup/enable")" = 0 ]
	[ "$(inst_digest "$ARM_DIR")" = "$before" ]
	[ "$(inst_digest "$OTHER_DIR")" = "$other" ]
	echo 0 >"$ARM_DIR/events/sched/sched_waking/enable"
}

@test "arm: a tracer the kernel refuses, unknown names: one line, the instance as it was" {
	local before
	before=$(inst_digest "$ARM_DIR")
	# this host refuses the function tracer (EPERM); a kernel that takes it runs it
	if grep -qw function "$ARM_DIR/available_tracers"; then
		run "$TRACEMAP" arm --force -B "$ARM_INST" -e sched:sched_switch -O stacktrace \
			-p function
		if [ "$status" = 0 ]; then
			[ "$(cat "$ARM_DIR/current_tracer")" = function ]
			echo nop >"$ARM_DIR/current_tracer"
			echo 0 >"$ARM_DIR/tracing_on"
			echo 0 >"$ARM_DIR/events/enable"
			echo 0 >"$ARM_DIR/options/stacktrace"
		else
			tm_status 1
			[ "${#lines[@]}" -eq 1 ]
			[[ $output == *"current_tracer"*"(instance $ARM_INST left as it was)" ]]
		fi
		[ "$(inst_digest "$ARM_DIR")" = "$before" ]
	fi
	for bad in "-O no_such_option_$$" "-p no_such_tracer_$$" "-C no_such_clock_$$" \
		   "-e sched -e no_such_system_$$"; do
		run "$TRACEMAP" arm --force -B "$ARM_INST" -e sched:sched_switch $bad
		tm_status 1
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"no_such_"*"$$"* ]]
		[ "$(inst_digest "$ARM_DIR")" = "$before" ]
	done
	run "$TRACEMAP" arm --force -B "$ARM_INST" -f 'prev_pid == 1'
	tm_status 2
	run "$TRACEMAP" arm --force -B "$ARM_INST" -O stacktrace --stop
	tm_status 2
}
