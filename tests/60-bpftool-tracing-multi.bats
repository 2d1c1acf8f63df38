#!/usr/bin/env bats
# bpftool and tracing_multi links: link show (plain and JSON, from link info)
# and link detach. tracing_multi pin PATH makes a link on bpf_fentry_test1,
# 2 and 3 with cookies 7, 8 and 9.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	dir=$(pin_dir)
	link=$dir/link
	rm -f "$link"
	run tracing_multi pin "$link"
	[ "$status" -eq 0 ]
	[ -e "$link" ]
}

teardown() {
	rm -f "$link"
}

teardown_file() {
	rm -rf "$(pin_dir)"
}

@test "link show -j: attach type, function count, and per function its name, module, BTF id, cookie" {
	run bpftool -j link show pinned "$link"
	echo "$output"
	[ "$status" -eq 0 ]
	jq -e '.type == "tracing_multi" and .attach_type == "trace_fentry_multi" and .func_cnt == 3' <<<"$output"
	jq -e '[.funcs[] | {func: .func, module: .module, cookie: .cookie}] | sort_by(.func) == [
		{"func": "bpf_fentry_test1", "module": null, "cookie": 7},
		{"func": "bpf_fentry_test2", "module": null, "cookie": 8},
		{"func": "bpf_fentry_test3", "module": null, "cookie": 9}]' <<<"$output"
	# the BTF ids are the vmlinux ones of those functions
	btf=$(bpftool btf dump file /sys/kernel/btf/vmlinux | grep "FUNC 'bpf_fentry_test[123]'")
	for f in bpf_fentry_test1 bpf_fentry_test2 bpf_fentry_test3; do
		want=$(sed -n "s/^\[\([0-9]*\)\] FUNC '$f' .*/\1/p" <<<"$btf")
		[ -n "$want" ]
		jq -e --arg f "$f" --argjson id "$want" \
			'.funcs[] | select(.func == $f) | .btf_id == $id' <<<"$output"
	done
}

@test "link show (plain) follows the kprobe_multi layout" {
	run bpftool link show pinned "$link"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} =~ ^[0-9]+:\ tracing_multi\ \ prog\ [0-9]+ ]]
	[[ ${lines[1]} =~ ^[[:space:]]trace_fentry_multi\ \ func_cnt\ 3 ]]
	[[ ${lines[2]} =~ ^[[:space:]]btf_id\ +cookie\ +func\ \[module\] ]]
	grep -Eq $'^\t[0-9]+ +7 +bpf_fentry_test1 *$' <<<"$output"
	grep -Eq $'^\t[0-9]+ +8 +bpf_fentry_test2 *$' <<<"$output"
	grep -Eq $'^\t[0-9]+ +9 +bpf_fentry_test3 *$' <<<"$output"
}

@test "link detach id: the link stays, attached to no function" {
	local id
	id=$(pinned_id link "$link")
	grep -q '^bpf_fentry_test1 ' /sys/kernel/tracing/enabled_functions
	run bpftool link detach id "$id"
	[ "$status" -eq 0 ]
	run ! grep -q '^bpf_fentry_test[123] ' /sys/kernel/tracing/enabled_functions
	run bpftool -j link show id "$id"
	[ "$status" -eq 0 ]
	jq -e '.func_cnt == 0 and .funcs == [] and .attach_type == "trace_fentry_multi"' <<<"$output"
}

@test "unpinning the last reference removes the link" {
	local id
	id=$(pinned_id link "$link")
	rm "$link"
	run bpftool link show id "$id"
	[ "$status" -ne 0 ]
	run ! grep -q '^bpf_fentry_test1 ' /sys/kernel/tracing/enabled_functions
}
