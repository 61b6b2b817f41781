#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# list.bats - `tracemap list` against the kernel's own tracefs files, and that it changes nothing.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	tm_kernel_setup
	SCRATCH=tmhelper-list-$$
}

teardown() {
	rmdir "$TRACEFS/instances/$SCRATCH" 2>/dev/null || true
	tm_kernel_teardown
}

# Every events/SYSTEM/EVENT directory of tracefs dir $1 as SYSTEM:EVENT, byte-sorted.
kernel_events() {
	(cd "$1/events" && find . -mindepth 2 -maxdepth 2 -type d) |
		sed 's|^\./||; s|/|:|' | LC_ALL=C sort
}

# Digest of every event's enable and filter file: list must leave them alone.
events_digest() {
	cat "$TRACEFS"/events/*/*/enable "$TRACEFS"/events/*/*/filter 2>/dev/null | md5sum
}

@test "list: -e prints every events/SYSTEM/EVENT directory as SYSTEM:EVENT" {
	run --separate-stderr "$TRACEMAP" list -e
	tm_status 0
	[ "${#lines[@]}" -gt 100 ]
	diff <(kernel_events "$TRACEFS") <(printf '%s\n' "$output")
}

@test "list: no selector lists the events, as -e does" {
	local all
	all=$("$TRACEMAP" list -e)
	run "$TRACEMAP" list
	tm_status 0
	[ "$output" = "$all" ]
}

@test "list: -e sched:sched_switch prints exactly sched:sched_switch" {
	tm_need "sched:sched_switch event" test -d "$TRACEFS/events/sched/sched_switch"
	run --separate-stderr "$TRACEMAP" list -e sched:sched_switch
	tm_status 0
	[ "$output" = "sched:sched_switch" ]
}

@test "list: -e REGEX keeps the events an extended regex matches, in every spelling" {
	local re='^(sched:sched_wak|irq:)' expect
	expect=$(kernel_events "$TRACEFS" | grep -E "$re")
	[ -n "$expect" ]
	run "$TRACEMAP" list -e "$re"
	tm_status 0
	[ "$output" = "$expect" ]
	run "$TRACEMAP" list "-e$re"
	[ "$output" = "$expect" ]
	run "$TRACEMAP" list --events="$re"
	[ "$output" = "$expect" ]
	run "$TRACEMAP" list "$re"
	[ "$output" = "$expect" ]
}

@test "list: -e with a REGEX that matches nothing prints nothing and succeeds" {
	run --separate-stderr "$TRACEMAP" list -e '^no-such-system-xyz:'
	tm_status 0
	[ -z "$output" ]
	[ -z "$stderr" ]
}

@test "list: -s prints the event systems" {
	local expect
	expect=$(cd "$TRACEFS/events" && for d in */; do echo "${d%/}"; done | LC_ALL=C sort)
	run --separate-stderr "$TRACEMAP" list -s
	tm_status 0
	[ "$output" = "$expect" ]
}

@test "list: -c prints trace_clock's clocks and brackets the current one" {
	local words current
	words=$(tr ' ' '\n' < "$TRACEFS/trace_clock" | sed '/^$/d')
	current=$(grep -o '\[[^]]*\]' "$TRACEFS/trace_clock")
	run --separate-stderr "$TRACEMAP" list -c
	tm_status 0
	[ "$output" = "$words" ]
	[ "$(printf '%s\n' "$output" | grep '^\[')" = "$current" ]
}

@test "list: -t prints available_tracers" {
	local expect
	expect=$(tr ' ' '\n' < "$TRACEFS/available_tracers" | sed '/^$/d' | LC_ALL=C sort)
	run --separate-stderr "$TRACEMAP" list -t
	tm_status 0
	[ "$output" = "$expect" ]
}

@test "list: -o prints every options/ file as NAME VALUE with its value" {
	local f expect=""
	expect=$(for f in "$TRACEFS"/options/*; do echo "${f##*/} $(cat "$f")"; done |
		LC_ALL=C sort)
	run --separate-stderr "$TRACEMAP" list -o
	tm_status 0
	[ "$output" = "$expect" ]
}

@test "list: -F prints an event's format file, by SYSTEM:EVENT and by bare name" {
	local fmt=$TRACEFS/events/sched/sched_switch/format
	tm_need "sched:sched_switch event" test -r "$fmt"
	"$TRACEMAP" list -F sched:sched_switch > "$TM_TMP/full"
	cmp "$fmt" "$TM_TMP/full"
	"$TRACEMAP" list -F sched_switch > "$TM_TMP/bare"
	cmp "$fmt" "$TM_TMP/bare"
	"$TRACEMAP" list --format=sched/sched_switch > "$TM_TMP/slash"
	cmp "$fmt" "$TM_TMP/slash"
}

@test "list: -F of an unknown event fails with one line naming it" {
	run --separate-stderr "$TRACEMAP" list -F sched:no_such_event_xyz
	tm_status 1
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "tracemap list: "*"sched:no_such_event_xyz"* ]]
	run --separate-stderr "$TRACEMAP" list -F no_such_event_xyz
	tm_status 1
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"no_such_event_xyz"* ]]
	run --separate-stderr "$TRACEMAP" list -F ../sched_switch
	tm_status 1
}

