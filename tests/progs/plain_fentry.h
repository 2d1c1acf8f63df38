/* SPDX-License-Identifier: GPL-2.0 */
/* load_plain_fentry(BTF_ID): the smallest ordinary fentry program
 * ("return 0") on the vmlinux function BTF_ID, loaded with raw
 * BPF_PROG_LOAD; returns its fd or -errno. For tests and benchmarks that
 * need many plain fentry programs quickly.
 */
#ifndef PLAIN_FENTRY_H
#define PLAIN_FENTRY_H

#include <linux/bpf.h>
#include <bpf/bpf.h>

static inline int load_plain_fentry(__u32 btf_id)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = btf_id);

	return bpf_prog_load(BPF_PROG_TYPE_TRACING, "plain", "GPL", insns, 2, &o);
}

#endif /* PLAIN_FENTRY_H */
