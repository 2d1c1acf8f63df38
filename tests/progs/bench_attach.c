// SPDX-License-Identifier: GPL-2.0
/* bench_attach [MAX_FENTRY]: attach and detach wall time of
 *  - one tracing_multi link (fentry.multi),
 *  - N ordinary fentry links, each program loaded and attached on its own
 *    (only for N <= MAX_FENTRY, default 1000),
 *  - one kprobe_multi link,
 * on the same N functions, for N = 100, 1000 and all traceable vmlinux
 * functions, and the ratios. Each figure is the median of 5 runs (3 for
 * the 1000 fentry links); tracing_multi and kprobe_multi runs alternate.
 * Run by make bench in a guest booted from the bench kernel (no lock
 * checkers). All figures come from one run, so the ratios compare like
 * with like on a noisy machine.
 *
 * "Traceable" is what the kernel accepts for every one of the three: a
 * vmlinux BTF function whose name is exactly once in
 * available_filter_functions, with a prototype a trampoline can handle,
 * minus the functions the kernel denies to tracing programs and those the
 * kprobe_multi selftests skip (rcu_*, idle). If the kernel still refuses
 * the set, the refused functions are found by bisection and dropped (and
 * listed), so the timed runs attach a set all three accept.
 *
 * BENCH_KPROBE_MULTI_ONLY=1 in the environment only attaches and detaches
 * one kprobe_multi link on all candidates, five times: the reproducer for
 * the stray int3 oops TCG guests with two vCPUs show when everything is
 * attached, without any tracing_multi code involved. BENCH_KPROBE_MULTI_ONLY=busy
 * also keeps a child process calling patched functions meanwhile (reading
 * /proc/kallsyms, listing /sys): with two vCPUs on QEMU 7.2's multi-threaded
 * TCG that oopses at once, on one TCG thread never (docs/benchmarks.md).
 *
 * BENCH_PROFILE_N=N attaches and detaches a tracing_multi link and a
 * kprobe_multi link, in turns, on the first N candidates 20 times each and
 * prints the medians: a steady load to run under perf record.
 * BENCH_VERBOSE=1 also prints each tracing_multi and kprobe_multi attach's
 * wall time, this process's CPU time and all CPUs' busy time.
 *
 * Per call: the time of a getpgid(0) system call (__x64_sys_getpgid)
 * without programs, with an fentry.multi, an fexit.multi, both, and an
 * fsession.multi program (all empty) on it, each the median of 5 runs of
 * 200000 calls, and what each adds to a call: a session program runs at
 * both ends, so it compares with fentry.multi + fexit.multi.
 * BENCH_PER_CALL=1 runs only this part.
 *
 * BENCH_LATENCY=1 measures how long the attach and detach of everything
 * keep the CPU from a waiting real-time task: a SCHED_FIFO thread on the
 * CPU of the attaching thread sleeps 1 ms at a time and records how late
 * it wakes, while nothing runs, then during 5 tracing_multi and then 5
 * kprobe_multi attaches and detaches of all candidates. On a kernel
 * without full preemption (the bench kernel is PREEMPT_NONE, the worst
 * case of Debian's PREEMPT_DYNAMIC), the longest wake-up delay is the
 * longest stretch the attach or detach runs without a resched point.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "plain_fentry.h"
#include "bench_attach.skel.h"

#define REPS 5	/* runs per figure; the table shows the median */

struct func {
	__u32 id;
	const char *name;
};

static struct btf *btf;
static struct bench_attach *skel;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Idle and busy jiffies of all CPUs so far, from /proc/stat. */
static void cpu_jiffies(unsigned long long *idle, unsigned long long *busy)
{
	unsigned long long v[10] = {};
	FILE *f = fopen("/proc/stat", "r");
	int i;

	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			 &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
			 &v[9]) != 10) {
		perror("/proc/stat");
		exit(1);
	}
	fclose(f);
	*idle = v[3] + v[4];
	*busy = 0;
	for (i = 0; i < 8; i++)
		if (i != 3 && i != 4)
			*busy += v[i];
}

