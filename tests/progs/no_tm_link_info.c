// SPDX-License-Identifier: GPL-2.0
/* LD_PRELOAD shim that makes a program see a kernel whose tracing_multi
 * links have no link info (upstream 7.2 has none; it is this backport's
 * extension): BPF_OBJ_GET_INFO_BY_FD of such a link comes back with the
 * tracing_multi part zeroed, so bpftool must fall back to the link's
 * fdinfo (tests/70-bpftool-link-attach.bats).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	union bpf_attr *attr;
	long a[5], ret;
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 5; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	ret = real(nr, a[0], a[1], a[2], a[3], a[4]);
	attr = (union bpf_attr *)a[1];
	if (nr == __NR_bpf && a[0] == BPF_OBJ_GET_INFO_BY_FD && !ret &&
	    attr->info.info_len >= offsetof(struct bpf_link_info, tracing_multi)) {
		struct bpf_link_info *info = (struct bpf_link_info *)(unsigned long)attr->info.info;

		if (info->type == BPF_LINK_TYPE_TRACING_MULTI)
			memset(&info->tracing_multi, 0, sizeof(info->tracing_multi));
	}
	return ret;
}
