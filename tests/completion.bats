#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# completion.bats - completions/tracemap.bash: subcommands, options, events, clocks, values, files.

load helpers

setup() {
	tm_kernel_setup
	# shellcheck source=../completions/tracemap.bash
	source "$TM_ROOT/completions/tracemap.bash"
	COMP_WORDBREAKS=$' \t\n"\'@><=;|&(:'
}

teardown() {
	tm_kernel_teardown
}

# Complete the last of the given words, as readline would hand them over;
# the first word is the binary, so the completion asks the tracemap under test.
complete_words() {
	COMP_WORDS=("$TRACEMAP" "$@")
	COMP_CWORD=$#
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_tracemap
	REPLY_SORTED=$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | LC_ALL=C sort)
}

sorted() { printf '%s\n' "$@" | sed '/^$/d' | LC_ALL=C sort; }

# Subcommands from the top-level help, the same way a user reads them.
subcommands() {
	"$TRACEMAP" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'
}

@test "completion: the script registers _tracemap for tracemap" {
	run complete -p tracemap
	[[ $output == *"-F _tracemap"* ]]
}

@test "completion: the first word completes to the subcommands of --help" {
	complete_words ""
	[ "$REPLY_SORTED" = "$(subcommands | LC_ALL=C sort)" ]
	complete_words re
	[ "$REPLY_SORTED" = "$(subcommands | grep '^re' | LC_ALL=C sort)" ]
}

@test "completion: 'help' completes to the subcommands" {
	complete_words help ""
	[ "$REPLY_SORTED" = "$(subcommands | grep -vx help | LC_ALL=C sort)" ]
}

@test "completion: list and reset options are the ones their --help shows" {
	complete_words list -
	local o
	for o in -e --events -s -c -t -o -F --format -B --instance --help; do
		[[ " ${COMPREPLY[*]} " == *" $o "* ]] || { echo "list lacks $o" >&2; return 1; }
	done
	complete_words reset --st
	[ "$REPLY_SORTED" = "--stale" ]
}

@test "completion: record, report and stream offer their options" {
	complete_words record --comp
	[[ " ${COMPREPLY[*]} " == *" --compression "* ]]
	complete_words report --js
	[ "$REPLY_SORTED" = "--json" ]
	complete_words stream --no-m
	[ "$REPLY_SORTED" = "--no-mmap" ]
	complete_words report --comp
	[ "$REPLY_SORTED" = "--compat" ]
	complete_words report --compat ""
	[ "$REPLY_SORTED" = "$(sorted 3.1 3.4)" ]
	complete_words stream --compat 3.
	[ "$REPLY_SORTED" = "$(sorted 3.1 3.4)" ]
}

@test "completion: -p offers the kernel's tracers; the function options, --kprobe and list -f are offered" {
	complete_words record -p ""
	[ "$REPLY_SORTED" = "$(tracemap list -t | LC_ALL=C sort)" ]
	complete_words stream --tracer ""
	[ "$REPLY_SORTED" = "$(tracemap list -t | LC_ALL=C sort)" ]
	complete_words record --max-gr
	[ "$REPLY_SORTED" = "--max-graph-depth" ]
	complete_words stream --func-s
	[ "$REPLY_SORTED" = "--func-stack" ]
	complete_words stream --ftrace-
	[ "$REPLY_SORTED" = "$(sorted --ftrace-filter --ftrace-notrace)" ]
	complete_words list --fu
	[ "$REPLY_SORTED" = "--functions" ]
	complete_words record --kpr
	[ "$REPLY_SORTED" = "--kprobe" ]
	complete_words stream --kp
	[ "$REPLY_SORTED" = "--kprobe" ]
	# a kprobe's symbol: a function of list -f (none where the kernel refuses it)
	complete_words record --kprobe do_sys_open
	[ "$REPLY_SORTED" = "$("$TRACEMAP" list -f 2>/dev/null | sed -n 's/^\(do_sys_open[^ ]*\).*/\1/p' | LC_ALL=C sort -u)" ]
}

@test "completion: record --switch-output and --flight offer values, extract its options" {
	complete_words record --switch-output si
	[ "$REPLY_SORTED" = "signal" ]
	complete_words record --flight 25
	[ "$REPLY_SORTED" = "256M" ]
	complete_words extract --no-m
	[ "$REPLY_SORTED" = "--no-mmap" ]
	complete_words extract --out
	[ "$REPLY_SORTED" = "--output" ]
}

@test "completion: list -F completes event names from the kernel, qualified and bare" {
	tm_need "sched:sched_switch event" test -d "$TRACEFS/events/sched/sched_switch"
	complete_words list -F sch
	[[ " ${COMPREPLY[*]} " == *" sched:sched_switch "* ]]
	# every reply is an event the kernel has, as SYSTEM:EVENT or as a bare name
	local events
	events=$("$TRACEMAP" list -e)
	[ -z "$(comm -23 <(echo "$REPLY_SORTED") \
		<( (echo "$events"; echo "$events" | sed 's/^[^:]*://') | LC_ALL=C sort -u))" ]
	complete_words list -F sched_swi
	[ "$REPLY_SORTED" = sched_switch ]
}

