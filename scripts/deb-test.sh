#!/usr/bin/env bash
# make deb-test [FLAVOUR=cloud-amd64|amd64]: the packages of make deb on a
# Debian 12 system, installed the way a host installs them.
#   1. a Debian 12 root file system (mmdebstrap, from the archive this
#      machine's apt uses) with what a host has before: Debian's own
#      linux-image-6.12-FLAVOUR and bpftool
#   2. our packages installed into it with apt (maintainer scripts run,
#      initramfs-tools makes the initramfs): our kernel beside Debian's,
#      our bpftool and libbpf-dev over Debian's
#   3. a disk image of it, booted in QEMU from our kernel and initramfs in
#      its /boot (no bootloader), systemd as init
#   4. inside (tests/deb/check, started by a systemd unit): uname -r,
#      bpftool feature probe, the demo, the bats files that need neither
#      bpf_testmod nor build/install, and a kernel log without warnings
# One line per step, then the verdict. Work files: build/deb-test/FLAVOUR.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

flavour=$(deb_flavour)
((EUID == 0)) || die "make deb-test needs root (mmdebstrap, chroot and mounts)"
debs=$BUILD/deb/$flavour
image=$(find "$debs" -maxdepth 1 -name "linux-image-*-tracing-multi-${flavour}_*.deb" 2>/dev/null | head -n1 || true)
[[ -n $image ]] || die "no packages in ${debs#"$TOP"/}: run make deb${FLAVOUR:+ FLAVOUR=$flavour} first"
release=${image##*/linux-image-}
release=${release%%_*}
bpftool_deb=$(find "$debs" -maxdepth 1 -name 'bpftool_*.deb' | head -n1 || true)
[[ -n $bpftool_deb ]] || die "no bpftool package in ${debs#"$TOP"/}: run make deb${FLAVOUR:+ FLAVOUR=$flavour} again"
bpftool_version=$(dpkg-deb -f "$bpftool_deb" Version)
sources=/etc/apt/sources.list.d/debian.sources
[[ -f $sources ]] || sources=/etc/apt/sources.list
work=$BUILD/deb-test/$flavour
root=$work/root
mounted=()

cleanup() {
	local m
	for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
	mounted=()
}

failed=0
# step NAME CMD...: one line per step, with its time; the log of a failed
# step is printed under it, and failed set. CMD runs in a subshell of its
# own, where set -e holds: step must not be called in an if or || list,
# which would turn set -e off for everything it runs.
step() {
	local name=$1 start=$SECONDS log=$work/step.log rc=0
	shift
	"$@" >"$log" 2>&1 </dev/null &
	wait $! || rc=$?
	if ((rc == 0)); then
		printf 'deb-test: %-64s ok (%d s)\n' "$name" $((SECONDS - start))
	else
		printf 'deb-test: %-64s FAILED (%d s)\n' "$name" $((SECONDS - start))
		sed 's/^/    /' "$log" | tail -40
		failed=1
	fi
}

in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }

make_rootfs() {
	rm -rf "$root"
	mmdebstrap --variant=minbase --mode=root \
		--include="systemd-sysv,udev,linux-image-6.12-$flavour,initramfs-tools,bpftool,bats,jq,procps,kmod,ca-certificates" \
		bookworm "$root" "$sources"
	in_root dpkg-query -W bpftool "linux-image-6.12*-$flavour"
}

