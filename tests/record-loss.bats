#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# record-loss.bats - nothing silently lost: numbered trace_marker lines written on
# each CPU while recording appear exactly once, or the recorder reports the loss.

load helpers

setup() {
	tm_kernel_setup
	NLINES=20000
	NCPU=$(nproc)
	[ "$NCPU" -le 2 ] || NCPU=2
}
teardown() { tm_kernel_teardown; }

# Start `tracemap record -v ARGS` in the background (trace_marker lines only).
rec_start() {
	tm_record_bg 120 -e ftrace:print -o "$TM_TMP/l.dat" "$@"
}

rec_stop() {
	kill -INT "$REC_PID"
	REC_STATUS=0
	wait "$REC_BG" || REC_STATUS=$?
}

# Write NLINES numbered lines "c<cpu>-<n>" from each CPU at once; a write that
# fails (EBADF: buffer full with nooverwrite) is counted in $TM_TMP/fail.<cpu>.
# With PAUSE=S, each writer stops for S seconds halfway; with PAD=N, each line
# carries N more bytes (the rate in bytes then hardly depends on the shell's speed).
write_markers() {
	local cpu pids=() pad=""
	[ -z "${PAD:-}" ] || pad=-$(printf '%0*d' "$PAD" 0)
	for ((cpu = 0; cpu < NCPU; cpu++)); do
		taskset -c "$cpu" bash -c 'exec 3>"$1"; f=0
			for ((i = 1; i <= $2; i++)); do
				echo "$3-$i$5" >&3 2>/dev/null || f=$((f + 1))
				[ "$i" != $(($2 / 2)) ] || sleep "$4"
			done
			echo "$f"' _ "$TRACEFS/instances/$REC_INST/trace_marker" "$NLINES" "c$cpu" \
			"${PAUSE:-0}" "$pad" >"$TM_TMP/fail.$cpu" &
		pids+=($!)
	done
	wait "${pids[@]}"
}

# Field of the summary line of a CPU: 2 events, 6 lost.
summary_field() {
	awk -v cpu="$1" -v f="$2" '$1 == cpu && NF == 6 { print $f }' "$REC_ERR"
}

# Check every CPU: no duplicates; lines seen + lost = lines written; per-CPU
# counts agree between tracemap, the kernel's read stats and trace-cmd.
check_markers() {
	local cpu seen dups events lost kread tc_count fails
	trace-cmd report -i "$TM_TMP/l.dat" >"$TM_TMP/tc.txt" 2>"$TM_TMP/tc.err" ||
		{ cat "$TM_TMP/tc.err" >&2; return 1; }
	[ ! -s "$TM_TMP/tc.err" ] || { cat "$TM_TMP/tc.err" >&2; return 1; }
	for ((cpu = 0; cpu < NCPU; cpu++)); do
		grep -o "tracing_mark_write: c$cpu-[0-9]*" "$TM_TMP/tc.txt" | sort >"$TM_TMP/seen"
		seen=$(sort -u "$TM_TMP/seen" | wc -l)
		dups=$(uniq -d "$TM_TMP/seen" | wc -l)
		events=$(summary_field "$cpu" 2)
		lost=$(summary_field "$cpu" 6)
		kread=$(sed -n "s/.*cpu$cpu kernel: entries [0-9]*, read events \([0-9]*\).*/\1/p" "$REC_ERR")
		tc_count=$(grep -c "\[00$cpu\] " "$TM_TMP/tc.txt" || true)
		fails=$(cat "$TM_TMP/fail.$cpu")
		echo "cpu$cpu: written $NLINES, failed $fails, seen $seen, dups $dups, events $events," \
			"kernel read $kread, trace-cmd $tc_count, lost $lost" >&2
		[ "$dups" -eq 0 ]
		[ "$((seen + lost))" -eq "$NLINES" ]
		[ "$events" -eq "$seen" ]
		[ "$kread" -eq "$seen" ]
		[ "$tc_count" -eq "$seen" ]
	done
}

