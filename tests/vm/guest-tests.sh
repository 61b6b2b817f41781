#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# guest-tests.sh - the guest test list (busybox sh, run by tests/vm/init in /tmp).
. /tm/guest-lib.sh

case_boot() {
	grep -q function_graph /sys/kernel/tracing/available_tracers
}

t "guest: the 6.1 kernel offers function_graph" case_boot
summary
