// SPDX-License-Identifier: GPL-2.0
/* tracing_multi TEST [ARGS]: the tracing_multi link tests, run by
 * tests/50-tracing-multi.bats in the guest. Each TEST attaches the programs
 * of tracing_multi.bpf.c (or tracing_multi_mod.bpf.c) through libbpf or
 * raw bpf(2), triggers the traced functions (BPF_PROG_TEST_RUN calls
 * bpf_fentry_test1..10 once each, a read of /sys/kernel/bpf_testmod calls
 * the bpf_testmod_fentry_test* functions once each) and checks exact
 * counts, arguments, return values, cookies, errnos, link info and fdinfo.
 *
 * Every check prints one line, "ok: ..." or "FAIL: ...". The exit status
 * is 0 only if all checks passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/userfaultfd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "plain_fentry.h"
#include "tracing_multi.skel.h"
#include "tracing_multi_mod.skel.h"
#include "tracing_multi_badmod.skel.h"
#include "tracing_multi_session.skel.h"

#define NR_TEST 10	/* bpf_fentry_test1..10 */
#define MOD_FIRST 10	/* index of bpf_testmod_fentry_test1 in the tables */
/* bpf_testmod's functions of TESTMOD_GLOB (tracing_multi.h): on arm64 not
 * bpf_testmod_fentry_test11, the last one.
 */
#ifdef __aarch64__
#define NR_MOD 4
#else
#define NR_MOD 5
#endif
#define MAX_TRAMP_LINKS 38	/* BPF_MAX_TRAMP_LINKS on x86_64 */

static const char *const test_funcs[NR_TEST] = {
	"bpf_fentry_test1", "bpf_fentry_test2", "bpf_fentry_test3",
	"bpf_fentry_test4", "bpf_fentry_test5", "bpf_fentry_test6",
	"bpf_fentry_test7", "bpf_fentry_test8", "bpf_fentry_test9",
	"bpf_fentry_test10",
};

static const char *const mod_funcs[] = {
	"bpf_testmod_fentry_test1", "bpf_testmod_fentry_test2",
	"bpf_testmod_fentry_test3", "bpf_testmod_fentry_test7",
	"bpf_testmod_fentry_test11",
};

static int failures;
static bool quiet;	/* print failed checks only */

static bool check(bool cond, const char *fmt, ...)
{
	va_list ap;

	if (cond && quiet)
		return cond;
	printf("%s: ", cond ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		failures++;
	return cond;
}

static const char *errname(int err)
{
	switch (err < 0 ? -err : err) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case ENOENT: return "ENOENT";
	case ENOSPC: return "ENOSPC";
	case EBUSY: return "EBUSY";
	case EPERM: return "EPERM";
	case EFAULT: return "EFAULT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOMEM: return "ENOMEM";
	default: return strerror(err < 0 ? -err : err);
	}
}

/* Whether the call failed with errno want (libbpf calls return -errno). */
static void check_err(int ret, int want, const char *what)
{
	check(ret == -want, "%s: %s (want %s)", what, errname(ret), errname(want));
}

static struct btf *vmlinux_btf;

static struct btf *load_btf(const char *mod)
{
	if (!vmlinux_btf) {
		vmlinux_btf = btf__load_vmlinux_btf();
		if (!vmlinux_btf) {
			fprintf(stderr, "cannot load vmlinux BTF: %s\n", strerror(errno));
			exit(2);
		}
	}
	if (!mod)
		return vmlinux_btf;
	return btf__load_module_btf(mod, vmlinux_btf);
}

static __u32 func_id(struct btf *btf, const char *name)
{
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);

	if (id <= 0) {
		fprintf(stderr, "no BTF function %s\n", name);
		exit(2);
	}
	return id;
}

/* The BTF object id of vmlinux or of a module's BTF. */
static __u32 btf_obj_id_of(const char *name)
{
	__u32 id = 0;

	while (!bpf_btf_get_next_id(id, &id)) {
		struct bpf_btf_info info = {};
		__u32 len = sizeof(info);
		char buf[64] = {};
		int fd;

		fd = bpf_btf_get_fd_by_id(id);
		if (fd < 0)
			continue;
		info.name = (unsigned long)buf;
		info.name_len = sizeof(buf);
		if (!bpf_btf_get_info_by_fd(fd, &info, &len) && info.kernel_btf &&
		    !strcmp(buf, name)) {
			close(fd);
			return id;
		}
		close(fd);
	}
	return 0;
}

static int test_run(struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err = bpf_prog_test_run_opts(bpf_program__fd(prog), &topts);

	check(!err, "BPF_PROG_TEST_RUN: %s", errname(err));
	return err;
}

static void testmod_read(void)
{
	char buf[16];
	int fd = open("/sys/kernel/bpf_testmod", O_RDONLY);

	if (!check(fd >= 0, "open /sys/kernel/bpf_testmod: %s", fd < 0 ? strerror(errno) : "0"))
		return;
	/* The read calls the bpf_testmod_fentry_test* functions, then fails
	 * with EIO by design.
	 */
	(void)!read(fd, buf, sizeof(buf));
	close(fd);
}

/* hits of slot for the functions [first, first + n): each == want[i] */
static void check_hits(struct tracing_multi__bss *bss, int slot, const char *prog,
		       int first, int n, const __u64 *want)
{
	int i;

	for (i = 0; i < n; i++) {
		const char *name = first >= MOD_FIRST ? mod_funcs[first - MOD_FIRST + i] :
							test_funcs[first + i];

		check(bss->hits[slot][first + i] == want[i],
		      "%s saw %s %llu times with the expected arguments%s (want %llu)",
		      prog, name, (unsigned long long)bss->hits[slot][first + i],
		      slot & 1 ? " and return value" : "", (unsigned long long)want[i]);
	}
	check(bss->bad[slot] == 0, "%s: %llu calls with unexpected arguments or return value",
	      prog, (unsigned long long)bss->bad[slot]);
}

static const __u64 ones[NR_TEST] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
static const __u64 zeros[NR_TEST];
static const __u64 only_first[NR_TEST] = { 1 };

/* The four programs of the skeleton's auto-attach set, attached one way or
 * another: fentry/fexit on all ten, the sleepable pair on bpf_fentry_test1.
 */
static void check_all_four(struct tracing_multi *skel)
{
	if (test_run(skel->progs.fentry_all))
		return;
	check_hits(skel->bss, 0, "fentry.multi", 0, NR_TEST, ones);
	check_hits(skel->bss, 1, "fexit.multi", 0, NR_TEST, ones);
	check_hits(skel->bss, 2, "fentry.multi.s", 0, NR_TEST, only_first);
	check_hits(skel->bss, 3, "fexit.multi.s", 0, NR_TEST, only_first);
}

/* Check the four programs if all their links were made, then clean up. */
static int run_four(struct tracing_multi *skel, struct bpf_link **links, bool ok)
{
	int i;

	if (ok)
		check_all_four(skel);
	for (i = 0; i < 4; i++)
		bpf_link__destroy(links[i]);
	tracing_multi__destroy(skel);
	return 0;
}

static struct tracing_multi *open_load(void)
{
	struct tracing_multi *skel = tracing_multi__open_and_load();

	if (!skel) {
		fprintf(stderr, "tracing_multi__open_and_load: %s\n", strerror(errno));
		exit(2);
	}
	skel->bss->pid = getpid();
	return skel;
}

static int test_skel(void)
{
	struct tracing_multi *skel = open_load();
	int err = tracing_multi__attach(skel);

	if (check(!err, "skeleton auto-attach: %s", errname(err)))
		check_all_four(skel);
	tracing_multi__destroy(skel);
	return 0;
}

static int test_pattern(void)
{
	struct tracing_multi *skel = open_load();
	struct bpf_program *progs[] = { skel->progs.fentry_all, skel->progs.fexit_all,
					skel->progs.fentry_sleepable, skel->progs.fexit_sleepable };
	const char *patterns[] = { "bpf_fentry_test*", "bpf_fentry_test*",
				   "bpf_fentry_test1", "bpf_fentry_test1" };
	struct bpf_link *links[4] = {};
	bool ok = true;
	int i;

	for (i = 0; i < 4; i++) {
		links[i] = bpf_program__attach_tracing_multi(progs[i], patterns[i], NULL);
		ok &= check(links[i], "attach %s by pattern %s: %s", bpf_program__name(progs[i]),
			    patterns[i], errname(links[i] ? 0 : errno));
	}
	return run_four(skel, links, ok);
}

static void get_test_ids(__u32 *ids)
{
	struct btf *btf = load_btf(NULL);
	int i;

	for (i = 0; i < NR_TEST; i++)
		ids[i] = func_id(btf, test_funcs[i]);
}

static int test_ids(void)
{
	struct tracing_multi *skel = open_load();
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
	struct bpf_link *links[4] = {};
	__u32 ids[NR_TEST];
	bool ok = true;
	int i;

	get_test_ids(ids);
	opts.ids = ids;
	opts.cnt = NR_TEST;
	links[0] = bpf_program__attach_tracing_multi(skel->progs.fentry_all, NULL, &opts);
	links[1] = bpf_program__attach_tracing_multi(skel->progs.fexit_all, NULL, &opts);
	opts.cnt = 1;
	links[2] = bpf_program__attach_tracing_multi(skel->progs.fentry_sleepable, NULL, &opts);
	links[3] = bpf_program__attach_tracing_multi(skel->progs.fexit_sleepable, NULL, &opts);
	for (i = 0; i < 4; i++)
		ok &= check(links[i], "attach link %d by BTF ids", i);
	return run_four(skel, links, ok);
}

/*
 * The addresses of the functions names[0..n) in one pass over a file,
 * 0 for a name it does not list: /proc/kallsyms's ("ADDR TYPE NAME",
 * text symbols), or with ftrace their ftrace locations, as
 * available_filter_functions_addrs lists them ("ADDR NAME"). Link info
 * and fdinfo give a function's ftrace location, as upstream's do: its
 * address in kallsyms, or a few bytes after (x86 with IBT: the endbr64;
 * arm64: the instructions before the patched call).
 */
static void func_addrs(const char *const *names, int n, __u64 *addrs, bool ftrace)
{
	FILE *f = fopen(ftrace ? "/sys/kernel/tracing/available_filter_functions_addrs" :
				 "/proc/kallsyms", "r");
	char line[512], sym[256], type = 't';
	unsigned long long addr;
	int i;

	memset(addrs, 0, n * sizeof(*addrs));
	while (f && fgets(line, sizeof(line), f)) {
		if (ftrace ? sscanf(line, "%llx %255s", &addr, sym) != 2 :
			     sscanf(line, "%llx %c %255s", &addr, &type, sym) != 3)
			continue;
		if (type != 't' && type != 'T')
			continue;
		for (i = 0; i < n; i++)
			if (!addrs[i] && !strcmp(sym, names[i]))
				addrs[i] = addr;
	}
	if (f)
		fclose(f);
}

static void ksym_addrs(const char *const *names, int n, __u64 *addrs)
{
	func_addrs(names, n, addrs, false);
}

static void ftrace_addrs(const char *const *names, int n, __u64 *addrs)
{
	func_addrs(names, n, addrs, true);
}

static int link_info(int fd, struct bpf_link_info *info, __u32 *ids, __u64 *addrs,
		     __u64 *cookies, __u32 count)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	info->tracing_multi.ids = (unsigned long)ids;
	info->tracing_multi.addrs = (unsigned long)addrs;
	info->tracing_multi.cookies = (unsigned long)cookies;
	info->tracing_multi.count = count;
	return bpf_link_get_info_by_fd(fd, info, &len);
}

/*
 * Upstream's layout of bpf_link_info.tracing_multi (859055e07697), as
 * byte offsets into struct bpf_link_info: __u32 type, id, prog_id, then
 * the union at 16 with __u32 attach_type, count, btf_obj_id, a hole,
 * then __aligned_u64 ids, addrs, cookies. A program built against
 * upstream's header reads exactly these bytes.
 */
