#!/usr/bin/env bats
# make run's demo (examples/demo) in the guest: attaches syscount to every
# syscall entry function with bpftool, prints the ten busiest system calls,
# shows, detaches and removes the link; the fsession.multi latency table.

load helpers
bats_require_minimum_version 1.5.0

# The whole demo: 48-62 s on a fast machine.
# bats test_tags=timeout:1200
@test "examples/demo completes, prints the top-10 table and removes its link" {
	run "$TOP/examples/demo"
	echo "$output"
	[ "$status" -eq 0 ]
	# the attach's JSON, indented, its first function shown: one link on
	# every traceable ${SYS}* function
	grep -Fxq '  "type": "tracing_multi",' <<<"$output"
	grep -Eq '^  "func_cnt": [0-9]{3},$' <<<"$output"
	grep -Fxq '  "skipped": []' <<<"$output"
	# every address shown (the attach's and link show's), exact: the
	# function's ftrace location, not a double's rounding of it
	addrs=$(awk '/"addr":/ { a = $2; sub(",", "", a) }
		/"func":/ { f = $2; gsub(/[",]/, "", f); if (a != "") print a, f; a = "" }' <<<"$output")
	[ "$(wc -l <<<"$addrs")" -eq 3 ]
	while read -r addr func; do
		[ "$addr" = "$(printf %u "0x$(ftrace_addr "$func")")" ]
	done <<<"$addrs"
	# the table: a header and ten rows, busiest first, read(2) among them
	table=$(sed -n '/^## the ten busiest system calls$/,/^$/p' <<<"$output")
	[ "$(sed -n 2p <<<"$table")" == "$(printf '%-28s %10s' syscall calls)" ]
	rows=$(sed -n '3,$p' <<<"$table" | grep -E "^${SYS}[a-z0-9_]+ +[0-9]+\$")
	[ "$(wc -l <<<"$rows")" -eq 10 ]
	[ "$(awk '{ print $2 }' <<<"$rows")" == "$(awk '{ print $2 }' <<<"$rows" | sort -nr)" ]
	grep -q "^${SYS}read " <<<"$rows"
	# the latency table of the fsession.multi program: calls and ns per call
	lat=$(sed -n '/^## latency: /,/^$/p' <<<"$output")
	grep -Fxq "$(printf '%-28s %10s %12s' syscall calls 'ns per call')" <<<"$lat"
	lrows=$(grep -E "^${SYS}[a-z0-9_]+ +[0-9]+ +[0-9]+\$" <<<"$lat")
	[ "$(wc -l <<<"$lrows")" -eq 10 ]
	grep -Eq "^${SYS}read +[1-9][0-9]* +[1-9][0-9]*\$" <<<"$lrows"
	grep -Eq $'^\tattach_type trace_fsession_multi  ' <<<"$lat"
	# the plain attach's line: the link as link show heads it
	grep -Eq '^[0-9]+: tracing_multi  prog [0-9]+  attach_type trace_fsession_multi  func_cnt [0-9]{3}$' <<<"$lat"
	grep -Eq '^\{"id":[0-9]+,"func_cnt":0\}$' <<<"$output"
	grep -Eq '^link [0-9]+ is gone$' <<<"$output"
	[ ! -e /sys/fs/bpf/syscount ]
}
