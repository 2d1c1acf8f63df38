#!/usr/bin/env bats
# Ordinary fentry and fexit programs (the baseline tracing_multi must not
# break): loaded and attached with bpftool, triggered through
# BPF_PROG_TEST_RUN, alone and together with a kprobe on the same function.

load helpers

setup_file() {
	# One load serves every test here: loading parses vmlinux BTF, which is
	# slow under emulation.
	local dir
	dir=$(pin_dir)
	bpftool prog loadall "$PROGS/fentry_count.bpf.o" "$dir/links" \
		pinmaps "$dir/maps" autoattach
}

@test "fentry program is attached through a pinned link" {
	dir=$(pin_dir)
	run bpftool -j link show pinned "$dir/links/count_test1"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.type == "tracing" and .attach_type == "trace_fentry"'
}

@test "each BPF_PROG_TEST_RUN increments the counter by exactly one" {
	dir=$(pin_dir)
	bss=$(pinned_map "$dir/maps" _bss)
	[ "$(bss_var "$bss" hits)" -eq 0 ]
	run prog_run "$dir/links/count_test1"
	[ "$status" -eq 0 ]
	[ "$(bss_var "$bss" hits)" -eq 1 ]
	[ "$(bss_var "$bss" last_arg)" -eq 1 ]
	run prog_run "$dir/links/count_test1" 3
	[ "$status" -eq 0 ]
	[ "$(bss_var "$bss" hits)" -eq 4 ]
}

@test "fexit program sees the return value; fentry and fexit count alike" {
	dir=$(pin_dir)
	bss=$(pinned_map "$dir/maps" _bss)
	before=$(bss_var "$bss" exits)
	run prog_run "$dir/links/ret_test1" 2
	[ "$status" -eq 0 ]
	[ "$(bss_var "$bss" exits)" -eq $((before + 2)) ]
	[ "$(bss_var "$bss" last_ret)" -eq 2 ]
	[ "$(bss_var "$bss" hits)" -eq "$(bss_var "$bss" exits)" ]
}

@test "a kprobe on the same function fires alongside fentry and fexit" {
	dir=$(pin_dir)
	bss=$(pinned_map "$dir/maps" _bss)
	t=/sys/kernel/tracing
	echo 'p:tm_kp bpf_fentry_test1' >>"$t/kprobe_events"
	echo 1 >"$t/events/kprobes/tm_kp/enable"
	before=$(bss_var "$bss" hits)
	run prog_run "$dir/links/count_test1" 5
	echo 0 >"$t/events/kprobes/tm_kp/enable"
	kp_hits=$(awk '$1 == "tm_kp" { print $2 }' "$t/kprobe_profile")
	echo '-:tm_kp' >>"$t/kprobe_events"
	[ "$status" -eq 0 ]
	[ "$kp_hits" -eq 5 ]
	[ "$(bss_var "$bss" hits)" -eq $((before + 5)) ]
	[ "$(bss_var "$bss" exits)" -eq $((before + 5)) ]
}

@test "bpftool link show lists the link, plain and JSON" {
	dir=$(pin_dir)
	id=$(pinned_id link "$dir/links/count_test1")
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