/* Wait (at most 10 s) until the CPUs were idle for 95% of 100 ms. A
 * detach leaves work behind (trampoline images are freed by a worker
 * after an RCU-tasks grace period; kprobe_multi frees its fprobe
 * likewise); on the bench's single vCPU that work would otherwise be
 * billed to whatever is timed next. Every timed step starts from an idle
 * machine, for all three link kinds alike.
 */
static void settle(void)
{
	unsigned long long i0, b0, i1, b1;
	int tries;

	for (tries = 0; tries < 100; tries++) {
		cpu_jiffies(&i0, &b0);
		usleep(100 * 1000);
		cpu_jiffies(&i1, &b1);
		if ((i1 - i0) * 100 >= ((i1 - i0) + (b1 - b0)) * 95)
			return;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of available_filter_functions that are there once. */
static char **ftrace_funcs(size_t *cnt)
{
	FILE *f = fopen("/sys/kernel/tracing/available_filter_functions", "r");
	char line[512], **names = NULL;
	size_t n = 0, cap = 0, i, j;

	if (!f) {
		perror("available_filter_functions");
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '['))	/* module function */
			continue;
		line[strcspn(line, " \n")] = 0;
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			names = realloc(names, cap * sizeof(*names));
		}
		names[n++] = strdup(line);
	}
	fclose(f);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0, j = 0; i < n; i++) {
		bool dup = (i > 0 && !strcmp(names[i], names[i - 1])) ||
			   (i + 1 < n && !strcmp(names[i], names[i + 1]));

		if (!dup)
			names[j++] = names[i];
	}
	*cnt = j;
	return names;
}

static bool skip_name(const char *name)
{
	static const char *const skip[] = {
		/* btf_id_deny: the trampoline itself calls them */
		"migrate_disable", "migrate_enable", "rcu_read_unlock_strict",
		"preempt_count_add", "preempt_count_sub", "__rcu_read_lock",
		"__rcu_read_unlock",
		/* 'suspicious RCU usage' with kprobe_multi, as its selftests */
		"arch_cpu_idle", "default_idle", "bpf_dispatcher_xdp_func",
	};
	size_t i;

	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(name, skip[i]))
			return true;
	return !strncmp(name, "rcu_", 4) || !strncmp(name, "__ftrace_invalid_address__", 26);
}

/* Whether a trampoline can describe the prototype (btf_distill_func_proto) */
static bool proto_ok(const struct btf_type *proto)
{
	const struct btf_param *p = btf_params(proto);
	int i, n = btf_vlen(proto);
	const struct btf_type *t;

	if (n > 12)
		return false;
	for (i = 0; i <= n; i++) {
		__u32 type = i < n ? p[i].type : proto->type;

		if (i < n && !type)	/* varargs */
			return false;
		if (!type)		/* void return */
			continue;
		t = btf__type_by_id(btf, btf__resolve_type(btf, type));
		if (!t)
			return false;
		if (btf_is_int(t) || btf_is_ptr(t) || btf_is_enum(t) || btf_is_enum64(t))
			continue;
		if (i < n && btf_is_struct(t) && t->size <= 16)	/* no struct return */
			continue;
		return false;
	}
	return true;
}

static struct func *traceable(size_t *cnt)
{
	size_t nf, n = 0, i;
	char **names = ftrace_funcs(&nf);
	__u32 id, types = btf__type_cnt(btf);
	struct func *funcs = calloc(nf, sizeof(*funcs));

	for (id = 1; id < types; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;
		char **hit;

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (skip_name(name) || !proto_ok(btf__type_by_id(btf, t->type)))
			continue;
		hit = bsearch(&name, names, nf, sizeof(*names), cmp_str);
		if (!hit)
			continue;
		funcs[n].id = id;
		funcs[n].name = name;
		n++;
	}
	for (i = 0; i < nf; i++)
		free(names[i]);
	free(names);
	*cnt = n;
	return funcs;
}

