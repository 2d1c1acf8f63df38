#!/usr/bin/env bash
# make deb-test [FLAVOUR=cloud-amd64|amd64|cloud-arm64|arm64]: the road of a
# stock Debian 12 host to the packages of make deb and back, as its
# administrator travels it (docs/install.md), in QEMU:
#   1. a Debian 12 system as a host has it (mmdebstrap from this machine's
#      apt sources): Debian's default kernel (6.1, linux-image-FLAVOUR),
#      Debian's bpftool, GRUB for UEFI, systemd, DHCP networking
#   2. its disk: GPT, an EFI system partition and the root file system
#   3. the repositories: build 1 = build/deb/FLAVOUR as make deb left it;
#      build 2 = the same tree rebuilt with a bumped suffix; each published
#      by make repo's script, signed with the administrator's key, into
#      build/deb-test/FLAVOUR/repo, served over HTTP to the guest
#   4. the boots, each QEMU with UEFI firmware (OVMF, one NVRAM kept across
#      boots) and the guest's network: the first from the kernel file only
#      to run grub-install; every later one by the firmware, through GRUB,
#      from the disk. Inside, tests/deb/road takes one step per boot:
#      stock -> apt install, grub-reboot -> once (checks: feature probe,
#      demo, bats files) -> default -> apt upgrade to build 2 -> upgraded
#      -> Debian's the default -> rollback (purge ours, Debian's bpftool)
#      -> back on Debian's kernel and bpftool with nothing of ours.
# On arm64 (FLAVOUR=cloud-arm64|arm64; QEMU's virt machine, TCG, AAVMF
# firmware, the disk on NVMe) this machine can't run the system's
# maintainer scripts: the host's debootstrap only unpacks it (--foreign),
# and boot 0, from Debian's kernel file, finishes it in the guest
# (tests/deb/second-stage) before the provision step. The road there ends
# after "once": booted through GRUB, the checks pass, verdict; the steps
# after it (upgrade, rollback) are apt's and GRUB's, the same on both.
# One line per step, the guest's lines under it, then the verdict. Work
# files and the consoles of every boot (console-N-STEP.log) in
# build/deb-test/FLAVOUR.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

flavour=$(deb_flavour)
work=$BUILD/deb-test/$flavour
((EUID == 0)) || die "make deb-test needs root (mmdebstrap, chroot)"
debs=$BUILD/deb/$flavour
image=$(find "$debs" -maxdepth 1 -name "linux-image-*-tracing-multi-${flavour}_*.deb" 2>/dev/null | head -n1 || true)
if [[ -z $image ]] || ! compgen -G "$debs/linux-image-tracing-multi-${flavour}_*.deb" >/dev/null; then
	die "no packages of make deb in ${debs#"$TOP"/}: run make deb${FLAVOUR:+ FLAVOUR=$flavour} first"
