#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# cli.bats - the command line itself: help, usage, version, dispatch and usage errors.

load helpers
bats_require_minimum_version 1.5.0

# Subcommand names from the "Subcommands:" block of `tracemap --help` (without "help").
subcommands() {
	"$TRACEMAP" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' |
		grep -vx help
}

@test "cli: --help lists the subcommands and exits 0" {
	run --separate-stderr "$TRACEMAP" --help
	tm_status 0
	[[ ${lines[0]} == "Usage: tracemap "* ]]
	local subs
	subs=$(subcommands | sort | tr '\n' ' ')
	[ "$subs" = "arm convert extract fleet list record recover report reset sql stream " ]
	[ -z "$stderr" ]
}

@test "cli: --usage prints a short usage line and exits 0" {
	run "$TRACEMAP" --usage
	tm_status 0
	[[ $output == "Usage: tracemap "* ]]
	[[ $output == *"--help"* ]]
}

@test "cli: --version prints the Makefile's version" {
	local version
	version=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' "$TM_ROOT/Makefile")
	[ -n "$version" ]
	run "$TRACEMAP" --version
	tm_status 0
	[ "$output" = "tracemap $version" ]
}

@test "cli: every subcommand prints its own --help and exits 0" {
	local sub bad=""
	for sub in $(subcommands); do
		run --separate-stderr "$TRACEMAP" "$sub" --help
		if [ "$status" -ne 0 ] || [[ ${lines[0]} != "Usage: tracemap $sub "* ]] ||
		   [[ $output != *"--help"* ]]; then
			bad+=" $sub(status $status: ${lines[0]:-}${stderr:-})"
		fi
	done
	[ -z "$bad" ] || { echo "bad --help:$bad" >&2; return 1; }
}

@test "cli: 'help SUB' prints exactly what 'SUB --help' prints" {
	local sub bad=""
	for sub in $(subcommands); do
		run "$TRACEMAP" help "$sub"
		local via_help=$output help_status=$status
		run "$TRACEMAP" "$sub" --help
		[ "$help_status" -eq 0 ] && [ "$via_help" = "$output" ] || bad+=" $sub"
	done
	[ -z "$bad" ] || { echo "help SUB differs from SUB --help for:$bad" >&2; return 1; }
}

@test "cli: 'help' alone prints the subcommand list and exits 0" {
	run "$TRACEMAP" help
	tm_status 0
	local via_help top
	via_help=$(echo "$output" | sed -n '/^Subcommands:/,/^$/p')
	top=$("$TRACEMAP" --help | sed -n '/^Subcommands:/,/^$/p')
	[ -n "$top" ]
	[ "$via_help" = "$top" ]
}

@test "cli: an unknown subcommand exits 2 with a hint on stderr" {
	run --separate-stderr "$TRACEMAP" bogus
	tm_status 2
	[ -z "$output" ]
	[[ $stderr == *"unknown subcommand 'bogus'"* ]]
	[[ $stderr == *"tracemap --help"* ]]
}

@test "cli: 'help' of an unknown subcommand exits 2" {
	run --separate-stderr "$TRACEMAP" help bogus
	tm_status 2
	[[ $stderr == *"'bogus'"* ]]
}

@test "cli: no subcommand exits 2 with a hint" {
	run --separate-stderr "$TRACEMAP"
	tm_status 2
	[[ $stderr == *"missing subcommand"* ]]
	[[ $stderr == *"--help"* ]]
}

@test "cli: an unknown option exits 2 with a hint, globally and per subcommand" {
	run --separate-stderr "$TRACEMAP" --bogus-option
	tm_status 2
	[[ $stderr == *"--bogus-option"* && $stderr == *"--help"* ]]
	local sub bad=""
	for sub in $(subcommands); do
		run --separate-stderr "$TRACEMAP" "$sub" --bogus-option
		[ "$status" -eq 2 ] && [[ $stderr == *"bogus-option"* ]] &&
			[[ $stderr == *"tracemap $sub --help"* ]] || bad+=" $sub($status)"
	done
	[ -z "$bad" ] || { echo "unknown option not a usage error for:$bad" >&2; return 1; }
}

@test "cli: list rejects two selectors and a bad REGEX as usage errors" {
	run --separate-stderr "$TRACEMAP" list -s -c
	tm_status 2
	[[ $stderr == *"choose one of"* ]]
	run --separate-stderr "$TRACEMAP" list -e '('
	tm_status 2
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "tracemap list: invalid REGEX '('"* ]]
}

@test "cli: reset rejects an argument as a usage error" {
	run --separate-stderr "$TRACEMAP" reset extra
	tm_status 2
	[[ $stderr == *"unexpected argument 'extra'"* ]]
}