static int multi_attach(const struct func *f, size_t n)
{
	LIBBPF_OPTS(bpf_link_create_opts, o);
	__u32 *ids = calloc(n, sizeof(*ids));
	size_t i;
	int fd;

	for (i = 0; i < n; i++)
		ids[i] = f[i].id;
	o.tracing_multi.ids = ids;
	o.tracing_multi.cnt = n;
	fd = bpf_link_create(bpf_program__fd(skel->progs.bench_fentry_multi), 0,
			     BPF_TRACE_FENTRY_MULTI, &o);
	free(ids);
	return fd;
}

static int kmulti_attach(const struct func *f, size_t n)
{
	LIBBPF_OPTS(bpf_link_create_opts, o);
	const char **syms = calloc(n, sizeof(*syms));
	size_t i;
	int fd;

	for (i = 0; i < n; i++)
		syms[i] = f[i].name;
	o.kprobe_multi.syms = syms;
	o.kprobe_multi.cnt = n;
	fd = bpf_link_create(bpf_program__fd(skel->progs.bench_kprobe_multi), 0,
			     BPF_TRACE_KPROBE_MULTI, &o);
	free(syms);
	return fd;
}

/* A tracing_multi link of prog (attach type type) on the function id */
static int multi_attach_one(struct bpf_program *prog, enum bpf_attach_type type, __u32 id)
{
	LIBBPF_OPTS(bpf_link_create_opts, o);

	o.tracing_multi.ids = &id;
	o.tracing_multi.cnt = 1;
	return bpf_link_create(bpf_program__fd(prog), 0, type, &o);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Wall time of running cmd (a bpftool command on PATH) once, or -1. */
static double time_cmd(const char *cmd)
{
	double t0;

	settle();
	t0 = now();
	if (system(cmd))
		return -1;
	return now() - t0;
}

/* User CPU time of the children waited for so far, s */
static double children_user(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
}

/* Sum of the BPF_LINK_CREATE durations in strace -T output at path, s */
static double strace_link_create(const char *path)
{
	char line[512], *p;
	double sum = 0, t;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "bpf(BPF_LINK_CREATE"))
			continue;
		p = strrchr(line, '<');
		if (p && sscanf(p, "<%lf>", &t) == 1)
			sum += t;
	}
	fclose(f);
	return sum;
}

/* bpftool's own time attaching a tracing_multi link to n functions
 * (`link attach tracing_multi ... funcs FILE`): its wall time minus the
 * time its BPF_LINK_CREATE took (strace -T, printing only bpf(2)),
 * medians of 3, next to the wall time of `bpftool version`, what any
 * bpftool run costs here (a process start under emulation).
 */