fi
release=${image##*/linux-image-}
release=${release%%_*}
version1=$(dpkg-deb -f "$image" Version)
suffix1=${version1##*+}
suffix2=+$suffix1.1
version2=${version1%+*}$suffix2
arch=${flavour##*-}
case $arch in
amd64)
	ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.fd ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.fd
	tty=ttyS0 grub=grub-efi-amd64 grub_target=x86_64-efi road_end=back tests=$BUILD
	# shellcheck disable=SC2054 # commas are QEMU's option syntax
	qemu=(qemu-system-x86_64 -machine q35 -cpu max)
	disk_dev=(-drive "file=$work/disk.img,format=raw,if=virtio")
	;;
arm64)
	ovmf_code=/usr/share/AAVMF/AAVMF_CODE.fd ovmf_vars=/usr/share/AAVMF/AAVMF_VARS.fd
	tty=ttyAMA0 grub=grub-efi-arm64 grub_target=arm64-efi road_end=once tests=$ARM64_BUILD
	# shellcheck disable=SC2054
	qemu=(qemu-system-aarch64 -machine virt -cpu max,pauth-impdef=on)
	# NVMe: Debian's arm64 kernels have its driver built in, virtio-blk
	# only as a module, and boot 0 has no initramfs yet
	# shellcheck disable=SC2054
	disk_dev=(-drive "file=$work/disk.img,format=raw,if=none,id=disk" -device nvme,drive=disk,serial=deb-test)
	;;
esac
[[ -f $ovmf_code && -f $ovmf_vars ]] || die "no UEFI firmware ($ovmf_code): run make deb-test-deps${FLAVOUR:+ FLAVOUR=$flavour}"
sources=/etc/apt/sources.list.d/debian.sources
[[ -f $sources ]] || sources=/etc/apt/sources.list
root=$work/root
esp_uuid=7C1A-0E57
root_uuid=2f1d6a4e-6d0b-4c1e-9a55-7a7c0d5e1b01
# shellcheck disable=SC2034 # read by tests/deb/road through road.conf
BATS=(20-fentry.bats 30-tramp-kinds.bats 40-multi-types.bats 60-bpftool-tracing-multi.bats 90-demo.bats)

failed=0
# step NAME CMD...: one line per step, with its time; the log of a failed
# step is printed under it, and failed set. CMD runs as a job of its own,
# where set -e holds.
step() {
	local name=$1 start=$SECONDS log=$work/step.log rc=0
	shift
	"$@" >"$log" 2>&1 </dev/null &
	wait $! || rc=$?
	if ((rc == 0)); then
		printf 'deb-test: %-66s ok (%d s)\n' "$name" $((SECONDS - start))
		# the guest's lines of a boot
		sed -n 's/^| /    /p' "$log"
	else
		printf 'deb-test: %-66s FAILED (%d s)\n' "$name" $((SECONDS - start))
		sed 's/^/    /' "$log" | tail -40
		failed=1
	fi
}

include=systemd-sysv,udev,linux-image-$flavour,initramfs-tools,$grub,efibootmgr,bpftool,bats,jq,python3,python3-jsonschema,procps,kmod,wget,gpg,ca-certificates,iproute2
make_rootfs() {
	rm -rf "$root"
	if [[ $arch == amd64 ]]; then
		mmdebstrap --variant=minbase --mode=root --include="$include" bookworm "$root" "$sources"
		chroot "$root" dpkg-query -W bpftool "linux-image-*"
		return
	fi
	# the first stage: the system unpacked, the rest of its packages
	# downloaded; from the first mirror of this machine's sources
	local mirror
	mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p; s/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) .*/\2/p' "$sources" | head -n1)
	debootstrap --foreign --arch=arm64 --variant=minbase --include="$include" bookworm "$root" "$mirror"
	# In a container debootstrap links /proc to the host's; the guest
	# mounts its own there.
	if [[ -L $root/proc ]]; then rm "$root/proc" && mkdir "$root/proc"; fi
	# the host's sources, as mmdebstrap gives them on amd64
	cp "$sources" "$root/etc/apt/sources.list.d/"
	rm -rf "$work/debian-kernel"
	dpkg-deb -x "$(find "$root/var/cache/apt/archives" -name "linux-image-[0-9]*-${flavour}_*.deb" | head -n1)" "$work/debian-kernel"
	find "$root/var/cache/apt/archives" \( -name 'bpftool_*' -o -name 'linux-image-*' \) -printf '%f\n'
}