# An invalid option value is a usage error in record and stream alike: exit 2,
# nothing traced (these fail before tracefs is touched), the value in the message.
@test "cli: invalid option values exit 2 in record and stream, CPU masks with the valid range" {
	local sub n top
	n=$(nproc)
	top=$((n - 1))
	for sub in record stream; do
		run --separate-stderr "$TRACEMAP" "$sub" -M zz --duration 1
		tm_status 2
		[[ $stderr == *"bad CPU mask 'zz'"* ]]
		run --separate-stderr "$TRACEMAP" "$sub" -M 0 --duration 1
		tm_status 2
		[[ $stderr == *"selects no CPU"* ]]
		run --separate-stderr "$TRACEMAP" "$sub" -M "$(printf '%x' $((1 << n)))" --duration 1
		tm_status 2
		[[ $stderr == *"CPU $n does not exist"*"0-$top"* ]] || { echo "$stderr" >&2; return 1; }
		run --separate-stderr "$TRACEMAP" "$sub" --duration abc
		tm_status 2
		run --separate-stderr "$TRACEMAP" "$sub" -b abc --duration 1
		tm_status 2
		run --separate-stderr "$TRACEMAP" "$sub" -P abc --duration 1
		tm_status 2
	done
}

# Issue 44: `record --duration 0.5` alone gave an empty trace without a word.
@test "cli: record and stream with nothing to record (no -e, -p, --uprobe, --kprobe) are usage errors" {
	local sub out
	for sub in record stream; do
		out=()
		[ "$sub" = stream ] || out=(-o "$BATS_TEST_TMPDIR/x.dat")
		run --separate-stderr "$TRACEMAP" "$sub" --duration 0.5 "${out[@]}"
		tm_status 2
		[[ ${stderr_lines[0]} == "tracemap $sub: nothing to record: give -e EVENT (-e all: every event; -e ftrace:print: trace_marker lines), -p TRACER, --uprobe or --kprobe" ]] ||
			{ echo "$stderr" >&2; return 1; }
		run --separate-stderr "$TRACEMAP" "$sub" -C mono -O nooverwrite -T -- true
		tm_status 2
		[[ $stderr == *"nothing to record"* ]]
	done
	[ ! -e "$BATS_TEST_TMPDIR/x.dat" ]
}

# Issue 44: a second -B silently replaced the first.
@test "cli: record and stream refuse a second -B as a usage error" {
	local sub
	for sub in record stream; do
		run --separate-stderr "$TRACEMAP" "$sub" -B a -e sched -B b -e irq --duration 0.5
		tm_status 2
		[ "${stderr_lines[0]}" = "tracemap $sub: -B given twice ('a', then 'b'): one recording traces one instance" ] ||
			{ echo "$stderr" >&2; return 1; }
	done
}

@test "cli: no --help text has a line of blanks only" {
	local sub bad=""
	for sub in "" $(subcommands); do
		# shellcheck disable=SC2086
		"$TRACEMAP" $sub --help | grep -qE '^[[:space:]]+$' && bad+=" ${sub:-tracemap}"
	done
	[ -z "$bad" ] || { echo "blank-only help lines in:$bad" >&2; return 1; }
}

# glibc's argp (2.36) once printed an option of `record --help` indented past the doc
# column, with its text unwrapped, depending only on where earlier text fell in its
# buffer (a longer --keep-mapped text moved --switch-output there): zsh's completion,
# which reads the option column, then lost the option.
@test "cli: every --help option line starts in the option column" {
	local sub bad=""
	for sub in "" $(subcommands); do
		# shellcheck disable=SC2086
		bad+=$("$TRACEMAP" $sub --help | grep -E '^ {8,}-{1,2}[[:alnum:]]' |
			sed "s/^ */ ${sub:-tracemap}: /")
	done
	[ -z "$bad" ] || { echo "option lines out of place:$bad" >&2; return 1; }
}

# argp wraps doc text at 79 columns, which once split examples mid-command: each line
# after "Examples:" must be one whole command, quotes balanced, ready to paste.
@test "cli: every --help example is one whole command on its own line" {
	local sub line n
	for sub in "" $(subcommands); do
		n=0
		# shellcheck disable=SC2086
		while IFS= read -r line; do
			[[ "$line" == "  tracemap${sub:+ $sub}"* ]] ||
				{ echo "${sub:-tracemap}: not a command: '$line'" >&2; return 1; }
			bash -n -c "$line" 2>/dev/null ||
				{ echo "${sub:-tracemap}: does not parse: '$line'" >&2; return 1; }
			n=$((n + 1))
		done < <("$TRACEMAP" $sub --help | sed -n '/^Examples:$/,/^$/{/^Examples:$/d;/^$/d;p}')
		[ "$n" -ge 1 ] || { echo "${sub:-tracemap}: no examples" >&2; return 1; }
	done
}
