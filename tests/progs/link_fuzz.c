// SPDX-License-Identifier: GPL-2.0
/* link_fuzz [-u] [ROUNDS [SEED]]: ROUNDS random BPF_LINK_CREATE calls for
 * the tracing_multi attach types (default 100000, seed from the clock),
 * each made with raw bpf(2) so that any value reaches the kernel: counts
 * 0, small, around the limit (1 << 20) and random; ids of traceable
 * functions, of aliases (__do_sys_munlockall and __x64_sys_munlockall; on
 * arm64, two system calls), of a noreturn, a denied and an untraceable
 * function, of a struct and an int, 0, past the BTF, in a module's range,
 * duplicates; pointers valid, NULL, unaligned, unmapped and kernel ones;
 * cookies or none; flags, target_fd, attach types, and fentry.multi,
 * fexit.multi, fsession.multi, plain fentry and socket filter programs.
 *
 * What it checks, exit status 1 on the first that fails:
 * - every answer is a link (closed at once) or one of the documented
 *   errnos (docs/tracing-multi-link.md, plus EBADF/EINVAL of the generic
 *   link_create checks); the first other answer stops the run with the
 *   round's inputs and the seed;
 * - links were made: at least min_links(ROUNDS) (below), whatever the seed.
 *
 * A round's outcome depends only on SEED and the round: so that a seed
 * has one exact outcome on every machine and every build of a kernel
 * (tests/50-tracing-multi.bats compares seed 1's with the one recorded),
 * - the BTF ids are looked up by name, never drawn as raw numbers (whose
 *   meaning changes with every build's BTF numbering), and a link never
 *   holds two ids of different errors whose precedence would depend on
 *   their numbering: the kernel checks ids in ascending order and the
 *   first error wins; the untraceable function (ENOENT) is only drawn
 *   with traceable ones and the pseudo ids (0 sorts first, EINVAL; past
 *   the BTF sorts last), the ids that give EINVAL only without it;
 * - the buffers the pointers name sit at fixed addresses (a plain fentry
 *   program's link_create reads the ids pointer's low half as its
 *   target_btf_id), and the random file descriptors are out of any fd
 *   table's range;
 * - every link is closed in its round: closing detaches at once.
 * The outcome does depend on the architecture (x86_64's aliases give
 * EBUSY, arm64 has none, and its untraceable function gives ENOTSUPP).
 *
 * -u: load the programs and set up as root, then drop to nobody (uid and
 * gid 65534, no groups, every capability set empty, the bounding set
 * too), keeping the fds, and make every link_create call as nobody. It
 * checks the drop (/proc/self/status; BPF_PROG_LOAD must give EPERM, or
 * exit status 2) and says so in a first line. link_create needs no
 * privilege of its own, as upstream: the program's fd is the authority
 * (the checks are in BPF_PROG_LOAD), so nobody's outcome for a seed is
 * root's.
 *
 * Prints "link_fuzz: N calls (seed S): L links, then errno counts,
 * digest D" (D: a hash of every round's outcome in order); exits 2 on a
 * setup failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "plain_fentry.h"

#define LIMIT (1U << 20)
#define NOBODY 65534

/*
 * The share of rounds that makes a link, a little below the measured
 * one: 4516 links in 160000 rounds of 11 seeds (2.82 %; seed 1 2.93 % of
 * 20000 rounds, seeds 2 to 9 2.82 % to 3.44 % of 5000 each, seed 12345
 * 2.74 % of 100000). min_links() asks for that share less five standard
 * deviations of a binomial count: a seed fails it by chance less often
 * than once in 3.5 million runs, and a kernel that makes no links fails
 * it from about 1100 rounds on.
 */
#define LINK_SHARE 0.026

static unsigned long min_links(unsigned long rounds)
{
	double mean = rounds * LINK_SHARE, var = mean * (1 - LINK_SHARE), sd = var + 1;
	int i;

	for (i = 0; i < 64; i++)	/* Newton's square root: no libm */
		sd = (sd + var / sd) / 2;
	return mean > 5 * sd ? (unsigned long)(mean - 5 * sd) : 0;
}

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