enum {
	LI_TYPE = 0, LI_ATTACH_TYPE = 16, LI_COUNT = 20, LI_BTF_OBJ_ID = 24,
	LI_IDS = 32, LI_ADDRS = 40, LI_COOKIES = 48, LI_END = 56,
};

static __u32 get_u32(const void *buf, int off)
{
	__u32 v;

	memcpy(&v, (const char *)buf + off, sizeof(v));
	return v;
}

static void put_u64(void *buf, int off, __u64 v)
{
	memcpy((char *)buf + off, &v, sizeof(v));
}

/* Upstream's link info test: cookies 30, 10, 20 for bpf_fentry_test2,
 * 1 and 3, so sorting by BTF id must move them along.
 */
static const char *const li_funcs[3] = { "bpf_fentry_test2", "bpf_fentry_test1",
					 "bpf_fentry_test3" };
static const __u64 li_cookies[3] = { 30, 10, 20 };

struct li_target {
	__u32 id;
	__u64 addr, cookie;	/* addr: the function's ftrace location */
	__u64 off;		/* its offset from the kallsyms address */
	const char *name;
};

static int li_target_cmp(const void *a, const void *b)
{
	const struct li_target *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* want[] for names[i] with cookies[i] (or 0), in BTF id order */
static void li_targets(struct btf *btf, const char *const *names, const __u64 *cookies, int n,
		       struct li_target *want)
{
	__u64 addrs[n], ksyms[n];
	int i;

	ftrace_addrs(names, n, addrs);
	ksym_addrs(names, n, ksyms);
	for (i = 0; i < n; i++) {
		want[i].name = names[i];
		want[i].id = func_id(btf, names[i]);
		want[i].addr = addrs[i];
		want[i].off = addrs[i] - ksyms[i];
		want[i].cookie = cookies ? cookies[i] : 0;
	}
	qsort(want, n, sizeof(*want), li_target_cmp);
}

/* Attach prog to li_funcs with li_cookies (or none), and fill want[]
 * sorted by BTF id as the kernel reports them.
 */
static struct bpf_link *li_attach(struct bpf_program *prog, bool with_cookies,
				  struct li_target *want)
{
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
	struct btf *btf = load_btf(NULL);
	__u32 ids[3];
	int i;

	for (i = 0; i < 3; i++)
		ids[i] = func_id(btf, li_funcs[i]);
	li_targets(btf, li_funcs, with_cookies ? li_cookies : NULL, 3, want);
	opts.ids = ids;
	opts.cookies = with_cookies ? li_cookies : NULL;
	opts.cnt = 3;
	return bpf_program__attach_tracing_multi(prog, NULL, &opts);
}

static void li_check_entries(const char *what, const __u32 *ids, const __u64 *addrs,
			     const __u64 *cookies, const struct li_target *want, int n,
			     bool hidden)
{
	int i;

	for (i = 0; i < n; i++) {
		if (ids)
			check(ids[i] == want[i].id, "%s: ids[%d] = %u (want %u, %s)", what, i,
			      ids[i], want[i].id, want[i].name);
		if (addrs)
			check(addrs[i] == (hidden ? 0 : want[i].addr),
			      "%s: addrs[%d] = %#llx (want %#llx, %s)", what, i,
			      (unsigned long long)addrs[i],
			      (unsigned long long)(hidden ? 0 : want[i].addr), want[i].name);
		if (cookies)
			check(cookies[i] == want[i].cookie, "%s: cookies[%d] = %llu (want %llu)",
			      what, i, (unsigned long long)cookies[i],
			      (unsigned long long)want[i].cookie);
	}
}

static void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val)) {
		fprintf(stderr, "write %s: %s\n", path, strerror(errno));
		exit(2);
	}
	close(fd);
}

static void read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, len, f)) {
		fprintf(stderr, "read %s: %s\n", path, strerror(errno));
		exit(2);
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

/*
 * The tracing_multi lines of fd's fdinfo, exactly as upstream prints them
 * (8abecdafd575): "attach_type:\t<number>", "cnt:\t<n>", the header
 * "obj-id\t btf-id\t cookie\t func", then per function, in BTF id order,
 * "<btf obj id>\t <btf id>\t <cookie>\t <%pS of the function>". The row
 * for want[i] must be "OBJ\t ID\t COOKIE\t NAME+0x<off>/0x<size>[ [MODULE]]",
 * <off> the ftrace location's offset in the function (upstream prints the
 * ftrace location, tr->ip).
 */
static void check_fdinfo(int fd, __u32 attach_type, __u32 obj_id, const struct li_target *want,
			 int n, const char *module)
{
	char path[64], line[512], *lines[64];
	int nlines = 0, i, at = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!check(f, "open %s", path))
		return;
	while (nlines < 64 && fgets(line, sizeof(line), f)) {
		printf("  fdinfo| %s", line);
		lines[nlines++] = strdup(line);
	}
	fclose(f);
	for (i = 0; i < nlines; i++)
		if (!strncmp(lines[i], "attach_type:", 12))
			at = i;
	if (!check(at >= 0 && nlines == at + 3 + n, "fdinfo: attach_type line, then %d more lines "
		   "(have %d lines, attach_type at %d)", 2 + n, nlines, at))
		goto out;
	snprintf(line, sizeof(line), "attach_type:\t%u\n", attach_type);
	check(!strcmp(lines[at], line), "fdinfo line \"attach_type:\\t%u\"", attach_type);
	snprintf(line, sizeof(line), "cnt:\t%d\n", n);
	check(!strcmp(lines[at + 1], line), "fdinfo line \"cnt:\\t%d\"", n);
	check(!strcmp(lines[at + 2], "obj-id\t btf-id\t cookie\t func\n"),
	      "fdinfo header \"obj-id\\t btf-id\\t cookie\\t func\"");
	for (i = 0; i < n; i++) {
		char *row = lines[at + 3 + i], *rest, tail[80];
		int len = snprintf(line, sizeof(line), "%u\t %u\t %llu\t %s+0x%llx/0x", obj_id,
				   want[i].id, (unsigned long long)want[i].cookie, want[i].name,
				   (unsigned long long)want[i].off);
		bool ok = !strncmp(row, line, len);

		rest = row + len;
		rest += strspn(rest, "0123456789abcdef");
		snprintf(tail, sizeof(tail), module ? " [%s]\n" : "\n", module);
		ok &= rest > row + len && !strcmp(rest, tail);
		check(ok, "fdinfo row %d: %.*s<size>%s", i, len, line, module ? " [module]" : "");
	}
out:
	for (i = 0; i < nlines; i++)
		free(lines[i]);
}

