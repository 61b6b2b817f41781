#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# guest-fixtures.sh - record tests/fixtures-vm/ in the guest (tests/vm/fixtures.sh runs
# it): function and function_graph files of trace-cmd 3.1.6 and of tracemap, and
# tracemap's file of a suspend's suspend_resume events, with trace-cmd's report texts
# in every mode beside them, into $TM_OUT (build/vm/out, a writable share).
#
# A file holds the whole /proc/kallsyms (4 MB on 6.1): far too big for a fixture.
# So each file is recorded twice: then with a /proc/kallsyms bind-mounted over by
# the lines of the symbols the first recording's addresses resolve to. A function
# only the second run met (an interrupt, say) prints as the symbol before it, with
# an offset: wrong for the kernel, the same input for every reader of the file.
#
# With TM_ONLY (tm.only=NAME), only the fixture NAME: tests/vm/fixtures.sh boots a
# guest for each, as enabling function_graph again and again in one boot of 6.1
# under TCG now and then hangs the guest.
. "$(dirname "$0")/guest-lib.sh"

FULL=/tmp/kallsyms.full
SMALL=/tmp/kallsyms.small
sort /proc/kallsyms >$FULL

# The addresses of the function events of file $1 (ip, parent_ip, func: raw in
# tracemap's JSON, where trace-cmd prints names) as 16 hex digits like kallsyms',
# each with a "~" after it: it sorts after a symbol's line of the same address.
addresses() {
	tracemap report --json "$1" 2>/dev/null |
		grep -oE '"(ip|parent_ip|func)":[0-9]+' | sed 's/.*://' | sort -u |
		while read -r a; do printf '%016x ~\n' "$a"; done | sort
}

# The name kallsyms table $1 (sorted) gives each address of stdin (sorted): the
# symbol at the greatest address not above it ("?" below them all).
resolve() {
	sort -m -k1,1 "$1" - | awk '
		NF >= 3 { name = $3; next }
		{ print $1, (name == "" ? "?" : name) }'
}

# record NAME COMMAND...: COMMAND writes /tmp/rec.dat, once with the whole kallsyms
# and once with the symbols that recording needs: $TM_OUT/NAME.dat.
record() {
	name=$1
	shift
	case $name in *"${TM_ONLY:-}"*) ;; *) return 1 ;; esac
	timeout -s KILL 120 "$@" >/dev/null 2>/tmp/rec.err || { cat /tmp/rec.err; return 1; }
	addresses /tmp/rec.dat | resolve $FULL | awk '{ print $2 }' | sort -u >/tmp/keep
	awk 'NR == FNR { keep[$1] = 1; next } keep[$3]' /tmp/keep $FULL >$SMALL
	mount --bind $SMALL /proc/kallsyms
	rm -f /tmp/rec.dat
	timeout -s KILL 120 "$@" >/dev/null 2>/tmp/rec.err || cat /tmp/rec.err
	umount /proc/kallsyms
	[ -s /tmp/rec.dat ] || return 1
	cp /tmp/rec.dat "$TM_OUT/$name.dat"
	addresses /tmp/rec.dat >/tmp/addrs
	resolve $FULL </tmp/addrs >/tmp/names.full
	resolve $SMALL </tmp/addrs >/tmp/names.small
	echo "TMVM: # $name: $(wc -l <$SMALL) symbols kept; of $(wc -l </tmp/addrs)" \
		"addresses $(diff /tmp/names.full /tmp/names.small | grep -c '^+[0-9a-f]')" \
		"resolve to the symbol before their own"
}

# texts NAME OPTIONS...: trace-cmd's report of $TM_OUT/NAME.dat in each mode, then
# OPTIONS (plugin options, -O NAME) each as a mode of its own.
texts() {
	name=$1
	shift
	f=$TM_OUT/$name.dat
	trace-cmd report "$f" >"$TM_OUT/$name.report.txt" 2>&1
	for mode in -N -R -l -t "$@"; do
		trace-cmd report $mode "$f" >"$TM_OUT/$name.report$(echo "$mode" | tr -d ' ' | tr : -).txt" 2>&1
	done
	echo "TMVM: ok - $name: $(grep -c . "$TM_OUT/$name.report-N.txt") lines"
}

# suspend NAME: power:suspend_resume events of the freezer step of a suspend
# to idle (pm_test: tasks frozen, pm_test_delay seconds, thawed) in
# $TM_OUT/NAME.dat. No function address is in those events, so the file's
# kallsyms is left empty (/proc/kallsyms bound to an empty file) rather
# than 4 MB; their action strings come from the printk formats.
suspend() {
	name=$1
	case $name in *"${TM_ONLY:-}"*) ;; *) return 1 ;; esac
	[ -w /sys/module/suspend/parameters/pm_test_delay ] &&
		echo 1 >/sys/module/suspend/parameters/pm_test_delay
	: >/tmp/kallsyms.none
	mount --bind /tmp/kallsyms.none /proc/kallsyms
	rm -f /tmp/rec.dat
	timeout -s KILL 120 tracemap record -q -e power:suspend_resume -o /tmp/rec.dat -- \
		sh -c 'echo freezer >/sys/power/pm_test && echo freeze >/sys/power/state' \
		>/dev/null 2>/tmp/rec.err || cat /tmp/rec.err
	umount /proc/kallsyms
	echo none >/sys/power/pm_test
	[ -s /tmp/rec.dat ] || return 1
	cp /tmp/rec.dat "$TM_OUT/$name.dat"
}

LOAD="ls -lR /lib/modules"
GRAPH_LOAD="cat /etc/os-release /etc/passwd"
record tc-function trace-cmd record -p function -l 'vfs_*' -o /tmp/rec.dat $LOAD &&
	texts tc-function "-O parent" "-O indent" "-O offset"
record tc-funcgraph trace-cmd record -p function_graph -g do_sys_openat2 -o /tmp/rec.dat \
	$GRAPH_LOAD && texts tc-funcgraph "-O fgraph:tailprint" "-O fgraph:depth"
record tm-function tracemap record -q -p function -l 'vfs_*' -o /tmp/rec.dat -- $LOAD &&
	texts tm-function "-O parent" "-O indent" "-O offset"
record tm-funcgraph tracemap record -q -p function_graph -g do_sys_openat2 -o /tmp/rec.dat \
	-- $GRAPH_LOAD && texts tm-funcgraph "-O fgraph:tailprint" "-O fgraph:depth"
suspend tm-suspend && texts tm-suspend
ls -l "$TM_OUT" | sed 's/^/TMVM: # /'
