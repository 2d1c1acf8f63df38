#!/usr/bin/env bats
# The bpftool built from the patched tree.

load helpers

@test "bpftool is the one built from the patched tree" {
	[ "$(command -v bpftool)" = "$BUILD/install/bin/bpftool" ]
	run bpftool version
	[ "$status" -eq 0 ]
	[[ ${lines[0]} =~ ^bpftool\ v7\.[0-9]+\.[0-9]+$ ]]
	[[ ${lines[1]} =~ ^using\ libbpf\ v1\.[0-9]+$ ]]
	[[ ${lines[2]} == features:* ]]
}

@test "bpftool -j version is valid JSON with version and features" {
	run bpftool -j version
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '(.version | test("^7\\.")) and (.libbpf_version | test("^1\\.")) and (.features | type == "object")'
}

@test "bpftool feature probe sees the tracing program type and fentry helpers" {
	run bpftool feature probe kernel
	[ "$status" -eq 0 ]
	[[ $output == *"eBPF program_type tracing is available"* ]]
	[[ $output == *"bpf_get_func_ip"* ]]
}
