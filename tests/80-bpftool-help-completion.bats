#!/usr/bin/env bats
# bpftool link attach tracing_multi as documented: `bpftool link help`, the
# bpftool-link(8) man page as built, and bash completion (the built
# completion script, called the way bash calls it).

load helpers
bats_require_minimum_version 1.5.0

COMPLETION=$BUILD/install/share/bash-completion/completions/bpftool
MAN=$BUILD/install/share/man/man8/bpftool-link.8

setup_file() {
	bpftool prog loadall "$PROGS/link_attach.bpf.o" "$(pin_dir)/progs"
}

teardown_file() {
	rm -rf "$(pin_dir)"
}

# complete LINE: what bash completion offers for the last word of LINE (""
# when LINE ends in a space), one per line, sorted. Words are split as
# bash does, ':' (in COMP_WORDBREAKS) being a word of its own.
complete_line() {
	bash -c '
		source /usr/share/bash-completion/bash_completion
		source "$1"
		line=$2
		read -ra COMP_WORDS <<<"${line//:/ : }"
		[[ $line == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$line
		COMP_POINT=${#line}
		_bpftool bpftool "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort
	' complete_line "$COMPLETION" "$1"
}

@test "link help shows the attach tracing_multi grammar" {
	run bpftool link help
	echo "$output"
	[[ $output == *"bpftool link attach tracing_multi PROG TARGET... pinned FILE"* ]]
	[[ $output == *"PROG := { id PROG_ID | pinned FILE | tag PROG_TAG | name PROG_NAME }"* ]]
	[[ $output == *"TARGET := { pattern [MODULE:]GLOB | func [MODULE:]NAME [cookie U64] |"* ]]
	[[ $output == *"id BTF_ID [cookie U64] | funcs { FILE | - } }"* ]]
}

@test "bpftool-link(8) renders without warnings and documents attach tracing_multi" {
	run --separate-stderr env MANWIDTH=100 man --warnings -l "$MAN"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ $output == *"bpftool link attach tracing_multi PROG TARGET... pinned FILE"* ]]
	grep -Eq '^ +funcs FILE$' <<<"$output"
	grep -Eq '^ +pattern GLOB$' <<<"$output"
	[[ $output == *'"func_cnt": 2,'* ]]
	[[ $output == *"have_tracing_multi_link"* ]]
}

@test "completion: link commands and the attach grammar's keywords" {
	run complete_line "bpftool link "
	[[ $output == *attach* ]]
	run complete_line "bpftool link attach "
	[ "$output" == tracing_multi ]
	run complete_line "bpftool link attach tracing_multi "
	[ "$output" == "$(printf '%s\n' id name pinned tag)" ]
	run complete_line "bpftool link attach tracing_multi name tm_entry "
	[ "$output" == "$(printf '%s\n' func funcs id pattern pinned)" ]
	run complete_line "bpftool link attach tracing_multi name tm_entry func bpf_fentry_test1 "
	[ "$output" == "$(printf '%s\n' cookie func funcs id pattern pinned)" ]
	run complete_line "bpftool link attach tracing_multi name tm_entry id 5 cookie "
	[ -z "$output" ]
	run complete_line "bpftool -j link attach tracing_multi name tm_entry pattern 'x*' pinned /sys/fs/bpf/l "
	[ -z "$output" ]
}

@test "completion: program names, ids and pinned paths" {
	local id
	run complete_line "bpftool link attach tracing_multi name tm_e"
	[ "$output" == "$(printf '%s\n' tm_entry tm_exit)" ]
	id=$(pinned_id prog "$(pin_dir)/progs/tm_entry")
	run complete_line "bpftool link attach tracing_multi id "
	grep -qx "$id" <<<"$output"
	run complete_line "bpftool link attach tracing_multi pinned $(pin_dir)/progs/tm_e"
	echo "$output"
	[ "$output" == "$(printf '%s\n' "$(pin_dir)/progs/tm_entry" "$(pin_dir)/progs/tm_exit")" ]
	run complete_line "bpftool link attach tracing_multi name tm_entry funcs $(pin_dir)/pro"
	echo "$output"
	[ "$output" == "$(pin_dir)/progs" ]
}

@test "completion: function names from the kernel's BTF, and a module's after MODULE:" {
	run complete_line "bpftool link attach tracing_multi name tm_entry func bpf_fentry_test1"
	[ "$output" == "$(printf '%s\n' bpf_fentry_test1 bpf_fentry_test10)" ]
	run complete_line "bpftool link attach tracing_multi name tm_entry pattern x func __x64_sys_rea"
	[ "$output" == "$(bpftool btf dump file /sys/kernel/btf/vmlinux |
		sed -n "s/^\[[0-9]*\] FUNC '\(__x64_sys_rea[^']*\)'.*/\1/p" | sort)" ]
	[[ $output == *__x64_sys_read* ]]
	testmod_load
	run complete_line "bpftool link attach tracing_multi name tm_entry func bpf_testmod:bpf_testmod_fentry_test1"
	[ "$output" == "$(printf '%s\n' bpf_testmod_fentry_test1 bpf_testmod_fentry_test11)" ]
}
