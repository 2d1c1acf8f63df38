/* SPDX-License-Identifier: GPL-2.0 */
/* load_plain_fentry(BTF_ID): the smallest ordinary fentry program
 * ("return 0") on the vmlinux function BTF_ID, loaded with raw
 * BPF_PROG_LOAD; returns its fd or -errno. For tests and benchmarks that
 * need many plain fentry programs quickly. load_return0() loads the same
 * program as any type and attach type (link_fuzz's programs).
 */
#ifndef PLAIN_FENTRY_H
#define PLAIN_FENTRY_H

#include <linux/bpf.h>
#include <bpf/bpf.h>

/* The "return 0" program of TYPE, EXPECTED_ATTACH_TYPE and BTF_ID. */
static inline int load_return0(enum bpf_prog_type type, enum bpf_attach_type eat,
			       __u32 btf_id)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = eat,
		    .attach_btf_id = btf_id);

	return bpf_prog_load(type, "plain", "GPL", insns, 2, &o);
}

static inline int load_plain_fentry(__u32 btf_id)
{
	return load_return0(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, btf_id);
}

#endif /* PLAIN_FENTRY_H */
