// SPDX-License-Identifier: GPL-2.0
/* Empty programs for bench_attach.c: what is measured is attach and detach,
 * and the cost the trampoline adds to each call, not the programs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

SEC("fentry.multi")
int bench_fentry_multi(void *ctx)
{
	return 0;
}

SEC("fexit.multi")
int bench_fexit_multi(void *ctx)
{
	return 0;
}

SEC("fsession.multi")
int bench_fsession_multi(void *ctx)
{
	return 0;
}

SEC("kprobe.multi")
int bench_kprobe_multi(void *ctx)
{
	return 0;
}
