#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# extract.bats - `tracemap extract` on the live kernel: an instance the test fills with
# numbered markers and freezes, read whole through the mapping and through read(),
# with its settings unchanged; errors leave no file.

load helpers
load long

setup() {
	tm_kernel_setup
	long_instance
	mkdir "$LONG_DIR"
}

teardown() {
	[ -n "${SMALL_FS:-}" ] && mountpoint -q "$SMALL_FS" && umount "$SMALL_FS"
	long_cleanup
	tm_kernel_teardown
}

@test "extract: a frozen instance's buffer, every marker, its settings unchanged" {
	local before
	echo 1 >"$LONG_DIR/events/sched/sched_switch/enable"
	marks 1 300
	echo 0 >"$LONG_DIR/tracing_on"
	before=$(inst_state "$LONG_DIR")
	run "$TRACEMAP" extract -v -B "$LONG_INST" -o "$TM_TMP/x.dat"
	tm_status 0
	# told before the first page is read
	[ "${lines[0]}" = "tracemap extract: reading consumes what $LONG_INST holds: its events go to \
$TM_TMP/x.dat only (and stay in spools beside it if writing fails)" ]
	[[ $output == *"cpu0: $(tm_default_path)"* ]]
	[[ $output == *"x.dat: "*" events, "*" from $LONG_INST (read, so no longer in the buffer)"* ]]
	same_report "$TM_TMP/x.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 1 300) " ]
	grep -q 'sched_switch:' "$TM_TMP/tc.txt"
	[ "$(inst_state "$LONG_DIR")" = "$before" ]
	! ls "$TM_TMP"/*.spool 2>/dev/null || return 1
}

@test "extract: CPUs of different buffer sizes are each read whole" {
	# the instance's buffer_size_kb reads "X" once per-CPU sizes differ
	echo 2048 >"$LONG_DIR/per_cpu/cpu1/buffer_size_kb"
	[ "$(cat "$LONG_DIR/buffer_size_kb")" = X ]
	taskset -c 0 bash -c 'exec 3>"$1"; for ((i = 1; i <= 3000; i++)); do
		echo "mark $i" >&3; done' _ "$LONG_DIR/trace_marker"
	echo 0 >"$LONG_DIR/tracing_on"
	run "$TRACEMAP" extract -v -B "$LONG_INST" -o "$TM_TMP/x.dat"
	tm_status 0
	[[ $output != *"still being written"* ]] || { echo "$output" >&2; return 1; }
	same_report "$TM_TMP/x.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 1 3000) " ]
}

@test "extract --no-mmap: read() finds only what came after the last extract, v6 too" {
	local before
	marks 1 100
	echo 0 >"$LONG_DIR/tracing_on"
	run "$TRACEMAP" extract -q -B "$LONG_INST" -o "$TM_TMP/a.dat"
	tm_status 0
	echo 1 >"$LONG_DIR/tracing_on"
	marks 101 150
	echo 0 >"$LONG_DIR/tracing_on"
	# an event disabled since it was recorded still has its format in the file
	before=$(inst_state "$LONG_DIR")
	run "$TRACEMAP" extract -v --no-mmap --file-version 6 -B "$LONG_INST" -o "$TM_TMP/b.dat"
	tm_status 0
	[[ $output == *"cpu0: read() path (--no-mmap)"* ]]
	same_report "$TM_TMP/b.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 101 150) " ]
	[ "$(inst_state "$LONG_DIR")" = "$before" ]
}

@test "extract: a second extract through the mapping finds only what was written since" {
	local ts
	tm_need_ring_map
	echo 1 >"$LONG_DIR/events/sched/enable"
	echo "marker A" >"$LONG_DIR/trace_marker"
	/bin/true
	echo 0 >"$LONG_DIR/tracing_on"
	run "$TRACEMAP" extract -v -B "$LONG_INST" -o "$TM_TMP/g1.dat"
	tm_status 0
	[[ $output == *"cpu0: mmap path"* ]]
	same_report "$TM_TMP/g1.dat"
	grep -q 'tracing_mark_write: marker A' "$TM_TMP/tc.txt"
	echo 1 >"$LONG_DIR/tracing_on"
	echo "marker B" >"$LONG_DIR/trace_marker"
	echo 0 >"$LONG_DIR/tracing_on"
	# the kernel's own view of what is unread: B at its time stamp
	ts=$(sed -n 's/.* \([0-9]*\.[0-9]*\): tracing_mark_write: marker B$/\1/p' "$LONG_DIR/trace")
	[ -n "$ts" ]
	run "$TRACEMAP" extract -q -B "$LONG_INST" -o "$TM_TMP/g2.dat"
	tm_status 0
	same_report "$TM_TMP/g2.dat"
	grep -q " $ts: print: *tracing_mark_write: marker B\$" "$TM_TMP/tc.txt"
	[ "$(grep -c 'marker A' "$TM_TMP/tc.txt")" = 0 ]
	# nothing new: nothing handed back
	run "$TRACEMAP" extract -v -B "$LONG_INST" -o "$TM_TMP/g3.dat"
	tm_status 0
	[[ $output == *"g3.dat: 0 events, "* ]]
	[ -z "$("$TRACEMAP" report "$TM_TMP/g3.dat" | grep -v '^cpus=')" ]
}

@test "extract: a buffer of events disabled since keeps their formats" {
	echo 1 >"$LONG_DIR/events/sched/sched_process_exec/enable"
	echo 1 >"$LONG_DIR/events/sched/sched_process_exit/enable"
	/bin/true
	echo 0 >"$LONG_DIR/events/sched/enable"
	echo 0 >"$LONG_DIR/tracing_on"
	run "$TRACEMAP" extract -q -B "$LONG_INST" -o "$TM_TMP/d.dat"
	tm_status 0
	same_report "$TM_TMP/d.dat"
	grep -q 'sched_process_exec: .*filename=/bin/true' "$TM_TMP/tc.txt"
	! grep -q 'UNKNOWN EVENT' "$TM_TMP/tc.txt" || return 1
}

@test "extract: a buffer that wrapped (overwrite) is read whole, every entry the kernel holds" {
	local entries
	echo 64 >"$LONG_DIR/buffer_size_kb"
	# on one CPU: a writer that migrates leaves its first marks in the other CPU's
	# buffer, which then never wraps
	(taskset -pc 0 "$BASHPID" >/dev/null && marks 1 5000)
	echo 0 >"$LONG_DIR/tracing_on"
	entries=$(awk '/^entries:/ { e += $2 } END { print e + 0 }' "$LONG_DIR"/per_cpu/cpu*/stats)
	run "$TRACEMAP" extract -v -B "$LONG_INST" -o "$TM_TMP/w.dat"
	tm_status 0
	[[ $output != *"still being written"* ]]
	same_report "$TM_TMP/w.dat"
	marks_reported >"$TM_TMP/w.marks"
	# the buffer wrapped: the oldest are gone, the newest is there, nothing else is missing
	[ "$(head -n 1 "$TM_TMP/w.marks")" -gt 1 ]
	[ "$(tail -n 1 "$TM_TMP/w.marks")" = 5000 ]
	[ "$(wc -l <"$TM_TMP/w.marks")" -eq "$entries" ]
}