static void time_bpftool_attach(const struct func *f, size_t n)
{
	static const char *prog_pin = "/sys/fs/bpf/bench_attach_prog";
	static const char *link_pin = "/sys/fs/bpf/bench_attach_link";
	static const char *funcs = "/tmp/bench_attach_funcs";
	static const char *trace = "/tmp/bench_attach_strace";
	double wall[3], sys[3], own[3], ver[3], user[3], u0, t;
	char cmd[512], plain[512];
	size_t i;
	FILE *out;
	int r;

	out = fopen(funcs, "w");
	if (!out)
		return;
	for (i = 0; i < n; i++)
		fprintf(out, "%s\n", f[i].name);
	fclose(out);
	unlink(prog_pin);
	if (bpf_obj_pin(bpf_program__fd(skel->progs.bench_fentry_multi), prog_pin)) {
		printf("# bpftool attach: can't pin the program: %s\n", strerror(errno));
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "strace -f -T -e trace=bpf -o %s "
		 "bpftool link attach tracing_multi pinned %s %s funcs %s >/dev/null",
		 trace, prog_pin, link_pin, funcs);
	/* and without strace: the CPU time bpftool spends in user space */
	snprintf(plain, sizeof(plain),
		 "bpftool link attach tracing_multi pinned %s %s funcs %s >/dev/null",
		 prog_pin, link_pin, funcs);
	for (r = 0; r < 3; r++) {
		unlink(link_pin);
		wall[r] = time_cmd(cmd);
		sys[r] = strace_link_create(trace);
		unlink(link_pin);
		u0 = children_user();
		t = time_cmd(plain);
		user[r] = children_user() - u0;
		unlink(link_pin);
		ver[r] = time_cmd("bpftool version >/dev/null");
		if (wall[r] < 0 || sys[r] <= 0 || t < 0) {
			printf("# bpftool attach: `%s` failed\n", t < 0 ? plain : cmd);
			unlink(prog_pin);
			return;
		}
		own[r] = wall[r] - sys[r];
	}
	unlink(prog_pin);
	unlink(funcs);
	unlink(trace);
	qsort(wall, 3, sizeof(wall[0]), cmp_double);
	qsort(sys, 3, sizeof(sys[0]), cmp_double);
	qsort(own, 3, sizeof(own[0]), cmp_double);
	qsort(ver, 3, sizeof(ver[0]), cmp_double);
	qsort(user, 3, sizeof(user[0]), cmp_double);
	printf("# bpftool link attach tracing_multi ... funcs FILE of %zu functions: %.2f s, "
	       "its BPF_LINK_CREATE %.2f s, bpftool's own %.2f s = %.0f%% of the attach "
	       "(bpftool version alone: %.2f s; own beyond that %.0f%%; goal <= 10%%); "
	       "bpftool's user-space CPU %.2f s = %.0f%%\n",
	       n, wall[1], sys[1], own[1], 100 * own[1] / sys[1], ver[1],
	       100 * (own[1] - ver[1]) / sys[1], user[1], 100 * user[1] / sys[1]);
}

/* How long `bpftool link show` takes for a tracing_multi link on n
 * functions, plain and JSON (medians of 3), next to a link on one
 * function. While the big link is attached every process runs slower (its
 * program runs in most kernel functions), so `bpftool version` is timed
 * alongside: what link show takes beyond it is the showing.
 */
static void time_link_show(const struct func *f, size_t n)
{
	static const char *pin = "/sys/fs/bpf/bench_attach_link";
	static const char *fmt[] = { "bpftool version >/dev/null",
				     "bpftool link show pinned %s >/dev/null",
				     "bpftool -j link show pinned %s >/dev/null" };
	size_t sizes[2] = { 1, n }, s, k;
	double t[2][3], r[3];
	char cmd[256];
	int fd, i;

	for (s = 0; s < 2; s++) {
		fd = multi_attach(f, sizes[s]);
		unlink(pin);
		if (fd < 0 || bpf_obj_pin(fd, pin)) {
			printf("# link show: can't pin a link on %zu functions: %s\n", sizes[s],
			       strerror(errno));
			return;
		}
		for (k = 0; k < 3; k++) {
			snprintf(cmd, sizeof(cmd), fmt[k], pin);
			for (i = 0; i < 3; i++)
				r[i] = time_cmd(cmd);
			qsort(r, 3, sizeof(r[0]), cmp_double);
			t[s][k] = r[1];
		}
		unlink(pin);
		close(fd);
	}
	printf("# with a tracing_multi link on 1 / %zu functions: bpftool version %.2f / %.2f s, "
	       "link show %.2f / %.2f s, link show -j %.2f / %.2f s\n", n, t[0][0], t[1][0],
	       t[0][1], t[1][1], t[0][2], t[1][2]);
}

