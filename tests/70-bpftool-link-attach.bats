#!/usr/bin/env bats
# shellcheck disable=SC2154 # dir, progdir, bss, snap's arrays: tests/link_attach.bash
# bpftool link attach tracing_multi: every target form (func with cookies,
# pattern, btf_id, funcs file and stdin, module prefix), JSON output, dry
# runs, pinning (bpffs mounted on an empty directory, never over files;
# -n), what the attached program then sees, prog loadall autoattach of
# multi sections, feature probe.
# Errors are in 71-bpftool-link-attach-errors.bats, links on thousands of
# functions in 72-bpftool-link-attach-scale.bats.

load helpers
load link_attach
bats_require_minimum_version 1.5.0

@test "func NAME cookie U64: the program sees each function with its cookie and arguments" {
	local h1 h2
	snap
	h1=${entry_hits[1]} h2=${entry_hits[2]}
	run bpftool link attach tracing_multi pinned "$progdir/tm_entry" "$dir/link" \
		func bpf_fentry_test1 cookie 1 func bpf_fentry_test2 cookie 2
	[ "$status" -eq 0 ]
	# the new link, as link show heads it, and where it is pinned
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "$(pinned_id link "$dir/link"): tracing_multi  prog $(pinned_id prog "$progdir/tm_entry")  attach_type trace_fentry_multi  func_cnt 2" ]
	[ "${lines[1]}" = $'\t'"pinned $dir/link" ]
	run prog_run "$progdir/tm_entry"
	[ "$status" -eq 0 ]
	snap
	[ "${entry_hits[1]}" -eq $((h1 + 1)) ]
	[ "${entry_hits[2]}" -eq $((h2 + 1)) ]
	[ "${entry_arg0[1]}" -eq 1 ]   # bpf_fentry_test1(1)
	[ "${entry_arg0[2]}" -eq 2 ]   # bpf_fentry_test2(2, 3)
	run -0 bpftool -j link show pinned "$dir/link"
	echo "$output"
	jq -e '.type == "tracing_multi" and .attach_type == "trace_fentry_multi" and .func_cnt == 2' <<<"$output"
	jq -e '[.funcs[] | {func: .func, cookie: .cookie}] | sort_by(.func) == [
		{"func": "bpf_fentry_test1", "cookie": 1}, {"func": "bpf_fentry_test2", "cookie": 2}]' <<<"$output"
}

@test "an fsession.multi program: entry and exit of each function with its session cookie; link show names trace_fsession_multi" {
	local e3 x3 e4 x4
	snap
	e3=${session_entries[3]} x3=${session_exits[3]} e4=${session_entries[4]} x4=${session_exits[4]}
	run bpftool link attach tracing_multi pinned "$progdir/tm_session" "$dir/link" \
		func bpf_fentry_test1 cookie 3 func bpf_fentry_test2 cookie 4
	[ "$status" -eq 0 ]
	[[ ${lines[0]} =~ ^[0-9]+:\ tracing_multi\ \ prog\ [0-9]+\ \ attach_type\ trace_fsession_multi\ \ func_cnt\ 2$ ]]
	run prog_run "$progdir/tm_session"
	[ "$status" -eq 0 ]
	snap
	[ "${session_entries[3]}" -eq $((e3 + 1)) ]
	[ "${session_exits[3]}" -eq $((x3 + 1)) ]
	[ "${session_entries[4]}" -eq $((e4 + 1)) ]
	[ "${session_exits[4]}" -eq $((x4 + 1)) ]
	run -0 bpftool -j link show pinned "$dir/link"
	echo "$output"
	jq -e '.type == "tracing_multi" and .attach_type == "trace_fsession_multi" and .func_cnt == 2' <<<"$output"
	run -0 bpftool link show pinned "$dir/link"
	echo "$output"
	[[ ${lines[1]} == $'\t'"attach_type trace_fsession_multi  btf_obj_id $(vmlinux_btf_obj_id)  count 2  "* ]]
}

