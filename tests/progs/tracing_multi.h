/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the tracing_multi*.bpf.c programs: every program records, per
 * traced function, how many calls it saw with exactly the arguments (and
 * for fexit the return value) the kernel's test run (bpf_fentry_test1..10)
 * or bpf_testmod's read handler (bpf_testmod_fentry_test1,2,3,7,11) pass,
 * and the cookie of its last call. Calls with anything unexpected count in
 * bad[slot], calls of other functions in other[slot].
 *
 * Each program has a slot, the index of its row in the tables, so the test
 * driver (tracing_multi.c) can attach several programs to overlapping sets
 * of functions and check each one on its own.
 */
#ifndef TRACING_MULTI_H
#define TRACING_MULTI_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define NR_FUNCS 15	/* bpf_fentry_test1..10, then the five bpf_testmod ones */
#define NR_SLOTS 8

/* bpf_testmod's functions the module programs attach to. 6.12's arm64
 * trampolines take the arguments in registers only, 8 of them: on arm64
 * the glob leaves out bpf_testmod_fentry_test11 (11 arguments), which the
 * kernel refuses there (ENOTSUPP), tracing_multi or not.
 */
#ifdef __TARGET_ARCH_arm64
#define TESTMOD_GLOB "bpf_testmod:bpf_testmod_fentry_test?"
#else
#define TESTMOD_GLOB "bpf_testmod:bpf_testmod_fentry_test*"
#endif

int pid;
__u64 hits[NR_SLOTS][NR_FUNCS];
__u64 cookie[NR_SLOTS][NR_FUNCS];
__u64 bad[NR_SLOTS];
__u64 other[NR_SLOTS];

extern const void bpf_fentry_test1 __ksym;
extern const void bpf_fentry_test2 __ksym;
extern const void bpf_fentry_test3 __ksym;
extern const void bpf_fentry_test4 __ksym;
extern const void bpf_fentry_test5 __ksym;
extern const void bpf_fentry_test6 __ksym;
extern const void bpf_fentry_test7 __ksym;
extern const void bpf_fentry_test8 __ksym;
extern const void bpf_fentry_test9 __ksym;
extern const void bpf_fentry_test10 __ksym;
extern const void bpf_testmod_fentry_test1 __ksym __weak;
extern const void bpf_testmod_fentry_test2 __ksym __weak;
extern const void bpf_testmod_fentry_test3 __ksym __weak;
extern const void bpf_testmod_fentry_test7 __ksym __weak;
extern const void bpf_testmod_fentry_test11 __ksym __weak;

static __always_inline __u64 arg(__u64 *ctx, int n, long *err)
{
	__u64 v = 0;

	*err |= bpf_get_func_arg(ctx, n, &v);
	return v;
}

/* The function index of ip, and whether the call had the expected
 * arguments and return value; -1 for an unknown function.
 */
