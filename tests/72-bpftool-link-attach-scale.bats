#!/usr/bin/env bats
# shellcheck disable=SC2154 # dir, progdir, bss, snap's arrays: tests/link_attach.bash
# bpftool link attach tracing_multi at scale: links on thousands of
# functions (by patterns, and from a funcs file of 20 000 names), a listing
# that meets a link still being built, and /proc/kallsyms listing the
# trampolines.

load helpers
load link_attach
bats_require_minimum_version 1.5.0

@test "a link on thousands of functions: each trampoline runs, same refusals, detach removes them all" {
	# From 2048 functions on the kernel resolves names in one pass over
	# kallsyms, and it writes trampoline images several per text copy.
	# fexit programs on about 2500 rarely called functions (cookie 0:
	# none of the guest's hot paths, the 9p root file system, the tty,
	# /proc or sysfs, see "Two vCPUs" in docs/benchmarks.md),
	# the ten bpf_fentry_test functions (cookie N), and KREFUSED
	# (helpers.bash), which the pass must refuse the same way: on x86_64
	# static names kallsyms_lookup_name() resolves to an untraced
	# namesake, the only refusals; on arm64 functions of more than 8
	# register arguments, which the patterns match more of.
	local before n i targets=() h=()
	before=$(traced_funcs)
	for i in {1..10}; do targets+=(func "bpf_fentry_test$i" cookie "$i"); done
	snap
	h=("${exit_hits[@]}")
	run bpftool -j link attach tracing_multi name tm_exit "$dir/link" pattern 'pci_*' pattern 'acpi_??_*' \
		pattern 'blk_*' pattern 'dev_*' pattern 'sock_*' pattern 'tcp_*' pattern 'udp_*' \
		pattern 'inet_*' pattern 'ip_*' pattern 'fib_*' pattern 'neigh_*' pattern 'netdev_*' \
		pattern 'uart_*' pattern 'input_*' pattern "$KREFUSED_GLOB" func fscaps_show "${targets[@]}"
	[ "$status" -eq 0 ]
	n=$(jq .func_cnt <<<"$output")
	echo "func_cnt $n"
	((n >= 2048))
	local only=true
	[[ $HOSTTYPE == x86_64 ]] || only=false
	jq -e --arg k1 "${KREFUSED[0]}" --arg k2 "${KREFUSED[1]}" --arg kerr "$KREFUSED_ERR" \
		--argjson only "$only" '[.skipped[] | select(.reason == "refused")] as $r |
		([$r[].func] | index($k1) != null and index($k2) != null) and all($r[]; .error == $kerr) and
		(($only | not) or ($r | length) == 2)' <<<"$output"
	# what the patterns matched and the kernel can't trace (no ftrace
	# location, prototype), left out with the reason
	jq -e '[.skipped[].reason] | unique | all(. == "refused" or . == "no_ftrace_location" or
		. == "unsupported_prototype")' <<<"$output"
	[ "$(traced_funcs)" -eq $((before + n)) ]
	prog_run "$progdir/tm_exit"
	[ "$(cat /sys/kernel/fscaps)" = 1 ]
	snap
	for i in {1..10}; do
		[ "${exit_hits[i]}" -eq $((h[i] + 1)) ] || { echo "bpf_fentry_test$i: ${exit_hits[i]} calls" >&2; return 1; }
	done
	[ "${exit_ret[1]}" -eq 2 ]     # bpf_fentry_test1(1)
	[ "${exit_ret[2]}" -eq 5 ]     # bpf_fentry_test2(2, 3)
	[ "${exit_ret[3]}" -eq 15 ]    # bpf_fentry_test3(4, 5, 6)
	((exit_hits[0] > h[0]))        # fscaps_show (and others)
	unpin "$dir/link"
	[ "$(traced_funcs)" -eq "$before" ]
}