@test "pattern GLOB with -j: the link exactly as bpftool -f -j link show prints it, and what it skipped" {
	local h0 attach
	snap
	h0=${entry_hits[0]}
	run -0 bpftool -j link attach tracing_multi name tm_entry "$dir/link" pattern 'bpf_fentry_test?'
	echo "$output"
	attach=$output
	jq -e --arg p "$dir/link" --argjson id "$(pinned_id link "$dir/link")" \
		--argjson prog "$(pinned_id prog "$progdir/tm_entry")" --argjson obj "$(vmlinux_btf_obj_id)" \
		'keys_unsorted == ["id", "type", "prog_id", "attach_type", "func_cnt", "btf_obj_id", "funcs",
			"pinned", "skipped"] and
		 .id == $id and .type == "tracing_multi" and .prog_id == $prog and
		 .attach_type == "trace_fentry_multi" and .func_cnt == 9 and .btf_obj_id == $obj and
		 .pinned == [$p] and .skipped == [] and (.funcs | length) == 9' <<<"$output"
	# the same document, text for text, as bpftool -f -j link show prints
	# for the link, with skipped after it
	run -0 bpftool -j -f link show pinned "$dir/link"
	[ "${attach%',"skipped":[]}'}" = "${output%'}'}" ]
	run prog_run "$progdir/tm_entry"
	# bpf_fentry_test1..9, cookie 0; not bpf_fentry_test10
	snap
	[ "${entry_hits[0]}" -eq $((h0 + 9)) ]
	run -0 bpftool -j link show pinned "$dir/link"
	jq -e '[.funcs[].func] | sort == ["bpf_fentry_test1", "bpf_fentry_test2", "bpf_fentry_test3",
		"bpf_fentry_test4", "bpf_fentry_test5", "bpf_fentry_test6", "bpf_fentry_test7",
		"bpf_fentry_test8", "bpf_fentry_test9"]' <<<"$output"
}

@test "btf_id ID cookie U64, program given by tag" {
	local id h3 tag
	id=$(btf_id bpf_fentry_test3)
	tag=$(bpftool -j prog show pinned "$progdir/tm_entry" | jq -r .tag)
	snap
	h3=${entry_hits[3]}
	bpftool link attach tracing_multi tag "$tag" "$dir/link" btf_id "$id" cookie 3
	prog_run "$progdir/tm_entry"
	snap
	[ "${entry_hits[3]}" -eq $((h3 + 1)) ]
	[ "${entry_arg0[3]}" -eq 4 ]   # bpf_fentry_test3(4, 5, 6)
	run -0 bpftool -j link show pinned "$dir/link"
	jq -e --argjson id "$id" '[.funcs[] | {id: .id, func: .func, module: .module, cookie: .cookie}] ==
		[{"id": $id, "func": "bpf_fentry_test3", "module": null, "cookie": 3}]' <<<"$output"
}

@test "funcs FILE (comments, hex cookie, no cookie) and funcs - (stdin)" {
	local h0 h5 h6 h7 e7
	snap
	h0=${entry_hits[0]} h5=${entry_hits[5]} h6=${entry_hits[6]} h7=${entry_hits[7]}
	e7=${exit_hits[7]}
	printf '%s\n' '# name cookie' 'bpf_fentry_test5 5   # five' '' 'bpf_fentry_test6	0x6' \
		bpf_fentry_test8 >"$BATS_TEST_TMPDIR/funcs"
	bpftool link attach tracing_multi name tm_entry "$dir/link1" funcs "$BATS_TEST_TMPDIR/funcs"
	echo bpf_fentry_test7 7 | bpftool link attach tracing_multi name tm_exit "$dir/link2" funcs -
	prog_run "$progdir/tm_entry"
	snap
	[ "${entry_hits[5]}" -eq $((h5 + 1)) ]
	[ "${entry_arg0[5]}" -eq 11 ]  # bpf_fentry_test5(11, ...)
	[ "${entry_hits[6]}" -eq $((h6 + 1)) ]
	[ "${entry_arg0[6]}" -eq 16 ]  # bpf_fentry_test6(16, ...)
	[ "${entry_hits[0]}" -eq $((h0 + 1)) ]   # bpf_fentry_test8, no cookie
	[ "${entry_hits[7]}" -eq "$h7" ]
	[ "${exit_hits[7]}" -eq $((e7 + 1)) ]
	[ "${exit_ret[7]}" -eq 0 ]     # bpf_fentry_test7 returns 0
	run -0 bpftool -j link show pinned "$dir/link2"
	jq -e '.attach_type == "trace_fexit_multi" and .funcs[0].func == "bpf_fentry_test7" and .funcs[0].cookie == 7' <<<"$output"
}

