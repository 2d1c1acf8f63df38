// SPDX-License-Identifier: GPL-2.0
/* fentry.multi/fexit.multi programs on bpf_testmod's functions, for
 * tracing_multi.c. The MODULE: prefix makes libbpf load them against the
 * module's BTF (attach_btf_obj_fd), which pins the module while they live.
 */
#include "tracing_multi.h"

char _license[] SEC("license") = "GPL";

SEC("fentry.multi/" TESTMOD_GLOB)
int BPF_PROG(mod_fentry)
{
	record(ctx, 0, false);
	return 0;
}

SEC("fexit.multi/" TESTMOD_GLOB)
int BPF_PROG(mod_fexit)
{
	record(ctx, 1, true);
	return 0;
}
