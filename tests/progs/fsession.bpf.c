// SPDX-License-Identifier: GPL-2.0
/* fsession programs for fsession.c, with the checks of upstream's
 * selftests (progs/fsession_test.c, get_func_args_fsession_test.c,
 * get_func_ip_fsession_test.c): each program sets its results to 1 when
 * what it saw at the entry and at the exit of the function is exactly
 * what the kernel's test run (bpf_fentry_test1..10) passes and returns.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

/* 6.12's pahole puts no kfunc prototypes in vmlinux.h */
extern bool bpf_session_is_return(void *ctx) __ksym;
extern __u64 *bpf_session_cookie(void *ctx) __ksym;
extern const void bpf_fentry_test1 __ksym;

__u64 test1_entry_result, test1_exit_result;
__u64 test2_entry_result, test2_exit_result;
__u64 test3_entry_result, test3_exit_result;
__u64 test4_entry_result, test4_exit_result;
__u64 test5_entry_result, test5_exit_result;
__u64 test6_entry_result, test6_exit_result;
__u64 test7_entry_ok, test7_exit_ok;
__u64 test8_entry_ok, test8_exit_ok;
__u64 test9_entry_result, test9_exit_result;
__u64 test10_result;
__u64 test11_result;

/* Arguments and return value: the entry sees ret 0, the exit the real one */
SEC("fsession/bpf_fentry_test1")
int BPF_PROG(test1, int a, int ret)
{
	if (bpf_session_is_return(ctx))
		test1_exit_result = a == 1 && ret == 2;
	else
		test1_entry_result = a == 1 && ret == 0;
	return 0;
}

SEC("fsession/bpf_fentry_test3")
int BPF_PROG(test2, char a, int b, __u64 c, int ret)
{
	bool args = a == 4 && b == 5 && c == 6;

	if (bpf_session_is_return(ctx))
		test2_exit_result = args && ret == 15;
	else
		test2_entry_result = args && ret == 0;
	return 0;
}

SEC("fsession/bpf_fentry_test4")
int BPF_PROG(test3, void *a, char b, int c, __u64 d, int ret)
{
	bool args = a == (void *)7 && b == 8 && c == 9 && d == 10;

	if (bpf_session_is_return(ctx))
		test3_exit_result = args && ret == 34;
	else
		test3_entry_result = args && ret == 0;
	return 0;
}

SEC("fsession/bpf_fentry_test5")
int BPF_PROG(test4, __u64 a, void *b, short c, int d, __u64 e, int ret)
{
	bool args = a == 11 && b == (void *)12 && c == 13 && d == 14 && e == 15;

	if (bpf_session_is_return(ctx))
		test4_exit_result = args && ret == 65;
	else
		test4_entry_result = args && ret == 0;
	return 0;
}

/* The test run passes NULL to bpf_fentry_test7 */
SEC("fsession/bpf_fentry_test7")
int BPF_PROG(test5, struct bpf_fentry_test_t *arg, int ret)
{
	if (bpf_session_is_return(ctx)) {
		if (!arg)
			test5_exit_result = 1;
	} else {
		if (!arg)
			test5_entry_result = ret == 0;
	}
	return 0;
}

/* bpf_get_func_ip() at both ends: the trampoline's IP slot */
SEC("fsession/bpf_fentry_test1")
int BPF_PROG(test6, int a)
{
	bool ok = bpf_get_func_ip(ctx) == (__u64)&bpf_fentry_test1;

	if (bpf_session_is_return(ctx))
		test6_exit_result = ok;
	else
		test6_entry_result = ok;
	return 0;
}

/* Two programs with cookies on one function: each has its own */
SEC("fsession/bpf_fentry_test1")
int BPF_PROG(test7, int a)
{
	volatile __u64 *cookie = bpf_session_cookie(ctx);

	if (bpf_session_is_return(ctx)) {
		test7_exit_ok = *cookie == 0xAAAABBBBCCCCDDDDull;
	} else {
		*cookie = 0xAAAABBBBCCCCDDDDull;
		test7_entry_ok = *cookie == 0xAAAABBBBCCCCDDDDull;
	}
	return 0;
}

SEC("fsession/bpf_fentry_test1")
int BPF_PROG(test8, int a)
{
	volatile __u64 *cookie = bpf_session_cookie(ctx);

	if (bpf_session_is_return(ctx)) {
		test8_exit_ok = *cookie == 0x1111222233334444ull;
	} else {
		*cookie = 0x1111222233334444ull;
		test8_entry_ok = *cookie == 0x1111222233334444ull;
	}
	return 0;
}

/* A cookie together with the arguments and the return value */
SEC("fsession/bpf_fentry_test1")
int BPF_PROG(test9, int a, int ret)
{
	__u64 *cookie = bpf_session_cookie(ctx);

	if (bpf_session_is_return(ctx)) {
		test9_exit_result = a == 1 && ret == 2 && *cookie == 0x123456;
	} else {
		test9_entry_result = a == 1 && ret == 0;
		*cookie = 0x123456;
	}
	return 0;
}

/* Plain fexit and fentry on the same trampoline */
SEC("fexit/bpf_fentry_test1")
int BPF_PROG(test10, int a, int ret)
{
	test10_result = a == 1 && ret == 2;
	return 0;
}

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(test11, int a)
{
	test11_result = a == 1;
	return 0;
}
