// SPDX-License-Identifier: GPL-2.0
/* An fexit program for __do_sys_munlockall, for tests/75-livepatch.bats:
 * loaded, never attached, it holds a trampoline of that function, whose
 * address __x64_sys_munlockall (an alias) shares.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("fexit/__do_sys_munlockall")
int BPF_PROG(alias_holder)
{
	return 0;
}
