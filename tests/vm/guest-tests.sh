#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# guest-tests.sh - the guest test list (busybox sh, run by tests/vm/init in /tmp).
. /tm/guest-lib.sh

case_boot() {
	grep -q function_graph $T/available_tracers
}

# 6.1 cannot map the ring buffer: every CPU reads pages with read(2).
case_read_path() {
	snap_top >/tmp/top.before
	timeout -s KILL 60 tracemap record -v -e sched -o /tmp/sched.dat -- sleep 0.5 2>/tmp/err
	cat /tmp/err
	grep -q 'cpu0: read() path' /tmp/err
	grep -q 'cpu1: read() path' /tmp/err
	! grep -q 'mmap path' /tmp/err
	tracemap report /tmp/sched.dat >/tmp/r.txt
	grep -q 'sched_switch:' /tmp/r.txt
	same_top /tmp/top.before
}

case_read_report() {
	same_report /tmp/sched.dat
	[ "$(wc -l </tmp/tc.txt)" -gt 10 ]
}

case_read_stream() {
	snap_top >/tmp/top.before
	timeout -s KILL 60 tracemap stream -e sched -- sleep 0.5 >/tmp/s.txt 2>/tmp/err
	cat /tmp/err
	grep -q 'sched_switch:' /tmp/s.txt
	same_top /tmp/top.before
}

t "guest: the 6.1 kernel offers function_graph" case_boot
t "record on 6.1: the read() path on every CPU, sched events" case_read_path
t "record on 6.1: report --compat=3.1 equals trace-cmd 3.1.6's" case_read_report
t "stream on 6.1: sched events through read()" case_read_stream
summary