/* Drop from f[0..*n) the functions either multi link refuses: bisect. */
static void drop_refused(struct func *f, size_t *n, int (*attach)(const struct func *, size_t),
			 const char *what)
{
	size_t lo, len, i, out = 0;
	struct func *keep = calloc(*n, sizeof(*keep));
	/* stack of [lo, len) ranges still to check */
	size_t *stack = calloc(2 * 64 + 2 * *n, sizeof(*stack)), sp = 0;
	int fd;

	stack[sp++] = 0;
	stack[sp++] = *n;
	while (sp) {
		len = stack[--sp];
		lo = stack[--sp];
		if (!len)
			continue;
		fd = attach(f + lo, len);
		if (fd >= 0) {
			close(fd);
			for (i = 0; i < len; i++)
				keep[out++] = f[lo + i];
			continue;
		}
		if (len == 1) {
			printf("# %s refuses %s: %s\n", what, f[lo].name, strerror(errno));
			continue;
		}
		stack[sp++] = lo + len / 2;
		stack[sp++] = len - len / 2;
		stack[sp++] = lo;
		stack[sp++] = len / 2;
	}
	memcpy(f, keep, out * sizeof(*f));
	*n = out;
	free(keep);
	free(stack);
}

struct result {
	double attach, detach;
	bool ok;
};

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct result time_multi(int (*attach)(const struct func *, size_t),
				const struct func *f, size_t n)
{
	unsigned long long i0, b0, i1, b1;
	struct result r = {};
	double t0, c0, cpu;
	int fd;

	settle();
	cpu_jiffies(&i0, &b0);
	c0 = cpu_now();
	t0 = now();
	fd = attach(f, n);
	r.attach = now() - t0;
	cpu = cpu_now() - c0;
	cpu_jiffies(&i1, &b1);
	/* this process's CPU time, all CPUs' busy time */
	if (getenv("BENCH_VERBOSE"))
		printf("#   %zu: attach wall %.4f self cpu %.4f busy %.4f\n", n, r.attach, cpu,
		       (double)(b1 - b0) / sysconf(_SC_CLK_TCK));
	if (fd < 0) {
		printf("# attach of %zu functions failed: %s\n", n, strerror(errno));
		return r;
	}
	settle();
	t0 = now();
	close(fd);
	r.detach = now() - t0;
	r.ok = true;
	return r;
}

static struct result time_fentry(const struct func *f, size_t n)
{
	int *links = calloc(n, sizeof(*links));
	struct result r = {};
	size_t i, done = 0;
	double t0;

	settle();
	t0 = now();
	for (i = 0; i < n; i++) {
		int prog = load_plain_fentry(f[i].id);

		links[i] = prog < 0 ? prog : bpf_link_create(prog, 0, BPF_TRACE_FENTRY, NULL);
		if (prog >= 0)
			close(prog);
		if (links[i] < 0) {
			printf("# fentry link on %s failed: %s\n", f[i].name, strerror(errno));
			break;
		}
		done++;
	}
	r.attach = now() - t0;
	settle();
	t0 = now();
	for (i = 0; i < done; i++)
		close(links[i]);
	r.detach = now() - t0;
	r.ok = done == n;
	free(links);
	return r;
}

typedef int (*attach_fn)(const struct func *, size_t);

/* The medians of reps runs of each of nkinds link kinds (attach and
 * detach separately; NULL: N fentry links): one TCG run varies by tens of
 * percent. The kinds take turns (a, b, a, b, ...), so the host's speed,
 * which drifts over minutes on these machines, is the same for each.
 */
static void medians(const attach_fn *kinds, int nkinds, const struct func *f, size_t n,
		    int reps, struct result *out)
{
	double at[2][REPS], de[2][REPS];
	int i, k;

	for (k = 0; k < nkinds; k++)
		out[k] = (struct result){ .ok = true };
	for (i = 0; i < reps; i++) {
		for (k = 0; k < nkinds; k++) {
			struct result one;

			if (!out[k].ok)
				continue;
			one = kinds[k] ? time_multi(kinds[k], f, n) : time_fentry(f, n);
			out[k].ok = one.ok;
			at[k][i] = one.attach;
			de[k][i] = one.detach;
		}
	}
	for (k = 0; k < nkinds; k++) {
		if (!out[k].ok)
			continue;
		qsort(at[k], reps, sizeof(at[k][0]), cmp_double);
		qsort(de[k], reps, sizeof(de[k][0]), cmp_double);
		out[k].attach = at[k][reps / 2];
		out[k].detach = de[k][reps / 2];
	}
}

