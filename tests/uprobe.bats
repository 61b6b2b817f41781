#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# uprobe.bats - --uprobe=PATH:SYMBOL[+OFF][%return]: a probe of tracemap's own
# group per spec, exact hit counts, nothing left after exit, reset --stale after SIGKILL.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	tm_kernel_setup
	tm_need "a C compiler (cc)" command -v cc
	# a program whose function runs once per run
	cat >"$TM_TMP/target.c" <<'C'
__attribute__((noinline)) int tm_probe_target(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 2 + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	return tm_probe_target(argc) == 3 ? 0 : 1;
}
C
	cc -O1 -g -o "$TM_TMP/target" "$TM_TMP/target.c"
}

teardown() {
	local p
	[ -n "${REC_BG:-}" ] && { kill -KILL "$REC_PID" 2>/dev/null || true; wait "$REC_BG" 2>/dev/null || true; }
	[ -n "${OWN_PROBE:-}" ] && echo "-:$OWN_PROBE" >>"$TRACEFS/uprobe_events"
	for p in ${STALE_LEFT:-}; do
		rmdir "$TRACEFS/instances/tracemap-$p" 2>/dev/null || true
		sed -n "s|^[pr]:\(tracemap_$p/[^ ]*\) .*|-:\1|p" "$TRACEFS/uprobe_events" |
			while read -r l; do echo "$l" >>"$TRACEFS/uprobe_events"; done
	done
	tm_kernel_teardown
}

@test "record --uprobe: N runs of the program give exactly N hits, entry and return" {
	local n=5
	run "$TRACEMAP" record -q --uprobe "$TM_TMP/target:tm_probe_target" \
		--uprobe "$TM_TMP/target:tm_probe_target%return" -o "$TM_TMP/u.dat" -- \
		sh -c "for i in \$(seq $n); do '$TM_TMP/target'; done"
	tm_status 0
	"$TRACEMAP" report "$TM_TMP/u.dat" >"$TM_TMP/tm.txt"
	[ "$(grep -c ' tm_probe_target: ' "$TM_TMP/tm.txt")" -eq "$n" ] || { cat "$TM_TMP/tm.txt" >&2; return 1; }
	[ "$(grep -c ' tm_probe_target__return: ' "$TM_TMP/tm.txt")" -eq "$n" ] || { cat "$TM_TMP/tm.txt" >&2; return 1; }
	# each hit in the program's own task, and trace-cmd reads the same
	[ "$(grep ' tm_probe_target: ' "$TM_TMP/tm.txt" | grep -c '^ *target-')" -eq "$n" ]
	trace-cmd report -i "$TM_TMP/u.dat" | grep -c ' tm_probe_target: ' | grep -qx "$n"
	"$TRACEMAP" report --json "$TM_TMP/u.dat" |
		jq -e -s '[.[] | select(.event == "tm_probe_target")][0].system | test("^tracemap_[0-9]+$")' >/dev/null
	# no probe of ours left (the teardown's state check covers uprobe_events too)
	! grep -q 'tracemap_' "$TRACEFS/uprobe_events" || return 1
}

@test "record --uprobe: a bad spec, symbol or file is one line, nothing left" {
	run "$TRACEMAP" record --uprobe "$TM_TMP/target" -o "$TM_TMP/x.dat" --duration 1
	tm_status 2
	[[ $output == *"bad uprobe '$TM_TMP/target' (expected PATH:SYMBOL[+OFF][%return])"* ]]
	run "$TRACEMAP" record --uprobe "$TM_TMP/target:no_such_fn" -o "$TM_TMP/x.dat" --duration 1
	tm_status 1
	[ "$output" = "tracemap record: uprobe: no symbol 'no_such_fn' in $TM_TMP/target" ]
	run "$TRACEMAP" record --uprobe "$TM_TMP/target.c:main" -o "$TM_TMP/x.dat" --duration 1
	tm_status 1
	[ "$output" = "tracemap record: uprobe: $TM_TMP/target.c is not an ELF file" ]
	# the kernel splits a probe line at white space: a newline would start another
	# command (refused, not echoed), a space would cut the path
	run "$TRACEMAP" record --uprobe "$TM_TMP/target:tm_probe_target"$'\n'"-:x" \
		-o "$TM_TMP/x.dat" --duration 1
	tm_status 2
	[[ ${lines[0]} == "tracemap record: bad uprobe: control character \\x0a at byte "* ]]
	cp "$TM_TMP/target" "$TM_TMP/tar get"
	run "$TRACEMAP" record --uprobe "$TM_TMP/tar get:tm_probe_target" -o "$TM_TMP/x.dat" \
		--duration 1
	tm_status 1
	[ "$output" = "tracemap record: uprobe '$TM_TMP/tar get:tm_probe_target': $TM_TMP/tar get: a probe cannot name a path with a space" ]
	# refused after the probe was made: the probe goes with the instance
	run "$TRACEMAP" record --uprobe "$TM_TMP/target:tm_probe_target" -e sched:sched_switch \
		-f 'nosuch == 1' -o "$TM_TMP/x.dat" --duration 1
	tm_status 1
	[[ $output == *"bad filter 'nosuch == 1' for event 'sched:sched_switch'"* ]]
	! grep -q 'tracemap_' "$TRACEFS/uprobe_events" || return 1
	[ ! -e "$TM_TMP/x.dat" ]
}