@test "fexit.multi: the program sees the return value" {
	local e1
	snap
	e1=${exit_hits[1]}
	bpftool link attach tracing_multi name tm_exit "$dir/link" func bpf_fentry_test1 cookie 1
	prog_run "$progdir/tm_exit"
	snap
	[ "${exit_hits[1]}" -eq $((e1 + 1)) ]
	[ "${exit_ret[1]}" -eq 2 ]     # bpf_fentry_test1(1) returns 2
	run -0 bpftool link show pinned "$dir/link"
	[[ ${lines[1]} =~ ^[[:space:]]attach_type\ trace_fexit_multi\ \ btf_obj_id\ [0-9]+\ \ count\ 1\ \ $ ]]
}

@test "largest cookie, and link detach id on an attached link" {
	local id
	bpftool link attach tracing_multi name tm_entry "$dir/link" func bpf_fentry_test9 cookie 18446744073709551615 \
		func bpf_fentry_test10 cookie 0xffffffffffffffff
	run -0 bpftool -j link show pinned "$dir/link"
	jq -e '[.funcs[].cookie] == [18446744073709551615, 18446744073709551615]' <<<"$output"
	run -0 bpftool link show pinned "$dir/link"
	grep -Eq $'^\t[0-9]+ +[0-9a-f]{16} 18446744073709551615 bpf_fentry_test9$' <<<"$output"
	id=$(pinned_id link "$dir/link")
	bpftool link detach id "$id"
	run -0 bpftool -j link show id "$id"
	jq -e '.func_cnt == 0' <<<"$output"
}

