#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# run.sh - make check-vm: boot each Debian kernel of tests/vm/kernels.sh (TM_VM_KERNEL=6.1,
# 6.12 or 7.3 chooses one; TM_VM_KERNEL="6.12 7.3" some) under QEMU (TCG, 2 vCPUs)
# with the host's root as the guest's, read-only (the same ./tracemap, bats files and
# trace-cmd), and run there the guest script tests/vm/guest-tests.sh ($1 names another;
# "-" none) and the kernel bats files (TM_VM_BATS="record stream ..."; "-" none).
# TRACEMAP=PATH: the binary the bats files run (theirs by default: build/asan/tracemap).
# TM_VM_ONLY=WORD runs only the cases (and bats tests) whose name contains WORD.
# Files the guest writes to build/vm/out arrive there (a writable share).
# Prints each guest's ok/not ok lines, then one line per kernel: "kernel K (PACKAGE
# VERSION): N passed, N failed, N skipped"; exits non-zero when one failed.
set -euo pipefail

VM=${VM_DIR:-build/vm}
RUN=${1:-guest-tests.sh}
[ "$RUN" = - ] && RUN=
KERNELS=${TM_VM_KERNEL:-6.1 6.12 7.3}
BATS=${TM_VM_BATS:-record record-loss record-long record-triggers record-instance stream kprobe
	extract recover reset status uprobe}
[ "$BATS" = - ] && BATS=
LIMIT=${TM_VM_TIMEOUT:-2400}	# seconds for one guest run, boot included
# TM_VM_CRASH=1 (tests/vm/crash.sh): a panic reboots the guest with its RAM kept
# (no -no-reboot, panic=1), the sysrq crash is not a failure, and the persistent
# instance has TM_VM_RESERVE (4M by default) of reserved memory.
# TM_VM_APPEND: more of the kernel's command line (crash.sh: 7.3's backup instance).
RESERVE=${TM_VM_RESERVE:-4M}
on_panic=(-no-reboot) panic=-1
[ -n "${TM_VM_CRASH:-}" ] && on_panic=() panic=1
. tests/vm/kernels.sh

[ -x ./tracemap ] || { echo "check-vm: ./tracemap is not built (make all)" >&2; exit 1; }
summaries=()
bad=0
# no QEMU nor virtiofsd outlives this script, however it ends
trap 'stop_all' EXIT
trap 'exit 143' TERM INT HUP
stop_all() {
	[ -s "$VM/qemu.pid" ] && kill -KILL "$(cat "$VM/qemu.pid")" 2>/dev/null
	stop_daemons
}

daemons=()
stop_daemons() {
	local p
	for p in "${daemons[@]}"; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	daemons=()
	return 0
}

# virtiofsd DIR SOCKET CACHE: the host side of a virtiofs share (QEMU 7.2's virtiofsd;
# chroot sandbox, as / cannot be pivot_root'ed into). The root is cache=always: the
# guest keeps what it looked up (bats runs thousands of processes), nothing there changes.
# The socket's absolute path: virtiofsd names its lock file after the path as given, so
# a relative one would refuse the guest of another work tree running at the same time.
virtiofsd_start() {
	rm -f "$2"
	/usr/lib/qemu/virtiofsd --socket-path="$(realpath -m "$2")" -o source="$1" -o cache="$3" \
		-o sandbox=chroot -o log_level=err </dev/null >>"$VM/virtiofsd.log" 2>&1 &
	daemons+=($!)
	local i=0
	while [ ! -S "$2" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -S "$2" ] || { echo "check-vm: virtiofsd did not start (see $VM/virtiofsd.log)" >&2; return 1; }
}

# The QEMU options of the shares of kernel $1, its command line's root in $append.
share_options() {
	if [ "$(tm_vm_share "$1")" = 9p ]; then
		bash tests/vm/initramfs.sh "$1"
		qopts+=(-initrd "$VM/k/$1/initramfs.cpio.gz"
			-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap"
			-device "virtio-9p-pci,fsdev=root,mount_tag=root"
			-fsdev "local,id=out,path=$VM/out,security_model=none"
			-device "virtio-9p-pci,fsdev=out,mount_tag=out")
		append="tm.init=$PWD/tests/vm/guest-init tm.out=9p"
	else
		virtiofsd_start / "$VM/root.sock" always
		virtiofsd_start "$PWD/$VM/out" "$VM/out.sock" auto
		qopts+=(-object memory-backend-memfd,id=mem,size=1G,share=on -numa node,memdev=mem
			-chardev "socket,id=root,path=$VM/root.sock"
			-device vhost-user-fs-pci,chardev=root,tag=root
			-chardev "socket,id=out,path=$VM/out.sock"
			-device vhost-user-fs-pci,chardev=out,tag=out)
		# and a persistent instance, boot_map, in reserved memory (4 MiB unless TM_VM_RESERVE)
		append="root=root rootfstype=virtiofs ro init=$PWD/tests/vm/guest-init tm.out=virtiofs"
		append+=" reserve_mem=$RESERVE:4096:trace trace_instance=boot_map@trace"
		append+="${TM_VM_APPEND:+ $TM_VM_APPEND}"
	fi
}

