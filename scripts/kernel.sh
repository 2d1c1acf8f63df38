#!/usr/bin/env bash
# scripts/kernel.sh FLAVOUR: build the patched kernel for the QEMU guest.
#   guest: allnoconfig + qemu/config/{base,debug}.config (lock checkers on);
#          outputs build/bzImage, build/vmlinux, modules in build/install/lib/modules
#   bench: the same without the lock checkers; outputs under build/bench/
#   bench-base: the bench kernel's config on 6.12 without the series (the
#          tree at build/linux's "base" tag, a worktree in build/src/base),
#          for make bench-base; outputs under build/bench-base/
#   stress: guest + KASAN, kmemleak, fault injection; outputs under build/stress/
#   arm64: the guest's config for arm64 (make test-arm64), cross-compiled;
#          outputs build/arm64/Image, build/arm64/vmlinux, modules in
#          build/arm64/install/lib/modules
#   arm64-bench: the same without the lock checkers (make bench-arm64);
#          outputs under build/arm64/bench/
# Objects live in build/kbuild/FLAVOUR (out of tree), compiled through ccache.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

flavour=${1:?usage: kernel.sh guest|bench|bench-base|stress|arm64|arm64-bench}
list=$TOP/qemu/config/$flavour
[[ -f $list && $flavour != *.config ]] || die "unknown kernel flavour '$flavour' (want guest, bench, bench-base, stress, arm64 or arm64-bench)"
obj=$BUILD/kbuild/$flavour
src=$LINUX
if [[ $flavour == bench-base ]]; then
	src=$BUILD/src/base
	worktree "$src" base
fi
mkdir -p "$obj"
image=arch/x86/boot/bzImage
if [[ $flavour == arm64* ]]; then
	export KBUILD_ARCH=arm64
	image=arch/arm64/boot/Image
fi

# The release marks the backport: uname -r, /lib/modules and every module's
# vermagic say 6.12.N-tracing-multi. Packaging, not a kernel change: set
# here, not by a patch. Set, LOCALVERSION also keeps a git tree's "+" off.
LOCALVERSION=-tracing-multi
[[ $flavour != bench-base ]] || LOCALVERSION=-base

kmake() { kbuild "$src" "$obj" "$LOCALVERSION" "$@"; }

# The fragment this flavour is made of, as one file.
frag=$obj/fragment.config
mapfile -t parts < <(sed "s|^|$TOP/qemu/config/|" "$list")
cat "${parts[@]}" >"$frag.new"
if ! cmp -s "$frag.new" "$frag" || [[ ! -f $obj/.config ]]; then
	mv "$frag.new" "$frag"
	stage "configure $flavour kernel (allnoconfig + ${parts[*]##*/})" \
		kmake allnoconfig KCONFIG_ALLCONFIG="$frag"
	# allnoconfig silently drops what it cannot satisfy: insist on each line.
	mapfile -t bad < <(config_unmet "$frag" "$obj/.config")
	if ((${#bad[@]})); then
		printf '  %s\n' "${bad[@]}" >&2
		rm -f "$obj/.config"
		die "these config lines did not survive allnoconfig (missing dependency?)"
	fi
else
	rm -f "$frag.new"
fi

stage "build $flavour kernel (${image##*/}, modules)" kmake "${image##*/}" modules

if [[ $flavour == guest ]]; then
	out=$BUILD
	inst=$BUILD/install
elif [[ $flavour == arm64 ]]; then
	out=$ARM64_BUILD
	inst=$out/install
elif [[ $flavour == arm64-bench ]]; then
	out=$ARM64_BUILD/bench
	inst=$out/install
else
	out=$BUILD/$flavour
	inst=$out/install
fi
mkdir -p "$out"
release=$(cat "$obj/include/config/kernel.release")
# Reinstall the modules only when the build changed one: a fresh install
# empties lib/modules/RELEASE, which also drops bpf_testmod (testmod.sh
# installs it there again after this).
stamp=$inst/lib/modules/$release/.installed
if [[ ! -f $stamp || -n $(find "$obj" \( -name '*.ko' -o -name modules.order \) -newer "$stamp" -print -quit) ]]; then
	rm -rf "$inst/lib/modules/$release"
	kmake modules_install INSTALL_MOD_PATH="$inst" INSTALL_MOD_STRIP= DEPMOD=/sbin/depmod >/dev/null
	touch "$stamp"
fi
cp "$obj/$image" "$out/${image##*/}.new" && mv "$out/${image##*/}.new" "$out/${image##*/}"
cp "$obj/vmlinux" "$out/vmlinux.new" && mv "$out/vmlinux.new" "$out/vmlinux"
echo "$release" >"$out/kernel.release"
log "$flavour kernel $release: ${out#"$TOP"/}/${image##*/}"