@test "MODULE: prefix, with a program loaded for bpf_testmod" {
	local hits sum
	testmod_load
	bpftool prog loadall "$PROGS/link_attach_mod.bpf.o" "$dir/mod" pinmaps "$dir/mod/maps"
	# a module pattern, in a dry run: the module's functions it matches
	run -0 bpftool -j link attach tracing_multi name tm_mod "$dir/err" pattern 'bpf_testmod:bpf_testmod_fentry_test?' dryrun
	echo "$output"
	jq -e --argjson obj "$(bpftool -j btf show | jq -e '.[] | select(.name == "bpf_testmod") | .id')" \
		'.btf_obj_id == $obj and all(.funcs[].module; . == "bpf_testmod") and ([.funcs[].func] | contains(["bpf_testmod_fentry_test1",
		"bpf_testmod_fentry_test2", "bpf_testmod_fentry_test3"])) and
		all(.funcs[].func; test("^bpf_testmod_fentry_test.$"))' <<<"$output"
	[ ! -e "$dir/err" ]
	bpftool link attach tracing_multi name tm_mod "$dir/link" func bpf_testmod:bpf_testmod_fentry_test1 \
		func bpf_testmod:bpf_testmod_fentry_test2 func bpf_testmod:bpf_testmod_fentry_test3 cookie 3
	run -0 bpftool -j link show pinned "$dir/link"
	echo "$output"
	jq -e '[.funcs[] | {func: .func, module: .module, cookie: .cookie}] | sort_by(.func) == [
		{"func": "bpf_testmod_fentry_test1", "module": "bpf_testmod", "cookie": 0},
		{"func": "bpf_testmod_fentry_test2", "module": "bpf_testmod", "cookie": 0},
		{"func": "bpf_testmod_fentry_test3", "module": "bpf_testmod", "cookie": 3}]' <<<"$output"
	run -0 bpftool link show pinned "$dir/link"
	grep -Eq $'^\t[0-9]+ +[0-9a-f]{16} 3 +bpf_testmod_fentry_test3 \\[bpf_testmod\\]$' <<<"$output"
	# a read of /sys/kernel/bpf_testmod calls them with 1, 2 and 4 first
	head -c 1 /sys/kernel/bpf_testmod >/dev/null 2>&1 || true
	hits=$(bss_var "$(pinned_map "$dir/mod/maps" bss)" hits)
	sum=$(bss_var "$(pinned_map "$dir/mod/maps" bss)" arg_sum)
	[ "$hits" -eq 3 ]
	[ "$sum" -eq 7 ]
	refused "function 'bpf_fentry_test1' has no module prefix, but program 'tm_mod' was loaded for module bpf_testmod" \
		link attach tracing_multi name tm_mod "$dir/err" func bpf_fentry_test1
	refused "function 'bpf_testmod:bpf_testmod_fentry_test1' is in module bpf_testmod, but program 'tm_entry' was loaded for vmlinux" \
		link attach tracing_multi name tm_entry "$dir/err" func bpf_testmod:bpf_testmod_fentry_test1
	refused "function 'vmlinux:bpf_fentry_test1' is in vmlinux, but program 'tm_mod' was loaded for module bpf_testmod" \
		link attach tracing_multi name tm_mod "$dir/err" func vmlinux:bpf_fentry_test1
	# the program is attached to them already: a pattern can't take them
	refused "program 'tm_mod' is already attached to function 'bpf_testmod_fentry_test3' by link $(pinned_id link "$dir/link")" \
		link attach tracing_multi name tm_mod "$dir/err" pattern 'bpf_testmod:bpf_testmod_fentry_test?' dryrun
}

@test "prog loadall autoattach: fentry.multi and fexit.multi sections attach, links pinned" {
	bpftool prog loadall "$PROGS/link_attach_auto.bpf.o" "$dir/auto" autoattach pinmaps "$dir/auto/maps"
	run -0 bpftool -j link show pinned "$dir/auto/auto_entry"
	echo "$output"
	jq -e '.type == "tracing_multi" and .attach_type == "trace_fentry_multi" and
		([.funcs[].func] | sort) == ["bpf_fentry_test1", "bpf_fentry_test10"]' <<<"$output"
	run -0 bpftool -j link show pinned "$dir/auto/auto_exit"
	jq -e '.attach_type == "trace_fexit_multi" and [.funcs[].func] == ["bpf_fentry_test2"]' <<<"$output"
	prog_run "$dir/auto/auto_entry"
	[ "$(bss_var "$(pinned_map "$dir/auto/maps" bss)" entry_hits)" -eq 2 ]
	[ "$(bss_var "$(pinned_map "$dir/auto/maps" bss)" exit_hits)" -eq 1 ]
}

@test "feature probe -j reports the tracing_multi link (and its absence)" {
	# (the plain line: 10-bpftool.bats, which runs that probe already)
	run -0 bpftool -j feature probe kernel
	jq -e '.misc.have_tracing_multi_link == true' <<<"$output"
	run env LD_PRELOAD="$PROGS/lib/fake_kernel.so" FAKE_KERNEL=no_tracing_multi \
		bpftool -j feature probe kernel
	jq -e '.misc.have_tracing_multi_link == false' <<<"$output"
}

