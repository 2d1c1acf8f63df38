// SPDX-License-Identifier: GPL-2.0
/* libbpf_abi: a program linked against the patched libbpf.so, not libbpf.a,
 * as distribution programs are. It takes the address of
 * bpf_program__attach_tracing_multi, so the dynamic loader must bind it,
 * at upstream's version node LIBBPF_1.8.0, when the program starts: the
 * same binary then also runs against upstream's libbpf.so. Prints the
 * version of the libbpf it runs with; tests/10-bpftool.bats checks the
 * binary's version needs.
 */
#include <stdio.h>
#include <bpf/libbpf.h>

int main(void)
{
	/* volatile: a function's address is never NULL, the reference stays */
	void *volatile attach = (void *)&bpf_program__attach_tracing_multi;

	printf("libbpf %u.%u, bpf_program__attach_tracing_multi %s\n", libbpf_major_version(),
	       libbpf_minor_version(), attach ? "bound" : "missing");
	return !attach;
}
