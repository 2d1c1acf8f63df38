// SPDX-License-Identifier: GPL-2.0
/* An ordinary fentry program: counts calls of bpf_fentry_test1 and keeps the
 * argument of the last call, so a test can check both.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

__u64 hits;
__u64 last_arg;

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(count_test1, int a)
{
	__sync_fetch_and_add(&hits, 1);
	last_arg = a;
	return 0;
}
