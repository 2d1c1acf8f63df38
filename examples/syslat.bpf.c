// SPDX-License-Identifier: GPL-2.0
/* syslat: per-function latency with one fsession.multi program. It runs at
 * the entry and at the exit of every system call entry function it is
 * attached to (examples/demo), each function with its own BPF cookie: its
 * index in the list the demo attached. At the entry it keeps the time in
 * the call's session cookie; at the exit it adds the time since then to
 * the function's total and counts the call, under that index.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

#define MAX_FUNCS 1024

/* 6.12's pahole puts no kfunc prototypes in vmlinux.h */
extern bool bpf_session_is_return(void *ctx) __ksym;
extern __u64 *bpf_session_cookie(void *ctx) __ksym;

__u64 calls[MAX_FUNCS];
__u64 total_ns[MAX_FUNCS];

SEC("fsession.multi")
int syslat(void *ctx)
{
	__u64 *start = bpf_session_cookie(ctx);
	__u64 i = bpf_get_attach_cookie(ctx);

	if (!bpf_session_is_return(ctx)) {
		*start = bpf_ktime_get_ns();
		return 0;
	}
	if (i < MAX_FUNCS && *start) {
		__sync_fetch_and_add(&total_ns[i], bpf_ktime_get_ns() - *start);
		__sync_fetch_and_add(&calls[i], 1);
	}
	return 0;
}
