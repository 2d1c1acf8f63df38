// SPDX-License-Identifier: GPL-2.0
/* bench_attach [MAX_FENTRY]: what a tracing_multi link costs, next to its
 * alternatives, all figures from one run (ratios compare like with like
 * on a noisy machine). Run by make bench in a guest booted from the bench
 * kernel (no lock checkers), one vCPU.
 *
 * Attach and detach wall time of
 *  - one tracing_multi link (fentry.multi),
 *  - N ordinary fentry links, each program loaded and attached on its own
 *    (only for N <= MAX_FENTRY, default 1000),
 *  - one kprobe_multi link,
 * on the same N functions, for N = 10, 100, 1000, 10000 and all traceable
 * vmlinux functions, and the ratios. Each figure is the median of 5 runs
 * (3 for more than 100 fentry links); tracing_multi and kprobe_multi runs
 * alternate. BENCH_DATA=DIR also writes the table to DIR/attach.dat
 * (make bench plots it).
 *
 * Kernel memory a tracing_multi and a kprobe_multi link take per
 * function (slab, vmalloc, percpu; /proc/meminfo before and after).
 *
 * Per call: what each kind of empty program attached to getpgid's system
 * call function (__x64_sys_getpgid, __arm64_sys_getpgid) adds to a
 * getpgid(0) call (fentry, fentry.multi, kprobe.multi, fexit,
 * fexit.multi, kretprobe.multi, fentry + fexit, both .multi, and
 * fsession.multi), 9 rounds in which every kind takes a turn, and what a
 * run of a fentry.multi program costs when its link spans 1, 1000 and all
 * functions: with BENCH_PER_CALL=1 in the environment, instead of the
 * above. make bench runs them in a second guest whose clock counts
 * instructions (qemu/run --icount) with BENCH_PER_CALL=icount, which
 * labels the figures "insn" instead of "ns".
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
 * It loads only its kprobe_multi program, so it runs on 6.12 without the
 * series too (build/bench-base/bzImage).
 *
 * BENCH_PROFILE_N=N attaches and detaches a tracing_multi link and a
 * kprobe_multi link, in turns, on the first N candidates 20 times each and
 * prints the medians: a steady load to run under perf record.
 * BENCH_BPFTOOL_ONLY=1 only times `bpftool link attach tracing_multi` (the
 * bpftool on PATH) on all candidates: bpftool's own time, for work on it.
 * BENCH_MEMORY_ONLY=1 only measures the kernel memory per attached function.
 * BENCH_SHOW_ONLY=1 only times `bpftool link show` of both multi links.
 * BENCH_PER_CALL_PLAIN=1 only times plain fentry, fexit and fmod_ret per
 * call, on any kernel (make bench-base, see bench_per_call_plain()).
 * BENCH_VERBOSE=1 also prints each tracing_multi and kprobe_multi attach's
 * wall time, this process's CPU time and all CPUs' busy time.
 *
 * BENCH_LATENCY=1 measures how long the attach and detach of everything
 * keep the CPU from a waiting real-time task: a SCHED_FIFO thread on the
 * CPU of the attaching thread sleeps 1 ms at a time and records how late
 * it wakes, while nothing runs, then during 5 tracing_multi and then 5
 * kprobe_multi attaches and detaches of all candidates. On a kernel
 * without full preemption (the bench kernel is PREEMPT_NONE, the worst
 * case of Debian's PREEMPT_DYNAMIC), the longest wake-up delay is the
 * longest stretch the attach or detach runs without a resched point.
 *
 * Where the kernel has no kprobe_multi (arm64 with 6.12: fprobe needs
 * DYNAMIC_FTRACE_WITH_REGS), its figures show "-", the targets against
 * it "n/a", and the rest runs as elsewhere.
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
static bool have_kprobe_multi;	/* whether kprobe_multi links work here */

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

#ifdef __aarch64__
/* arm64's trampoline (6.12) passes at most 8 registers of arguments, a
 * struct over 8 bytes taking two: more is -ENOTSUPP (524)
 */
static bool regs_ok(const struct btf_type *proto)
{
	const struct btf_param *p = btf_params(proto);
	int i, regs = 0;

	for (i = 0; i < btf_vlen(proto); i++) {
		const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, p[i].type));

		regs += btf_is_struct(t) && t->size > 8 ? 2 : 1;
	}
	return regs <= 8;
}
#else
static bool regs_ok(const struct btf_type *proto)
{
	(void)proto;
	return true;
}
#endif

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
	return regs_ok(proto);
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

/* Run argv (a bpftool command, stdout to /dev/null) once, as
 * process watch_tgid of the system-call tracepoint programs; its wall
 * time from fork to exit, and the user-space CPU time in *user. The child
 * waits on a pipe until its pid is set, so none of its calls is missed.
 */