static void shuffle(int *a, int n)
{
	int i;

	for (i = n - 1; i > 0; i--) {
		int j = rand() % (i + 1), t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

static int test_cookies(void)
{
	struct tracing_multi *skel = open_load();
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
	__u32 ids[NR_TEST], sids[NR_TEST], info_ids[NR_TEST];
	__u64 cookies[NR_TEST], info_cookies[NR_TEST], want_cookies[NR_TEST];
	struct li_target want[NR_TEST];
	struct bpf_link_info info;
	int order[NR_TEST], i, j, err;
	struct bpf_link *link;

	srand(getpid());
	get_test_ids(ids);
	for (i = 0; i < NR_TEST; i++)
		order[i] = i;
	shuffle(order, NR_TEST);
	/* Function i gets cookie 1000 + i * 7, given in shuffled order. */
	printf("order:");
	for (i = 0; i < NR_TEST; i++) {
		sids[i] = ids[order[i]];
		cookies[i] = 1000 + order[i] * 7;
		printf(" %d", order[i] + 1);
	}
	printf("\n");
	opts.ids = sids;
	opts.cookies = cookies;
	opts.cnt = NR_TEST;
	link = bpf_program__attach_tracing_multi(skel->progs.fentry_a, NULL, &opts);
	if (!check(link, "attach with shuffled ids and cookies: %s", errname(link ? 0 : errno)))
		goto out;
	/* The kernel sorted ids and cookies: the caller's arrays stay as they were. */
	check(sids[0] == ids[order[0]], "caller's ids array left unchanged");
	if (test_run(skel->progs.fentry_a))
		goto out;
	check_hits(skel->bss, 4, "fentry.multi", 0, NR_TEST, ones);
	for (i = 0; i < NR_TEST; i++)
		check(skel->bss->cookie[4][i] == 1000 + (__u64)i * 7,
		      "bpf_get_attach_cookie() in %s is %llu (want %llu)", test_funcs[i],
		      (unsigned long long)skel->bss->cookie[4][i], 1000ULL + i * 7);

	/* fdinfo: one row per function in BTF id order, its own cookie */
	for (i = 0; i < NR_TEST; i++)
		want_cookies[i] = 1000 + i * 7;
	li_targets(load_btf(NULL), test_funcs, want_cookies, NR_TEST, want);
	check_fdinfo(bpf_link__fd(link), BPF_TRACE_FENTRY_MULTI, btf_obj_id_of("vmlinux"), want,
		     NR_TEST, NULL);

	/* link info: ids sorted, each cookie still with its id */
	err = link_info(bpf_link__fd(link), &info, info_ids, NULL, info_cookies, NR_TEST);
	check(!err, "link info: %s", errname(err));
	check(info.type == BPF_LINK_TYPE_TRACING_MULTI, "link info type %u", info.type);
	check(info.tracing_multi.count == NR_TEST, "link info count %u",
	      info.tracing_multi.count);
	check(info.tracing_multi.attach_type == BPF_TRACE_FENTRY_MULTI,
	      "link info attach_type %u", info.tracing_multi.attach_type);
	check(info.tracing_multi.btf_obj_id == btf_obj_id_of("vmlinux"),
	      "link info btf_obj_id %u is vmlinux's", info.tracing_multi.btf_obj_id);
	for (i = 1; i < NR_TEST; i++)
		if (info_ids[i - 1] >= info_ids[i])
			break;
	check(i == NR_TEST, "link info ids are sorted");
	for (i = 0; i < NR_TEST; i++) {
		for (j = 0; j < NR_TEST && ids[j] != info_ids[i]; j++)
			;
		check(j < NR_TEST && info_cookies[i] == 1000 + (__u64)j * 7,
		      "link info: id %u (%s) cookie %llu", info_ids[i],
		      j < NR_TEST ? test_funcs[j] : "?", (unsigned long long)info_cookies[i]);
	}
out:
	bpf_link__destroy(link);
	tracing_multi__destroy(skel);
	return 0;
}

static int test_linkinfo(void)
{
	struct tracing_multi *skel = open_load();
	struct li_target want[3], want_nc[3];
	__u32 ids[4], vmlinux_id = btf_obj_id_of("vmlinux");
	__u64 addrs[4], cookies[4];
	struct bpf_link *link, *link_nc = NULL;
	struct bpf_link_info info;
	char raw[sizeof(info) + 64], kptr[16];
	__u32 len;
	int fd, err, i;

	link = li_attach(skel->progs.fentry_a, true, want);
	if (!check(link, "attach fentry.multi to bpf_fentry_test2, 1, 3 with cookies 30, 10, 20"))
		goto out;
	fd = bpf_link__fd(link);
	for (i = 0; i < 3; i++)
		check(want[i].addr && want[i].off < 16,
		      "available_filter_functions_addrs and /proc/kallsyms have %s (+%#llx)",
		      want[i].name, (unsigned long long)want[i].off);

	/* The layout, seen from the header and from the bytes the kernel writes */
	check(offsetof(struct bpf_link_info, tracing_multi.attach_type) == LI_ATTACH_TYPE &&
	      offsetof(struct bpf_link_info, tracing_multi.count) == LI_COUNT &&
	      offsetof(struct bpf_link_info, tracing_multi.btf_obj_id) == LI_BTF_OBJ_ID &&
	      offsetof(struct bpf_link_info, tracing_multi.ids) == LI_IDS &&
	      offsetof(struct bpf_link_info, tracing_multi.addrs) == LI_ADDRS &&
	      offsetof(struct bpf_link_info, tracing_multi.cookies) == LI_COOKIES,
	      "UAPI header: tracing_multi at upstream's offsets 16, 20, 24, 32, 40, 48");
	memset(raw, 0, sizeof(raw));
	memset(ids, 0, sizeof(ids));
	memset(addrs, 0, sizeof(addrs));
	memset(cookies, 0, sizeof(cookies));
	put_u64(raw, LI_IDS, (unsigned long)ids);
	put_u64(raw, LI_ADDRS, (unsigned long)addrs);
	put_u64(raw, LI_COOKIES, (unsigned long)cookies);
	memcpy(raw + LI_COUNT, &(__u32){ 3 }, sizeof(__u32));
	len = LI_END;
	err = bpf_obj_get_info_by_fd(fd, raw, &len);
	check(!err && len == LI_END, "raw query with a %d-byte info: %s, info_len %u", LI_END,
	      errname(err), len);
	check(get_u32(raw, LI_TYPE) == BPF_LINK_TYPE_TRACING_MULTI &&
	      get_u32(raw, LI_ATTACH_TYPE) == BPF_TRACE_FENTRY_MULTI &&
	      get_u32(raw, LI_COUNT) == 3 && get_u32(raw, LI_BTF_OBJ_ID) == vmlinux_id,
	      "raw bytes: type %u at 0, attach_type %u at 16, count %u at 20, btf_obj_id %u at 24",
	      get_u32(raw, LI_TYPE), get_u32(raw, LI_ATTACH_TYPE), get_u32(raw, LI_COUNT),
	      get_u32(raw, LI_BTF_OBJ_ID));
	li_check_entries("raw query", ids, addrs, cookies, want, 3, false);

	/* All three arrays NULL: only the scalars, whatever count says */
	for (i = 0; i < 2; i++) {
		err = link_info(fd, &info, NULL, NULL, NULL, i ? 7 : 0);
		check(!err && info.type == BPF_LINK_TYPE_TRACING_MULTI &&
		      info.tracing_multi.attach_type == BPF_TRACE_FENTRY_MULTI &&
		      info.tracing_multi.count == 3 && info.tracing_multi.btf_obj_id == vmlinux_id,
		      "count query (count %d in): %s, attach_type %u, count %u, btf_obj_id %u",
		      i ? 7 : 0, errname(err), info.tracing_multi.attach_type,
		      info.tracing_multi.count, info.tracing_multi.btf_obj_id);
	}

	/* Any array with count 0 */
	check_err(link_info(fd, &info, ids, NULL, NULL, 0), EINVAL, "ids with count 0");
	check_err(link_info(fd, &info, NULL, addrs, NULL, 0), EINVAL, "addrs with count 0");
	check_err(link_info(fd, &info, NULL, NULL, cookies, 0), EINVAL, "cookies with count 0");

	/* Each array on its own */
	memset(ids, 0, sizeof(ids));
	err = link_info(fd, &info, ids, NULL, NULL, 3);
	check(!err, "ids only: %s", errname(err));
	li_check_entries("ids only", ids, NULL, NULL, want, 3, false);
	memset(addrs, 0, sizeof(addrs));
	err = link_info(fd, &info, NULL, addrs, NULL, 3);
	check(!err, "addrs only: %s", errname(err));
	li_check_entries("addrs only", NULL, addrs, NULL, want, 3, false);
	memset(cookies, 0, sizeof(cookies));
	err = link_info(fd, &info, NULL, NULL, cookies, 3);
	check(!err, "cookies only: %s", errname(err));
	li_check_entries("cookies only", NULL, NULL, cookies, want, 3, false);

	/* Smaller count: the first entries, ENOSPC, and nothing copied back */
	memset(ids, 0, sizeof(ids));
	memset(addrs, 0, sizeof(addrs));
	memset(cookies, 0, sizeof(cookies));
	err = link_info(fd, &info, ids, addrs, cookies, 2);
	check_err(err, ENOSPC, "count 2 for 3 functions");
	li_check_entries("count 2", ids, addrs, cookies, want, 2, false);
	check(!ids[2] && !addrs[2] && !cookies[2], "count 2: the third entries untouched");
	check(info.tracing_multi.count == 2 && info.tracing_multi.attach_type == 0,
	      "count 2: the info struct is not copied back on error (count %u, attach_type %u)",
	      info.tracing_multi.count, info.tracing_multi.attach_type);

	/* Larger count: all entries, count set to the link's */
	memset(ids, 0, sizeof(ids));
	memset(addrs, 0, sizeof(addrs));
	memset(cookies, 0xff, sizeof(cookies));
	err = link_info(fd, &info, ids, addrs, cookies, 4);
	check(!err && info.tracing_multi.count == 3, "count 4 for 3 functions: %s, count %u",
	      errname(err), info.tracing_multi.count);
	li_check_entries("count 4", ids, addrs, cookies, want, 3, false);
	check(!ids[3] && !addrs[3] && cookies[3] == ~0ULL, "count 4: the fourth entries untouched");

	/* Bad pointers */
	check_err(link_info(fd, &info, (void *)1, NULL, NULL, 3), EFAULT, "ids pointer 0x1");
	check_err(link_info(fd, &info, NULL, (void *)1, NULL, 3), EFAULT, "addrs pointer 0x1");
	check_err(link_info(fd, &info, NULL, NULL, (void *)1, 3), EFAULT, "cookies pointer 0x1");

	/* Addresses hidden from the caller: zeros, the rest as before */
	read_file("/proc/sys/kernel/kptr_restrict", kptr, sizeof(kptr));
	write_file("/proc/sys/kernel/kptr_restrict", "2");
	memset(addrs, 0xff, sizeof(addrs));
	err = link_info(fd, &info, ids, addrs, cookies, 3);
	write_file("/proc/sys/kernel/kptr_restrict", kptr);
	check(!err, "kptr_restrict 2: %s", errname(err));
	li_check_entries("kptr_restrict 2", ids, addrs, cookies, want, 3, true);

	/* A link without cookies: cookies read as 0 */
	link_nc = li_attach(skel->progs.fexit_a, false, want_nc);
	if (check(link_nc, "attach fexit.multi to the same functions without cookies")) {
		memset(cookies, 0xff, sizeof(cookies));
		err = link_info(bpf_link__fd(link_nc), &info, ids, addrs, cookies, 3);
		check(!err && info.tracing_multi.attach_type == BPF_TRACE_FEXIT_MULTI,
		      "fexit.multi link: %s, attach_type %u", errname(err),
		      info.tracing_multi.attach_type);
		li_check_entries("no cookies", ids, addrs, cookies, want_nc, 3, false);
	}
out:
	bpf_link__destroy(link_nc);
	bpf_link__destroy(link);
	tracing_multi__destroy(skel);
	return 0;
}

/*
 * BPF_OBJ_GET_INFO_BY_FD copies the link's arrays to user memory. When
 * that memory faults (here: a userfaultfd page nobody serves yet), the
 * caller sleeps in the copy; it must not hold anything attach or detach
 * need meanwhile. While one thread is stuck copying this link's ids, the
 * link is detached, another tracing_multi link is made on the same
 * functions and closed again: all of it must finish before the page is
 * served. A watchdog serves the page after UFFD_WAIT_S in any case, so a
 * lock held across the copy shows up as a failure, not as a hang. Each
 * wait takes milliseconds when all is well; the limit is far above what
 * a slow or busy machine needs, and is reached only by a hang.
 */
#define UFFD_WAIT_S 120

struct uffd_state {
	int uffd, link_fd, err;
	void *page;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool fault_seen, ops_done, served, served_early, info_done;
};

static void *uffd_info_thread(void *arg)
{
	struct uffd_state *st = arg;
	struct bpf_link_info info;
	int err = link_info(st->link_fd, &info, st->page, NULL, NULL, 3);

	pthread_mutex_lock(&st->lock);
	st->err = err;
	st->info_done = true;
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

static void *uffd_server_thread(void *arg)
{
	struct uffd_state *st = arg;
	struct uffdio_zeropage zp = {};
	struct pollfd pfd = { .fd = st->uffd, .events = POLLIN };
	struct uffd_msg msg;
	struct timespec deadline;

	if (poll(&pfd, 1, UFFD_WAIT_S * 1000) == 1 && read(st->uffd, &msg, sizeof(msg)) == sizeof(msg) &&
	    msg.event == UFFD_EVENT_PAGEFAULT) {
		pthread_mutex_lock(&st->lock);
		st->fault_seen = true;
		pthread_cond_broadcast(&st->cond);
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_sec += UFFD_WAIT_S;
		while (!st->ops_done &&
		       pthread_cond_timedwait(&st->cond, &st->lock, &deadline) != ETIMEDOUT)
			;
		st->served_early = !st->ops_done;
		pthread_mutex_unlock(&st->lock);
	}
	zp.range.start = (unsigned long)st->page;
	zp.range.len = getpagesize();
	ioctl(st->uffd, UFFDIO_ZEROPAGE, &zp);
	pthread_mutex_lock(&st->lock);
	st->served = true;
	pthread_cond_broadcast(&st->cond);
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

static int test_linkinfo_uffd(void)
{
	struct tracing_multi *skel = open_load();
	struct uffd_state st = { .lock = PTHREAD_MUTEX_INITIALIZER,
				 .cond = PTHREAD_COND_INITIALIZER };
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {};
	pthread_t info_thr, server_thr;
	struct li_target want[3];
	struct bpf_link *link, *other = NULL;
	struct timespec deadline;
	bool info_blocked;
	int err;

	link = li_attach(skel->progs.fentry_a, true, want);
	if (!check(link, "attach fentry.multi to three functions"))
		goto out;
	st.link_fd = bpf_link__fd(link);
	st.uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (!check(st.uffd >= 0 && !ioctl(st.uffd, UFFDIO_API, &api), "userfaultfd: %s",
		   strerror(errno)))
		goto out;
	st.page = mmap(NULL, getpagesize(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	reg.range.start = (unsigned long)st.page;
	reg.range.len = getpagesize();
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (!check(st.page != MAP_FAILED && !ioctl(st.uffd, UFFDIO_REGISTER, &reg),
		   "register a missing page with userfaultfd: %s", strerror(errno)))
		goto out;

	pthread_create(&server_thr, NULL, uffd_server_thread, &st);
	pthread_create(&info_thr, NULL, uffd_info_thread, &st);
	pthread_mutex_lock(&st.lock);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += UFFD_WAIT_S;
	while (!st.fault_seen && !st.served &&
	       pthread_cond_timedwait(&st.cond, &st.lock, &deadline) != ETIMEDOUT)
		;
	info_blocked = st.fault_seen && !st.info_done;
	pthread_mutex_unlock(&st.lock);
	check(info_blocked, "link info call sleeps on the unserved page");

	/* Meanwhile: detach this link, attach and drop another one */
	err = bpf_link_detach(st.link_fd);
	check(!err, "BPF_LINK_DETACH of the link being read: %s", errname(err));
	other = li_attach(skel->progs.fentry_b, false, want);
	check(other, "another fentry.multi link on the same functions: %s",
	      errname(other ? 0 : errno));
	bpf_link__destroy(other);

	pthread_mutex_lock(&st.lock);
	st.ops_done = true;
	check(!st.info_done && !st.served,
	      "detach, attach and close finished while the copy was still waiting");
	pthread_cond_broadcast(&st.cond);
	pthread_mutex_unlock(&st.lock);
	pthread_join(info_thr, NULL);
	pthread_join(server_thr, NULL);
	check(!st.served_early, "the watchdog did not have to serve the page");
	check(!st.err, "the link info call returned %s once the page was served",
	      errname(st.err));
out:
	bpf_link__destroy(link);
	tracing_multi__destroy(skel);
	return 0;
}

/* Lines of /sys/kernel/tracing/enabled_functions whose function name
 * contains @part.
 */
static int enabled_funcs_matching(const char *part)
{
	FILE *f = fopen("/sys/kernel/tracing/enabled_functions", "r");
	char line[512];
	int n = 0;

	if (!f) {
		fprintf(stderr, "enabled_functions: %s\n", strerror(errno));
		exit(2);
	}
	while (fgets(line, sizeof(line), f))
		if (line[0] != ' ' && line[0] != '\t' && strstr(line, part))
			n++;
	fclose(f);
	return n;
}

/* Lines of /sys/kernel/tracing/enabled_functions naming a bpf_fentry_test
 * function: every attached trampoline shows up there.
 */
static int enabled_test_funcs(void)
{
	return enabled_funcs_matching("bpf_fentry_test");
}

static int test_detach(void)
{
	struct tracing_multi *skel = open_load();
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
	__u64 cookies[NR_TEST] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, info_cookies[NR_TEST];
	struct bpf_link_info info;
	__u32 ids[NR_TEST];
	struct bpf_link *link;
	int fd, err;

	get_test_ids(ids);
	opts.ids = ids;
	opts.cookies = cookies;
	opts.cnt = NR_TEST;
	link = bpf_program__attach_tracing_multi(skel->progs.fentry_a, NULL, &opts);
	if (!check(link, "attach"))
		goto out;
	fd = bpf_link__fd(link);
	check(enabled_test_funcs() == NR_TEST, "10 bpf_fentry_test functions in enabled_functions");

	err = bpf_link_detach(fd);
	check(!err, "BPF_LINK_DETACH: %s", errname(err));
	check(enabled_test_funcs() == 0, "no bpf_fentry_test function in enabled_functions");
	if (!test_run(skel->progs.fentry_a))
		check_hits(skel->bss, 4, "detached fentry.multi", 0, NR_TEST, zeros);
	err = link_info(fd, &info, NULL, NULL, NULL, 0);
	check(!err && info.tracing_multi.count == 0 &&
	      info.tracing_multi.attach_type == BPF_TRACE_FENTRY_MULTI &&
	      info.tracing_multi.btf_obj_id == btf_obj_id_of("vmlinux"),
	      "link info after detach: %s, count %u, attach_type %u, btf_obj_id %u", errname(err),
	      info.tracing_multi.count, info.tracing_multi.attach_type,
	      info.tracing_multi.btf_obj_id);
	memset(info_cookies, 0xff, sizeof(info_cookies));
	err = link_info(fd, &info, NULL, NULL, info_cookies, NR_TEST);
	check(!err && info.tracing_multi.count == 0 && info_cookies[0] == ~0ULL,
	      "link info after detach with buffers: %s, count %u, nothing written", errname(err),
	      info.tracing_multi.count);
	check_fdinfo(fd, BPF_TRACE_FENTRY_MULTI, btf_obj_id_of("vmlinux"), NULL, 0, NULL);
	err = bpf_link_detach(fd);
	check(!err, "second BPF_LINK_DETACH: %s", errname(err));
out:
	bpf_link__destroy(link);
	tracing_multi__destroy(skel);
	check(enabled_test_funcs() == 0, "nothing left in enabled_functions after close");
	return 0;
}

static int test_module(const char *pin)
{
	__u32 info_ids[NR_MOD], mod_id = btf_obj_id_of("bpf_testmod");
	__u64 want[NR_MOD], info_addrs[NR_MOD];
	struct tracing_multi_mod *skel;
	struct li_target funcs[NR_MOD];
	struct bpf_link_info info;
	struct btf *btf;
	int err;

	for (int i = 0; i < NR_MOD; i++)
		want[i] = 1;
	skel = tracing_multi_mod__open_and_load();
	if (!check(skel, "load programs with bpf_testmod: sections: %s", errname(skel ? 0 : errno)))
		return 0;
	skel->bss->pid = getpid();
	err = tracing_multi_mod__attach(skel);
	if (!check(!err, "auto-attach bpf_testmod:bpf_testmod_fentry_test*: %s", errname(err)))
		goto out;
	testmod_read();
	check_hits((struct tracing_multi__bss *)skel->bss, 0, "fentry.multi", MOD_FIRST, NR_MOD, want);
	{
		struct bpf_link *l;

		l = bpf_program__attach_tracing_multi(skel->progs.mod_fentry, "bpf_fentry_test1",
						      NULL);
		check_err(l ? 0 : -errno, EINVAL,
			  "libbpf: vmlinux pattern for a program loaded for bpf_testmod");
		bpf_link__destroy(l);
	}
	check_hits((struct tracing_multi__bss *)skel->bss, 1, "fexit.multi", MOD_FIRST, NR_MOD, want);

	/* Module functions: BTF ids of bpf_testmod's BTF, its BTF object,
	 * module addresses, "[bpf_testmod]" in fdinfo.
	 */
	btf = load_btf("bpf_testmod");
	if (!check(btf && mod_id, "bpf_testmod's BTF (object id %u)", mod_id))
		goto out;
	li_targets(btf, mod_funcs, NULL, NR_MOD, funcs);
	btf__free(btf);
	check_fdinfo(bpf_link__fd(skel->links.mod_fentry), BPF_TRACE_FENTRY_MULTI, mod_id, funcs,
		     NR_MOD, "bpf_testmod");

	err = link_info(bpf_link__fd(skel->links.mod_fexit), &info, info_ids, info_addrs, NULL,
			NR_MOD);
	check(!err && info.tracing_multi.count == NR_MOD &&
	      info.tracing_multi.attach_type == BPF_TRACE_FEXIT_MULTI &&
	      info.tracing_multi.btf_obj_id == mod_id,
	      "link info: %s, count %u, attach_type %u, btf_obj_id %u (bpf_testmod's %u)",
	      errname(err), info.tracing_multi.count, info.tracing_multi.attach_type,
	      info.tracing_multi.btf_obj_id, mod_id);
	li_check_entries("module link info", info_ids, info_addrs, NULL, funcs, NR_MOD, false);

	if (pin) {
		char path[256];

		snprintf(path, sizeof(path), "%s/mod_fentry", pin);
		err = bpf_link__pin(skel->links.mod_fentry, path);
		check(!err, "pin link at %s: %s", path, errname(err));
	}
out:
	tracing_multi_mod__destroy(skel);
	return 0;
}

/* Random overlapping subsets of the ten functions for the four slot 4-7
 * programs, plus ordinary fentry/fexit links: every program must count each
 * of its functions exactly once per run, and go on doing so when another
 * link on the same functions goes away.
 */
static int test_intersect(unsigned int seed, int rounds)
{
	struct tracing_multi *singles[2][NR_TEST] = {};
	struct bpf_link *slinks[2][NR_TEST] = {};
	int r, s, i;

	srand(seed);
	printf("seed %u\n", seed);
	for (r = 0; r < rounds; r++) {
		struct tracing_multi *skel = open_load();
		struct bpf_program *progs[4] = { skel->progs.fentry_a, skel->progs.fentry_b,
						 skel->progs.fexit_a, skel->progs.fexit_b };
		struct bpf_link *links[4] = {};
		__u64 want[4][NR_TEST] = {};
		__u32 all[NR_TEST];

		get_test_ids(all);
		for (s = 0; s < 4; s++) {
			LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
			__u32 ids[NR_TEST];
			int n = 0;

			for (i = 0; i < NR_TEST; i++)
				if (rand() % 2) {
					ids[n++] = all[i];
					want[s][i] = 1;
				}
			if (!n) {
				ids[n++] = all[0];
				want[s][0] = 1;
			}
			opts.ids = ids;
			opts.cnt = n;
			links[s] = bpf_program__attach_tracing_multi(progs[s], NULL, &opts);
			check(links[s], "round %d: attach %s to %d functions", r,
			      bpf_program__name(progs[s]), n);
		}
		/* Ordinary fentry/fexit programs: the same object, with its
		 * fentry_a/fexit_a loaded as plain fentry/fexit on one function.
		 */
		for (s = 0; s < 2; s++) {
			for (i = 0; i < NR_TEST; i++) {
				struct tracing_multi *o;
				struct bpf_program *p;

				if (rand() % 3)
					continue;
				o = tracing_multi__open();
				if (!o)
					continue;
				bpf_object__for_each_program(p, o->obj)
					bpf_program__set_autoload(p, false);
				p = s ? o->progs.fexit_a : o->progs.fentry_a;
				bpf_program__set_autoload(p, true);
				bpf_program__set_expected_attach_type(p, s ? BPF_TRACE_FEXIT :
									 BPF_TRACE_FENTRY);
				bpf_program__set_attach_target(p, 0, test_funcs[i]);
				if (tracing_multi__load(o)) {
					check(false, "load plain %s on %s", s ? "fexit" : "fentry",
					      test_funcs[i]);
					tracing_multi__destroy(o);
					continue;
				}
				o->bss->pid = getpid();
				singles[s][i] = o;
				slinks[s][i] = bpf_program__attach_trace(p);
				check(slinks[s][i], "round %d: plain %s on %s", r,
				      s ? "fexit" : "fentry", test_funcs[i]);
			}
		}

		if (test_run(skel->progs.fentry_a))
			break;
		for (s = 0; s < 4; s++)
			check_hits(skel->bss, 4 + s, bpf_program__name(progs[s]), 0, NR_TEST, want[s]);
		for (s = 0; s < 2; s++)
			for (i = 0; i < NR_TEST; i++)
				if (singles[s][i])
					check(singles[s][i]->bss->hits[4 + 2 * s][i] == 1 &&
					      !singles[s][i]->bss->bad[4 + 2 * s],
					      "plain %s on %s saw it once", s ? "fexit" : "fentry",
					      test_funcs[i]);

		/* Drop the first multi link and the plain fentry links: the
		 * others keep counting, the dropped ones stop.
		 */
		bpf_link__destroy(links[0]);
		links[0] = NULL;
		for (i = 0; i < NR_TEST; i++) {
			bpf_link__destroy(slinks[0][i]);
			slinks[0][i] = NULL;
		}
		if (test_run(skel->progs.fentry_a))
			break;
		for (s = 1; s < 4; s++)
			for (i = 0; i < NR_TEST; i++)
				want[s][i] *= 2;
		for (s = 0; s < 4; s++)
			check_hits(skel->bss, 4 + s, bpf_program__name(progs[s]), 0, NR_TEST, want[s]);
		for (i = 0; i < NR_TEST; i++) {
			if (singles[0][i])
				check(singles[0][i]->bss->hits[4][i] == 1,
				      "detached plain fentry on %s stopped", test_funcs[i]);
			if (singles[1][i])
				check(singles[1][i]->bss->hits[6][i] == 2,
				      "plain fexit on %s saw it twice", test_funcs[i]);
		}
		for (s = 0; s < 4; s++)
			bpf_link__destroy(links[s]);
		for (s = 0; s < 2; s++)
			for (i = 0; i < NR_TEST; i++) {
				bpf_link__destroy(slinks[s][i]);
				slinks[s][i] = NULL;
				tracing_multi__destroy(singles[s][i]);
				singles[s][i] = NULL;
			}
		tracing_multi__destroy(skel);
	}
	check(enabled_test_funcs() == 0, "nothing left in enabled_functions");
	return 0;
}

/* A BTF function that is in kallsyms but not an ftrace location (not in
 * available_filter_functions), with a plain prototype, so that the only
 * reason to refuse it is the missing ftrace location.
 */
static __u32 find_untraceable(const char **name)
{
	struct btf *btf = load_btf(NULL);
	char *traceable = NULL, *ksyms = NULL, line[512];
	size_t tlen = 0, klen = 0;
	FILE *f, *t, *k;
	__u32 id, n = btf__type_cnt(btf);

	t = open_memstream(&traceable, &tlen);
	k = open_memstream(&ksyms, &klen);
	f = fopen("/sys/kernel/tracing/available_filter_functions", "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \n")] = 0;
		fprintf(t, "\n%s\n", line);
	}
	if (f)
		fclose(f);
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f)) {
		char type, sym[256];

		if (sscanf(line, "%*s %c %255s", &type, sym) == 2 && (type == 't' || type == 'T') &&
		    !strchr(line, '['))
			fprintf(k, "\n%s\n", sym);
	}
	if (f)
		fclose(f);
	fclose(t);
	fclose(k);
	for (id = 1; id < n; id++) {
		const struct btf_type *tp = btf__type_by_id(btf, id), *proto;
		char key[300];
		const char *s;

		if (!btf_is_func(tp))
			continue;
		proto = btf__type_by_id(btf, tp->type);
		if (btf_vlen(proto) != 1)
			continue;
		s = btf__name_by_offset(btf, tp->name_off);
		if (!strncmp(s, "migrate_", 8) || strstr(s, "rcu_read") || strstr(s, "preempt_count"))
			continue;
		snprintf(key, sizeof(key), "\n%s\n", s);
		if (strstr(traceable, key) || !strstr(ksyms, key))
			continue;
		/* unique in kallsyms, so kallsyms_lookup_name() finds this one */
		if (strstr(strstr(ksyms, key) + 1, key))
			continue;
		*name = s;
		break;
	}
	free(traceable);
	free(ksyms);
	return id < n ? id : 0;
}

/* A raw BPF_LINK_CREATE of prog's multi attach type: the link's fd or -errno */
static int multi_link_fd(struct bpf_program *prog, const __u32 *ids, const __u64 *cookies,
			 __u32 cnt, __u32 flags, int target_fd)
{
	LIBBPF_OPTS(bpf_link_create_opts, o, .flags = flags);

	o.tracing_multi.ids = ids;
	o.tracing_multi.cookies = cookies;
	o.tracing_multi.cnt = cnt;
	return bpf_link_create(bpf_program__fd(prog), target_fd,
			       bpf_program__expected_attach_type(prog), &o);
}

/* The same, the link closed at once: 0 or -errno */
static int multi_link(struct bpf_program *prog, const __u32 *ids, const __u64 *cookies, __u32 cnt,
		      __u32 flags, int target_fd)
{
	int fd = multi_link_fd(prog, ids, cookies, cnt, flags, target_fd);

	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : fd;
}

static int test_errors(void)
{
	struct tracing_multi *skel = open_load();
	struct bpf_program *fentry = skel->progs.fentry_a, *fexit = skel->progs.fexit_a;
	__u32 ids[NR_TEST], bad[NR_TEST], one, big = (1U << 20) + 1;
	int plain[MAX_TRAMP_LINKS], i, n, err;
	struct btf *btf = load_btf(NULL);
	const char *name = NULL;
	__u32 *many;

	get_test_ids(ids);

	/* link_create.tracing_multi itself */
	check_err(multi_link(fentry, NULL, NULL, 0, 0, 0), EINVAL, "ids NULL, cnt 0");
	check_err(multi_link(fentry, NULL, NULL, 1, 0, 0), EINVAL, "ids NULL, cnt 1");
	check_err(multi_link(fentry, ids, NULL, 0, 0, 0), EINVAL, "cnt 0");
	many = calloc(big, sizeof(*many));
	check_err(multi_link(fentry, many, NULL, big, 0, 0), E2BIG, "cnt (1 << 20) + 1");
	free(many);
	check_err(multi_link(fentry, ids, NULL, NR_TEST, 1, 0), EINVAL, "link_create.flags 1");
	check_err(multi_link(fentry, ids, NULL, NR_TEST, 0, 1), EINVAL, "target_fd 1");
	memcpy(bad, ids, sizeof(bad));
	bad[7] = ids[2];
	check_err(multi_link(fentry, bad, NULL, NR_TEST, 0, 0), EINVAL, "duplicate id");

	/* per-function checks */
	one = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	check_err(multi_link(fentry, &one, NULL, 1, 0, 0), EINVAL, "id of struct task_struct");
	one = 0;
	check_err(multi_link(fentry, &one, NULL, 1, 0, 0), EINVAL, "id 0");
	one = btf__type_cnt(btf) + 100;
	check_err(multi_link(fentry, &one, NULL, 1, 0, 0), EINVAL, "id past the BTF");
	one = func_id(btf, "migrate_disable");
	check_err(multi_link(fentry, &one, NULL, 1, 0, 0), EINVAL, "denied migrate_disable");
	one = func_id(btf, "do_exit");
	check_err(multi_link(fexit, &one, NULL, 1, 0, 0), EINVAL, "fexit on noreturn do_exit");
	check_err(multi_link(fentry, &one, NULL, 1, 0, 0), 0, "fentry on do_exit");
	one = find_untraceable(&name);
	if (check(one, "found a BTF function that is no ftrace location: %s", name ? name : "none"))
		check_err(multi_link(fentry, &one, NULL, 1, 0, 0), ENOENT, name);
	one = ids[1];
	check_err(multi_link(skel->progs.fentry_sleepable, &one, NULL, 1, 0, 0), EINVAL,
		  "sleepable program on bpf_fentry_test2");
	check_err(multi_link(skel->progs.fexit_sleepable, &one, NULL, 1, 0, 0), EINVAL,
		  "sleepable fexit program on bpf_fentry_test2");
	one = ids[0];
	check_err(multi_link(skel->progs.fentry_sleepable, &one, NULL, 1, 0, 0), 0,
		  "sleepable program on bpf_fentry_test1");

	/* Rollback: a bad id sorted to the end of the list, after nine good
	 * ones, one of them with a plain fentry link already.
	 */
	plain[0] = load_plain_fentry(ids[0]);
	err = plain[0] >= 0 ? bpf_link_create(plain[0], 0, BPF_TRACE_FENTRY, NULL) : -1;
	check(err >= 0, "plain fentry link on bpf_fentry_test1");
	memcpy(bad, ids, sizeof(bad));
	bad[4] = btf__type_cnt(btf) - 1;	/* the biggest id: last after sorting */
	while (bad[4] > 0 && btf_is_func(btf__type_by_id(btf, bad[4])))
		bad[4]--;
	check_err(multi_link(fentry, bad, NULL, NR_TEST, 0, 0), EINVAL, "bad id last after sort");
	check(enabled_test_funcs() == 1, "rollback: only the plain link's function is traced");
	if (!test_run(fentry))
		check_hits(skel->bss, 4, "rolled back fentry.multi", 0, NR_TEST, zeros);
	check_err(multi_link(fentry, ids, NULL, NR_TEST, 0, 0), 0, "the ten good ids afterwards");
	if (err >= 0)
		close(err);
	close(plain[0]);

	/* Rollback at the per-trampoline limit: bpf_fentry_test3 full of
	 * plain fentry programs.
	 */
	for (n = 0; n < MAX_TRAMP_LINKS; n++) {
		int pfd = load_plain_fentry(ids[2]);

		plain[n] = pfd < 0 ? pfd : bpf_link_create(pfd, 0, BPF_TRACE_FENTRY, NULL);
		if (pfd >= 0)
			close(pfd);
		if (plain[n] < 0)
			break;
	}
	check(n == MAX_TRAMP_LINKS, "%d plain fentry links on bpf_fentry_test3", n);
	check_err(multi_link(fentry, ids, NULL, NR_TEST, 0, 0), E2BIG,
		  "ten functions, bpf_fentry_test3 full");
	check(enabled_test_funcs() == 1, "rollback: only bpf_fentry_test3 is traced");
	if (!test_run(fentry))
		check_hits(skel->bss, 4, "rolled back fentry.multi", 0, NR_TEST, zeros);

	/* The same with fexit.multi while fentry_b holds five other
	 * functions: the attach makes a new image for each trampoline before
	 * the full one (new trampolines, and replacements where fentry_b
	 * is), and putting an fexit image patches it, so the rollback must
	 * have written them. fentry_b must be intact afterwards.
	 */
	{
		LIBBPF_OPTS(bpf_link_create_opts, o);
		__u32 odd[NR_TEST / 2];
		int held, m = 0;

		for (i = 0; i < NR_TEST; i++)
			if (i % 2)
				odd[m++] = ids[i];
		o.tracing_multi.ids = odd;
		o.tracing_multi.cnt = m;
		held = bpf_link_create(bpf_program__fd(skel->progs.fentry_b), 0,
				       BPF_TRACE_FENTRY_MULTI, &o);
		check(held >= 0, "fentry_b on bpf_fentry_test2, 4, 6, 8 and 10");
		check_err(multi_link(fexit, ids, NULL, NR_TEST, 0, 0), E2BIG,
			  "fexit.multi on ten functions, bpf_fentry_test3 full");
		check(enabled_test_funcs() == m + 1,
		      "rollback of fexit.multi: only fentry_b's and bpf_fentry_test3 traced");
		if (!test_run(fexit)) {
			__u64 want[NR_TEST];

			for (i = 0; i < NR_TEST; i++)
				want[i] = i % 2;
			check_hits(skel->bss, 6, "rolled back fexit.multi", 0, NR_TEST, zeros);
			check_hits(skel->bss, 5, "fentry_b after the rollback", 0, NR_TEST, want);
		}
		if (held >= 0)
			close(held);
	}
	for (i = 0; i < n; i++)
		close(plain[i]);
	check_err(multi_link(fentry, ids, NULL, NR_TEST, 0, 0), 0, "the same after closing them");

	/* libbpf's own checks, and the kernel's errno passed through */
	{
		LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
		struct tracing_multi *o = tracing_multi__open();
		__u64 cookies[1] = { 1 };
		struct bpf_link *l;

		l = bpf_program__attach_tracing_multi(fentry, NULL, NULL);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: no pattern, no opts");
		opts.ids = ids;
		opts.cnt = 1;
		l = bpf_program__attach_tracing_multi(fentry, "bpf_fentry_test1", &opts);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: pattern and ids");
		opts.ids = NULL;
		opts.cookies = cookies;
		l = bpf_program__attach_tracing_multi(fentry, "bpf_fentry_test1", &opts);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: pattern and cookies");
		l = bpf_program__attach_tracing_multi(fentry, "no_such_function_*", NULL);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: pattern matching nothing");
		l = bpf_program__attach_tracing_multi(fentry, "no_such_module:bpf_fentry_test1",
						      NULL);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: pattern of an unknown module");
		l = bpf_program__attach_tracing_multi(fentry, "vmlinux:bpf_fentry_test1", NULL);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: \"vmlinux:\" is no module");
		opts.ids = NULL;
		opts.cookies = NULL;
		opts.cnt = 1;
		l = bpf_program__attach_tracing_multi(fentry, NULL, &opts);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: cnt without ids");
		opts.ids = ids;
		opts.cnt = 0;
		l = bpf_program__attach_tracing_multi(fentry, NULL, &opts);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: ids without cnt");
		{
			struct tracing_multi_badmod *bad_mod = tracing_multi_badmod__open();

			err = bad_mod ? tracing_multi_badmod__load(bad_mod) : -errno;
			check_err(err, EINVAL,
				  "libbpf: loading SEC(\"fentry.multi/no_such_module:*\")");
			tracing_multi_badmod__destroy(bad_mod);
		}
		l = bpf_program__attach_tracing_multi(o->progs.fentry_a, "bpf_fentry_test1", NULL);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: program not loaded");
		tracing_multi__destroy(o);
		opts.ids = bad;
		opts.cookies = NULL;
		opts.cnt = NR_TEST;
		memcpy(bad, ids, sizeof(bad));
		bad[9] = ids[0];
		l = bpf_program__attach_tracing_multi(fentry, NULL, &opts);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: duplicate ids (kernel's EINVAL)");
		l = bpf_program__attach_tracing_multi(skel->progs.fentry_sleepable,
						      "bpf_fentry_test2", NULL);
		check_err(l ? 0 : -errno, EINVAL, "libbpf: sleepable on bpf_fentry_test2");
		opts.ids = &one;
		opts.cnt = 1;
		one = find_untraceable(&name);
		l = bpf_program__attach_tracing_multi(fentry, NULL, &opts);
		check_err(l ? 0 : -errno, ENOENT, "libbpf: no ftrace location (kernel's ENOENT)");
		bpf_link__destroy(l);

		/* release_pages() takes a union by value: the pattern
		 * matches it and the kernel attaches it.
		 */
		l = bpf_program__attach_tracing_multi(fentry, "release_pages", NULL);
		check_err(l ? 0 : -errno, 0, "libbpf: pattern release_pages (union argument)");
		bpf_link__destroy(l);
	}
	tracing_multi__destroy(skel);
	check(enabled_test_funcs() == 0, "nothing left in enabled_functions");
	return 0;
}

/* munlockall(), then how many calls fentry_a (slot 4) saw outside the
 * bpf_fentry_test functions.
 */
static __u64 call_munlockall(struct tracing_multi *skel)
{
	check(!munlockall(), "munlockall(): %s", strerror(errno));
	return skel->bss->other[4];
}

/* On x86 __x64_sys_munlockall is an alias of __do_sys_munlockall: two BTF
 * ids, two trampolines, one address, and ftrace takes one direct caller
 * per address. Whichever comes second is refused with EBUSY (what a second
 * register_ftrace_direct() on the address gets), within one link too;
 * before that check such a link attached both, and detaching it freed a
 * trampoline ftrace still called: an oops at the next munlockall().
 */
static int test_aliases(void)
{
	struct tracing_multi *skel = open_load();
	struct btf *btf = load_btf(NULL);
	struct bpf_program *fentry = skel->progs.fentry_a;
	static const char *const names[] = { "__do_sys_munlockall", "__x64_sys_munlockall" };
	LIBBPF_OPTS(bpf_link_create_opts, o);
	int a, plain, pfd, err;
	__u64 seen, addrs[2];
	__u32 ids[2];

	ids[0] = func_id(btf, "__do_sys_munlockall");
	ids[1] = func_id(btf, "__x64_sys_munlockall");
	ksym_addrs(names, 2, addrs);
	check(addrs[0] && addrs[0] == addrs[1],
	      "__x64_sys_munlockall is an alias of __do_sys_munlockall: %#llx %#llx",
	      (unsigned long long)addrs[0], (unsigned long long)addrs[1]);

	check_err(multi_link(fentry, ids, NULL, 2, 0, 0), EBUSY, "fentry.multi on both aliases");
	check_err(multi_link(skel->progs.fexit_a, ids, NULL, 2, 0, 0), EBUSY,
		  "fexit.multi on both aliases");
	check(enabled_funcs_matching("sys_munlockall") == 0, "refused links leave nothing traced");
	seen = call_munlockall(skel);
	check(seen == 0, "no program ran: %llu calls seen", (unsigned long long)seen);

	/* One alias attached: the other is refused, to links of both kinds */
	o.tracing_multi.ids = &ids[0];
	o.tracing_multi.cnt = 1;
	a = bpf_link_create(bpf_program__fd(fentry), 0, BPF_TRACE_FENTRY_MULTI, &o);
	check(a >= 0, "fentry.multi on __do_sys_munlockall: %s", errname(a));
	seen = call_munlockall(skel);
	check(seen == 1, "its program saw munlockall(): %llu calls", (unsigned long long)seen);
	check_err(multi_link(skel->progs.fentry_b, &ids[1], NULL, 1, 0, 0), EBUSY,
		  "fentry.multi on __x64_sys_munlockall meanwhile");
	pfd = load_plain_fentry(ids[1]);
	err = pfd >= 0 ? bpf_link_create(pfd, 0, BPF_TRACE_FENTRY, NULL) : pfd;
	check_err(err < 0 ? err : 0, EBUSY, "plain fentry on __x64_sys_munlockall meanwhile");
	if (err >= 0)
		close(err);
	if (pfd >= 0)
		close(pfd);
	pfd = load_plain_fentry(ids[0]);
	err = pfd >= 0 ? bpf_link_create(pfd, 0, BPF_TRACE_FENTRY, NULL) : pfd;
	check_err(err < 0 ? err : 0, 0, "plain fentry on __do_sys_munlockall itself");
	if (err >= 0)
		close(err);
	if (pfd >= 0)
		close(pfd);
	seen = call_munlockall(skel);
	check(seen == 2, "the link still sees munlockall(): %llu calls", (unsigned long long)seen);
	check(enabled_funcs_matching("sys_munlockall") == 1, "one function traced");
	if (a >= 0)
		close(a);

	/* Detached, the other alias may have the address */
	check_err(multi_link(skel->progs.fentry_b, &ids[1], NULL, 1, 0, 0), 0,
		  "fentry.multi on __x64_sys_munlockall after the close");
	plain = load_plain_fentry(ids[0]);
	err = plain >= 0 ? bpf_link_create(plain, 0, BPF_TRACE_FENTRY, NULL) : plain;
	check(err >= 0, "plain fentry on __do_sys_munlockall: %s", errname(err));
	check_err(multi_link(fentry, ids, NULL, 2, 0, 0), EBUSY,
		  "fentry.multi on both aliases, one held by a plain link");
	check_err(multi_link(fentry, &ids[1], NULL, 1, 0, 0), EBUSY,
		  "fentry.multi on the other alias, one held by a plain link");
	seen = call_munlockall(skel);
	check(seen == 2, "refused fentry_a saw nothing: %llu calls", (unsigned long long)seen);
	if (err >= 0)
		close(err);
	if (plain >= 0)
		close(plain);
	check(enabled_funcs_matching("sys_munlockall") == 0, "nothing left traced");
	tracing_multi__destroy(skel);
	return 0;
}

/*
 * faults each|spread [BIG_LINK]: the allocations of a tracing_multi attach,
 * then of its detach, failed one at a time with /proc/thread-self/fail-nth
 * (the stress kernel: tests/stress/run makes failslab, and fail_page_alloc,
 * take GFP_KERNEL allocations). An attach must either fail with ENOMEM and
 * leave nothing traced, or make a link that works; a detach must leave
 * nothing traced whatever failed. "each" fails the first and last 100
 * fault points of the small cases in turn (the link's own allocations and
 * its first trampolines', the ftrace update's and the images' at the end;
 * the trampolines in between repeat the same allocations) and 20 spread
 * in between, "spread" the first and last 10 and 10 in between (with
 * fail_page_alloc each page of a vmalloc() counts, and under kmemleak
 * every slab allocation is two fault points: thousands per attach); the
 * big case is always spread.
 *
 * Cases: fentry.multi and fexit.multi on bpf_fentry_test1..10 while
 * another fentry.multi link holds bpf_fentry_test1..3 (new trampolines,
 * and images of existing ones modified: every ftrace update kind), with
 * cookies; and, with BIG_LINK (a pinned link on thousands of functions),
 * a link on its functions (the one-pass kallsyms lookup, the batched image
 * write), with faults at its first, last and evenly spread allocations.
 */
static int fail_nth_fd = -1;

static void fail_nth_set(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fail_nth_fd, buf, len, 0) != len) {
		fprintf(stderr, "fail-nth: %s\n", strerror(errno));
		exit(2);
	}
}

