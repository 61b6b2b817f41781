#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# guest-dirty-pages.sh - the kernel WARNING in ring_buffer_nr_dirty_pages() (issue 44,
# docs/kernel-ring-buffer-warning.md): a WARN_ON_ONCE, so one case per boot, chosen
# with TM_VM_ONLY (raw_read, raw_mmap, minimal, tracemap):
#   TM_VM_KERNEL=7.3 TM_VM_ONLY=raw_read TM_VM_BATS=- bash tests/vm/run.sh guest-dirty-pages.sh
# raw_read, raw_mmap: tests/vm/dirty-pages.c with read() or a mapping; first with the
#   trace reset after each sub-buffer size change (no warning), then without (warning).
# minimal: one size change (no warning), then two (warning).
# tracemap: the issue's sequence of tracemap commands on one instance (no warning),
#   then the raw reproducer in the same boot (warning: the kernel could warn).
. "$(dirname "$0")/guest-lib.sh"
DIR=$(cd "$(dirname "$0")/../.." && pwd)
# 6.1 cannot change the sub-buffer size: nothing to reproduce (the bats files still run)
if [ ! -e $T/buffer_subbuf_size_kb ]; then
	echo "TMVM: # $KV has no buffer_subbuf_size_kb: no case"
	exit 0
fi
cc -O2 -Wall -Wextra -o /tmp/dirty-pages "$DIR/tests/vm/dirty-pages.c" || exit 1

warned() {
	dmesg | grep -q 'WARNING: .* ring_buffer_nr_dirty_pages'
}

# The warning with its registers and call trace, for the console and the docs.
show_splat() {
	dmesg | grep -A32 'WARNING: .* ring_buffer_nr_dirty_pages' | sed 's/^/TMVM: # /'
}

# raw MODE: the reproducer with the reset first (must not warn), then without.
raw() {
	mkdir $T/instances/dp
	/tmp/dirty-pages $T/instances/dp 4 "$1" reset
	rmdir $T/instances/dp
	if warned; then
		echo "warned although the trace was reset after each size change"
		return 1
	fi
	mkdir $T/instances/dp
	/tmp/dirty-pages $T/instances/dp 4 "$1"
	rmdir $T/instances/dp
	warned
}

case_raw_read() {
	raw read
}

case_raw_mmap() {
	raw mmap
}

# Two sub-buffer size changes are the fewest that warn: one must not.
case_minimal() {
	mkdir $T/instances/dp
	/tmp/dirty-pages $T/instances/dp 1 read
	rmdir $T/instances/dp
	if warned; then
		echo "warned after one size change"
		return 1
	fi
	mkdir $T/instances/dp
	/tmp/dirty-pages $T/instances/dp 2 read
	rmdir $T/instances/dp
	warned
}

# The issue's sequence: an instance of sched_wakeup events read empty by two
# extracts, then by three recordings that reuse it, each of which sets tracemap's
# sub-buffer size and gives the instance its own back (two size changes a run).
# Tracing stays off between them, so the writer keeps the sub-buffer the last
# reader took. $TRACEMAP (run.sh's TRACEMAP=) may name another build to compare.
case_tracemap() {
	local i=$T/instances/nc tm=${TRACEMAP:-tracemap}
	mkdir $i
	echo 4 >$i/buffer_subbuf_size_kb
	echo 1 >$i/events/sched/sched_wakeup/enable
	echo 1 >$i/tracing_on
	for n in 1 2; do
		sleep 0.5
		timeout -s KILL 60 $tm extract -B nc -o /tmp/x$n.dat
	done
	echo 0 >$i/tracing_on
	for n in 1 2 3; do
		timeout -s KILL 60 $tm record -v -B nc --reuse-instance \
			-e sched:sched_wakeup --duration 1 -o /tmp/b$n.dat 2>/tmp/err
		grep -q 'cpu0: mmap path' /tmp/err || { cat /tmp/err; return 1; }
		[ "$(cat $i/buffer_subbuf_size_kb)" = 4 ]
		[ "$(cat $i/tracing_on)" = 0 ]
	done
	echo 0 >$i/events/enable
	rmdir $i
	if warned; then
		show_splat
		echo "tracemap's sequence made the kernel warn"
		return 1
	fi
	# the same boot can warn: the raw reproducer does
	raw read
}

t "raw read on $KV: read() after sub-buffer size changes warns, a reset avoids it" \
	case_raw_read
t "raw mmap on $KV: GET_READER after sub-buffer size changes warns, a reset avoids it" \
	case_raw_mmap
t "minimal on $KV: one sub-buffer size change does not warn, two do" case_minimal
t "tracemap on $KV: extract x2 and record --reuse-instance x3 do not warn" case_tracemap
warned && show_splat
summary