#define PER_CALL_CALLS 200000

/* ns per getpgid(0) call, PER_CALL_CALLS of them */
static double time_calls(void)
{
	double t = now();
	int i;

	for (i = 0; i < PER_CALL_CALLS; i++)
		syscall(SYS_getpgid, 0);
	return (now() - t) * 1e9 / PER_CALL_CALLS;
}

static void bench_per_call(void)
{
	static const char *const names[] = {
		"no program", "fentry.multi", "fexit.multi", "fentry.multi + fexit.multi",
		"fsession.multi",
	};
	enum { NONE, FENTRY, FEXIT, BOTH, SESSION, NKINDS };
	double t[NKINDS][REPS], med[NKINDS];
	/* getppid() would be simpler, but SYSCALL_DEFINE0's __x64_sys_
	 * function is an alias, which BTF does not have
	 */
	int id = btf__find_by_name_kind(btf, "__x64_sys_getpgid", BTF_KIND_FUNC);
	int k, r, fd[2];

	if (id < 0) {
		printf("# per call: no __x64_sys_getpgid in vmlinux BTF\n");
		return;
	}
	for (r = 0; r < REPS; r++) {
		for (k = 0; k < NKINDS; k++) {
			fd[0] = fd[1] = -1;
			if (k == FENTRY || k == BOTH)
				fd[0] = multi_attach_one(skel->progs.bench_fentry_multi,
							 BPF_TRACE_FENTRY_MULTI, id);
			if (k == FEXIT || k == BOTH)
				fd[1] = multi_attach_one(skel->progs.bench_fexit_multi,
							 BPF_TRACE_FEXIT_MULTI, id);
			if (k == SESSION)
				fd[0] = multi_attach_one(skel->progs.bench_fsession_multi,
							 BPF_TRACE_FSESSION_MULTI, id);
			if ((k != NONE && k != FEXIT && fd[0] < 0) ||
			    ((k == FEXIT || k == BOTH) && fd[1] < 0)) {
				printf("# per call: cannot attach %s: %s\n", names[k], strerror(errno));
				return;
			}
			t[k][r] = time_calls();
			if (fd[0] >= 0)
				close(fd[0]);
			if (fd[1] >= 0)
				close(fd[1]);
		}
	}
	printf("# per call: getpgid(0) with empty programs on __x64_sys_getpgid, "
	       "median of %d x %d calls\n", REPS, PER_CALL_CALLS);
	printf("%-28s %10s %10s\n", "programs", "ns/call", "added ns");
	for (k = 0; k < NKINDS; k++) {
		qsort(t[k], REPS, sizeof(double), cmp_double);
		med[k] = t[k][REPS / 2];
		printf("%-28s %10.0f %10.0f\n", names[k], med[k], med[k] - med[NONE]);
	}
	printf("# fsession.multi adds %.2fx what fentry.multi + fexit.multi add\n",
	       (med[SESSION] - med[NONE]) / (med[BOTH] - med[NONE]));
}

static void print_ratio(double a, double b)
{
	printf(" %9.1fx", b > 0 ? a / b : 0);
}

/* BENCH_LATENCY: the wake-up delays of a SCHED_FIFO thread */
static volatile bool lat_stop;
static double lat_max;		/* longest delay since lat_reset(), s */
static double lat_sum;
static unsigned long lat_n;

static void lat_reset(void)
{
	lat_max = 0;
	lat_sum = 0;
	lat_n = 0;
}

