// SPDX-License-Identifier: GPL-2.0
/* link_fuzz [ROUNDS [SEED]]: ROUNDS random BPF_LINK_CREATE calls for the
 * tracing_multi attach types (default 100000, seed from the clock), each
 * made with raw bpf(2) so that any value reaches the kernel: counts around
 * 0, small and around the limit (1 << 20), ids valid, duplicate, zero, past
 * the BTF, of structs, of aliases (__do_sys_munlockall and
 * __x64_sys_munlockall; on arm64, two system calls), of denied and
 * untraceable functions, pointers valid, NULL, unaligned, unmapped and
 * kernel ones, cookies or none, flags, target_fd, attach types and
 * programs of other types.
 *
 * Every answer must be a link (closed at once) or one of the documented
 * errnos (docs/tracing-multi-link.md, plus EBADF/EPERM/EINVAL of the
 * generic link_create checks). The first other answer stops the run with
 * the round's inputs and the seed, so `link_fuzz 1 SEED`-style replays
 * work: the inputs of round N depend only on SEED and N.
 *
 * Prints one line: "link_fuzz: N calls (seed S): L links, then errno
 * counts"; exits 1 on an undocumented answer, 2 on a setup failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "plain_fentry.h"

#define LIMIT (1U << 20)

/* xorshift64*: the inputs of a round depend only on the seed and round */
static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static uint32_t pick(uint32_t n)
{
	return rnd() % n;
}

static int prog_load(enum bpf_prog_type type, enum bpf_attach_type eat, __u32 btf_id)
{
	int fd = load_return0(type, eat, btf_id);

	if (fd < 0) {
		fprintf(stderr, "link_fuzz: loading a program (type %d, attach %d): %s\n",
			type, eat, strerror(-fd));
		exit(2);
	}
	return fd;
}

static __u32 func_id(struct btf *btf, const char *name)
{
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);

	if (id <= 0) {
		fprintf(stderr, "link_fuzz: no BTF function %s\n", name);
		exit(2);
	}
	return id;
}

/*
 * The kernel's ENOTSUPP, which the C library's errno.h lacks: on arm64,
 * 6.12's trampolines can't take a function with more than 8 arguments
 * in registers, and a link naming one fails with it, as a plain fentry
 * link does (docs/tracing-multi-link.md). A random BTF id can be one.
 */
#define ENOTSUPP 524

