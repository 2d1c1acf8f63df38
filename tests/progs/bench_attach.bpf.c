// SPDX-License-Identifier: GPL-2.0
/* Programs for bench_attach.c's attach and detach times (empty: what is
 * measured is the attach, not the program) and its per-call figures
 * against a link's size (counting). The per-call comparison of attach
 * types loads its own "return 0" programs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

SEC("fentry.multi")
int bench_fentry_multi(void *ctx)
{
	return 0;
}

SEC("kprobe.multi")
int bench_kprobe_multi(void *ctx)
{
	return 0;
}

/* Runs of bench_count_multi, to normalize per-call figures by them */
__u64 runs;

SEC("fentry.multi")
int bench_count_multi(void *ctx)
{
	__sync_fetch_and_add(&runs, 1);
	return 0;
}
