// SPDX-License-Identifier: GPL-2.0
/* prog_load_raw PROG_TYPE ATTACH_TYPE [ctx]: load a minimal program
 * ("r0 = 0; exit", or with "ctx" first a read of ctx[0]) with BPF_PROG_LOAD
 * exactly as given, so tests see the kernel's own answer for attach types
 * libbpf does not know. PROG_TYPE and ATTACH_TYPE are numbers.
 *
 * Prints "loaded" and exits 0, or prints the errno name (EINVAL, ...) and
 * exits 1, with the verifier log on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <bpf/bpf.h>

static char log_buf[64 * 1024];

static const char *errno_name(int err)
{
	switch (err) {
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case E2BIG: return "E2BIG";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case 524: return "ENOTSUPP";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return strerror(err);
	}
}

int main(int argc, char **argv)
{
	struct bpf_insn insns[] = {
		/* r0 = *(u64 *)(r1 + 0), only with "ctx" */
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_0, .src_reg = BPF_REG_1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.log_buf = log_buf, .log_size = sizeof(log_buf), .log_level = 1);
	int with_ctx = argc > 3 && !strcmp(argv[3], "ctx");
	int fd;

	if (argc < 3 || argc > 4 || (argc == 4 && !with_ctx)) {
		fprintf(stderr, "usage: %s PROG_TYPE ATTACH_TYPE [ctx]\n", argv[0]);
		return 2;
	}
	opts.expected_attach_type = strtoul(argv[2], NULL, 0);
	fd = bpf_prog_load(strtoul(argv[1], NULL, 0), "raw", "GPL",
			   insns + !with_ctx, 3 - !with_ctx, &opts);
	if (fd < 0) {
		printf("%s\n", errno_name(-fd));
		fflush(stdout);
		fputs(log_buf, stderr);
		return 1;
	}
	printf("loaded\n");
	return 0;
}