/* Fault points left before the fault (0: it was injected); disarms */
static unsigned int fail_nth_left(void)
{
	char buf[16] = {};

	if (pread(fail_nth_fd, buf, sizeof(buf) - 1, 0) < 0) {
		fprintf(stderr, "fail-nth: %s\n", strerror(errno));
		exit(2);
	}
	fail_nth_set(0);
	return strtoul(buf, NULL, 10);
}

struct fault_case {
	const char *name;
	struct bpf_program *prog;
	int slot;
	const __u32 *ids;
	const __u64 *cookies;
	__u32 cnt;
	int traced;		/* functions traced without the link */
	int shared;		/* of those, functions of the link too */
	const char *part;	/* enabled_functions lines counted */
};

/* More fault points than any call has: counts them without a fault */
#define FAULT_COUNT_ALL 1000000000U

static int fault_link_create(const struct fault_case *c, unsigned int nth, unsigned int *left)
{
	int fd, err;

	fail_nth_set(nth);
	fd = multi_link_fd(c->prog, c->ids, c->cookies, c->cnt, 0, 0);
	err = errno;
	*left = fail_nth_left();
	errno = err;
	return fd;
}

/* Whether c's program sees each call of bpf_fentry_test1..10 (linked) or none */
static bool fault_calls_ok(struct tracing_multi *skel, const struct fault_case *c, bool linked)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int i;

	if (c->cnt != NR_TEST)
		return true;	/* the big case: no test function in it */
	memset(skel->bss->hits, 0, sizeof(skel->bss->hits));
	memset(skel->bss->cookie, 0, sizeof(skel->bss->cookie));
	if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.fentry_all), &topts))
		return false;
	for (i = 0; i < NR_TEST; i++) {
		if (skel->bss->hits[c->slot][i] != (__u64)linked ||
		    skel->bss->cookie[c->slot][i] != (linked ? c->cookies[i] : 0) ||
		    skel->bss->hits[5][i] != (i < 3))	/* the other link */
			return false;
	}
	return !skel->bss->bad[c->slot] && !skel->bss->bad[5];
}

