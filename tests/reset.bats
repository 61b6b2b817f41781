#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# reset.bats - `tracemap reset`: finds and removes only instances of dead tracemap processes.

load helpers
bats_require_minimum_version 1.5.0

# Stale tracemap-PID instances that were there before the test (a recorder of
# another session killed with SIGKILL leaves one): `reset --stale` rightly removes
# them, so the state check leaves them out. A regex for TM_STATE_IGNORE.
stale_before() {
	local names
	names=$("$TRACEMAP" reset 2>/dev/null | sed -n 's/^would remove \(tracemap-[0-9]*\)$/\1/p' |
		paste -sd '|')
	echo "^(${names:-\$})\$"
}

setup() {
	TM_STATE_IGNORE=$(stale_before)
	tm_kernel_setup
	CREATED=()
	LIVE_PIDS=()
	# a pid that no longer exists: a short process we waited for
	sh -c 'exit 0' &
	DEAD=$!
	wait "$DEAD" || true
	! kill -0 "$DEAD" 2>/dev/null || return 1
	# a running process whose comm is "tracemap": a symlink of that name to sleep
	# (the forked shell is "bash" until its exec)
	ln -s "$(command -v sleep)" "$TM_TMP/tracemap"
	"$TM_TMP/tracemap" 300 3>&- &
	LIVE=$!
	LIVE_PIDS+=("$LIVE")
	tm_wait 30 "pid $LIVE to run as tracemap" live_is_tracemap
	# a running process that is not tracemap: its pid in a tracemap-PID name is stale
	sleep 300 3>&- &
	OTHER=$!
	LIVE_PIDS+=("$OTHER")
	UNRELATED=tmhelper-reset-$$
}

teardown() {
	local p name
	for p in "${LIVE_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	for name in "${CREATED[@]}"; do
		rmdir "$TRACEFS/instances/$name" 2>/dev/null || true
	done
	tm_kernel_teardown
}

make_instance() {
	mkdir "$TRACEFS/instances/$1"
	CREATED+=("$1")
}

# reset's status is 0, or 1 only for instances this test did not create (another
# user's instance can be busy, e.g. a concurrently running test's).
reset_status_ok() {
	[ "$status" -eq 0 ] && return 0
	local name
	[ "$status" -eq 1 ] || { echo "status $status: $stderr" >&2; return 1; }
	for name in "${CREATED[@]}"; do
		[[ $stderr != *"/$name:"* ]] || { echo "$stderr" >&2; return 1; }
	done
}

# The comm of the live process really is "tracemap" (what reset looks at).
live_is_tracemap() {
	[ "$(cat "/proc/$LIVE/comm" 2>/dev/null)" = tracemap ]
}

@test "reset: without --stale names the stale instances and removes nothing" {
	live_is_tracemap
	make_instance "tracemap-$DEAD"
	make_instance "tracemap-$OTHER"
	make_instance "tracemap-$LIVE"
	make_instance "$UNRELATED"
	run --separate-stderr "$TRACEMAP" reset
	tm_status 0
	[[ $output == *"would remove tracemap-$DEAD"* ]]
	[[ $output == *"would remove tracemap-$OTHER"* ]]
	[[ $output != *"tracemap-$LIVE"* ]]
	[[ $output != *"$UNRELATED"* ]]
	[[ $stderr == *"reset --stale"* ]]
	local name
	for name in "${CREATED[@]}"; do
		[ -d "$TRACEFS/instances/$name" ]
	done
}

@test "reset: --stale removes only instances of dead or non-tracemap pids" {
	live_is_tracemap
	make_instance "tracemap-$DEAD"
	make_instance "tracemap-$OTHER"
	make_instance "tracemap-$LIVE"
	make_instance "$UNRELATED"
	run --separate-stderr "$TRACEMAP" reset --stale
	reset_status_ok
	[[ $output == *"removed tracemap-$DEAD"* ]]
	[[ $output == *"removed tracemap-$OTHER"* ]]
	[[ $output != *"tracemap-$LIVE"* ]]
	[[ $output != *"$UNRELATED"* ]]
	[ ! -e "$TRACEFS/instances/tracemap-$DEAD" ]
	[ ! -e "$TRACEFS/instances/tracemap-$OTHER" ]
	[ -d "$TRACEFS/instances/tracemap-$LIVE" ]
	[ -d "$TRACEFS/instances/$UNRELATED" ]
}

@test "reset: --stale a second time finds nothing left to remove" {
	make_instance "tracemap-$DEAD"
	"$TRACEMAP" reset --stale > /dev/null
	[ ! -e "$TRACEFS/instances/tracemap-$DEAD" ]
	run --separate-stderr "$TRACEMAP" reset --stale
	reset_status_ok
	[[ $output != *"tracemap-$DEAD"* ]]
	run --separate-stderr "$TRACEMAP" reset
	tm_status 0
	[[ $output != *"tracemap-$DEAD"* ]]
	# with nothing stale (none left by another session), no dry-run line either
	[[ $stderr != *"no stale tracemap instances"* ]] || [[ $stderr != *"dry run"* ]]
}

@test "reset: --stale removes the instance of a zombie tracemap" {
	local zombie holder helper=$TM_ROOT/build/tm-zombie
	# a child "tracemap" that has exited, and a parent that never reaps it (for
	# 300 s at most); it is a zombie by the time tm-zombie prints its pid
	read -r zombie holder < <(timeout -s KILL 30 "$helper" tracemap 300) || true
	[ -n "$holder" ] || { echo "no zombie from $helper (make asan builds it)" >&2; return 1; }
	LIVE_PIDS+=("$holder")
	[ "$(awk '{ print $3 }' "/proc/$zombie/stat")" = Z ]
	[ "$(cat "/proc/$zombie/comm")" = tracemap ]
	make_instance "tracemap-$zombie"
	run --separate-stderr "$TRACEMAP" reset --stale
	reset_status_ok
	[[ $output == *"removed tracemap-$zombie"* ]]
	[ ! -e "$TRACEFS/instances/tracemap-$zombie" ]
}

@test "reset: names that only look like tracemap-PID are left alone" {
	make_instance "tracemap-0$DEAD"
	make_instance "tracemap-${DEAD}x"
	run --separate-stderr "$TRACEMAP" reset --stale
	reset_status_ok
	[ -d "$TRACEFS/instances/tracemap-0$DEAD" ]
	[ -d "$TRACEFS/instances/tracemap-${DEAD}x" ]
}