# A dry run of every function, the attach of 20 000 and their listing:
# 81-116 s on a fast machine (the dry run 35 s, the attach
# 13 s, `link show` 32 s).
# bats test_tags=timeout:2400
@test "funcs FILE of 20 000 names" {
	local n want=20000 tramps
	tramps=$(trampolines)
	# 20 000 functions the kernel takes, from a dry run of them all. An
	# fentry program: the trampoline of an fexit one stays on the stack of
	# every task asleep in a traced function (schedule(), say) until that
	# task wakes, detached or not, and a live patch can't switch a task
	# whose stack runs through one (75-livepatch.bats). The arm64 guest's
	# kernel has fewer than 20 000: all of them there.
	bpftool -j link attach tracing_multi name tm_entry "$dir/err" pattern '*' dryrun |
		jq -r '.funcs[:20000][].func' >"$BATS_TEST_TMPDIR/funcs"
	[[ $HOSTTYPE == x86_64 ]] || want=$(wc -l <"$BATS_TEST_TMPDIR/funcs")
	echo "$want functions"
	((want >= 15000))
	[ "$(wc -l <"$BATS_TEST_TMPDIR/funcs")" -eq "$want" ]
	run bpftool -j link attach tracing_multi name tm_entry "$dir/link" funcs "$BATS_TEST_TMPDIR/funcs"
	[ "$status" -eq 0 ]
	n=$(jq .func_cnt <<<"$output")
	[ "$n" -eq "$want" ]
	run -0 bpftool -j link show pinned "$dir/link"
	jq -e --argjson n "$want" '.func_cnt == $n' <<<"$output"
	# The release of that many trampolines goes on after the unpin (a
	# minute and more in the arm64 guest), holding their locks: wait for
	# it, so that the next tests attach, and read /proc/kallsyms, on a
	# kernel that has settled (at most as many trampolines as before: the
	# last test's may still be going then).
	rm "$dir/link"
	eventually trampolines_at_most "$tramps"
}

# How many BPF trampolines /proc/kallsyms lists
trampolines() {
	grep -c ' bpf_trampoline_' /proc/kallsyms || true
}

# trampolines_at_most N: whether it lists N or fewer
trampolines_at_most() {
	(($(trampolines) <= $1))
}

@test "link show skips a link still being created: the others listed, exit 0" {
	# A link has an id from bpf_link_prime() on, but BPF_LINK_GET_FD_BY_ID
	# gives EAGAIN until bpf_link_settle(): for a tracing_multi link, while
	# all of its trampolines are built. First that this kernel does so:
	# two links on several hundred rarely called functions each attach at
	# once and link_ids sees one of them listed but unsettled. fentry
	# programs: no task asleep in a traced function holds their
	# trampolines, so their release, awaited at the end, ends.
	local a b id first second tramps
	tramps=$(trampolines)
	bpftool link attach tracing_multi name tm_entry "$dir/link-a" pattern 'pci_*' pattern 'acpi_??_*' &
	a=$!
	bpftool link attach tracing_multi name tm_entry "$dir/link-b" pattern 'blk_*' pattern 'tcp_*' \
		pattern 'input_*' pattern 'uart_*' &
	b=$!
	id=$(link_ids unsettled 60000)
	wait "$a"
	wait "$b"
	echo "link $id was unsettled; now $(link_ids state "$id")"
	# A listing that meets such a link (made here to meet it for sure:
	# the seconds this window lasts are shorter than bpftool's run in the
	# guest) leaves it out and lists the rest; 6.12's and upstream's
	# bpftool stopped with "can't get link by id" and exit status 255.
	first=$(pinned_id link "$dir/link-a")
	second=$(pinned_id link "$dir/link-b")
	run env LD_PRELOAD="$PROGS/lib/fake_kernel.so" FAKE_KERNEL="unsettled_link:$first" \
		bpftool -j link show
	[ "$status" -eq 0 ]
	jq -e --argjson f "$first" --argjson s "$second" \
		'all(.[]; .id != $f) and any(.[]; .id == $s and .func_cnt > 500)' <<<"$output" >/dev/null
	run env LD_PRELOAD="$PROGS/lib/fake_kernel.so" FAKE_KERNEL="unsettled_link:$first" \
		bpftool link show
	[ "$status" -eq 0 ]
	grep -q "^$second: tracing_multi " <<<"$output"
	run ! grep -q "^$first: " <<<"$output"
	# the next tests read /proc/kallsyms: wait until these are gone from it
	rm "$dir/link-a" "$dir/link-b"
	eventually trampolines_at_most "$tramps"
}

