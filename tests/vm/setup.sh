#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# setup.sh - what the guest tests need from Debian: QEMU, its BIOS, busybox-static
# (installed on the host), and the 6.1 kernel linux-image-amd64 depends on,
# downloaded and unpacked into build/vm/kernel (never installed: no /boot, no bootloader).
set -euo pipefail

VM=${VM_DIR:-build/vm}
PKGS="qemu-system-x86 seabios busybox-static"

die() { echo "check-vm: $*" >&2; exit 1; }

install_host_packages() {
	local missing="" p
	for p in $PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || die "missing packages; run as root: apt-get install$missing"
	echo "check-vm: installing:$missing"
	DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null
}

# The image package linux-image-amd64 depends on, e.g. linux-image-6.1.0-56-amd64.
kernel_package() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}

fetch_kernel() {
	local pkg deb
	pkg=$(kernel_package)
	[ -n "$pkg" ] || die "apt-cache knows no linux-image-amd64 (run apt-get update)"
	if [ -f "$VM/kernel/.unpacked-$pkg" ]; then
		return 0
	fi
	mkdir -p "$VM/deb"
	rm -rf "$VM/kernel"
	deb=$(ls "$VM"/deb/"$pkg"_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		echo "check-vm: downloading $pkg"
		(cd "$VM/deb" && timeout 600 apt-get download -q "$pkg" >/dev/null 2>&1) ||
			die "apt-get download $pkg failed"
		deb=$(ls "$VM"/deb/"$pkg"_*.deb | head -n 1)
	fi
	dpkg-deb -x "$deb" "$VM/kernel"
	# the package's postinst would run depmod: modules.dep for modprobe in the guest
	busybox depmod -b "$VM/kernel" "$(ls "$VM/kernel/lib/modules")"
	touch "$VM/kernel/.unpacked-$pkg"
}

mkdir -p "$VM"
install_host_packages
fetch_kernel
