#!/usr/bin/env bats
# shellcheck disable=SC2154 # dir, progdir, bss, snap's arrays: tests/link_attach.bash
# bpftool link attach tracing_multi refuses: every error, in the command
# and from the kernel, gives bpftool's exit status, a message naming what
# was wrong and what would be right, one JSON document with -j, and leaves
# no new link and nothing pinned (refused, tests/link_attach.bash).

load helpers
load link_attach
bats_require_minimum_version 1.5.0

@test "a caller without CAP_SYS_ADMIN is told it lacks the privileges, not that the kernel lacks the link" {
	local msg="no permission to attach tracing programs: link attach tracing_multi needs CAP_SYS_ADMIN (BPF programs, links and BTF are looked up by id), or root"
	local caps priv id
	# no capability, and CAP_BPF + CAP_PERFMON (enough to load and attach
	# a tracing program, not to look objects up by id)
	for caps in "" ",+bpf,+perfmon"; do
		priv=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps="-all$caps"
			--ambient-caps="-all$caps" --bounding-set="-all$caps")
		run -255 "${priv[@]}" bpftool link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1
		echo "$output"
		[ "$output" = "Error: $msg" ]
		run -255 "${priv[@]}" bpftool -j link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1
		jq -e -s --arg msg "$msg" 'length == 1 and .[0].error == $msg' <<<"$output"
		[ ! -e "$dir/err" ]
	done
	# CAP_SYS_ADMIN is enough (with CAP_DAC_OVERRIDE to pin in root's directory)
	caps=",+sys_admin,+dac_override"
	priv=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps="-all$caps"
		--ambient-caps="-all$caps" --bounding-set="-all$caps")
	run -0 "${priv[@]}" bpftool -j link attach tracing_multi name tm_entry "$dir/link" func bpf_fentry_test1
	id=$(jq -e '.id' <<<"$output")
	run -0 bpftool -j link show pinned "$dir/link"
	jq -e --argjson id "$id" '.id == $id and [.funcs[].func] == ["bpf_fentry_test1"]' <<<"$output"
}

# Each form of PROG (id, tag, name, pinned) failing: bpftool's
# prog_parse_fd() says nothing when no program has the name or tag.
@test "a PROG that names no program, or several, or not a program, is said so" {
	local list="'bpftool prog show' lists the loaded programs" ids map
	refused "no loaded program has id 999999; $list" \
		link attach tracing_multi id 999999 "$dir/err" func bpf_fentry_test1
	refused "can't parse 'x1' as a program id: want a number; $list" \
		link attach tracing_multi id x1 "$dir/err" func bpf_fentry_test1
	refused "no loaded program has name 'syscount': load it first (bpftool prog load, or its loader), or check the name; $list" \
		link attach tracing_multi name syscount "$dir/err" func vfs_read
	refused "no loaded program has tag '0000000000000000': load it first (bpftool prog load, or its loader), or check the tag; $list" \
		link attach tracing_multi tag 0000000000000000 "$dir/err" func vfs_read
	refused "can't parse '00112233' as a program tag: want 16 hex digits; $list" \
		link attach tracing_multi tag 00112233 "$dir/err" func vfs_read
	refused "'$(printf 'n%.0s' {1..128})' is too long for a program name (at most 127 characters)" \
		link attach tracing_multi name "$(printf 'n%.0s' {1..128})" "$dir/err" func vfs_read
	refused "expected PROG as id ID, tag TAG, name NAME or pinned FILE, got 'prog'" \
		link attach tracing_multi prog tm_entry "$dir/err" func vfs_read
	refused "nothing is pinned at '$dir/nosuch': a pinned program's path in bpffs (/sys/fs/bpf) is wanted" \
		link attach tracing_multi pinned "$dir/nosuch" "$dir/err" func vfs_read
	refused "'/etc/hostname' is not in a bpf file system: a pinned program's path in bpffs (/sys/fs/bpf) is wanted" \
		link attach tracing_multi pinned /etc/hostname "$dir/err" func vfs_read
	map=$(find "$dir/maps" -mindepth 1 -maxdepth 1 | head -n 1)
	refused "'$map' is a pinned map, not a program" \
		link attach tracing_multi pinned "$map" "$dir/err" func vfs_read
	run -0 bpftool link attach tracing_multi name tm_entry "$dir/link" func bpf_fentry_test1
	refused "'$dir/link' is a pinned link, not a program" \
		link attach tracing_multi pinned "$dir/link" "$dir/err" func vfs_read
	# the same object loaded twice: every name is had by two programs
	bpftool prog loadall "$PROGS/link_attach.bpf.o" "$dir/progs2"
	ids="$(pinned_id prog "$progdir/tm_entry"), $(pinned_id prog "$dir/progs2/tm_entry")"
	refused "2 loaded programs have name 'tm_entry' (ids $ids): give one by id" \
		link attach tracing_multi name tm_entry "$dir/err" func vfs_read
	refused "2 loaded programs have tag '$(bpftool -j prog show pinned "$progdir/tm_entry" | jq -r .tag)' (ids $ids): give one by id" \
		link attach tracing_multi tag "$(bpftool -j prog show pinned "$progdir/tm_entry" | jq -r .tag)" "$dir/err" func vfs_read
	rm -r "$dir/progs2"
}

