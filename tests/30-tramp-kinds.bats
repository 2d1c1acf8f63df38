#!/usr/bin/env bats
# fmod_ret and LSM programs, which also run on BPF trampolines, behave as
# on an unpatched kernel.

load helpers

setup_file() {
	local dir
	dir=$(pin_dir)
	bpftool prog loadall "$PROGS/tramp_kinds.bpf.o" "$dir/links" \
		pinmaps "$dir/maps" autoattach
}

@test "fmod_ret replaces bpf_modify_return_test's return value and side effect" {
	dir=$(pin_dir)
	bss=$(pinned_map "$dir/maps" _bss)
	# Unmodified, the test run returns (2 << 16) | (4 + 29) = 131105; with
	# bpf_modify_return_test skipped and returning 1000 it is
	# (1 << 16) | (1000 + 29) = 66565.
	run prog_run "$dir/links/fmod_test"
	[ "$status" -eq 0 ]
	[ "$output" -eq 66565 ]
	[ "$(bss_var "$bss" fmod_calls)" -eq 1 ]
}

@test "an LSM program on file_open counts opens" {
	dir=$(pin_dir)
	bss=$(pinned_map "$dir/maps" _bss)
	before=$(bss_var "$bss" file_opens)
	for _ in 1 2 3 4 5; do : </etc/hostname; done
	after=$(bss_var "$bss" file_opens)
	[ "$after" -ge $((before + 5)) ]
	run bpftool -j link show pinned "$dir/links/lsm_file_open"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.attach_type == "lsm_mac"'
}
