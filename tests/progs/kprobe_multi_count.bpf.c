// SPDX-License-Identifier: GPL-2.0
/* A kprobe.multi program on bpf_fentry_test*, counting calls: make stress
 * attaches it (bpftool prog loadall ... autoattach) while tracing_multi and
 * plain fentry/fexit links come and go on the same functions.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 hits;

SEC("kprobe.multi/bpf_fentry_test*")
int kmulti_count(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}
