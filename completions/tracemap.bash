# SPDX-License-Identifier: GPL-2.0-only
# tracemap.bash - bash completion for tracemap: subcommands, their options (read from
# `tracemap SUB --help` so they never drift), events, clocks, instances and files.

# The tracemap being completed (./tracemap, ~/bin/tracemap, ...), else the one in PATH.
_tracemap_bin()
{
	local bin=${COMP_WORDS[0]:-tracemap}

	[[ $bin == "~"* ]] && bin=$HOME${bin#"~"}
	if [[ $bin == */* && -x $bin ]]; then
		printf '%s\n' "$bin"
	else
		printf 'tracemap\n'
	fi
}

# Subcommand names from the "Subcommands:" block of `tracemap --help`.
_tracemap_subcommands()
{
	local out
	out=$("$1" --help 2>/dev/null |
		sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
	printf '%s\n' "${out:-record report convert sql stream list reset extract arm recover fleet help}"
}

# Print "ALL" and "ARG" lines: every option of a subcommand, and those that take a
# mandatory argument, from the option column of its --help output.
_tracemap_help_options()
{
	"$1" "$2" --help 2>/dev/null | awk '
		# option lines start at column 2 or 6; wrapped descriptions much further in
		match($0, /^ +-/) && RLENGTH <= 7 {
			col = $0
			sub(/^ +/, "", col)
			i = index(col, "  ")
			if (i) col = substr(col, 1, i - 1)
			n = split(col, part, /, /)
			arg = 0; names = ""
			for (k = 1; k <= n; k++) {
				p = part[k]
				if (p ~ /^-[^-] [^[]/ || p ~ /^--[^=[]+=/) arg = 1
				sub(/[[= ].*$/, "", p)
				names = names " " p
			}
			all = all names
			if (arg) args = args names
		}
		END { print "ALL" all; print "ARG" args }'
}

# Every subcommand's options, for when `tracemap SUB --help` gives none (no
# tracemap on PATH, or one that fails): the documented sets.
_tracemap_fallback_options()
{
	case $1 in
	record)	echo "ALL -e -f -R -T --uprobe --kprobe -p -l -n -g --max-graph-depth --func-stack" \
		     "-o -b --subbuf-size -C -M -P -F -c -O" \
		     "--wakeup-percent -q -v --no-mmap --keep-mapped --no-pin --reader-nice -B --reuse-instance --file-version" \
		     "--compression --compression-level --fixed-level --date --duration" \
		     "--fail-on-loss --flight --switch-output --max-files --trigger --post" \
		     "--max-dumps --flush-interval --help"
		echo "ARG -e -f -R --uprobe --kprobe -p -l -n -g --max-graph-depth -o -b --subbuf-size" \
		     "-C -M -P -O --wakeup-percent -B --file-version --compression" \
		     "--compression-level --duration --flight --switch-output --max-files" \
		     "--trigger --post --max-dumps --flush-interval" ;;
	report)	echo "ALL -i -t -N --cpu -F -v -E --stat -R -l -O -q --first-event --last-event" \
		     "--json --compat --help"
		echo "ARG -i --cpu -F -O --first-event --last-event --compat" ;;
	convert) echo "ALL -i -o --to -N -q --help"
		echo "ARG -i -o --to" ;;
	sql)	echo "ALL -i -o --format --top --hist --show -N -q --clickhouse --cluster" \
		     "--schema --replace -m --across --limit --help"
		echo "ARG -i -o --format --top --clickhouse --cluster --schema -m --limit" ;;
	stream)	echo "ALL -e -f -R -T --uprobe --kprobe -p -l -n -g --max-graph-depth --func-stack" \
		     "-b --subbuf-size -C -M -P -F -c -O" \
		     "--wakeup-percent -q -v --no-mmap --keep-mapped --no-pin --reader-nice -B --reuse-instance --duration --json" \
		     "--compat --help"
		echo "ARG -e -f -R --uprobe --kprobe -p -l -n -g --max-graph-depth -b --subbuf-size" \
		     "-C -M -P -O --wakeup-percent -B --duration --compat" ;;
	list)	echo "ALL -e -s -c -t -o -F -f -I -B --help"
		echo "ARG -F -B" ;;
	reset)	echo "ALL -s --stale --help"
		echo "ARG" ;;
	extract) echo "ALL -B -o --no-mmap --file-version --compression --compression-level" \
		     "-q -v --help"
		echo "ARG -B -o --file-version --compression --compression-level" ;;
	arm)	echo "ALL -B -e -f -O -C -p --force --stop --clear --help"
		echo "ARG -B -e" ;;
	recover) echo "ALL -q --help"
		echo "ARG" ;;
	fleet)	echo "ALL --clickhouse --cluster --schema -m --trace --replace --top --across" \
		     "--limit --traces -q --help"
		echo "ARG --clickhouse --cluster --schema -m --trace --top --limit" ;;
	esac
}

# Sets _tm_all and _tm_arg (space-separated option names) for subcommand $2.
_tracemap_options()
{
	local out line
	out=$(_tracemap_help_options "$1" "$2")
	[[ $out == ALL\ * ]] || out=$(_tracemap_fallback_options "$2")
	_tm_all='' _tm_arg=''
	while read -r line; do
		case $line in
		ALL*) _tm_all=${line#ALL} ;;
		ARG*) _tm_arg=${line#ARG} ;;
		esac
	done <<< "$out"
}

# COMP_WORDS with the pieces readline split at ':' joined again ("sched" ":" "sw"
# -> "sched:sw"), into _tm_words and _tm_cword.
_tracemap_join_words()
{
	local i w join=0
	_tm_words=() _tm_cword=0
	for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		if ((i > 0)) && [[ $COMP_WORDBREAKS == *:* ]] &&
		   { [[ $w =~ ^:+$ ]] || ((join)); }; then
			_tm_words[-1]+=$w
			[[ $w =~ ^:+$ ]] && join=1 || join=0
		else
			_tm_words+=("$w")
			join=0
		fi
		((i == COMP_CWORD)) && _tm_cword=$((${#_tm_words[@]} - 1))
	done
	((COMP_CWORD >= ${#COMP_WORDS[@]})) && { _tm_words+=(""); _tm_cword=$((${#_tm_words[@]} - 1)); }
	return 0
}

# COMPREPLY from a word list; with ':' a word break, readline replaces only what
# follows the last ':' of the word, so the replies drop what precedes it.
_tracemap_reply()
{
	local cur=$1 words=$2 prefix
	mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
	if [[ $COMP_WORDBREAKS == *:* && $cur == *:* ]]; then
		prefix=${cur%"${cur##*:}"}
		COMPREPLY=("${COMPREPLY[@]#"$prefix"}")
	fi
}

_tracemap_files()
{
	compopt -o filenames 2>/dev/null || true
	mapfile -t COMPREPLY < <(compgen -f -- "$1")
}

# Trigger commands this kernel has: the "# Available triggers:" line of a trigger file.
_tracemap_triggers()
{
	local f
	for f in /sys/kernel/tracing/events/*/*/trigger; do
		[[ -r $f ]] && sed -n '2s/^# //p' "$f"
		return
	done
}

_tracemap_instances()
{
	local dir=/sys/kernel/tracing/instances
	[[ -d $dir ]] || dir=/sys/kernel/debug/tracing/instances
	_tracemap_reply "$1" "$(ls "$dir" 2>/dev/null)"
}

# Complete the argument of option $3 of subcommand $2 ($1: the binary, $4: cur).
# Returns 1 when the option is not one with known values.
_tracemap_option_value()
{
	local bin=$1 sub=$2 opt=$3 cur=$4
	case $sub:$opt in
	list:-e|list:--events)
		_tracemap_reply "$cur" "$("$bin" list -e 2>/dev/null)" ;;
	list:-F|list:--format)
		# -F also takes a bare event name
		_tracemap_reply "$cur" "$("$bin" list -e 2>/dev/null | sed 'p;s/^[^:]*://')" ;;
	record:-e|record:--event|record:--events|stream:-e|stream:--event|stream:--events|arm:-e|arm:--event)
		_tracemap_reply "$cur" "$("$bin" list -s 2>/dev/null) $("$bin" list -e 2>/dev/null)" ;;
	record:-O|record:--option|stream:-O|stream:--option|arm:-O|arm:--option)
		# an option name sets it, noNAME clears it
		_tracemap_reply "$cur" "$("$bin" list -o 2>/dev/null | sed 's/ .*//;p;s/^/no/')" ;;
	list:-B|list:--instance|record:-B|record:--instance|stream:-B|stream:--instance|extract:-B|extract:--instance|arm:-B|arm:--instance)
		_tracemap_instances "$cur" ;;
	record:-R|record:--event-trigger|stream:-R|stream:--event-trigger)
		_tracemap_reply "$cur" "$(_tracemap_triggers)" ;;
	record:--uprobe|stream:--uprobe)
		_tracemap_files "$cur" ;;
	record:-p|record:--tracer|stream:-p|stream:--tracer|arm:-p|arm:--tracer)
		_tracemap_reply "$cur" "$("$bin" list -t 2>/dev/null)" ;;
	record:-l|record:--ftrace-filter|record:-n|record:--ftrace-notrace|record:-g|\
	record:--graph-function|stream:-l|stream:--ftrace-filter|stream:-n|\
	stream:--ftrace-notrace|stream:-g|stream:--graph-function|list:-f|list:--functions|\
	record:--kprobe|stream:--kprobe)
		# nothing where the kernel refuses function tracing (list -f fails); a
		# kprobe's symbol is one of these functions too
		_tracemap_reply "$cur" "$("$bin" list -f 2>/dev/null | sed 's/ .*//')" ;;
	record:--switch-output)
		_tracemap_reply "$cur" "signal 100M 1G 30s 10m 1h" ;;
	record:--flight)
		_tracemap_reply "$cur" "64M 256M 1G" ;;
	record:--trigger)
		# SYSTEM:EVENT; a filter follows a second ':'
		_tracemap_reply "$cur" "$("$bin" list -e 2>/dev/null)" ;;
	*:-C|*:--clock)
		_tracemap_reply "$cur" "$("$bin" list -c 2>/dev/null | tr -d '[]')" ;;
	*:--compression)
		_tracemap_reply "$cur" "zstd none" ;;
	*:--file-version)
		_tracemap_reply "$cur" "6 7" ;;
	*:--compat)
		_tracemap_reply "$cur" "3.4 3.1" ;;
	convert:--to)
		_tracemap_reply "$cur" "perfetto json" ;;
	sql:--format)
		_tracemap_reply "$cur" "columns csv tsv json" ;;
	sql:--top)
		_tracemap_reply "$cur" "list $("$bin" sql --top list 2>/dev/null | cut -d' ' -f1)" ;;
	report:-i|report:--input|record:-o|record:--output|convert:-i|convert:--input|convert:-o|convert:--output|sql:-i|sql:--input|sql:-o|sql:--output|extract:-o|extract:--output)
		_tracemap_files "$cur" ;;
	*)
		return 1 ;;
	esac
	return 0
}