@test "completion: an event split at ':' by readline completes the part after it" {
	tm_need "sched:sched_switch event" test -d "$TRACEFS/events/sched/sched_switch"
	complete_words list -F sched : sched_swi
	[ "$REPLY_SORTED" = sched_switch ]
	complete_words list -e sched :
	[[ " ${COMPREPLY[*]} " == *" sched_switch "* ]]
	# without ':' in COMP_WORDBREAKS the word arrives whole and the reply is whole
	COMP_WORDBREAKS=$' \t\n"\'@><=;|&('
	complete_words list -F sched:sched_swi
	[ "$REPLY_SORTED" = sched:sched_switch ]
}

@test "completion: record -e offers systems and events" {
	complete_words record -e sche
	[[ " ${COMPREPLY[*]} " == *" sched "* ]]
	[[ " ${COMPREPLY[*]} " == *" sched:sched_switch "* ]]
}

@test "completion: -C completes the kernel's clocks" {
	local clocks
	clocks=$(tr ' ' '\n' < "$TRACEFS/trace_clock" | tr -d '[]' | sed '/^$/d' | LC_ALL=C sort)
	complete_words record -C ""
	[ "$REPLY_SORTED" = "$clocks" ]
}

@test "completion: --compression and --file-version complete their values, also after '='" {
	complete_words record --compression ""
	[ "$REPLY_SORTED" = "$(sorted zstd none)" ]
	complete_words record --compression = z
	[ "$REPLY_SORTED" = zstd ]
	complete_words record --compression =
	[ "$REPLY_SORTED" = "$(sorted zstd none)" ]
	complete_words record --file-version ""
	[ "$REPLY_SORTED" = "$(sorted 6 7)" ]
}

@test "completion: report -i, record -o and report's argument complete file names" {
	touch "$TM_TMP/one.dat" "$TM_TMP/other.dat"
	complete_words report -i "$TM_TMP/on"
	[ "$REPLY_SORTED" = "$TM_TMP/one.dat" ]
	complete_words record -o "$TM_TMP/o"
	[ "$REPLY_SORTED" = "$(sorted "$TM_TMP/one.dat" "$TM_TMP/other.dat")" ]
	complete_words report "$TM_TMP/ot"
	[ "$REPLY_SORTED" = "$TM_TMP/other.dat" ]
	# recover: its OUTPUT is a file name, its options those of its --help
	complete_words recover "$TM_TMP/ot"
	[ "$REPLY_SORTED" = "$TM_TMP/other.dat" ]
	complete_words recover --q
	[ "$REPLY_SORTED" = "--quiet" ]
}

@test "completion: after -- the command's words complete as bash completes that command" {
	tm_need "bash-completion" test -r /usr/share/bash-completion/bash_completion
	# shellcheck source=/dev/null
	source /usr/share/bash-completion/bash_completion
	complete_words record -e sched -- ls --co
	[[ " ${COMPREPLY[*]} " == *" --color"* ]] || { echo "${COMPREPLY[*]}" >&2; return 1; }
	[[ " ${COMPREPLY[*]} " != *" --compression "* ]]
	complete_words stream -- ls --no-m
	[[ " ${COMPREPLY[*]} " != *"--no-mmap"* ]]
	# the command itself completes to commands, its file arguments to files
	complete_words record -- trace-cm
	[[ " ${COMPREPLY[*]} " == *" trace-cmd "* ]]
	touch "$TM_TMP/somefile"
	complete_words record -- cat "$TM_TMP/som"
	[ "$REPLY_SORTED" = "$TM_TMP/somefile" ]
}

@test "completion: an option that takes a number completes nothing" {
	complete_words record -b ""
	[ "${#COMPREPLY[@]}" -eq 0 ]
}

@test "completion: record -O completes tracefs option names and their no-forms" {
	local name
	name=$(cd "$TRACEFS/options" && ls | head -n1)
	complete_words record -O "$name"
	[[ " ${COMPREPLY[*]} " == *" $name "* ]]
	complete_words record -O "no$name"
	[[ " ${COMPREPLY[*]} " == *" no$name "* ]]
}

@test "completion: convert offers its options, --to its formats, -o and FILE file names" {
	touch "$TM_TMP/one.dat"
	complete_words convert --t
	[ "$REPLY_SORTED" = "--to" ]
	complete_words convert --to ""
	[ "$REPLY_SORTED" = "$(sorted json perfetto)" ]
	complete_words convert "$TM_TMP/on"
	[ "$REPLY_SORTED" = "$TM_TMP/one.dat" ]
	complete_words convert -o "$TM_TMP/on"
	[ "$REPLY_SORTED" = "$TM_TMP/one.dat" ]
}

@test "completion: -R offers this kernel's trigger commands, --uprobe files, -T/--date options" {
	complete_words record -e sched -R stack
	[ "$REPLY_SORTED" = stacktrace ]
	complete_words stream -e sched --event-trigger trace
	[ "$REPLY_SORTED" = "$(sorted traceoff traceon)" ]
	complete_words record --uprobe "$TM_ROOT/completions/tracemap.ba"
	[ "$REPLY_SORTED" = "$TM_ROOT/completions/tracemap.bash" ]
	complete_words record --da
	[ "$REPLY_SORTED" = --date ]
	complete_words record --stackt
	[ "$REPLY_SORTED" = --stacktrace ]
}
