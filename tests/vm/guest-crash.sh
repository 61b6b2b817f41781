#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# guest-crash.sh - the trace that survives a crash (tests/vm/crash.sh runs it; two or
# three boots of one guest whose RAM QEMU keeps across each reset; KASLR on). The
# persistent instance boot_map (reserve_mem=16M, trace_instance=boot_map@trace):
# boot 1 arms it (sched events, the stacktrace option), writes numbered markers,
# notes its _text and the last stack trace the kernel's own trace file prints, and
# panics (sysrq c). Boot 2 extracts it (from 6.19 through the backup instance first):
# every marker written, in order, up to the last written; the stack resolved to boot 1's
# names; trace-cmd 3.1.6's report differing from tracemap's only at boot 1's
# addresses (old-boot-diff.pl); LAST_BOOT_INFO and MODULES in the file. Then, where
# the kernel rewinds the buffer at boot (6.17+), a warm reboot (sysrq b): boot 3
# shows what extract gets of what boot 2 consumed.
# reserve_mem does not promise the same memory at each boot: where KASLR placed boot
# 2's kernel over boot 1's reservation (1 boot in 8 here), the kernel reserves other
# memory and boot 1's events are gone. Boot 2 then says so and reboots into boot 1
# again, three tries in all: the kernel's limit, not one of tracemap's cases.
# Boot 1's notes go to the out share, $TM_OUT/crash.*, read by the boots after.
. "$(dirname "$0")/guest-lib.sh"
B=$T/instances/boot_map
S=$TM_OUT/crash
N=500
OLD_BOOT_DIFF="perl $(dirname "$0")/old-boot-diff.pl"
# 6.12 to 6.15 refuse to map a persistent instance (ENODEV)
case $KV in
6.1[0-5]) BOOT_MAP_PATH="read() path" ;;
*) BOOT_MAP_PATH="mmap path" ;;
esac

text_now() {
	awk '$3 == "_text" { print $1; exit }' /proc/kallsyms
}

# The physical address of boot_map's reserved memory this boot, as the kernel logs it.
reserve_at() {
	dmesg | sed -n 's/.*mapped boot instance boot_map at physical memory \(0x[0-9a-f]*\) .*/\1/p' |
		head -n 1
}

# ---- boot 1 ----

case_arm() {
	reserve_at >$S.phys
	echo "boot_map's memory at $(cat $S.phys)"
	[ -s $S.phys ]
	snap_top >/tmp/top.before
	tracemap list -I >/tmp/inst.txt
	cat /tmp/inst.txt
	# a cold boot: persistent, and nothing of a previous boot
	grep -q '^boot_map .* persistent$' /tmp/inst.txt
	timeout -s KILL 60 tracemap arm -B boot_map -e sched:sched_switch -e sched:sched_wakeup \
		-O stacktrace
	[ "$(cat $B/tracing_on)" = 1 ]
	[ "$(cat $B/options/stacktrace)" = 1 ]
	[ "$(cat $B/events/sched/sched_switch/enable)" = 1 ]
	same_top /tmp/top.before
}

# An extract first (what arm's events put there so far: a cold boot's buffer holds
# this boot's events, no LAST_BOOT_INFO), then markers 1..N and no reader before the
# crash: every one of them must come back.
markers() {
	i=$1
	while [ $i -le $2 ]; do
		echo "tm-crash-$i" >$B/trace_marker
		i=$((i + 1))
	done
}

case_write_markers() {
	timeout -s KILL 60 tracemap extract -B boot_map -o /tmp/early.dat 2>/tmp/err
	cat /tmp/err
	# (set -e ignores "!")
	if grep -q 'last_boot_info stored' /tmp/err; then return 1; fi
	trace-cmd report /tmp/early.dat >/dev/null
	markers 1 $N
	echo "tm-crash-$N" >$S.last
	[ "$(grep -c 'tm-crash-[0-9]*$' $B/trace)" = $N ]
}

