#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fixtures.sh - re-record tests/fixtures-vm/ in the guest (tests/vm/guest-fixtures.sh):
# function and function_graph trace.dat files of trace-cmd 3.1.6 and tracemap, and a
# suspend's suspend_resume events (tracemap), with trace-cmd's report texts. Run by
# hand (as root); it replaces the files there. TM_VM_NAMES="NAME..." re-records some.
set -euo pipefail

VM=${VM_DIR:-build/vm}
mkdir -p tests/fixtures-vm
# A boot each, and up to three: 6.1 under TCG now and then hangs while function_graph
# is enabled or disabled, most often after it was enabled before in the same boot.
for name in ${TM_VM_NAMES:-tc-function tc-funcgraph tm-function tm-funcgraph tm-suspend}; do
	for try in 1 2 3; do
		TM_VM_TIMEOUT=${TM_VM_TIMEOUT:-240} TM_VM_ONLY=$name TM_VM_KERNEL=6.1 TM_VM_BATS=- \
			bash tests/vm/run.sh guest-fixtures.sh && break
		[ "$try" != 3 ] || { echo "check-vm: $name: no fixture in 3 boots" >&2; exit 1; }
	done
	cp "$VM"/out/"$name".* tests/fixtures-vm/
done
ls -l tests/fixtures-vm
