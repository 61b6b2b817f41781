# SPDX-License-Identifier: GPL-2.0-only
# helpers.bash - shared by every bats file: paths, the tracefs guard, and the
# check that a test leaves the top-level tracing state exactly as it found it.

TM_ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
# The tests run the sanitizer build; TRACEMAP=./tracemap runs the plain one.
TRACEMAP=${TRACEMAP:-$TM_ROOT/build/asan/tracemap}
FIXTURES=${TM_FIXTURES:-$TM_ROOT/tests/fixtures}
TRACEFS=${TRACEFS:-/sys/kernel/tracing}
# Flags that make `tracemap report` print what the installed trace-cmd 3.1.6
# prints: the tests that compare with it add them (one switch for all of them).
TM_REPORT_31=(--compat=3.1)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=99}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$TM_ROOT/tests/lsan.supp:print_suppressions=0}

tracemap() { "$TRACEMAP" "$@"; }

# tm_wait SECONDS WHAT CMD [ARG...]: run CMD every 50 ms until it succeeds. Once
# SECONDS of wall time have passed (as long on a loaded machine as on an idle one)
# it fails with one line saying what it waited for. Every polling wait of the tests
# is this one loop (tests/polling-loops.sh finds any other); exported, so that a
# `bash -c` a test starts (a recorded COMMAND) waits the same way.
tm_wait() {
	local limit=$1 what=$2 end
	shift 2
	end=$((${EPOCHREALTIME/[.,]/} + limit * 1000000))
	until "$@"; do
		if ((${EPOCHREALTIME/[.,]/} >= end)); then
			echo "timed out after $limit s waiting for $what" >&2
			return 1
		fi
		sleep 0.05
	done
}
export -f tm_wait

# Kernel tests need a writable tracefs. Outside CI they may skip where it is
# truly absent; in CI (CI=true) that is a failure, never a skip.
tm_require_tracefs() {
	if [ ! -w "$TRACEFS/instances" ]; then
		mount -t tracefs nodev "$TRACEFS" 2>/dev/null || true
	fi
	if [ ! -w "$TRACEFS/instances" ]; then
		if [ "${CI:-}" = true ]; then
			echo "tracefs is not mounted or not writable at $TRACEFS (CI=true: kernel tests may not skip)" >&2
			return 1
		fi
		skip "tracefs not available at $TRACEFS"
	fi
}

# Everything of the top-level buffer a recorder could disturb, one line each.
tm_tracefs_state() {
	local f files=()
	for f in tracing_on current_tracer trace_clock buffer_size_kb \
		 buffer_subbuf_size_kb buffer_percent set_event set_event_pid \
		 set_event_notrace_pid tracing_cpumask events/enable uprobe_events \
		 dynamic_events; do
		[ -r "$TRACEFS/$f" ] && files+=("$TRACEFS/$f")
	done
	# One awk reads them all and every option, a line each as FILE=LINE (a process
	# per file made this check most of a kernel test's time).
	# TM_STATE_IGNORE_PROBES (a regex) hides probes of stale runs (tm_ignore_stale).
	awk -v root="$TRACEFS/" -v skip="${TM_STATE_IGNORE_PROBES:-^\$}" \
		'$0 !~ skip { print substr(FILENAME, length(root) + 1) "=" $0 }' \
		"${files[@]}" "$TRACEFS"/options/*
	# TM_STATE_IGNORE (a regex) hides instances of unrelated concurrent users.
	printf 'instances=%s\n' "$(ls "$TRACEFS/instances" |
		grep -Ev "${TM_STATE_IGNORE:-^\$}" | tr '\n' ' ')"
}

# For a test that runs `reset --stale`: the instances and probes of dead tracemap
# runs that were there before it (another session's SIGKILLed recorder) are rightly
# removed too, not by the test's fault: the state check leaves them out.
tm_ignore_stale() {
	local dry inst probes
	dry=$("$TRACEMAP" reset 2>/dev/null)
	inst=$(sed -n 's/^would remove \(tracemap-[0-9]*\)$/\1/p' <<<"$dry" | paste -sd '|')
	probes=$(sed -n 's/^would remove [uk]probe \(tracemap_[0-9]*\)\/.*/\1/p' <<<"$dry" |
		sort -u | paste -sd '|')
	TM_STATE_IGNORE="^(${inst:-\$})\$"
	# a kretprobe's line starts r<maxactive>: (dynamic_events)
	TM_STATE_IGNORE_PROBES="^[pr][0-9]*:(${probes:-\$})/"
}

tm_state_save() {
	TM_STATE_BEFORE=$(tm_tracefs_state)
}

tm_state_check() {
	local after
	after=$(tm_tracefs_state)
	if [ "$after" != "$TM_STATE_BEFORE" ]; then
		echo "tracefs state changed by the test:" >&2
		diff <(echo "$TM_STATE_BEFORE") <(echo "$after") >&2
		return 1
	fi
}

# Standard setup/teardown for kernel tests: a per-test scratch directory and
# the state check.
tm_kernel_setup() {
	tm_require_tracefs
	tm_state_save
	TM_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tracemap-test.XXXXXX")
}

tm_kernel_teardown() {
	[ -n "${TM_TMP:-}" ] && rm -rf "$TM_TMP"
	[ -n "${TM_STATE_BEFORE:-}" ] || return 0
	tm_state_check
}

# Fails (with the output shown) unless the last `run` exited with $1.
tm_status() {
	if [ "$status" -ne "$1" ]; then
		echo "exit status $status, expected $1; output:" >&2
		echo "$output" >&2
		return 1
	fi
}

