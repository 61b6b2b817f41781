#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# setup.sh KERNEL - what a guest run needs: QEMU, its BIOS, busybox-static (installed on
# the host), and the Debian kernel KERNEL (6.1, 6.12 or 7.3: tests/vm/kernels.sh),
# downloaded once and unpacked into build/vm/k/KERNEL (never installed: no /boot, no
# bootloader, the host's apt sources left as they are). Prints nothing when all is there.
set -euo pipefail

VM=${VM_DIR:-build/vm}
TOP=$PWD
PKGS="qemu-system-x86 seabios busybox-static"
. tests/vm/kernels.sh

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

# apt-get or apt-cache with the suite's own sources list and package lists under
# build/vm/apt/SUITE (a suite the host's sources do not have: trixie-backports).
# Run from anywhere (an absolute build/vm), bounded: a function timeout(1) cannot run.
private_apt() {
	local suite=$1 tool=$2 dir
	shift 2
	case $VM in /*) dir=$VM/apt/$suite ;; *) dir=$TOP/$VM/apt/$suite ;; esac
	timeout 600 "$tool" -o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=- \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
		-o Debug::NoLocking=1 "$@"
}

private_apt_update() {
	local suite=$1 dir=$VM/apt/$1
	[ -s "$dir/updated" ] && return 0
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"http://deb.debian.org/debian $suite main" >"$dir/sources.list"
	echo "check-vm: apt-get update of $suite (private lists in $dir)"
	private_apt "$suite" apt-get -qq update >/dev/null ||
		die "apt-get update of $suite failed"
	date >"$dir/updated"
}

# apt-get download of pkg into build/vm/deb (apt's output in apt.log there).
download_deb() {
	local pkg=$1 suite=$2
	if [ "$suite" = host ]; then
		(cd "$VM/deb" && timeout 600 apt-get download -q "$pkg" >apt.log 2>&1)
	else
		(cd "$VM/deb" && private_apt "$suite" apt-get download -q \
			"$pkg" >apt.log 2>&1)
	fi
}

# The package's .deb in build/vm/deb, downloaded when it is not there yet.
fetch_deb() {
	local pkg=$1 suite=$2 deb
	mkdir -p "$VM/deb"
	deb=$(ls "$VM"/deb/"$pkg"_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		echo "check-vm: downloading $pkg" >&2
		[ "$suite" = host ] || private_apt_update "$suite" >&2
		# a mirror's passing refusal should not fail a run: one retry, then
		# apt's own last error line
		download_deb "$pkg" "$suite" || { sleep 5; download_deb "$pkg" "$suite"; } ||
			die "apt-get download $pkg failed: $(grep -E '^(E|Err):' "$VM/deb/apt.log" |
				tail -n 1)"
		deb=$(ls "$VM"/deb/"$pkg"_*.deb | head -n 1)
	fi
	echo "$deb"
}

fetch_kernel() {
	local name=$1 pkg suite dir deb tmp
	pkg=$(tm_vm_package "$name") || die "no kernel $name (the kernels: $TM_VM_KERNELS)"
	[ -n "$pkg" ] || die "apt-cache knows no linux-image-amd64 (run apt-get update)"
	suite=$(tm_vm_suite "$name")
	dir=$VM/k/$name
	[ -f "$dir/package" ] && [ "$(cut -d' ' -f1 "$dir/package")" = "$pkg" ] && return 0
	deb=$(fetch_deb "$pkg" "$suite")
	rm -rf "$dir"
	tmp=$dir.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	dpkg-deb -x "$deb" "$tmp/pkg"
	cp "$(find "$tmp/pkg" -name 'vmlinuz*' -type f | head -n 1)" "$tmp/vmlinuz"
	if [ "$(tm_vm_share "$name")" = 9p ]; then
		mkdir -p "$tmp/lib"
		mv "$tmp/pkg/lib/modules" "$tmp/lib/modules"
		# the package's postinst would run depmod: modules.dep for the initramfs
		busybox depmod -b "$tmp" "$(ls "$tmp/lib/modules")"
	fi
	rm -rf "$tmp/pkg"
	echo "$pkg $(dpkg-deb -f "$deb" Version)" >"$tmp/package"
	mv "$tmp" "$dir"
}

mkdir -p "$VM"
install_host_packages
fetch_kernel "${1:?usage: setup.sh KERNEL}"
