# shellcheck shell=bash disable=SC2034,SC2154 # variables the bats files read; bats' $output
# What the bats files of bpftool link attach tracing_multi share
# (70-bpftool-link-attach.bats, 71-bpftool-link-attach-errors.bats,
# 72-bpftool-link-attach-scale.bats; 75-livepatch.bats takes snap): the
# programs of tests/progs/link_attach.bpf.c loaded once per file, their
# .bss read back, and `refused`, the check of a command that must fail.
# Loaded after helpers.bash.

setup_file() {
	link_attach_load "$(pin_dir)"
}

setup() {
	dir=$(pin_dir)
	progdir=$dir/progs
	bss=$(pinned_map "$dir/maps" bss)
}

teardown() {
	unpin "$dir"/link*
	rm -rf "$dir"/link* "$dir/err" "$dir/auto" "$dir/fill" "$dir/mod" "$dir/progs2"
	rm -f "$BATS_TEST_TMPDIR"/funcs
	umount "$BATS_TEST_TMPDIR"/mnt/* 2>/dev/null || true
	refused_json_check
}

# Snapshot of link_attach.bpf.c's .bss: sets the bash arrays entry_hits,
# entry_arg0, exit_hits, exit_ret, session_entries and session_exits,
# indexed by cookie (one bpftool and one jq: every process start costs
# about a second in the TCG guest).
entry_hits=() entry_arg0=() exit_hits=() exit_ret=() session_entries=() session_exits=()
# A failed dump or jq fails the test: the arrays are not left as the last
# snapshot had them.
snap() {
	local dump code
	dump=$(bpftool -j map dump pinned "$bss") || { echo "snap: map dump failed" >&2; return 1; }
	code=$(jq -e -r '.[0].formatted.value[".bss"][] |
		to_entries[] | "\(.key)=(\(.value | map(tostring) | join(" ")))"' <<<"$dump") ||
		{ echo "snap: no .bss in: $dump" >&2; return 1; }
	eval "$code"
}

# How many functions ftrace calls out of (a direct call adds a second,
# indented line).
traced_funcs() {
	grep -c '^[^[:space:]]' /sys/kernel/tracing/enabled_functions || true
}

# refused MESSAGE ARGS...: `bpftool ARGS` fails with exit status 255
# (bpftool's -1) and MESSAGE in its error, creates no link and pins nothing
# at $dir/err; with -j, its stdout is one JSON document,
# {"error": "...MESSAGE..."}. That last check is made for all of a test's
# calls at once, by teardown (refused_json_check): one jq, not one each.
refused_json=()
refused() {
	local msg=$1 id
	local -A before=()
	shift
	for id in $(link_ids); do before[$id]=1; done
	run -255 bpftool "$@"
	echo "$output"
	[[ $output == *"Error: $msg"* ]]
	run -255 --separate-stderr bpftool -j "$@"
	refused_json+=("$msg" "$output")
	for id in $(link_ids); do
		[[ -n ${before[$id]:-} ]] || { echo "new link $id left behind" >&2; return 1; }
	done
	[ ! -e "$dir/err" ]
}

# Every -j output refused collected is one JSON document whose only key is
# "error", holding the message; the ones that are not are printed.
refused_json_check() {
	local bad
	((${#refused_json[@]})) || return 0
	bad=$(jq -n -r '$ARGS.positional | _nwise(2) | . as [$m, $o] |
		select(try (($o | fromjson) | type == "object" and keys == ["error"] and (.error | contains($m)))
			catch false | not) |
		"-j of a refused command is not one document {\"error\": \"...\($m)...\"}: \($o)"' \
		--args "${refused_json[@]}")
	refused_json=()
	[[ -z $bad ]] || { echo "$bad" >&2; return 1; }
}

# refused_funcs LINES MESSAGE: `funcs FILE` with LINES (printf format) in
# FILE is refused with MESSAGE (see refused).
refused_funcs() {
	# shellcheck disable=SC2059 # LINES is the format: it has the newlines
	printf "$1" >"$BATS_TEST_TMPDIR/funcs"
	refused "$2" link attach tracing_multi name tm_entry "$dir/err" funcs "$BATS_TEST_TMPDIR/funcs"
}
