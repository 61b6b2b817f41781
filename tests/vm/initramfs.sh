#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# initramfs.sh - the guest's root: busybox-static, ./tracemap, Debian's trace-cmd,
# their shared libraries (ldd), the libtraceevent plugins, the 9p/virtio modules,
# and the guest scripts of tests/vm/; written to build/vm/initramfs.cpio.gz.
set -euo pipefail

VM=${VM_DIR:-build/vm}
ROOT=$VM/root
PLUGINS=/usr/lib/x86_64-linux-gnu/traceevent/plugins
KVER=$(ls "$VM/kernel/lib/modules")
MODDIR=$VM/kernel/lib/modules/$KVER

die() { echo "check-vm: $*" >&2; exit 1; }

# A file at the same path under the root.
put() {
	mkdir -p "$ROOT$(dirname "$1")"
	cp -L "$1" "$ROOT$1"
}

# Every library ldd lists for a binary or plugin.
put_libs() {
	local lib
	for lib in $(ldd "$1" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }'); do
		put "$lib"
	done
}

# Module paths (relative to MODDIR) in load order: dependencies first.
module_chain() {
	local m=$1 deps d
	deps=$(awk -v m="$m:" '$1 == m { $1 = ""; print }' "$MODDIR/modules.dep")
	for d in $deps; do
		module_chain "$d"
	done
	echo "$m"
}

[ -x ./tracemap ] || die "./tracemap is not built (make all)"
[ -d "$MODDIR" ] || die "no kernel in $VM/kernel (tests/vm/setup.sh)"
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,dev,proc,sys,tmp,out,lib/modules,tm}
cp /bin/busybox "$ROOT/bin/busybox"
for f in $(busybox --list); do
	[ -e "$ROOT/bin/$f" ] || ln -s busybox "$ROOT/bin/$f"
done
for bin in /usr/bin/trace-cmd "$PLUGINS"/*.so; do
	put "$bin"
	put_libs "$bin"
done
cp ./tracemap "$ROOT/tm/tracemap"
put_libs ./tracemap
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
cp tests/vm/guest-*.sh "$ROOT/tm/"
chmod +x "$ROOT/init"
(cd "$ROOT" && find . | busybox cpio -o -H newc -R 0:0 2>/dev/null) | gzip -1 >"$VM/initramfs.cpio.gz"