# Whether tm_bg's tracemap (stderr in $1) has named its instance and it traces, or
# has ended; sets TM_INST.
tm_bg_started() {
	TM_INST=$(sed -n 's/.*instance \(tracemap-[0-9]*\),.*/\1/p' "$1")
	[ -n "$TM_INST" ] &&
		[ "$(cat "$TRACEFS/instances/$TM_INST/tracing_on" 2>/dev/null)" = 1 ] && return 0
	! kill -0 "$TM_BG" 2>/dev/null
}

# tm_bg TIMEOUT OUT ERR SUBCOMMAND ARGS...: start `tracemap SUBCOMMAND -v ARGS`
# in the background (stdout to OUT, stderr to ERR), bounded by TIMEOUT seconds,
# and wait until its instance traces. Sets TM_BG (the timeout wrapper's pid),
# TM_INST (tracemap-<pid>) and TM_PID.
tm_bg() {
	local limit=$1 out=$2 err=$3 sub=$4
	shift 4
	TM_INST=
	timeout -s KILL "$limit" "$TRACEMAP" "$sub" -v "$@" >"$out" 2>"$err" &
	TM_BG=$!
	tm_wait 30 "tracemap $sub to name its instance and trace" tm_bg_started "$err" &&
		[ -n "$TM_INST" ] || { cat "$err" >&2; return 1; }
	TM_PID=${TM_INST#tracemap-}
}

# Start `tracemap record -v ARGS` in the background, bounded by TIMEOUT seconds,
# and wait until its instance traces. Sets REC_ERR (its stderr), REC_BG (the
# timeout wrapper's pid), REC_INST (tracemap-<pid>) and REC_PID.
tm_record_bg() {
	local limit=$1
	shift
	REC_ERR=$TM_TMP/rec.err
	tm_bg "$limit" "$TM_TMP/rec.out" "$REC_ERR" record "$@" || return 1
	REC_BG=$TM_BG REC_INST=$TM_INST REC_PID=$TM_PID
}

# tm_need WHAT CMD...: a test's prerequisite. Where CMD fails the test skips,
# except in CI (CI=true), where a missing prerequisite is a failure.
tm_need() {
	local what=$1
	shift
	"$@" >/dev/null 2>&1 && return 0
	if [ "${CI:-}" = true ]; then
		echo "prerequisite missing in CI: $what" >&2
		return 1
	fi
	skip "$what"
}

# A test that sets --subbuf-size needs buffer_subbuf_size_kb (Linux >= 6.8; the 6.1
# guest has none).
tm_need_subbuf_size() {
	tm_need "buffer_subbuf_size_kb (Linux >= 6.8)" test -e "$TRACEFS/buffer_subbuf_size_kb"
}

# tm_meta_word PATH OFFSET: the 64-bit word at OFFSET of the meta page of a mapped
# trace_pipe_raw PATH after one GET_READER, which updates the page and consumes the
# reader sub-buffer: for a scratch instance (ctypes: Python's mmap module refuses a
# file of size 0). Fails where the kernel cannot map it.
tm_meta_word() {
	python3 -c 'import ctypes, fcntl, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
		      ctypes.c_int, ctypes.c_long]
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
p = libc.mmap(None, os.sysconf("SC_PAGESIZE"), 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
if p is None or p == ctypes.c_void_p(-1).value:
    sys.exit(1)
fcntl.ioctl(fd, 0x5220)  # TRACE_MMAP_IOCTL_GET_READER
print(ctypes.c_uint64.from_address(p + int(sys.argv[2])).value)' "$1" "$2"
}

# Whether this kernel maps a CPU's ring buffer (mmap of trace_pipe_raw, Linux >= 6.10;
# the 6.1 guest's cannot): a scratch instance's cpu0 mapped and let go.
tm_ring_maps() {
	local inst=$TRACEFS/instances/tm-map-probe-$$ rc=0
	mkdir "$inst" || return 1
	tm_meta_word "$inst/per_cpu/cpu0/trace_pipe_raw" 0 >/dev/null 2>&1 || rc=1
	rmdir "$inst"
	return "$rc"
}

# A test of the mapping itself skips where the kernel has none.
tm_need_ring_map() {
	tm_need "ring-buffer mapping (mmap of trace_pipe_raw, Linux >= 6.10)" tm_ring_maps
}

# The path record -v names for a CPU by default: "mmap path", or on a kernel without
# the mapping "read() path" (followed by "(mmap: No such device)").
tm_default_path() {
	if tm_ring_maps; then echo "mmap path"; else echo "read() path"; fi
}

# tm_big_file OUT [N]: sched-v6.dat's 821 events repeated N (1000) times, later each
# time (tests/repeat-pages.pl): 41 MB for 1000, a second of report.
tm_big_file() {
	perl "$TM_ROOT/tests/repeat-pages.pl" "$FIXTURES/sched-v6.dat" "${2:-1000}" "$1"
}

# tm_in_pty CMD RAW: the shell command line CMD with its stdout and stderr on a
# pseudo-terminal 200 columns wide (a status line has room for all its fields;
# status-tty.bats tries narrower ones), every byte written there kept in RAW;
# CMD's exit status (bounded: 5 minutes).
tm_in_pty() {
	timeout -s KILL 300 script -qfec "stty cols 200 rows 50; $1" /dev/null </dev/null >"$2"
}

# tm_progress_lines RAW SUB: the status lines of SUB drawn in RAW (each redraw
# starts with CR and erase-line), in order.
tm_progress_lines() {
	tr '\r' '\n' <"$1" | sed -n "s/^\x1b\[K\($2 [0-9]*\.[0-9]s  .*\)$/\1/p"
}
