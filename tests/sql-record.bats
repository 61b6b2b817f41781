#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# sql-record.bats - `tracemap sql` on files recorded now (kernel: run under
# tm-kernel-lock): syscall counts and durations per thread, busy time per CPU, the
# longest wakeup latency and the event counts, each against report's JSON (jq, awk).

load helpers
load sql-helpers
load convert-helpers

setup() {
	tm_kernel_setup
}

teardown() {
	tm_kernel_teardown
}

# A load of syscalls, forks and sleeps, recorded with the given events (64 MiB a CPU:
# raw_syscalls of the whole machine, which other jobs keep busy, lose nothing).
record_load() {
	timeout -s KILL 60 "$TRACEMAP" record -q -b 65536 "$@" -o "$TM_TMP/r.dat" -- \
		sh -c 'for i in 1 2 3 4 5 6; do ls / >/dev/null; cat /proc/self/stat >/dev/null;
			sleep 0.01; done'
}

# The recording lost nothing: every count is an answer to compare.
no_loss() {
	[ "$("$TRACEMAP" sql "$TM_TMP/r.dat" --format csv 'SELECT count(*) FROM lost_events' |
		tail -1)" = 0 ]
}

@test "sql-record: syscalls per thread, busy time per CPU, longest latency and counts match report" {
	record_load -e raw_syscalls -e sched -e irq
	no_loss
	syscalls_from_report "$TM_TMP/r.dat" >"$TM_TMP/want"
	[ "$(wc -l <"$TM_TMP/want")" -ge 5 ]
	"$TRACEMAP" sql "$TM_TMP/r.dat" --format tsv 'SELECT tid, count(*), sum(dur) FROM syscalls
		GROUP BY tid ORDER BY tid' | tail -n +2 | tr '\t' ' ' >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
	busy_from_report "$TM_TMP/r.dat" >"$TM_TMP/want"
	"$TRACEMAP" sql "$TM_TMP/r.dat" --format tsv 'SELECT cpu, sum(dur) FROM sched_slice
		WHERE utid != 0 GROUP BY cpu ORDER BY cpu' | tail -n +2 | tr '\t' ' ' >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
	longest_wait "$TM_TMP/r.dat" >"$TM_TMP/want"
	"$TRACEMAP" sql "$TM_TMP/r.dat" --format tsv 'SELECT latency, tid FROM wakeup_latency
		ORDER BY latency DESC, ts LIMIT 1' | tail -n +2 | tr '\t' ' ' >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
	report_counts "$TM_TMP/r.dat" >"$TM_TMP/want"
	"$TRACEMAP" sql "$TM_TMP/r.dat" --format tsv \
		'SELECT count(*), name FROM events GROUP BY name ORDER BY name' |
		tail -n +2 | tr '\t' ' ' >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
	# x86_64's numbers have their names: ls reads (0), writes (1), execs (59)
	if [ "$(uname -m)" = x86_64 ]; then
		"$TRACEMAP" sql "$TM_TMP/r.dat" --format csv 'SELECT DISTINCT id, name FROM syscalls
			WHERE id IN (0, 1, 59) ORDER BY id' | tail -n +2 >"$TM_TMP/got"
		printf '%s\n' 0,read 1,write 59,execve | diff -u - "$TM_TMP/got"
	fi
	# --top syscalls: the calls per task and syscall add up to the table's rows
	[ "$("$TRACEMAP" sql "$TM_TMP/r.dat" --top syscalls --format csv |
		awk -F, 'NR > 1 { n += $3 } END { print n }')" = \
	  "$("$TRACEMAP" sql "$TM_TMP/r.dat" --format csv 'SELECT count(*) FROM syscalls' | tail -1)" ]
}

@test "sql-record: the syscalls system's sys_enter_NAME pairs, named after their events" {
	record_load -e syscalls:sys_enter_openat -e syscalls:sys_exit_openat \
		-e syscalls:sys_enter_read -e syscalls:sys_exit_read -e sched
	no_loss
	syscalls_from_report "$TM_TMP/r.dat" syscalls >"$TM_TMP/want"
	[ -s "$TM_TMP/want" ]
	"$TRACEMAP" sql "$TM_TMP/r.dat" --format tsv 'SELECT tid, count(*), sum(dur) FROM syscalls
		GROUP BY tid ORDER BY tid' | tail -n +2 | tr '\t' ' ' >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
	"$TRACEMAP" sql "$TM_TMP/r.dat" --format csv 'SELECT DISTINCT name FROM syscalls
		ORDER BY name' | tail -n +2 | diff -u <(printf '%s\n' openat read) -
}

@test "sql-record: two machines' dated files: a machine column, each machine's events its file's" {
	local m
	for m in a b0; do
		timeout -s KILL 60 "$TRACEMAP" record -q --date --file-version 6 -e sched \
			-o "$TM_TMP/$m.dat" -- sh -c 'for i in 1 2 3 4; do /bin/true; done'
	done
	other_host "$TM_TMP/b0.dat" "$TM_TMP/b.dat"
	{ "$TRACEMAP" report --json "$TM_TMP/a.dat" | wc -l
	  "$TRACEMAP" report --json "$TM_TMP/b.dat" | wc -l; } | awk '{ print NR - 1, $1 }' \
		>"$TM_TMP/want"
	"$TRACEMAP" sql "$TM_TMP/a.dat" "$TM_TMP/b.dat" --format tsv 'SELECT machine, count(*)
		FROM events GROUP BY machine ORDER BY machine' | tail -n +2 | tr '\t' ' ' >"$TM_TMP/got"
	diff -u "$TM_TMP/want" "$TM_TMP/got"
	# the event tables and the derived ones have it too; threads of machine 1 say so
	"$TRACEMAP" sql "$TM_TMP/a.dat" "$TM_TMP/b.dat" --format csv 'SELECT
		(SELECT count(DISTINCT machine) FROM sched_switch),
		(SELECT count(DISTINCT machine) FROM sched_slice),
		(SELECT count(*) FROM thread WHERE machine = 1 AND machine_id = 1) > 0,
		(SELECT count(*) FROM thread WHERE machine = 0 AND machine_id IS NULL) > 0' |
		tail -1 | grep -qx '2,2,1,1'
}
