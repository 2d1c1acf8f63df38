#!/usr/bin/env bats
# A detach that runs out of memory. A tracing_multi link: the detaching task's every
# allocation fails (fault injection, tracing_multi nomem), yet its close(),
# BPF_LINK_DETACH or death returns soon, and a worker detaches the rest.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	link_attach_load "$(pin_dir)"
}

# bats test_tags=timeout:1800
@test "a big link's detach meeting lasting ENOMEM (close, BPF_LINK_DETACH, SIGKILL) returns within a minute, then nothing is traced" {
	# Took 70 s on a 2-core TCG guest: three attaches of about 3000
	# functions and their detaches.
	local dir before after
	dir=$(pin_dir)
	bpftool link attach tracing_multi name tm_entry "$dir/big" pattern 'pci_*' pattern 'acpi_*' \
		pattern 'blk_*' pattern 'tty_*'
	before=$(dmesg | grep -c 'tracing_multi detach of program [0-9]* done' || true)
	run tracing_multi nomem "$dir/big"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "0 failed" ]
	if grep '^FAIL' <<<"$output"; then return 1; fi
	# Each of the three detaches ran out of its budget and left the rest
	# to the worker, which finished it.
	after=$(dmesg | grep -c 'tracing_multi detach of program [0-9]* done' || true)
	dmesg | grep 'tracing_multi detach' | tail -6
	[ "$((after - before))" -eq 3 ]
}

@test "an fentry link closed with each allocation of its detach failing in turn leaves nothing traced" {
	run tracing_multi single_nomem
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "0 failed" ]
	if grep '^FAIL' <<<"$output"; then return 1; fi
}
