#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# initramfs.sh KERNEL - for a kernel whose 9p and virtio are modules (Debian's 6.1): an
# initramfs of busybox-static, those modules and tests/vm/init, which mounts the
# host's root over 9p and switches to it; written to build/vm/k/KERNEL/initramfs.cpio.gz.
set -euo pipefail

VM=${VM_DIR:-build/vm}
K=$VM/k/${1:?usage: initramfs.sh KERNEL}
ROOT=$K/initramfs
KVER=$(ls "$K/lib/modules")
MODDIR=$K/lib/modules/$KVER

die() { echo "check-vm: $*" >&2; exit 1; }

# Module paths (relative to MODDIR) in load order: dependencies first.
module_chain() {
	local m=$1 deps d
	deps=$(awk -v m="$m:" '$1 == m { $1 = ""; print }' "$MODDIR/modules.dep")
	for d in $deps; do
		module_chain "$d"
	done
	echo "$m"
}

[ -d "$MODDIR" ] || die "no modules in $K (tests/vm/setup.sh)"
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,dev,proc,sys,root,lib/modules}
cp /bin/busybox "$ROOT/bin/busybox"
for f in $(busybox --list); do
	[ -e "$ROOT/bin/$f" ] || ln -s busybox "$ROOT/bin/$f"
done
: >"$ROOT/modules.list"
for m in kernel/drivers/virtio/virtio_pci.ko kernel/net/9p/9pnet_virtio.ko kernel/fs/9p/9p.ko; do
	for dep in $(module_chain "$m"); do
		grep -qx "$dep" "$ROOT/modules.list" && continue
		mkdir -p "$ROOT/lib/modules/$(dirname "$dep")"
		cp "$MODDIR/$dep" "$ROOT/lib/modules/$dep"
		echo "$dep" >>"$ROOT/modules.list"
	done
done
cp tests/vm/init "$ROOT/init"
chmod +x "$ROOT/init"
(cd "$ROOT" && find . | busybox cpio -o -H newc -R 0:0 2>/dev/null) | gzip -1 >"$K/initramfs.cpio.gz"
