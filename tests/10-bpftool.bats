#!/usr/bin/env bats
# The bpftool built from the patched tree.

load helpers

@test "bpftool is the one built from the patched tree" {
	[ "$(type -P bpftool)" = "$BUILD/install/bin/bpftool" ]
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

@test "bpftool feature probe sees the tracing program type, fentry helpers and the tracing_multi link" {
	run bpftool feature probe kernel
	[ "$status" -eq 0 ]
	[[ $output == *"eBPF program_type tracing is available"* ]]
	[[ $output == *"bpf_get_func_ip"* ]]
	# JSON, and a kernel without the link: 70-bpftool-link-attach.bats
	grep -qx 'tracing_multi link (fentry.multi, fexit.multi) is available' <<<"$output"
}

@test "libbpf.so stays 1.5 and has bpf_program__attach_tracing_multi in upstream's LIBBPF_1.8.0 node" {
	local so=$BUILD/install/lib/libbpf.so
	[ "$(readlink -f "$so")" = "$BUILD/install/lib/libbpf.so.1.5.0" ]
	run readelf --dyn-syms --wide "$so"
	grep -Eq ' bpf_program__attach_tracing_multi@@LIBBPF_1\.8\.0$' <<<"$output"
	# A program using it needs that version from libbpf.so.1, as it
	# would from upstream's libbpf.so, and runs against ours.
	run readelf --version-info --wide "$BIN/libbpf_abi"
	echo "$output"
	grep -Eq 'File: libbpf\.so\.1 ' <<<"$output"
	grep -Eq 'Name: LIBBPF_1\.8\.0 ' <<<"$output"
	run libbpf_abi
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "libbpf 1.5, bpf_program__attach_tracing_multi bound" ]
}