@test "record --uprobe: stopped by SIGINT, the hits are in the file and the probe is gone" {
	tm_record_bg 60 --uprobe "$TM_TMP/target:tm_probe_target" -o "$TM_TMP/i.dat"
	grep -q "^p:tracemap_$REC_PID/tm_probe_target " "$TRACEFS/uprobe_events"
	"$TM_TMP/target"
	"$TM_TMP/target"
	"$TM_TMP/target"
	kill -INT "$REC_PID"
	local rc=0
	wait "$REC_BG" || rc=$?
	REC_BG=
	[ "$rc" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	! grep -q "tracemap_$REC_PID/" "$TRACEFS/uprobe_events" || return 1
	[ "$("$TRACEMAP" report "$TM_TMP/i.dat" | grep -c ' tm_probe_target: ')" -eq 3 ]
}

@test "reset --stale: a SIGKILLed tracemap's uprobe stays with its kept ring, then goes; no other" {
	tm_ignore_stale
	tm_state_save
	# someone else's probe in a group of its own must survive
	OWN_PROBE=tmtest_$$/other
	echo "p:$OWN_PROBE $TM_TMP/target:0x$(nm "$TM_TMP/target" |
		awk '$3 == "main" { print $1 }' | sed 's/^0*//')" >>"$TRACEFS/uprobe_events"
	tm_record_bg 60 --uprobe "$TM_TMP/target:tm_probe_target" -o "$TM_TMP/k.dat"
	STALE_LEFT=$REC_PID
	grep -q "^p:tracemap_$REC_PID/tm_probe_target " "$TRACEFS/uprobe_events"
	kill -KILL "$REC_PID"
	wait "$REC_BG" || true
	REC_BG=
	grep -q "^p:tracemap_$REC_PID/" "$TRACEFS/uprobe_events"
	run --separate-stderr "$TRACEMAP" reset
	tm_status 0
	[[ $stderr == *"uprobe tracemap_$REC_PID/tm_probe_target kept with its instance"* ]] ||
		{ echo "$stderr" >&2; return 1; }
	grep -q "^p:tracemap_$REC_PID/" "$TRACEFS/uprobe_events"
	# its ring holds the rest of the recording: instance and probe stay for recover
	run --separate-stderr "$TRACEMAP" reset --stale
	tm_status 0
	[[ $output != *"removed"*"$REC_PID"* ]] || { echo "$output" >&2; return 1; }
	[[ $stderr == *"uprobe tracemap_$REC_PID/tm_probe_target kept with its instance"* ]] ||
		{ echo "$stderr" >&2; return 1; }
	grep -q "^p:tracemap_$REC_PID/" "$TRACEFS/uprobe_events"
	# the recording dropped, both go (a dry run says so first)
	rm -f "$TM_TMP"/k.dat*
	run "$TRACEMAP" reset
	[[ $output == *"would remove uprobe tracemap_$REC_PID/tm_probe_target"* ]]
	run "$TRACEMAP" reset --stale
	[[ $output == *"removed tracemap-$REC_PID"* ]] || { echo "$output" >&2; return 1; }
	[[ $output == *"removed uprobe tracemap_$REC_PID/tm_probe_target"* ]] || { echo "$output" >&2; return 1; }
	! grep -q "tracemap_$REC_PID/" "$TRACEFS/uprobe_events" || return 1
	[ ! -d "$TRACEFS/instances/tracemap-$REC_PID" ]
	STALE_LEFT=
	grep -q "^p:$OWN_PROBE " "$TRACEFS/uprobe_events"
	rm -f "$TM_TMP"/k.dat*
}

# Issue 44: recover removed the killed recorder's instance and left its uprobe in
# uprobe_events until another reset --stale.
@test "uprobe: recover of a SIGKILLed recording removes its uprobes with its instance" {
	cd "$TM_TMP"
	tm_record_bg 60 -e sched:sched_switch --uprobe="$TM_TMP/target:tm_probe_target" \
		-o "$TM_TMP/uk.dat" -- sleep 3
	STALE_LEFT=$REC_PID
	grep -q "^p:tracemap_$REC_PID/" "$TRACEFS/uprobe_events"
	sleep 1.2
	kill -KILL "$REC_PID"
	wait "$REC_BG" || true
	REC_BG=
	run --separate-stderr "$TRACEMAP" recover "$TM_TMP/uk.dat"
	tm_status 0
	[[ $stderr == *"the instance is removed, with its uprobes"* ]] || { echo "$stderr" >&2; return 1; }
	[ ! -d "$TRACEFS/instances/tracemap-$REC_PID" ]
	! grep -q "tracemap_$REC_PID/" "$TRACEFS/uprobe_events" || return 1
}