# What a host has around its system: fstab, a network, a serial console,
# GRUB's settings; and the test's own unit and files under
# /opt/tracing-multi (tests find build/ beside them, as in the project).
configure() {
	local opt=$root/opt/tracing-multi t debian_release
	# Debian's kernel, installed (amd64) or to be installed by boot 0 (arm64)
	local boot=$root/boot
	[[ $arch == amd64 ]] || boot=$work/debian-kernel/boot
	debian_release=$(find "$boot" -name 'vmlinuz-*' -printf '%f\n' | sed 's/^vmlinuz-//' | sort -V | tail -1)
	[[ $debian_release == 6.1.* ]] || { echo "Debian's kernel is $debian_release, not 6.1" >&2; return 1; }
	cat >"$root/etc/fstab" <<-EOF
		UUID=$root_uuid / ext4 defaults 0 1
		UUID=$esp_uuid /boot/efi vfat umask=0077 0 1
	EOF
	# (arm64: systemd is not unpacked yet)
	mkdir -p "$root/boot/efi" "$root/etc/systemd/network" "$root/etc/systemd/system/multi-user.target.wants"
	echo deb-test >"$root/etc/hostname"
	printf '[Match]\nName=en*\n\n[Network]\nDHCP=yes\n' >"$root/etc/systemd/network/80-dhcp.network"
	echo 'nameserver 10.0.2.3' >"$root/etc/resolv.conf"
	# (arm64: tests/deb/second-stage does it)
	[[ $arch != amd64 ]] || chroot "$root" systemctl enable systemd-networkd systemd-networkd-wait-online >/dev/null 2>&1
	# GRUB and the kernel on the serial console; GRUB_DEFAULT=saved is
	# what grub-reboot and grub-set-default need (docs/install.md)
	mkdir -p "$root/etc/default/grub.d"
	cat >"$root/etc/default/grub.d/deb-test.cfg" <<-EOF
		GRUB_DEFAULT=saved
		GRUB_TIMEOUT=1
		GRUB_TERMINAL="console serial"
		GRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"
		GRUB_CMDLINE_LINUX="console=tty0 console=$tty,115200"
	EOF
	mkdir -p "$opt/tests" "$opt/examples" "$opt/build"
	cp "$TOP/tests/deb/check" "$TOP/tests/deb/road" "$TOP/tests/deb/second-stage" \
		"$TOP/tests/run" "$TOP/tests/helpers.bash" "$TOP/tests/json-check" "$opt/tests/"
	for t in "${BATS[@]}"; do cp "$TOP/tests/$t" "$opt/tests/"; done
	cp "$TOP/examples/demo" "$opt/examples/"
	cp -r "$tests/tests" "$tests/examples" "$opt/build/"
	echo "$release" >"$opt/release"
	if [[ $arch == amd64 ]]; then
		# shellcheck disable=SC2016 # dpkg-query's ${Version}
		debian_bpftool=$(chroot "$root" dpkg-query -W -f='${Version}' bpftool)
	else
		debian_bpftool=$(dpkg-deb -f "$(find "$root/var/cache/apt/archives" -name 'bpftool_*.deb' | head -n1)" Version)
	fi
	debian_update
	dpkg-deb -f "$(find "$debs" -maxdepth 1 -name 'bpftool-tracing-multi_*.deb' | head -1)" Version >"$opt/bpftool-version"
	{
		printf 'REPO_URL=http://10.0.2.2:%s\n' "$port"
		printf 'REPO_FPR=%s\n' "$(cat "$work/repo/tracing-multi-archive-keyring.fingerprint")"
		printf 'FLAVOUR=%s\nRELEASE=%s\nDEBIAN_RELEASE=%s\n' "$flavour" "$release" "$debian_release"
		printf 'VERSION1=%s\nVERSION2=%s\nSUFFIX2=%s\n' "$version1" "$version2" "$suffix2"
		printf 'DEBIAN_BPFTOOL=%s\nDEBIAN_BPFTOOL_UPDATE=%s\n' "$debian_bpftool" "$debian_bpftool+update1"
		printf 'GRUB_TARGET=%s\nROAD_END=%s\n' "$grub_target" "$road_end"
		declare -p BATS
	} >"$opt/road.conf"
	cat "$opt/road.conf"
	cat >"$root/etc/systemd/system/tracing-multi-road.service" <<-EOF
		[Unit]
		Description=make deb-test: one step of the road (tests/deb/road)
		After=multi-user.target network-online.target
		Wants=network-online.target
		[Service]
		Type=oneshot
		ExecStart=/opt/tracing-multi/tests/road
		StandardOutput=tty
		StandardError=tty
		TTYPath=/dev/$tty
		TimeoutStartSec=infinity
		[Install]
		WantedBy=multi-user.target
	EOF
	ln -sf ../tracing-multi-road.service "$root/etc/systemd/system/multi-user.target.wants/"
	# No login prompt on the console: its getty hangs up the tty, which
	# would kill the road writing to it.
	ln -sf /dev/null "$root/etc/systemd/system/serial-getty@$tty.service"
	echo "$debian_release" >"$work/debian-release"
}

