// SPDX-License-Identifier: GPL-2.0
/* Demo: an fentry program counting calls of do_sys_openat2, the function
 * behind open(2) and openat(2).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

__u64 opens;

SEC("fentry/do_sys_openat2")
int BPF_PROG(count_opens)
{
	__sync_fetch_and_add(&opens, 1);
	return 0;
}