# The last stack of the trace file: "[CPU] SECONDS" into $S.stack_at, its names into
# $S.stack (the kernel prints " => name" for each frame).
case_note_stack() {
	text_now >$S.text
	cat $B/trace >/tmp/trace1.txt
	awk '/<stack trace>$/ { at = $0; n = 0; next }
	     at && /^ => / { names[n++] = $2; next }
	     at && n { last = at; m = n; for (i = 0; i < n; i++) keep[i] = names[i]; at = "" }
	     END { if (at && n) { last = at; m = n; for (i = 0; i < n; i++) keep[i] = names[i] }
		   print last >"/tmp/stack_at.line"
		   for (i = 0; i < m; i++) print keep[i] }' /tmp/trace1.txt >$S.stack
	sed 's/.*\(\[[0-9]*\]\) [^ ]* *\([0-9.]*\): <stack trace>$/\1 \2/' /tmp/stack_at.line >$S.stack_at
	echo "_text $(cat $S.text); the last stack, at $(cat $S.stack_at):"
	sed 's/^/  => /' $S.stack
	grep -q '^\[[0-9]*\] [0-9]*\.[0-9]*$' $S.stack_at
	grep -q '^schedule$' $S.stack
	sync
}

boot1() {
	echo "TMVM: # boot 1: _text $(text_now), last_boot_info $(head -n 1 $B/last_boot_info)"
	# a retry (reservation_moved): what the earlier tries' boots left goes first
	if [ -e $S.tries ]; then
		echo "TMVM: # boot 1, try $(cat $S.tries): boot_map cleared, the backup removed"
		tracemap arm --clear -B boot_map
		[ ! -d $T/instances/backup ] || rmdir $T/instances/backup
	fi
	t "crash boot 1 ($KV): arm -B boot_map -e sched -O stacktrace, cold boot, top untouched" \
		case_arm
	t "crash boot 1 ($KV): a cold boot's extract, then $N numbered markers into boot_map" \
		case_write_markers
	t "crash boot 1 ($KV): _text and the trace file's last stack noted" case_note_stack
	sed 's/^/TMVM: #   /' /tmp/case.log
	summary
	echo "TMVM: # boot 1: echo c >/proc/sysrq-trigger"
	sync
	echo c >/proc/sysrq-trigger
	sleep 30
}

# ---- boot 2 ----

# Boot 1's reservation moved (see the top): say so, and boot 1 again (a warm reboot
# with $S.text gone) unless this was the third try.
reservation_moved() {
	old=$(cat $S.phys) new=$(reserve_at)
	[ "$old" != "$new" ] || return 1
	tries=$(cat $S.tries 2>/dev/null || echo 1)
	echo "TMVM: # boot 2, try $tries: boot_map's memory moved from $old to $new (KASLR" \
		"placed this kernel over it; reserve_mem's known limit): boot 1's events are gone"
	if [ "$tries" -ge 3 ]; then
		echo "TMVM: not ok - boot_map's reserved memory moved in $tries crashes of $tries"
		return 0
	fi
	echo $((tries + 1)) >$S.tries
	rm -f $S.text
	echo "TMVM: # boot 2: a warm reboot into boot 1 again (echo b >/proc/sysrq-trigger)"
	sync
	echo b >/proc/sysrq-trigger
	sleep 30
}

case_text_moved() {
	old=$(cat $S.text) new=$(text_now)
	echo "boot 1 _text $old, boot 2 _text $new"
	[ -n "$old" ] && [ -n "$new" ] && [ "$old" != "$new" ]
}

case_before_extract() {
	snap_top >/tmp/top.before
	tracemap list -I >/tmp/inst.txt
	cat /tmp/inst.txt
	grep -q "^boot_map .* persistent, holds the previous boot's events$" /tmp/inst.txt
	cat $B/last_boot_info >/tmp/last_boot_info
	cat /tmp/last_boot_info
	# arming now would discard them: refused in one line, nothing changed
	grep -hv '^now ts' $B/per_cpu/cpu*/stats >/tmp/stats.before
	one_line_error timeout -s KILL 60 tracemap arm -B boot_map -e sched
	grep -q "holds the previous boot's events" /tmp/err
	[ "$(cat $B/events/sched/sched_switch/enable)" = 0 ]
	grep -hv '^now ts' $B/per_cpu/cpu*/stats | diff /tmp/stats.before -
	same_top /tmp/top.before
}

case_extract() {
	snap_top >/tmp/top.before
	timeout -s KILL 120 tracemap extract -v -B boot_map -o /tmp/last.dat 2>/tmp/err
	cat /tmp/err
	case $BOOT_MAP_PATH in
	read*) grep -q 'cpu0: read() path (mmap: No such device)' /tmp/err ;;
	*) grep -q 'cpu0: mmap path' /tmp/err ;;
	esac
	grep -q 'last_boot_info stored' /tmp/err
	cp /tmp/last.dat $TM_OUT/crash-last.dat
	same_top /tmp/top.before
}