# After "--" of record or stream the words are COMMAND's: complete them as bash
# completes that command (bash-completion's _command_offset); without
# bash-completion, command names first and file names after. Returns 1 before "--".
_tracemap_command()
{
	local i cur=${COMP_WORDS[COMP_CWORD]}
	for ((i = 2; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -- ]] || continue
		if declare -F _command_offset >/dev/null; then
			_command_offset $((i + 1))
		elif ((i + 1 == COMP_CWORD)); then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		else
			_tracemap_files "$cur"
		fi
		return 0
	done
	return 1
}

# Complete a word that is not an option (nor an option's argument).
_tracemap_positional()
{
	local bin=$1 sub=$2 cur=$3
	case $sub in
	report|convert|recover|sql|fleet)
		_tracemap_files "$cur" ;;
	list)
		_tracemap_reply "$cur" "$("$bin" list -e 2>/dev/null)" ;;
	esac
}

_tracemap()
{
	local bin cur prev sub _tm_words _tm_cword _tm_all _tm_arg
	COMPREPLY=()
	bin=$(_tracemap_bin)
	_tracemap_join_words
	cur=${_tm_words[_tm_cword]}
	prev=${_tm_words[_tm_cword - 1]}
	sub=${_tm_words[1]}

	if ((_tm_cword == 1)); then
		if [[ $cur == -* ]]; then
			_tracemap_reply "$cur" "--help --usage --version -? -V"
		else
			_tracemap_reply "$cur" "$(_tracemap_subcommands "$bin")"
		fi
		return 0
	fi
	if [[ $sub == help ]]; then
		((_tm_cword == 2)) &&
			_tracemap_reply "$cur" "$(_tracemap_subcommands "$bin" | grep -vx help)"
		return 0
	fi

	if [[ $sub == record || $sub == stream ]] && _tracemap_command; then
		return 0
	fi

	# --opt=value: readline splits at '=' too
	if [[ $cur == = ]]; then
		cur=
	elif [[ $prev == = ]]; then
		prev=${_tm_words[_tm_cword - 2]}
	fi

	_tracemap_options "$bin" "$sub"
	if [[ $prev == -* ]] && _tracemap_option_value "$bin" "$sub" "$prev" "$cur"; then
		return 0
	fi
	# any other option that takes an argument: nothing to suggest
	[[ $prev == -* && " $_tm_arg " == *" $prev "* ]] && return 0
	if [[ $cur == -* ]]; then
		_tracemap_reply "$cur" "$_tm_all"
		return 0
	fi
	_tracemap_positional "$bin" "$sub" "$cur"
	return 0
}

complete -F _tracemap tracemap