/* Nothing of c's link traced, its program sees no call: after @what */
static void fault_check_clean(struct tracing_multi *skel, const struct fault_case *c,
			      const char *what, unsigned int nth)
{
	int traced = enabled_funcs_matching(c->part);

	check(traced == c->traced && fault_calls_ok(skel, c, false),
	      "%s: %s with fault %u left %d functions traced (want %d) or calls seen", c->name,
	      what, nth, traced, c->traced);
}

/* One attach with fault nth; true while there are more fault points */
static bool fault_attach_one(struct tracing_multi *skel, const struct fault_case *c,
			     unsigned int nth, int *enomem, int *links)
{
	unsigned int left;
	int fd, err;

	fd = fault_link_create(c, nth, &left);
	err = fd < 0 ? errno : 0;
	if (fd < 0) {
		check(err == ENOMEM, "%s: attach with fault %u: %s (want a link or ENOMEM)",
		      c->name, nth, errname(err));
		(*enomem)++;
		fault_check_clean(skel, c, "failed attach", nth);
	} else {
		(*links)++;
		check(fault_calls_ok(skel, c, true) &&
		      enabled_funcs_matching(c->part) == c->traced + (int)c->cnt - c->shared,
		      "%s: link made with fault %u (%s) sees each call with its cookie",
		      c->name, nth, left ? "not injected" : "injected");
		close(fd);
		fault_check_clean(skel, c, "closing the link made", nth);
	}
	return left == 0;
}