# Every marker written before the crash, in order, the last written last.
case_markers() {
	rc=0
	timeout 60 trace-cmd report /tmp/last.dat >/tmp/tc.txt 2>/tmp/tc.err || rc=$?
	echo "trace-cmd report: exit $rc, $(wc -l </tmp/tc.txt) lines; $(head -c 300 /tmp/tc.err)"
	grep -o 'tm-crash-[0-9]*$' /tmp/tc.txt >/tmp/markers
	echo "$(wc -l </tmp/markers) markers: $(head -n 1 /tmp/markers) to" \
		"$(tail -n 1 /tmp/markers); the last written $(cat $S.last)"
	seq 1 $N | sed 's/^/tm-crash-/' | diff - /tmp/markers >/tmp/markers.diff ||
		{ head -n 5 /tmp/markers.diff; return 1; }
	[ "$(tail -n 1 /tmp/markers)" = "$(cat $S.last)" ]
}

# The kernel_stack tracemap prints at boot 1's CPU and time (the trace file rounds
# to the microsecond, report truncates: 1 us apart at most) has boot 1's names.
case_stack() {
	timeout 60 tracemap report /tmp/last.dat >/tmp/tm-plain.txt
	set -- $(cat $S.stack_at)
	awk -v cpu="$1" -v ts="$2" '
		at && /^ *=> / { print $2; next }
		{ at = 0 }
		/ kernel_stack: / { for (i = 1; i <= NF; i++) if ($i == cpu) {
			# the latency columns ("d..2.") may come between
			for (j = i + 1; j <= NF && $j !~ /^[0-9]+\.[0-9]+:$/; j++) ;
			t = $j; sub(":", "", t)
			if (t - ts <= 0.0000011 && ts - t <= 0.0000011) { at = 1; print "--" }
			break } }
		' /tmp/tm-plain.txt >/tmp/stack2
	echo "boot 1's stack at $1 $2:"
	cat $S.stack
	echo "tracemap's:"
	cat /tmp/stack2
	[ "$(grep -c '^--$' /tmp/stack2)" = 1 ]
	grep -v '^--$' /tmp/stack2 | diff $S.stack -
}

# trace-cmd 3.1.6 and report --compat=3.1 differ only at boot 1's addresses: 3.1.6
# looks them up in the file's kallsyms (this boot's) as they are, which gives hex
# where this boot has nothing there and a wrong name where it has; tracemap gives
# the symbol this boot's kallsyms have at the address moved by the two _text. The
# print events' ip (3.1.6 prints a name or "0x...", never both) from the raw field.
case_compat() {
	timeout 60 tracemap report --compat=3.1 /tmp/last.dat >/tmp/tm.txt
	[ -s /tmp/tc.txt ] || timeout 60 trace-cmd report /tmp/last.dat >/tmp/tc.txt
	timeout 60 tracemap sql --format=tsv /tmp/last.dat \
		"select printf('%x', ip), buf from print" >/tmp/print-ip.tsv
	$OLD_BOOT_DIFF /tmp/tc.txt /tmp/tm.txt "$(cat $S.text)" "$(text_now)" /proc/kallsyms \
		/tmp/print-ip.tsv
}

# trace-cmd 3.1.6 lists both (as options it does not know, by id); the option's
# bytes are "boot_map:" and the last_boot_info this boot read (the options section
# is not compressed).
case_options() {
	timeout 60 trace-cmd dump --options /tmp/last.dat >/tmp/dump.txt 2>&1
	grep -E '^ *2[45] [0-9]+' /tmp/dump.txt
	grep -qE '^ *24 [0-9]+[[:space:]]+\[Unknown option' /tmp/dump.txt
	grep -qE '^ *25 [0-9]+[[:space:]]+\[Unknown option' /tmp/dump.txt
	head -n 1 /tmp/last_boot_info | sed 's/^/boot_map:/' >/tmp/lbi.line
	cat /tmp/lbi.line
	grep -a -q -F -f /tmp/lbi.line /tmp/last.dat
}