/* A file descriptor no process has: 1 << 30 and up, or negative */
static int bad_fd(void)
{
	return (int)(rnd() | (1U << 30));
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

static __u32 type_id(struct btf *btf, const char *name, int kind)
{
	int id = btf__find_by_name_kind(btf, name, kind);

	if (id <= 0) {
		fprintf(stderr, "link_fuzz: no BTF type %s of kind %d\n", name, kind);
		exit(2);
	}
	return id;
}

static __u32 func_id(struct btf *btf, const char *name)
{
	return type_id(btf, name, BTF_KIND_FUNC);
}

/*
 * The kernel's ENOTSUPP, which the C library's errno.h lacks: on arm64,
 * 6.12's trampolines can't take a function with more than 8 arguments
 * in registers, and a link naming one fails with it, as a plain fentry
 * link does (docs/tracing-multi-link.md).
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

/* Fixed addresses (below 2^39: arm64's smallest user address space),
 * whose low halves are not 0.
 */
#define BUF_BASE	0x5a5a5a0000UL
#define PAGE		4096UL

/* The capability sets and ids of /proc/self/status: all empty, all nobody */
static int dropped(void)
{
	char line[256];
	int ok = 1, n = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Cap", 3)) {
			n++;
			ok &= !strcmp(strchr(line, ':'), ":\t0000000000000000\n");
		} else if (!strncmp(line, "Uid:", 4) || !strncmp(line, "Gid:", 4)) {
			n++;
			ok &= !strcmp(line + 4, "\t65534\t65534\t65534\t65534\n");
		} else if (!strncmp(line, "Groups:", 7)) {
			n++;
			ok &= !strcmp(line, "Groups:\t \n");	/* a space, always */
		}
	}
	fclose(f);
	/* CapInh, CapPrm, CapEff, CapBnd, CapAmb, Uid, Gid, Groups */
	return ok && n == 8;
}

/* Become nobody without any capability, keeping the open fds; then check
 * that loading a tracing program is refused.
 */
static void drop_privileges(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	int cap, fd;

	for (cap = 0; prctl(PR_CAPBSET_READ, cap) >= 0; cap++)
		if (prctl(PR_CAPBSET_DROP, cap)) {
			perror("link_fuzz: PR_CAPBSET_DROP");
			exit(2);
		}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) ||
	    setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY) || syscall(SYS_capset, &hdr, data)) {
		perror("link_fuzz: dropping privileges");
		exit(2);
	}
	if (!dropped()) {
		fprintf(stderr, "link_fuzz: still privileged after the drop (/proc/self/status)\n");
		exit(2);
	}
	fd = load_return0(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY_MULTI, 0);
	if (fd != -EPERM) {
		fprintf(stderr, "link_fuzz: BPF_PROG_LOAD as nobody: %s, not EPERM\n",
			fd >= 0 ? "a program" : strerror(-fd));
		exit(2);
	}
	printf("link_fuzz: as nobody (uid and gid %d, no groups, no capabilities): "
	       "BPF_PROG_LOAD EPERM; link_create with the fds of the programs root loaded\n",
	       NOBODY);
}

