#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# crash.sh - make check-vm's crash test: each kernel of TM_VM_KERNEL (default 6.12
# and 7.3; 6.1 has no persistent instance and is skipped) booted by tests/vm/run.sh
# in its crash mode (TM_VM_CRASH: a panic reboots the guest with its RAM kept) with
# 16 MiB reserved for the persistent instance boot_map and KASLR on, running
# tests/vm/guest-crash.sh: boot 1 arms boot_map and panics, boot 2 extracts and
# checks the file (and, from 6.19 on, the read-only backup instance the kernel copies
# it into at boot), boot 3 (after a warm reboot) shows what is left. One summary
# line per kernel, as run.sh prints; exits non-zero when a case failed.
set -euo pipefail

kernels=
for k in ${TM_VM_KERNEL:-6.12 7.3}; do
	case $k in
	6.1) echo "# crash test: skipped on 6.1 (persistent instances came in 6.12)" ;;
	*) kernels+=" $k" ;;
	esac
done
[ -n "$kernels" ] || exit 0
# the cases follow one another across the boots: all of them or none
unset TM_VM_ONLY
bad=0
for k in $kernels; do
	# 6.19 on: a read-only copy of boot_map's previous boot made at boot
	append=
	case $k in 6.1[0-8]) ;; *) append=trace_instance=backup=boot_map ;; esac
	TM_VM_CRASH=1 TM_VM_RESERVE=16M TM_VM_APPEND=$append TM_VM_KERNEL=$k TM_VM_BATS=- \
		TM_VM_TIMEOUT=${TM_VM_CRASH_TIMEOUT:-600} bash tests/vm/run.sh guest-crash.sh || bad=1
done
exit $bad