# 6.19+ (trace_instance=backup=boot_map, tests/vm/crash.sh): the kernel copied boot 1's
# events into the read-only instance backup at boot; extract -B boot_map reads that
# copy and leaves boot_map's own buffer untouched; the next extract (case_extract)
# reads boot_map itself, the backup being read out.
case_backup() {
	ls $T/instances
	cat $T/instances/backup/last_boot_info
	grep -hv '^now ts' $B/per_cpu/cpu*/stats >/tmp/stats.before
	rc=0
	timeout -s KILL 120 tracemap extract -v -B boot_map -o /tmp/backup.dat 2>/tmp/err || rc=$?
	cat /tmp/err
	[ $rc = 0 ]
	grep -q "reading backup, the read-only copy of boot_map's previous boot" /tmp/err
	# 7.3 does not map the copy
	grep -q 'cpu0: read() path (mmap: No such device)' /tmp/err
	grep -q ' from backup (read, so no longer in the buffer); last_boot_info stored' /tmp/err
	cp /tmp/backup.dat $TM_OUT/crash-backup.dat
	n=$(trace-cmd report /tmp/backup.dat | grep -c 'tm-crash-[0-9]*$' || true)
	echo "$n markers in backup; instances after: $(ls $T/instances | tr '\n' ' ')"
	[ "$n" = $N ]
	grep -hv '^now ts' $B/per_cpu/cpu*/stats | diff /tmp/stats.before -
}

case_consumed() {
	timeout -s KILL 60 tracemap extract -v -B boot_map -o /tmp/again.dat 2>/tmp/err
	cat /tmp/err
	grep -q '/tmp/again.dat: 0 events' /tmp/err
}

boot2() {
	t "crash boot 2 ($KV): KASLR moved _text" case_text_moved
	sed 's/^/TMVM: #   /' /tmp/case.log
	t "crash boot 2 ($KV): list -I tells of the previous boot, arm refuses to discard it" \
		case_before_extract
	case $KV in
	6.1[0-8]) ;;
	*) t "crash boot 2 ($KV): the backup instance: boot 1's events, boot_map untouched" \
		case_backup
		sed 's/^/TMVM: #   /' /tmp/case.log ;;
	esac
	t "crash boot 2 ($KV): extract -B boot_map through the $BOOT_MAP_PATH" case_extract
	t "crash boot 2 ($KV): every marker written before the crash, in order, the last last" \
		case_markers
	sed 's/^/TMVM: #   /' /tmp/case.log
	t "crash boot 2 ($KV): boot 1's stack resolves to the names boot 1's kernel printed" \
		case_stack
	t "crash boot 2 ($KV): trace-cmd 3.1.6 differs only at boot 1's addresses, which we resolve" \
		case_compat
	sed 's/^/TMVM: #   /' /tmp/case.log
	t "crash boot 2 ($KV): LAST_BOOT_INFO and MODULES options in the file" case_options
	t "crash boot 2 ($KV): extract consumed the buffer: a second one gets nothing" \
		case_consumed
	summary
	# boot 3 only where the kernel rewinds (on 6.12 its extract spun in the kernel,
	# soft lockups, until killed after 120 s, on a loaded host: not asserted)
	case $KV in 6.1[0-6]) return 0 ;; esac
	echo "TMVM: # boot 2: a warm reboot (echo b >/proc/sysrq-trigger)"
	: >$S.boot2
	sync
	echo b >/proc/sysrq-trigger
	sleep 30
}

# ---- boot 3 ----

case_rewind() {
	echo "last_boot_info: $(cat $B/last_boot_info | tr '\n' ' ')"
	rc=0
	timeout -s KILL 120 tracemap extract -v -B boot_map -o /tmp/third.dat 2>/tmp/err || rc=$?
	cat /tmp/err
	[ $rc = 0 ]
	cp /tmp/third.dat $TM_OUT/crash-third.dat
	n=$(trace-cmd report /tmp/third.dat 2>/dev/null | grep -c 'tm-crash-[0-9]*$' || true)
	echo "boot 3: $n of boot 1's markers after boot 2 extracted them"
	echo "$KV $n" >$S.rewind
}

boot3() {
	t "crash boot 3 ($KV): what extract gets after a warm reboot" case_rewind
	sed 's/^/TMVM: #   /' /tmp/case.log
	summary
}

[ -d $B ] || { echo "TMVM: not ok - no boot_map instance"; exit 1; }
if [ -e $S.boot2 ]; then
	boot3
elif [ -e $S.text ]; then
	reservation_moved || boot2
else
	boot1
fi