@test "list: -B reads another instance: its own clock and options" {
	mkdir "$TRACEFS/instances/$SCRATCH"
	local inst=$TRACEFS/instances/$SCRATCH top_clock other
	top_clock=$(grep -o '\[[^]]*\]' "$TRACEFS/trace_clock" | tr -d '[]')
	# give the scratch instance a clock the top level does not use
	other=$(tr ' ' '\n' < "$inst/trace_clock" | grep -v '^\[' | grep -vx "$top_clock" |
		sed '/^$/d' | head -n1)
	echo "$other" > "$inst/trace_clock"
	run --separate-stderr "$TRACEMAP" list -c -B "$SCRATCH"
	tm_status 0
	[ "$(printf '%s\n' "$output" | grep '^\[')" = "[$other]" ]
	run "$TRACEMAP" list -c
	[ "$(printf '%s\n' "$output" | grep '^\[')" = "[$top_clock]" ]
	local f expect
	expect=$(for f in "$inst"/options/*; do echo "${f##*/} $(cat "$f")"; done | LC_ALL=C sort)
	run "$TRACEMAP" list -o --instance="$SCRATCH"
	tm_status 0
	[ "$output" = "$expect" ]
	run "$TRACEMAP" list -e -B "$SCRATCH"
	tm_status 0
	diff <(kernel_events "$inst") <(printf '%s\n' "$output")
	rmdir "$inst"
}

@test "list: -B of an instance that does not exist fails with one line" {
	run --separate-stderr "$TRACEMAP" list -B "$SCRATCH"
	tm_status 1
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "tracemap list: "*"$SCRATCH"* ]]
	[ ! -e "$TRACEFS/instances/$SCRATCH" ]
}

@test "list: every selector leaves tracefs unchanged, down to each event's enable and filter" {
	local before
	before=$(events_digest)
	for sel in -e -s -c -t -o "-F sched:sched_switch" "-e sched" -f; do
		# -f fails where the kernel refuses function tracing: still no change
		# shellcheck disable=SC2086
		"$TRACEMAP" list $sel > /dev/null || [ "$sel" = -f ]
	done
	[ "$(events_digest)" = "$before" ]
	tm_state_check
}

@test "list: opens nothing in tracefs for writing and creates or removes nothing" {
	tm_need strace command -v strace
	local sel log=$TM_TMP/strace.log
	for sel in -e -s -c -t -o "-F sched_switch" "-f vfs_"; do
		# shellcheck disable=SC2086
		ASAN_OPTIONS=detect_leaks=0 strace -f -qq -o "$log" -e trace=open,openat,openat2,mkdir,mkdirat,rmdir,unlink,unlinkat,mount,truncate \
			"$TRACEMAP" list $sel > /dev/null || [[ $sel == -f* ]]
		# a write-mode open of a tracefs file, or any directory change there
		if grep -E "\"${TRACEFS}[^\"]*\", [^)]*(O_WRONLY|O_RDWR|O_CREAT|O_TRUNC)|(mkdir|rmdir|unlink|mount|truncate)[a-z]*\(" "$log"; then
			echo "list $sel wrote to tracefs" >&2
			return 1
		fi
		# the trace really went through tracefs
		grep -q "\"$TRACEFS" "$log"
	done
}

@test "list: -f prints the traceable functions, or the kernel's refusal in one line" {
	local f=$TRACEFS/available_filter_functions
	if ! head -c1 "$f" >/dev/null 2>&1; then
		run --separate-stderr "$TRACEMAP" list -f vfs_read
		tm_status 1
		[[ $stderr == "tracemap list: open $f: Operation not permitted" ]] ||
			{ echo "$stderr" >&2; return 1; }
		return
	fi
	run "$TRACEMAP" list -f '^vfs_read$'
	tm_status 0
	[ "$output" = vfs_read ]
	run "$TRACEMAP" list -f
	[ "${#lines[@]}" -eq "$(wc -l <"$f")" ]
}

@test "list: -f with a bare REGEX after -f filters the functions, two selectors are refused" {
	run "$TRACEMAP" list -f -t
	tm_status 2
	[[ $output == *"choose one of -e, -s, -c, -t, -o, -F, -f"* ]]
	run "$TRACEMAP" list -f '('
	tm_status 2
	[[ $output == *"invalid REGEX '('"* ]]
}

@test "list -I: every instance with its buffer size; a plain one is not persistent" {
	local kb
	mkdir "$TRACEFS/instances/$SCRATCH"
	echo 2048 >"$TRACEFS/instances/$SCRATCH/buffer_size_kb"
	kb=$(cat "$TRACEFS/instances/$SCRATCH/buffer_size_kb")
	run --separate-stderr "$TRACEMAP" list -I
	tm_status 0
	[ -z "$stderr" ]
	# exactly the kernel's instances, sorted, each "NAME SIZE KiB"
	[ "$(printf '%s\n' "${lines[@]}" | sed 's/ .*//')" = \
		"$(ls "$TRACEFS/instances" | LC_ALL=C sort)" ]
	printf '%s\n' "${lines[@]}" | grep -qx "$SCRATCH $kb KiB"
	# persistent only where the kernel has last_boot_info (none on this host)
	local n_persist
	n_persist=$(find "$TRACEFS/instances" -mindepth 2 -maxdepth 2 -name last_boot_info | wc -l)
	[ "$(printf '%s\n' "${lines[@]}" | grep -c ' persistent')" -eq "$n_persist" ]
	run "$TRACEMAP" list -I -e
	tm_status 2
}