# A stand-in for a Debian security update of bpftool, which the road
# offers the host while ours is installed (the version policy of
# docs/install.md, "Versions"): a package bpftool of a version above
# Debian's ($debian_bpftool), in a repository of its own on the guest's
# disk. It holds no files: the road checks that apt leaves it out.
debian_update() {
	local dir=$root/opt/tracing-multi/debian-update pkg=$work/bpftool-update
	rm -rf "$dir" "$pkg"
	mkdir -p "$dir" "$pkg/DEBIAN"
	cat >"$pkg/DEBIAN/control" <<-EOF
		Package: bpftool
		Version: $debian_bpftool+update1
		Architecture: $arch
		Maintainer: make deb-test <tracing-multi@localhost>
		Section: devel
		Priority: optional
		Description: stand-in for a Debian security update of bpftool (make deb-test)
		 Empty: Debian's update, as a host would be offered it.
	EOF
	dpkg-deb --root-owner-group --build "$pkg" "$dir/" >/dev/null
	rm -rf "$pkg"
	(cd "$dir" && apt-ftparchive packages . >Packages && apt-ftparchive release . >Release)
}

# The disk: GPT, a 128 MiB EFI system partition, the root file system;
# each made as a file (no loop device) and copied into place.
make_disk() {
	local esp=$work/esp.img rootimg=$work/root.img disk=$work/disk.img
	rm -f "$esp" "$rootimg" "$disk"
	mkfs.vfat -C -i "${esp_uuid/-/}" -n EFI "$esp" $((128 * 1024)) >/dev/null
	mkfs.ext4 -q -F -U "$root_uuid" -L root -d "$root" "$rootimg" 8G
	truncate -s $((1 + 128 + 8 * 1024 + 1))M "$disk"
	sfdisk -q "$disk" <<-EOF
		label: gpt
		start=1MiB, size=128MiB, type=uefi, name=esp
		start=129MiB, size=8GiB, type=linux, name=root
	EOF
	dd if="$esp" of="$disk" bs=1M seek=1 conv=notrunc,sparse status=none
	dd if="$rootimg" of="$disk" bs=1M seek=129 conv=notrunc,sparse status=none
	rm -f "$esp" "$rootimg"
	cp "$ovmf_vars" "$work/efivars.fd"
	sfdisk -l "$disk"
}

second_build() {
	DEB_SUFFIX=$suffix2 DEB_OUT=$work/build2 "$TOP/scripts/deb.sh"
	ls "$work/build2"
}

publish() {
	DEB_DIR=$1 REPO=$work/repo "$TOP/scripts/repo.sh"
	ls "$work/repo/pool/main"
}

serve() {
	local p
	for p in $(seq 18080 18180); do
		python3 -m http.server --bind 127.0.0.1 --directory "$work/repo" "$p" >"$work/http.log" 2>&1 &
		http_pid=$!
		sleep 1
		if kill -0 "$http_pid" 2>/dev/null; then
			port=$p
			return
		fi
	done
	die "no free port for the repository's HTTP server"
}

