# SPDX-License-Identifier: GPL-2.0-only
# kernels.sh - the guest kernels of make check-vm (sourced). Each: its Debian package,
# the suite it comes from (host: the host's own apt sources), and how the guest reaches
# the host's root: 9p (modules, loaded by the initramfs of tests/vm/initramfs.sh) or
# virtiofs (built into Debian's cloud kernels, which have no 9p: the root directly).
#   6.1   bookworm's linux-image-amd64: no ring-buffer mapping, read() only
#   6.12  the LTS line (Debian 13, RHEL 10): mapping, meta page padded to the sub-buffer
#   7.3   trixie-backports: mapping, persistent instances mappable
TM_VM_KERNELS="6.1 6.12 7.3"

tm_vm_package() {
	case $1 in
	6.1) apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }' ;;
	6.12) echo linux-image-6.12.117+deb12-cloud-amd64 ;;
	7.3) echo linux-binary-7.3.4+deb13-cloud-amd64 ;;
	*) return 1 ;;
	esac
}

tm_vm_suite() {
	case $1 in
	7.3) echo trixie-backports ;;
	*) echo host ;;
	esac
}

tm_vm_share() {
	case $1 in
	6.1) echo 9p ;;
	*) echo virtiofs ;;
	esac
}