@test "extract: an unknown instance fails in one line and leaves no file" {
	run "$TRACEMAP" extract -B "no-such-instance-$$" -o "$TM_TMP/n.dat"
	tm_status 1
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "tracemap extract: no instance no-such-instance-$$ "* ]]
	[ ! -e "$TM_TMP/n.dat" ]
	run "$TRACEMAP" extract -B "$LONG_INST" extra-argument
	tm_status 2
}

# As record's -o: a device node is written straight through (spools in $TMPDIR), a
# symlink's target is what gets written.
@test "extract: -o a device node stays a device, a symlink stays a link to the new file" {
	marks 1 100
	echo 0 >"$LONG_DIR/tracing_on"
	# a private null device in the test's directory, never the real /dev/null
	mknod -m666 "$TM_TMP/null" c 1 3
	run env TMPDIR="$TM_TMP" "$TRACEMAP" extract -q -B "$LONG_INST" -o "$TM_TMP/null"
	tm_status 0
	[ -c "$TM_TMP/null" ] && [ "$(ls -A "$TM_TMP")" = null ] || { ls -la "$TM_TMP" >&2; return 1; }
	echo 1 >"$LONG_DIR/tracing_on"
	marks 101 200
	echo 0 >"$LONG_DIR/tracing_on"
	mkdir "$TM_TMP/data" "$TM_TMP/links"
	echo old >"$TM_TMP/data/real.dat"
	ln -s ../data/real.dat "$TM_TMP/links/x.dat"
	run "$TRACEMAP" extract -q --no-mmap -B "$LONG_INST" -o "$TM_TMP/links/x.dat"
	tm_status 0
	[ -L "$TM_TMP/links/x.dat" ] && [ "$(readlink "$TM_TMP/links/x.dat")" = ../data/real.dat ]
	same_report "$TM_TMP/data/real.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 101 200) " ]
}