static int allowed(int err)
{
	switch (err) {
#ifdef __aarch64__
	case ENOTSUPP:	/* more than 8 register arguments */
#endif
	case EINVAL:	/* bad ids, cnt 0, flags, target_fd, attach type */
	case E2BIG:	/* cnt over the limit, a full trampoline */
	case ENOENT:	/* no ftrace location */
	case EFAULT:	/* ids or cookies unreadable */
	case EBUSY:	/* aliases, program already on the function */
	case EBADF:	/* the generic checks of a bad prog fd */
	case ENOMEM:
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000;
	unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 0) : (unsigned long long)time(NULL);
	unsigned long counts[ENOTSUPP + 1] = {}, links = 0, r;
	struct btf *btf = btf__load_vmlinux_btf();
	__u32 pool[16], npool = 0, *ids, *big;
	__u64 *cookies;
	int progs[6], nprogs = 0, i;
	char *unmapped;

	if (!btf) {
		fprintf(stderr, "link_fuzz: no vmlinux BTF\n");
		return 2;
	}
	/* ids that mean something to the kernel */
	pool[npool++] = func_id(btf, "bpf_fentry_test1");
	pool[npool++] = func_id(btf, "bpf_fentry_test2");
	pool[npool++] = func_id(btf, "bpf_fentry_test7");
#ifdef __aarch64__
	pool[npool++] = func_id(btf, "__arm64_sys_munlockall");
	pool[npool++] = func_id(btf, "__arm64_sys_munlock");
#else
	pool[npool++] = func_id(btf, "__do_sys_munlockall");	/* two names, */
	pool[npool++] = func_id(btf, "__x64_sys_munlockall");	/* one address */
#endif
	pool[npool++] = func_id(btf, "migrate_disable");	/* denied */
	pool[npool++] = func_id(btf, "do_exit");		/* noreturn */
	pool[npool++] = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	pool[npool++] = 0;
	pool[npool++] = btf__type_cnt(btf);			/* one past the end */
	pool[npool++] = btf__type_cnt(btf) + 100000;		/* a module's range */
	pool[npool++] = 0xffffffff;

	progs[nprogs++] = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY_MULTI, 0);
	progs[nprogs++] = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT_MULTI, 0);
	progs[nprogs++] = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, pool[0]);
	progs[nprogs++] = prog_load(BPF_PROG_TYPE_SOCKET_FILTER, 0, 0);
	progs[nprogs++] = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY_MULTI, 0);

	ids = malloc(64 * sizeof(*ids));
	cookies = malloc(64 * sizeof(*cookies));
	big = calloc(LIMIT + 1, sizeof(*big));
	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!ids || !cookies || !big || unmapped == MAP_FAILED) {
		fprintf(stderr, "link_fuzz: no memory\n");
		return 2;
	}
	/* far-apart ids: a big link fails on the first bad one, quickly */
	for (i = 0; i <= (int)LIMIT; i++)
		big[i] = pool[pick(npool)] + i;

	for (r = 0; r < rounds; r++) {
		union bpf_attr attr;
		__u32 cnt, n;
		void *idp, *cp;
		int fd, err, prog;

		rng = seed * 0x9E3779B97F4A7C15ULL + r + 1;
		rnd();

		switch (pick(8)) {
		case 0: cnt = 0; break;
		case 1: cnt = LIMIT - 1 + pick(3); break;	/* at the limit */
		case 2: cnt = (uint32_t)rnd(); break;
		default: cnt = 1 + pick(20); break;
		}
		n = cnt < 64 ? cnt : 64;
		for (i = 0; i < (int)n; i++) {
			ids[i] = pick(4) ? pool[pick(npool)] : (uint32_t)rnd() % (btf__type_cnt(btf) + 10);
			cookies[i] = rnd();
		}
		if (n > 1 && !pick(4))
			ids[n - 1] = ids[0];			/* duplicate */

		switch (pick(8)) {
		case 0: idp = NULL; break;
		case 1: idp = (char *)ids + 1; break;		/* unaligned */
		case 2: idp = unmapped; break;
		case 3: idp = (void *)0xffffffff81000000UL; break;	/* kernel */
		default:
			/* a 4 MiB copy and sort: rarely */
			idp = cnt <= 64 ? ids : pick(64) ? NULL : big;
			break;
		}
		switch (pick(6)) {
		case 0: cp = NULL; break;
		case 1: cp = (char *)cookies + 3; break;
		case 2: cp = unmapped; break;
		default: cp = cnt <= 64 ? (void *)cookies : NULL; break;
		}
		prog = progs[pick(nprogs)];

		memset(&attr, 0, sizeof(attr));
		attr.link_create.prog_fd = pick(32) ? prog : (int)rnd();
		attr.link_create.target_fd = pick(16) ? 0 : (int)rnd();
		switch (pick(8)) {
		case 0: attr.link_create.attach_type = pick(70); break;
		case 1: attr.link_create.attach_type = BPF_TRACE_FEXIT_MULTI; break;
		default: attr.link_create.attach_type = BPF_TRACE_FENTRY_MULTI; break;
		}
		if (prog == progs[1] && pick(4))
			attr.link_create.attach_type = BPF_TRACE_FEXIT_MULTI;
		attr.link_create.flags = pick(16) ? 0 : 1U << pick(32);
		attr.link_create.tracing_multi.ids = (unsigned long)idp;
		attr.link_create.tracing_multi.cookies = (unsigned long)cp;
		attr.link_create.tracing_multi.cnt = cnt;

		fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
		if (fd >= 0) {
			links++;
			close(fd);
			continue;
		}
		err = errno;
		counts[err <= ENOTSUPP ? err : 0]++;
		if (!allowed(err)) {
			printf("link_fuzz: round %lu (seed %llu): errno %d (%s) not documented: "
			       "prog_fd %d attach_type %u target_fd %d flags %#x ids %p cookies %p cnt %u\n",
			       r, seed, err, strerror(err), attr.link_create.prog_fd,
			       attr.link_create.attach_type, attr.link_create.target_fd,
			       attr.link_create.flags, idp, cp, cnt);
			return 1;
		}
	}

	printf("link_fuzz: %lu calls (seed %llu): %lu links", rounds, seed, links);
	for (i = 0; i <= ENOTSUPP; i++)
		if (counts[i])
			printf(", %s %lu", i == ENOTSUPP ? "ENOTSUPP" : strerrorname_np(i) ?: "?",
			       counts[i]);
	printf("\n");
	return 0;
}
