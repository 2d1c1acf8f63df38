// SPDX-License-Identifier: GPL-2.0
/* LD_PRELOAD shim that makes a program (bpftool) see an older kernel, as
 * FAKE_KERNEL in the environment says:
 *
 *   no_tracing_multi  a kernel without the tracing_multi link: bpf(2) loads
 *                     of programs with the multi attach types (59, 60, 61)
 *                     and link creation with them fail with EINVAL, as on a
 *                     kernel that doesn't know these numbers.
 *
 * Used by tests/70-bpftool-link-attach.bats.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>

static int is_multi(__u32 type)
{
	return type >= BPF_TRACE_FENTRY_MULTI && type <= BPF_TRACE_FSESSION_MULTI;
}

static int fake(const char *what)
{
	const char *mode = getenv("FAKE_KERNEL");

	return mode && !strcmp(mode, what);
}

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	union bpf_attr *attr;
	long a[5];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 5; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	attr = (union bpf_attr *)a[1];
	if (nr == __NR_bpf && fake("no_tracing_multi") &&
	    ((a[0] == BPF_PROG_LOAD && is_multi(attr->expected_attach_type)) ||
	     (a[0] == BPF_LINK_CREATE && is_multi(attr->link_create.attach_type)))) {
		errno = EINVAL;
		return -1;
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4]);
}
