#!/usr/bin/env bash
# scripts/testmod.sh FLAVOUR: build 6.12's selftests bpf_testmod out of tree
# against the patched kernel (build/kbuild/FLAVOUR) and install it with the
# kernel's modules, so that the guest can `modprobe bpf_testmod`; also the
# modules of tests/modules where the kernel has live patching.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

flavour=${1:?usage: testmod.sh guest|bench|stress|arm64}
kobj=$BUILD/kbuild/$flavour
[[ -f $kobj/Module.symvers ]] || die "no $flavour kernel build with Module.symvers: run make kernel"
src=$BUILD/testmod/$flavour
case $flavour in
guest) inst=$BUILD/install ;;
arm64)
	inst=$ARM64_BUILD/install
	export KBUILD_ARCH=arm64
	;;
*) inst=$BUILD/$flavour/install ;;
esac
kernel_target
mkdir -p "$src"
export CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1

build() {
	# A copy, so that objects stay out of build/linux's git tree.
	cp -u "$LINUX"/tools/testing/selftests/bpf/bpf_testmod/* "$src/"
	# The module's BTF is split on the kernel's; kbuild does not relink an
	# external module when vmlinux changes, and the kernel then refuses
	# the stale module (ELOOP). Relink after every kernel rebuild.
	if [[ $kobj/vmlinux -nt $src/bpf_testmod.ko ]]; then
		rm -f "$src/bpf_testmod.ko"
	fi
	make -s -C "$kobj" M="$src" "${KTARGET[@]}" -j"$(nproc)" modules
	make -s -C "$kobj" M="$src" "${KTARGET[@]}" INSTALL_MOD_PATH="$inst" INSTALL_MOD_STRIP= \
		DEPMOD=/sbin/depmod modules_install >/dev/null
}
stage "build bpf_testmod ($flavour)" build

# tests/modules (tm_klp_multi, a live patch), where the kernel can live patch.
build_tests_modules() {
	local dir=$BUILD/testmod/$flavour-modules
	mkdir -p "$dir"
	cp -u "$TOP"/tests/modules/* "$dir/"
	if [[ $kobj/vmlinux -nt $dir/tm_klp_multi.ko ]]; then
		rm -f "$dir"/*.ko
	fi
	make -s -C "$kobj" M="$dir" "${KTARGET[@]}" -j"$(nproc)" modules
	make -s -C "$kobj" M="$dir" "${KTARGET[@]}" INSTALL_MOD_PATH="$inst" INSTALL_MOD_STRIP= \
		DEPMOD=/sbin/depmod modules_install >/dev/null
}
if grep -q '^CONFIG_LIVEPATCH=y' "$kobj/.config"; then
	stage "build tests/modules ($flavour)" build_tests_modules
fi