static __always_inline int check(__u64 *ctx, bool is_return, bool *ok)
{
	void *ip = (void *)bpf_get_func_ip(ctx);
	long err = 0, cnt = bpf_get_func_arg_cnt(ctx);
	__u64 ret = 0;
	int idx = -1;
	__u64 want = 0;

	if (is_return)
		err |= bpf_get_func_ret(ctx, &ret);

	if (ip == &bpf_fentry_test1) {
		idx = 0; want = 2;
		*ok = cnt == 1 && (int)arg(ctx, 0, &err) == 1;
	} else if (ip == &bpf_fentry_test2) {
		idx = 1; want = 5;
		*ok = cnt == 2 && (int)arg(ctx, 0, &err) == 2 && arg(ctx, 1, &err) == 3;
	} else if (ip == &bpf_fentry_test3) {
		idx = 2; want = 15;
		*ok = cnt == 3 && (char)arg(ctx, 0, &err) == 4 &&
		      (int)arg(ctx, 1, &err) == 5 && arg(ctx, 2, &err) == 6;
	} else if (ip == &bpf_fentry_test4) {
		idx = 3; want = 34;
		*ok = cnt == 4 && arg(ctx, 0, &err) == 7 && (char)arg(ctx, 1, &err) == 8 &&
		      (int)arg(ctx, 2, &err) == 9 && arg(ctx, 3, &err) == 10;
	} else if (ip == &bpf_fentry_test5) {
		idx = 4; want = 65;
		*ok = cnt == 5 && arg(ctx, 0, &err) == 11 && arg(ctx, 1, &err) == 12 &&
		      (short)arg(ctx, 2, &err) == 13 && (int)arg(ctx, 3, &err) == 14 &&
		      arg(ctx, 4, &err) == 15;
	} else if (ip == &bpf_fentry_test6) {
		idx = 5; want = 111;
		*ok = cnt == 6 && arg(ctx, 0, &err) == 16 && arg(ctx, 1, &err) == 17 &&
		      (short)arg(ctx, 2, &err) == 18 && (int)arg(ctx, 3, &err) == 19 &&
		      arg(ctx, 4, &err) == 20 && arg(ctx, 5, &err) == 21;
	} else if (ip == &bpf_fentry_test7) {
		idx = 6; want = 0;
		*ok = cnt == 1 && arg(ctx, 0, &err) == 0;
	} else if (ip == &bpf_fentry_test8) {
		/* called with a pointer to a zeroed local */
		idx = 7; want = 0;
		*ok = cnt == 1 && arg(ctx, 0, &err) != 0;
	} else if (ip == &bpf_fentry_test9) {
		/* called with a pointer to a zeroed local */
		idx = 8; want = 0;
		*ok = cnt == 1 && arg(ctx, 0, &err) != 0;
	} else if (ip == &bpf_fentry_test10) {
		idx = 9; want = 0;
		*ok = cnt == 1 && arg(ctx, 0, &err) == 0;
	} else if (ip == &bpf_testmod_fentry_test1) {
		idx = 10; want = 2;
		*ok = cnt == 1 && (int)arg(ctx, 0, &err) == 1;
	} else if (ip == &bpf_testmod_fentry_test2) {
		idx = 11; want = 5;
		*ok = cnt == 2 && (int)arg(ctx, 0, &err) == 2 && arg(ctx, 1, &err) == 3;
	} else if (ip == &bpf_testmod_fentry_test3) {
		idx = 12; want = 15;
		*ok = cnt == 3 && (char)arg(ctx, 0, &err) == 4 &&
		      (int)arg(ctx, 1, &err) == 5 && arg(ctx, 2, &err) == 6;
	} else if (ip == &bpf_testmod_fentry_test7) {
		idx = 13; want = 133;
		*ok = cnt == 7 && arg(ctx, 0, &err) == 16 && arg(ctx, 1, &err) == 17 &&
		      (short)arg(ctx, 2, &err) == 18 && (int)arg(ctx, 3, &err) == 19 &&
		      arg(ctx, 4, &err) == 20 && arg(ctx, 5, &err) == 21 &&
		      arg(ctx, 6, &err) == 22;
	} else if (ip == &bpf_testmod_fentry_test11) {
		idx = 14; want = 231;
		*ok = cnt == 11 && arg(ctx, 0, &err) == 16 && arg(ctx, 6, &err) == 22 &&
		      arg(ctx, 10, &err) == 26;
	}
	if (is_return && (int)ret != (int)want)
		*ok = false;
	if (err)
		*ok = false;
	return idx;
}

static __always_inline void record(__u64 *ctx, int slot, bool is_return)
{
	bool ok = false;
	int idx;

	if (bpf_get_current_pid_tgid() >> 32 != pid)
		return;
	idx = check(ctx, is_return, &ok);
	if (slot < 0 || slot >= NR_SLOTS)
		return;
	if (idx < 0 || idx >= NR_FUNCS) {
		/* e.g. bpf_fentry_test_sinfo, also matched by bpf_fentry_test* */
		__sync_fetch_and_add(&other[slot], 1);
		return;
	}
	if (!ok) {
		__sync_fetch_and_add(&bad[slot], 1);
		return;
	}
	__sync_fetch_and_add(&hits[slot][idx], 1);
	cookie[slot][idx] = bpf_get_attach_cookie(ctx);
}

#endif /* TRACING_MULTI_H */
