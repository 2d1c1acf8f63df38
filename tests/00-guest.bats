#!/usr/bin/env bats
# The guest itself: the patched kernel, its filesystems, its CPUs.

load helpers
bats_require_minimum_version 1.5.0

@test "guest runs the patched kernel built here" {
	run uname -r
	[ "$status" -eq 0 ]
	[[ $output == 6.12.*-tracing-multi ]]
	[ "$output" = "$(cat "$BUILD/kernel.release")" ]
}

@test "bpffs, debugfs and tracefs are mounted" {
	[ "$(stat -f -c %T /sys/fs/bpf)" = bpf_fs ]
	[ "$(stat -f -c %T /sys/kernel/debug)" = debugfs ]
	[ "$(stat -f -c %T /sys/kernel/tracing)" = tracefs ]
}

@test "the guest has two CPUs and lockdep is active" {
	[ "$(nproc)" -eq 2 ]
	[ -e /proc/lockdep ]
	grep -q 'debug_locks: *1' /proc/lockdep_stats
}

@test "the kernel has vmlinux BTF and direct-call ftrace" {
	[ -s /sys/kernel/btf/vmlinux ]
	grep -qx bpf_fentry_test1 /sys/kernel/tracing/available_filter_functions
}

@test "bpf_testmod, built against this kernel, loads with its BTF and unloads" {
	testmod_load
	[ -s /sys/kernel/btf/bpf_testmod ]
	grep -qx 'bpf_testmod_fentry_test1 \[bpf_testmod\]' /sys/kernel/tracing/available_filter_functions
	rmmod bpf_testmod
	run grep -c '^bpf_testmod ' /proc/modules
	[ "$output" = 0 ]
}

@test "qemu/run on a host whose KVM aborts QEMU: one quiet line that TCG is used, no shell job report" {
	# qemu/run copied into a tree of its own (its build/ holds the KVM
	# probe's answer), with a QEMU that aborts under -accel kvm and boots
	# nothing under TCG, and a /dev/kvm it can write
	local t=$BATS_TEST_TMPDIR/top made=0
	mkdir -p "$t/qemu" "$t/build" "$t/bin"
	cp "$TOP/qemu/run" "$t/qemu/run"
	: >"$t/build/bzImage"
	printf '%s\n' '#!/bin/bash' '[[ " $* " == *" -accel kvm "* ]] && kill -ABRT $$' 'exit 0' \
		>"$t/bin/qemu-system-x86_64"
	chmod +x "$t/bin/qemu-system-x86_64"
	if [[ ! -e /dev/kvm ]]; then
		mknod /dev/kvm c 10 232
		made=1
	fi
	run --separate-stderr env PATH="$t/bin:$PATH" "$t/qemu/run" --timeout 30 -- true
	# shellcheck disable=SC2154 # set by run --separate-stderr
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ "$(grep -c . <<<"$stderr")" -ge 2 ]
	[ "$(head -n 1 <<<"$stderr")" = "qemu/run: KVM does not boot a guest on this host: using TCG (emulation) from now on" ]
	run ! grep -Eq 'Aborted|line [0-9]+:' <<<"$stderr"
	[ "$(cat "$t/build/guest/kvm-probe/result")" = tcg ]
	# the answer is kept: the next run says nothing of KVM
	run --separate-stderr env PATH="$t/bin:$PATH" "$t/qemu/run" --timeout 30 -- true
	run ! grep -q KVM <<<"$stderr"
	((made == 0)) || rm /dev/kvm
}
