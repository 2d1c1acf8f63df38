#!/usr/bin/env bats
# shellcheck disable=SC2154 # dir, progdir, bss, snap's arrays: tests/link_attach.bash
# tracing_multi links and live patching on the same function: the kernel's
# sample live patch (livepatch-sample.ko) replaces cmdline_proc_show, and
# fentry.multi/fexit.multi links on it attach before or after the patch,
# see every call, and the patch loads and unloads around them, also while
# a link on thousands of functions attaches and detaches.

load helpers
bats_require_minimum_version 1.5.0

LP=/sys/kernel/livepatch/livepatch_sample

# setup_file, setup, teardown_file and snap (link_attach.bpf.c's .bss, per
# cookie): as for bpftool link attach
load link_attach

teardown() {
	local ev=/sys/kernel/tracing
	unpin "$dir"/link* "$dir/holder"
	rm -rf "$dir"/link* "$dir/holder"
	lp_unload
	klp_unload
	if [[ -d $ev/events/kprobes/tm_gen ]]; then
		echo 0 >"$ev/events/kprobes/tm_gen/enable"
		echo '-:tm_gen' >>"$ev/kprobe_events"
	fi
}

# Wait for the live patch's transition to end; a disabled patch's sysfs
# folder goes away when its unpatching ends. A transition waits for every
# task to leave the patched function, a few seconds here; one that has
# not ended after 300 s waits for a task that won't: it is named.
lp_settle() {
	local t end=$((SECONDS + 300))
	while ((SECONDS < end)); do
		# read, not cat: a process costs about a second in the TCG guest
		{ read -r t <"$LP/transition"; } 2>/dev/null || return 0
		[[ $t == 1 ]] || return 0
		sleep 0.2
	done
	echo "live patch transition still running after 300 s; tasks not yet switched:" >&2
	lp_stragglers >&2
	return 1
}

# The tasks a live patch transition still waits for (patch_state differs
# from the patch's target), with their kernel stacks: what kept it going.
lp_stragglers() {
	local p want state comm
	# patching: the patch's target state is 1, unpatching: 0
	{ read -r want <"$LP/enabled"; } 2>/dev/null || return 0
	for p in /proc/[0-9]*; do
		{ read -r state <"$p/patch_state"; } 2>/dev/null || continue
		[[ $state == -1 || $state == "$want" ]] && continue
		{ read -r comm <"$p/comm"; } 2>/dev/null || comm='?'
		echo "pid ${p#/proc/} ($comm) patch_state $state:"
		sed 's/^/    /' "$p/stack" 2>/dev/null || true
	done
}

lp_load() {
	modprobe -d "$MODROOT" livepatch-sample
	[[ $(cat "$LP/enabled") == 1 ]]
	lp_settle
}

lp_unload() {
	grep -q '^livepatch_sample ' /proc/modules || return 0
	if [[ -d $LP ]]; then
		echo 0 >"$LP/enabled"
		lp_settle
	fi
	modprobe -r -d "$MODROOT" livepatch-sample
}

# cat /proc/cmdline, check whether it's the live patch's text (patched) or
# the kernel's (unpatched), then check that the links saw that one call.
call_cmdline() {
	local want=$1 out e x
	snap
	e=${entry_hits[1]} x=${exit_hits[2]}
	out=$(cat /proc/cmdline)
	echo "cmdline: $out"
	if [[ $want == patched ]]; then
		[[ $out == "this has been live patched" ]]
	else
		[[ $out != "this has been live patched" ]]
	fi
	snap
	[ "${entry_hits[1]}" -eq $((e + 1)) ]
	[ "${exit_hits[2]}" -eq $((x + 1)) ]
	[ "${exit_ret[2]}" -eq 0 ]
}

attach_both() {
	bpftool link attach tracing_multi name tm_entry "$dir/link_entry" func cmdline_proc_show cookie 1
	bpftool link attach tracing_multi name tm_exit "$dir/link_exit" func cmdline_proc_show cookie 2
}

@test "live patch first: fentry.multi and fexit.multi attach to the patched function, see each call, outlive the patch" {
	x86_64_only "6.12 has no live patching on arm64 (HAVE_LIVEPATCH)"
	lp_load
	attach_both
	call_cmdline patched
	lp_unload
	call_cmdline unpatched
	unpin "$dir"/link_*
	run grep -c '^cmdline_proc_show ' /sys/kernel/tracing/enabled_functions
	[ "$output" -eq 0 ]
}

@test "links first: the live patch loads on the traced function, and unloads, the links seeing each call" {
	x86_64_only "6.12 has no live patching on arm64 (HAVE_LIVEPATCH)"
	attach_both
	call_cmdline unpatched
	lp_load
	call_cmdline patched
	lp_unload
	call_cmdline unpatched
}