install_ours() {
	local m
	trap cleanup EXIT
	for m in proc sys dev; do
		mount --bind "/$m" "$root/$m"
		mounted=("$root/$m" "${mounted[@]}")
	done
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	mkdir -p "$root/tmp/debs"
	cp "$debs"/*.deb "$root/tmp/debs/"
	# mmdebstrap leaves no package lists; a host has them
	in_root apt-get update
	in_root sh -c 'apt-get install -y /tmp/debs/*.deb'
	rm -rf "$root/tmp/debs" "$root/etc/resolv.conf"
	cleanup
	# what a host then has: both kernels, Debian's kept for rollback; ours
	# the newest bpftool
	ls -l "$root"/boot
	[[ -f $root/boot/vmlinuz-$release && -f $root/boot/initrd.img-$release ]]
	compgen -G "$root/boot/vmlinuz-6.12*+deb12-$flavour" >/dev/null
	in_root dpkg-query -W bpftool libbpf-dev "linux-image-*"
	# shellcheck disable=SC2016 # dpkg-query's ${Version}, not the shell's
	[[ $(in_root dpkg-query -W -f='${Version}' bpftool) == "$bpftool_version" ]]
}

# The guest side: the check script and the files it uses, under
# /opt/tracing-multi as in the project (tests find build/ beside them),
# started by a unit that powers the guest off when it ends.
add_checks() {
	local opt=$root/opt/tracing-multi t
	mkdir -p "$opt/tests" "$opt/examples" "$opt/build"
	cp "$TOP/tests/deb/check" "$TOP/tests/run" "$TOP/tests/helpers.bash" "$opt/tests/"
	for t in "${DEB_TEST_BATS[@]}"; do cp "$TOP/tests/$t" "$opt/tests/"; done
	cp "$TOP/examples/demo" "$opt/examples/"
	cp -r "$BUILD/tests" "$BUILD/examples" "$opt/build/"
	echo "$release" >"$opt/release"
	echo "$bpftool_version" >"$opt/bpftool-version"
	cat >"$root/etc/systemd/system/tracing-multi-check.service" <<-EOF
		[Unit]
		Description=tracing_multi package checks (make deb-test)
		After=multi-user.target
		[Service]
		Type=oneshot
		ExecStart=/opt/tracing-multi/tests/check ${DEB_TEST_BATS[*]}
		ExecStopPost=/bin/systemctl --no-block poweroff
		StandardOutput=tty
		StandardError=tty
		TTYPath=/dev/ttyS0
		TimeoutStartSec=infinity
		[Install]
		WantedBy=multi-user.target
	EOF
	ln -sf ../tracing-multi-check.service "$root/etc/systemd/system/multi-user.target.wants/"
	# No login prompt on the console: its getty hangs up the tty, which
	# would kill the checks writing to it.
	ln -sf /dev/null "$root/etc/systemd/system/serial-getty@ttyS0.service"
	echo "LABEL=tmroot / ext4 defaults 0 1" >"$root/etc/fstab"
	echo deb-test >"$root/etc/hostname"
}

make_image() {
	rm -f "$work/disk.img"
	mkfs.ext4 -q -F -L tmroot -d "$root" "$work/disk.img" 6G
}

boot() {
	timeout 3000 qemu-system-x86_64 -accel tcg,thread=single -cpu max -smp 2 -m 2G \
		-display none -no-reboot -monitor none -serial "file:$work/console.log" \
		-kernel "$root/boot/vmlinuz-$release" -initrd "$root/boot/initrd.img-$release" \
		-append "root=LABEL=tmroot rw console=ttyS0 panic=-1 quiet" \
		-drive "file=$work/disk.img,format=raw,if=virtio"
	grep -q '^deb-test-guest: verdict' "$work/console.log"
}

# shellcheck disable=SC2034 # used by add_checks
DEB_TEST_BATS=(20-fentry.bats 30-tramp-kinds.bats 40-multi-types.bats 60-bpftool-tracing-multi.bats 90-demo.bats)
steps=(
	"1. Debian 12 root file system with Debian's kernel and bpftool" make_rootfs
	"2. apt install our packages (kernel beside Debian's, bpftool over)" install_ours
	"3. the guest's checks and their systemd unit" add_checks
	"4. disk image" make_image
	"5. boot $release from the image's /boot under QEMU" boot
)
mkdir -p "$work"
rm -f "$work/console.log"
echo "deb-test: $flavour packages of ${debs#"$TOP"/}, kernel $release"
for ((i = 0; i < ${#steps[@]}; i += 2)); do
	step "${steps[i]}" "${steps[i + 1]}"
	((failed == 0)) || break
done
if [[ -f $work/console.log ]]; then
	sed -n 's/\r$//; s/^deb-test-guest: /deb-test:    /p' "$work/console.log"
fi
if ((failed == 0)) && grep -q '^deb-test-guest: verdict: PASS' "$work/console.log"; then
	echo "deb-test: PASS (console: ${work#"$TOP"/}/console.log)"
else
	echo "deb-test: FAIL (console: ${work#"$TOP"/}/console.log)"
	exit 1
fi