@test "numbers as the man page says: cookies decimal (leading zeros too) or 0x hex, never octal" {
	bpftool link attach tracing_multi name tm_entry "$dir/link" func bpf_fentry_test1 cookie 010 \
		func bpf_fentry_test2 cookie 0x10 func bpf_fentry_test3 cookie 0X1f
	run -0 bpftool -j link show pinned "$dir/link"
	jq -e '[.funcs[] | {func, cookie}] | sort_by(.func) == [
		{"func": "bpf_fentry_test1", "cookie": 10}, {"func": "bpf_fentry_test2", "cookie": 16},
		{"func": "bpf_fentry_test3", "cookie": 31}]' <<<"$output"
}

@test "patterns match what libbpf's SEC(\"fentry.multi/GLOB\") matches: '*' and '?', no classes; vmlinux: prefix" {
	local want
	# link_attach_auto.bpf.c's SEC("fentry.multi/bpf_fentry_test1*"),
	# attached by libbpf
	bpftool prog loadall "$PROGS/link_attach_auto.bpf.o" "$dir/auto" autoattach pinmaps "$dir/auto/maps"
	want=$(bpftool -j link show pinned "$dir/auto/auto_entry" | jq -c '[.funcs[].func] | sort')
	run -0 bpftool -j link attach tracing_multi name tm_entry "$dir/err" pattern 'bpf_fentry_test1*' dryrun
	jq -e --argjson w "$want" '[.funcs[].func] | sort == $w' <<<"$output"
	run -0 bpftool -j link attach tracing_multi name tm_entry "$dir/err" pattern 'vmlinux:bpf_fentry_test?' dryrun
	jq -e '[.funcs[].func] | length == 9' <<<"$output"
	# brackets are no class for libbpf, so none for bpftool either
	refused "pattern 'bpf_fentry_test[12]' matches no function of vmlinux BTF" \
		link attach tracing_multi name tm_entry "$dir/err" pattern 'bpf_fentry_test[12]'
	bpftool link attach tracing_multi name tm_entry "$dir/link" func vmlinux:bpf_fentry_test5
	run -0 bpftool -j link show pinned "$dir/link"
	jq -e '[.funcs[].func] == ["bpf_fentry_test5"]' <<<"$output"
}

@test "dryrun: what would be attached and what is left out, plain and JSON; nothing attached or pinned" {
	local before
	before=$(traced_funcs)
	run -0 bpftool -j link attach tracing_multi name tm_entry "$dir/link" func bpf_fentry_test1 cookie 7 \
		pattern "$KREFUSED_GLOB" pattern 'migrate_*able' dryrun
	echo "$output"
	[ "$status" -eq 0 ]
	jq -e --argjson obj "$(vmlinux_btf_obj_id)" --argjson prog "$(pinned_id prog "$progdir/tm_entry")" \
		--argjson t1 "$(btf_id bpf_fentry_test1)" --arg k1 "${KREFUSED[0]}" --arg k2 "${KREFUSED[1]}" \
		--arg kerr "$KREFUSED_ERR" '
		del(.skipped, .funcs[0].addr) == {"type": "tracing_multi", "prog_id": $prog,
			"attach_type": "trace_fentry_multi", "func_cnt": 1, "btf_obj_id": $obj,
			"funcs": [{"id": $t1, "func": "bpf_fentry_test1", "module": null, "cookie": 7}],
			"dryrun": true} and
		([.skipped[] | {func, reason, error}] | sort_by(.func)) == ([
			{"func": $k1, "reason": "refused", "error": $kerr},
			{"func": $k2, "reason": "refused", "error": $kerr},
			{"func": "migrate_disable", "reason": "refused", "error": "Invalid argument"},
			{"func": "migrate_enable", "reason": "refused", "error": "Invalid argument"}] | sort_by(.func))' <<<"$output"
	# the address the link would have: the function's ftrace location, exact
	[[ $output == *'"addr":'"$(printf %u "0x$(ftrace_addr bpf_fentry_test1)")"',"func":"bpf_fentry_test1"'* ]]
	run -0 bpftool link attach tracing_multi name tm_entry "$dir/link" func bpf_fentry_test1 cookie 7 \
		pattern "$KREFUSED_GLOB" pattern 'migrate_*able' dryrun
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "dryrun: prog $(pinned_id prog "$progdir/tm_entry")  attach_type trace_fentry_multi  func_cnt 1" ]
	[ "${lines[1]}" = $'\t'"would pin $dir/link" ]
	[[ ${lines[3]} =~ ^$'\t'[0-9]+\ +7\ +bpf_fentry_test1$ ]]
	[ "${lines[4]}" = $'\tskipped 4' ]
	grep -Eq "^"$'\t'"[0-9]+ +${KREFUSED[0]} +refused " <<<"$output"
	grep -F "refused ($KREFUSED_ERR)" <<<"$output" | grep -qF "${KREFUSED[0]}"
	grep -Eq $'^\t[0-9]+ +migrate_disable +refused \\(Invalid argument\\)$' <<<"$output"
	[ ! -e "$dir/link" ]
	[ "$(traced_funcs)" -eq "$before" ]
}

