// SPDX-License-Identifier: GPL-2.0
/* Empty programs for bench_attach.c: what is measured is attach and detach,
 * not the programs.
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
