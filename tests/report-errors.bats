#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# report-errors.bats - `tracemap report` on damaged or unreadable inputs: exit 1,
# nothing on stdout, exactly one stderr line naming the file and the problem.
# No kernel needed.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	TM_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tracemap-rerr.XXXXXX")
}

teardown() {
	[ -n "${TM_TMP:-}" ] && rm -rf "$TM_TMP"
}

# A private copy of a fixture (the fixtures themselves stay untouched).
copy_fixture() {
	cp "$FIXTURES/$1" "$TM_TMP/$2"
	chmod u+w "$TM_TMP/$2"
}

# patch FILE OFFSET PRINTF-BYTES: overwrite bytes in place.
patch() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# report_fails WHAT PATTERN...: the last run failed cleanly with one line holding every PATTERN.
report_fails() {
	local what=$1 p
	shift
	if [ "$status" -ne 1 ]; then
		echo "$what: exit $status, expected 1; stderr: $stderr" >&2
		return 1
	fi
	if [ -n "$output" ]; then
		echo "$what: unexpected stdout: $output" >&2
		return 1
	fi
	if [ "${#stderr_lines[@]}" -ne 1 ]; then
		echo "$what: ${#stderr_lines[@]} stderr lines, expected 1:" >&2
		echo "$stderr" >&2
		return 1
	fi
	if grep -qE 'Sanitizer|runtime error|LeakSanitizer' <<<"$stderr"; then
		echo "$what: sanitizer report: $stderr" >&2
		return 1
	fi
	for p in "$@"; do
		if [[ "$stderr" != *"$p"* ]]; then
			echo "$what: stderr lacks '$p': $stderr" >&2
			return 1
		fi
	done
}

@test "report-errors: truncated v6 and v7 copies fail with the file name and an offset" {
	local f cut size
	for f in sched-v6.dat sched-v7.dat sched-v7-zstd.dat multi-v7-zstd.dat; do
		size=$(stat -c %s "$FIXTURES/$f")
		for cut in 0 5 17 30 400 5000 $((size / 2)) $((size - 9000)); do
			[ "$cut" -lt "$size" ] || continue
			head -c "$cut" "$FIXTURES/$f" >"$TM_TMP/cut-$cut.dat"
			run --separate-stderr "$TRACEMAP" report -i "$TM_TMP/cut-$cut.dat"
			report_fails "$f cut at $cut" "cut-$cut.dat" "offset"
		done
	done
}

@test "report-errors: wrong magic is reported at offset 0" {
	copy_fixture sched-v7.dat magic.dat
	patch "$TM_TMP/magic.dat" 0 'XY'
	run --separate-stderr "$TRACEMAP" report -i "$TM_TMP/magic.dat"
	report_fails "magic" "magic.dat" "bad magic at offset 0"
}

@test "report-errors: file version 9 is refused" {
	copy_fixture sched-v7.dat v9.dat
	patch "$TM_TMP/v9.dat" 10 '9'
	run --separate-stderr "$TRACEMAP" report -i "$TM_TMP/v9.dat"
	report_fails "version 9" "v9.dat" "version 9 at offset 10"
}

@test "report-errors: a zeroed v7 options pointer is refused" {
	copy_fixture sched-v7.dat noopts.dat
	patch "$TM_TMP/noopts.dat" 24 '\0\0\0\0\0\0\0\0'
	run --separate-stderr "$TRACEMAP" report -i "$TM_TMP/noopts.dat"
	report_fails "options pointer" "noopts.dat" "options offset is 0" "offset 24"
}

@test "report-errors: an options pointer at the wrong section names both ids" {
	copy_fixture sched-v7.dat wrongsec.dat
	patch "$TM_TMP/wrongsec.dat" 24 '\x20\0\0\0\0\0\0\0'
	run --separate-stderr "$TRACEMAP" report -i "$TM_TMP/wrongsec.dat"
	report_fails "section id" "wrongsec.dat: options section at offset 32: id 16, expected 0"
}

@test "report-errors: garbage input is not a trace.dat file" {
	head -c 4096 /dev/urandom >"$TM_TMP/garbage.dat"
	run --separate-stderr "$TRACEMAP" report -i "$TM_TMP/garbage.dat"
	report_fails "garbage" "garbage.dat" "offset"
}

@test "report-errors: an empty file is too short" {
	: >"$TM_TMP/empty.dat"
	run --separate-stderr "$TRACEMAP" report -i "$TM_TMP/empty.dat"
	report_fails "empty" "empty.dat" "too short" "offset 0"
}

@test "report-errors: a directory is refused" {
	run --separate-stderr "$TRACEMAP" report -i "$TM_TMP"
	report_fails "directory" "$TM_TMP" "directory"
}

