#!/usr/bin/env bash
# scripts/rootfs-arm64.sh: the arm64 guest's root file system, in
# build/arm64/rootfs: Debian 12's arm64 packages the tests use, unpacked by
# mmdebstrap (its extract variant: no maintainer scripts, which would need
# arm64 binaries to run here), and /tm-init, the guest's first program: it
# mounts the checkout at its host path and runs its qemu/init. qemu/run
# --arch arm64 shares it read-only as the guest's /. Made again when this
# script changes or the checkout moves.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

root=$ARM64_BUILD/rootfs
# What the tests and qemu/init run, and what bpftool and the test programs
# link (mmdebstrap adds their dependencies).
PACKAGES=(
	base-files base-passwd bash coreutils dash diffutils findutils grep sed
	gawk util-linux mount procps kmod iproute2 tar gzip libc-bin binutils
	bats jq man-db bash-completion
	libelf1 zlib1g libzstd1 libcap2
)
key=$({ cat "${BASH_SOURCE[0]}"; echo "$TOP"; } | sha1sum)
[[ $(cat "$root.key" 2>/dev/null) != "$key" ]] || exit 0

make_rootfs() {
	rm -rf "$root" "$root.new"
	local pkgs
	pkgs=$(IFS=,; echo "${PACKAGES[*]}")
	mmdebstrap --quiet --mode=root --variant=extract --architectures=arm64 \
		--include="$pkgs" bookworm "$root.new" >"$ARM64_BUILD/rootfs.log" 2>&1 ||
		{ tail -20 "$ARM64_BUILD/rootfs.log" >&2; die "mmdebstrap failed (log: build/arm64/rootfs.log)"; }
	# What base-passwd's maintainer script would have made, and gawk's
	# alternative for awk.
	cp "$root.new/usr/share/base-passwd/passwd.master" "$root.new/etc/passwd"
	cp "$root.new/usr/share/base-passwd/group.master" "$root.new/etc/group"
	ln -s gawk "$root.new/usr/bin/awk"
	# Mount points: the checkout, and what qemu/init mounts tmpfs on.
	mkdir -p "$root.new$TOP" "$root.new/run" "$root.new/tmp" "$root.new/var/tmp" "$root.new/root"
	cat >"$root.new/tm-init" <<'INIT'
#!/bin/bash
# The arm64 guest's init (scripts/rootfs-arm64.sh): the checkout, shared by
# qemu/run as "top", at its host path (tm_top), then its qemu/init.
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,ro top "${tm_top:?}" ||
	{ echo "tm-init: cannot mount the checkout at ${tm_top:-?}" >/dev/console; exec bash; }
exec "$tm_top/qemu/init"
INIT
	chmod 0755 "$root.new/tm-init"
	mv "$root.new" "$root"
	echo "$key" >"$root.key"
}
mkdir -p "$ARM64_BUILD"
stage "arm64 root file system (mmdebstrap, ${#PACKAGES[@]} packages)" make_rootfs