@test "/proc/kallsyms lists the link's trampolines, read whole, in small pieces, or by two readers" {
	# Only this link's trampolines are compared: any other BPF symbol
	# may come or go between two reads.
	local names=$BATS_TEST_TMPDIR/names whole pieces pid
	bpftool link attach tracing_multi name tm_entry "$dir/link" pattern 'bpf_fentry_test*'
	tramp_names "$dir/link" >"$names"
	[ -s "$names" ]
	whole=$(grep -wFf "$names" /proc/kallsyms | sort)
	# each listed once, a BPF symbol: "ADDRESS t NAME [bpf]"
	[ "$(awk '$2 == "t" && $4 == "[bpf]" { print $3 }' <<<"$whole" | sort)" == "$(cat "$names")" ]
	pieces=$(dd if=/proc/kallsyms bs=100 status=none | grep -wFf "$names" | sort)
	[ "$pieces" == "$whole" ]
	grep -wFf "$names" /proc/kallsyms | sort >"$BATS_TEST_TMPDIR/a" &
	pid=$!
	grep -wFf "$names" /proc/kallsyms | sort >"$BATS_TEST_TMPDIR/b"
	# this one job: a bare wait would wait for bats' timeout watchdog too
	wait "$pid"
	[ "$(cat "$BATS_TEST_TMPDIR/a")" == "$whole" ]
	[ "$(cat "$BATS_TEST_TMPDIR/b")" == "$whole" ]
}

# tramp_names LINK: the names of the trampolines of the pinned link LINK
# on vmlinux functions, sorted: bpf_trampoline_<key>, key = vmlinux BTF
# object id << 32 | 1 << 31 | the function's BTF id
tramp_names() {
	local obj id
	obj=$(bpftool -j btf show | jq '.[] | select(.name == "vmlinux") | .id')
	for id in $(bpftool -j link show pinned "$1" | jq '.funcs[].id'); do
		echo "bpf_trampoline_$(((obj << 32) | (1 << 31) | id))"
	done | sort
}

# stack_at PID FUNC: whether task PID's kernel stack runs through FUNC
stack_at() {
	grep -q "\] $2+0x" "/proc/$1/stack"
}

@test "a stack through a trampoline names it: a task asleep in a function under fexit.multi" {
	# A trampoline image keeps no name: its symbol's name is made when
	# asked for. A stack trace (/proc/PID/stack here, as a hung-task
	# report or a profiler prints one) names the frame of the trampoline
	# that called the sleeping function, right above the function.
	local name pid
	bpftool link attach tracing_multi name tm_exit "$dir/link" func hrtimer_nanosleep
	name=$(tramp_names "$dir/link")
	sleep 600 &
	pid=$!
	eventually stack_at "$pid" hrtimer_nanosleep
	run cat "/proc/$pid/stack"
	# woken, the task leaves the trampoline, which the detach can free
	kill "$pid"
	wait "$pid" || true
	echo "$output"
	# hrtimer_nanosleep shows twice: the body the trampoline called, then,
	# under the trampoline, the call at its start that entered it
	grep -m1 -A1 '\] hrtimer_nanosleep+0x' <<<"$output" | tail -n1 | grep -q "\] $name+0x"
}

@test "perf learns each trampoline's name and address: BPF ksymbol events on attach and on release" {
	local names=$BATS_TEST_TMPDIR/names want got
	run "$PROGS/bin/ksym_events" bpftool link attach tracing_multi name tm_entry "$dir/link" \
		pattern 'bpf_fentry_test*'
	[ "$status" -eq 0 ]
	tramp_names "$dir/link" >"$names"
	echo "$(wc -l <"$names") trampolines"
	[ -s "$names" ]
	# register ADDRESS LENGTH NAME: as /proc/kallsyms lists them
	got=$(grep '^register ' <<<"$output" | grep -wFf "$names" | sort -k4)
	want=$(grep -wFf "$names" /proc/kallsyms | awk '{ print "register 0x" $1, $3 }' | sort -k3)
	echo "got:" "$got" "want:" "$want"
	[ "$(awk '{ print $1, $2, $4 }' <<<"$got")" == "$want" ]
	# unregistered when the images are freed, after the unpin: the events
	# of the time until /proc/kallsyms lists none of them
	# shellcheck disable=SC2016 # expanded by that bash
	run "$PROGS/bin/ksym_events" bash -c \
		'rm "$1"; while grep -qwFf "$2" /proc/kallsyms; do sleep 0.2; done' _ "$dir/link" "$names"
	[ "$status" -eq 0 ]
	got=$(grep '^unregister ' <<<"$output" | grep -wFf "$names" | awk '{ print $4 }' | sort)
	[ "$got" == "$(cat "$names")" ]
}
