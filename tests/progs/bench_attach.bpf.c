// SPDX-License-Identifier: GPL-2.0
/* Programs for bench_attach.c's attach and detach times (empty: what is
 * measured is the attach, not the program) and its per-call figures
 * against a link's size (counting). The per-call comparison of attach
 * types loads its own "return 0" programs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

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

/* bpftool's own time: how long the BPF_LINK_CREATE calls of process
 * watch_tgid take in the kernel, from the system-call tracepoints (no
 * ftrace site, so nothing the measured attach patches, and no ptrace
 * stop per system call as under strace).
 */
__u32 watch_tgid;
long nr_bpf;	/* __NR_bpf, from user space: vmlinux.h lacks it */
__u64 link_create_ns, link_create_calls;
static __u64 entered_ns;

SEC("tp_btf/sys_enter")
int BPF_PROG(bench_sys_enter, struct pt_regs *regs, long id)
{
	if (id != nr_bpf || bpf_get_current_pid_tgid() >> 32 != watch_tgid ||
	    PT_REGS_PARM1(regs) != BPF_LINK_CREATE)
		return 0;
	entered_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(bench_sys_exit, struct pt_regs *regs, long ret)
{
	if (!entered_ns || bpf_get_current_pid_tgid() >> 32 != watch_tgid)
		return 0;
	link_create_ns += bpf_ktime_get_ns() - entered_ns;
	link_create_calls++;
	entered_ns = 0;
	return 0;
}
