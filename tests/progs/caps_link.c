// SPDX-License-Identifier: GPL-2.0
/* caps_link: tracing_multi links made with exact privileges, for
 * tests/55-privileges.bats, which runs it under setpriv with the
 * capability sets it tests.
 *
 * caps_link load TYPE
 *	Load TYPE's program of link_attach.bpf.c (fentry.multi: tm_entry,
 *	fexit.multi: tm_exit, fsession.multi: tm_session) with the caller's
 *	privileges: first a bare BPF_PROG_LOAD of a "return 0" program of
 *	TYPE, which gives the kernel's own answer ("prog_load: OK" or the
 *	errno's name), then, if that loaded, the object, and goes on as use.
 * caps_link pass TYPE CMD...
 *	Load the object (the caller is root), then run CMD with the
 *	program's and its .bss map's fds open, their numbers appended to
 *	CMD's arguments: `caps_link pass TYPE setpriv ... caps_link use
 *	TYPE` hands them to a process of other privileges.
 * caps_link use TYPE PROG_FD BSS_FD
 *	link_create with those fds on bpf_fentry_test1, 2 and 3 (cookies 1,
 *	2 and 3), two BPF_PROG_TEST_RUNs of the program (each calls
 *	bpf_fentry_test1..10 once), close the link.
 * caps_link info PIN
 *	The link info of the pinned link (BPF_OBJ_GET_INFO_BY_FD: count,
 *	then ids, addrs and cookies) and the function rows of its fdinfo.
 *
 * Each mode but pass prints first "caps: CapEff HEX uid UID", its
 * effective capabilities and real uid. Then, one line each:
 *	prog_load: OK|ERRNO		(load)
 *	link_create: OK|ERRNO
 *	calls: N1 N2 N3			runs of the program per function (for
 *					fsession.multi: entry runs, then exit
 *					runs that saw the entry's session
 *					cookie: "calls: N1 N2 N3 / X1 X2 X3")
 *	count: N			(info)
 *	func: ID ADDR COOKIE		(info; ADDR as 16 hex digits)
 *	fdinfo: LINE			(info)
 * Exit status 0 when each step gave an answer (whatever it was), 1 when
 * one failed unexpectedly, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "plain_fentry.h"
#include "link_attach.skel.h"

#define NR_FUNCS 3

struct type {
	const char *name;		/* as libbpf's SEC() */
	enum bpf_attach_type attach;
};

static const struct type types[] = {
	{ "fentry.multi", BPF_TRACE_FENTRY_MULTI },
	{ "fexit.multi", BPF_TRACE_FEXIT_MULTI },
	{ "fsession.multi", BPF_TRACE_FSESSION_MULTI },
};

static const char *errname(int err)
{
	return strerrorname_np(err) ?: "?";
}

static void print_caps(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:\t", 8)) {
			line[strcspn(line, "\n")] = 0;
			printf("caps: CapEff %s uid %u\n", line + 8, getuid());
		}
	if (f)
		fclose(f);
}

static const struct type *type_of(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(types[i].name, name))
			return &types[i];
	fprintf(stderr, "caps_link: no type %s (fentry.multi, fexit.multi, fsession.multi)\n", name);
	exit(2);
}

/* TYPE's program of the skeleton; only it is loaded */
static struct bpf_program *prog_of(struct link_attach *skel, const struct type *t)
{
	struct bpf_program *p, *want = NULL;

	switch (t->attach) {
	case BPF_TRACE_FENTRY_MULTI: want = skel->progs.tm_entry; break;
	case BPF_TRACE_FEXIT_MULTI: want = skel->progs.tm_exit; break;
	default: want = skel->progs.tm_session; break;
	}
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, p == want);
	return want;
}

static struct link_attach *open_load(const struct type *t, int *prog_fd)
{
	struct link_attach *skel = link_attach__open();
	struct bpf_program *p;
	int err;

	if (!skel) {
		printf("open: %s\n", errname(errno));
		return NULL;
	}
	p = prog_of(skel, t);
	err = link_attach__load(skel);
	if (err) {
		printf("object load: %s\n", errname(-err));
		link_attach__destroy(skel);
		return NULL;
	}
	*prog_fd = bpf_program__fd(p);
	return skel;
}