/* Attach without fault, detach (BPF_LINK_DETACH, or close) with fault nth */
static bool fault_detach_one(struct tracing_multi *skel, const struct fault_case *c,
			     unsigned int nth, bool by_close)
{
	unsigned int left;
	int fd, err = 0;

	fd = fault_link_create(c, 0, &left);
	if (!check(fd >= 0, "%s: attach: %s", c->name, errname(fd < 0 ? errno : 0)))
		return false;
	fail_nth_set(nth);
	if (by_close)
		close(fd);
	else
		err = bpf_link_detach(fd) ? errno : 0;
	left = fail_nth_left();
	check(!err, "%s: BPF_LINK_DETACH with fault %u: %s", c->name, nth, errname(err));
	fault_check_clean(skel, c, by_close ? "close" : "BPF_LINK_DETACH", nth);
	if (!by_close)
		close(fd);
	return left == 0;
}

/* The faults of a case: its first and last 100 fault points ("each") or
 * 10, each in turn, and 20 or 10 spread over those in between.
 */
static unsigned int fault_next(unsigned int nth, unsigned int total, bool each)
{
	const unsigned int edge = each ? 100 : 10, spread = each ? 20 : 10;
	unsigned int step;

	if (total <= 2 * edge + spread || nth < edge || nth + edge >= total)
		return nth + 1;
	step = (total - 2 * edge) / spread;
	return nth + step < total - edge ? nth + step : total - edge;
}