# 32 refused commands, each run plain and with -j: 61 s on a fast
# machine.
# bats test_tags=timeout:1200
@test "errors in the command: program, targets, cookies, pin path" {
	refused "program 'not_tracing' (id $(pinned_id prog "$progdir/not_tracing")) has type 'kprobe'; tracing_multi needs a 'tracing' program with attach type trace_fentry_multi, trace_fexit_multi or trace_fsession_multi" \
		link attach tracing_multi name not_tracing "$dir/err" func bpf_fentry_test1
	refused "program 'single_fentry' (id $(pinned_id prog "$progdir/single_fentry")) is a tracing program for the single function 'bpf_fentry_test1' (fentry, fexit, fsession, fmod_ret, ...); tracing_multi needs a 'tracing' program with attach type trace_fentry_multi, trace_fexit_multi or trace_fsession_multi" \
		link attach tracing_multi name single_fentry "$dir/err" func bpf_fentry_test1
	refused "pattern 'nosuch_*' matches no function of vmlinux BTF" \
		link attach tracing_multi name tm_entry "$dir/err" pattern 'nosuch_*'
	refused "unknown function 'nosuch_func': not in vmlinux BTF" \
		link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1 func nosuch_func
	# a quote and a backslash in what the user typed: still one JSON document
	refused "pattern 'no\"such\\*' matches no function of vmlinux BTF" \
		link attach tracing_multi name tm_entry "$dir/err" pattern 'no"such\*'
	refused "BTF id 1 of vmlinux is int '" \
		link attach tracing_multi name tm_entry "$dir/err" btf_id 1
	refused "BTF id '0x10' is not a decimal number" \
		link attach tracing_multi name tm_entry "$dir/err" btf_id 0x10
	refused "function 'bpf_fentry_test1' is given more than once" \
		link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1 pattern 'bpf_fentry_test?'
	refused "cookie 'abc' of function 'bpf_fentry_test1' is not an unsigned 64-bit number (decimal, or hex with 0x)" \
		link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1 cookie abc
	refused "cookie '18446744073709551616' of function 'bpf_fentry_test1' is not an unsigned 64-bit number" \
		link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1 cookie 18446744073709551616
	refused "cookie ' 1' of function 'bpf_fentry_test1' is not an unsigned 64-bit number" \
		link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1 cookie ' 1'
	refused "'cookie' needs a value" \
		link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1 cookie
	local f=$BATS_TEST_TMPDIR/funcs
	refused_funcs 'bpf_fentry_test1 1\nbpf_fentry_test2 -2\n' \
		"$f:2: cookie '-2' of function 'bpf_fentry_test2' is not an unsigned 64-bit number"
	refused_funcs 'bpf_fentry_test1 1 2\n' "$f:1: expected 'NAME [COOKIE]', found more after the cookie: '2'"
	refused_funcs 'nosuch_func\n' "$f:1: unknown function 'nosuch_func': not in vmlinux BTF"
	refused_funcs '# nothing\n' "functions file '$f' lists no function"
	refused "can't open functions file '/nonexistent': No such file or directory" \
		link attach tracing_multi name tm_entry "$dir/err" funcs /nonexistent
	refused "expected pattern GLOB, func NAME [cookie U64], btf_id ID [cookie U64], funcs FILE or dryrun, got: 'function'" \
		link attach tracing_multi name tm_entry "$dir/err" function bpf_fentry_test1
	# the grammar of bpftool 6.12's first version of this command
	refused "expected pattern GLOB, func NAME [cookie U64], btf_id ID [cookie U64], funcs FILE or dryrun, got: 'pinned' (the pin path comes right after PROG; a function's BTF id is 'btf_id ID')" \
		link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1 pinned "$dir/err2"
	refused "expected pattern GLOB, func NAME [cookie U64], btf_id ID [cookie U64], funcs FILE or dryrun, got: 'id' (the pin path comes right after PROG" \
		link attach tracing_multi name tm_entry "$dir/err" id 5
	refused "expected the link's pin path FILE after PROG, got 'func' (to pin at a file of that name, write ./func)" \
		link attach tracing_multi name tm_entry func bpf_fentry_test1
	refused "'func' needs an argument" \
		link attach tracing_multi name tm_entry "$dir/err" func
	refused "no function given after the pin path: add pattern GLOB, func NAME, btf_id ID or funcs FILE" \
		link attach tracing_multi name tm_entry "$dir/err" dryrun
	refused "'tracing_multi' needs at least 3 arguments, 2 found" \
		link attach tracing_multi name tm_entry
	refused "expected a link type to attach: tracing_multi" link attach
	refused "can't pin BPF object: dir '/sys/fs/bpf/nosuchdir' doesn't exist" \
		link attach tracing_multi name tm_entry /sys/fs/bpf/nosuchdir/err func bpf_fentry_test1
	bpftool link attach tracing_multi name tm_entry "$dir/link" func bpf_fentry_test1
	refused "can't pin BPF object: path '$dir/link' already exists" \
		link attach tracing_multi name tm_exit "$dir/link" func bpf_fentry_test2
	refused "can't pin BPF object: path '$dir/link' already exists" \
		link attach tracing_multi name tm_exit "$dir/link" func bpf_fentry_test2 dryrun
	# the link already pinned there is untouched
	run -0 bpftool -j link show pinned "$dir/link"
	jq -e '.attach_type == "trace_fentry_multi" and [.funcs[].func] == ["bpf_fentry_test1"]' <<<"$output"
}