# A panicked guest may never power off (6.12 under TCG stops in "Shutting down cpus
# with NMI"): once the console says "Kernel panic", give it 10 s, then end QEMU.
watch_panic() {
	local i=0
	while [ $i -lt "$LIMIT" ] && ! grep 'Kernel panic - not syncing' "$1" |
		grep -qv 'sysrq triggered crash'; do
		sleep 1
		i=$((i + 1))
	done
	[ $i -lt "$LIMIT" ] || return 0
	sleep 10
	[ -s "$VM/qemu.pid" ] && kill -KILL "$(cat "$VM/qemu.pid")" 2>/dev/null
	echo "TMVM: not ok - the guest kernel panicked (see $1)" >>"$1"
}

run_kernel() {
	local k=$1 log=$VM/console-$1.log pkg passed failed skipped start
	bash tests/vm/setup.sh "$k"
	pkg=$(cat "$VM/k/$k/package")
	echo "# guest: kernel $k, Debian package $pkg"
	rm -rf "$VM/out"
	mkdir -p "$VM/out"
	qopts=()
	share_options "$k"
	start=$SECONDS
	bats_list=$(echo $BATS | tr ' ' ,)
	: >"$log"
	rm -f "$VM/qemu.pid"
	watch_panic "$log" &
	watcher=$!
	# the serial console: progress as it comes ("TMVM: " lines), all of it in the log.
	# One TCG thread for both vCPUs (TM_VM_TCG=multi: one each): with a thread each,
	# a vCPU now and then runs a patch site's int3 after the kernel's text_poke_bp()
	# has finished with it (Oops: int3, kernel panic; see docs/DESIGN.md, Guests).
	timeout --foreground -s KILL "$LIMIT" qemu-system-x86_64 \
		-accel "tcg,thread=${TM_VM_TCG:-single}" -cpu max -smp 2 -m 1G \
		-nodefaults -display none -monitor none -serial stdio "${on_panic[@]}" -rtc base=utc \
		-pidfile "$VM/qemu.pid" \
		-kernel "$VM/k/$k/vmlinuz" "${qopts[@]}" \
		-append "console=ttyS0 quiet panic=$panic $append tm.dir=$PWD${RUN:+ tm.run=$RUN}${bats_list:+ tm.bats=$bats_list}${TM_VM_ONLY:+ tm.only=$TM_VM_ONLY}${TRACEMAP:+ tm.tracemap=$TRACEMAP}" \
		</dev/null 2>&1 | sed -u "s/\r$//" | tee -a "$log" | sed -un 's/^TMVM: //p' || true
	kill "$watcher" 2>/dev/null || true
	wait "$watcher" 2>/dev/null || true
	stop_daemons
	grep -h 'guest kernel panicked' "$log" | sed 's/^TMVM: //' || true
	passed=$(grep -cE '^TMVM: ok ' "$log" || true)
	skipped=$(grep -cE '^TMVM: ok .* # skip' "$log" || true)
	failed=$(grep -cE '^TMVM: not ok ' "$log" || true)
	passed=$((passed - skipped))
	if ! grep -q '^TMVM: done' "$log" && ! grep -q 'guest kernel panicked' "$log"; then
		echo "not ok - the guest did not finish within $LIMIT s (see $log)"
		failed=$((failed + 1))
	fi
	grep -E '^TMVM: ok .* # skip' "$log" | sed 's/^TMVM: ok [0-9]* /# skipped: /' || true
	echo "# guest run of $k: $((SECONDS - start)) s"
	summaries+=("kernel $k ($pkg): $passed passed, $failed failed, $skipped skipped")
	[ "$failed" = 0 ] && [ "$passed" -gt 0 ] || bad=1
}

for k in $KERNELS; do
	run_kernel "$k"
done
printf '%s\n' "${summaries[@]}"
[ "$bad" = 0 ]