static void *lat_thread(void *arg)
{
	const long period_ns = 1000 * 1000;
	struct timespec next, woke;
	double late;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!lat_stop) {
		next.tv_nsec += period_ns;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		clock_gettime(CLOCK_MONOTONIC, &woke);
		late = (woke.tv_sec - next.tv_sec) + (woke.tv_nsec - next.tv_nsec) / 1e9;
		if (late > lat_max)
			lat_max = late;
		lat_sum += late;
		lat_n++;
		/* after a long delay, start again from now */
		if (late > period_ns / 1e9)
			next = woke;
	}
	return NULL;
}

static void lat_print(const char *what)
{
	printf("%-36s | %9.2f | %9.3f | %8lu\n", what, lat_max * 1e3,
	       lat_n ? lat_sum / lat_n * 1e3 : 0.0, lat_n);
}

static int bench_latency(const struct func *all, size_t n)
{
	struct sched_param sp = { .sched_priority = 50 };
	pthread_attr_t attr;
	cpu_set_t cpus;
	pthread_t th;
	int r, err;

	/* the attaching thread and the waiting one share a CPU */
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("sched_setaffinity");
		return 2;
	}
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	err = pthread_create(&th, &attr, lat_thread, NULL);
	if (err) {
		fprintf(stderr, "SCHED_FIFO thread: %s\n", strerror(err));
		return 2;
	}
	printf("# wake-up delay of a SCHED_FIFO thread sleeping 1 ms at a time, on the CPU of\n"
	       "# the attaching thread, %zu functions\n", n);
	printf("%-36s | %9s | %9s | %8s\n", "while", "max (ms)", "mean (ms)", "wake-ups");
	settle();
	lat_reset();
	sleep(5);
	lat_print("nothing (5 s)");
	for (r = 0; r < 2; r++) {
		attach_fn attach = r ? kmulti_attach : multi_attach;
		double t0, t_attach = 0, t_detach = 0;
		int i, fd;

		settle();
		lat_reset();
		for (i = 0; i < REPS; i++) {
			t0 = now();
			fd = attach(all, n);
			t_attach += now() - t0;
			if (fd < 0) {
				printf("# attach failed: %s\n", strerror(errno));
				break;
			}
			t0 = now();
			close(fd);
			t_detach += now() - t0;
		}
		lat_print(r ? "kprobe_multi attach+detach (x5)" :
			      "tracing_multi attach+detach (x5)");
		printf("#   mean attach %.3f s, detach %.3f s\n", t_attach / REPS, t_detach / REPS);
	}
	lat_stop = true;
	pthread_join(th, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	size_t max_fentry = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;
	size_t sizes[3] = { 100, 1000, 0 }, n_all, s, i;
	bool met = true;
	struct func *all;

	setvbuf(stdout, NULL, _IOLBF, 0);
	btf = btf__load_vmlinux_btf();
	skel = bench_attach__open_and_load();
	if (!btf || !skel) {
		fprintf(stderr, "cannot load vmlinux BTF or the bench programs: %s\n",
			strerror(errno));
		return 2;
	}
	if (getenv("BENCH_PER_CALL")) {
		bench_per_call();
		return 0;
	}
	all = traceable(&n_all);
	printf("# %zu candidate functions (vmlinux BTF x available_filter_functions)\n", n_all);
	if (getenv("BENCH_KPROBE_MULTI_ONLY")) {
		/* triage: the same attach of everything without tracing_multi */
		pid_t busy = -1;

		if (!strcmp(getenv("BENCH_KPROBE_MULTI_ONLY"), "busy")) {
			busy = fork();
			if (busy == 0) {
				for (;;)
					if (system("cat /proc/kallsyms /proc/self/status >/dev/null; "
						   "ls -R /sys/kernel /sys/bus >/dev/null 2>&1") == -1)
						_exit(1);
			}
		}
		for (s = 0; s < 5; s++) {
			struct result km = time_multi(kmulti_attach, all, n_all);

			printf("kprobe_multi on %zu functions: attach %.4f detach %.4f\n", n_all,
			       km.attach, km.detach);
		}
		if (busy > 0) {
			kill(busy, SIGKILL);
			waitpid(busy, NULL, 0);
		}
		return 0;
	}
	if (getenv("BENCH_LATENCY")) {
		drop_refused(all, &n_all, multi_attach, "tracing_multi");
		drop_refused(all, &n_all, kmulti_attach, "kprobe_multi");
		return bench_latency(all, n_all);
	}
	if (getenv("BENCH_PROFILE_N")) {
		n_all = strtoul(getenv("BENCH_PROFILE_N"), NULL, 0) < n_all ?
			strtoul(getenv("BENCH_PROFILE_N"), NULL, 0) : n_all;
		drop_refused(all, &n_all, multi_attach, "tracing_multi");
		drop_refused(all, &n_all, kmulti_attach, "kprobe_multi");
		for (s = 0; s < 4; s++) {
			const attach_fn kinds[2] = { multi_attach, kmulti_attach };
			struct result r[2];

			medians(kinds, 2, all, n_all, REPS, r);
			printf("N=%zu attach: tracing_multi %.4f kprobe_multi %.4f\n", n_all,
			       r[0].attach, r[1].attach);
		}
		return 0;
	}
	drop_refused(all, &n_all, multi_attach, "tracing_multi");
	drop_refused(all, &n_all, kmulti_attach, "kprobe_multi");
	printf("# %zu functions all three attach types accept\n", n_all);
	sizes[2] = n_all;

	printf("%8s | %22s | %22s | %22s | %10s %10s | %10s %10s\n", "", "tracing_multi (s)",
	       "fentry links (s)", "kprobe_multi (s)", "fentry/", "", "multi/", "");
	printf("%8s | %10s %11s | %10s %11s | %10s %11s | %10s %10s | %10s %10s\n", "N",
	       "attach", "detach", "attach", "detach", "attach", "detach",
	       "tm attach", "tm detach", "kpm attach", "kpm detach");
	for (s = 0; s < 3; s++) {
		size_t n = sizes[s] < n_all ? sizes[s] : n_all;
		const attach_fn kinds[2] = { multi_attach, kmulti_attach }, fentry = NULL;
		struct func *f = calloc(n, sizeof(*f));
		struct result r[2], fe = {}, tm, km;

		/* spread the subset over the whole list */
		for (i = 0; i < n; i++)
			f[i] = all[i * (n_all / n)];
		medians(kinds, 2, f, n, REPS, r);
		tm = r[0];
		km = r[1];
		if (n <= max_fentry)
			medians(&fentry, 1, f, n, n > 100 ? 3 : REPS, &fe);
		printf("%8zu | %10.4f %11.4f |", n, tm.attach, tm.detach);
		if (fe.ok)
			printf(" %10.4f %11.4f |", fe.attach, fe.detach);
		else
			printf(" %10s %11s |", "-", "-");
		printf(" %10.4f %11.4f |", km.attach, km.detach);
		if (fe.ok) {
			print_ratio(fe.attach, tm.attach);
			print_ratio(fe.detach, tm.detach);
		} else {
			printf(" %10s %10s", "-", "-");
		}
		printf(" |");
		print_ratio(tm.attach, km.attach);
		print_ratio(tm.detach, km.detach);
		printf("\n");

		met &= tm.ok && km.ok && tm.attach <= 2 * km.attach;
		if (n == 1000)
			met &= fe.ok && fe.attach >= 50 * tm.attach;
		free(f);
	}
	printf("# targets: at N=1000 tracing_multi attaches >= 50x faster than 1000 fentry "
	       "links; at every N tracing_multi attach <= 2x kprobe_multi attach: %s\n",
	       met ? "met" : "MISSED");
	time_link_show(all, n_all);
	time_bpftool_attach(all, n_all);
	bench_per_call();
	bench_attach__destroy(skel);
	btf__free(btf);
	return 0;
}