@test "pinning as bpftool pins: bpffs mounted on an empty directory, -n refuses to, a failed pin leaves no link" {
	local mnt=$BATS_TEST_TMPDIR/mnt before long
	mkdir -p "$mnt/a" "$mnt/b"
	before=$(traced_funcs)
	bpftool link attach tracing_multi name tm_entry "$mnt/a/link" func bpf_fentry_test6
	[ "$(stat -f -c %T "$mnt/a")" = bpf_fs ]
	run -0 bpftool -j link show pinned "$mnt/a/link"
	jq -e '[.funcs[].func] == ["bpf_fentry_test6"]' <<<"$output"
	rm "$mnt/a/link"
	umount "$mnt/a"
	refused "no BPF file system found, not mounting it due to --nomount option" \
		-n link attach tracing_multi name tm_entry "$mnt/b/link" func bpf_fentry_test6
	[ "$(stat -f -c %T "$mnt/b")" != bpf_fs ]
	# a pin bpf(BPF_OBJ_PIN) refuses once the link exists: the link is
	# closed, so nothing stays attached
	long=$(printf 'l%.0s' {1..300})
	refused "can't pin the link at '$dir/$long': File name too long" \
		link attach tracing_multi name tm_entry "$dir/$long" func bpf_fentry_test6
	traced_as_before() { [ "$(traced_funcs)" -eq "$before" ]; }
	eventually traced_as_before
}

@test "a pin path in a directory with files: refused before attaching, no bpffs mounted over them" {
	local d=$BATS_TEST_TMPDIR/mnt/full before
	mkdir -p "$d"
	echo kept >"$d/file"
	before=$(traced_funcs)
	refused "can't pin BPF object: dir '$d' is not on a BPF file system and not empty, and mounting bpffs there would hide its files; pin it under /sys/fs/bpf, or in an empty directory" \
		link attach tracing_multi name tm_entry "$d/link" func bpf_fentry_test6
	refused "can't pin BPF object: dir '$d' is not on a BPF file system and not empty" \
		link attach tracing_multi name tm_entry "$d/link" func bpf_fentry_test6 dryrun
	# the files are still there, nothing mounted or pinned, nothing attached
	[ "$(stat -f -c %T "$d")" != bpf_fs ]
	[ "$(cat "$d/file")" = kept ]
	[ "$(ls -A "$d")" = file ]
	[ ! -e "$d/link" ]
	[ "$(traced_funcs)" -eq "$before" ]
}

@test "unpinning the only reference detaches the link" {
	local id
	bpftool link attach tracing_multi name tm_entry "$dir/link" func bpf_fentry_test1
	id=$(pinned_id link "$dir/link")
	grep -q '^bpf_fentry_test1 ' /sys/kernel/tracing/enabled_functions
	rm "$dir/link"
	# the last reference goes from a deferred work item
	eventually link_gone "$id"
	run ! bpftool link show id "$id"
	run ! grep -q '^bpf_fentry_test1 ' /sys/kernel/tracing/enabled_functions
}
