# SPDX-License-Identifier: GPL-2.0-only
# sql-helpers.bash - the answers sql.bats and sql-record.bats expect of tracemap sql,
# computed from report's JSON with jq and awk, independently of lib/sql.

# "COUNT NAME" per event type of report's JSON (every buffer), sorted by name.
report_counts() {
	"$TRACEMAP" report --json "$1" | jq -r .event | sort | uniq -c |
		awk '{ print $1, $2 }' | sort -k2
}

# Per CPU: the busy time from report --json's switches (awk), ns: from each switch
# to the next on its CPU, or to the trace's last event, when a task other than idle ran;
# CPUs that ran only idle are left out, as a sum over utid != 0 leaves them.
# The first buffer's (the top level's, or the instance's of a file with only that),
# as the derived tables read it.
busy_from_report() {
	"$TRACEMAP" report --json "$1" | jq -sc '(.[0].buffer) as $b | .[] | select(.buffer == $b)' |
		jq -r 'if .event == "sched_switch" then [.timestamp_ns, .cpu, .fields.next_pid] else
			[.timestamp_ns, -1, -1] end | @tsv' |
		awk -F'\t' '{ last = $1 }
			$2 >= 0 { if ($2 in since && pid[$2] != 0) busy[$2] += $1 - since[$2]
				  since[$2] = $1; pid[$2] = $3 }
			END { for (c in since) { if (pid[c] != 0) busy[c] += last - since[c]
				  # a CPU that ran only its idle task has no busy slice
				  if (busy[c] > 0) printf "%d %d\n", c, busy[c] } }' | sort -n
}

# The longest wait from runnable (a wakeup of a sleeping task, or a preempting switch)
# to the switch that runs it, from report --json (awk): "ns tid".
longest_wait() {
	"$TRACEMAP" report --json "$1" |
		jq -r 'select(.event | test("^sched_(switch|waking|wakeup|wakeup_new)$")) |
			[.timestamp_ns, .event, .fields.pid // -1, .fields.prev_pid // -1,
			 .fields.prev_state // -1, .fields.next_pid // -1] | @tsv' |
		awk -F'\t' '
			$2 == "sched_switch" {
				p = $4; n = $6
				# prev_state 0 (R) or with the preempted bit 0x100: runnable now
				if (p != 0) { run[p] = 0; if ($5 == 0 || $5 >= 256) { wake[p] = $1 } else st[p] = "S" }
				if (n != 0) { if (n in wake) { d = $1 - wake[n]; if (d > max) { max = d; who = n } }
					      delete wake[n]; run[n] = 1; st[n] = "" }
				next }
			{ t = $3; if (run[t] || (t in wake) || t == 0) next; wake[t] = $1 }
			END { print max, who }'
}

# "tid calls total_ns" per thread of the raw_syscalls (or, with $2 = syscalls, the
# syscalls system's) pairs: an exit closes its thread's open entry of the same number.
syscalls_from_report() {
	local want=${2:-raw_syscalls}
	"$TRACEMAP" report --json "$1" | jq -r --arg s "$want" 'select(.system == $s) |
		[.timestamp_ns, .pid, (.event | test("^sys_enter")),
		 (.fields.id // .fields.__syscall_nr)] | @tsv' |
		awk -F'\t' '$3 == "true" { open[$2] = 1; at[$2] = $1; nr[$2] = $4; next }
			open[$2] && nr[$2] == $4 { n[$2]++; sum[$2] += $1 - at[$2]; open[$2] = 0 }
			END { for (t in n) printf "%d %d %d\n", t, n[t], sum[t] }' | sort -n
}
