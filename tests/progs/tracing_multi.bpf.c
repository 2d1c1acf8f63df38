// SPDX-License-Identifier: GPL-2.0
/* fentry.multi/fexit.multi programs on vmlinux functions, for
 * tracing_multi.c; the recording is in tracing_multi.h.
 */
#include "tracing_multi.h"

char _license[] SEC("license") = "GPL";

/* Slots 0-3: what the skeleton auto-attaches (and the pattern/ids tests
 * attach by hand to the same functions).
 */
SEC("fentry.multi/bpf_fentry_test*")
int BPF_PROG(fentry_all)
{
	record(ctx, 0, false);
	return 0;
}

SEC("fexit.multi/bpf_fentry_test*")
int BPF_PROG(fexit_all)
{
	record(ctx, 1, true);
	return 0;
}

SEC("fentry.multi.s/bpf_fentry_test1")
int BPF_PROG(fentry_sleepable)
{
	record(ctx, 2, false);
	return 0;
}

SEC("fexit.multi.s/bpf_fentry_test1")
int BPF_PROG(fexit_sleepable)
{
	record(ctx, 3, true);
	return 0;
}

/* Slots 4-7: not auto-attached, for the driver's own function sets. */
SEC("fentry.multi")
int BPF_PROG(fentry_a)
{
	record(ctx, 4, false);
	return 0;
}

SEC("fentry.multi")
int BPF_PROG(fentry_b)
{
	record(ctx, 5, false);
	return 0;
}

SEC("fexit.multi")
int BPF_PROG(fexit_a)
{
	record(ctx, 6, true);
	return 0;
}

SEC("fexit.multi")
int BPF_PROG(fexit_b)
{
	record(ctx, 7, true);
	return 0;
}