@test "report-errors: a missing file names the file and the errno text" {
	run --separate-stderr "$TRACEMAP" report -i "$TM_TMP/missing.dat"
	report_fails "missing" "$TM_TMP/missing.dat" "No such file or directory"
}

@test "report-errors: a pipe that is no trace.dat fails at once, not after reading it all" {
	# an endless stream: refused by its first bytes (timeout only catches a hang)
	run --separate-stderr timeout -s KILL 20 bash -c 'yes | "$1" report -i -' _ "$TRACEMAP"
	report_fails "yes |" "standard input" "not a trace.dat file" "a pipe"
	run --separate-stderr bash -c ': | "$1" report -i -' _ "$TRACEMAP"
	report_fails "empty pipe" "standard input" "empty input"
}

@test "report-errors: a piped trace with no room in TMPDIR says where and why" {
	run --separate-stderr bash -c 'cat "$1" | TMPDIR="$3" "$2" report -i -' _ \
		"$FIXTURES/sched-v7.dat" "$TRACEMAP" "$TM_TMP/missing-dir"
	report_fails "TMPDIR" "standard input" "$TM_TMP/missing-dir" "TMPDIR" \
		"No such file or directory"
}

@test "report-errors: /dev/null is empty, not a pipe" {
	run --separate-stderr "$TRACEMAP" report /dev/null
	report_fails "/dev/null" "/dev/null" "empty"
	[[ $stderr != *pipe* ]]
}

@test "report-errors: a corrupt zstd chunk fails with its offset" {
	copy_fixture sched-v7-zstd.dat badchunk.dat
	# the frame magic of CPU 0's first chunk (spec §10.3: count @8192, chunk header @8196)
	patch "$TM_TMP/badchunk.dat" 8204 '\0\0\0\0'
	run --separate-stderr "$TRACEMAP" report -i "$TM_TMP/badchunk.dat"
	if [ "$status" -ne 1 ] || [ "${#stderr_lines[@]}" -ne 1 ]; then
		echo "exit $status; stderr: $stderr" >&2
		return 1
	fi
	[[ "$stderr" == *"badchunk.dat"*"chunk 0 at offset 8196"* ]] ||
		{ echo "stderr: $stderr" >&2; return 1; }
	! grep -qE 'Sanitizer|runtime error' <<<"$stderr" || return 1
}

@test "report-errors: a named FIFO without a writer is empty, not waited on" {
	mkfifo "$TM_TMP/fifo.dat"
	run --separate-stderr timeout -s KILL 20 "$TRACEMAP" report -i "$TM_TMP/fifo.dat"
	report_fails "fifo" "fifo.dat" "empty input"
}

# report_fails_promptly WHAT FILE PATTERN...: report on FILE, bounded to 20 s, fails cleanly.
report_fails_promptly() {
	local what=$1 file=$2
	shift 2
	run --separate-stderr timeout -s KILL 20 "$TRACEMAP" report -i "$file"
	report_fails "$what" "$@"
}

@test "report-errors: /dev/zero is refused as a character device" {
	report_fails_promptly "/dev/zero" /dev/zero "/dev/zero" "not a trace.dat file (a character device)"
}

@test "report-errors: a 4 GiB sparse file of zeros is refused at offset 0 without reading it" {
	truncate -s 4G "$TM_TMP/sparse.dat"
	report_fails_promptly "sparse" "$TM_TMP/sparse.dat" "sparse.dat" "bad magic at offset 0"
}

@test "report-errors: a symlink loop names the file and ELOOP" {
	ln -s loop-b.dat "$TM_TMP/loop-a.dat"
	ln -s loop-a.dat "$TM_TMP/loop-b.dat"
	report_fails_promptly "symlink loop" "$TM_TMP/loop-a.dat" "loop-a.dat" \
		"Too many levels of symbolic links"
}

@test "report-errors: a file without read permission names the errno text" {
	copy_fixture sched-v7.dat noread.dat
	chmod 000 "$TM_TMP/noread.dat"
	chmod 755 "$TM_TMP"
	if [ "$(id -u)" = 0 ]; then
		# root reads anything: run as nobody so the permission check is real
		run --separate-stderr timeout -s KILL 20 setpriv --reuid=65534 --regid=65534 \
			--clear-groups "$TRACEMAP" report -i "$TM_TMP/noread.dat"
	else
		run --separate-stderr timeout -s KILL 20 "$TRACEMAP" report -i "$TM_TMP/noread.dat"
	fi
	report_fails "no read permission" "noread.dat" "Permission denied"
}

@test "report-errors: /proc/self/maps (size 0 to stat) is too short" {
	report_fails_promptly "/proc/self/maps" /proc/self/maps "/proc/self/maps" "too short"
}
