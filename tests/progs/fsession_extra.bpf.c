// SPDX-License-Identifier: GPL-2.0
/* More fsession programs for fsession.c, none auto-loaded: the driver
 * loads the ones a test needs (some must fail to load).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

#define EINVAL 22

extern bool bpf_session_is_return(void *ctx) __ksym;
extern __u64 *bpf_session_cookie(void *ctx) __ksym;
extern const void bpf_fentry_test1 __ksym;

__u64 args_entry_result, args_exit_result;
__u64 ip_entry_result, ip_exit_result;

/* bpf_get_func_arg_cnt() first, then the other inlined helpers: their
 * reads of ctx[-1] must mask the is_return bit and the cookie index
 */
SEC("?fsession/bpf_fentry_test1")
int BPF_PROG(get_func_args)
{
	__u64 cnt = bpf_get_func_arg_cnt(ctx);
	__u64 a = 0, z = 0, ret = 0;
	__u64 *cookie = bpf_session_cookie(ctx);
	bool ok;
	long err;

	ok = cnt == 1;
	err = bpf_get_func_arg(ctx, 0, &a);
	ok = ok && err == 0 && (int)a == 1;
	err = bpf_get_func_arg(ctx, 1, &z);
	ok = ok && err == -EINVAL;
	err = bpf_get_func_ret(ctx, &ret);
	if (bpf_session_is_return(ctx)) {
		args_exit_result = ok && err == 0 && ret == 2 && *cookie == 42;
	} else {
		*cookie = 42;
		args_entry_result = ok && err == 0 && ret == 0;
	}
	return 0;
}

SEC("?fsession/bpf_fentry_test1")
int BPF_PROG(get_func_ip, int a)
{
	bool ok = bpf_get_func_ip(ctx) == (__u64)&bpf_fentry_test1;

	if (bpf_session_is_return(ctx))
		ip_exit_result = ok;
	else
		ip_entry_result = ok;
	return 0;
}

/* fsession with fmod_ret on bpf_modify_return_test(a, b): the exit run
 * comes after the fmod_ret program, which may skip the function
 */
__u64 fmod_ret_value;
__u64 mr_entry_ok, mr_exit_ret, mr_exit_ok;

SEC("?fsession/bpf_modify_return_test")
int BPF_PROG(session_mr, int a, int *b, int ret)
{
	__u64 *cookie = bpf_session_cookie(ctx);

	if (bpf_session_is_return(ctx)) {
		mr_exit_ret = ret;
		mr_exit_ok = a == 1 && *cookie == 0xfeed;
	} else {
		*cookie = 0xfeed;
		mr_entry_ok = a == 1 && ret == 0;
	}
	return 0;
}

SEC("?fmod_ret/bpf_modify_return_test")
int BPF_PROG(fmod_ret, int a, int *b, int ret)
{
	return fmod_ret_value;
}

/* The limit: each instance of this object stores its own value in its
 * cookie at the entry and checks it at the exit
 */
__u64 my_value, limit_entries, limit_exits_ok;

static __always_inline int limit_run(void *ctx)
{
	__u64 *cookie = bpf_session_cookie(ctx);

	if (bpf_session_is_return(ctx)) {
		limit_exits_ok += *cookie == my_value;
	} else {
		*cookie = my_value;
		limit_entries++;
	}
	return 0;
}

SEC("?fsession/bpf_fentry_test1")
int BPF_PROG(cookie_limit, int a)
{
	return limit_run(ctx);
}

/* With an IP slot in the frame too, shifting the cookie slots */
SEC("?fsession/bpf_fentry_test1")
int BPF_PROG(cookie_limit_ip, int a)
{
	if (bpf_get_func_ip(ctx) != (__u64)&bpf_fentry_test1)
		return 0;
	return limit_run(ctx);
}

/* Refused at load */
SEC("?fsession/do_exit")
int BPF_PROG(noreturn, long code)
{
	return 0;
}

/* The entry's return value cannot skip the function or the exit run */
SEC("?fsession/bpf_fentry_test1")
int BPF_PROG(returns_1, int a)
{
	return 1;
}

SEC("?fentry/bpf_fentry_test1")
int BPF_PROG(fentry_cookie, int a)
{
	__u64 *cookie = bpf_session_cookie(ctx);

	*cookie = 1;
	return 0;
}

SEC("?fexit/bpf_fentry_test1")
int BPF_PROG(fexit_is_return, int a, int ret)
{
	return bpf_session_is_return(ctx);
}

/* kprobe session, as 6.12 had it, with the context argument */
__u64 kprobe_result1, kprobe_result2;
int pid;

static int kprobe_cookie(void *ctx, __u64 val, __u64 *result)
{
	__u64 *cookie;

	if (bpf_get_current_pid_tgid() >> 32 != pid)
		return 1;
	cookie = bpf_session_cookie(ctx);
	if (bpf_session_is_return(ctx))
		*result = *cookie == val ? val : 0;
	else
		*cookie = val;
	return 0;
}

SEC("?kprobe.session/bpf_fentry_test1")
int kprobe_session1(struct pt_regs *ctx)
{
	return kprobe_cookie(ctx, 1, &kprobe_result1);
}

SEC("?kprobe.session/bpf_fentry_test1")
int kprobe_session2(struct pt_regs *ctx)
{
	return kprobe_cookie(ctx, 2, &kprobe_result2);
}

/* Triggers the test run of bpf_fentry_test1..10 */
SEC("?fentry/bpf_fentry_test10")
int BPF_PROG(trigger)
{
	return 0;
}
