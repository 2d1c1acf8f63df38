// SPDX-License-Identifier: GPL-2.0
/* A fentry.multi program for the functions of a module that does not
 * exist: libbpf refuses to load it with EINVAL, as upstream's does.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

SEC("fentry.multi/no_such_module:*")
int BPF_PROG(no_module)
{
	return 0;
}