# A recording with a buffer big enough for all lines: nothing may be missing.
# With LINGER=S, the recording goes on S seconds after the last line.
lossless_run() {
	rec_start "$@"
	write_markers
	sleep "${LINGER:-0}"
	rec_stop
	[ "$REC_STATUS" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	check_markers
	for ((cpu = 0; cpu < NCPU; cpu++)); do
		[ "$(summary_field "$cpu" 6)" -eq 0 ]
		[ "$(cat "$TM_TMP/fail.$cpu")" -eq 0 ]
	done
	! grep -q 'EVENTS DROPPED' "$TM_TMP/tc.txt" || return 1
}

# The recorder is stopped (SIGSTOP) while the lines are written into a 64 KiB buffer.
stalled_run() {
	rec_start -b 64 "$@"
	kill -STOP "$REC_PID"
	write_markers
	kill -CONT "$REC_PID"
	rec_stop
	[ "$REC_STATUS" -eq 0 ] || [ "$REC_STATUS" -eq 3 ] || { cat "$REC_ERR" >&2; return 1; }
	check_markers
	grep -q 'WARNING: events were lost' "$REC_ERR"
}

@test "record-loss: every marker line appears exactly once (mmap, 4 KiB sub-buffers)" {
	tm_need_subbuf_size
	lossless_run --subbuf-size 4 -b 4096
	grep -q 'cpu0: mmap path' "$REC_ERR"
}

@test "record-loss: every marker line appears exactly once (mmap, 8 KiB sub-buffers)" {
	tm_need_subbuf_size
	lossless_run --subbuf-size 8 -b 4096
}

@test "record-loss: every marker line appears exactly once (read(), 4 and 8 KiB)" {
	tm_need_subbuf_size
	lossless_run --no-mmap --subbuf-size 4 -b 4096
	grep -q 'cpu0: read() path' "$REC_ERR"
	lossless_run --no-mmap --subbuf-size 8 -b 4096
}

# "cpuN busy: read() instead of the mapping R times, mapped again M" -> "R M"
busy_spells() {
	sed -n "s/.*cpu$1 busy: read() instead of the mapping \([0-9]*\) times*, mapped again \([0-9]*\).*/\1 \2/p" \
		"$REC_ERR"
}

@test "record-loss: a busy CPU goes over to read() and back to its mapping; every line once" {
	local spells
	tm_need_ring_map
	# 5 MB a CPU before and after the pause: busy (over 512 KiB/s) at any
	# rate above 500 lines a second; a second after the last line, so that the
	# window that saw the second burst ends before the stop
	NLINES=10000
	PAD=1000 PAUSE=3 LINGER=1 lossless_run
	grep -q 'cpu0: mmap path' "$REC_ERR"
	for ((cpu = 0; cpu < NCPU; cpu++)); do
		# busy, quiet for 3 s (mapped again after 1 s), busy again
		read -r -a spells < <(busy_spells "$cpu") || true
		echo "cpu$cpu: read() spells, mappings again: ${spells[*]:-none}" >&2
		grep "cpu$cpu busy:" "$REC_ERR" >&2 || true
		[ "${spells[0]:-0}" -ge 2 ]
		[ "${spells[1]:-0}" -ge 1 ]
	done
	# --keep-mapped: the same lines, and no CPU leaves its mapping
	NLINES=20000
	lossless_run --keep-mapped
	! grep -q 'busy: read()' "$REC_ERR" || return 1
}

# Whether the kernel fills the meta page's pages_lost and pages_touched (the pKVM
# remotes series' names; 7.3 does, 6.10-6.18 leave 0): a scratch instance's cpu0, a
# few sub-buffers of markers, its meta page mapped (the kernel updates it there).
meta_counts_pages() {
	local inst=$TRACEFS/instances/tm-meta-$$ rc=0 n
	mkdir "$inst" || return 1
	taskset -c 0 bash -c 'exec 3>"$1"; for ((i = 0; i < 40; i++)); do
		printf "%0500d\n" "$i" >&3; done' _ "$inst/trace_marker"
	# pages_touched, the meta page's last word
	n=$(tm_meta_word "$inst/per_cpu/cpu0/trace_pipe_raw" 72 2>/dev/null) && [ "$n" -gt 0 ] ||
		rc=1
	rmdir "$inst"
	return "$rc"
}

@test "record-loss: overwrite with a stalled reader reports exactly the overwritten lines" {
	local cpu dropped overrun subbufs events pages
	stalled_run
	for ((cpu = 0; cpu < NCPU; cpu++)); do
		overrun=$(sed -n "s/.*cpu$cpu lost: overrun \([0-9]*\),.*/\1/p" "$REC_ERR")
		[ "$overrun" -gt 0 ]
		# the pages after the gap carry the count: trace-cmd prints it
		dropped=$(sed -n "s/^CPU:$cpu \[\([0-9]*\) EVENTS DROPPED\]/\1/p" "$TM_TMP/tc.txt" |
			awk '{ s += $1 } END { print s + 0 }')
		[ "$dropped" -eq "$overrun" ]
	done
	# the sub-buffers lost, where the kernel counts them: about the overwritten lines
	# over the lines a page of the file holds (half to twice that: the file's last
	# and partly read pages hold fewer)
	if ! tm_ring_maps || ! meta_counts_pages; then
		! grep -q 'overwritten unread' "$REC_ERR" || return 1
		return 0
	fi
	for ((cpu = 0; cpu < NCPU; cpu++)); do
		overrun=$(sed -n "s/.*cpu$cpu lost: overrun \([0-9]*\),.*/\1/p" "$REC_ERR")
		subbufs=$(sed -n "s/.*cpu$cpu lost: .*; \([0-9]*\) sub-buffers* overwritten unread (the kernel's pages_lost)$/\1/p" \
			"$REC_ERR")
		events=$(summary_field "$cpu" 2)
		pages=$(summary_field "$cpu" 3)
		echo "cpu$cpu: $subbufs sub-buffers lost, $overrun lines; $events lines in $pages pages" >&2
		[ "$subbufs" -gt 0 ]
		[ $((2 * overrun * pages)) -ge $((subbufs * events)) ]
		[ $((overrun * pages)) -le $((2 * subbufs * events)) ]
	done
}

@test "record-loss: overwrite with a stalled reader, 8 KiB sub-buffers, read() path" {
	tm_need_subbuf_size
	stalled_run --subbuf-size 8 --no-mmap
}

@test "record-loss: nooverwrite counts refused writes as dropped and keeps every written line" {
	local cpu fails dropped
	stalled_run -O nooverwrite
	for ((cpu = 0; cpu < NCPU; cpu++)); do
		fails=$(cat "$TM_TMP/fail.$cpu")
		dropped=$(sed -n "s/.*cpu$cpu lost: overrun 0, dropped \([0-9]*\),.*/\1/p" "$REC_ERR")
		[ "$fails" -gt 0 ]
		[ "$dropped" -eq "$fails" ]
	done
}

@test "record-loss: -q still reports a loss, as one line on stderr" {
	rec_start -q -b 64
	kill -STOP "$REC_PID"
	write_markers
	kill -CONT "$REC_PID"
	rec_stop
	[ "$REC_STATUS" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	[ "$(grep -c 'events were lost' "$REC_ERR")" -eq 1 ]
	! grep -q '^CPU ' "$REC_ERR" || return 1
	grep -qE 'WARNING: events were lost \([0-9]+ counted\)' "$REC_ERR"
}

@test "record-loss: --fail-on-loss exits 3 when events were lost" {
	tm_need_subbuf_size
	stalled_run --fail-on-loss --subbuf-size 8
	[ "$REC_STATUS" -eq 3 ]
}

# cpu0's 8 MiB buffer is filled while the recorder is stopped: when it resumes,
# the first 1 MiB chunk is compressed with 7/8 of the buffer still unread, far
# above the 3/4 at which the compressor counts as falling behind. The read()
# path has no meta page: its fill comes from per_cpu stats and buffer_size_kb
# (before, it had none, and 6.1 never changed level).
falling_behind() {
	local kread tc_count
	tm_record_bg 120 -e ftrace:print -o "$TM_TMP/a.dat" -M 1 -b 8192 --compression-level 9 "$@"
	kill -STOP "$REC_PID"
	# one line per 1000-byte write: only marker events are enabled
	yes 0123456789abcdefghijklmnopqrstuvwxyz | tr -d '\n' | head -c 10000000 |
		taskset -c 0 dd of="$TRACEFS/instances/$REC_INST/trace_marker" bs=1000 \
			iflag=fullblock status=none
	kill -CONT "$REC_PID"
	rec_stop
	[ "$REC_STATUS" -eq 0 ] || { cat "$REC_ERR" >&2; return 1; }
	grep -E 'cpu0: [0-9]+ of [0-9]+ chunks at a faster zstd level' "$REC_ERR" ||
		{ cat "$REC_ERR" >&2; return 1; }
	# every event the kernel handed out is in the file, for trace-cmd and for us
	kread=$(sed -n "s/.*cpu0 kernel: entries [0-9]*, read events \([0-9]*\).*/\1/p" "$REC_ERR")
	[ "$kread" -gt 4000 ]
	trace-cmd dump --summary -i "$TM_TMP/a.dat" >/dev/null
	tc_count=$(trace-cmd report -i "$TM_TMP/a.dat" 2>/dev/null | grep -c 'tracing_mark_write: ')
	[ "$tc_count" -eq "$kread" ]
	[ "$("$TRACEMAP" report -i "$TM_TMP/a.dat" | grep -c 'tracing_mark_write: ')" -eq "$kread" ]
}

@test "record-loss: a CPU buffer filling faster than it compresses switches to faster zstd levels; the file still reads" {
	falling_behind
}

@test "record-loss: the same on the read() path (--no-mmap)" {
	falling_behind --no-mmap
	grep -q 'cpu0: read() path' "$REC_ERR" || { cat "$REC_ERR" >&2; return 1; }
}
