// SPDX-License-Identifier: GPL-2.0
/* A fentry.multi program loaded for bpf_testmod's BTF (the section's
 * MODULE: prefix), for `bpftool link attach tracing_multi` with module
 * functions (tests/70-bpftool-link-attach.bats). Counts calls and sums the
 * first arguments.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 hits;
__u64 arg_sum;

SEC("fentry.multi/bpf_testmod:bpf_testmod_fentry_test1")
int tm_mod(void *ctx)
{
	__u64 arg = 0;

	bpf_get_func_arg(ctx, 0, &arg);
	__sync_fetch_and_add(&hits, 1);
	__sync_fetch_and_add(&arg_sum, arg);
	return 0;
}