/* link_create, two test runs, the counts from the .bss map */
static int use(const struct type *t, int prog_fd, int bss_fd)
{
	const char *names[NR_FUNCS] = { "bpf_fentry_test1", "bpf_fentry_test2", "bpf_fentry_test3" };
	__u64 cookies[NR_FUNCS] = { 1, 2, 3 };
	struct link_attach__bss bss;
	__u32 ids[NR_FUNCS], zero = 0;
	struct btf *btf = btf__load_vmlinux_btf();
	int i, fd, err;

	if (!btf) {
		printf("vmlinux BTF: %s\n", errname(errno));
		return 1;
	}
	for (i = 0; i < NR_FUNCS; i++) {
		err = btf__find_by_name_kind(btf, names[i], BTF_KIND_FUNC);
		if (err <= 0) {
			printf("no BTF function %s\n", names[i]);
			return 1;
		}
		ids[i] = err;
	}
	btf__free(btf);

	LIBBPF_OPTS(bpf_link_create_opts, o, .tracing_multi.ids = ids,
		    .tracing_multi.cookies = cookies, .tracing_multi.cnt = NR_FUNCS);
	fd = bpf_link_create(prog_fd, 0, t->attach, &o);
	if (fd < 0) {
		printf("link_create: %s\n", errname(errno));
		return 0;
	}
	printf("link_create: OK\n");
	for (i = 0; i < 2; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, run);

		if (bpf_prog_test_run_opts(prog_fd, &run)) {
			printf("test_run: %s\n", errname(errno));
			close(fd);
			return 1;
		}
	}
	close(fd);
	if (bpf_map_lookup_elem(bss_fd, &zero, &bss)) {
		printf("reading the counts: %s\n", errname(errno));
		return 1;
	}
	printf("calls:");
	for (i = 1; i <= NR_FUNCS; i++)
		printf(" %llu", (unsigned long long)(t->attach == BPF_TRACE_FENTRY_MULTI ? bss.entry_hits[i] :
				 t->attach == BPF_TRACE_FEXIT_MULTI ? bss.exit_hits[i] :
				 bss.session_entries[i]));
	if (t->attach == BPF_TRACE_FSESSION_MULTI) {
		printf(" /");
		for (i = 1; i <= NR_FUNCS; i++)
			printf(" %llu", (unsigned long long)bss.session_exits[i]);
	}
	printf("\n");
	return 0;
}

static int load(const struct type *t)
{
	struct link_attach *skel;
	int fd, err;

	fd = load_return0(BPF_PROG_TYPE_TRACING, t->attach, 0);
	if (fd < 0) {
		printf("prog_load: %s\n", errname(-fd));
		return 0;
	}
	close(fd);
	printf("prog_load: OK\n");
	skel = open_load(t, &fd);
	if (!skel)
		return 1;
	err = use(t, fd, bpf_map__fd(skel->maps.bss));
	link_attach__destroy(skel);
	return err;
}

static int pass(const struct type *t, int argc, char **argv)
{
	struct link_attach *skel;
	char prog[16], bss[16];
	char **args = calloc(argc + 3, sizeof(*args));
	int fd, i;

	skel = open_load(t, &fd);
	if (!skel || !args)
		return 1;
	snprintf(prog, sizeof(prog), "%d", fd);
	snprintf(bss, sizeof(bss), "%d", bpf_map__fd(skel->maps.bss));
	if (fcntl(fd, F_SETFD, 0) || fcntl(bpf_map__fd(skel->maps.bss), F_SETFD, 0)) {
		perror("caps_link: fcntl");
		return 1;
	}
	for (i = 0; i < argc; i++)
		args[i] = argv[i];
	args[i++] = prog;
	args[i++] = bss;
	fflush(stdout);
	execvp(args[0], args);
	perror("caps_link: exec");
	return 1;
}

static int info(const char *pin)
{
	struct bpf_link_info li = {};
	__u32 len = sizeof(li), cnt, i, *ids;
	__u64 *addrs, *cookies;
	char path[64], line[512];
	int fd = bpf_obj_get(pin), rows = 0;
	FILE *f;

	if (fd < 0) {
		printf("obj_get: %s\n", errname(errno));
		return 1;
	}
	if (bpf_link_get_info_by_fd(fd, &li, &len)) {
		printf("link info: %s\n", errname(errno));
		return 1;
	}
	cnt = li.tracing_multi.count;
	printf("count: %u\n", cnt);
	ids = calloc(cnt, sizeof(*ids));
	addrs = calloc(cnt, sizeof(*addrs));
	cookies = calloc(cnt, sizeof(*cookies));
	if (!ids || !addrs || !cookies)
		return 1;
	/* addrs poisoned: what the kernel writes, zeros included, shows */
	memset(addrs, 0xa5, cnt * sizeof(*addrs));
	memset(&li, 0, sizeof(li));
	li.tracing_multi.ids = (unsigned long)ids;
	li.tracing_multi.addrs = (unsigned long)addrs;
	li.tracing_multi.cookies = (unsigned long)cookies;
	li.tracing_multi.count = cnt;
	len = sizeof(li);
	if (bpf_link_get_info_by_fd(fd, &li, &len)) {
		printf("link info: %s\n", errname(errno));
		return 1;
	}
	for (i = 0; i < li.tracing_multi.count; i++)
		printf("func: %u %016llx %llu\n", ids[i], (unsigned long long)addrs[i],
		       (unsigned long long)cookies[i]);

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f) {
		printf("fdinfo: %s\n", errname(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "obj-id", 6))
			rows = 1;
		if (rows)
			printf("fdinfo: %s", line);
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		goto usage;
	if (!strcmp(argv[1], "pass") && argc > 3)
		return pass(type_of(argv[2]), argc - 3, argv + 3);
	if (!strcmp(argv[1], "load") && argc == 3) {
		print_caps();
		return load(type_of(argv[2]));
	}
	if (!strcmp(argv[1], "use") && argc == 5) {
		print_caps();
		return use(type_of(argv[2]), atoi(argv[3]), atoi(argv[4]));
	}
	if (!strcmp(argv[1], "info") && argc == 3) {
		print_caps();
		return info(argv[2]);
	}
usage:
	fprintf(stderr, "usage: caps_link load TYPE | pass TYPE CMD... | use TYPE PROG_FD BSS_FD | info PIN\n");
	return 2;
}
