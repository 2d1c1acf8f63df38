// SPDX-License-Identifier: GPL-2.0
/* The other kinds of programs that run on BPF trampolines: fmod_ret (which
 * replaces a function's return value) and LSM.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

__u64 fmod_calls;
__u64 file_opens;

/* bpf_modify_return_test() does "*b += 1; return a + *b;": skip it and
 * return 1000 instead.
 */
SEC("fmod_ret/bpf_modify_return_test")
int BPF_PROG(fmod_test, int a, int *b, int ret)
{
	__sync_fetch_and_add(&fmod_calls, 1);
	return 1000;
}

SEC("lsm/file_open")
int BPF_PROG(lsm_file_open, struct file *file, int ret)
{
	__sync_fetch_and_add(&file_opens, 1);
	return ret;
}
