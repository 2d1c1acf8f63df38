// SPDX-License-Identifier: GPL-2.0
/* fsession TEST: the fsession (BPF_TRACE_FSESSION) tests, run by
 * tests/45-fsession.bats in the guest. fsession.bpf.c has upstream's
 * fsession_test programs, fsession_extra.bpf.c the rest. The kernel's
 * test run calls bpf_fentry_test1..10 once each (bpf_modify_return_test
 * for an fmod_ret program); the programs record what they saw.
 *
 * Every check prints one line, "ok: ..." or "FAIL: ...". The exit status
 * is 0 only if all checks passed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "fsession.skel.h"
#include "fsession_extra.skel.h"

#define MAX_TRAMP_LINKS 38	/* BPF_MAX_TRAMP_LINKS on x86_64 */

static int failures;

static bool check(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", cond ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		failures++;
	return cond;
}

static void die(const char *what)
{
	fprintf(stderr, "fsession: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* Run prog's test run: 0 when the kernel ran it with retval 0 */
static int test_run(struct bpf_program *prog, __u32 *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err = bpf_prog_test_run_opts(bpf_program__fd(prog), &topts);

	if (retval)
		*retval = topts.retval;
	return err ? -errno : 0;
}

/* Upstream's check_result(): the test run of test1 triggers all the
 * functions, then every result of the object must be 1
 */
static void check_result(struct fsession *skel, const char *what)
{
	__u64 *vars = (__u64 *)skel->bss;
	size_t i, n = sizeof(*skel->bss) / sizeof(__u64), ones = 0;
	__u32 retval = 1;
	int err;

	err = test_run(skel->progs.test1, &retval);
	check(!err && retval == 0, "%s: test run: err %d, retval %u", what, err, retval);
	for (i = 0; i < n; i++)
		ones += vars[i] == 1;
	check(ones == n, "%s: %zu of %zu results are 1", what, ones, n);
	if (ones != n)
		for (i = 0; i < n; i++)
			if (vars[i] != 1)
				printf("  result #%zu is %llu\n", i, (unsigned long long)vars[i]);
}

static struct fsession *open_load(bool with_ip_prog)
{
	struct fsession *skel = fsession__open();

	if (!skel)
		die("open fsession.bpf.o");
	if (!with_ip_prog)
		bpf_program__set_autoload(skel->progs.test6, false);
	if (fsession__load(skel))
		die("load fsession.bpf.o");
	return skel;
}

/* fsession_test: arguments and return value at both ends, the function
 * address, two cookie programs on one function, fentry and fexit beside
 */
static void test_basic(void)
{
	struct fsession *skel = open_load(true);

	check(!fsession__attach(skel), "attach the 11 programs");
	check_result(skel, "fsession_test");
	fsession__destroy(skel);
}

/* fsession_reattach: both of a link's nodes leave the trampoline */
static void test_reattach(void)
{
	struct fsession *skel = open_load(true);

	check(!fsession__attach(skel), "attach");
	check_result(skel, "first attach");
	fsession__detach(skel);
	memset(skel->bss, 0, sizeof(*skel->bss));
	check(!fsession__attach(skel), "attach again");
	check_result(skel, "second attach");
	fsession__detach(skel);
	memset(skel->bss, 0, sizeof(*skel->bss));
	check(!test_run(skel->progs.test1, NULL) && skel->bss->test1_entry_result == 0 &&
	      skel->bss->test7_exit_ok == 0,
	      "detached: the programs don't run");
	fsession__destroy(skel);
}

/* fsession_cookie: no bpf_get_func_ip() user, so no IP slot: the cookie
 * slots sit one word higher
 */
static void test_cookie(void)
{
	struct fsession *skel = open_load(false);

	check(!fsession__attach(skel), "attach without test6");
	skel->bss->test6_entry_result = 1;
	skel->bss->test6_exit_result = 1;
	check_result(skel, "fsession_cookie");
	fsession__destroy(skel);
}

/* fsession_extra.bpf.o opened, with the programs of NULL-terminated names
 * and the trigger set to load
 */
static struct fsession_extra *extra_open(const char *const *names)
{
	struct fsession_extra *skel = fsession_extra__open();

	if (!skel)
		die("open fsession_extra.bpf.o");
	for (; *names; names++)
		bpf_program__set_autoload(bpf_object__find_program_by_name(skel->obj, *names),
					  true);
	bpf_program__set_autoload(skel->progs.trigger, true);
	return skel;
}

/* bpf_get_func_arg_cnt/arg/ret and bpf_get_func_ip in fsession */
static void test_get_func(void)
{
	static const char *const progs[][2] = { { "get_func_args" }, { "get_func_ip" } };
	struct fsession_extra *skel;
	struct bpf_program *prog;
	struct bpf_link *link;
	int i;

	for (i = 0; i < 2; i++) {
		skel = extra_open(progs[i]);
		prog = bpf_object__find_program_by_name(skel->obj, progs[i][0]);
		if (!check(!fsession_extra__load(skel), "load %s", progs[i][0])) {
			fsession_extra__destroy(skel);
			continue;
		}
		link = bpf_program__attach(prog);
		check(link != NULL, "attach %s", progs[i][0]);
		check(!test_run(skel->progs.trigger, NULL), "test run");
		if (i == 0)
			check(skel->bss->args_entry_result == 1 && skel->bss->args_exit_result == 1,
			      "get_func_arg_cnt/arg/ret: entry %llu exit %llu",
			      (unsigned long long)skel->bss->args_entry_result,
			      (unsigned long long)skel->bss->args_exit_result);
		else
			check(skel->bss->ip_entry_result == 1 && skel->bss->ip_exit_result == 1,
			      "get_func_ip: entry %llu exit %llu",
			      (unsigned long long)skel->bss->ip_entry_result,
			      (unsigned long long)skel->bss->ip_exit_result);
		bpf_link__destroy(link);
		fsession_extra__destroy(skel);
	}
}

/* fsession and fmod_ret on one function: the exit run sees the return
 * value fmod_ret chose, and the cookie of the entry
 */
static void test_fmod_ret(void)
{
	static const char *const progs[] = { "session_mr", "fmod_ret", NULL };
	struct fsession_extra *skel = extra_open(progs);
	struct bpf_link *l1, *l2;
	__u32 retval = 0;
	__u64 values[] = { 0, 7 };
	int i;

	if (!check(!fsession_extra__load(skel), "load fsession + fmod_ret")) {
		fsession_extra__destroy(skel);
		return;
	}
	l1 = bpf_program__attach(skel->progs.session_mr);
	l2 = bpf_program__attach(skel->progs.fmod_ret);
	check(l1 && l2, "attach both to bpf_modify_return_test");
	for (i = 0; i < 2; i++) {
		skel->bss->fmod_ret_value = values[i];
		skel->bss->mr_entry_ok = skel->bss->mr_exit_ok = 0;
		skel->bss->mr_exit_ret = 0;
		check(!test_run(skel->progs.fmod_ret, &retval), "test run (fmod_ret returns %llu)",
		      (unsigned long long)values[i]);
		/* the test run's bpf_modify_return_test(1, &b), b = 2, returns 4 */
		check(skel->bss->mr_entry_ok == 1 && skel->bss->mr_exit_ok == 1 &&
		      skel->bss->mr_exit_ret == (values[i] ? values[i] : 4),
		      "fmod_ret %llu: entry ok %llu, exit ok %llu, exit sees ret %llu",
		      (unsigned long long)values[i], (unsigned long long)skel->bss->mr_entry_ok,
		      (unsigned long long)skel->bss->mr_exit_ok,
		      (unsigned long long)skel->bss->mr_exit_ret);
	}
	bpf_link__destroy(l2);
	bpf_link__destroy(l1);
	fsession_extra__destroy(skel);
}

/* An fsession program takes two of a trampoline's 38 program slots:
 * 19 fit, with their cookies each in its own slot, the 20th gets E2BIG.
 * On arm64 the trampoline's image, at most a page, is full first: the
 * code of 36 program runs fits, that of 38 does not; 18 fit, the 19th
 * gets E2BIG.
 */
#ifdef __aarch64__
#define FSESSION_FIT 18
#else
#define FSESSION_FIT (MAX_TRAMP_LINKS / 2)
#endif

static void test_limit(bool with_ip)
{
	struct fsession_extra *skels[FSESSION_FIT + 1] = {};
	struct bpf_link *links[FSESSION_FIT + 1] = {};
	int i, n = FSESSION_FIT, err, ok = 0, entries = 0;
	const char *what = with_ip ? "cookies and an IP slot" : "cookies";
	const char *const progs[] = { with_ip ? "cookie_limit_ip" : "cookie_limit", NULL };

	for (i = 0; i <= n; i++) {
		struct bpf_program *prog;

		skels[i] = extra_open(progs);
		prog = bpf_object__find_program_by_name(skels[i]->obj, progs[0]);
		if (fsession_extra__load(skels[i]))
			die("load fsession_extra.bpf.o");
		skels[i]->bss->my_value = 0x5e55000000000000ull | (i + 1);
		links[i] = bpf_program__attach(prog);
		err = links[i] ? 0 : -errno;
		if (i < n && !check(!err, "%s: fsession program %d of %d attaches", what, i + 1, n))
			break;
		if (i == n)
			check(err == -E2BIG, "%s: program %d gets E2BIG (got %d)", what, n + 1, err);
	}
	check(!test_run(skels[0]->progs.trigger, NULL), "test run");
	for (i = 0; i < n; i++) {
		if (!skels[i])
			break;
		entries += skels[i]->bss->limit_entries == 1;
		ok += skels[i]->bss->limit_exits_ok == 1;
	}
	check(entries == n && ok == n, "%s: %d of %d programs ran at the entry, %d saw their own cookie at the exit",
	      what, entries, n, ok);
	for (i = 0; i <= n; i++) {
		bpf_link__destroy(links[i]);
		fsession_extra__destroy(skels[i]);
	}
}

static void test_rejects(void)
{
	static const struct {
		const char *prog;
		int err;
		const char *log;
	} cases[] = {
		{ "noreturn", EINVAL, "Attaching fexit/fsession/fmod_ret to __noreturn functions is rejected." },
		{ "returns_1", EINVAL, "should have been in [0, 0]" },
		{ "fentry_cookie", EACCES, "calling kernel function bpf_session_cookie is not allowed" },
		{ "fexit_is_return", EACCES, "calling kernel function bpf_session_is_return is not allowed" },
	};
	static char log[1 << 16];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const progs[] = { cases[i].prog, NULL };
		struct fsession_extra *skel = extra_open(progs);
		struct bpf_program *prog;
		int err;

		prog = bpf_object__find_program_by_name(skel->obj, cases[i].prog);
		log[0] = 0;
		bpf_program__set_log_buf(prog, log, sizeof(log));
		err = fsession_extra__load(skel);
		check(err == -cases[i].err && strstr(log, cases[i].log),
		      "%s refused at load: %d (want %d), log has \"%s\"",
		      cases[i].prog, err, -cases[i].err, cases[i].log);
		fsession_extra__destroy(skel);
	}
}

/* kprobe session programs keep working with the kfuncs' new prototype */
static void test_kprobe_session(void)
{
	static const char *const progs[] = { "kprobe_session1", "kprobe_session2", NULL };
	struct fsession_extra *skel = extra_open(progs);

	if (!check(!fsession_extra__load(skel), "load two kprobe.session programs")) {
		fsession_extra__destroy(skel);
		return;
	}
	skel->bss->pid = getpid();
	skel->links.kprobe_session1 = bpf_program__attach(skel->progs.kprobe_session1);
	skel->links.kprobe_session2 = bpf_program__attach(skel->progs.kprobe_session2);
	check(skel->links.kprobe_session1 && skel->links.kprobe_session2, "attach them");
	check(!test_run(skel->progs.trigger, NULL), "test run");
	check(skel->bss->kprobe_result1 == 1 && skel->bss->kprobe_result2 == 2,
	      "each saw its own cookie at the return: %llu %llu (want 1 2)",
	      (unsigned long long)skel->bss->kprobe_result1,
	      (unsigned long long)skel->bss->kprobe_result2);
	fsession_extra__destroy(skel);
}

int main(int argc, char **argv)
{
	const char *test = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(test, "basic"))
		test_basic();
	else if (!strcmp(test, "reattach"))
		test_reattach();
	else if (!strcmp(test, "cookie"))
		test_cookie();
	else if (!strcmp(test, "get_func"))
		test_get_func();
	else if (!strcmp(test, "fmod_ret"))
		test_fmod_ret();
	else if (!strcmp(test, "limit")) {
		test_limit(false);
		test_limit(true);
	} else if (!strcmp(test, "rejects"))
		test_rejects();
	else if (!strcmp(test, "kprobe_session"))
		test_kprobe_session();
	else {
		fprintf(stderr, "usage: %s basic|reattach|cookie|get_func|fmod_ret|limit|rejects|kprobe_session\n",
			argv[0]);
		return 2;
	}
	printf("%d failed\n", failures);
	return failures ? 1 : 0;
}