static double run_watched(char *const argv[], double *user)
{
	struct rusage ru;
	int go[2], status;
	double t0, t;
	pid_t pid;
	char c;

	settle();
	if (pipe(go))
		return -1;
	t0 = now();
	pid = fork();
	if (pid < 0) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1 || !freopen("/dev/null", "w", stdout))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(go[0]);
	skel->bss->watch_tgid = pid;
	if (write(go[1], "", 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	if (wait4(pid, &status, 0, &ru) != pid)
		return -1;
	t = now() - t0;
	skel->bss->watch_tgid = 0;
	if (user)
		*user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? t : -1;
}

/* bpftool's own time attaching a tracing_multi link to n functions
 * (`link attach tracing_multi ... funcs FILE`): its wall time from fork
 * to exit minus the time its BPF_LINK_CREATE calls took in the kernel
 * (bench_sys_enter/exit; the attach, and bpftool's probe of the link
 * type), medians of 3, next to the wall time of
 * `bpftool version`, what any bpftool process costs here.
 */
static void time_bpftool_attach(const struct func *f, size_t n)
{
	static const char *prog_pin = "/sys/fs/bpf/bench_attach_prog";
	static const char *link_pin = "/sys/fs/bpf/bench_attach_link";
	static const char *funcs = "/tmp/bench_attach_funcs";
	static const char *bpftool = "/tmp/bench_attach_bpftool";
	char *attach[] = { (char *)bpftool, "link", "attach", "tracing_multi", "pinned",
			   (char *)prog_pin, (char *)link_pin, "funcs", (char *)funcs, NULL };
	char *version[] = { (char *)bpftool, "version", NULL };
	double wall[3], sys[3], own[3], ver[3], user[3];
	struct bpf_link *enter = NULL, *leave = NULL;
	char cp[128];
	size_t i;
	FILE *out;
	int r;

	/* Run from a copy in /tmp (a tmpfs), so that it starts as on a host:
	 * build/ is shared with the guest over 9p without a page cache, and a
	 * program there reads its pages through 9p at every start (tens of
	 * major faults, some 10 ms).
	 */
	snprintf(cp, sizeof(cp), "cp \"$(command -v bpftool)\" %s", bpftool);
	if (system(cp)) {
		printf("# bpftool attach: can't copy the bpftool on PATH to %s\n", bpftool);
		return;
	}
	out = fopen(funcs, "w");
	if (!out) {
		unlink(bpftool);
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(out, "%s\n", f[i].name);
	fclose(out);
	unlink(prog_pin);
	skel->bss->nr_bpf = __NR_bpf;
	enter = bpf_program__attach(skel->progs.bench_sys_enter);
	leave = bpf_program__attach(skel->progs.bench_sys_exit);
	if (!enter || !leave ||
	    bpf_obj_pin(bpf_program__fd(skel->progs.bench_fentry_multi), prog_pin)) {
		printf("# bpftool attach: can't set up: %s\n", strerror(errno));
		goto out;
	}
	for (r = 0; r < 3; r++) {
		unlink(link_pin);
		skel->bss->link_create_ns = 0;
		skel->bss->link_create_calls = 0;
		wall[r] = run_watched(attach, &user[r]);
		sys[r] = skel->bss->link_create_ns / 1e9;
		unlink(link_pin);
		ver[r] = run_watched(version, NULL);
		if (wall[r] < 0 || ver[r] < 0 || !skel->bss->link_create_calls) {
			printf("# bpftool attach: `bpftool link attach tracing_multi pinned %s %s "
			       "funcs %s` failed, or made no BPF_LINK_CREATE call\n",
			       prog_pin, link_pin, funcs);
			goto out;
		}
		own[r] = wall[r] - sys[r];
	}
	qsort(wall, 3, sizeof(wall[0]), cmp_double);
	qsort(sys, 3, sizeof(sys[0]), cmp_double);
	qsort(own, 3, sizeof(own[0]), cmp_double);
	qsort(ver, 3, sizeof(ver[0]), cmp_double);
	qsort(user, 3, sizeof(user[0]), cmp_double);
	printf("# bpftool link attach tracing_multi ... funcs FILE of %zu functions: %.2f s, "
	       "its BPF_LINK_CREATE %.2f s, bpftool's own %.2f s = %.0f%% of the attach, "
	       "goal <= 10%%: %s (bpftool version alone: %.3f s); "
	       "bpftool's user-space CPU %.2f s = %.0f%%\n",
	       n, wall[1], sys[1], own[1], 100 * own[1] / sys[1],
	       own[1] <= 0.1 * sys[1] ? "met" : "not met", ver[1], user[1],
	       100 * user[1] / sys[1]);
out:
	unlink(prog_pin);
	unlink(link_pin);
	unlink(funcs);
	unlink(bpftool);
	bpf_link__destroy(enter);
	bpf_link__destroy(leave);
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

#define PC_CALLS 200000	/* getpgid(0) calls per timed round */
#define PC_WARMUP 20000	/* calls before timing, after each attach */
#define PC_ROUNDS 9	/* rounds; every kind is timed once per round */

/* "ns", or "insn" when BENCH_PER_CALL=icount: the guest's clock then
 * counts executed instructions (qemu/run --icount)
 */
static const char *unit = "ns";

/* ns per getpgid(0) call, PC_CALLS of them, after PC_WARMUP untimed
 * ones: QEMU translates the patched code anew after every attach
 */
static double time_calls(void)
{
	double t;
	int i;

	for (i = 0; i < PC_WARMUP; i++)
		syscall(SYS_getpgid, 0);
	t = now();
	for (i = 0; i < PC_CALLS; i++)
		syscall(SYS_getpgid, 0);
	return (now() - t) * 1e9 / PC_CALLS;
}

/* Whether /proc/kallsyms lists a trampoline image (bpf_trampoline_KEY) */
static bool tramp_images_left(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, " bpf_trampoline_") && strstr(line, "[bpf]");
	if (f)
		fclose(f);
	return found;
}

/* A detach frees the trampoline image only after RCU-tasks grace periods
 * (seconds under TCG), and fills it with int3 then, a text poke that
 * makes QEMU drop translated code: timed calls meanwhile run slower.
 * Wait (at most 10 s) until no image is left, then for an idle guest.
 */
static void after_detach(void)
{
	int tries;

	for (tries = 0; tries < 100 && tramp_images_left(); tries++)
		usleep(100 * 1000);
	settle();
}

/* A link of a fresh "return 0" program of attach type type on the
 * function id: a plain fentry or fexit link, or a tracing_multi link on
 * that one function. Every kind gets a program of its own, loaded anew
 * each round, so where the JIT places it (which under TCG can decide how
 * fast a call into it is) varies alike for all kinds.
 */
static int fresh_link(enum bpf_attach_type type, __u32 id)
{
	bool multi = type == BPF_TRACE_FENTRY_MULTI || type == BPF_TRACE_FEXIT_MULTI ||
		     type == BPF_TRACE_FSESSION_MULTI;
	int prog = load_return0(BPF_PROG_TYPE_TRACING, type, multi ? 0 : id), fd;
	LIBBPF_OPTS(bpf_link_create_opts, o);

	if (prog < 0)
		return prog;
	o.tracing_multi.ids = &id;
	o.tracing_multi.cnt = 1;
	fd = bpf_link_create(prog, 0, type, multi ? &o : NULL);
	close(prog);
	return fd;
}

/* A kprobe_multi link (kretprobe_multi if ret) of a fresh "return 0"
 * program on the function name
 */
static int kmulti_one(const char *name, bool ret)
{
	int prog = load_return0(BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, 0), fd;
	LIBBPF_OPTS(bpf_link_create_opts, o);

	if (prog < 0)
		return prog;
	o.kprobe_multi.syms = &name;
	o.kprobe_multi.cnt = 1;
	o.kprobe_multi.flags = ret ? BPF_F_KPROBE_MULTI_RETURN : 0;
	fd = bpf_link_create(prog, 0, BPF_TRACE_KPROBE_MULTI, &o);
	close(prog);
	return fd;
}

enum pc_kind {
	PC_NONE, PC_FENTRY, PC_FENTRY_MULTI, PC_KPROBE_MULTI, PC_FEXIT, PC_FEXIT_MULTI,
	PC_KRETPROBE_MULTI, PC_BOTH, PC_BOTH_MULTI, PC_FSESSION_MULTI, PC_NKINDS
};

static const char *const pc_names[PC_NKINDS] = {
	"no program", "fentry", "fentry.multi", "kprobe.multi", "fexit", "fexit.multi",
	"kretprobe.multi", "fentry + fexit", "fentry.multi + fexit.multi", "fsession.multi",
};

/* The attach type of the kinds that are one fresh_link() */
static const enum bpf_attach_type pc_types[PC_NKINDS] = {
	[PC_FENTRY] = BPF_TRACE_FENTRY, [PC_FENTRY_MULTI] = BPF_TRACE_FENTRY_MULTI,
	[PC_FEXIT] = BPF_TRACE_FEXIT, [PC_FEXIT_MULTI] = BPF_TRACE_FEXIT_MULTI,
	[PC_FSESSION_MULTI] = BPF_TRACE_FSESSION_MULTI,
};

#ifdef __aarch64__
#define PC_SYM "__arm64_sys_getpgid"
#else
#define PC_SYM "__x64_sys_getpgid"
#endif

/* Whether kind k needs kprobe_multi (skipped where there is none) */
static bool pc_kprobe(enum pc_kind k)
{
	return k == PC_KPROBE_MULTI || k == PC_KRETPROBE_MULTI;
}

static void pc_detach(int fd[2])
{
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
}

/* Attach kind k's empty programs on getpgid (BTF id id): up to two links
 * in fd[], -1 where unused. False (errno set) if one can't be attached.
 */
static bool pc_attach(enum pc_kind k, __u32 id, int fd[2])
{
	fd[0] = fd[1] = -1;
	switch (k) {
	case PC_NONE:
		return true;
	case PC_KPROBE_MULTI:
	case PC_KRETPROBE_MULTI:
		fd[0] = kmulti_one(PC_SYM, k == PC_KRETPROBE_MULTI);
		break;
	case PC_BOTH:
	case PC_BOTH_MULTI: {
		bool multi = k == PC_BOTH_MULTI;
		int entry[2], exit[2];

		if (!pc_attach(multi ? PC_FENTRY_MULTI : PC_FENTRY, id, entry))
			return false;
		if (!pc_attach(multi ? PC_FEXIT_MULTI : PC_FEXIT, id, exit)) {
			pc_detach(entry);
			return false;
		}
		fd[0] = entry[0];
		fd[1] = exit[0];
		return true;
	}
	default:
		fd[0] = fresh_link(pc_types[k], id);
		break;
	}
	return fd[0] >= 0;
}

/* Median, smallest and largest of v[0..n) (sorts v) */
struct spread {
	double med, min, max;
};

static struct spread spread_of(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return (struct spread){ v[n / 2], v[0], v[n - 1] };
}

/* "a / b: R x (median rounds M x), target: met" for the per-call ratios */
static bool pc_ratio(const char *a, const char *b, double best, double med,
		     const char *target, bool met)
{
	printf("# %-17s / %-26s %5.2fx (medians %5.2fx)%s%s%s\n", a, b, best, med,
	       target ? ", target " : "", target ? target : "",
	       target ? (met ? ": met" : ": MISSED") : "");
	return met;
}

/* Per call: what each kind of empty program adds to a getpgid(0) call
 * when attached to PC_SYM. PC_ROUNDS rounds; in each every
 * kind is attached, timed and detached, so a drift of the host's speed
 * reaches all kinds alike. Under emulation a round is slowed now and then
 * (host scheduling, QEMU's code cache) but never sped up, so the figure
 * of a kind is its best round: what it adds is its best ns/call minus the
 * bare call's best, and the ratios compare those. The medians and the
 * spread of the rounds (max - min over the median) are shown beside.
 */
static bool bench_per_call(void)
{
	double t[PC_NKINDS][PC_ROUNDS], add[PC_NKINDS], med_add[PC_NKINDS];
	char per_call[16], added[16];
	struct spread ns[PC_NKINDS];
	/* getppid() would be simpler, but SYSCALL_DEFINE0's __x64_sys_
	 * function is an alias, which BTF does not have (arm64's is not)
	 */
	int id = btf__find_by_name_kind(btf, PC_SYM, BTF_KIND_FUNC);
	int k, r, fd[2];
	bool met = true;

	if (id < 0) {
		printf("# per call: no %s in vmlinux BTF\n", PC_SYM);
		return false;
	}
	for (r = 0; r < PC_ROUNDS; r++) {
		for (k = 0; k < PC_NKINDS; k++) {
			if (!have_kprobe_multi && pc_kprobe(k))
				continue;
			if (!pc_attach(k, id, fd)) {
				printf("# per call: cannot attach %s: %s\n", pc_names[k],
				       strerror(errno));
				return false;
			}
			settle();
			t[k][r] = time_calls();
			pc_detach(fd);
			after_detach();
		}
	}
	printf("# per call: getpgid(0) with empty programs on %s, best of %d rounds of %d "
	       "calls%s\n", PC_SYM, PC_ROUNDS, PC_CALLS,
	       strcmp(unit, "ns") ? " (guest clock: 1 ns per executed instruction)" : "");
	snprintf(per_call, sizeof(per_call), "%s/call", unit);
	snprintf(added, sizeof(added), "%s added", unit);
	printf("%-28s %10s %10s | %10s %10s | %8s\n", "programs", per_call, "median", added,
	       "median", "spread");
	for (k = 0; k < PC_NKINDS; k++) {
		if (!have_kprobe_multi && pc_kprobe(k)) {
			printf("%-28s %10s %10s | %10s %10s | %8s\n", pc_names[k], "-", "-", "-",
			       "-", "-");
			continue;
		}
		ns[k] = spread_of(t[k], PC_ROUNDS);
		add[k] = ns[k].min - ns[PC_NONE].min;
		med_add[k] = ns[k].med - ns[PC_NONE].med;
		printf("%-28s %10.0f %10.0f | %10.0f %10.0f | %7.0f%%\n", pc_names[k], ns[k].min,
		       ns[k].med, add[k], med_add[k], 100 * (ns[k].max - ns[k].min) / ns[k].med);
	}
#define R(a, b) add[a] / add[b], med_add[a] / med_add[b]
	met &= pc_ratio("fentry.multi", "fentry", R(PC_FENTRY_MULTI, PC_FENTRY), "<= 1.02x",
			add[PC_FENTRY_MULTI] <= 1.02 * add[PC_FENTRY]);
	met &= pc_ratio("fexit.multi", "fexit", R(PC_FEXIT_MULTI, PC_FEXIT), "<= 1.02x",
			add[PC_FEXIT_MULTI] <= 1.02 * add[PC_FEXIT]);
	if (have_kprobe_multi) {
		met &= pc_ratio("kprobe.multi", "fentry.multi",
				R(PC_KPROBE_MULTI, PC_FENTRY_MULTI), ">= 2x",
				add[PC_KPROBE_MULTI] >= 2 * add[PC_FENTRY_MULTI]);
		met &= pc_ratio("kretprobe.multi", "fexit.multi",
				R(PC_KRETPROBE_MULTI, PC_FEXIT_MULTI), ">= 2x",
				add[PC_KRETPROBE_MULTI] >= 2 * add[PC_FEXIT_MULTI]);
	} else {
		printf("# %-17s / %-26s n/a (no kprobe_multi)\n", "kprobe.multi", "fentry.multi");
		printf("# %-17s / %-26s n/a (no kprobe_multi)\n", "kretprobe.multi",
		       "fexit.multi");
	}
	pc_ratio("fsession.multi", "fentry + fexit", R(PC_FSESSION_MULTI, PC_BOTH), NULL, true);
	pc_ratio("fsession.multi", "fentry.multi + fexit.multi",
		 R(PC_FSESSION_MULTI, PC_BOTH_MULTI), NULL, true);
#undef R
	return met;
}

/* BENCH_PER_CALL_PLAIN: what a plain fentry, fexit and fmod_ret "return
 * 0" program adds to a getpgid(0) call, for the same comparison on a
 * kernel without the series (make bench-base boots this in turns on the
 * bench kernel and on 6.12 built from the same config): no skeleton, no
 * tracing_multi, nothing 6.12 lacks. PL_ROUNDS rounds, every kind
 * attached, timed and detached in each, each time a fresh program and
 * trampoline, so the JIT's placement (which under TCG decides much of a
 * call's time) varies alike for all kinds. Where the kernel has it,
 * fentry.multi is timed too. Besides the table, one line per kind for
 * scripts: "per-call-plain KIND BEST MEDIAN" (ns per call over its rounds;
 * KIND "none" is the bare call, "-" where the kernel lacks the kind).
 */
#define PL_ROUNDS 15

static void bench_per_call_plain(void)
{
	static const char *const names[] = {
		"none", "fentry", "fexit", "fmod_ret", "fentry.multi",
	};
	static const enum bpf_attach_type types[] = {
		0, BPF_TRACE_FENTRY, BPF_TRACE_FEXIT, BPF_MODIFY_RETURN, BPF_TRACE_FENTRY_MULTI,
	};
	enum { NK = sizeof(names) / sizeof(names[0]) };
	int id = btf__find_by_name_kind(btf, PC_SYM, BTF_KIND_FUNC);
	double t[NK][PL_ROUNDS];
	bool have[NK];
	struct spread ns;
	int k, r, fd;

	if (id < 0) {
		printf("# per call: no %s in vmlinux BTF\n", PC_SYM);
		exit(2);
	}
	for (k = 0; k < NK; k++)
		have[k] = true;
	for (r = 0; r < PL_ROUNDS; r++) {
		for (k = 0; k < NK; k++) {
			if (!have[k])
				continue;
			fd = k ? fresh_link(types[k], id) : -1;
			if (k && fd < 0 && !r && types[k] == BPF_TRACE_FENTRY_MULTI) {
				/* 6.12 without the series: not timed */
				have[k] = false;
				continue;
			}
			if (k && fd < 0) {
				printf("# per call: cannot attach %s: %s\n", names[k],
				       strerror(-fd));
				exit(2);
			}
			settle();
			t[k][r] = time_calls();
			if (fd >= 0)
				close(fd);
			after_detach();
		}
	}
	printf("# per call, plain programs: getpgid(0) on %s, best and median of %d rounds of "
	       "%d calls\n", PC_SYM, PL_ROUNDS, PC_CALLS);
	for (k = 0; k < NK; k++) {
		if (!have[k]) {
			printf("per-call-plain %s - -\n", names[k]);
			continue;
		}
		ns = spread_of(t[k], PL_ROUNDS);
		printf("per-call-plain %s %.1f %.1f\n", names[k], ns.min, ns.med);
	}
}

/* Per call against the link's size: a counting fentry.multi program on
 * getpgid alone, on getpgid and 999 other functions, and on getpgid and
 * every candidate. With more functions in the link a getpgid(0) call
 * runs the program in more places (the functions the system call
 * calls, interrupts meanwhile), so the figure is the added time per run
 * of the program: added ns per call (best rounds) / runs per call. It
 * must not grow with the link's size.
 */
static bool bench_per_call_size(const struct func *all, size_t n_all)
{
	size_t sizes[3] = { 1, 1000, n_all }, i, j, n;
	double t[4][PC_ROUNDS], runs[3][PC_ROUNDS], per_run[3];
	char per_call[16], per_run_s[16];
	int id = btf__find_by_name_kind(btf, PC_SYM, BTF_KIND_FUNC);
	struct spread bare;
	__u32 *ids[3];
	int s, r, fd;
	bool met;

	if (id < 0)
		return false;
	for (s = 0; s < 3; s++) {
		n = sizes[s] < n_all ? sizes[s] : n_all;
		ids[s] = calloc(n, sizeof(__u32));
		ids[s][0] = id;
		/* spread the others over the whole list */
		for (i = 0, j = 1; j < n && i < n_all; i += n_all / n ?: 1)
			if (all[i].id != (__u32)id)
				ids[s][j++] = all[i].id;
		sizes[s] = j;
	}
	for (r = 0; r < PC_ROUNDS; r++) {
		settle();
		t[3][r] = time_calls();
		for (s = 0; s < 3; s++) {
			LIBBPF_OPTS(bpf_link_create_opts, o);

			o.tracing_multi.ids = ids[s];
			o.tracing_multi.cnt = sizes[s];
			fd = bpf_link_create(bpf_program__fd(skel->progs.bench_count_multi), 0,
					     BPF_TRACE_FENTRY_MULTI, &o);
			if (fd < 0) {
				printf("# per call: cannot attach a link on %zu functions: %s\n",
				       sizes[s], strerror(errno));
				return false;
			}
			settle();
			skel->bss->runs = 0;
			t[s][r] = time_calls();
			runs[s][r] = (double)skel->bss->runs / (PC_WARMUP + PC_CALLS);
			close(fd);
			after_detach();
		}
	}
	printf("# per call against the link's size: a counting fentry.multi program, "
	       "best of %d rounds of %d getpgid(0) calls\n", PC_ROUNDS, PC_CALLS);
	snprintf(per_call, sizeof(per_call), "%s/call", unit);
	snprintf(per_run_s, sizeof(per_run_s), "%s/run", unit);
	printf("%-20s %10s %10s | %10s | %10s %10s\n", "link on", per_call, "median",
	       "runs/call", per_run_s, "median");
	bare = spread_of(t[3], PC_ROUNDS);
	printf("%-20s %10.0f %10.0f |\n", "nothing", bare.min, bare.med);
	for (s = 0; s < 3; s++) {
		struct spread c = spread_of(t[s], PC_ROUNDS), u = spread_of(runs[s], PC_ROUNDS);
		char what[64];

		per_run[s] = (c.min - bare.min) / u.med;
		snprintf(what, sizeof(what), "%zu function%s", sizes[s], sizes[s] > 1 ? "s" : "");
		printf("%-20s %10.0f %10.0f | %10.2f | %10.0f %10.0f\n", what, c.min, c.med,
		       u.med, per_run[s], (c.med - bare.med) / u.med);
		free(ids[s]);
	}
	met = per_run[1] <= 1.1 * per_run[0] && per_run[2] <= 1.1 * per_run[0];
	printf("# %s per run, against a link on 1 function: %zu functions %.2fx, %zu functions "
	       "%.2fx (target <= 1.1x: %s)\n", unit, sizes[1], per_run[1] / per_run[0], sizes[2],
	       per_run[2] / per_run[0], met ? "met" : "MISSED");
	return met;
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
	for (r = 0; r < (have_kprobe_multi ? 2 : 1); r++) {
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

/* n of the n_all candidates, spread over the whole list (calloc'd) */
static struct func *spread_subset(const struct func *all, size_t n_all, size_t n)
{
	struct func *f = calloc(n, sizeof(*f));
	size_t i;

	for (i = 0; i < n; i++)
		f[i] = all[i * (n_all / n)];
	return f;
}

/* Attach and detach time against N: one tracing_multi link, N fentry
 * links (N <= max_fentry) and one kprobe_multi link on the same N
 * functions, for N = 10, 100, 1000, 10000 and all candidates; medians of
 * REPS runs (3 for N > 100 fentry links). With BENCH_DATA=DIR in the
 * environment the medians also go to DIR/attach.dat for the plot.
 */
static bool bench_attach_time(const struct func *all, size_t n_all, size_t max_fentry)
{
	size_t sizes[] = { 10, 100, 1000, 10000, n_all }, nsizes = 5, s;
	const char *dir = getenv("BENCH_DATA");
	FILE *dat = NULL;
	bool met = true;
	char path[512];

	if (dir) {
		snprintf(path, sizeof(path), "%s/attach.dat", dir);
		dat = fopen(path, "w");
		if (!dat)
			printf("# cannot write %s: %s\n", path, strerror(errno));
		else
			fprintf(dat, "# N tracing_multi_attach tracing_multi_detach fentry_attach "
				"fentry_detach kprobe_multi_attach kprobe_multi_detach (s; - none)\n");
	}
	printf("# attach and detach time (s), medians of %d runs (3 for more than 100 fentry "
	       "links)\n", REPS);
	printf("%8s | %22s | %22s | %22s | %10s %10s | %10s %10s\n", "", "tracing_multi (s)",
	       "fentry links (s)", "kprobe_multi (s)", "fentry/", "", "multi/", "");
	printf("%8s | %10s %11s | %10s %11s | %10s %11s | %10s %10s | %10s %10s\n", "N",
	       "attach", "detach", "attach", "detach", "attach", "detach",
	       "tm attach", "tm detach", "kpm attach", "kpm detach");
	for (s = 0; s < nsizes; s++) {
		size_t n = sizes[s] < n_all ? sizes[s] : n_all;
		const attach_fn kinds[2] = { multi_attach, kmulti_attach }, fentry = NULL;
		struct func *f;
		struct result r[2] = {}, fe = {}, tm, km;

		if (s && n == (sizes[s - 1] < n_all ? sizes[s - 1] : n_all))
			continue;
		f = spread_subset(all, n_all, n);
		medians(kinds, have_kprobe_multi ? 2 : 1, f, n, REPS, r);
		tm = r[0];
		km = r[1];
		if (n <= max_fentry)
			medians(&fentry, 1, f, n, n > 100 ? 3 : REPS, &fe);
		printf("%8zu | %10.4f %11.4f |", n, tm.attach, tm.detach);
		if (fe.ok)
			printf(" %10.4f %11.4f |", fe.attach, fe.detach);
		else
			printf(" %10s %11s |", "-", "-");
		if (have_kprobe_multi)
			printf(" %10.4f %11.4f |", km.attach, km.detach);
		else
			printf(" %10s %11s |", "-", "-");
		if (fe.ok) {
			print_ratio(fe.attach, tm.attach);
			print_ratio(fe.detach, tm.detach);
		} else {
			printf(" %10s %10s", "-", "-");
		}
		printf(" |");
		if (have_kprobe_multi) {
			print_ratio(tm.attach, km.attach);
			print_ratio(tm.detach, km.detach);
		} else {
			printf(" %10s %10s", "-", "-");
		}
		printf("\n");
		if (dat) {
			fprintf(dat, "%zu %.6f %.6f", n, tm.attach, tm.detach);
			if (fe.ok)
				fprintf(dat, " %.6f %.6f", fe.attach, fe.detach);
			else
				fprintf(dat, " - -");
			if (have_kprobe_multi)
				fprintf(dat, " %.6f %.6f\n", km.attach, km.detach);
			else
				fprintf(dat, " - -\n");
		}
		met &= tm.ok && (km.ok || !have_kprobe_multi);
		if (n == n_all && have_kprobe_multi)
			met &= tm.attach <= km.attach;
		if (n == 1000)
			met &= fe.ok && fe.attach >= 100 * tm.attach;
		free(f);
	}
	if (dat)
		fclose(dat);
	if (have_kprobe_multi)
		printf("# targets: at N=1000 tracing_multi attaches >= 100x faster than 1000 "
		       "fentry links; with all functions within 1.0x kprobe_multi's attach "
		       "time: %s\n", met ? "met" : "MISSED");
	else
		printf("# targets: at N=1000 tracing_multi attaches >= 100x faster than 1000 "
		       "fentry links: %s; with all functions within 1.0x kprobe_multi's attach "
		       "time: n/a (no kprobe_multi)\n", met ? "met" : "MISSED");
	return met;
}

/* The values of the nkeys keys of /proc/meminfo in kb[] (kB, -1 if absent),
 * in one read
 */
static void meminfo_kb(const char *const *keys, int nkeys, long *kb)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	int k;

	for (k = 0; k < nkeys; k++)
		kb[k] = -1;
	while (f && fgets(line, sizeof(line), f))
		for (k = 0; k < nkeys; k++) {
			size_t len = strlen(keys[k]);

			if (!strncmp(line, keys[k], len) && line[len] == ':')
				kb[k] = strtol(line + len + 1, NULL, 10);
		}
	if (f)
		fclose(f);
}

/* How long `bpftool link show pinned` takes, plain and with -j (medians
 * of 3), for a tracing_multi link and for a kprobe_multi link on the same
 * 1, 1000 and n functions (spread over all), taking turns, and their
 * ratio. While a link on many functions is attached every process runs
 * slower (its program runs in most kernel functions), so `bpftool version`
 * is timed alongside: what link show takes beyond it is the showing. And
 * a read of /proc/kallsyms, which lists every trampoline image a
 * tracing_multi link made, and whose BPF part 6.12 walks from the head of
 * its list for every symbol.
 */
static void time_link_show(const struct func *all, size_t n_all)
{
	static const char *pin = "/sys/fs/bpf/bench_attach_link";
	static const char *const fmt[] = { "bpftool link show pinned %s >/dev/null",
					   "bpftool -j link show pinned %s >/dev/null",
					   "bpftool version >/dev/null",
					   "cat /proc/kallsyms >/dev/null" };
	static const char *const names[2] = { "tracing_multi", "kprobe_multi" };
	const attach_fn kinds[2] = { multi_attach, kmulti_attach };
	size_t sizes[3] = { 1, 1000, n_all }, s;
	double t[2][4], r[3];
	char cmd[256];
	int fd, i, k, c;

	printf("# bpftool link show pinned, plain and -j, with a link on N functions (s, medians of 3);\n"
	       "# bpftool version and cat /proc/kallsyms timed beside each\n");
	printf("%8s %-14s | %9s %9s | %9s %9s | %s\n", "N", "link", "show", "show -j", "version",
	       "kallsyms", "tracing_multi / kprobe_multi: show, show -j");
	for (s = 0; s < 3; s++) {
		size_t n = sizes[s] < n_all ? sizes[s] : n_all;
		struct func *f = spread_subset(all, n_all, n);

		for (k = 0; k < 2; k++) {
			if (k && !have_kprobe_multi) {
				printf("%8zu %-14s | %9s %9s | %9s %9s |\n", n, names[k], "-", "-", "-",
				       "-");
				continue;
			}
			fd = kinds[k](f, n);
			unlink(pin);
			if (fd < 0 || bpf_obj_pin(fd, pin)) {
				printf("# link show: can't pin a %s link on %zu functions: %s\n",
				       names[k], n, strerror(errno));
				if (fd >= 0)
					close(fd);
				free(f);
				return;
			}
			for (c = 0; c < 4; c++) {
				snprintf(cmd, sizeof(cmd), fmt[c], pin);
				for (i = 0; i < 3; i++)
					r[i] = time_cmd(cmd);
				qsort(r, 3, sizeof(r[0]), cmp_double);
				t[k][c] = r[1];
			}
			unlink(pin);
			close(fd);
			after_detach();
			printf("%8zu %-14s | %9.2f %9.2f | %9.2f %9.2f |", n, names[k], t[k][0], t[k][1],
			       t[k][2], t[k][3]);
			if (k)
				printf(" %.2fx %.2fx", t[0][0] / t[1][0], t[0][1] / t[1][1]);
			printf("\n");
		}
		free(f);
	}
}

/* Kernel memory per attached function: slab, vmalloc (trampoline images
 * live in bpf_prog_pack's executable chunks, big arrays in kvmalloc) and
 * percpu memory read before an attach and after it, each from an idle
 * guest; medians of 3. For a tracing_multi link and a kprobe_multi link on
 * 1000, 10000 and all candidates (bpf_prog_pack hands out 2 MB chunks, so
 * small N round to them).
 */
static void bench_memory(const struct func *all, size_t n_all)
{
	static const char *const keys[] = { "Slab", "VmallocUsed", "Percpu" };
	size_t sizes[] = { 1000, 10000, n_all }, s;
	const attach_fn kinds[2] = { multi_attach, kmulti_attach };
	static const char *const names[2] = { "tracing_multi", "kprobe_multi" };
	double d[3][3];
	int k, r, m;

	printf("# kernel memory an attached link takes (kB; medians of 3), and per function\n");
	printf("%8s %-14s | %10s %12s %10s | %10s %12s\n", "N", "link", "slab", "vmalloc",
	       "percpu", "total", "bytes/func");
	for (s = 0; s < 3; s++) {
		size_t n = sizes[s] < n_all ? sizes[s] : n_all;
		struct func *f = spread_subset(all, n_all, n);

		for (k = 0; k < 2; k++) {
			double tot = 0;

			if (k && !have_kprobe_multi) {
				printf("%8zu %-14s | %10s %12s %10s | %10s %12s\n", n, names[k],
				       "-", "-", "-", "-", "-");
				continue;
			}
			for (r = 0; r < 3; r++) {
				long before[3], after[3];
				int fd;

				settle();
				meminfo_kb(keys, 3, before);
				fd = kinds[k](f, n);
				if (fd < 0) {
					printf("# memory: %s attach failed: %s\n", names[k],
					       strerror(errno));
					free(f);
					return;
				}
				settle();
				meminfo_kb(keys, 3, after);
				for (m = 0; m < 3; m++)
					d[m][r] = after[m] - before[m];
				close(fd);
			}
			printf("%8zu %-14s |", n, names[k]);
			for (m = 0; m < 3; m++) {
				double med = spread_of(d[m], 3).med;

				printf(m == 1 ? " %12.0f" : " %10.0f", med);
				tot += med;
			}
			printf(" | %10.0f %12.0f\n", tot, tot * 1024 / n);
		}
		free(f);
	}
}

/* Whether kprobe_multi links work here: a link on PC_SYM. Not on arm64
 * with 6.12, where fprobe needs DYNAMIC_FTRACE_WITH_REGS (EOPNOTSUPP).
 */
static bool kprobe_multi_works(void)
{
	int fd = kmulti_one(PC_SYM, false);

	if (fd < 0) {
		printf("# kprobe_multi: not available on this kernel (%s): its columns show -\n",
		       strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

int main(int argc, char **argv)
{
	size_t max_fentry = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;
	size_t n_all, s;
	bool met = true;
	struct func *all;

	setvbuf(stdout, NULL, _IOLBF, 0);
	btf = btf__load_vmlinux_btf();
	if (btf && getenv("BENCH_PER_CALL_PLAIN")) {
		/* before the skeleton, which a kernel without the series refuses */
		bench_per_call_plain();
		return 0;
	}
	skel = bench_attach__open();
	if (skel && getenv("BENCH_KPROBE_MULTI_ONLY")) {
		struct bpf_program *p;

		/* Its program alone: this mode runs on 6.12 without the series too */
		bpf_object__for_each_program(p, skel->obj)
			bpf_program__set_autoload(p, p == skel->progs.bench_kprobe_multi);
	}
	if (skel) {
		int err = bench_attach__load(skel);

		if (err) {
			bench_attach__destroy(skel);
			skel = NULL;
			errno = -err;
		}
	}
	if (!btf || !skel) {
		fprintf(stderr, "cannot load vmlinux BTF or the bench programs: %s\n",
			strerror(errno));
		return 2;
	}
	all = traceable(&n_all);
	printf("# %zu candidate functions (vmlinux BTF x available_filter_functions)\n", n_all);
	have_kprobe_multi = kprobe_multi_works();
	if (getenv("BENCH_KPROBE_MULTI_ONLY")) {
		/* triage: the same attach of everything without tracing_multi */
		pid_t busy = -1;

		if (!have_kprobe_multi)
			return 2;
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
		if (have_kprobe_multi)
			drop_refused(all, &n_all, kmulti_attach, "kprobe_multi");
		return bench_latency(all, n_all);
	}
	if (getenv("BENCH_PROFILE_N")) {
		n_all = strtoul(getenv("BENCH_PROFILE_N"), NULL, 0) < n_all ?
			strtoul(getenv("BENCH_PROFILE_N"), NULL, 0) : n_all;
		drop_refused(all, &n_all, multi_attach, "tracing_multi");
		if (have_kprobe_multi)
			drop_refused(all, &n_all, kmulti_attach, "kprobe_multi");
		for (s = 0; s < 4; s++) {
			const attach_fn kinds[2] = { multi_attach, kmulti_attach };
			struct result r[2];

			medians(kinds, have_kprobe_multi ? 2 : 1, all, n_all, REPS, r);
			if (have_kprobe_multi)
				printf("N=%zu attach: tracing_multi %.4f kprobe_multi %.4f\n",
				       n_all, r[0].attach, r[1].attach);
			else
				printf("N=%zu attach: tracing_multi %.4f kprobe_multi -\n", n_all,
				       r[0].attach);
		}
		return 0;
	}
	drop_refused(all, &n_all, multi_attach, "tracing_multi");
	if (have_kprobe_multi)
		drop_refused(all, &n_all, kmulti_attach, "kprobe_multi");
	printf("# %zu functions %s attach types accept\n", n_all,
	       have_kprobe_multi ? "all three" : "both");
	if (getenv("BENCH_BPFTOOL_ONLY")) {
		/* triage: bpftool's own time alone */
		time_bpftool_attach(all, n_all);
	} else if (getenv("BENCH_MEMORY_ONLY")) {
		/* triage: kernel memory per attached function alone */
		bench_memory(all, n_all);
	} else if (getenv("BENCH_SHOW_ONLY")) {
		/* triage: bpftool link show alone */
		time_link_show(all, n_all);
	} else if (getenv("BENCH_PER_CALL")) {
		if (!strcmp(getenv("BENCH_PER_CALL"), "icount"))
			unit = "insn";
		met &= bench_per_call();
		met &= bench_per_call_size(all, n_all);
		printf("# per-call targets: %s\n", met ? "all met" : "not all met");
	} else {
		met &= bench_attach_time(all, n_all, max_fentry);
		bench_memory(all, n_all);
		time_link_show(all, n_all);
		time_bpftool_attach(all, n_all);
	}
	bench_attach__destroy(skel);
	btf__free(btf);
	return 0;
}
