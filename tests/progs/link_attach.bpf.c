// SPDX-License-Identifier: GPL-2.0
/* Programs for tests/70-bpftool-link-attach.bats, loaded with `bpftool prog
 * loadall` and attached with `bpftool link attach tracing_multi`. The
 * multi programs record per cookie (cookies below MAX_COOKIE): calls, the
 * first argument and, on exit, the return value, so a test checks which
 * functions ran with which cookie and arguments.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

#define MAX_COOKIE 64

__u64 entry_hits[MAX_COOKIE];
__u64 entry_arg0[MAX_COOKIE];
__u64 exit_hits[MAX_COOKIE];
__u64 exit_ret[MAX_COOKIE];

SEC("fentry.multi")
int tm_entry(void *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx), arg = 0;

	if (cookie >= MAX_COOKIE)
		return 0;
	bpf_get_func_arg(ctx, 0, &arg);
	__sync_fetch_and_add(&entry_hits[cookie], 1);
	entry_arg0[cookie] = arg;
	return 0;
}

SEC("fexit.multi")
int tm_exit(void *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx), ret = 0;

	if (cookie >= MAX_COOKIE)
		return 0;
	bpf_get_func_ret(ctx, &ret);
	__sync_fetch_and_add(&exit_hits[cookie], 1);
	exit_ret[cookie] = ret;
	return 0;
}

SEC("fentry.multi.s")
int tm_sleepable(void *ctx)
{
	return 0;
}

/* wrong attach type: a plain fentry program */
SEC("fentry/bpf_fentry_test1")
int BPF_PROG(single_fentry, int a)
{
	return 0;
}

/* wrong program type */
SEC("kprobe")
int not_tracing(void *ctx)
{
	return 0;
}