@test "patterns with nothing attachable, a prototype, a BTF id past the last: each said exactly" {
	local last
	# bpftool sees it: set_debug_rodata (__init) has no ftrace location
	refused "the patterns match 1 functions of vmlinux, none of them attachable ('set_debug_rodata': no_ftrace_location): add dryrun to the command to list them with the reasons" \
		link attach tracing_multi name tm_entry "$dir/err" pattern 'set_debug_rodat?'
	# only the kernel sees it: both functions the glob matches are refused
	refused "the kernel refuses every function the patterns match" \
		link attach tracing_multi name tm_entry "$dir/err" pattern "$KREFUSED_GLOB"
	# variadic: no BPF trampoline takes it (12 arguments: MAX_BPF_FUNC_ARGS)
	refused "function '_printk' has a prototype a BPF trampoline can't handle (more than 12 arguments, a variadic one, one larger than 16 bytes, or a struct returned by value)" \
		link attach tracing_multi name tm_entry "$dir/err" func _printk
	last=$(bpftool btf dump file /sys/kernel/btf/vmlinux | sed -n 's/^\[\([0-9]*\)\].*/\1/p' | tail -n 1)
	refused "BTF id $((last + 1)) is not a type of vmlinux BTF (ids 1 to $last)" \
		link attach tracing_multi name tm_entry "$dir/err" btf_id $((last + 1))
}

@test "functions the kernel refuses are named, with the reason, and nothing stays attached" {
	refused "function 'set_debug_rodata' is not traceable: it has no ftrace location" \
		link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1 func bpf_fentry_test2 func set_debug_rodata
	# the verifier's deny and noreturn lists: the kernel's answer, no copy
	refused "the kernel refuses function 'migrate_disable' (Invalid argument): the verifier denies it to tracing programs (BPF trampolines call it themselves)" \
		link attach tracing_multi name tm_entry "$dir/err" func migrate_disable func bpf_fentry_test1
	refused "the kernel refuses function 'do_exit' (Invalid argument): the verifier denies it to tracing programs (BPF trampolines call it themselves), or it never returns, so an fexit program can't be attached to it" \
		link attach tracing_multi name tm_exit "$dir/err" func bpf_fentry_test1 func do_exit
	refused "the kernel refuses function 'do_exit' (Invalid argument): the verifier denies it to tracing programs (BPF trampolines call it themselves), or it never returns, so an fsession program can't be attached to it" \
		link attach tracing_multi name tm_session "$dir/err" func bpf_fentry_test2 func do_exit
	refused "function 'bpf_fentry_test2' may not sleep, so a sleepable program (fentry.multi.s, fexit.multi.s, fsession.multi.s) can't be attached to it (Invalid argument)" \
		link attach tracing_multi name tm_sleepable "$dir/err" func bpf_fentry_test1 func bpf_fentry_test2
	bpftool link attach tracing_multi name tm_entry "$dir/link" func bpf_fentry_test4
	refused "program 'tm_entry' is already attached to function 'bpf_fentry_test4' by link $(pinned_id link "$dir/link")" \
		link attach tracing_multi name tm_entry "$dir/err" pattern 'bpf_fentry_test?'
	# nothing of the refused attempts is left on the traced functions
	run grep -c '^bpf_fentry_test[1235] ' /sys/kernel/tracing/enabled_functions
	[ "$output" -eq 0 ]
}

