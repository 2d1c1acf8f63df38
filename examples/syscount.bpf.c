// SPDX-License-Identifier: GPL-2.0
/* syscount: one fentry.multi program for every system call. It is attached
 * to the syscall entry functions (__x64_sys_*, __arm64_sys_* on arm64) with
 * one tracing_multi link (examples/demo), and each function gets its own
 * cookie: its index in the list the demo attached. The program counts the
 * call under that index.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

#define MAX_FUNCS 1024

__u64 calls[MAX_FUNCS];

SEC("fentry.multi")
int syscount(void *ctx)
{
	__u64 i = bpf_get_attach_cookie(ctx);

	if (i < MAX_FUNCS)
		__sync_fetch_and_add(&calls[i], 1);
	return 0;
}