# The read consumes: a full disk stops it, and what it wrote is not lost. A tmpfs of
# 1280 KiB holds the note and the first spool chunk (1 MiB), not 60000 markers.
@test "extract: a full disk stops the read, says how many events it consumed, keeps them" {
	local n kept
	echo 4096 >"$LONG_DIR/buffer_size_kb"
	(taskset -pc 0 "$BASHPID" >/dev/null && marks 1 60000)
	echo 0 >"$LONG_DIR/tracing_on"
	echo old >"$TM_TMP/x.dat"
	SMALL_FS=$TM_TMP/small
	mkdir "$SMALL_FS"
	mount -t tmpfs -o size=1280k tmpfs "$SMALL_FS"
	run "$TRACEMAP" extract --file-version 6 -B "$LONG_INST" -o "$SMALL_FS/x.dat"
	tm_status 1
	[ "${#lines[@]}" -eq 2 ]
	[[ ${lines[0]} == "tracemap extract: reading consumes what $LONG_INST holds"* ]]
	[[ ${lines[1]} == "tracemap extract: "*"write spool $SMALL_FS/x.dat.cpu0.spool: No space"\
*"; "*" events consumed from $LONG_INST: what the spools hold stays in $SMALL_FS/x.dat."\
"cpu*.spool: run 'tracemap recover $SMALL_FS/x.dat'" ]]
	n=$(sed -n 's/.*; \([0-9]*\) events consumed.*/\1/p' <<<"${lines[1]}")
	[ "$n" -gt 0 ]
	# no file half written; the spools and their note stay
	[ ! -e "$SMALL_FS/x.dat" ]
	[ -e "$SMALL_FS/x.dat.spool-info" ] && [ -e "$SMALL_FS/x.dat.cpu0.spool" ]
	# recovered elsewhere: markers from the first on, in order, none missing
	mkdir "$TM_TMP/big"
	cp "$SMALL_FS"/x.dat.* "$TM_TMP/big/"
	umount "$SMALL_FS"
	run timeout -s KILL 60 "$TRACEMAP" recover "$TM_TMP/big/x.dat"
	tm_status 0
	same_report "$TM_TMP/big/x.dat"
	marks_reported >"$TM_TMP/kept"
	kept=$(wc -l <"$TM_TMP/kept")
	[ "$kept" -gt 0 ] && [ "$kept" -le "$n" ]
	[ "$(tr '\n' ' ' <"$TM_TMP/kept")" = "$(seq -s ' ' 1 "$kept") " ]
	# the instance is still there, untouched by recover
	[ -d "$LONG_DIR" ]
}

@test "extract -o an existing file: replaced only once the new file is whole" {
	marks 1 50
	echo 0 >"$LONG_DIR/tracing_on"
	echo old >"$TM_TMP/r.dat"
	ln "$TM_TMP/r.dat" "$TM_TMP/r-link.dat"
	run "$TRACEMAP" extract -q -B "$LONG_INST" -o "$TM_TMP/r.dat"
	tm_status 0
	# a new file renamed over the name: the old inode (the hard link) is untouched
	[ "$(cat "$TM_TMP/r-link.dat")" = old ]
	same_report "$TM_TMP/r.dat"
	[ "$(marks_reported | tr '\n' ' ')" = "$(seq -s ' ' 1 50) " ]
	[ "$(ls -A "$TM_TMP" | grep -c 'spool\|tmp')" = 0 ]
}