@test "a refused attach never runs the program: what the kernel refuses is found with a throwaway one" {
	# vfs_read and vfs_write run all the time (bpftool itself reads and
	# writes); ${KREFUSED[0]} is refused by the kernel only (helpers.bash).
	# Finding that by attaching the user's program to halves of the set
	# would count calls.
	local h
	snap
	h=${entry_hits[40]}
	refused "$KREFUSED_MSG" \
		link attach tracing_multi name tm_entry "$dir/err" func vfs_read cookie 40 \
		func vfs_write cookie 40 func "${KREFUSED[0]}" cookie 40
	# and a dry run of the same set
	run -0 bpftool link attach tracing_multi name tm_entry "$dir/err" func vfs_read cookie 40 \
		func vfs_write cookie 40 pattern "$KREFUSED_GLOB" dryrun
	echo "$output"
	[ "$status" -eq 0 ]
	snap
	[ "${entry_hits[40]}" -eq "$h" ]
	[ ! -e "$dir/err" ]
}

@test "a function holding the most programs a trampoline takes: E2BIG named" {
	# 38 programs (BPF_MAX_TRAMP_LINKS on x86) on bpf_fentry_test1
	mkdir -p "$dir/fill"
	run fill_tramp bpf_fentry_test1 "$dir/fill"
	[ "$status" -eq 0 ]
	[ "$output" -eq 38 ]
	refused "function 'bpf_fentry_test1' has too many BPF programs attached: a trampoline holds at most 38 (Argument list too long)" \
		link attach tracing_multi name tm_entry "$dir/err" pattern 'bpf_fentry_test?'
	# the limit is per function: bpf_fentry_test3 still takes the program
	bpftool link attach tracing_multi name tm_entry "$dir/link" func bpf_fentry_test3
}

@test "a kernel without the tracing_multi link is named as such" {
	local msg
	msg="kernel $(uname -r) has no tracing_multi link (fentry.multi, fexit.multi, fsession.multi programs): it needs Linux 7.2, or a kernel with the tracing_multi backport"
	# a multi program, and what such a kernel has instead (named so rather
	# than as the wrong kind of program)
	LD_PRELOAD="$PROGS/lib/fake_kernel.so" FAKE_KERNEL=no_tracing_multi \
		refused "$msg" link attach tracing_multi name tm_entry "$dir/err" func bpf_fentry_test1
	LD_PRELOAD="$PROGS/lib/fake_kernel.so" FAKE_KERNEL=no_tracing_multi \
		refused "$msg" link attach tracing_multi name single_fentry "$dir/err" func bpf_fentry_test1
}

@test "pattern: functions the kernel still refuses are skipped, named on stderr and in JSON" {
	# KREFUSED (helpers.bash): functions bpftool's own checks take and the
	# kernel refuses (x86_64: ENOENT although ftrace lists them; arm64:
	# ENOTSUPP)
	run --separate-stderr bpftool link attach tracing_multi name tm_entry "$dir/link1" \
		pattern "$KREFUSED_GLOB" func bpf_fentry_test1
	# shellcheck disable=SC2154 # set by run --separate-stderr
	echo "$stderr"
	[ "$status" -eq 0 ]
	grep -qxF "skipping function '${KREFUSED[0]}' matched by a pattern: the kernel refuses it ($KREFUSED_ERR)" <<<"$stderr"
	grep -qxF "skipping function '${KREFUSED[1]}' matched by a pattern: the kernel refuses it ($KREFUSED_ERR)" <<<"$stderr"
	run -0 bpftool -j link show pinned "$dir/link1"
	jq -e '[.funcs[].func] == ["bpf_fentry_test1"]' <<<"$output"
	run -0 bpftool -j link attach tracing_multi name tm_exit "$dir/link2" pattern "$KREFUSED_GLOB" \
		func bpf_fentry_test1
	echo "$output"
	jq -e --arg k1 "${KREFUSED[0]}" --arg k2 "${KREFUSED[1]}" \
		'.func_cnt == 1 and ([.skipped[].func] | sort) == ([$k1, $k2] | sort)' <<<"$output"
	# named explicitly, the same function is an error
	refused "$KREFUSED_MSG" \
		link attach tracing_multi name tm_sleepable "$dir/err" func "${KREFUSED[0]}"
}
