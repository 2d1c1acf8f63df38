#!/usr/bin/env bats
# An ordinary fentry program (the baseline tracing_multi must not break):
# loaded and attached with bpftool, triggered through BPF_PROG_TEST_RUN.

load helpers

setup_file() {
	# One load serves every test here: loading parses vmlinux BTF, which is
	# slow under emulation.
	local dir
	dir=$(pin_dir)
	bpftool prog load "$PROGS/fentry_count.bpf.o" "$dir/link" \
		pinmaps "$dir/maps" autoattach
}

teardown_file() {
	rm -rf "$(pin_dir)"
}

@test "fentry program is attached through a pinned link" {
	dir=$(pin_dir)
	run bpftool -j link show pinned "$dir/link"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.type == "tracing" and .attach_type == "trace_fentry"'
}

@test "each BPF_PROG_TEST_RUN increments the counter by exactly one" {
	dir=$(pin_dir)
	bss=$(pinned_map "$dir/maps" _bss)
	[ "$(bss_var "$bss" hits)" -eq 0 ]
	run prog_run "$dir/link"
	[ "$status" -eq 0 ]
	[ "$(bss_var "$bss" hits)" -eq 1 ]
	[ "$(bss_var "$bss" last_arg)" -eq 1 ]
	run prog_run "$dir/link" 3
	[ "$status" -eq 0 ]
	[ "$(bss_var "$bss" hits)" -eq 4 ]
}

@test "bpftool link show lists the link, plain and JSON" {
	dir=$(pin_dir)
	id=$(pinned_id link "$dir/link")
	prog_id=$(bpftool -j link show id "$id" | jq -e .prog_id)
	run bpftool link show
	[ "$status" -eq 0 ]
	[[ $output == *"$id: tracing  prog $prog_id"* ]]
	[[ $output == *"attach_type trace_fentry"* ]]
	run bpftool -j link show
	[ "$status" -eq 0 ]
	echo "$output" | jq -e --argjson id "$id" --argjson p "$prog_id" \
		'map(select(.id == $id)) | length == 1 and .[0].type == "tracing" and .[0].prog_id == $p'
	run bpftool -j prog show id "$prog_id"
	echo "$output" | jq -e '.type == "tracing" and .name == "count_test1"'
}