static void fault_case_run(struct tracing_multi *skel, const struct fault_case *c, bool each)
{
	unsigned int nth, left, total_attach, total_detach;
	int fd, enomem = 0, links = 0, detaches = 0, before = failures;
	time_t t0 = time(NULL);

	/* The fault points of a fault-free attach and detach */
	fd = fault_link_create(c, FAULT_COUNT_ALL, &left);
	if (!check(fd >= 0, "%s: attach: %s", c->name, errname(fd < 0 ? errno : 0)))
		return;
	total_attach = FAULT_COUNT_ALL - left;
	fail_nth_set(FAULT_COUNT_ALL);
	bpf_link_detach(fd);
	total_detach = FAULT_COUNT_ALL - fail_nth_left();
	close(fd);
	fprintf(stderr, "%s: %u allocations on attach, %u on detach, faults %s\n", c->name,
		total_attach, total_detach, each ? "at each" : "spread");

	quiet = true;

	for (nth = 1; nth <= total_attach + 1; nth = fault_next(nth, total_attach, each))
		if (!fault_attach_one(skel, c, nth, &enomem, &links) || failures > before + 5)
			break;
	for (nth = 1; nth <= total_detach + 1; nth = fault_next(nth, total_detach, each)) {
		detaches++;
		if (!fault_detach_one(skel, c, nth, nth & 1) || failures > before + 5)
			break;
	}
	quiet = false;
	check(failures == before,
	      "%s: %u allocations on attach, %u on detach; %d attaches with a fault: %d ENOMEM, %d links; %d detaches with a fault, nothing left traced (%ld s)",
	      c->name, total_attach, total_detach, enomem + links, enomem, links, detaches,
	      (long)(time(NULL) - t0));
}

static int test_faults(const char *mode, const char *big_pin)
{
	bool each = !strcmp(mode, "each");

	struct tracing_multi *skel = open_load();
	__u64 cookies[NR_TEST] = { 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
	__u32 ids[NR_TEST], *big_ids = NULL;
	struct bpf_link *other;
	struct fault_case c;
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);

	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_nth_fd < 0) {
		fprintf(stderr, "/proc/thread-self/fail-nth: %s (a kernel with CONFIG_FAULT_INJECTION)\n",
			strerror(errno));
		exit(2);
	}
	get_test_ids(ids);
	opts.ids = ids;
	opts.cnt = 3;
	other = bpf_program__attach_tracing_multi(skel->progs.fentry_b, NULL, &opts);
	if (!check(other, "fentry.multi on bpf_fentry_test1..3: %s", errname(other ? 0 : errno)))
		goto out;

	c = (struct fault_case){ "fentry.multi", skel->progs.fentry_a, 4, ids, cookies, NR_TEST,
				 3, 3, "bpf_fentry_test" };
	fault_case_run(skel, &c, each);
	c.name = "fexit.multi";
	c.prog = skel->progs.fexit_a;
	c.slot = 6;
	fault_case_run(skel, &c, each);

	if (big_pin) {
		struct bpf_link_info info;
		int fd = bpf_obj_get(big_pin), err;
		__u32 n;

		err = fd < 0 ? -errno : link_info(fd, &info, NULL, NULL, NULL, 0);
		n = err ? 0 : info.tracing_multi.count;
		big_ids = calloc(n ?: 1, sizeof(*big_ids));
		if (!err)
			err = link_info(fd, &info, big_ids, NULL, NULL, n);
		if (fd >= 0) {
			bpf_link_detach(fd);
			close(fd);
		}
		if (check(!err && n > 2048, "%s: %u functions (%s; want more than 2048)", big_pin,
			  n, errname(err))) {
			c = (struct fault_case){ "big fexit.multi", skel->progs.fexit_b, 7, big_ids,
						 NULL, n, 0, 0, "" };
			/* everything traced, ours and others (the fentry_b link) */
			c.traced = enabled_funcs_matching("");
			fault_case_run(skel, &c, false);
		}
	}
out:
	bpf_link__destroy(other);
	free(big_ids);
	tracing_multi__destroy(skel);
	check(enabled_test_funcs() == 0, "nothing left traced");
	return 0;
}

/* Write VALUE to the fault injection attribute PATH. */
static void fault_attr(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, value, strlen(value)) != (ssize_t)strlen(value)) {
		fprintf(stderr, "%s: %s (a kernel with CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAULT_INJECTION_DEBUG_FS)\n",
			path, strerror(errno));
		exit(2);
	}
	close(fd);
}

/*
 * Lasting memory pressure for one task: with on, every slab and page
 * allocation of a task whose make-it-fail is set fails (task-filter),
 * sleeping ones too, silently. Between the two "tm-fault-injection"
 * lines in the kernel log, qemu/run's health gate takes the reports of
 * failed page allocations (warn_alloc()) as expected.
 */
static void nomem_faults(bool on)
{
	static const char *const dirs[] = { "failslab", "fail_page_alloc" };
	char path[128];
	unsigned int i;

	if (on)
		fault_attr("/dev/kmsg", "tm-fault-injection: begin\n");
	for (i = 0; i < 2; i++) {
#define ATTR(name, value) do {							\
		snprintf(path, sizeof(path), "/sys/kernel/debug/%s/" name, dirs[i]);	\
		fault_attr(path, value);					\
	} while (0)
		/* Off first, on last: never without the task filter */
		if (!on)
			ATTR("probability", "0");
		ATTR("task-filter", on ? "Y" : "N");
		ATTR("ignore-gfp-wait", on ? "N" : "Y");
		ATTR("verbose", "0");
		ATTR("space", "0");
		ATTR("interval", "1");
		ATTR("times", "-1");
		if (on)
			ATTR("probability", "100");
#undef ATTR
	}
	fault_attr("/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", on ? "N" : "Y");
	fault_attr("/sys/kernel/debug/fail_page_alloc/min-order", on ? "0" : "1");
	if (!on)
		fault_attr("/dev/kmsg", "tm-fault-injection: end\n");
}

/*
 * The calling thread's make-it-fail, opened before it is set: with it
 * set, the thread could not open a file, nor fault in a page (a page
 * fault that can't allocate is retried for ever).
 */
static int make_it_fail_open(void)
{
	int fd = open("/proc/thread-self/make-it-fail", O_WRONLY);

	if (fd < 0) {
		fprintf(stderr, "/proc/thread-self/make-it-fail: %s (a kernel with CONFIG_FAULT_INJECTION)\n",
			strerror(errno));
		exit(2);
	}
	return fd;
}

static void make_it_fail(int fd, bool on)
{
	if (pwrite(fd, on ? "1" : "0", 1, 0) != 1) {
		fprintf(stderr, "make-it-fail: %s\n", strerror(errno));
		exit(2);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* How many functions ftrace calls out of */
static int enabled_funcs(void)
{
	return enabled_funcs_matching("");
}

/*
 * nomem BIG_LINK: a link on the functions of the link pinned at BIG_LINK
 * and bpf_fentry_test1..10 is detached by a task all of whose allocations
 * fail (fault injection): by close(), by BPF_LINK_DETACH, and by the exit
 * of a task SIGKILLed while it held the link's last reference (as the OOM
 * killer's pick would). The detach returns soon, whatever the number of
 * functions (a budget of eight passes per detach, not eight tries per
 * function), a worker detaches what is left, and in the end none of the
 * link's functions is traced and its program sees no call. Between
 * setting make-it-fail and clearing it a task makes no system call that
 * needs memory but the detach, and its pages are locked in (mlockall()):
 * a page fault that can't allocate is retried for ever.
 */
static int test_nomem(const char *big_pin)
{
	static const char *const modes[] = { "close", "BPF_LINK_DETACH", "exit on SIGKILL" };
	struct tracing_multi *skel = open_load();
	int fail_fd = make_it_fail_open();

	/* Every page in now: a page fault that can't allocate never ends */
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		fprintf(stderr, "mlockall: %s\n", strerror(errno));
		exit(2);
	}
	__u32 *ids = NULL, n = 0, m;
	struct bpf_link_info info;
	int fd, err, mode, base;
	double t0, took;

	fd = bpf_obj_get(big_pin);
	err = fd < 0 ? -errno : link_info(fd, &info, NULL, NULL, NULL, 0);
	if (!err)
		n = info.tracing_multi.count;
	ids = calloc(n + NR_TEST, sizeof(*ids));
	if (!err && ids)
		err = link_info(fd, &info, ids, NULL, NULL, n);
	if (fd >= 0) {
		bpf_link_detach(fd);
		close(fd);
	}
	if (!check(!err && ids && n >= 1000, "%s: %u functions (%s; want 1000 or more)", big_pin,
		   n, errname(err)))
		goto out;
	get_test_ids(ids + n);
	m = n + NR_TEST;
	base = enabled_funcs();

	for (mode = 0; mode < 3; mode++) {
		fd = multi_link_fd(skel->progs.fentry_a, ids, NULL, m, 0, 0);
		if (!check(fd >= 0, "%s: attach to %u functions: %s", modes[mode], m,
			   errname(fd < 0 ? errno : 0)))
			break;
		check(enabled_funcs() == base + (int)m, "%s: %d functions traced (want %d)",
		      modes[mode], enabled_funcs(), base + (int)m);

		nomem_faults(true);
		t0 = now_s();
		if (mode < 2) {
			make_it_fail(fail_fd, true);
			err = mode ? bpf_link_detach(fd) : close(fd);
			err = err ? -errno : 0;
			make_it_fail(fail_fd, false);
			took = now_s() - t0;
			check(!err, "%s with every allocation failing: %s", modes[mode], errname(err));
		} else {
			volatile int *failing;
			int go[2], status = 0;
			pid_t pid;
			char c;

			/* Shared and touched now: the child's store faults nothing in */
			failing = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				       -1, 0);
			if (failing == MAP_FAILED || pipe(go)) {
				check(false, "pipe: %s", strerror(errno));
				nomem_faults(false);
				break;
			}
			/*
			 * The child holds the link's last reference. It sets
			 * its make-it-fail (its own file, opened and written
			 * once before, so that the write needs nothing new),
			 * says so in the shared page and waits in read();
			 * killed there, its exit releases the link with every
			 * allocation failing.
			 */
			*failing = 0;
			pid = fork();
			if (!pid) {
				int cfd = make_it_fail_open();

				/* Its own copies of the pages, before it can't */
				if (mlockall(MCL_CURRENT))
					_exit(2);
				make_it_fail(cfd, false);
				make_it_fail(cfd, true);
				*failing = 1;
				(void)!read(go[0], &c, 1);
				_exit(0);
			}
			close(fd);
			while (pid > 0 && !*failing)
				usleep(10000);
			if (pid < 0) {
				check(false, "fork: %s", strerror(errno));
				nomem_faults(false);
				break;
			}
			/* Let it get into read() */
			usleep(100000);
			t0 = now_s();
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			took = now_s() - t0;
			munmap((void *)failing, 4096);
			close(go[0]);
			close(go[1]);
			check(WIFSIGNALED(status) || WIFEXITED(status),
			      "%s: the task ended (status %#x)", modes[mode], status);
		}
		nomem_faults(false);
		/*
		 * Eight passes with 0.28 s of waits in all, not 8 tries of up
		 * to 70 ms per function (about 0.28 s x the functions): a
		 * minute leaves room for any machine.
		 */
		check(took < 60, "%s of a %u-function link with every allocation failing took %.1f s (want well under a minute)",
		      modes[mode], m, took);

		/* The worker detaches the rest: no deadline of its own here */
		t0 = now_s();
		while (enabled_funcs() != base && now_s() - t0 < 3000)
			usleep(200000);
		check(enabled_funcs() == base, "%s: %d functions traced %.1f s later (want %d: the link's none)",
		      modes[mode], enabled_funcs(), now_s() - t0, base);
		if (mode == 1)
			close(fd);
		memset(skel->bss->hits, 0, sizeof(skel->bss->hits));
		if (!test_run(skel->progs.fentry_all))
			check_hits(skel->bss, 4, "fentry.multi detached", 0, NR_TEST, zeros);
	}
out:
	munlockall();
	close(fail_fd);
	free(ids);
	tracing_multi__destroy(skel);
	return 0;
}

/*
 * single_nomem: an ordinary fentry link on bpf_fentry_test1, closed with
 * the nth allocation of its detach failing, for each n in turn (fail-nth):
 * the unlink tries again, so the function is no longer traced when close()
 * returns, rather than kept by the program for good.
 */
