#!/usr/bin/env bats
# bpftool and tracing_multi links: link show (plain and JSON) exactly as
# upstream bpftool prints them (37c1e353c9fd), and link detach.
# tracing_multi pin PATH makes a link on bpf_fentry_test1, 2 and 3 with
# cookies 7, 8 and 9.

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
	unpin "$link"
	rm -f "$link"
}

# What the link must list (pin_link_want, tests/helpers.bash)
setup_file() {
	pin_link_want
}

want_funcs() {
	cat "$BATS_FILE_TMPDIR/want"
}

@test "link show -j: upstream's fields, funcs [{id, addr, func, module, cookie}] in BTF id order" {
	local want addrs
	want=$(want_funcs | jq -R 'split(" ") | {id: (.[0] | tonumber), func: .[3], module: null,
		cookie: (.[2] | tonumber)}' | jq -s .)
	# addresses above 2^53 lose digits in jq: compare them as text
	addrs=$(want_funcs | while read -r _ addr _; do printf '"addr":%u\n' "0x$addr"; done)
	run -0 bpftool -j link show pinned "$link"
	echo "$output"
	[ "$status" -eq 0 ]
	jq -e --argjson obj "$(vmlinux_btf_obj_id)" '.type == "tracing_multi" and
		.attach_type == "trace_fentry_multi" and .func_cnt == 3 and .btf_obj_id == $obj' <<<"$output"
	# exactly upstream's keys, in upstream's order
	jq -e '[keys_unsorted[]] | . - ["pinned", "pids"] ==
		["id", "type", "prog_id", "attach_type", "func_cnt", "btf_obj_id", "funcs"]' <<<"$output"
	jq -e 'all(.funcs[]; [keys_unsorted[]] == ["id", "addr", "func", "module", "cookie"])' <<<"$output"
	jq -e --argjson want "$want" '[.funcs[] | {id: .id, func: .func, module: .module, cookie: .cookie}] == $want' <<<"$output"
	[ "$(grep -o '"addr":[0-9]*' <<<"$output")" = "$addrs" ]
}

@test "a JSON consumer written for upstream bpftool reads the link unchanged" {
	# What a monitoring job on an upstream kernel and bpftool does: every
	# tracing_multi link, its attach type and BTF object, and per function
	# id, name, module and cookie.
	# shellcheck disable=SC2016 # $f is jq's
	local consumer='.[] | select(.type == "tracing_multi") |
		.funcs[] as $f | [.attach_type, .btf_obj_id, $f.id, $f.func, ($f.module // "vmlinux"), $f.cookie] |
		map(tostring) | join(" ")' obj
	run bpftool -j link show
	[ "$status" -eq 0 ]
	run jq -r "$consumer" <<<"$output"
	echo "$output"
	[ "$status" -eq 0 ]
	obj=$(vmlinux_btf_obj_id)
	[ "$output" = "$(want_funcs | while read -r id _ cookie f; do
		echo "trace_fentry_multi $obj $id $f vmlinux $cookie"; done)" ]
}

@test "link show (plain): attach_type, btf_obj_id and count line, then upstream's table" {
	local lines_want
	run -0 bpftool link show pinned "$link"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} =~ ^[0-9]+:\ tracing_multi\ \ prog\ [0-9]+\ \ $ ]]
	[ "${lines[1]}" = $'\t'"attach_type trace_fentry_multi  btf_obj_id $(vmlinux_btf_obj_id)  count 3  " ]
	[ "${lines[2]}" = $'\t'"btf_id           addr             cookie           func [module]" ]
	lines_want=$(want_funcs | while read -r id addr cookie f; do
		printf '\t%-16u %016x %-16u %s\n' "$id" "0x$addr" "$cookie" "$f"; done)
	[ "$(printf '%s\n' "${lines[@]:3:3}")" = "$lines_want" ]
}

@test "addresses hidden by kptr_restrict: addr 0, no func or module, as upstream" {
	local restrict json cookies
	restrict=$(cat /proc/sys/kernel/kptr_restrict)
	echo 2 >/proc/sys/kernel/kptr_restrict
	run -0 bpftool -j link show pinned "$link"
	json=$output
	run -0 bpftool link show pinned "$link"
	echo "$restrict" >/proc/sys/kernel/kptr_restrict
	echo "$json"
	echo "$output"
	cookies=$(want_funcs | awk '{ print $3 }' | jq -s .)
	jq -e --argjson c "$cookies" 'all(.funcs[]; [keys_unsorted[]] == ["id", "addr", "cookie"]) and
		[.funcs[].addr] == [0, 0, 0] and [.funcs[].cookie] == $c' <<<"$json"
	[ "$(grep -Ec $'^\t[0-9]+ +0000000000000000 [789] {15}$' <<<"$output")" -eq 3 ]
}

@test "link show: the processes holding the link (pids), from kallsyms ahead of its BPF symbols" {
	local pid id json plain prog
	pid=$(hold_fd "$link")
	id=$(pinned_id link "$link")
	run -0 bpftool -j link show id "$id"
	json=$output
	run -0 bpftool link show id "$id"
	plain=$output
	run -0 bpftool -j prog show id "$(bpftool -j link show id "$id" | jq .prog_id)"
	prog=$output
	kill "$pid"
	wait "$pid" || true
	echo "$json"
	echo "$plain"
	jq -e --argjson pid "$pid" '.pids == [{"pid": $pid, "comm": "python3"}]' <<<"$json"
	grep -Fx $'\t'"pids python3($pid)" <<<"$plain"
	# the program is held by the link, not by an fd of python3's
	jq -e 'has("pids") | not' <<<"$prog"
	# bpftool finds bpf_link_fops where pid_iter.bpf.c looks for it: among
	# the kernel's own symbols, which kallsyms lists before any module's
	awk '/\[/ { exit 1 } $3 == "bpf_link_fops" { found = 1; exit } END { exit !found }' /proc/kallsyms
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
	jq -e --argjson obj "$(vmlinux_btf_obj_id)" '.func_cnt == 0 and .funcs == [] and
		.attach_type == "trace_fentry_multi" and .btf_obj_id == $obj' <<<"$output"
	# plain: upstream prints nothing more for a link without functions
	run -0 bpftool link show id "$id"
	[ "${#lines[@]}" -eq 1 ]
	[[ ${lines[0]} == "$id: tracing_multi  prog "* ]]
}

@test "unpinning the last reference removes the link" {
	local id
	id=$(pinned_id link "$link")
	rm "$link"
	# released by a work item, a moment later
	eventually link_gone "$id"
	run ! grep -q '^bpf_fentry_test1 ' /sys/kernel/tracing/enabled_functions
}
