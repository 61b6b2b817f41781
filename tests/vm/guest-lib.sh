#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# guest-lib.sh - helpers of the guest scripts: numbered cases reported on the
# console as "TMVM: ok N - name" or "TMVM: not ok N - name" with the case's output.
T=/sys/kernel/tracing
n=0

# t NAME FUNCTION: run FUNCTION in a subshell; its output is shown only when it fails.
t() {
	n=$((n + 1))
	if ( set -e; "$2" ) >/tmp/case.log 2>&1; then
		echo "TMVM: ok $n - $1"
	else
		echo "TMVM: not ok $n - $1"
		tail -n 25 /tmp/case.log | sed 's/^/TMVM: #   /'
	fi
}

summary() {
	echo "TMVM: # $n cases run"
}
