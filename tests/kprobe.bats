#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kprobe.bats - --kprobe='SYMBOL[+OFF][%return] [FETCHARGS]': specs checked before
# anything starts; a probe the kernel refuses (all of them where it has no kprobe
# events, as on the development machine) is one line, exit 1, and nothing is left:
# no probe, no instance, no file. The probes' recordings, their removal on every exit
# path, reset and recover are guest cases (tests/vm/guest-tests.sh: case_kprobe*),
# where the kernel allows kprobes.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	tm_kernel_setup
}

teardown() {
	tm_kernel_teardown
}

@test "record --kprobe: a spec that is not SYMBOL[+OFF][%return] [FETCHARGS] is a usage error" {
	local spec
	for spec in '' ' do_sys_openat2' '%return' 'do_sys_openat2+' 'do_sys_openat2+x' \
		'do_sys_openat2+-4' 'do_%sys' 'do_sys_openat2+4%return%return'; do
		run --separate-stderr "$TRACEMAP" record --kprobe="$spec" -o "$TM_TMP/x.dat" -- true
		tm_status 2
		[[ ${stderr_lines[0]} == "tracemap record: bad kprobe '$spec'"* ]] ||
			{ echo "$spec: $stderr" >&2; return 1; }
	done
	# a newline would start another kprobe_events command: refused, not echoed
	run --separate-stderr "$TRACEMAP" stream --kprobe=$'do_sys_openat2\n-:tracemap_1/x' -- true
	tm_status 2
	[ "${stderr_lines[0]}" = "tracemap stream: bad kprobe: control character \\x0a at byte 14 (expected SYMBOL[+OFF][%return] [FETCHARGS])" ] ||
		{ echo "$stderr" >&2; return 1; }
	[ ! -e "$TM_TMP/x.dat" ]
}

# What the kernel refuses, as one line: on a kernel without kprobe events the first
# (good) probe, elsewhere the second, whose symbol no kernel has; then the first is gone.
kprobe_refused() {
	local sub=$1 line pid
	shift
	run --separate-stderr timeout -s KILL 60 "$TRACEMAP" "$sub" \
		--kprobe='do_sys_openat2 dfd=%di' --kprobe='tm_no_such_function%return' "$@"
	tm_status 1
	[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$stderr" >&2; return 1; }
	line=${stderr_lines[0]}
	if [ -e "$TRACEFS/kprobe_events" ]; then
		[[ $line == "tracemap $sub: kprobe 'tm_no_such_function%return': add 'r:tracemap_"[0-9]*"/tm_no_such_function__return tm_no_such_function' to "*": "* ]] ||
			{ echo "$line" >&2; return 1; }
	else
		[[ $line == "tracemap $sub: kprobe 'do_sys_openat2 dfd=%di': add 'p:tracemap_"[0-9]*"/do_sys_openat2 do_sys_openat2 dfd=%di' to dynamic_events: Invalid argument (this kernel has no kprobe events: no kprobe_events in $TRACEFS)" ]] ||
			{ echo "$line" >&2; return 1; }
	fi
	# no probe of that run left, nor its instance (the teardown checks the whole state)
	pid=$(sed 's/.*tracemap_\([0-9]*\)\/.*/\1/' <<<"$line")
	! grep -q "tracemap_$pid/" "$TRACEFS/dynamic_events" || return 1
	[ ! -e "$TRACEFS/instances/tracemap-$pid" ]
}

@test "record --kprobe: what the kernel refuses is one line with its errno, exit 1, nothing left" {
	kprobe_refused record -e sched:sched_switch -o "$TM_TMP/k.dat" -- true
	[ ! -e "$TM_TMP/k.dat" ]
	[ -z "$(ls "$TM_TMP")" ]
}

@test "stream --kprobe: what the kernel refuses is one line with its errno, exit 1, nothing left" {
	kprobe_refused stream -- true
	[ -z "$output" ]
}
