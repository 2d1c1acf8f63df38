// SPDX-License-Identifier: GPL-2.0
/* LD_PRELOAD shim that makes a program (bpftool) see an older kernel, as
 * FAKE_KERNEL in the environment says:
 *
 *   no_tracing_multi  a kernel without the tracing_multi link: bpf(2) loads
 *                     of programs with the multi attach types (59, 60, 61)
 *                     and link creation with them fail with EINVAL, as on a
 *                     kernel that doesn't know these numbers.
 *   unsettled_link:ID link ID is still being created: BPF_LINK_GET_FD_BY_ID
 *                     of it fails with EAGAIN, as the kernel answers between
 *                     bpf_link_prime() and bpf_link_settle() (for a
 *                     tracing_multi link, while its trampolines are built).
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

static int unsettled(__u32 id)
{
	const char *mode = getenv("FAKE_KERNEL");
	const char *p = "unsettled_link:";

	return mode && !strncmp(mode, p, strlen(p)) &&
	       strtoul(mode + strlen(p), NULL, 10) == id;
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
	if (nr == __NR_bpf && a[0] == BPF_LINK_GET_FD_BY_ID &&
	    unsettled(attr->link_id)) {
		errno = EAGAIN;
		return -1;
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4]);
}
