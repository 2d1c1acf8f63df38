// SPDX-License-Identifier: GPL-2.0
/* Ordinary fentry and fexit programs on bpf_fentry_test1 (and fentry on
 * bpf_fentry_test10): count calls, keep the argument of the last call and the
 * return value seen on exit, so a test can check all three.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

__u64 hits;
__u64 last_arg;
__u64 exits;
__u64 last_ret;
__u64 hits10;
__u64 last_arg10;

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(count_test1, int a)
{
	__sync_fetch_and_add(&hits, 1);
	last_arg = a;
	return 0;
}

SEC("fexit/bpf_fentry_test1")
int BPF_PROG(ret_test1, int a, int ret)
{
	__sync_fetch_and_add(&exits, 1);
	last_ret = ret;
	return 0;
}

/* 6.12's verifier does not let programs read a void * argument directly. */
SEC("fentry/bpf_fentry_test10")
int count_test10(__u64 *ctx)
{
	__u64 a = ~0ULL;

	bpf_get_func_arg(ctx, 0, &a);
	__sync_fetch_and_add(&hits10, 1);
	last_arg10 = a;
	return 0;
}
