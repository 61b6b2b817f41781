#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# run.sh - make check-vm: boot Debian's 6.1 kernel under QEMU (TCG, 2 vCPUs) with an
# initramfs of the current build, run a guest script (tests/vm/guest-tests.sh, or the
# one named as $1), print its ok/not ok lines and "N passed, N failed".
# TM_VM_ONLY=WORD runs only the cases whose name contains WORD (no spaces).
# Files the guest writes to /out arrive in build/vm/out (a 9p share).
set -euo pipefail

VM=${VM_DIR:-build/vm}
RUN=${1:-guest-tests.sh}
LIMIT=${TM_VM_TIMEOUT:-200}	# seconds for the whole guest run, boot included

bash tests/vm/setup.sh
bash tests/vm/initramfs.sh
rm -rf "$VM/out"
mkdir -p "$VM/out"
kernel=$(ls "$VM"/kernel/boot/vmlinuz-*)
start=$SECONDS
# the serial console: progress as it comes ("TMVM: " lines), all of it in console.log
timeout -s KILL "$LIMIT" qemu-system-x86_64 -accel tcg -smp 2 -m 1G -nodefaults \
	-display none -monitor none -serial stdio -no-reboot \
	-kernel "$kernel" -initrd "$VM/initramfs.cpio.gz" \
	-append "console=ttyS0 quiet panic=-1 tm.run=$RUN${TM_VM_ONLY:+ tm.only=$TM_VM_ONLY}" \
	-virtfs "local,path=$VM/out,mount_tag=out,security_model=none,id=out" \
	</dev/null 2>&1 | tr -d '\r' | tee "$VM/console.log" | sed -un 's/^TMVM: //p' || true
passed=$(grep -c '^TMVM: ok ' "$VM/console.log" || true)
failed=$(grep -c '^TMVM: not ok ' "$VM/console.log" || true)
if ! grep -q '^TMVM: done' "$VM/console.log"; then
	echo "not ok - the guest did not finish within $LIMIT s (see $VM/console.log)"
	failed=$((failed + 1))
fi
echo "guest run: $((SECONDS - start)) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
