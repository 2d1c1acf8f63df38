// SPDX-License-Identifier: GPL-2.0
/* fsession.multi programs for tracing_multi.c's session tests, after
 * upstream's progs/tracing_multi_session.c: at the entry a program checks
 * the arguments and sets its cookie, at the exit it checks the arguments
 * and the return value, and that the cookie is still there.
 */
#include "tracing_multi.h"

char _license[] SEC("license") = "GPL";

extern bool bpf_session_is_return(void *ctx) __ksym;
extern __u64 *bpf_session_cookie(void *ctx) __ksym;

#define SESSION_COOKIE 0xbeafbeafbeafbeafull

__u64 test_result_fentry, test_result_fexit;

/* test_result_fentry: entries with the expected arguments; test_result_fexit:
 * exits with the expected arguments and return value, plus those that
 * found the entry's cookie
 */
static __always_inline int session(__u64 *ctx)
{
	__u64 *cookie = bpf_session_cookie(ctx);
	bool is_return = bpf_session_is_return(ctx);
	bool ok = false;

	if (bpf_get_current_pid_tgid() >> 32 != pid)
		return 0;
	if (check(ctx, is_return, &ok) < 0 || !ok)
		return 0;
	if (is_return) {
		__sync_fetch_and_add(&test_result_fexit, 1);
		if (*cookie == SESSION_COOKIE)
			__sync_fetch_and_add(&test_result_fexit, 1);
	} else {
		__sync_fetch_and_add(&test_result_fentry, 1);
		*cookie = SESSION_COOKIE;
	}
	return 0;
}

SEC("fsession.multi/bpf_fentry_test*")
int BPF_PROG(test_session_1)
{
	return session(ctx);
}

SEC("fsession.multi.s/bpf_fentry_test1")
int BPF_PROG(test_fsession_s)
{
	return session(ctx);
}

SEC("fsession.multi/" TESTMOD_GLOB)
int BPF_PROG(test_session_2)
{
	return session(ctx);
}

/* For the intersection test, attached by hand: an fsession.multi program
 * with its own cookie value and link cookies, and a plain fsession one
 */
__u64 mix_entries[NR_FUNCS], mix_exits_ok[NR_FUNCS];
__u64 plain_entries, plain_exits_ok;

SEC("?fsession.multi")
int BPF_PROG(session_mix)
{
	__u64 *cookie = bpf_session_cookie(ctx);
	bool is_return = bpf_session_is_return(ctx);
	bool ok = false;
	int idx;

	if (bpf_get_current_pid_tgid() >> 32 != pid)
		return 0;
	idx = check(ctx, is_return, &ok);
	if (idx < 0 || idx >= NR_FUNCS || !ok)
		return 0;
	/* the session cookie carries the link's BPF cookie of the function */
	if (is_return)
		mix_exits_ok[idx] += *cookie == bpf_get_attach_cookie(ctx) + 1;
	else {
		*cookie = bpf_get_attach_cookie(ctx) + 1;
		mix_entries[idx]++;
	}
	return 0;
}

SEC("?fsession/bpf_fentry_test1")
int BPF_PROG(plain_session, int a, int ret)
{
	__u64 *cookie = bpf_session_cookie(ctx);

	if (bpf_get_current_pid_tgid() >> 32 != pid)
		return 0;
	if (bpf_session_is_return(ctx)) {
		plain_exits_ok += a == 1 && ret == 2 && *cookie == 0x91a1;
	} else {
		*cookie = 0x91a1;
		plain_entries += a == 1 && ret == 0;
	}
	return 0;
}
