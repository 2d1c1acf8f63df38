// SPDX-License-Identifier: GPL-2.0
/* Multi programs with targets in their sections, for `bpftool prog loadall
 * ... autoattach` (tests/70-bpftool-link-attach.bats): libbpf attaches
 * them and bpftool pins the links.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 entry_hits;
__u64 exit_hits;

SEC("fentry.multi/bpf_fentry_test1*")
int auto_entry(void *ctx)
{
	__sync_fetch_and_add(&entry_hits, 1);
	return 0;
}

SEC("fexit.multi/bpf_fentry_test2")
int auto_exit(void *ctx)
{
	__sync_fetch_and_add(&exit_hits, 1);
	return 0;
}
