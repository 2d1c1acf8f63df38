// SPDX-License-Identifier: GPL-2.0
/* LD_PRELOAD shim that makes a program see a kernel without the
 * tracing_multi link: bpf(2) loads of programs with the multi attach types
 * (59, 60, 61) and link creation with them fail with EINVAL, as on a
 * kernel that doesn't know these numbers. Used to test how bpftool reports
 * a kernel without support (tests/70-bpftool-link-attach.bats).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>

static int is_multi(__u32 type)
{
	return type >= BPF_TRACE_FENTRY_MULTI && type <= BPF_TRACE_FSESSION_MULTI;
}

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	long a[5];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 5; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == __NR_bpf) {
		union bpf_attr *attr = (union bpf_attr *)a[1];

		if ((a[0] == BPF_PROG_LOAD && is_multi(attr->expected_attach_type)) ||
		    (a[0] == BPF_LINK_CREATE && is_multi(attr->link_create.attach_type))) {
			errno = EINVAL;
			return -1;
		}
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4]);
}
