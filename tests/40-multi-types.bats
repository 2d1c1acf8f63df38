#!/usr/bin/env bats
# The attach type numbers of upstream 7.2 and what the kernel accepts at
# program load, checked with raw BPF_PROG_LOAD (libbpf would hide the
# kernel's answer).

load helpers

KPROBE=2
TRACING=26

@test "reserved attach type 57 (uprobe session) is rejected at load" {
	run prog_load_raw $KPROBE 57
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = EINVAL ]
}

@test "fentry.multi (59), fexit.multi (60) and fsession.multi (61) programs load against the stub" {
	run prog_load_raw $TRACING 59
	[ "$status" -eq 0 ]
	[ "$output" = loaded ]
	run prog_load_raw $TRACING 60
	[ "$status" -eq 0 ]
	[ "$output" = loaded ]
	run prog_load_raw $TRACING 61
	[ "$status" -eq 0 ]
	[ "$output" = loaded ]
}

@test "direct ctx access in a multi program is rejected by the verifier" {
	run prog_load_raw $TRACING 59 ctx
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = EACCES ]
	[[ $output == *"func 'bpf_multi_func' doesn't have 1-th argument"* ]]
	run prog_load_raw $TRACING 60 ctx
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = EACCES ]
	run prog_load_raw $TRACING 61 ctx
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = EACCES ]
}

@test "bpf_fentry_test10 exists and runs with every tracing test run" {
	grep -qx bpf_fentry_test10 /sys/kernel/tracing/available_filter_functions
	dir=$(pin_dir)
	bpftool prog loadall "$PROGS/fentry_count.bpf.o" "$dir/links" \
		pinmaps "$dir/maps" autoattach
	bss=$(pinned_map "$dir/maps" _bss)
	run prog_run "$dir/links/count_test10" 3
	hits10=$(bss_var "$bss" hits10)
	arg10=$(bss_var "$bss" last_arg10)
	rm -rf "$dir"
	[ "$status" -eq 0 ]
	[ "$hits10" -eq 3 ]
	[ "$arg10" -eq 0 ]
}