static int test_single_nomem(void)
{
	unsigned int nth, total, left;
	int prog, fd, n, bad = 0;

	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_nth_fd < 0) {
		fprintf(stderr, "/proc/thread-self/fail-nth: %s (a kernel with CONFIG_FAULT_INJECTION)\n",
			strerror(errno));
		exit(2);
	}
	prog = load_plain_fentry(func_id(load_btf(NULL), "bpf_fentry_test1"));
	if (!check(prog >= 0, "load a plain fentry program: %s", errname(prog)))
		return 0;
	fault_attr("/dev/kmsg", "tm-fault-injection: begin\n");
	fault_attr("/sys/kernel/debug/failslab/verbose", "0");
	fault_attr("/sys/kernel/debug/fail_page_alloc/verbose", "0");
	fault_attr("/sys/kernel/debug/failslab/ignore-gfp-wait", "N");
	fault_attr("/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N");

	/* The allocations of a detach without fault */
	fd = bpf_link_create(prog, 0, BPF_TRACE_FENTRY, NULL);
	if (!check(fd >= 0, "attach: %s", errname(fd < 0 ? -errno : 0)))
		goto out;
	fail_nth_set(FAULT_COUNT_ALL);
	close(fd);
	total = FAULT_COUNT_ALL - fail_nth_left();

	for (nth = 1; nth <= total; nth++) {
		fd = bpf_link_create(prog, 0, BPF_TRACE_FENTRY, NULL);
		if (!check(fd >= 0, "attach: %s", errname(fd < 0 ? -errno : 0)))
			break;
		fail_nth_set(nth);
		close(fd);
		left = fail_nth_left();
		n = enabled_test_funcs();
		if (n || left)
			bad++;
		if (n || left || nth == total)
			check(!n && !left, "close with allocation %u of %u failing: %s, %d functions left traced (want 0)",
			      nth, total, left ? "not injected" : "injected", n);
	}
	check(total > 0 && !bad, "%u allocations on detach, each failing in turn: nothing left traced",
	      total);
out:
	fault_attr("/sys/kernel/debug/failslab/ignore-gfp-wait", "Y");
	fault_attr("/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "Y");
	fault_attr("/dev/kmsg", "tm-fault-injection: end\n");
	close(prog);
	return 0;
}

/* pin PATH: fentry_a on bpf_fentry_test1, 2 and 3 with cookies 7, 8 and 9
 * (given in the order 3, 1, 2), pinned at PATH, for the bpftool tests.
 */
static int pin_link(const char *path)
{
	struct tracing_multi *skel = open_load();
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
	__u32 all[NR_TEST], ids[3];
	__u64 cookies[3] = { 9, 7, 8 };
	struct bpf_link *link;
	int err;

	get_test_ids(all);
	ids[0] = all[2];
	ids[1] = all[0];
	ids[2] = all[1];
	opts.ids = ids;
	opts.cookies = cookies;
	opts.cnt = 3;
	link = bpf_program__attach_tracing_multi(skel->progs.fentry_a, NULL, &opts);
	if (check(link, "attach to bpf_fentry_test1-3 with cookies")) {
		err = bpf_link__pin(link, path);
		check(!err, "pin at %s: %s", path, errname(err));
		bpf_link__destroy(link);
	}
	tracing_multi__destroy(skel);
	return 0;
}

/* Upstream's tracing_multi "session" test: fsession.multi on
 * bpf_fentry_test1..10, its sleepable variant on bpf_fentry_test1 and on
 * bpf_testmod's functions. Every entry with the expected arguments counts
 * in test_result_fentry; every exit counts in test_result_fexit once for
 * the arguments and return value and once for finding the entry's cookie.
 */
static int test_session(void)
{
	struct tracing_multi_session *skel = tracing_multi_session__open_and_load();
	struct tracing_multi_session__bss *bss;
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err;

	if (!check(skel, "load the session programs: %s", errname(skel ? 0 : errno)))
		return 0;
	bss = skel->bss;
	bss->pid = getpid();
	err = tracing_multi_session__attach(skel);
	if (!check(!err, "skeleton auto-attach: %s", errname(err)))
		goto out;
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.test_session_1), &topts);
	check(!err && !topts.retval, "test run: %s, retval %u", errname(err ? -errno : 0), topts.retval);
	/* 10 for test_session_1, 1 for test_fsession_s */
	check(bss->test_result_fentry == 11, "entries with the expected arguments: %llu (want 11)",
	      (unsigned long long)bss->test_result_fentry);
	check(bss->test_result_fexit == 22,
	      "exits with the expected arguments and return value, plus cookies found: %llu (want 22)",
	      (unsigned long long)bss->test_result_fexit);

	bss->test_result_fentry = 0;
	bss->test_result_fexit = 0;
	testmod_read();
	/* bpf_testmod_fentry_test1, 2, 3, 7, 11 (not 11 on arm64) */
	check(bss->test_result_fentry == NR_MOD, "bpf_testmod: entries %llu (want %d)",
	      (unsigned long long)bss->test_result_fentry, NR_MOD);
	check(bss->test_result_fexit == 2 * NR_MOD, "bpf_testmod: exits and cookies %llu (want %d)",
	      (unsigned long long)bss->test_result_fexit, 2 * NR_MOD);
out:
	tracing_multi_session__destroy(skel);
	return 0;
}

/* fsession.multi where fentry.multi, fexit.multi and a plain fsession
 * program trace the same functions: each program sees every call once,
 * with its own cookie (session and BPF cookies alike)
 */
static int test_session_mix(void)
{
	struct tracing_multi *tm = open_load();
	struct tracing_multi_session *skel = tracing_multi_session__open();
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
	struct bpf_link *links[5] = {};
	struct li_target want[NR_TEST];
	struct bpf_link_info info;
	__u64 cookies[NR_TEST];
	__u32 ids[NR_TEST];
	int i, err;

	if (!skel)
		exit(2);
	/* only the hand-attached pair: bpf_testmod need not be loaded */
	bpf_program__set_autoload(skel->progs.test_session_1, false);
	bpf_program__set_autoload(skel->progs.test_fsession_s, false);
	bpf_program__set_autoload(skel->progs.test_session_2, false);
	bpf_program__set_autoload(skel->progs.session_mix, true);
	bpf_program__set_autoload(skel->progs.plain_session, true);
	if (!check(!tracing_multi_session__load(skel), "load session_mix and plain_session"))
		goto out;
	skel->bss->pid = getpid();

	get_test_ids(ids);
	for (i = 0; i < NR_TEST; i++)
		cookies[i] = 500 + i;
	opts.ids = ids;
	opts.cnt = NR_TEST;
	links[0] = bpf_program__attach_tracing_multi(tm->progs.fentry_all, NULL, &opts);
	links[1] = bpf_program__attach_tracing_multi(tm->progs.fexit_all, NULL, &opts);
	opts.cookies = cookies;
	links[2] = bpf_program__attach_tracing_multi(skel->progs.session_mix, NULL, &opts);
	links[3] = bpf_program__attach(skel->progs.plain_session);
	/* the same program twice on one function: refused */
	opts.cnt = 1;
	opts.cookies = NULL;
	links[4] = bpf_program__attach_tracing_multi(skel->progs.session_mix, NULL, &opts);
	check(!links[4] && errno == EBUSY, "session_mix again on bpf_fentry_test1: %s (want EBUSY)",
	      errname(links[4] ? 0 : errno));
	for (i = 0; i < 4; i++)
		if (!check(links[i], "attach link %d: %s", i, errname(links[i] ? 0 : errno)))
			goto detach;
	if (test_run(tm->progs.fentry_all))
		goto detach;
	check_hits(tm->bss, 0, "fentry.multi", 0, NR_TEST, ones);
	check_hits(tm->bss, 1, "fexit.multi", 0, NR_TEST, ones);
	for (i = 0; i < NR_TEST; i++)
		check(skel->bss->mix_entries[i] == 1 && skel->bss->mix_exits_ok[i] == 1,
		      "fsession.multi on %s: %llu entries, %llu exits with its cookie %llu (want 1, 1)",
		      test_funcs[i], (unsigned long long)skel->bss->mix_entries[i],
		      (unsigned long long)skel->bss->mix_exits_ok[i], (unsigned long long)cookies[i] + 1);
	check(skel->bss->plain_entries == 1 && skel->bss->plain_exits_ok == 1,
	      "plain fsession on bpf_fentry_test1: %llu entries, %llu exits with its cookie (want 1, 1)",
	      (unsigned long long)skel->bss->plain_entries,
	      (unsigned long long)skel->bss->plain_exits_ok);

	/* fdinfo and link info name the attach type, 61 */
	li_targets(load_btf(NULL), test_funcs, cookies, NR_TEST, want);
	check_fdinfo(bpf_link__fd(links[2]), BPF_TRACE_FSESSION_MULTI, btf_obj_id_of("vmlinux"),
		     want, NR_TEST, NULL);
	memset(&info, 0, sizeof(info));
	err = link_info(bpf_link__fd(links[2]), &info, NULL, NULL, NULL, 0);
	check(!err && info.type == BPF_LINK_TYPE_TRACING_MULTI &&
	      info.tracing_multi.attach_type == BPF_TRACE_FSESSION_MULTI &&
	      info.tracing_multi.count == NR_TEST,
	      "link info: %s, type %u, attach_type %u, count %u", errname(err), info.type,
	      info.tracing_multi.attach_type, info.tracing_multi.count);
detach:
	for (i = 0; i < 5; i++)
		bpf_link__destroy(links[i]);

	/* A failed attach leaves nothing: all ten and do_exit, which never
	 * returns, so it has no exit run: EINVAL, and no function traced
	 */
	if (enabled_test_funcs() == 0) {
		__u32 ids11[NR_TEST + 1];

		memcpy(ids11, ids, sizeof(ids));
		ids11[NR_TEST] = func_id(load_btf(NULL), "do_exit");
		opts.ids = ids11;
		opts.cnt = NR_TEST + 1;
		opts.cookies = NULL;
		links[0] = bpf_program__attach_tracing_multi(skel->progs.session_mix, NULL, &opts);
		check(!links[0] && errno == EINVAL, "fsession.multi with do_exit: %s (want EINVAL)",
		      errname(links[0] ? 0 : errno));
		bpf_link__destroy(links[0]);
		check(enabled_test_funcs() == 0, "nothing left in enabled_functions");
	} else {
		check(false, "bpf_fentry_test functions still traced after detaching every link");
	}
out:
	tracing_multi_session__destroy(skel);
	tracing_multi__destroy(tm);
	return 0;
}

int main(int argc, char **argv)
{
	const char *test = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(test, "skel"))
		test_skel();
	else if (!strcmp(test, "pattern"))
		test_pattern();
	else if (!strcmp(test, "ids"))
		test_ids();
	else if (!strcmp(test, "cookies"))
		test_cookies();
	else if (!strcmp(test, "linkinfo"))
		test_linkinfo();
	else if (!strcmp(test, "linkinfo_uffd"))
		test_linkinfo_uffd();
	else if (!strcmp(test, "detach"))
		test_detach();
	else if (!strcmp(test, "module"))
		test_module(argc > 2 ? argv[2] : NULL);
	else if (!strcmp(test, "intersect"))
		test_intersect(argc > 2 ? strtoul(argv[2], NULL, 0) : (unsigned int)getpid(), 3);
	else if (!strcmp(test, "errors"))
		test_errors();
	else if (!strcmp(test, "session"))
		test_session();
	else if (!strcmp(test, "session_mix"))
		test_session_mix();
	else if (!strcmp(test, "aliases"))
		test_aliases();
	else if (!strcmp(test, "faults") && argc > 2)
		test_faults(argv[2], argc > 3 ? argv[3] : NULL);
	else if (!strcmp(test, "nomem") && argc > 2)
		test_nomem(argv[2]);
	else if (!strcmp(test, "single_nomem"))
		test_single_nomem();
	else if (!strcmp(test, "pin") && argc > 2)
		pin_link(argv[2]);
	else {
		fprintf(stderr, "usage: %s skel|pattern|ids|cookies|linkinfo|linkinfo_uffd|detach|module [PIN_DIR]|"
			"intersect [SEED]|errors|session|session_mix|aliases|faults each|spread [BIG_LINK]|nomem BIG_LINK|single_nomem|pin PATH\n", argv[0]);
		return 2;
	}
	btf__free(vmlinux_btf);
	printf("%d failed\n", failures);
	return failures ? 1 : 0;
}
