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
	# make bench: the plot
	gnuplot-nox
	# make lint: checkpatch's SPDX check of new files
	python3-ply python3-git
)
case ${1:-} in
deb-test)
	packages+=(
		# a Debian 12 root file system; its disk (GPT, EFI system
		# partition, ext4); UEFI firmware for QEMU
		mmdebstrap e2fsprogs dosfstools fdisk ovmf
	) ;&
deb)
	packages+=(
		# Debian's kernel configs; the kernel's bindeb-pkg
		"linux-config-6.12=$KVER_DEB" debhelper dpkg-dev cpio rsync
		# make repo: the index and its signature
		apt-utils gnupg gpgv
	) ;;
'') ;;
*) die "deps.sh: unknown package set '$1' (want deb or deb-test)" ;;
esac

mkdir -p "$BUILD"
missing=()
for p in "${packages[@]}"; do
	name=${p%%=*}
	status=$(dpkg-query -W -f='${db:Status-Status}' "$name" 2>/dev/null || true)
	version=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null || true)
	if [[ $status != installed ]] || { [[ $p == *=* ]] && [[ $version != "${p#*=}" ]]; }; then
		missing+=("$p")
	fi
done
((${#missing[@]})) || exit 0

cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
if ((EUID != 0)); then
	die "missing Debian packages; install them with:
  sudo apt-get update && sudo ${cmd[*]}"
fi
log "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# An install of a pinned version fails on a stale package list: refresh first.
apt-get update -qq
"${cmd[@]}" >"$BUILD/apt.log" 2>&1 || { tail -20 "$BUILD/apt.log" >&2; die "apt-get install failed (log: build/apt.log)"; }
