#!/usr/bin/env bats
# The guest itself: the patched kernel, its filesystems, its CPUs.

load helpers

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
