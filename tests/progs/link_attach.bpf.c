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

/* 6.12's pahole puts no kfunc prototypes in vmlinux.h */
extern bool bpf_session_is_return(void *ctx) __ksym;
extern __u64 *bpf_session_cookie(void *ctx) __ksym;

__u64 session_entries[MAX_COOKIE];
__u64 session_exits[MAX_COOKIE];

/* Entries per BPF cookie, and exits that found the session cookie the
 * entry set (1000 + the BPF cookie)
 */
SEC("fsession.multi")
int tm_session(void *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	__u64 *session = bpf_session_cookie(ctx);

	if (cookie >= MAX_COOKIE)
		return 0;
	if (bpf_session_is_return(ctx)) {
		/* not "*session == 1000 + cookie": 6.12's verifier then loses
		 * the bounds of cookie on the branch (linked registers with an
		 * offset), and refuses the array access
		 */
		if (*session - cookie == 1000)
			__sync_fetch_and_add(&session_exits[cookie], 1);
	} else {
		*session = 1000 + cookie;
		__sync_fetch_and_add(&session_entries[cookie], 1);
	}
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
