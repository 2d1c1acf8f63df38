#!/usr/bin/env bats
# fsession (BPF_TRACE_FSESSION) and fsession.multi (BPF_TRACE_FSESSION_MULTI):
# one program at a function's entry and exit, with a per-call cookie.
# Upstream's fsession_test and tracing_multi session cases with their
# exact values, the trampoline program limit, fmod_ret beside fsession,
# refused programs and kprobe session with the kfuncs' new prototype. The
# checks are in tests/progs/fsession.c and tracing_multi.c, which print
# one ok/FAIL line per check and exit 1 if any failed.

load helpers
bats_require_minimum_version 1.5.0

# Run a test program; show its lines in the bats log on failure.
checks() {
	run "$@"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "0 failed" ]
	if grep '^FAIL' <<<"$output"; then return 1; fi
}

@test "fsession: arguments and return value at entry and exit, bpf_get_func_ip, two cookies on one function, fentry and fexit beside" {
	checks fsession basic
	grep -qx 'ok: fsession_test: 20 of 20 results are 1' <<<"$output"
}

@test "fsession: detach takes both nodes off the trampoline, attach again works" {
	checks fsession reattach
}

@test "fsession: cookies without an IP slot in the frame" {
	checks fsession cookie
}

@test "fsession: bpf_get_func_arg_cnt, arg, ret and ip see through the is_return bit and cookie index" {
	checks fsession get_func
}

@test "fsession with fmod_ret: the exit run sees the return value fmod_ret chose and the entry's cookie" {
	checks fsession fmod_ret
}

# 40 program loads (each parses vmlinux BTF): 40 s on a fast machine
# measured.
# bats test_tags=timeout:900
@test "an fsession program takes two trampoline slots: 19 fit with their own cookies, the 20th is E2BIG" {
	# arm64: the trampoline's page is full first, at 18 (fsession.c)
	local n=19
	[[ $HOSTTYPE != aarch64 ]] || n=18
	checks fsession limit
	grep -qx "ok: cookies: program $((n + 1)) gets E2BIG (got -7)" <<<"$output"
	grep -qx "ok: cookies and an IP slot: $n of $n programs ran at the entry, $n saw their own cookie at the exit" <<<"$output"
}

@test "refused at load: fsession on a __noreturn function or returning non-zero, session kfuncs outside session programs" {
	checks fsession rejects
}

@test "kprobe.session programs calling the session kfuncs with ctx still work" {
	x86_64_only "kprobe.session needs fprobe, which 6.12 builds on DYNAMIC_FTRACE_WITH_REGS, absent on arm64"
	checks fsession kprobe_session
}

@test "fsession.multi: upstream's session test, bpf_fentry_test1..10, sleepable and bpf_testmod" {
	testmod_load
	checks tracing_multi session
}

@test "fsession.multi beside fentry.multi, fexit.multi and plain fsession on the same functions" {
	checks tracing_multi session_mix
}
