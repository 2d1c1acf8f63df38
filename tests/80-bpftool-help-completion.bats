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
	[[ $output == *"bpftool link attach tracing_multi PROG FILE TARGET... [dryrun]"* ]]
	[[ $output == *"PROG := { id PROG_ID | pinned FILE | tag PROG_TAG | name PROG_NAME }"* ]]
	[[ $output == *"TARGET := { pattern [MODULE:]GLOB | func [MODULE:]NAME [cookie U64] |"* ]]
	[[ $output == *"btf_id ID [cookie U64] | funcs { FILE | - } }"* ]]
	run bpftool link attach help
	[[ $output == *"bpftool link attach tracing_multi PROG FILE TARGET... [dryrun]"* ]]
}

@test "bpftool-link(8) renders without warnings and documents attach tracing_multi" {
	run --separate-stderr env MANWIDTH=100 man --warnings -l "$MAN"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ $output == *"bpftool link attach tracing_multi PROG FILE TARGET... [dryrun]"* ]]
	grep -Eq '^ +funcs FILE$' <<<"$output"
	grep -Eq '^ +dryrun +Check everything' <<<"$output"
	grep -Eq '^ +btf_id ID \[cookie U64\]$' <<<"$output"
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
	run complete_line "bpftool link attach tracing_multi name tm_entry /sys/fs/bpf/l "
	[ "$output" == "$(printf '%s\n' btf_id dryrun func funcs pattern)" ]
	run complete_line "bpftool link attach tracing_multi name tm_entry /sys/fs/bpf/l func bpf_fentry_test1 "
	[ "$output" == "$(printf '%s\n' btf_id cookie dryrun func funcs pattern)" ]
	run complete_line "bpftool link attach tracing_multi name tm_entry /sys/fs/bpf/l btf_id 5 cookie "
	[ -z "$output" ]
	# options before the object shift nothing; targets go on after a pattern
	run complete_line "bpftool -j link attach tracing_multi name tm_entry /sys/fs/bpf/l pattern 'x*' "
	[ "$output" == "$(printf '%s\n' btf_id dryrun func funcs pattern)" ]
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
	run complete_line "bpftool link attach tracing_multi name tm_entry /sys/fs/bpf/l funcs $(pin_dir)/pro"
	echo "$output"
	[ "$output" == "$(pin_dir)/progs" ]
	# the link's pin path, after PROG
	run complete_line "bpftool link attach tracing_multi name tm_entry $(pin_dir)/pro"
	[ "$output" == "$(pin_dir)/progs" ]
}

@test "completion: function names the kernel traces, and a module's after MODULE:, without running bpftool" {
	local bin=$BATS_TEST_TMPDIR/bin
	# a bpftool that only says it ran: a TAB on a function name runs none
	mkdir -p "$bin"
	printf '#!/bin/sh\necho "$*" >>%s/ran\n' "$bin" >"$bin/bpftool"
	chmod +x "$bin/bpftool"
	PATH="$bin:$PATH"
	run complete_line "bpftool link attach tracing_multi name tm_entry /sys/fs/bpf/l func bpf_fentry_test1"
	PATH=${PATH#"$bin:"}
	[ "$output" == "$(printf '%s\n' bpf_fentry_test1 bpf_fentry_test10)" ]
	[ ! -e "$bin/ran" ]
	run complete_line "bpftool link attach tracing_multi name tm_entry /sys/fs/bpf/l pattern x func ${SYS}rea"
	[ "$output" == "$(sed -n "s/^\\(${SYS}rea[^ ]*\\)\$/\\1/p" /sys/kernel/tracing/available_filter_functions | sort -u)" ]
	[[ $output == *"${SYS}read"* ]]
	testmod_load
	run complete_line "bpftool link attach tracing_multi name tm_entry /sys/fs/bpf/l func bpf_testmod:bpf_testmod_fentry_test1"
	[ "$output" == "$(printf '%s\n' bpf_testmod_fentry_test1 bpf_testmod_fentry_test11)" ]
}