@test "the live patch loads and unloads while a link on thousands of functions attaches and detaches" {
	x86_64_only "6.12 has no live patching on arm64 (HAVE_LIVEPATCH)"
	local pid n
	(
		for _ in {1..4}; do
			bpftool link attach tracing_multi name tm_exit "$dir/link_big" pattern 'pci_*' \
				pattern 'acpi_??_*' pattern 'blk_*' pattern 'input_*' \
				func cmdline_proc_show cookie 3 || exit 1
			# detach first: an unpinned link is released later, by a
			# workqueue, and the next attach of tm_exit would find it
			bpftool link detach pinned "$dir/link_big" || exit 1
			rm "$dir/link_big"
		done
	) &
	pid=$!
	for _ in 1 2; do
		lp_load
		[[ $(cat /proc/cmdline) == "this has been live patched" ]]
		lp_unload
	done
	wait "$pid"
	attach_both
	call_cmdline unpatched
	n=$(grep -c '^cmdline_proc_show ' /sys/kernel/tracing/enabled_functions || true)
	[ "$n" -eq 1 ]
}

# tm_klp_multi (tests/modules) live patches four /proc show functions.
KLP=/sys/kernel/livepatch/tm_klp_multi
KLP_FUNCS=(cmdline version loadavg uptime)

klp_unload() {
	grep -q '^tm_klp_multi ' /proc/modules || return 0
	if [[ -d $KLP ]]; then
		echo 0 >"$KLP/enabled"
		LP=$KLP lp_settle
	fi
	modprobe -r -d "$MODROOT" tm_klp_multi
}

@test "a link over four live patched functions builds each image once, and sees each patched function's calls" {
	x86_64_only "6.12 has no live patching on arm64 (HAVE_LIVEPATCH)"
	local ev=/sys/kernel/tracing f n hits x args=()
	modprobe -d "$MODROOT" tm_klp_multi
	LP=$KLP lp_settle
	# Every image the link makes is generated twice, once to size it
	# and once to write it, by arch_prepare_bpf_trampoline_rw(): count
	# its calls. Before the live patched functions were marked up front
	# the attach made all images again for each of them (5 times here).
	echo 'p:tm_gen arch_prepare_bpf_trampoline_rw' >>"$ev/kprobe_events"
	echo 1 >"$ev/events/kprobes/tm_gen/enable"
	for f in "${KLP_FUNCS[@]}"; do
		args+=(func "${f}_proc_show" cookie 4)
	done
	run -0 bpftool link attach tracing_multi name tm_exit "$dir/link_klp" pattern 'pci_*' "${args[@]}"
	echo "0" >"$ev/events/kprobes/tm_gen/enable"
	hits=$(awk '$1 == "tm_gen" { print $2 }' "$ev/kprobe_profile")
	echo '-:tm_gen' >>"$ev/kprobe_events"
	echo "$output"
	[ "$status" -eq 0 ]
	n=$(bpftool -j link show pinned "$dir/link_klp" | jq -e .func_cnt)
	echo "functions: $n, images generated: $hits"
	[ "$n" -gt 100 ]
	[ "$hits" -eq $((2 * n)) ]

	# Each patched function runs its replacement, and the fexit.multi
	# program sees its return.
	snap
	x=${exit_hits[4]:-0}
	for f in "${KLP_FUNCS[@]}"; do
		[[ $(cat "/proc/$f") == "tm_klp_multi $f" ]]
	done
	snap
	[ "${exit_hits[4]}" -eq $((x + 4)) ]
	rm "$dir/link_klp"
	klp_unload
	for f in "${KLP_FUNCS[@]}"; do
		[[ $(cat "/proc/$f") != "tm_klp_multi $f" ]]
	done
}

@test "a live patch on a function whose alias has an unattached trampoline reaches the attached one" {
	x86_64_only "6.12 has no live patching on arm64 (HAVE_LIVEPATCH)"
	# __x64_sys_munlockall is an alias of __do_sys_munlockall: one
	# address. A link through the first attaches its trampoline; then a
	# program loaded (not attached) for the second makes another
	# trampoline of the same ip, found first by ip. The live patch must
	# still reach the attached one: its fexit program then calls the
	# patched function, and munlockall() fails with the patch's ENOTTY.
	local x out
	bpftool link attach tracing_multi name tm_exit "$dir/link_alias" func "${SYS}munlockall" cookie 5
	bpftool prog load "$PROGS/alias_holder.bpf.o" "$dir/holder"
	snap
	x=${exit_hits[5]:-0}
	out=$(perl -e 'syscall(152) == 0 or die "munlockall: $!\n"; print "ok\n"')
	[[ $out == ok ]]
	modprobe -d "$MODROOT" tm_klp_multi
	LP=$KLP lp_settle
	run perl -e 'syscall(152) == 0 and die "munlockall: not patched\n"; print "$!\n"'
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == "Inappropriate ioctl for device" ]]
	snap
	[ "${exit_hits[5]}" -eq $((x + 2)) ]
}
