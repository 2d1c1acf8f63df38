#!/usr/bin/env bash
# make deps: install the Debian packages the build and the tests need;
# deps.sh deb: those make deb needs too; deps.sh deb-test: and make deb-test.
# As root it runs apt-get; otherwise it prints the exact command and stops.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

: "${KVER_DEB:?KVER_DEB (the pinned linux-source-6.12 version) must be set}"

packages=(
	"linux-source-6.12=$KVER_DEB"
	# kernel build
	gcc make bc bison flex perl libelf-dev libssl-dev dwarves ccache xz-utils git kmod
	# bpftool, libbpf and BPF objects
	clang-19 llvm-19 pkg-config libcap-dev libzstd-dev zlib1g-dev python3-docutils
	# guest and tests
	qemu-system-x86 bats jq man-db bash-completion shellcheck
	# the tests: bpftool -j output against docs/schema
	python3-jsonschema
	# make bench: the plot
	gnuplot-nox
	# make lint: checkpatch's SPDX check of new files
	python3-ply python3-git
)
case ${1:-} in
arm64)
	packages+=(
		# the arm64 guest: cross compiler, QEMU, a root file system from
		# Debian's arm64 packages, arm64 libraries for bpftool and tests
		gcc-aarch64-linux-gnu qemu-system-arm mmdebstrap
		libelf-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64 libcap-dev:arm64
	) ;;
deb-test)
	packages+=(
		# a Debian 12 root file system; its disk (GPT, EFI system
		# partition, ext4); UEFI firmware for QEMU
		mmdebstrap e2fsprogs dosfstools fdisk ovmf
	)
	# an arm64 host: a first-stage debootstrap (the second runs in the
	# guest), UEFI firmware for QEMU's virt machine
	if [[ ${FLAVOUR:-} == *arm64 ]]; then
		packages+=(debootstrap qemu-efi-aarch64 qemu-system-arm)
	fi ;&
deb)
	packages+=(
		# Debian's kernel configs; the kernel's bindeb-pkg
		"linux-config-6.12=$KVER_DEB" debhelper dpkg-dev cpio rsync
		# make repo: the index and its signature
		apt-utils gnupg gpgv
	)
	# an arm64 flavour: Debian's arm64 configs (Multi-Arch: same, beside
	# the amd64 ones), the cross compilers (the 32-bit one for the compat
	# vDSO), and the arm64 libraries
	# bindeb-pkg's headers package and bpftool link against
	if [[ ${FLAVOUR:-} == *arm64 ]]; then
		packages+=("linux-config-6.12:arm64=$KVER_DEB" gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf
			libssl-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64 libcap-dev:arm64)
	fi ;;
'') ;;
*) die "deps.sh: unknown package set '$1' (want arm64, deb or deb-test)" ;;
esac

mkdir -p "$BUILD"
missing=()
for p in "${packages[@]}"; do
	name=${p%%=*}
	# With libelf-dev:arm64 beside libelf-dev, an unqualified name
	# answers for both: one line each, alike when both are installed.
	status=$(dpkg-query -W -f='${db:Status-Status}\n' "$name" 2>/dev/null | sort -u || true)
	version=$(dpkg-query -W -f='${Version}\n' "$name" 2>/dev/null | sort -u || true)
	if [[ $status != installed ]] || { [[ $p == *=* ]] && [[ $version != "${p#*=}" ]]; }; then
		missing+=("$p")
	fi
done
((${#missing[@]})) || exit 0

cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
if ((EUID != 0)); then
	die "missing Debian packages; install them with (for name:arch ones, first
  sudo dpkg --add-architecture arch):
  sudo apt-get update && sudo ${cmd[*]}"
fi
log "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Packages of another architecture (name:arm64) need it in dpkg's list.
for p in "${missing[@]}"; do
	if [[ ${p%%=*} == *:* ]]; then
		arch=${p%%=*}
		arch=${arch#*:}
		dpkg --print-foreign-architectures | grep -qx "$arch" || dpkg --add-architecture "$arch"
	fi
done
# An install of a pinned version fails on a stale package list: refresh first.
apt-get update -qq
"${cmd[@]}" >"$BUILD/apt.log" 2>&1 || { tail -20 "$BUILD/apt.log" >&2; die "apt-get install failed (log: build/apt.log)"; }
