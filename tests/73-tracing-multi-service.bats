#!/usr/bin/env bats
# packaging/systemd/tracing-multi-link, what tracing-multi@NAME.service runs:
# start loads, attaches and pins what /etc/tracing-multi/NAME.conf says,
# under /sys/fs/bpf/tracing-multi/NAME; stop detaches and removes it; every
# failure says what failed and leaves nothing. Here with a configuration
# folder and a pin root of the test's own (TRACING_MULTI_CONF_DIR,
# TRACING_MULTI_PIN_ROOT); `make deb-test` runs the unit itself, across a
# reboot.

load helpers
bats_require_minimum_version 1.5.0

TML=$TOP/packaging/systemd/tracing-multi-link

setup() {
	export TRACING_MULTI_CONF_DIR=$BATS_TEST_TMPDIR/conf
	export TRACING_MULTI_PIN_ROOT
	TRACING_MULTI_PIN_ROOT=$(pin_dir)
	mkdir -p "$TRACING_MULTI_CONF_DIR"
	root=$TRACING_MULTI_PIN_ROOT
}

teardown() {
	"$TML" stop svc || true
}

# conf LINES...: the lines of svc.conf
conf() {
	printf '%s\n' "$@" >"$TRACING_MULTI_CONF_DIR/svc.conf"
}

@test "start attaches and pins what the configuration says; the program counts; stop removes it all" {
	local id h before
	before=$(grep -c '^[^[:space:]]' /sys/kernel/tracing/enabled_functions || true)
	conf "# bpf_fentry_test1 and 2, the second with cookie 2" \
		"OBJECT=$PROGS/link_attach.bpf.o" "PROG=tm_entry" \
		"TARGETS='func bpf_fentry_test1 func bpf_fentry_test2 cookie 2'"
	run -0 "$TML" start svc
	echo "$output"
	[[ ${lines[0]} =~ ^[0-9]+:\ tracing_multi\ \ prog\ [0-9]+\ \ attach_type\ trace_fentry_multi\ \ func_cnt\ 2$ ]]
	run -0 bpftool -j link show pinned "$root/svc/link"
	jq -e '[.funcs[] | {func, cookie}] | sort_by(.func) ==
		[{"func": "bpf_fentry_test1", "cookie": 0}, {"func": "bpf_fentry_test2", "cookie": 2}]' <<<"$output"
	id=$(jq -e .id <<<"$output")
	h=$(bss_var "$(pinned_map "$root/svc/maps" bss)" entry_hits | jq -e '.[2]')
	prog_run "$root/svc/progs/tm_entry"
	[ "$(bss_var "$(pinned_map "$root/svc/maps" bss)" entry_hits | jq -e '.[2]')" -eq $((h + 1)) ]
	run -0 "$TML" status svc
	[[ ${lines[0]} == "$id: tracing_multi  prog "* ]]
	# started twice: refused, the first left as it is
	run -1 "$TML" start svc
	[ "$output" = "tracing-multi-link: $root/svc exists: tracing-multi@svc is running, or was not stopped (tracing-multi-link stop svc)" ]
	bpftool link show id "$id" >/dev/null
	run -0 "$TML" stop svc
	[ ! -e "$root/svc" ]
	eventually link_gone "$id"
	[ "$(grep -c '^[^[:space:]]' /sys/kernel/tracing/enabled_functions || true)" -eq "$before" ]
	# stopped twice: nothing to do
	run -0 "$TML" stop svc
}

@test "a pattern in TARGETS reaches bpftool as written, not expanded by a shell" {
	conf "OBJECT=$PROGS/link_attach.bpf.o" "PROG=tm_entry" "TARGETS=pattern bpf_fentry_test?"
	# a file the glob would match if a shell expanded it
	touch "$BATS_TEST_TMPDIR/bpf_fentry_testX"
	cd "$BATS_TEST_TMPDIR"
	run -0 "$TML" start svc
	run -0 bpftool -j link show pinned "$root/svc/link"
	jq -e '.func_cnt == 9' <<<"$output"
}

@test "every failure says what failed, with bpftool's message, and leaves nothing behind" {
	run -1 "$TML" start svc
	[ "$output" = "tracing-multi-link: no $TRACING_MULTI_CONF_DIR/svc.conf" ]
	conf "OBJECT=$PROGS/link_attach.bpf.o" "PROGRAM=tm_entry"
	run -1 "$TML" start svc
	[ "$output" = "tracing-multi-link: $TRACING_MULTI_CONF_DIR/svc.conf:2: unknown key 'PROGRAM' (want OBJECT, PROG or TARGETS)" ]
	conf "OBJECT=$PROGS/link_attach.bpf.o" "PROG=tm_entry"
	run -1 "$TML" start svc
	[ "$output" = "tracing-multi-link: $TRACING_MULTI_CONF_DIR/svc.conf: no TARGETS= (pattern GLOB, func NAME, btf_id ID or funcs FILE)" ]
	conf "OBJECT=/nonexistent.bpf.o" "PROG=tm_entry" "TARGETS=func bpf_fentry_test1"
	run -1 "$TML" start svc
	[ "$output" = "tracing-multi-link: $TRACING_MULTI_CONF_DIR/svc.conf: OBJECT '/nonexistent.bpf.o' is not a readable file" ]
	# not a BPF object: bpftool's message, then ours
	conf "OBJECT=/etc/hostname" "PROG=tm_entry" "TARGETS=func bpf_fentry_test1"
	run -1 "$TML" start svc
	echo "$output"
	[[ $output == *"Error: failed to open object file"* ]]
	[ "${lines[-1]}" = "tracing-multi-link: can't load /etc/hostname (bpftool's message above)" ]
	[ ! -e "$root/svc" ]
	conf "OBJECT=$PROGS/link_attach.bpf.o" "PROG=nosuch" "TARGETS=func bpf_fentry_test1"
	run -1 "$TML" start svc
	[ "$output" = "tracing-multi-link: $PROGS/link_attach.bpf.o has no program 'nosuch'" ]
	[ ! -e "$root/svc" ]
	conf "OBJECT=$PROGS/link_attach.bpf.o" "PROG=tm_entry" "TARGETS=func nosuch_func"
	run -1 "$TML" start svc
	echo "$output"
	[ "${lines[0]}" = "Error: unknown function 'nosuch_func': not in vmlinux BTF" ]
	[ "${lines[1]}" = "tracing-multi-link: can't attach 'tm_entry' (bpftool's message above)" ]
	[ ! -e "$root/svc" ]
	run -2 "$TML" restart svc
	run -1 "$TML" start ../svc
	[ "$output" = "tracing-multi-link: bad NAME '../svc': letters, digits, '_', '.', '@' and '-'" ]
}