int main(int argc, char **argv)
{
	int unpriv = argc > 1 && !strcmp(argv[1], "-u");
	char **arg = argv + 1 + unpriv;
	int nargs = argc - 1 - unpriv;
	unsigned long rounds = nargs > 0 ? strtoul(arg[0], NULL, 0) : 100000;
	unsigned long long seed = nargs > 1 ? strtoull(arg[1], NULL, 0) : (unsigned long long)time(NULL);
	unsigned long counts[ENOTSUPP + 1] = {}, links = 0, r;
	struct btf *btf = btf__load_vmlinux_btf();
	/* valid: traceable by every program here; pseudo: ids no type has */
	__u32 valid[12], nvalid = 0, alias[2], pseudo[4], ntypes;
	/* EINVAL by themselves (do_exit: for fexit and fsession only) */
	__u32 einval[4], neinval = 0, enoent;
	__u32 *ids, *big;
	__u64 *cookies, digest = 0xcbf29ce484222325ULL;	/* FNV-1a */
	int progs[6], want[6], nprogs = 0, i;
	char *region, *unmapped;
	size_t size;

	if (nargs > 2) {
		fprintf(stderr, "usage: link_fuzz [-u] [ROUNDS [SEED]]\n");
		return 2;
	}
	if (!btf) {
		fprintf(stderr, "link_fuzz: no vmlinux BTF\n");
		return 2;
	}
	ntypes = btf__type_cnt(btf);
	for (i = 1; i <= 10; i++) {
		char name[32];

		snprintf(name, sizeof(name), "bpf_fentry_test%d", i);
		valid[nvalid++] = func_id(btf, name);
	}
#ifdef __aarch64__
	alias[0] = func_id(btf, "__arm64_sys_munlockall");
	alias[1] = func_id(btf, "__arm64_sys_munlock");
	/* 9 arguments: ENOTSUPP when the trampoline is built */
	enoent = func_id(btf, "__probestub_mm_migrate_pages");
#else
	alias[0] = func_id(btf, "__do_sys_munlockall");	/* two names, */
	alias[1] = func_id(btf, "__x64_sys_munlockall");	/* one address */
	/* kallsyms gives an untraced namesake's address: ENOENT */
	enoent = func_id(btf, "mem32_serial_in");
#endif
	einval[neinval++] = func_id(btf, "do_exit");			/* noreturn */
	einval[neinval++] = func_id(btf, "migrate_disable");		/* denied */
	einval[neinval++] = type_id(btf, "task_struct", BTF_KIND_STRUCT);
	einval[neinval++] = type_id(btf, "int", BTF_KIND_INT);
	pseudo[0] = 0;
	pseudo[1] = ntypes;				/* one past the end */
	pseudo[2] = ntypes + 100000;			/* a module's range */
	pseudo[3] = 0xffffffff;

	want[nprogs] = BPF_TRACE_FENTRY_MULTI;
	progs[nprogs++] = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY_MULTI, 0);
	want[nprogs] = BPF_TRACE_FEXIT_MULTI;
	progs[nprogs++] = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT_MULTI, 0);
	want[nprogs] = BPF_TRACE_FSESSION_MULTI;
	progs[nprogs++] = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FSESSION_MULTI, 0);
	want[nprogs] = BPF_TRACE_FENTRY;
	progs[nprogs++] = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, valid[0]);
	want[nprogs] = 0;
	progs[nprogs++] = prog_load(BPF_PROG_TYPE_SOCKET_FILTER, 0, 0);
	want[nprogs] = BPF_TRACE_FENTRY_MULTI;
	progs[nprogs++] = prog_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY_MULTI, 0);

	/* ids, cookies, an unreadable page, then the big array */
	size = 3 * PAGE + (((LIMIT + 1) * sizeof(*big) + PAGE - 1) & ~(PAGE - 1));
	region = mmap((void *)BUF_BASE, size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (region != (void *)BUF_BASE) {
		fprintf(stderr, "link_fuzz: no memory at %#lx: %s\n", BUF_BASE,
			region == MAP_FAILED ? strerror(errno) : "mapped elsewhere");
		return 2;
	}
	ids = (__u32 *)region;
	cookies = (__u64 *)(region + PAGE);
	unmapped = region + 2 * PAGE;
	big = (__u32 *)(region + 3 * PAGE);
	if (mprotect(unmapped, PAGE, PROT_NONE)) {
		perror("link_fuzz: mprotect");
		return 2;
	}
	/*
	 * Distinct ids, in descending order for the kernel's sort: the
	 * traceable functions first, then past the BTF, so a link of them
	 * fails with EINVAL after resolving those functions.
	 */
	for (i = 0; i < (int)nvalid; i++)
		big[i] = valid[i];
	for (; i <= (int)LIMIT; i++)
		big[i] = ntypes + LIMIT + 1 - i;

	if (unpriv)
		drop_privileges();

	for (r = 0; r < rounds; r++) {
		union bpf_attr attr;
		__u32 cnt, n;
		void *idp, *cp;
		int fd, err, p, enoent_mode;

		rng = seed * 0x9E3779B97F4A7C15ULL + r + 1;
		rnd();

		switch (pick(8)) {
		case 0: cnt = 0; break;
		case 1: cnt = LIMIT - 1 + pick(3); break;	/* at the limit */
		case 2: cnt = (uint32_t)rnd(); break;
		default: cnt = 1 + pick(12); break;
		}
		n = cnt < 64 ? cnt : 64;
		enoent_mode = !pick(4);
		for (i = 0; i < (int)n; i++) {
			switch (pick(8)) {
			case 0: ids[i] = alias[pick(2)]; break;
			case 1: ids[i] = pseudo[pick(4)]; break;
			case 2:
			case 3:
				ids[i] = enoent_mode ? enoent : einval[pick(neinval)];
				break;
			default: ids[i] = valid[pick(nvalid)]; break;
			}
			cookies[i] = rnd();
		}
		if (n > 1 && !pick(8))
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
		p = pick(nprogs);

		memset(&attr, 0, sizeof(attr));
		attr.link_create.prog_fd = pick(32) ? progs[p] : bad_fd();
		attr.link_create.target_fd = pick(16) ? 0 : bad_fd();
		switch (pick(8)) {
		case 0: attr.link_create.attach_type = pick(70); break;
		case 1: attr.link_create.attach_type = BPF_TRACE_FENTRY_MULTI; break;
		case 2: attr.link_create.attach_type = BPF_TRACE_FEXIT_MULTI; break;
		case 3: attr.link_create.attach_type = BPF_TRACE_FSESSION_MULTI; break;
		default: attr.link_create.attach_type = want[p]; break;
		}
		attr.link_create.flags = pick(16) ? 0 : 1U << pick(32);
		attr.link_create.tracing_multi.ids = (unsigned long)idp;
		attr.link_create.tracing_multi.cookies = (unsigned long)cp;
		attr.link_create.tracing_multi.cnt = cnt;

		fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
		if (fd >= 0) {
			links++;
			close(fd);
			err = 0;
		} else {
			err = errno;
			counts[err <= ENOTSUPP ? err : 0]++;
		}
		for (i = 0; i < 4; i++) {
			digest ^= (err >> (8 * i)) & 0xff;
			digest *= 0x100000001b3ULL;
		}
		if (err && !allowed(err)) {
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
	printf(", digest %016llx\n", (unsigned long long)digest);
	if (links < min_links(rounds)) {
		printf("link_fuzz: %lu links in %lu rounds: at least %lu expected (%.1f %% of the rounds, "
		       "less five standard deviations)\n", links, rounds, min_links(rounds),
		       100 * LINK_SHARE);
		return 1;
	}
	return 0;
}