# boot N STEP [KERNEL-ARGS...]: one QEMU run, until the guest reboots or
# powers off; its console in console-N-STEP.log. With kernel arguments it
# starts the disk's Debian kernel file directly (the provisioning boot);
# without, the firmware boots the disk through GRUB.
boot() {
	local n=$1 name=$2 console direct=()
	shift 2
	console=$work/console-$n-$name.log
	rm -f "$console"
	if (($#)); then
		local release kernel initrd
		release=$(cat "$work/debian-release")
		kernel=$root/boot/vmlinuz-$release initrd=$root/boot/initrd.img-$release
		# arm64: boot 0 installs it; its file from the package meanwhile
		[[ -f $kernel ]] || kernel=$work/debian-kernel/boot/vmlinuz-$release
		direct=(-kernel "$kernel")
		[[ ! -f $initrd ]] || direct+=(-initrd "$initrd")
		direct+=(-append "$*")
	fi
	# A hang guard only: a boot and its step take minutes.
	timeout 7200 "${qemu[@]}" -accel tcg,thread=single -smp 2 -m 2G \
		-display none -no-reboot -monitor none -serial "file:$console" \
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$ovmf_code" \
		-drive "if=pflash,format=raw,unit=1,file=$work/efivars.fd" \
		"${disk_dev[@]}" \
		-netdev user,id=n0 -device virtio-net-pci,netdev=n0 \
		"${direct[@]}"
	sed -n 's/\r$//; s/^.*deb-test-guest: /| /p' "$console"
	grep -q "deb-test-guest: $name: done" "$console"
}

mkdir -p "$work"
rm -f "$work"/console-*.log
http_pid=
port=
trap '[[ -z $http_pid ]] || kill "$http_pid" 2>/dev/null || true' EXIT
second=", build 2 $version2"
[[ $road_end == back ]] || second=", the road up to '$road_end'"
echo "deb-test: $flavour, kernel $release: build 1 $version1 (${debs#"$TOP"/})$second"
serve
rm -rf "$work/repo"
if [[ $arch == amd64 ]]; then
	steps=(
		"1. make deb's packages again, suffix $suffix2 (build 2)" second_build
		"2. make repo: build 1 in a signed repository, served by HTTP" "publish $debs"
		"3. a stock Debian 12: Debian's 6.1 kernel and bpftool, GRUB (UEFI)" make_rootfs
		"4. its network, fstab, GRUB settings and the road's unit" configure
		"5. its disk: GPT, EFI system partition, root file system" make_disk
		"6. boot 0 (the kernel file, once): grub-install, update-grub" "boot 0 provision root=UUID=$root_uuid ro console=$tty,115200"
		"7. boot 1, GRUB: Debian's kernel; apt install ours, grub-reboot" "boot 1 stock"
		"8. boot 2, GRUB, once: ours; feature probe, demo, bats; a tracing-multi@ unit; the default" "boot 2 once"
		"9. make repo: build 2 in the repository" "publish $work/build2"
		"10. boot 3, GRUB, default: ours, the unit's link back; apt upgrade to build 2" "boot 3 default"
		"11. boot 4: build 2's kernel, the unit's link back; Debian's the default again" "boot 4 upgraded"
		"12. boot 5: Debian's kernel, the unit failed visibly; purge ours, apt install bpftool" "boot 5 rollback"
		"13. boot 6: Debian's kernel and bpftool, nothing of ours" "boot 6 back"
	)
	last=6-back
else
	steps=(
		"1. make repo: build 1 in a signed repository, served by HTTP" "publish $debs"
		"2. a stock Debian 12 for arm64, unpacked: Debian's 6.1 kernel, bpftool, GRUB (UEFI)" make_rootfs
		"3. its network, fstab, GRUB settings and the road's unit" configure
		"4. its disk: GPT, EFI system partition, root file system" make_disk
		"5. boot 0 (the kernel file, once): the second stage, grub-install, update-grub" "boot 0 provision root=/dev/nvme0n1p2 rw rootwait panic=10 console=$tty,115200 init=/opt/tracing-multi/tests/second-stage"
		"6. boot 1, GRUB: Debian's kernel; apt install ours, grub-reboot" "boot 1 stock"
		"7. boot 2, GRUB, once: ours; feature probe, demo, bats; verdict" "boot 2 once"
	)
	last=2-once
fi
for ((i = 0; i < ${#steps[@]}; i += 2)); do
	read -ra cmd <<<"${steps[i + 1]}"
	step "${steps[i]}" "${cmd[@]}"
	((failed == 0)) || break
done
if ((failed == 0)) && grep -q "deb-test-guest: ${last#*-}: verdict: PASS" "$work/console-$last.log"; then
	echo "deb-test: PASS (consoles: ${work#"$TOP"/}/console-*.log)"
else
	echo "deb-test: FAIL (consoles: ${work#"$TOP"/}/console-*.log)"
	exit 1
fi
